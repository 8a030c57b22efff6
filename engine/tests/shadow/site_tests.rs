//! `Budgets::max_site_tests`: a divergence site writes at most that many tests; its further
//! diff paths are counted (`diff_paths`, `diff_paths_untested`) and the run goes on to the
//! other sites.

use super::compare::{compile, complete_config};
use penumbra_engine::{RunSummary, SearchKind};

/// site_tests.c under depth-first search with `max_site_tests`.
fn run(max_site_tests: Option<u64>) -> RunSummary {
    let module = compile("site_tests", include_str!("programs/site_tests.c"));
    let mut config = complete_config(SearchKind::Dfs, 0);
    config.budgets.max_site_tests = max_site_tests;
    penumbra_engine::run(&module, &config).expect("site_tests.c runs")
}

/// The lines of the divergence tests, in the order they were written.
fn divergence_lines(summary: &RunSummary) -> Vec<u32> {
    summary
        .tests
        .iter()
        .filter(|t| t.kind == "divergence")
        .map(|t| t.line.expect("a divergence has its line"))
        .collect()
}

#[test]
fn each_site_writes_at_most_its_tests_and_counts_the_rest() {
    let all = run(None);
    let mut lines = divergence_lines(&all);
    lines.sort_unstable();
    assert_eq!((all.diff_paths, all.diff_paths_untested), (8, 0));
    assert_eq!(lines, [24, 24, 24, 24, 26, 26, 26, 26]);

    let capped = run(Some(2));
    let mut lines = divergence_lines(&capped);
    lines.sort_unstable();
    assert_eq!((capped.diff_paths, capped.diff_paths_untested), (8, 4));
    assert_eq!(lines, [24, 24, 26, 26]);
    // Each site's first two tests, as the run without a cap wrote them (same search).
    let firsts = |s: &RunSummary, line: u32| -> Vec<String> {
        s.tests
            .iter()
            .filter(|t| t.kind == "divergence" && t.line == Some(line))
            .take(2)
            .map(|t| format!("{:?}", t.inputs))
            .collect()
    };
    assert_eq!(firsts(&capped, 24), firsts(&all, 24));
    assert_eq!(firsts(&capped, 26), firsts(&all, 26));
    // The paths are the same; only tests are left out.
    assert_eq!(capped.paths_completed, all.paths_completed);
}
