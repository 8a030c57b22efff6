//! The oracle pinned to answers computed by hand, so that a broken oracle cannot make the
//! engine comparisons pass: exact diff-path counts, divergent inputs, both-error inputs and
//! the lines of the first differences. And the comparison pinned to fail on doctored engine
//! summaries, so that a lenient comparison cannot either.

use super::compare::{check_summary, compile, engine};
use super::oracle::{int, Oracle, Point, Var, Verdict};
use crate::symbolic::support::line_of;
use penumbra_engine::RunSummary;
use std::collections::BTreeSet;

/// The oracle's answer for a program of the suite.
fn explore(name: &str, source: &str, vars: &[Var]) -> (usize, BTreeSet<Point>, usize) {
    let module = compile(name, source);
    let e = Oracle::new(&module, vars).explore();
    (e.diff_paths(), e.divergent, e.both_error)
}

fn set(points: &[i64]) -> BTreeSet<Point> {
    points.iter().map(|&x| vec![x]).collect()
}

/// The line of the first difference for one input.
fn divergence_line(name: &str, source: &str, vars: &[Var], point: &[i64]) -> u32 {
    let module = compile(name, source);
    match Oracle::new(&module, vars).verdict(point) {
        Verdict::Diverges(d) => d.line,
        other => panic!("{point:?} does not diverge: {other:?}"),
    }
}

/// x = 4 and x = 5 take the new branch only; the new version then splits them by parity.
#[test]
fn threshold_has_two_diff_paths() {
    let src = include_str!("programs/threshold.c");
    let vars = [int("x", -8, 8)];
    assert_eq!(explore("threshold", src, &vars), (2, set(&[4, 5]), 0));
    assert_eq!(divergence_line("threshold", src, &vars, &[4]), line_of(src, "if (change(x > 5"));
}

/// n = 4 diverges at the bound check (then fails in new); n < 0 fails in both.
#[test]
fn offbyone_has_one_diff_path_and_two_errors_in_both() {
    let src = include_str!("programs/offbyone.c");
    let vars = [int("n", -2, 6)];
    assert_eq!(explore("offbyone", src, &vars), (1, set(&[4]), 2));
    assert_eq!(divergence_line("offbyone", src, &vars, &[4]), line_of(src, "if (change(n < 4"));
}

/// The paper's foo: x = -1 diverges at `y > 1` (old then fails the assertion), x = 0 at
/// `y == 1` (new fails it).
#[test]
fn foo_has_two_diff_paths() {
    let src = include_str!("programs/foo_assert.c");
    let vars = [int("x", -8, 8)];
    assert_eq!(explore("foo_assert", src, &vars), (2, set(&[-1, 0]), 0));
    assert_eq!(divergence_line("foo_assert", src, &vars, &[-1]), line_of(src, "if (y > 1)"));
    assert_eq!(divergence_line("foo_assert", src, &vars, &[0]), line_of(src, "if (y == 1)"));
}

/// 24 / x against 24 / (x - 1): x = 0 fails in old only, x = 1 in new only, and x = 3 gives
/// 8 against 12 at `r > 10`. Both checks are on the division's line.
#[test]
fn div_zero_has_three_diff_paths() {
    let src = include_str!("programs/div_zero.c");
    let vars = [int("x", -4, 4)];
    assert_eq!(explore("div_zero", src, &vars), (3, set(&[0, 1, 3]), 0));
    let division = line_of(src, "total / change");
    assert_eq!(divergence_line("div_zero", src, &vars, &[0]), division);
    assert_eq!(divergence_line("div_zero", src, &vars, &[1]), division);
    assert_eq!(divergence_line("div_zero", src, &vars, &[3]), line_of(src, "if (r > 10)"));
}

