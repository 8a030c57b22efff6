//! `penumbra shadow` budgets: `--max-depth` cuts complete mode's paths at a depth and every cut
//! path that diverged still gives one test; `--bse-budget` bounds seeded mode's second phase,
//! and a run it cut short says so (`stopped_by: "bse-budget"`) while each divergence it
//! reached still has a test; `--max-site-tests` bounds the tests one divergence site writes
//! and counts its other diff paths. Counts are exact: the programs fork a known number of times
//! after one divergence.

use crate::shadow_examples::shadow_summary;
use crate::support::{line_of, write_c};
use serde_json::Value;

/// One changed condition (old `x > 5`, new `x > 10`: x in [6, 10] diverges, old taking the
/// branch), then `N` independent two-way branches on the bytes of `b` that both versions share.
fn program(n: usize) -> String {
    format!(
        r#"#include "penumbra.h"
int main(void) {{
  int x;
  unsigned char b[{n}];
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_make_symbolic(b, sizeof b, "b");
  int count = 0;
  if (change(x > 5, x > 10)) // <- diverges
    count = 100;
  for (int i = 0; i < {n}; i++)
    if (b[i] > 100)
      count++;
  return count;
}}
"#
    )
}

/// Every test is a divergence at the changed line with old taking the branch and new not, on
/// an input in [6, 10].
fn assert_all_diverge_at_the_change(summary: &Value, line: u32) {
    for t in summary["tests"].as_array().expect("tests") {
        assert_eq!(t["kind"], "divergence", "{t}");
        assert_eq!(t["line"].as_u64(), Some(u64::from(line)), "{t}");
        assert_eq!((t["old"].as_str(), t["new"].as_str()), (Some("true"), Some("false")), "{t}");
        let x = t["inputs"]["x"]["int"].as_i64().expect("x is an int");
        assert!((6..=10).contains(&x), "{t}");
    }
}

#[test]
fn max_depth_cuts_complete_mode_and_each_cut_divergent_path_gives_a_test() {
    let source = program(4);
    let line = line_of(&source, "<- diverges");
    let file = write_c("depth.c", &source);

    // Unbounded: the divergent state forks on all four bytes (16 diff paths, one per
    // combination of b's bytes), the two same states likewise (no divergence, no test).
    let all = shadow_summary(&file.path, &[]);
    assert_eq!(all["diff_paths"].as_u64(), Some(16), "{all}");
    assert_eq!(all["tests"].as_array().unwrap().len(), 16);
    assert_all_diverge_at_the_change(&all, line);

    // Depth 3: the four-way fork is depth 1, b[0] and b[1] take it to 3, and b[2]'s fork is cut,
    // ending each of the divergent state's 4 paths early with its test.
    let cut = shadow_summary(&file.path, &["--max-depth", "3"]);
    assert_eq!(cut["diff_paths"].as_u64(), Some(4), "{cut}");
    assert_eq!(cut["tests"].as_array().unwrap().len(), 4);
    assert_all_diverge_at_the_change(&cut, line);
    let mut bytes: Vec<&str> =
        cut["tests"].as_array().unwrap().iter().map(|t| t["inputs"]["b"]["hex"].as_str().unwrap()).collect();
    bytes.sort();
    bytes.dedup();
    assert_eq!(bytes.len(), 4, "the cut paths differ in b[0] and b[1]: {bytes:?}");
    assert_eq!(all["stopped_by"], Value::Null);
}

#[test]
fn the_bse_budget_bounds_seeded_mode_and_the_run_says_it_was_cut() {
    // Within budget: the seed x = 7 diverges at the change; bounded symbolic execution of the
    // new version from there forks on three bytes: 8 diff paths, and nothing was cut.
    let small = program(3);
    let line = line_of(&small, "<- diverges");
    let file = write_c("bse_small.c", &small);
    let seeded = ["--mode", "seeded", "--seed", "x=7", "--bse-budget", "60"];
    let whole = shadow_summary(&file.path, &seeded);
    assert_eq!((whole["mode"].as_str(), whole["diff_paths"].as_u64()), (Some("seeded"), Some(8)), "{whole}");
    assert_eq!(whole["divergence_points"].as_u64(), Some(1), "{whole}");
    assert_eq!(whole["stopped_by"], Value::Null, "{whole}");
    assert_all_diverge_at_the_change(&whole, line);

    // Over budget: 2^40 paths after the divergence cannot be explored in a second. The phase
    // stops at the budget, the states it leaves end early with a test each, and the summary
    // says the budget cut the run.
    let big = program(40);
    let file = write_c("bse_big.c", &big);
    let cut = shadow_summary(&file.path, &["--mode", "seeded", "--seed", "x=7", "--bse-budget", "1"]);
    assert_eq!(cut["stopped_by"].as_str(), Some("bse-budget"), "{}", cut["stopped_by"]);
    assert_eq!(cut["divergence_points"].as_u64(), Some(1));
    let diff_paths = cut["diff_paths"].as_u64().unwrap();
    assert!(diff_paths >= 1, "the point's divergence has a test although its phase was cut");
    assert_eq!(cut["tests"].as_array().unwrap().len() as u64, diff_paths);
    assert!(diff_paths < 1 << 40);
    assert_all_diverge_at_the_change(&cut, line_of(&big, "<- diverges"));
}

