//! Target 3, complete shadow execution vs. the brute-force oracle: a random unified IR program
//! over a small input domain ([`crate::shadowgen`]) is run by the engine in complete shadow
//! mode, and the oracle ([`crate::oracle`]) runs both versions concretely on every input of the
//! domain. Every divergence the engine reports must reproduce on its input (at the reported
//! line, with the reported sides, ending as the new version ends), no other test's input may
//! diverge, and the engine's tests must cover each of the oracle's diff paths exactly once
//! (none missed). The comparison is [`crate::compare::check_summary`], the one the engine's
//! hand-written shadow programs are checked with.

use crate::compare::{check_summary, show_test};
use crate::oracle::Oracle;
use crate::shadowgen::random_shadow_program;
use crate::source::Source;
use penumbra_engine::{Budgets, EngineConfig, Output, SearchKind, ShadowMode};
use std::time::Duration;

/// The fuzz target (see the module documentation). `Ok` says whether the program diverged.
pub fn check(data: &[u8]) -> Result<&'static str, String> {
    let mut u = arbitrary::Unstructured::new(data);
    // Every search strategy must find the same diff paths; depth-first is the default.
    let search = *u.pick(&[SearchKind::Dfs, SearchKind::Dfs, SearchKind::Bfs, SearchKind::RandomPath]);
    let seed = u.below(1 << 16);
    let program = random_shadow_program(&mut u);
    let module = &program.module;
    let listing = || penumbra_ir::module_to_string(module);
    let oracle = Oracle::new(module, &program.vars);
    let expected = oracle.explore();
    let config = EngineConfig {
        shadow: Some(ShadowMode::Complete),
        output: Output::None,
        keep_test_records: true,
        search,
        seed,
        // A safety net only: the programs have at most a few hundred paths.
        budgets: Budgets { max_time: Some(Duration::from_secs(60)), ..Budgets::default() },
        ..EngineConfig::default()
    };
    let summary = penumbra_engine::run(module, &config)
        .map_err(|e| format!("the engine failed: {e}\nprogram:\n{}", listing()))?;
    if let Some(why) = &summary.stopped_by {
        return Err(format!("the engine stopped early ({why:?}) on a program of a few hundred paths:\n{}", listing()));
    }
    let problems = check_summary(&oracle, &expected, &summary);
    if !problems.is_empty() {
        let tests: Vec<String> = summary.tests.iter().map(show_test).collect();
        return Err(format!(
            "complete shadow execution ({} search) disagrees with the oracle on the domain {:?}:\n- {}\nengine tests:\n  {}\nprogram:\n{}",
            search.name(),
            program.vars,
            problems.join("\n- "),
            tests.join("\n  "),
            listing()
        ));
    }
    Ok(if expected.diff_paths() > 0 { "diverges" } else { "same" })
}