/// Switch targets, in the engine's question order G0 (case 0), G1 (cases 1, 2), G2 (case 3),
/// default. Old x % 4 against new (x + 1) % 4 over x in [-5, 5]:
/// - x = -5, -1 (old default) and x = 3 (old G2) against new G0: old answers `false` at G0's
///   question, so all three are one path (old's later target does not split it);
/// - x = -4: old G0, new default; x = 0 and 4: old G0, new G1; x = 2: old G1, new G2;
/// - x = -3, -2 (default in both) and 1, 5 (cases 1 and 2, one target) do not diverge.
#[test]
fn switch_targets_follow_the_question_chain() {
    let src = include_str!("programs/switch_selector.c");
    let vars = [int("x", -5, 5)];
    assert_eq!(explore("switch_selector", src, &vars), (4, set(&[-5, -4, -1, 0, 2, 3, 4]), 0));
    let module = compile("switch_selector", src);
    let e = Oracle::new(&module, &vars).explore();
    let groups: BTreeSet<Vec<Point>> = e.paths.values().cloned().collect();
    let expected: BTreeSet<Vec<Point>> =
        [vec![vec![-5], vec![-1], vec![3]], vec![vec![-4]], vec![vec![0], vec![4]], vec![vec![2]]].into();
    assert_eq!(groups, expected);
}

/// Refactorings have no divergent input; a change that reaches only the output diverges where
/// it is printed, at every input (x + 1 against x + 2), and the new version's `x > 0` then
/// splits the path in two.
#[test]
fn a_refactoring_does_not_diverge_and_an_output_change_does() {
    let refactor = include_str!("programs/refactor.c");
    assert_eq!(explore("refactor", refactor, &[int("x", -8, 8)]), (0, set(&[]), 0));
    let output = include_str!("programs/output_only.c");
    let vars = [int("x", -3, 3)];
    assert_eq!(explore("output_only", output, &vars), (2, set(&[-3, -2, -1, 0, 1, 2, 3]), 0));
    for x in -3..=3 {
        assert_eq!(divergence_line("output_only", output, &vars, &[x]), line_of(output, "printf(\""));
    }
}

/// The comparison itself can fail: doctored engine summaries of `switch_selector` (4 diff
/// paths, one at each kind of switch divergence) must each be reported.
#[test]
fn comparison_reports_doctored_summaries() {
    let src = include_str!("programs/switch_selector.c");
    let vars = [int("x", -5, 5)];
    let module = compile("switch_selector", src);
    let oracle = Oracle::new(&module, &vars);
    let expected = oracle.explore();
    let summary = engine(&module).expect("the engine runs");
    assert_eq!(check_summary(&oracle, &expected, &summary), Vec::<String>::new(), "the real summary agrees");
    let first = summary.tests.iter().position(|t| t.kind == "divergence").expect("a divergence test");
    let problems_with = |doctor: &dyn Fn(&mut RunSummary)| {
        let mut s = summary.clone();
        doctor(&mut s);
        check_summary(&oracle, &expected, &s)
    };
    let has = |problems: Vec<String>, what: &str| {
        assert!(problems.iter().any(|p| p.contains(what)), "no problem mentions {what:?}: {problems:#?}");
    };
    // A missed path (count and test both gone).
    has(
        problems_with(&|s| {
            s.tests.remove(first);
            s.diff_paths -= 1;
        }),
        "missed diff path",
    );
    // The same path twice.
    has(
        problems_with(&|s| {
            let t = s.tests[first].clone();
            s.tests.push(t);
            s.diff_paths += 1;
        }),
        "has several tests",
    );
    // A wrong count, line, labels, ending; a divergence claimed for a non-divergent input.
    has(problems_with(&|s| s.diff_paths += 1), "diff_paths: expected 4, got 5");
    has(problems_with(&|s| s.tests[first].line = Some(1)), "first differs at line");
    has(
        problems_with(&|s| {
            let t = &mut s.tests[first];
            std::mem::swap(&mut t.old, &mut t.new);
        }),
        "differs as",
    );
    has(problems_with(&|s| s.tests[first].exit_code = Some(99)), "in the new version");
    has(
        problems_with(&|s| {
            s.tests[first].inputs.0[0].bytes = 1i32.to_le_bytes().to_vec();
        }),
        "does not diverge",
    );
}
