//! Whole runs: determinism (byte-identical tests and summaries), the searchers, the budgets and
//! what they leave unexplored, symbolic `argv` and stdin, and the files a run writes.

use super::support::*;
use penumbra_engine::config::{Output, SearchKind, SymArg};
use penumbra_engine::output::ktest::KTest;
use penumbra_engine::{run, EngineConfig};
use std::path::{Path, PathBuf};

const BRANCHY: &str = r#"#include <penumbra.h>
int main(void) {
    unsigned char b[4];
    penumbra_make_symbolic(b, sizeof b, "b");
    int n = 0;
    for (int i = 0; i < 4; i++) {
        if (b[i] > 'm') n += 2;
        else if (b[i] == 'a') n += 1;
    }
    if (n == 7) return 100 / (b[0] - 'z');
    return n;
}"#;

/// All files of a directory, sorted, with their contents.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The summary JSON without its times.
fn timeless_json(s: &penumbra_engine::RunSummary) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
    v["wall_s"] = 0.into();
    v["peak_rss_mb"] = 0.into();
    v["solver"]["time_s"] = 0.into();
    v["solver"]["core_time_s"] = 0.into();
    v["output_dir"] = serde_json::Value::Null;
    for t in v["tests"].as_array_mut().unwrap() {
        t["ktest"] = serde_json::Value::Null;
        // When the test was found: present on every test, and a time.
        assert!(t["time_s"].as_f64().is_some(), "{t}");
        t["time_s"] = serde_json::Value::Null;
    }
    v
}

#[test]
fn two_runs_write_identical_tests_and_summaries() {
    let module = compile(BRANCHY);
    let tmp = tempfile::tempdir().unwrap();
    let mut outs = Vec::new();
    for (i, search) in
        [SearchKind::Dfs, SearchKind::Dfs, SearchKind::RandomPath, SearchKind::RandomPath].iter().enumerate()
    {
        let dir = tmp.path().join(format!("out{i}"));
        let mut c = config();
        c.search = *search;
        c.random_seed = 5;
        c.output = Output::Dir(dir.clone());
        let s = run_with(&module, &c);
        assert_replays(&module, &c, &s);
        outs.push((files(&dir), timeless_json(&s)));
    }
    assert!(!outs[0].0.is_empty());
    assert!(outs[0] == outs[1], "DFS runs differ");
    assert!(outs[2] == outs[3], "random-path runs with one seed differ");
    // 3 outcomes per byte; n == 7 (three bytes > 'm' and one 'a') divides by b[0] - 'z', which
    // can be zero in the 3 of those 4 paths where b[0] > 'm'
    let s = &outs[0].1;
    assert_eq!(s["paths_completed"].as_u64().unwrap() + s["errors"].as_u64().unwrap(), 81 + 3);
}

#[test]
fn every_searcher_explores_the_same_paths() {
    let module = compile(BRANCHY);
    let mut outcomes = Vec::new();
    for (search, seed) in [
        (SearchKind::Dfs, 0),
        (SearchKind::Bfs, 0),
        (SearchKind::RandomPath, 1),
        (SearchKind::RandomPath, 99),
        (SearchKind::CoveringNew, 5),
        (SearchKind::PatchDirected, 5),
        (SearchKind::Interleaved, 7),
    ] {
        let mut c = config();
        c.search = search;
        c.random_seed = seed;
        let s = run_with(&module, &c);
        assert_replays(&module, &c, &s);
        let mut kinds: Vec<(String, Option<i32>)> = s.tests.iter().map(|t| (t.kind.clone(), t.exit_code)).collect();
        kinds.sort();
        outcomes.push((s.paths_completed, s.errors, kinds));
    }
    assert_eq!(outcomes[0].0 + outcomes[0].1, 84);
    for o in &outcomes[1..] {
        assert_eq!(o, &outcomes[0]);
    }
}

