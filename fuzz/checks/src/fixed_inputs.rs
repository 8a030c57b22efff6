//! Target 2, symbolic execution with every input fixed vs. the concrete interpreter.
//!
//! A random IR program ([`crate::irgen`], with `pin_inputs`: each byte of each symbolic object
//! is confined to one value by an `assume` right after its creation) has exactly one feasible
//! path. The symbolic engine must find exactly that path: one test, whose inputs are the pinned
//! bytes, ending as the concrete interpreter's run on those bytes ends (the same exit status, or
//! the same error kind at the same line, or an assumption violated, or an unsupported
//! construct). Both run the same version of the program's `change` operations, picked by the
//! input.

use crate::compare::{ending_fits, show_test};
use crate::irgen::random_program;
use crate::source::Source;
use penumbra_engine::concrete::{Inputs, Outcome, Program, RunConfig};
use penumbra_engine::output::testgen::TestRecord;
use penumbra_engine::{Budgets, EngineConfig, Mode, Output};
use penumbra_ir::Version;

/// Generous for programs whose loop runs at most 20 times; a run that hits it is not compared.
const MAX_STEPS: u64 = 200_000;

/// The fuzz target (see the module documentation).
pub fn check(data: &[u8]) -> Result<&'static str, String> {
    let mut u = arbitrary::Unstructured::new(data);
    let version = if u.chance(50) { Version::Old } else { Version::New };
    let generated = random_program(&mut u, true);
    let module = &generated.module;
    let listing = || penumbra_ir::module_to_string(module);
    let program = Program::new(module).map_err(|e| format!("the program does not load: {e}\n{}", listing()))?;
    let concrete = program.run(&RunConfig {
        version,
        inputs: Inputs::Named(generated.inputs.clone()),
        max_steps: Some(MAX_STEPS),
        ..RunConfig::default()
    });
    if concrete.outcome == Outcome::StepLimit {
        return Ok("step-limit");
    }
    let config = EngineConfig {
        mode: Mode::Single(version),
        output: Output::None,
        keep_test_records: true,
        write_path_condition: false,
        budgets: Budgets { max_instructions: Some(20 * MAX_STEPS), ..Budgets::default() },
        ..EngineConfig::default()
    };
    let summary =
        penumbra_engine::run(module, &config).map_err(|e| format!("the engine failed: {e}\n{}", listing()))?;
    // Out of instructions before its one path ended: nothing to compare (more than one test
    // is still a finding, below).
    if summary.stopped_by.is_some() && summary.tests.is_empty() {
        return Ok("budget");
    }
    let fail =
        |what: String| Err(format!("{what}\nconcrete ({version:?}): {}\nprogram:\n{}", concrete.outcome, listing()));
    let [test] = &summary.tests[..] else {
        let kinds: Vec<String> = summary.tests.iter().map(show_test).collect();
        return fail(format!("{} tests for a program with one feasible path: {}", kinds.len(), kinds.join("; ")));
    };
    if !ends_alike(test, &concrete.outcome) {
        return fail(format!("the engine's only path ends differently: {}", show_test(test)));
    }
    for input in &test.inputs.0 {
        let base = input.name.split('#').next().unwrap_or_default();
        if generated.inputs.get(base) != Some(&input.bytes) {
            return fail(format!("the test's input {} = {:?} is not the pinned value", input.name, input.bytes));
        }
    }
    Ok(match concrete.outcome {
        Outcome::Exit(_) => "exit",
        Outcome::Error(_) => "error",
        Outcome::AssumptionViolated(_) => "assume-false",
        Outcome::Unsupported { .. } => "unsupported",
        Outcome::StepLimit => "step-limit",
    })
}

/// Whether an engine test ends as a concrete run did.
fn ends_alike(t: &TestRecord, outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Exit(_) => t.kind == "path" && ending_fits(t, outcome),
        Outcome::Error(_) => t.kind == "error" && ending_fits(t, outcome),
        Outcome::AssumptionViolated(_) => t.kind == "assume-false",
        Outcome::Unsupported { .. } => t.kind == "unsupported",
        Outcome::StepLimit => false,
    }
}
