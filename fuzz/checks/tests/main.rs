//! Every fuzz target for a bounded number of iterations from a fixed seed, on stable Rust, so
//! that CI runs them all (one integration-test binary: each links LLVM and Bitwuzla). A
//! failure names the iteration, which `fuzz-driver TARGET --random-seed SEED --start I --iterations 1`
//! reruns alone. Each target must also reach the inputs it exists for (terms that are
//! rewritten, programs that diverge, ...): a check that passes on nothing interesting is no
//! check.

use penumbra_fuzz_checks::targets::{nth_input, run_input, target};
use std::collections::BTreeMap;

const SEED: u64 = 0x00f0_2202_6000_0006;

/// Runs `name`'s test iterations; returns the count of inputs per class.
fn run(name: &str) -> BTreeMap<&'static str, u64> {
    let t = target(name).unwrap();
    let mut classes = BTreeMap::new();
    for i in 0..t.test_iterations {
        let data = nth_input(t, SEED, i);
        match run_input(t, &data) {
            Ok(class) => *classes.entry(class).or_insert(0) += 1,
            Err(finding) => panic!(
                "{name}: finding at iteration {i} (rerun: fuzz-driver {name} --random-seed {SEED} --start {i} --iterations 1):\n{finding}"
            ),
        }
    }
    eprintln!("{name}: {} iterations, inputs by class: {classes:?}", t.test_iterations);
    classes
}

/// `classes[class]` is at least `percent` % of `total`.
#[track_caller]
fn at_least(classes: &BTreeMap<&str, u64>, class: &str, percent: u64, total: u64) {
    let got = classes.get(class).copied().unwrap_or(0);
    assert!(got * 100 >= percent * total, "only {got} of {total} inputs are {class:?}: {classes:?}");
}

/// `classes[class]` is at most `percent` % of `total`.
#[track_caller]
fn at_most(classes: &BTreeMap<&str, u64>, class: &str, percent: u64, total: u64) {
    let got = classes.get(class).copied().unwrap_or(0);
    assert!(got * 100 <= percent * total, "{got} of {total} inputs are {class:?}: {classes:?}");
}

#[test]
fn terms() {
    let c = run("terms");
    let total = target("terms").unwrap().test_iterations;
    at_least(&c, "rewritten", 50, total);
    assert_eq!(c.get("unknown"), None, "a query timed out: {c:?}");
}

#[test]
fn fixed_inputs() {
    let c = run("fixed_inputs");
    let total = target("fixed_inputs").unwrap().test_iterations;
    at_least(&c, "exit", 10, total);
    at_least(&c, "error", 10, total);
    // Programs that are not compared stay rare.
    at_most(&c, "step-limit", 2, total);
    at_most(&c, "budget", 2, total);
}

#[test]
fn shadow() {
    let c = run("shadow");
    let total = target("shadow").unwrap().test_iterations;
    // Every kind of divergence the oracle tells apart occurs.
    at_least(&c, "diverges at a branch", 10, total);
    at_least(&c, "diverges at a switch", 3, total);
    at_least(&c, "diverges at a check", 10, total);
    at_least(&c, "diverges in an execute block", 3, total);
    at_least(&c, "diverges in output", 10, total);
    at_least(&c, "same", 5, total);
}

#[test]
fn ktest() {
    let c = run("ktest");
    let total = target("ktest").unwrap().test_iterations;
    at_least(&c, "valid", 20, total);
    at_least(&c, "rejected", 20, total);
}

#[test]
fn frontend() {
    let c = run("frontend");
    let total = target("frontend").unwrap().test_iterations;
    at_least(&c, "compiled", 25, total);
    at_least(&c, "rejected", 5, total);
    at_most(&c, "not loaded", 5, total);
}

/// The cargo-fuzz package has one target per entry of `TARGETS`, each a wrapper of that name.
#[test]
fn cargo_fuzz_targets_match_the_table() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let mut listed: Vec<String> = std::fs::read_dir(dir.join("fuzz_targets"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    listed.sort();
    let mut names: Vec<String> = penumbra_fuzz_checks::TARGETS.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(listed, names);
    for name in &names {
        assert!(
            manifest.contains(&format!("name = \"{name}\"\npath = \"fuzz_targets/{name}.rs\"")),
            "{name} in fuzz/Cargo.toml"
        );
        let source = std::fs::read_to_string(dir.join(format!("fuzz_targets/{name}.rs"))).unwrap();
        assert!(source.contains(&format!("fuzz_one(\"{name}\", data)")), "fuzz_targets/{name}.rs");
    }
}

/// A stable run's inputs are a pure function of (seed, iteration), of the documented lengths.
#[test]
fn inputs_are_reproducible() {
    for t in penumbra_fuzz_checks::TARGETS {
        for i in 0..50 {
            let a = nth_input(t, SEED, i);
            assert_eq!(a, nth_input(t, SEED, i));
            assert!(a.len() >= t.input_len / 4 && a.len() <= t.input_len, "{}: {}", t.name, a.len());
        }
        assert_ne!(nth_input(t, SEED, 0), nth_input(t, SEED, 1));
    }
}

/// Every input a fuzzer once failed on (`fuzz/regressions/TARGET/*`, each named after the bug
/// it found) passes its target now.
#[test]
fn past_findings_pass() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../regressions");
    let mut folders: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    folders.sort();
    let mut seen = 0;
    for folder in folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let t = target(&name).unwrap_or_else(|| panic!("{}: no fuzz target is called {name:?}", folder.display()));
        let mut files: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).unwrap();
            if let Err(finding) = run_input(t, &data) {
                panic!("{} fails {}:\n{finding}", file.display(), t.name);
            }
            seen += 1;
        }
    }
    assert!(seen >= 1, "no regression inputs under {}", dir.display());
}
