//! Budgets that hold inside one path (issue 35): a loop that folds a symbolic value into itself
//! keeps it small where arithmetic allows (like terms merge, constants go into a choice between
//! constants), and otherwise ends its path early (`term-too-large`) instead of handing the
//! solver a query no budget could hold; a budget that stops the run in the middle of a path
//! ends that path early with the budget's name; symbolic inputs larger than `--max-sym-bytes`
//! are refused before anything is made, or end their path early when the program makes them.

use super::support::{compile, config, of_kind, run_with};
use penumbra_engine::{Mode, ShadowMode};

/// `s += x` fifty thousand times, then a changed comparison: one product (50000 * x), and the
/// versions differ exactly where `s == 0` (a chain of fifty thousand additions took the solver
/// two gigabytes and a minute).
const SUM: &str = r#"#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    long s = 0;
    for (int i = 0; i < 50000; i++)
        s += x;
    return change(s > 0, s >= 0);
}"#;

#[test]
fn a_sum_folded_fifty_thousand_times_is_one_product() {
    let module = compile(SUM);
    let mut c = config();
    c.mode = Mode::Shadow(ShadowMode::Complete);
    let s = run_with(&module, &c);
    assert_eq!((s.diff_paths, s.early, s.stopped_by.as_deref()), (1, 0, None), "{}", s.human());
    let t = &s.tests[0];
    // The versions part where s = 50000 * x is 0; an int times 50000 cannot wrap 64 bits, so
    // the only such x is 0.
    let x = super::support::int_input(t, "x");
    assert_eq!(x, 0, "{t:?}");
}

#[test]
fn a_value_chosen_by_a_condition_stays_two_numbers_through_a_long_loop() {
    let module = compile(
        r#"#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    long acc = x > 0 ? 1 : 2;
    for (long i = 0; i < 100000; i++)
        acc = acc * 3 + i;
    if ((acc & 1) == 1)
        return 1;
    return 0;
}"#,
    );
    let s = run_with(&module, &config());
    assert_eq!((s.paths_completed, s.early), (2, 0), "{}", s.human());
    // No query needed the solver: both values are constants on their path.
    assert_eq!(s.solver.core_queries, 0, "{}", s.human());
}

#[test]
fn a_value_folded_into_itself_without_end_ends_its_path_early() {
    let module = compile(
        r#"#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    long s = 1;
    for (long i = 0; i < 1000000; i++)
        s = s * x + i;
    return s > 0;
}"#,
    );
    let mut c = config();
    c.max_term_weight = 2000;
    let s = run_with(&module, &c);
    assert_eq!((s.paths_completed, s.early), (0, 1), "{}", s.human());
    assert_eq!(s.early_reasons.get("term-too-large"), Some(&1), "{:?}", s.early_reasons);
    // Each round multiplies by the symbolic x (64) and adds (1): the path ends in round 31.
    assert!(s.instructions < 1000, "{} instructions", s.instructions);
    assert_eq!(of_kind(&s, "early").len(), 1);
    assert_eq!(s.solver.core_queries, 0, "no query saw the heavy term");
}

#[test]
fn a_budget_stopping_the_run_mid_path_ends_that_path_with_its_name() {
    let module = compile(
        r#"#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    long acc = x > 0 ? 1 : 2;
    for (long i = 0; i < 100000000; i++)
        acc = acc * 3 + i;
    return acc > 100;
}"#,
    );
    let mut c = config();
    c.budgets.max_instructions = Some(100_000);
    let s = run_with(&module, &c);
    assert_eq!(s.stopped_by.as_deref(), Some("max-instructions"));
    assert_eq!((s.early, s.unexplored_states), (1, 0), "{}", s.human());
    assert_eq!(s.early_reasons.get("max-instructions"), Some(&1), "{:?}", s.early_reasons);
    let early = of_kind(&s, "early");
    assert_eq!(early.len(), 1);
    assert_eq!(early[0].reason.as_deref(), Some("max-instructions"));
}

