//! Random well-typed IR programs (a bounded fuzz loop from a fixed seed): loops of arithmetic,
//! memory accesses at random offsets, library calls with random pointers, casts, selects and
//! checks (the generator is penumbra-fuzz-checks' `irgen`, which the `fixed_inputs` fuzz target
//! uses too). Every program must verify, run without panicking within the step budget, and give
//! the same result twice. 400 programs by default; `PENUMBRA_RANDOM_SEEDS=N` runs N.

use penumbra_engine::concrete::{Inputs, Outcome, Program, RunConfig};
use penumbra_fuzz_checks::{irgen::random_program, Rng};

#[test]
fn random_programs_run_deterministically_without_panicking() {
    let mut kinds = std::collections::BTreeMap::new();
    for seed in 0..std::env::var("PENUMBRA_RANDOM_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(400u64) {
        let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let generated = random_program(&mut rng, false);
        let program = Program::new(&generated.module).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let config =
            RunConfig { max_steps: Some(5_000), inputs: Inputs::Named(generated.inputs), ..RunConfig::default() };
        let first = program.run(&config);
        let second = program.run(&config);
        assert_eq!(first, second, "seed {seed} is not deterministic");
        let kind = match &first.outcome {
            Outcome::Exit(_) => "exit".to_string(),
            Outcome::Error(e) => e.kind.as_str().to_string(),
            Outcome::Unsupported { .. } => "unsupported".to_string(),
            Outcome::AssumptionViolated(_) => "assume".to_string(),
            Outcome::StepLimit => "step-limit".to_string(),
        };
        *kinds.entry(kind).or_insert(0) += 1;
    }
    eprintln!("outcomes: {kinds:?}");
    // The generator reaches normal exits and a good spread of errors.
    assert!(kinds.len() >= 8, "outcomes: {kinds:?}");
    assert!(kinds.get("exit").copied().unwrap_or(0) > 10, "outcomes: {kinds:?}");
}
