//! The searchers that weigh states (covering-new, patch-directed, their interleaving) and the
//! tests written for the states alive when a budget stops the run.

use super::support::{compile, config, run_with};
use penumbra_engine::search::distance::{CallGraph, FAR};
use penumbra_engine::search::relevance::{Relevance, Var};
use penumbra_engine::{Mode, SearchKind, ShadowMode};

/// 2^14 paths in `spin`; the change only behind `b[0] == 'x'` (then-side) or its else-side.
fn patch_behind(then_side: bool) -> String {
    let (a, b) = if then_side {
        ("return change(1, 2);", "return spin(b + 1);")
    } else {
        ("return spin(b + 1);", "return change(1, 2);")
    };
    format!(
        r#"#include "penumbra.h"
static int spin(const char *b) {{
  int n = 0;
  for (int i = 0; i < 14; i++)
    if (b[i] == 'a') n++;
  return n;
}}
int main(void) {{
  char b[16];
  penumbra_make_symbolic(b, sizeof b, "b");
  if (b[0] == 'x') {{ {a} }}
  {b}
}}
"#
    )
}

#[test]
fn patch_directed_search_takes_the_side_that_reaches_the_change_first() {
    for then_side in [true, false] {
        let module = compile(&patch_behind(then_side));
        let mut c = config();
        c.mode = Mode::Shadow(ShadowMode::Complete);
        c.search = SearchKind::PatchDirected;
        c.budgets.max_paths = Some(1);
        let s = run_with(&module, &c);
        assert_eq!((s.diff_paths, s.paths_completed), (1, 1), "then side {then_side}: {}", s.human());
        let b = &s.tests[0].inputs.0[0].bytes;
        assert_eq!(b[0] == b'x', then_side, "{b:?}");
        // Depth-first search ends a path of `spin` first on one of the two orientations.
        c.search = SearchKind::Dfs;
        let dfs_first = run_with(&module, &c).diff_paths;
        c.search = SearchKind::Interleaved;
        assert!(run_with(&module, &c).paths_completed == 1);
        if dfs_first == 0 {
            return;
        }
    }
    panic!("depth-first search reached the change first on both sides: the program tests nothing");
}

/// A path spinning 2^22 times without a fork on one side of `b[0] == 'x'`; on the other, a
/// second branch and the change behind it.
fn patch_beside_a_long_loop(loop_then: bool) -> String {
    let change = "if (b[1] == 'y') return change(1, 2); return 0;";
    let (a, b) = if loop_then { ("return spin();", change) } else { (change, "return spin();") };
    format!(
        r#"#include "penumbra.h"
static int spin(void) {{
  volatile unsigned n = 0;
  for (unsigned i = 0; i < (1u << 22); i++) n += i;
  return n & 1;
}}
int main(void) {{
  char b[2];
  penumbra_make_symbolic(b, sizeof b, "b");
  if (b[0] == 'x') {{ {a} }}
  {b}
}}
"#
    )
}

/// In one orientation depth-first search's turn falls on the spinning state while the change
/// waits for the directed turn: only the time slice hands it over within the budget.
#[test]
fn a_state_in_a_long_loop_gives_the_other_searchers_their_turns() {
    for loop_then in [true, false] {
        let module = compile(&patch_beside_a_long_loop(loop_then));
        let mut c = config();
        c.mode = Mode::Shadow(ShadowMode::Complete);
        c.search = SearchKind::Interleaved;
        // A few time slices: far from the loop's end.
        c.budgets.max_instructions = Some(3 << 18);
        c.halt_tests = false;
        let s = run_with(&module, &c);
        assert_eq!(s.diff_paths, 1, "loop on the then side {loop_then}: {}", s.human());
        let b = &s.tests.iter().find(|t| t.kind == "divergence").expect("a diff test").inputs.0[0].bytes;
        assert_eq!((b[0] == b'x', b[1]), (!loop_then, b'y'));
    }
}

