//! `change(old, new)` operands belong to their version (issue 14): an operand's side effects
//! and errors happen in its version only, in shadow execution as in single-version runs and
//! the native builds. Expected results are computed by hand in each program's header.

use super::compare::{compile, engine};
use penumbra_engine::{EngineConfig, Mode, RunSummary};
use penumbra_ir::{Module, Version};

/// A single-version run of `module` (what `penumbra exec --version V` explores).
fn single(module: &Module, version: Version) -> RunSummary {
    let config = EngineConfig { mode: Mode::Single(version), ..EngineConfig::default() };
    penumbra_engine::run(module, &config).expect("runs")
}

/// The exit codes and error kinds of a run's paths (those the assumptions allow), sorted.
fn endings(summary: &RunSummary) -> Vec<String> {
    let mut out: Vec<String> = summary
        .tests
        .iter()
        .filter(|t| t.kind != "assume-false")
        .map(|t| match (&t.error, t.exit_code) {
            (Some(e), _) => format!("error {}", e.kind),
            (None, Some(code)) => format!("exit {code}"),
            (None, None) => t.kind.clone(),
        })
        .collect();
    out.sort();
    out
}

/// `(input value, old, new, error kind)` of each divergence test, for one 4-byte input.
fn divergences(summary: &RunSummary, input: &str) -> Vec<(i64, String, String, Option<String>)> {
    let mut out: Vec<_> = summary
        .tests
        .iter()
        .filter(|t| t.kind == "divergence")
        .map(|t| {
            let bytes = &t.inputs.0.iter().find(|i| i.name == input).expect("the input").bytes;
            let value = i32::from_le_bytes(bytes[..4].try_into().unwrap()) as i64;
            let side = |s: &Option<String>| s.clone().unwrap_or_default();
            (value, side(&t.old), side(&t.new), t.error.as_ref().map(|e| e.kind.clone()))
        })
        .collect();
    out.sort();
    out
}

/// k == 0: the new operand dereferences a null pointer, the old one reads 7: a divergence where
/// new fails, and no error in both versions. k != 0: the versions exit with 3 and 7, a
/// divergence in output. Single-version runs see their own operand only.
#[test]
fn an_error_in_the_new_operand_is_the_new_versions_alone() {
    let module = compile("operand_deref", include_str!("programs/operand_deref.c"));
    let s = engine(&module).unwrap();
    assert_eq!(
        divergences(&s, "k"),
        [
            (0, "continues".into(), "fails".into(), Some("null-dereference".into())),
            (1, "value 3".into(), "value 7".into(), None)
        ]
    );
    assert!(s.tests.iter().all(|t| t.kind != "error"), "no error in both versions");
    assert_eq!(endings(&single(&module, Version::Old)), ["exit 3", "exit 7"]);
    assert_eq!(endings(&single(&module, Version::New)), ["error null-dereference", "exit 7"]);
}

/// Each version bumps the counter by its own amount: old ends with 1, new with 100. The
/// versions take different sides at `r > 50` for x == 2, and exit with different statuses
/// (1 and 100) for every other x: one diff path each.
#[test]
fn a_side_effect_of_an_operand_happens_in_its_version_only() {
    let module = compile("operand_effect", include_str!("programs/operand_effect.c"));
    let s = engine(&module).unwrap();
    assert_eq!(
        divergences(&s, "x"),
        [(0, "value 1".into(), "value 100".into(), None), (2, "false".into(), "true".into(), None)]
    );
    let old = single(&module, Version::Old);
    assert_eq!(endings(&old), ["exit 1", "exit 1"]);
    let new = single(&module, Version::New);
    assert_eq!(endings(&new), ["exit 100", "exit 9"]);
}

/// The old operand reads rec[4] when len == 4 and no comma stops the loop: an error in old
/// only (a fix), one diff path; everywhere else the two orders agree and nothing diverges.
#[test]
fn an_out_of_bounds_read_in_the_old_operand_is_a_fix() {
    let module = compile("operand_order", include_str!("programs/operand_order.c"));
    let s = engine(&module).unwrap();
    assert_eq!(s.diff_paths, 1);
    assert_eq!(divergences(&s, "len"), [(4, "fails".into(), "continues".into(), None)]);
    let test = s.tests.iter().find(|t| t.kind == "divergence").unwrap();
    let rec = &test.inputs.0.iter().find(|i| i.name == "rec").unwrap().bytes;
    assert!(!rec.contains(&b','), "{rec:?}");
    assert_eq!(test.exit_code, Some(4), "the path follows new, which stops at i == len");
    assert!(s.tests.iter().all(|t| t.kind != "error"), "no error in both versions");
}