#[test]
fn symbolic_inputs_larger_than_the_limit_are_refused_or_end_their_path() {
    let module = compile("int main(void) { return 0; }");
    let mut c = config();
    c.env.sym_stdin = Some(100_000_000);
    let e = penumbra_engine::run(&module, &c).expect_err("refused");
    let text = e.to_string();
    assert!(
        text.contains("100000000 symbolic bytes, more than --max-sym-bytes 262144"),
        "the message names the size and the limit: {text}"
    );
    // Symbolic files count too: 64 files of 4 KiB and 1 byte of stdin is one byte too many.
    let mut c = config();
    c.env.sym_files = Some((64, 4096));
    c.env.sym_stdin = Some(1);
    let e = penumbra_engine::run(&module, &c).expect_err("refused");
    assert!(e.to_string().contains("262145 symbolic bytes, more than --max-sym-bytes 262144"), "{e}");
    // --sym-args makes its argument objects once, shared by every count: 0..=3 arguments of
    // 2 bytes is n_args and three objects.
    let mut c = config();
    c.env.sym_args = vec![penumbra_engine::SymArg::Args { min: 0, max: 3, len: 2 }];
    let s = run_with(&module, &c);
    assert_eq!(s.paths_completed, 4);
    let names: Vec<Vec<String>> = s.tests.iter().map(|t| t.inputs.0.iter().map(|i| i.name.clone()).collect()).collect();
    assert!(names.iter().any(|n| n == &["n_args", "arg00", "arg01", "arg02"]), "{names:?}");
    // make_symbolic of more than the limit ends the path early.
    let module = compile(
        r#"#include <penumbra.h>
#include <stdlib.h>
int main(void) {
    char *p = malloc(1 << 20);
    penumbra_make_symbolic(p, 1 << 20, "big");
    return p[0];
}"#,
    );
    let s = run_with(&module, &config());
    assert_eq!(s.early_reasons.get("input-too-large"), Some(&1), "{}", s.human());
}

/// Factoring a 64-bit semiprime (3301746797 x 3356063771): Bitwuzla does not settle it in a minute.
const FACTORS: &str = r#"#include <penumbra.h>
int main(void) {
    unsigned long long x, y;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_make_symbolic(&y, sizeof y, "y");
    int factors = (x * y == 11080872806426991487ULL) & (x > 1) & (y > 1)
                  & (x < 4294967296ULL) & (y < 4294967296ULL);
    if (COND)
        return 1;
    return 0;
}"#;

#[test]
fn a_decision_a_timed_out_query_leaves_open_ends_its_state_early_with_its_name() {
    for shadow in [false, true] {
        let cond = if shadow { "change(factors, factors | (x == 7))" } else { "factors" };
        let module = compile(&FACTORS.replace("COND", cond));
        let mut c = config();
        if shadow {
            c.mode = Mode::Shadow(ShadowMode::Complete);
        }
        c.solver.timeout_ms = Some(50);
        let s = run_with(&module, &c);
        // One state, ended where the solver could not say whether the other side is feasible
        // (taking the known side would have written a test for a path of unknown siblings).
        assert_eq!(
            (s.paths_completed, s.early, s.diff_paths),
            (0, 1, 0),
            "shadow {shadow}: {}\n{:?}",
            s.human(),
            s.tests
        );
        assert_eq!(s.early_reasons.get("solver-unknown"), Some(&1), "{:?}", s.early_reasons);
        // A shadow run writes tests for divergences only; the state had not diverged.
        let early = of_kind(&s, "early");
        assert_eq!(early.len(), usize::from(!shadow));
        assert!(early.iter().all(|t| t.reason.as_deref() == Some("solver-unknown")));
        assert!(s.warnings.iter().any(|w| w.contains("timed out")), "{:?}", s.warnings);
    }
}