/// The versions part at `b[0]`; the parted paths run through 2^12 paths of `spin`, each
/// iteration past a change (the same in both versions), while the path that has not diverged
/// is a long block away from the change it can still diverge at.
const TWO_CHANGES: &str = r#"#include "penumbra.h"
#define A4(x) x x x x
#define A256(x) A4(A4(A4(A4(x))))
static volatile int sink;
static int spin(const char *b) {
  int n = 0;
  for (int i = 0; i < 12; i++)
    if (b[i] == 'a') n += change(1, 1);
  return n;
}
int main(void) {
  char b[16];
  penumbra_make_symbolic(b, sizeof b, "b");
  int n = 0;
  if (change(b[0] == 'a', b[0] == 'b')) n = spin(b + 1);
  else { A256(sink += 1;) }
  if (b[15] == 'z') return change(1, 2) + n;
  return n;
}
"#;

#[test]
fn patch_directed_search_leaves_diverged_states_for_those_that_can_still_diverge() {
    let module = compile(TWO_CHANGES);
    let mut c = config();
    c.mode = Mode::Shadow(ShadowMode::Complete);
    c.search = SearchKind::PatchDirected;
    c.budgets.max_paths = Some(3);
    let s = run_with(&module, &c);
    let second = s.tests.iter().filter(|t| {
        let b = &t.inputs.0[0].bytes;
        t.kind == "divergence" && b[0] != b'a' && b[0] != b'b' && b[15] == b'z'
    });
    assert_eq!(second.count(), 1, "{}", s.human());
}

#[test]
fn distances_follow_calls_and_stop_at_functions_that_cannot_reach() {
    let module = compile(
        r#"#include "penumbra.h"
int sink(int x) { return change(x, x + 1); }
int middle(int x) { int y = x * 3; if (y > 7) y++; return sink(y); }
int apart(int x) { return x + 1; }
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  return middle(x) + apart(x);
}
"#,
    );
    let graph = CallGraph::new(&module);
    let f = |name| module.func_by_name(name).unwrap();
    let sink = f("sink");
    let d = graph.distances(&module, |func, block| {
        func == sink && module.funcs[func].body.as_ref().unwrap().layout.entry_block() == Some(block)
    });
    assert_eq!(d.entry(sink), 0);
    assert_eq!(d.entry(f("apart")), FAR);
    let (middle, main) = (d.entry(f("middle")), d.entry(f("main")));
    assert!(0 < middle && middle < main && main < FAR, "middle {middle}, main {main}");
}

const MANY: &str = r#"#include "penumbra.h"
int main(void) {
  char b[12];
  penumbra_make_symbolic(b, sizeof b, "b");
  int n = 0;
  for (int i = 0; i < 12; i++)
    if (b[i] == 'a') n++;
  return n;
}
"#;

#[test]
fn states_alive_at_the_instruction_budget_get_early_tests() {
    let module = compile(MANY);
    let mut c = config();
    c.search = SearchKind::RandomPath;
    c.budgets.max_instructions = Some(2_000);
    let s = run_with(&module, &c);
    let early: Vec<_> = s.tests.iter().filter(|t| t.kind == "early").collect();
    assert!(s.unexplored_states > 1, "{}", s.human());
    // The state that was stepping and every state left in the search.
    assert_eq!(early.len() as u64, s.unexplored_states + 1, "{}", s.human());
    assert!(early.iter().all(|t| t.reason.as_deref() == Some("max-instructions")));
    assert_eq!(s.early_reasons.get("max-instructions").copied(), Some(early.len() as u64));
    c.halt_tests = false;
    let s = run_with(&module, &c);
    assert_eq!(s.tests.iter().filter(|t| t.kind == "early").count(), 1, "only the stepping state: {}", s.human());
}

#[test]
fn the_tests_of_states_alive_at_the_deadline_stay_within_the_test_budget() {
    let module = compile(MANY);
    let tmp = tempfile::tempdir().unwrap();
    let mut c = config();
    c.search = SearchKind::RandomPath;
    c.budgets.max_instructions = Some(2_000);
    c.output = penumbra_engine::Output::Dir(tmp.path().join("out"));
    let all = run_with(&module, &c).tests_count;
    assert!(all > 5, "{all}");
    c.output = penumbra_engine::Output::Dir(tmp.path().join("capped"));
    c.budgets.max_tests = Some(all - 3);
    let s = run_with(&module, &c);
    assert_eq!(s.tests_count, all - 3, "{}", s.human());
    assert_eq!(s.stopped_by.as_deref(), Some("max-instructions"), "{}", s.human());
}

