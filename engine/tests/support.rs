//! Helpers shared by the tests: building IR programs function by function (the module builder
//! lives in penumbra-fuzz-checks, whose program generators use it too), compiling C snippets,
//! and running either.

#![allow(dead_code)]

use penumbra_engine::concrete::{run, Outcome, RunConfig, RunResult};
use penumbra_engine::ErrorKind;
use penumbra_ir::{compile_source, CompileOptions, Module};

pub use penumbra_fuzz_checks::build::{line, ModuleBuilder};

/// Runs with the default configuration.
pub fn run_default(module: &Module) -> RunResult {
    run(module, &RunConfig::default())
}

/// Compiles a C snippet (with `penumbra.h` available), panicking on frontend errors.
pub fn compile(source: &str) -> Module {
    compile_source("test.c", source, &CompileOptions::default()).unwrap_or_else(|e| panic!("compile error: {e}"))
}

/// Compiles and runs a C snippet.
pub fn run_c(source: &str) -> RunResult {
    run_c_with(source, &RunConfig::default())
}

pub fn run_c_with(source: &str, config: &RunConfig) -> RunResult {
    let module = compile(source);
    run(&module, config)
}

/// Asserts the run exited with `status` and printed `stdout`.
#[track_caller]
pub fn assert_exit(result: &RunResult, status: i32, stdout: &str) {
    assert_eq!(result.outcome, Outcome::Exit(status), "stdout so far: {:?}", result.stdout_text());
    assert_eq!(result.stdout_text(), stdout);
}

/// Asserts the run ended with an error of `kind` at `line` of function `func`; returns the
/// message.
#[track_caller]
pub fn assert_error(result: &RunResult, kind: ErrorKind, func: &str, line: u32) -> String {
    match &result.outcome {
        Outcome::Error(e) => {
            assert_eq!((e.kind, e.location.func.as_str(), e.location.line), (kind, func, line), "{}", e.message);
            e.message.clone()
        }
        other => panic!("expected {kind} at {func}:{line}, got {other}"),
    }
}

/// Asserts the run ended as unsupported with `message` at `line`.
#[track_caller]
pub fn assert_unsupported(result: &RunResult, message: &str, line: u32) {
    match &result.outcome {
        Outcome::Unsupported { message: m, location } => {
            assert_eq!((m.as_str(), location.line), (message, line));
        }
        other => panic!("expected unsupported {message:?}, got {other}"),
    }
}
