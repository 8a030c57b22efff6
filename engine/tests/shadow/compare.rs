//! The comparison of complete shadow execution with the oracle, for one program of the suite:
//! the engine's `diff_paths`, each `divergence` test and the set of diff paths the tests cover
//! must be exactly the oracle's (none missed, none twice).
//!
//! The checks themselves ([`check_summary`]) live in penumbra-fuzz-checks beside the oracle,
//! shared with the `shadow` fuzz target; this file compiles the suite's C programs and runs them.

use super::oracle::{Expected, Oracle, Var};
use penumbra_engine::{RunSummary, SearchKind};
pub use penumbra_fuzz_checks::compare::{check_seeded, check_summary, complete_config, report, seeded_config};
use penumbra_ir::{compile_source, CompileOptions, LibcBitcode, Module};

/// Compiles a program of the suite; its file name shows in diagnostics.
pub fn compile(name: &str, source: &str) -> Module {
    compile_source(&format!("{name}.c"), source, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: compile error: {e}"))
}

/// A program of the suite compiled against musl and linked with it (`--libc musl`), from
/// where scripts/build-musl.sh built it.
pub fn compile_with_musl(name: &str, source: &str) -> Module {
    let dir = LibcBitcode::musl_dir()
        .filter(|d| LibcBitcode::is_built(d))
        .unwrap_or_else(|| panic!("musl's bitcode is not built (run scripts/build-musl.sh once)"));
    let options = CompileOptions { libc: Some(LibcBitcode::in_dir(&dir)), ..CompileOptions::default() };
    compile_source(&format!("{name}.c"), source, &options)
        .unwrap_or_else(|e| panic!("{name}: compile error with musl: {e}"))
}

/// Complete shadow execution with every test kept, no files (depth-first search).
pub fn engine(module: &Module) -> Result<RunSummary, String> {
    engine_with(module, SearchKind::Dfs)
}

/// Complete shadow execution under a search strategy.
pub fn engine_with(module: &Module, search: SearchKind) -> Result<RunSummary, String> {
    penumbra_engine::run(module, &complete_config(search, 0)).map_err(|e| e.to_string())
}

/// The outcome of comparing one program.
pub struct Comparison {
    pub expected: Expected,
    pub summary: Option<RunSummary>,
    pub problems: Vec<String>,
}

/// Runs the oracle and the engine on a program and lists every disagreement.
pub fn compare(name: &str, source: &str, vars: &[Var]) -> Comparison {
    let module = compile(name, source);
    let oracle = Oracle::new(&module, vars);
    let expected = oracle.explore();
    match engine(&module) {
        Ok(summary) => {
            let problems = check_summary(&oracle, &expected, &summary);
            Comparison { expected, summary: Some(summary), problems }
        }
        Err(e) => Comparison { expected, summary: None, problems: vec![format!("the engine failed: {e}")] },
    }
}

/// Asserts that the engine agrees with the oracle on a program; prints both counts.
pub fn assert_agrees(name: &str, source: &str, vars: &[Var]) {
    let c = compare(name, source, vars);
    let got = c.summary.as_ref().map_or("-".to_string(), |s| s.diff_paths.to_string());
    eprintln!(
        "shadow oracle {name}: oracle {} diff paths ({} divergent, {} same, {} both-error inputs), engine {got}",
        c.expected.diff_paths(),
        c.expected.divergent.len(),
        c.expected.same,
        c.expected.both_error,
    );
    if !c.problems.is_empty() {
        panic!("{name}: the engine disagrees with the oracle:\n{}", report(&c.problems, c.summary.as_ref()));
    }
}