/// Two independent branches make four paths and four new blocks (the sides of each): every
/// path but one enters one first. A forked state starts without the mark (KLEE's
/// `coveredNew`), the path it forked from keeps its own: depth-first, `!a` takes both of the
/// second branch's sides first; then the path of `a` enters `n += 1` first and forks, and its
/// fork `a && !b` enters nothing first.
#[test]
fn a_test_says_whether_its_path_entered_a_block_first() {
    let module = compile(
        r#"#include "penumbra.h"
int main(void) {
  int a, b, n = 0;
  penumbra_make_symbolic(&a, sizeof a, "a");
  penumbra_make_symbolic(&b, sizeof b, "b");
  if (a) n += 1; else n += 2;
  if (b) n += 4; else n += 8;
  return n;
}
"#,
    );
    let mut c = config();
    c.search = SearchKind::Dfs;
    let s = run_with(&module, &c);
    // Exit status n: 5 = a, b; 9 = a, !b; 6 = !a, b; 10 = !a, !b.
    let marks: Vec<(i32, bool)> = s.tests.iter().map(|t| (t.exit_code.expect("an exit"), t.new_code)).collect();
    assert_eq!(marks, [(10, true), (6, true), (9, false), (5, true)]);
}

/// A symbolic character looked up in a list of 24 letters by a scan that forks at each, then
/// 2^6 paths below each letter found. Random-path takes the scan's forks on the one character
/// as one choice among the letters: within 400 paths it reaches the last letter, which at the
/// end of a chain of 24 forks it would reach only after exhausting most of the others'
/// subtrees (about 1,500 paths).
#[test]
fn random_path_reaches_the_last_entry_of_a_scanned_list() {
    let module = compile(
        r#"#include "penumbra.h"
int main(void) {
  char c;
  unsigned char more[6];
  penumbra_make_symbolic(&c, 1, "c");
  penumbra_make_symbolic(more, sizeof more, "more");
  const char *letters = "abcdefghijklmnopqrstuvwx", *p = letters;
  while (*p && *p != c) p++;
  if (!*p) return 0;
  int n = 0;
  for (int i = 0; i < 6; i++)
    if (more[i] & 1) n++;
  return n;
}
"#,
    );
    let mut c = config();
    c.search = SearchKind::RandomPath;
    c.budgets.max_paths = Some(400);
    let s = run_with(&module, &c);
    let letters = letters_reached(&s, 0);
    assert!(letters.contains('x'), "letters reached: {letters:?}");
    assert!(letters.len() >= 20, "letters reached: {}", letters.len());
}

/// The lowercase letters the tests of `s` give their `input`-th input's first byte, in order.
fn letters_reached(s: &penumbra_engine::RunSummary, input: usize) -> String {
    let letters: std::collections::BTreeSet<u8> =
        s.tests.iter().map(|t| t.inputs.0[input].bytes[0]).filter(u8::is_ascii_lowercase).collect();
    letters.into_iter().map(char::from).collect()
}

/// Under memory pressure (here the state limit, reached by the 2^9 paths of the first loop)
/// a fork that goes on testing one value against the constants of a list still forks, up to a
/// quarter above the limit: deciding each test by a coin gave the k-th letter 2^-k of the
/// paths, and the last of 24 none in 1,000 (10 letters in all).
#[test]
fn a_scanned_list_forks_under_memory_pressure() {
    let module = compile(
        r#"#include "penumbra.h"
int main(void) {
  char c;
  unsigned char more[9], after[6];
  penumbra_make_symbolic(more, sizeof more, "more");
  penumbra_make_symbolic(&c, 1, "c");
  penumbra_make_symbolic(after, sizeof after, "after");
  int n = 0;
  for (int i = 0; i < 9; i++)
    if (more[i] & 1) n++;
  const char *letters = "abcdefghijklmnopqrstuvwx", *p = letters;
  while (*p && *p != c) p++;
  if (!*p) return 0;
  for (int i = 0; i < 6; i++)
    if (after[i] & 1) n++;
  return n;
}
"#,
    );
    let mut c = config();
    c.search = SearchKind::RandomPath;
    c.budgets.max_paths = Some(1000);
    c.budgets.max_states = Some(200);
    let s = run_with(&module, &c);
    let letters = letters_reached(&s, 1);
    assert!(letters.contains('x') && letters.len() >= 20, "letters reached: {letters:?}");
}

