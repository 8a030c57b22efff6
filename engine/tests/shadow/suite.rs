//! The benchmark suite's expected diff-path counts (`benches/suite/manifest.toml`), established
//! by the brute-force oracle.
//!
//! For every subject with a `domain` (`NAME:int|char:LO:HI`, the program's `penumbra_assume`
//! ranges; the oracle checks that one step outside is rejected), the oracle runs both versions
//! on every input of the domain, complete shadow execution runs on the program, and the two must
//! agree exactly ([`compare::check_summary`]: the count, every test, every diff path covered
//! once). The manifest's `expected_diff_paths` must then be the oracle's count and
//! `oracle_verified` must be `true`, so the numbers the batch tables compare against are the
//! oracle's, not the engine's own.
//!
//! One test over the whole suite, listing every subject that disagrees, split over two threads
//! (the oracle's concrete runs dominate its time).

use super::compare;
use super::oracle::{Oracle, Var};
use std::path::{Path, PathBuf};

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../benches/suite")
}

/// One subject of the manifest that has a domain.
pub(super) struct Subject {
    pub name: String,
    pub source: String,
    pub vars: Vec<Var>,
    pub expected_diff_paths: Option<i64>,
    pub oracle_verified: Option<bool>,
}

/// `NAME:int|char:LO:HI` as an oracle variable. The names live as long as the test binary (the
/// oracle's variables name `&'static str`s), a few bytes per subject.
fn parse_var(subject: &str, text: &str) -> Var {
    let parts: Vec<&str> = text.split(':').collect();
    let [name, ty, lo, hi] = parts[..] else { panic!("{subject}: domain entry {text:?} is not NAME:TYPE:LO:HI") };
    let bytes = match ty {
        "int" => 4,
        "char" => 1,
        other => panic!("{subject}: domain entry {text:?}: unknown type {other:?} (int or char)"),
    };
    let num = |s: &str| {
        s.parse::<i64>().unwrap_or_else(|_| panic!("{subject}: domain entry {text:?}: {s:?} is not a number"))
    };
    let (lo, hi) = (num(lo), num(hi));
    assert!(lo <= hi, "{subject}: domain entry {text:?} is empty");
    Var { name: Box::leak(name.to_string().into_boxed_str()), bytes, lo, hi }
}

/// The manifest's subjects that have a domain, in manifest order.
pub(super) fn subjects() -> Vec<Subject> {
    let path = suite_dir().join("manifest.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let manifest: toml::Table = text.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let list = manifest.get("subject").and_then(|s| s.as_array()).expect("the manifest has [[subject]] tables");
    let mut out = Vec::new();
    for s in list {
        let name = s.get("name").and_then(|v| v.as_str()).expect("every subject has a name").to_string();
        let Some(domain) = s.get("domain") else { continue };
        let vars = domain
            .as_array()
            .unwrap_or_else(|| panic!("{name}: domain is not a list"))
            .iter()
            .map(|v| parse_var(&name, v.as_str().unwrap_or_else(|| panic!("{name}: domain entries are strings"))))
            .collect();
        let file = s.get("source").and_then(|v| v.as_str()).unwrap_or_else(|| panic!("{name}: no source"));
        let source_path = suite_dir().join(file);
        let source = std::fs::read_to_string(&source_path).unwrap_or_else(|e| panic!("{}: {e}", source_path.display()));
        out.push(Subject {
            name,
            source,
            vars,
            expected_diff_paths: s.get("expected_diff_paths").and_then(|v| v.as_integer()),
            oracle_verified: s.get("oracle_verified").and_then(|v| v.as_bool()),
        });
    }
    out
}

/// Every problem with one subject (empty when the oracle, the engine and the manifest agree).
fn check(s: &Subject) -> Vec<String> {
    let start = std::time::Instant::now();
    let module = compare::compile(&s.name, &s.source);
    let oracle = Oracle::new(&module, &s.vars);
    let expected = oracle.explore();
    let count = expected.diff_paths() as i64;
    eprintln!(
        "suite oracle {}: {count} diff paths ({} divergent, {} same, {} both-error inputs; oracle {:.1} s)",
        s.name,
        expected.divergent.len(),
        expected.same,
        expected.both_error,
        start.elapsed().as_secs_f64()
    );
    let mut problems = match compare::engine(&module) {
        Ok(summary) => compare::check_summary(&oracle, &expected, &summary),
        Err(e) => vec![format!("the engine failed: {e}")],
    };
    if s.expected_diff_paths != Some(count) {
        problems
            .push(format!("manifest: expected_diff_paths = {:?}, the oracle counts {count}", s.expected_diff_paths));
    }
    if s.oracle_verified != Some(true) {
        problems.push(format!("manifest: oracle_verified = {:?}, should be true", s.oracle_verified));
    }
    problems
}

#[test]
fn suite_counts_are_the_oracles() {
    let subjects = subjects();
    // The suite has 41 subjects, all bounded; a manifest that lost its domains must not pass.
    assert_eq!(subjects.len(), 41, "subjects with a domain in benches/suite/manifest.toml");
    let halves: Vec<Vec<(usize, String)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|k| {
                let subjects = &subjects;
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for (i, s) in subjects.iter().enumerate().skip(k).step_by(2) {
                        let problems = check(s);
                        if !problems.is_empty() {
                            failures.push((i, format!("{}:\n  {}", s.name, problems.join("\n  "))));
                        }
                    }
                    failures
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a checking thread panicked")).collect()
    });
    // In manifest order, whichever thread found them.
    let mut failures: Vec<(usize, String)> = halves.into_iter().flatten().collect();
    failures.sort();
    let failures: Vec<String> = failures.into_iter().map(|(_, f)| f).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
