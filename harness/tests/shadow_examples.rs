//! `penumbra shadow` on the bundled examples (`examples/`, copied from the shared examples):
//! every row of their `EXPECTED.md` — exactly those divergences, each with its concrete input,
//! line and sides, in complete mode and from each listed seed in seeded mode.

use crate::support::{line_of, penumbra, repo_root};
use serde_json::Value;

/// One test of a shadow run, reduced to what the expectations name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Found {
    pub kind: String,
    /// Inputs as `name=int`, in creation order.
    pub inputs: Vec<(String, i64)>,
    pub line: Option<u32>,
    pub old: Option<String>,
    pub new: Option<String>,
    /// The error kind the path ended with, if any.
    pub error: Option<String>,
    /// The new version's exit status, for paths that exited.
    pub exit_code: Option<i64>,
}

/// A shadow run's `--json` summary of a bundled example: `(summary, tests)`.
fn shadow(example: &str, extra: &[&str]) -> (Value, Vec<Found>) {
    shadow_file(&repo_root().join("examples").join(example), extra)
}

/// A shadow run's `--json` summary: `(summary, tests)`.
pub fn shadow_file(file: &std::path::Path, extra: &[&str]) -> (Value, Vec<Found>) {
    let summary = shadow_summary(file, extra);
    let tests = summary["tests"].as_array().expect("tests is an array").iter().map(found).collect();
    (summary, tests)
}