/// `pr -d -l1` in small: the change halves a page length that `-l` sets, behind `-d`'s flag.
/// The analysis finds the globals that decide whether the change runs (`halve`) and what its
/// sides compute (`body`, and `page` behind it), and the blocks that write them: the option
/// cases, the call that passes `&page`, `body`'s assignments. Not `across` and `columns`,
/// which only guard an exit, nor `verbose`, which the change never reads.
#[test]
fn the_patch_reads_the_globals_that_decide_its_change_and_feed_it() {
    let module = compile(
        r#"#include "penumbra.h"
#include <stdlib.h>
static int page = 66, body, halve, across, columns = 1, verbose;
static void set_number(int *n, char c) { *n = c - '0'; }
static void init(void) {
  body = page - 10;
  if (body <= 0) body = page;
  if (halve) body = change(body / 2, body / 2 > 1 ? body / 2 : 1);
}
int main(void) {
  char opt[4];
  penumbra_make_symbolic(opt, sizeof opt, "opt");
  for (int i = 0; i < 3; i++) {
    switch (opt[i]) {
    case 'd': halve = 1; break;
    case 'l': set_number(&page, opt[i + 1]); break;
    case 'a': across = 1; break;
    case 'c': columns = 2; break;
    case 'v': verbose = 1; break;
    }
  }
  if (across && columns > 1) exit(1);
  init();
  return verbose ? 0 : body;
}
"#,
    );
    let relevance = Relevance::new(&module, &[]);
    let name = |v: &Var| match *v {
        Var::Global(g) => module.globals[g].name.clone(),
        Var::Local { func, .. } => format!("a local of {}", module.funcs[func].name),
    };
    let is_global = |v: &&Var| matches!(v, Var::Global(_));
    let mut names: Vec<String> = relevance.vars().iter().filter(is_global).map(name).collect();
    names.sort();
    assert_eq!(names, ["body", "halve", "page"]);
    // Per block of main that writes one: the globals it writes (the loop's counter, which
    // decides whether the option cases run, is a relevant local).
    let main = module.func_by_name("main").unwrap();
    let body = module.funcs[main].body.as_ref().unwrap();
    let mut written: Vec<Vec<String>> = body
        .layout
        .blocks()
        .iter()
        .map(|&b| relevance.mask(main, b))
        .filter(|&m| m != 0)
        .map(|m| {
            let vars = relevance.vars().iter().enumerate().filter(|&(i, v)| m & (1 << i) != 0 && is_global(&v));
            vars.map(|(_, v)| name(v)).collect()
        })
        .filter(|names: &Vec<String>| !names.is_empty())
        .collect();
    written.sort();
    assert_eq!(written, [vec!["halve"], vec!["page"]]);
    let init = module.func_by_name("init").unwrap();
    let init_body = module.funcs[init].body.as_ref().unwrap();
    let body_bit = 1u64 << relevance.vars().iter().position(|v| name(v) == "body").unwrap();
    let writes_body = init_body.layout.blocks().iter().filter(|&&b| relevance.mask(init, b) & body_bit != 0).count();
    assert!(writes_body >= 2, "init's blocks writing body: {writes_body}");
}