#[test]
fn max_site_tests_bounds_one_sites_tests_and_the_summary_counts_the_rest() {
    // All 16 diff paths diverge at one site (the changed line, old true, new false): with
    // --max-site-tests 5 five of them write a test, the other eleven are counted, and the run
    // explores every path (nothing stops it).
    let source = program(4);
    let line = line_of(&source, "<- diverges");
    let file = write_c("site_tests.c", &source);
    let capped = shadow_summary(&file.path, &["--max-site-tests", "5"]);
    assert_eq!((capped["diff_paths"].as_u64(), capped["diff_paths_untested"].as_u64()), (Some(16), Some(11)));
    assert_eq!(capped["tests"].as_array().unwrap().len(), 5, "{capped}");
    assert_eq!(capped["stopped_by"], Value::Null);
    assert_all_diverge_at_the_change(&capped, line);
    let all = shadow_summary(&file.path, &[]);
    assert_eq!(all["diff_paths_untested"].as_u64(), Some(0), "{all}");
}

/// A digit pinned first (`d`, the regression needs it at 5 or more), then a loop bounded by
/// an input the seed pins to 3: the last pin is negated first, and its largest value (about
/// 4e9) makes a derived seed whose concolic run would loop for minutes.
const LONG_DERIVED_SEED: &str = r#"#include "penumbra.h"
int main(void) {
  int d;
  unsigned n;
  penumbra_make_symbolic(&d, sizeof d, "d");
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(d >= 0 && d <= 9);
  int nonzero = 0;
  if (d != 0)
    nonzero = 1;
  unsigned long sum = 0;
  if (n == 3)
    sum = 1;
  for (unsigned i = 0; i < n; i++)
    sum += i;
  if (change(0, 1)) // <- diverges
    if (nonzero && d >= 5)
      return 1;
  return (int)(sum & 0);
}
"#;

/// With a time budget, a derived seed's concolic run has a fiftieth of the time left: the seeds
/// that loop about 4e9 times are cut short (and counted), and the derived seeds after them,
/// which free the digit, still run and reach the regression (`d = 9`, new exits 1). Without
/// the share, the first such loop took the whole run (stopped by max-time, no `d = 9`).
#[test]
fn a_derived_seed_that_would_loop_for_minutes_is_cut_short_and_the_next_one_runs() {
    let file = write_c("long_derived_seed.c", LONG_DERIVED_SEED);
    let line = line_of(LONG_DERIVED_SEED, "<- diverges");
    let summary = shadow_summary(
        &file.path,
        &["--mode", "seeded", "--seed", "d=0,n=3", "--derived-seeds", "8", "--max-time", "10"],
    );
    // Each seed derived with n at its largest loops; they are cut, the others end, and the
    // run ends with its derivations, not at --max-time.
    let cut = summary["derived_seeds_cut"].as_u64().expect("derived_seeds_cut");
    assert!(cut >= 1, "{summary}");
    assert!(summary["derived_seeds"].as_u64().is_some_and(|n| n > cut), "{summary}");
    assert_eq!(summary["stopped_by"], Value::Null, "{summary}");
    // What the run did not finish is exactly the cut seeds' states: the paths seeds confirmed
    // are not counted as dropped (they were until 2026-12-03, as "max-states dropped").
    assert_eq!(summary["dropped_states"].as_u64(), Some(cut), "{summary}");
    let exits_one: Vec<&Value> = summary["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter(|t| t["line"].as_u64() == Some(u64::from(line)) && t["exit_code"].as_i64() == Some(1))
        .collect();
    assert!(!exits_one.is_empty(), "{summary}");
    for t in exits_one {
        assert!(t["inputs"]["d"]["int"].as_i64().is_some_and(|d| (5..=9).contains(&d)), "{t}");
    }
}
