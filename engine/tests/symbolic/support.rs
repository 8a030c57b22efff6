//! Helpers: compile C, run it symbolically, replay every test concretely.

#![allow(dead_code)]

use penumbra_engine::output::replay::check_tests;
use penumbra_engine::output::testgen::TestRecord;
use penumbra_engine::{run, EngineConfig, RunSummary};
use penumbra_ir::{compile_source, CompileOptions, Module};

/// Compiles a C snippet (with `penumbra.h` available).
pub fn compile(src: &str) -> Module {
    compile_source("test.c", src, &CompileOptions::default()).unwrap_or_else(|e| panic!("compile error: {e}"))
}

/// The default configuration of these tests: DFS, records kept, no files.
pub fn config() -> EngineConfig {
    let mut c = EngineConfig::default();
    c.env.program_name = "test.c".into();
    c
}

/// Runs `module` symbolically.
pub fn run_with(module: &Module, config: &EngineConfig) -> RunSummary {
    run(module, config).unwrap_or_else(|e| panic!("run failed: {e}"))
}

/// Compiles and explores `src` with the default configuration, then checks that every test
/// replays concretely to the same outcome.
pub fn explore(src: &str) -> RunSummary {
    let module = compile(src);
    let config = config();
    let summary = run_with(&module, &config);
    assert_replays(&module, &config, &summary);
    summary
}

/// Every test of `summary` replays to the same outcome.
pub fn assert_replays(module: &Module, config: &EngineConfig, summary: &RunSummary) {
    let args = penumbra_engine::output::testgen::ktest_args(&config.env);
    let version = config.mode.single().expect("a single-version run");
    let mismatches = check_tests(module, version, &args, &summary.tests);
    assert!(mismatches.is_empty(), "tests that replay differently: {mismatches:#?}");
}

/// The tests of one kind.
pub fn of_kind<'a>(summary: &'a RunSummary, kind: &str) -> Vec<&'a TestRecord> {
    summary.tests.iter().filter(|t| t.kind == kind).collect()
}

/// The input `name` of a test as a little-endian signed integer.
pub fn int_input(t: &TestRecord, name: &str) -> i64 {
    let input = t.inputs.0.iter().find(|i| i.name == name).unwrap_or_else(|| panic!("no input {name} in {t:?}"));
    penumbra_engine::output::ktest::le_int(&input.bytes).expect("an integer-sized input")
}

/// The line of the first line of `src` containing `mark`.
pub fn line_of(src: &str, mark: &str) -> u32 {
    src.lines().position(|l| l.contains(mark)).map(|i| i as u32 + 1).unwrap_or_else(|| panic!("no {mark}"))
}