#[test]
fn budgets_stop_the_run_and_say_what_is_left() {
    let module = compile(BRANCHY);
    let mut c = config();
    c.budgets.max_paths = Some(10);
    let s = run_with(&module, &c);
    assert_eq!(s.tests_count, 10);
    assert_eq!(s.stopped_by.as_deref(), Some("max-paths"));
    assert!(s.unexplored_states > 0);

    let mut c = config();
    c.budgets.max_instructions = Some(500);
    let s = run_with(&module, &c);
    assert_eq!(s.stopped_by.as_deref(), Some("max-instructions"));
    assert_eq!(s.instructions, 500);
    assert!(s.unexplored_states > 0);

    let mut c = config();
    c.budgets.max_depth = Some(2);
    let s = run_with(&module, &c);
    assert!(s.early > 0, "{}", s.human());
    assert_eq!(s.stopped_by, None);

    let mut c = config();
    c.budgets.max_states = Some(3);
    let s = run_with(&module, &c);
    assert!(s.max_live_states <= 3, "{}", s.human());
    assert!(s.dropped_states > 0);
    assert!(s.paths_completed + s.errors < 84);

    let mut c = config();
    c.budgets.max_time = Some(std::time::Duration::ZERO);
    let s = run_with(&module, &c);
    assert_eq!(s.stopped_by.as_deref(), Some("max-time"));

    // A cap on tests written: only tests that go to disk count, so it needs an output
    // directory (without one the run explores everything).
    let tmp = tempfile::tempdir().unwrap();
    let mut c = config();
    c.budgets.max_tests = Some(7);
    let s = run_with(&module, &c);
    assert_eq!((s.stopped_by, s.paths_completed + s.errors), (None, 84));
    c.output = Output::Dir(tmp.path().join("out"));
    let s = run_with(&module, &c);
    assert_eq!((s.tests_count, s.tests.len()), (7, 7));
    assert_eq!(s.stopped_by.as_deref(), Some("max-tests"));
    let records = std::fs::read_to_string(tmp.path().join("out/tests.jsonl")).unwrap();
    assert_eq!(records.lines().count(), 7);
}

/// `--max-output-mb` bounds what a run writes: tests of a 64 KiB input stop once a MiB is
/// written, the last test complete.
#[test]
fn the_output_budget_bounds_the_bytes_written() {
    let module = compile(
        r#"#include <penumbra.h>
int main(void) {
    static char big[65536];
    penumbra_make_symbolic(big, sizeof big, "big");
    int n = 0;
    for (int i = 0; i < 12; i++)
        if (big[i] == 'x') n++;
    return n;
}"#,
    );
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let mut c = config();
    c.output = Output::Dir(dir.clone());
    c.budgets.max_output_mb = Some(1);
    let s = run_with(&module, &c);
    assert_eq!(s.stopped_by.as_deref(), Some("max-output"));
    let written: u64 = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().metadata().unwrap().len()).sum();
    let per_test = written / s.tests_count;
    assert!(written >= 1 << 20 && written < (1 << 20) + per_test, "{written} bytes in {} tests", s.tests_count);
    let records = std::fs::read_to_string(dir.join("tests.jsonl")).unwrap().lines().count() as u64;
    assert_eq!(records, s.tests_count);
}

/// `--max-time` holds inside a query Bitwuzla cannot settle quickly (factoring a 64-bit
/// product of two 32-bit primes): the query gives up at the deadline, counted as unknown, and
/// the run stops there. The run is on another thread, so that a regression fails here (after
/// a minute) instead of hanging the suite.
#[test]
fn the_time_budget_holds_inside_a_hard_query() {
    let module = compile(
        r#"#include <penumbra.h>
int main(void) {
    unsigned long long p, q;
    penumbra_make_symbolic(&p, sizeof p, "p");
    penumbra_make_symbolic(&q, sizeof q, "q");
    penumbra_assume(p > 1 && q > 1 && p < 4294967296ULL && q < 4294967296ULL);
    if (p * q == 7436239318809246277ULL) /* 2315877527 * 3210981251, random primes */
        return 1;
    return 0;
}"#,
    );
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut c = config();
        c.budgets.max_time = Some(std::time::Duration::from_secs(1));
        let s = run_with(&module, &c);
        tx.send((s.stopped_by.clone(), s.solver.core_unknown, s.paths_completed)).unwrap();
    });
    let (stopped_by, unknown, completed) =
        rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the run ignored its one-second budget");
    assert_eq!(stopped_by.as_deref(), Some("max-time"));
    assert!(unknown >= 1, "the hard query answered unknown");
    // The model's side (p * q != N) still ends: a path, not an unexplored state.
    assert!(completed <= 1);
}

/// A query after the wall-time deadline is not started, and the clock is read every 1,024
/// instructions: a loop of solver queries stops within half a second of its budget.
#[test]
fn the_time_budget_holds_across_many_queries() {
    // The --max-time benchmark of results/throughput.md.
    let module = compile(include_str!("../../../benches/programs/solver_loop.c"));
    let mut c = config();
    c.budgets.max_time = Some(std::time::Duration::from_secs(1));
    let s = run_with(&module, &c);
    assert_eq!(s.stopped_by.as_deref(), Some("max-time"));
    assert!(s.wall_s < 1.5, "a one-second budget ended after {:.3} s", s.wall_s);
}