/// A flag the compiler keeps in a register (a local assigned in one branch, read after a
/// loop) is a variable the patch reads when it decides whether the changed function runs: the
/// block that sets it defines it, the one that sets `quiet` does not.
#[test]
fn a_local_flag_that_decides_whether_the_change_runs_is_relevant() {
    let module = compile(
        r#"#include "penumbra.h"
static int body = 8;
static int __attribute__((noinline)) halved(void) { return change(body / 2, body / 2 > 1 ? body / 2 : 1); }
int main(void) {
  char opt[3];
  penumbra_make_symbolic(opt, sizeof opt, "opt");
  int half = 0, quiet = 0;
  for (int i = 0; i < 3; i++) {
    if (opt[i] == 'd') half = 1;
    else if (opt[i] == 'q') quiet = 2;
  }
  if (half) return halved();
  return quiet;
}
"#,
    );
    let relevance = Relevance::new(&module, &[]);
    let main = module.func_by_name("main").unwrap();
    let locals: Vec<usize> = relevance
        .vars()
        .iter()
        .enumerate()
        .filter(|(_, v)| matches!(v, Var::Local { func, .. } if *func == main))
        .map(|(i, _)| i)
        .collect();
    assert!(!locals.is_empty(), "vars: {:?}", relevance.vars());
    // The blocks of main that define a relevant local: they store the constants 1 (half's `d`)
    // and 0 (its initial value), never 2 (quiet).
    let body = module.funcs[main].body.as_ref().unwrap();
    let mut passed: Vec<u64> = Vec::new();
    for &b in body.layout.blocks() {
        let m = relevance.mask(main, b);
        if locals.iter().all(|&i| m & (1 << i) == 0) {
            continue;
        }
        let term = body.layout.terminator(b).unwrap();
        for d in body.successors(term) {
            for &a in body.dest_args(d) {
                if let penumbra_ir::ValueDef::Const(k) = body.value_def(a) {
                    passed.push(k);
                }
            }
        }
    }
    assert!(passed.contains(&1) && !passed.contains(&2), "constants passed by defining blocks: {passed:?}");
}

/// seq_fast in small: a loop whose every turn runs the change. Its counter is a local the
/// change's loop condition reads, but every way to the change writes it (its start before the
/// loop, its step in the changed block), so it tells no path apart and no block defines it;
/// `sep`, which only the `s` option writes, is what the patch reads.
#[test]
fn a_counter_of_the_loop_that_holds_the_change_is_no_definition() {
    let module = compile(
        r#"#include "penumbra.h"
static char sep = '\n';
static int __attribute__((noinline)) emit(char *buf, int n) {
  char *z = buf;
  for (int i = 0; i < n; i++) *z++ = change('\n', sep);
  return z - buf;
}
int main(void) {
  char opt[2], buf[8];
  penumbra_make_symbolic(opt, sizeof opt, "opt");
  if (opt[0] == 's') sep = opt[1];
  return emit(buf, opt[1] & 7);
}
"#,
    );
    let relevance = Relevance::new(&module, &[]);
    let emit = module.func_by_name("emit").unwrap();
    let (counters, globals): (Vec<usize>, Vec<usize>) = (0..relevance.vars().len())
        .filter(|&i| !matches!(relevance.vars()[i], Var::Local { func, .. } if func != emit))
        .partition(|&i| matches!(relevance.vars()[i], Var::Local { .. }));
    assert!(!counters.is_empty(), "the loop's counter is read by its condition: {:?}", relevance.vars());
    let defined = |func, i: usize| {
        let body = module.funcs[func].body.as_ref().unwrap();
        body.layout.blocks().iter().filter(|&&b| relevance.mask(func, b) & (1 << i) != 0).count()
    };
    for &i in &counters {
        assert_eq!(defined(emit, i), 0, "emit's local {:?} is defined", relevance.vars()[i]);
    }
    let names: Vec<&str> = globals
        .iter()
        .map(|&i| match relevance.vars()[i] {
            Var::Global(g) => module.globals[g].name.as_str(),
            Var::Local { .. } => unreachable!(),
        })
        .collect();
    assert_eq!(names, ["sep"]);
    let main = module.func_by_name("main").unwrap();
    assert_eq!(defined(main, globals[0]), 1, "main's store of `sep` defines it");
}