/// The `--json` summary of `penumbra shadow FILE --json --no-tests EXTRA...`, which must succeed.
pub fn shadow_summary(file: &std::path::Path, extra: &[&str]) -> Value {
    let mut args: Vec<String> = vec!["shadow".into(), file.display().to_string(), "--json".into(), "--no-tests".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = penumbra(&args);
    out.assert_no_panic();
    out.assert_status(0);
    serde_json::from_slice(&out.stdout).expect("--json prints one JSON object")
}

fn found(t: &Value) -> Found {
    let inputs = t["inputs"]
        .as_object()
        .expect("inputs is an object")
        .iter()
        .map(|(name, v)| (name.clone(), v["int"].as_i64().expect("4-byte inputs have an int")))
        .collect();
    let text = |k: &str| t[k].as_str().map(str::to_string);
    Found {
        kind: text("kind").expect("kind"),
        inputs,
        line: t["line"].as_u64().map(|l| l as u32),
        old: text("old"),
        new: text("new"),
        error: t["error"]["kind"].as_str().map(str::to_string),
        exit_code: t["exit_code"].as_i64(),
    }
}

/// The line of `marker` in the example's source.
fn line(example: &str, marker: &str) -> u32 {
    let source = std::fs::read_to_string(repo_root().join("examples").join(example)).expect("example exists");
    line_of(&source, marker)
}

fn divergence(inputs: &[(&str, i64)], line: u32, old: &str, new: &str, error: Option<&str>) -> Found {
    let exit_code = if error.is_none() { Some(0) } else { None };
    Found {
        exit_code,
        kind: "divergence".into(),
        inputs: inputs.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        line: Some(line),
        old: Some(old.into()),
        new: Some(new.into()),
        error: error.map(str::to_string),
    }
}

fn sorted(mut v: Vec<Found>) -> Vec<Found> {
    v.sort();
    v
}

#[test]
fn foo_complete_finds_the_fix_at_minus_one_and_the_regression_at_zero() {
    let (summary, tests) = shadow("foo.c", &[]);
    assert_eq!(summary["mode"], "complete");
    assert_eq!(summary["diff_paths"], 2);
    let expected = vec![
        // x = -1: old y = 1 fails the assertion, new y = 2 returns 0 (the fix).
        divergence(&[("x", -1)], line("foo.c", "if (y > 1)"), "false", "true", None),
        // x = 0: old y = 0 returns 1, new y = 1 fails the assertion (the regression).
        divergence(&[("x", 0)], line("foo.c", "if (y == 1)"), "false", "true", Some("assertion-failed")),
    ];
    assert_eq!(sorted(tests), sorted(expected));
}

#[test]
fn foo_seeded_from_minus_one_finds_only_minus_one() {
    let (summary, tests) = shadow("foo.c", &["--mode", "seeded", "--seed", "x=-1"]);
    assert_eq!(summary["mode"], "seeded");
    assert_eq!(summary["diff_paths"], 1);
    assert_eq!(tests, vec![divergence(&[("x", -1)], line("foo.c", "if (y > 1)"), "false", "true", None)]);
}

/// Seeds derived from x = -1's path (`--derived-seeds`): its divergence read x, so its
/// decisions on x are negated, latest first; x >= 0 (or a seed derived from it in turn) reaches
/// x = 0, where the seed's prefix `x < 0` had hidden the regression. Seeded mode then finds
/// exactly what complete mode finds, each diff path once.
#[test]
fn foo_seeded_from_minus_one_with_derived_seeds_finds_zero_too() {
    let (summary, tests) = shadow("foo.c", &["--mode", "seeded", "--seed", "x=-1", "--derived-seeds", "4"]);
    assert_eq!(summary["diff_paths"], 2, "{summary}");
    let derived = summary["derived_seeds"].as_u64().expect("derived_seeds");
    assert!((1..=4).contains(&derived), "{summary}");
    let expected = vec![
        divergence(&[("x", -1)], line("foo.c", "if (y > 1)"), "false", "true", None),
        divergence(&[("x", 0)], line("foo.c", "if (y == 1)"), "false", "true", Some("assertion-failed")),
    ];
    assert_eq!(sorted(tests), sorted(expected));
    // Without derived seeds the summary says none were made.
    let (plain, _) = shadow("foo.c", &["--mode", "seeded", "--seed", "x=-1"]);
    assert_eq!(plain["derived_seeds"], 0);
}

/// A digit the seed reads as 0 on its way to the divergence, and a change that matters only
/// from 5 up: the shape of CoREBench's seq 86e4b778 (`seq -w 1 3.0` is an era test; the
/// regression shows on `3.5` to `3.9`).
const PINNED_DIGIT: &str = r#"#include "penumbra.h"
int main(void) {
  int d;
  penumbra_make_symbolic(&d, sizeof d, "d");
  penumbra_assume(d >= 0 && d <= 9);
  int nonzero = 0;
  if (d != 0)
    nonzero = 1;
  if (change(0, 1)) {
    if (nonzero && d >= 5)
      return 1;
  }
  return 0;
}
"#;

/// Shadow's seeded mode from `d = 0` writes only the seed's own divergence: its path pinned
/// `d == 0` before the divergence, so BSE from there cannot vary it. A derived seed frees that
/// value, once as the solver picks it and once at the largest value the path before allows
/// (9), where the new version returns 1: an exit status the old version does not give.
#[test]
fn a_derived_seed_frees_a_value_the_seed_pinned_and_tries_its_largest() {
    let file = crate::support::write_c("pinned_digit.c", PINNED_DIGIT);
    let change = line_of(PINNED_DIGIT, "if (change(0, 1))");
    let d = |t: &Found| t.inputs.iter().find(|(n, _)| n == "d").map(|(_, v)| *v).expect("d");
    let (plain, tests) = shadow_file(&file.path, &["--mode", "seeded", "--seed", "d=0"]);
    assert_eq!(plain["diff_paths"], 1, "{plain}");
    assert_eq!(tests.iter().map(|t| (d(t), t.line, t.exit_code)).collect::<Vec<_>>(), vec![(0, Some(change), Some(0))]);
    let (derived, tests) = shadow_file(&file.path, &["--mode", "seeded", "--seed", "d=0", "--derived-seeds", "4"]);
    assert!(derived["derived_seeds"].as_u64().is_some_and(|n| (2..=4).contains(&n)), "{derived}");
    let mut seen: Vec<(i64, Option<i64>)> = tests.iter().map(|t| (d(t), t.exit_code)).collect();
    seen.sort();
    assert!(tests
        .iter()
        .all(|t| t.line == Some(change) && (t.old.as_deref(), t.new.as_deref()) == (Some("false"), Some("true"))));
    assert_eq!(seen.first(), Some(&(0, Some(0))), "{seen:?}");
    assert_eq!(seen.last(), Some(&(9, Some(1))), "{seen:?}");
    // Any other is the solver's pick for a nonzero digit, with the new version's exit for it.
    assert!(seen.iter().all(|&(v, exit)| exit == Some(i64::from(v >= 5))), "{seen:?}");
}

/// A seed naming an object the program does not make seeds nothing: penumbra says so.
#[test]
fn a_seed_with_a_misspelt_name_is_warned_about() {
    let foo = repo_root().join("examples").join("foo.c");
    let args = ["shadow".as_ref(), foo.as_os_str(), "--no-tests".as_ref(), "--mode".as_ref(), "seeded".as_ref()];
    let out = penumbra(args.iter().chain(&["--seed".as_ref(), "y=-1".as_ref()]));
    out.assert_no_panic();
    out.assert_status(0);
    assert!(
        out.stderr.contains("warning: --seed y=-1: no symbolic object of the program is named 'y' (it makes: x)"),
        "{}",
        out.stderr
    );
    let fits = penumbra(args.iter().chain(&["--seed".as_ref(), "x=-1".as_ref()]));
    assert!(!fits.stderr.contains("warning"), "{}", fits.stderr);
}

#[test]
fn foo_seeded_from_zero_finds_zero_where_the_seed_itself_diverges() {
    let (summary, tests) = shadow("foo.c", &["--mode", "seeded", "--seed", "x=0"]);
    assert_eq!(summary["diff_paths"], 1);
    let expected = divergence(&[("x", 0)], line("foo.c", "if (y == 1)"), "false", "true", Some("assertion-failed"));
    assert_eq!(tests, vec![expected]);
}

#[test]
fn foo_seeded_from_five_finds_nothing() {
    let (summary, tests) = shadow("foo.c", &["--mode", "seeded", "--seed", "x=5"]);
    assert_eq!(summary["diff_paths"], 0);
    assert_eq!(tests, vec![]);
}

#[test]
fn bar_complete_finds_both_sides_of_the_inner_branch() {
    let (summary, tests) = shadow("bar.c", &[]);
    assert_eq!(summary["diff_paths"], 2);
    let inner = line("bar.c", "if (z == -100)");
    let expected = vec![
        divergence(&[("x", 105), ("y", -100)], inner, "false", "true", Some("assertion-failed")),
        divergence(&[("x", -100), ("y", 105)], inner, "true", "false", None),
    ];
    assert_eq!(sorted(tests), sorted(expected));
}

#[test]
fn bar_seeded_needs_a_seed_that_reaches_the_inner_branch() {
    let (summary, tests) = shadow("bar.c", &["--mode", "seeded", "--seed", "x=1,y=1"]);
    assert_eq!((summary["diff_paths"].as_u64(), tests.len()), (Some(0), 0));
    let (summary, tests) = shadow("bar.c", &["--mode", "seeded", "--seed", "x=2,y=3"]);
    assert_eq!(summary["diff_paths"], 2);
    let inner = line("bar.c", "if (z == -100)");
    let expected = vec![
        divergence(&[("x", 105), ("y", -100)], inner, "false", "true", Some("assertion-failed")),
        divergence(&[("x", -100), ("y", 105)], inner, "true", "false", None),
    ];
    assert_eq!(sorted(tests), sorted(expected));
}

/// The one threshold divergence: some x in [6, 10], old takes the branch, new does not.
fn assert_threshold_divergence(tests: &[Found]) {
    assert_eq!(tests.len(), 1, "{tests:?}");
    let t = &tests[0];
    let x = t.inputs[0].1;
    assert!((6..=10).contains(&x), "x = {x} is not in [6, 10]");
    let expected = divergence(&[("x", x)], line("threshold.c", "if (change(x > 5, x > 10))"), "true", "false", None);
    assert_eq!(t, &expected);
}

#[test]
fn threshold_complete_finds_one_input_between_six_and_ten() {
    let (summary, tests) = shadow("threshold.c", &[]);
    assert_eq!(summary["diff_paths"], 1);
    assert_threshold_divergence(&tests);
}

#[test]
fn threshold_seeded_from_either_test_finds_the_divergence_off_the_seeds_path() {
    for seed in ["x=0", "x=15"] {
        let (summary, tests) = shadow("threshold.c", &["--mode", "seeded", "--seed", seed]);
        assert_eq!(summary["diff_paths"], 1, "seed {seed}");
        assert_threshold_divergence(&tests);
    }
}

#[test]
fn seeds_that_lead_to_the_same_divergence_count_it_once() {
    // x = 0 and x = 1 follow the same path (both versions false) and both find the divergence
    // off it; x = 15 takes the other side and finds the same divergence from there.
    for seeds in [&["--seed", "x=0", "--seed", "x=1"], &["--seed", "x=0", "--seed", "x=15"]] {
        let mut args = vec!["--mode", "seeded"];
        args.extend_from_slice(seeds);
        let (summary, tests) = shadow("threshold.c", &args);
        assert_eq!(
            (summary["diff_paths"].as_u64(), summary["divergence_points"].as_u64()),
            (Some(1), Some(1)),
            "{seeds:?}"
        );
        assert_threshold_divergence(&tests);
    }
}

#[test]
fn offbyone_complete_reports_n_equal_4_as_a_divergence_and_negative_n_as_an_error_in_both() {
    let (summary, tests) = shadow("offbyone.c", &[]);
    assert_eq!(summary["diff_paths"], 1);
    let write = line("offbyone.c", "buf[n] = 1;");
    let branch = line("offbyone.c", "if (change(n < 4, n <= 4))");
    let (divergences, errors): (Vec<Found>, Vec<Found>) = tests.into_iter().partition(|t| t.kind == "divergence");
    assert_eq!(divergences, vec![divergence(&[("n", 4)], branch, "false", "true", Some("out-of-bounds-write"))]);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert!(e.inputs[0].1 < 0, "the error in both versions needs n < 0, got {:?}", e.inputs);
    assert_eq!(
        (e.kind.as_str(), e.line, e.old.as_deref(), e.error.as_deref()),
        ("error", Some(write), None, Some("out-of-bounds-write"))
    );
}

#[test]
fn seeds_can_come_from_ktest_files() {
    // The tests `penumbra run` writes for threshold.c (one per path of the old version) are
    // seeds; from any of them seeded mode finds the divergence with 6 <= x <= 10.
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("run");
    let file = repo_root().join("examples").join("threshold.c");
    let out = penumbra([
        "run".as_ref(),
        file.as_os_str(),
        "--version".as_ref(),
        "old".as_ref(),
        "--all-ktests".as_ref(),
        "--output-dir".as_ref(),
        out_dir.as_os_str(),
    ]);
    out.assert_status(0);
    let mut ktests: Vec<_> = std::fs::read_dir(&out_dir)
        .expect("output dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ktest"))
        .collect();
    ktests.sort();
    assert_eq!(ktests.len(), 2, "threshold.c has two paths: {ktests:?}");
    for ktest in &ktests {
        let k = ktest.display().to_string();
        let (summary, tests) = shadow("threshold.c", &["--mode", "seeded", "--seed-ktest", &k]);
        assert_eq!(summary["diff_paths"], 1, "seed {k}");
        assert_threshold_divergence(&tests);
    }
}
