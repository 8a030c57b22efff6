//! The concrete interpreter's branch traces (`RunConfig::trace`), which the oracle is built
//! on: every `brif` and `switch` decision in execution order, nothing else, and nothing at
//! all unless asked for.

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
        .map(|e| match *e {
            TraceEvent::Brif { func, inst, side } => {
                assert!(matches!(module.funcs[func].body.as_ref().unwrap().insts[inst], InstData::Brif { .. }));
                (name(func), 'b', u32::from(side))
            }
            TraceEvent::Switch { func, inst, index } => {
                assert!(matches!(module.funcs[func].body.as_ref().unwrap().insts[inst], InstData::Switch { .. }));
                (name(func), 's', index)
            }
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
    assert_eq!(on.trace.len(), 6);
    assert_eq!((off.outcome, off.steps, off.stdout), (on.outcome, on.steps, on.stdout), "tracing changes nothing else");
}