/// Concrete values stay out of the term store: the loop's arithmetic, its stores and loads at
/// concrete addresses, calls and returns, selects and switches leave as many terms after
/// 30,000 iterations as after 300.
#[test]
fn a_concrete_loop_interns_no_terms() {
    let terms = |n: u32| {
        let src = format!(
            r#"#include <penumbra.h>
static unsigned step(unsigned h, unsigned i) {{ return h * 31 + i; }}
int main(void) {{
    unsigned h = 0, table[16] = {{0}};
    unsigned long long wide = 0x9E3779B97F4A7C15ULL;
    for (unsigned i = 0; i < {n}; i++) {{
        h = step(h, i);
        table[h % 16] += h;
        wide = wide * 6364136223846793005ULL + table[i % 16];
        h = h > 1000 ? h - (unsigned)wide : h + 7;
        switch (h % 4) {{ case 0: h ^= 5; break; case 1: h += 3; break; default: break; }}
    }}
    unsigned char x;
    penumbra_make_symbolic(&x, 1, "x");
    return x == (unsigned char)(h ^ table[3] ^ wide);
}}"#
        );
        let s = run_with(&compile(&src), &config());
        assert_eq!((s.paths_completed, s.errors), (1, 0));
        s.terms
    };
    assert_eq!(terms(30_000), terms(300));
}

#[test]
fn symbolic_arguments_as_in_klee() {
    let src = r#"#include <string.h>
int main(int argc, char **argv) {
    if (argc < 2) return 10;
    if (strcmp(argv[1], "-v") == 0) return 1;
    if (argc > 2 && argv[2][0] == 'x') return 2;
    return 0;
}"#;
    let module = compile(src);
    let mut c = config();
    c.env.sym_args = vec![SymArg::Args { min: 0, max: 2, len: 2 }];
    let s = run_with(&module, &c);
    assert_replays(&module, &c, &s);
    let mut codes: Vec<i32> = s.tests.iter().filter_map(|t| t.exit_code).collect();
    codes.sort();
    codes.dedup();
    assert_eq!(codes, vec![0, 1, 2, 10], "{}", s.human());
    let first = &s.tests[0].inputs.0;
    assert_eq!(first[0].name, "n_args");

    let mut c = config();
    c.env.sym_args = vec![SymArg::Arg { len: 3 }];
    let s = run_with(&module, &c);
    assert_replays(&module, &c, &s);
    assert!(s.tests.iter().all(|t| t.exit_code != Some(10) && t.exit_code != Some(2)));
    assert!(s.tests.iter().any(|t| t.exit_code == Some(1)));
    assert_eq!(s.tests[0].inputs.0[0].name, "arg00");
    assert_eq!(s.tests[0].inputs.0[0].bytes.len(), 4);
}

#[test]
fn symbolic_stdin_is_read_through_the_library() {
    let src = r#"#include <stdio.h>
#include <string.h>
int main(void) {
    char line[8];
    if (!fgets(line, sizeof line, stdin)) return 1;
    if (strncmp(line, "ok", 2) == 0) return 2;
    int c = getchar();
    return c == EOF ? 3 : 4;
}"#;
    let module = compile(src);
    let mut c = config();
    c.env.sym_stdin = Some(3);
    let s = run_with(&module, &c);
    assert_replays(&module, &c, &s);
    let mut codes: Vec<i32> = s.tests.iter().filter_map(|t| t.exit_code).collect();
    codes.sort();
    codes.dedup();
    assert_eq!(codes, vec![2, 3, 4], "{}", s.human());
}

