//! The concrete interpreter's traces (`RunConfig::trace`), which the oracle is built on: every
//! `brif` and `switch` decision, the bounds of `penumbra_execute` blocks and the values the
//! user sees, in execution order, nothing else, and nothing at all unless asked for.

use super::compare::compile;
use penumbra_engine::concrete::{Inputs, Outcome, Program, RunConfig, TraceEvent};
use penumbra_ir::{Func, InstData, Version};
use std::collections::BTreeMap;

const SRC: &str = r#"#include "penumbra.h"
static int f(int v) {
  switch (v) {
  case 7: return 1;
  case 9: return 2;
  default: return 3;
  }
}
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  int s = 0;
  for (int i = 0; i < 2; i++)
    s += f(x + i);
  if (change(x > 7, x > 8))
    s++;
  return s;
}
"#;

fn run(version: Version, x: i32, trace: bool) -> penumbra_engine::concrete::RunResult {
    let module = compile("trace", SRC);
    let program = Program::new(&module).unwrap();
    let inputs = Inputs::Named(BTreeMap::from([("x".to_string(), x.to_le_bytes().to_vec())]));
    program.run(&RunConfig { version, inputs, trace, ..RunConfig::default() })
}

/// The events as (function name, kind, decision): `("f", 's', 1)` is f's switch taking case
/// index 1, `("main", 'b', 0)` a branch of main taking its else side.
fn shape(version: Version, x: i32) -> Vec<(String, char, u32)> {
    let module = compile("trace", SRC);
    let name = |f: Func| module.funcs[f].name.clone();
    let r = run(version, x, true);
    assert!(matches!(r.outcome, Outcome::Exit(_)), "{}", r.outcome);
    r.trace
        .iter()
        .filter(|e| !matches!(e.event, TraceEvent::Output { .. }))
        .map(|e| match e.event {
            TraceEvent::Brif { func, inst, side } => {
                assert!(matches!(module.funcs[func].body.as_ref().unwrap().insts[inst], InstData::Brif { .. }));
                (name(func), 'b', u32::from(side))
            }
            TraceEvent::Switch { func, inst, index } => {
                assert!(matches!(module.funcs[func].body.as_ref().unwrap().insts[inst], InstData::Switch { .. }));
                (name(func), 's', index)
            }
            other => panic!("no execute block here: {other:?}"),
        })
        .collect()
}

#[test]
fn trace_records_branches_and_switch_cases_in_order() {
    let ev = |f: &str, k, d| (f.to_string(), k, d);
    // x = 8: f(8) takes the default (index 2 of 2 cases), f(9) case index 1; the loop test
    // runs three times; `x > 7` holds in old, `x > 8` not in new.
    let expected_old = vec![
        ev("main", 'b', 1),
        ev("f", 's', 2),
        ev("main", 'b', 1),
        ev("f", 's', 1),
        ev("main", 'b', 0),
        ev("main", 'b', 1),
    ];
    assert_eq!(shape(Version::Old, 8), expected_old);
    let mut expected_new = expected_old.clone();
    expected_new[5] = ev("main", 'b', 0);
    assert_eq!(shape(Version::New, 8), expected_new);
    // x = 7: case index 0, then the default.
    assert_eq!(shape(Version::New, 7)[1], ev("f", 's', 0));
    assert_eq!(shape(Version::New, 7)[3], ev("f", 's', 2));
}

#[test]
fn trace_is_empty_unless_asked_for() {
    let off = run(Version::New, 8, false);
    assert!(off.trace.is_empty());
    let on = run(Version::New, 8, true);
    // Six decisions and main's status.
    assert_eq!(on.trace.len(), 7);
    assert_eq!((off.outcome, off.steps, off.stdout), (on.outcome, on.steps, on.stdout), "tracing changes nothing else");
}

const BLOCKS: &str = r#"#include "penumbra.h"
#include <stdio.h>
static int bump(int *c, int by) { *c += by; return *c; }
int main(void) {
  int x, counter = 0;
  penumbra_make_symbolic(&x, sizeof x, "x");
  int v = change(bump(&counter, 1), bump(&counter, 100));
  if (x > 3)
    printf("%d %s\n", v + x, "!");
  if (penumbra_execute(PENUMBRA_NEW)) {
    if (x > 5)
      return 4;
  }
  putchar('a' + x);
  return counter;
}
"#;

/// The events of `BLOCKS` as words: `enter`, `join`, `return`, `b0`/`b1` (a branch's side),
/// `out N`.
fn block_events(version: Version, x: i32) -> Vec<String> {
    let module = compile("trace_blocks", BLOCKS);
    let program = Program::new(&module).unwrap();
    let inputs = Inputs::Named(BTreeMap::from([("x".to_string(), x.to_le_bytes().to_vec())]));
    let r = program.run(&RunConfig { version, inputs, trace: true, ..RunConfig::default() });
    let mut steps = r.trace.iter().map(|e| e.step).collect::<Vec<_>>();
    steps.dedup();
    assert!(steps.windows(2).all(|w| w[0] < w[1]), "events in execution order");
    r.trace
        .iter()
        .map(|e| match e.event {
            TraceEvent::Brif { side, .. } => format!("b{side}"),
            TraceEvent::Switch { index, .. } => format!("s{index}"),
            TraceEvent::ExecuteEnter { .. } => "enter".into(),
            TraceEvent::ExecuteJoin => "join".into(),
            TraceEvent::ExecuteReturn => "return".into(),
            TraceEvent::Output { value, .. } => format!("out {value}"),
        })
        .collect()
}

#[test]
fn trace_records_execute_blocks_and_outputs() {
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // `change` with calls is an execute block (each version runs its own operand); printf's
    // number is output, its string is not; the `if (penumbra_execute(NEW))` block is empty in
    // old (its branch goes straight to the join); `putchar` and main's status are output.
    assert_eq!(
        block_events(Version::Old, 4),
        words(&["enter", "join", "b1", "out 5", "enter", "join", "out 101", "out 1"])
    );
    assert_eq!(
        block_events(Version::New, 4),
        words(&["enter", "join", "b1", "out 104", "enter", "b0", "join", "out 101", "out 100"])
    );
    // x = 6: new returns inside its block (main's status first, then the block's end).
    assert_eq!(
        block_events(Version::New, 6),
        words(&["enter", "join", "b1", "out 106", "enter", "b1", "out 4", "return"])
    );
}