#[test]
fn tests_are_ktest_files_with_json_sidecars() {
    let src = r#"#include <penumbra.h>
int main(void) {
    int x, y;
    short z;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_make_symbolic(&y, sizeof y, "x");
    penumbra_make_symbolic(&z, sizeof z, "z");
    if (x == 0x01020304 && z == -2) return 1 / y;
    return 0;
}"#;
    let module = compile(src);
    let tmp = tempfile::tempdir().unwrap();
    let mut c = config();
    c.output = Output::Numbered(tmp.path().to_path_buf());
    c.write_path_condition = true;
    let s = run_with(&module, &c);
    assert_replays(&module, &c, &s);
    let dir = tmp.path().join("penumbra-out-0");
    assert_eq!(std::fs::read_link(tmp.path().join("penumbra-last")).unwrap(), Path::new("penumbra-out-0"));
    let error = of_kind(&s, "error")[0];
    let ktest = KTest::from_bytes(&std::fs::read(dir.join(format!("{}.ktest", error.name))).unwrap()).unwrap();
    let names: Vec<&str> = ktest.objects.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["x", "x#1", "z"]);
    assert_eq!(ktest.objects[0].bytes, vec![4, 3, 2, 1]);
    assert_eq!(ktest.objects[1].bytes, vec![0, 0, 0, 0]);
    let sidecar = std::fs::read_to_string(dir.join("tests.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = sidecar.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len() as u64, s.tests_count);
    let json = lines.iter().find(|l| l["name"] == error.name.as_str()).unwrap();
    assert_eq!(json["ktest"], format!("{}.ktest", error.name));
    assert_eq!(json["kind"], "error");
    assert_eq!(json["error"]["kind"], "division-by-zero");
    assert_eq!(json["error"]["line"], 8);
    assert_eq!(json["inputs"]["x"]["hex"], "04030201");
    assert_eq!(json["inputs"]["x"]["int"], 0x01020304);
    assert_eq!(json["inputs"]["z"]["int"], -2);
    let pc = json["path_condition"].as_str().unwrap();
    assert!(pc.contains("(declare-fun |x[0]|") && pc.contains("(assert"), "{pc}");
    // Only on request: by default the records carry no path condition.
    c.write_path_condition = false;
    let plain = run(&module, &c).unwrap();
    let plain_dir = PathBuf::from(plain.output_dir.unwrap());
    let first = std::fs::read_to_string(plain_dir.join("tests.jsonl")).unwrap();
    assert!(!first.is_empty() && !first.contains("path_condition"), "{first}");
    // a second run gets the next number
    let again = run(&module, &c).unwrap();
    assert_eq!(again.output_dir.unwrap(), tmp.path().join("penumbra-out-2").display().to_string());
    assert_eq!(std::fs::read_link(tmp.path().join("penumbra-last")).unwrap(), Path::new("penumbra-out-2"));
    let _ = EngineConfig::default();
}

/// A branch the state budget keeps from forking still decides the path (issue 14): with room
/// for one state, the path takes a side of `x > 5` drawn from the run's seed (KLEE's memory
/// inhibit) and records it: the true side (x = 6, the solver's model of it) with random seeds 0
/// and 1, the model's false side (x = 0) with 2 and 3, where the division's zero check
/// (x == 10) is infeasible. Without the record the run reported a division by zero at x = 10,
/// an input that returns at the branch. Every test replays.
#[test]
fn a_branch_not_forked_under_the_state_budget_still_records_its_side() {
    let src = r#"#include <penumbra.h>
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  if (x > 5)
    return 0;
  return 100 / (x - 10);
}
"#;
    let module = compile(src);
    let mut c = config();
    c.budgets.max_states = Some(1);
    let mut sides = Vec::new();
    for seed in 0..4 {
        c.random_seed = seed;
        let s = run_with(&module, &c);
        assert_eq!((s.paths_completed, s.errors, s.dropped_states), (1, 0, 1), "{}", s.human());
        sides.push(int_input(&s.tests[0], "x"));
        assert_replays(&module, &c, &s);
    }
    assert_eq!(sides, vec![6, 6, 0, 0]);
}

/// Under a full state budget a four-way fork keeps its divergence (issue 14): with room for one
/// state, `change(x > 5, x > 6)` at x = 0 (the model: both false) goes on with the diff outcome
/// (x = 6: old true, new false), not with the model's same outcome.
#[test]
fn under_the_state_budget_a_divergence_is_the_last_outcome_dropped() {
    let module = compile(
        r#"#include <penumbra.h>
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  if (change(x > 5, x > 6))
    return 1;
  return 0;
}
"#,
    );
    let mut c = config();
    c.mode = penumbra_engine::Mode::Shadow(penumbra_engine::ShadowMode::Complete);
    c.budgets.max_states = Some(1);
    let s = run_with(&module, &c);
    assert_eq!(s.diff_paths, 1, "{}", s.human());
    let diverged = of_kind(&s, "divergence");
    assert_eq!(diverged.len(), 1);
    assert_eq!(int_input(diverged[0], "x"), 6);
    assert_eq!((diverged[0].old.as_deref(), diverged[0].new.as_deref()), (Some("true"), Some("false")));
}
