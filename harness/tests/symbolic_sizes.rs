//! Objects of symbolic size (issue 34): an allocation whose size depends on the input keeps
//! that size symbolic, and every access is checked against it, in plain and in shadow
//! execution. Each test asserts the exact truth of its program: which inputs overflow in which
//! version, how many diff paths, and that native replay classifies every divergence as a
//! regression.

use crate::shadow_examples::{shadow_file, Found};
use crate::support::{line_of, penumbra, write_c, CFile};
use serde_json::Value;

/// Issue 34's reproducer: the old version sizes the buffer by the larger of two lengths, the
/// new one by the first only; every input with `b > a` writes past the new buffer.
const LARGER_OF_TWO: &str = r#"#include <stdlib.h>
#include "penumbra.h"
int main(void) {
  unsigned char a, b;
  penumbra_make_symbolic(&a, 1, "a");
  penumbra_make_symbolic(&b, 1, "b");
  size_t n = change(a > b ? a : b, a);
  char *s = malloc(n + 1);
  s[b] = 0; // <- overflow
  return 0;
}
"#;

/// The loop-growth variant: the buffer is doubled without branches until the word fits (old:
/// up to four times) or once only (new), so its size is a symbolic term in each version; the
/// memset's symbolic length overflows the new buffer for every word of 32 bytes or more.
const GROW: &str = r#"#include <stdlib.h>
#include <string.h>
#include "penumbra.h"
int main(void) {
  unsigned char n;
  penumbra_make_symbolic(&n, 1, "n");
  size_t need = n + 1u, cap = 16;
  for (int i = 0; i < 4; i++)
    cap <<= change(cap < need, (i == 0) & (cap < need));
  char *word = malloc(cap);
  memset(word, 'x', need); // <- overflow
  free(word);
  return 0;
}
"#;

/// `penumbra ARGS... --json` succeeded: its stdout as JSON.
fn json(args: &[&str]) -> Value {
    let out = penumbra(args);
    out.assert_no_panic();
    out.assert_status(0);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stdout_str()))
}

/// An input's value as the unsigned byte it is.
fn byte(t: &Found, name: &str) -> u8 {
    let v = t.inputs.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no input {name}: {t:?}")).1;
    v as u8
}

/// The tests of a `penumbra run FILE --version new --json` run, and its error count.
fn run_new(file: &CFile) -> (u64, Vec<Value>) {
    let path = file.path.display().to_string();
    let s = json(&["run", &path, "--version", "new", "--json", "--no-tests", "--max-time", "60"]);
    (s["errors"].as_u64().expect("errors"), s["tests"].as_array().expect("tests").clone())
}

/// The byte input `name` of a `--json` test record.
fn record_byte(t: &Value, name: &str) -> u8 {
    t["inputs"][name]["int"].as_i64().unwrap_or_else(|| panic!("no input {name}: {t}")) as u8
}

#[test]
fn a_size_one_version_shrinks_is_a_regression_for_exactly_the_inputs_past_it() {
    let file = write_c("larger_of_two.c", LARGER_OF_TWO);
    let line = line_of(LARGER_OF_TWO, "// <- overflow");
    // The new version alone: one error test (b > a) and one clean path (b <= a).
    let (errors, tests) = run_new(&file);
    assert_eq!(errors, 1, "{tests:#?}");
    assert_eq!(tests.len(), 2, "{tests:#?}");
    for t in &tests {
        let (a, b) = (record_byte(t, "a"), record_byte(t, "b"));
        match t["kind"].as_str() {
            Some("error") => {
                assert!(b > a, "{t}");
                assert_eq!(
                    (t["error"]["kind"].as_str(), t["error"]["line"].as_u64()),
                    (Some("out-of-bounds-write"), Some(line.into()))
                );
            }
            _ => assert!(b <= a && t["exit_code"] == 0, "{t}"),
        }
    }
    // The old version never overflows (two paths: the sides of `a > b`).
    let path = file.path.display().to_string();
    let old = json(&["run", &path, "--version", "old", "--json", "--no-tests"]);
    assert_eq!((old["errors"].as_u64(), old["paths_completed"].as_u64()), (Some(0), Some(2)), "{old}");
    // Shadow execution, complete and seeded (from an input that does not diverge but takes the
    // side of `a > b` where the sizes differ): one diff path, the regression, at the write.
    for extra in [&[][..], &["--mode", "seeded", "--seed", "a=2,b=2"][..]] {
        let (summary, tests) = shadow_file(&file.path, extra);
        assert_eq!(summary["diff_paths"], 1, "{extra:?}: {summary}");
        assert_eq!(tests.len(), 1, "{extra:?}: {tests:?}");
        let t = &tests[0];
        assert!(byte(t, "b") > byte(t, "a"), "{t:?}");
        assert_eq!(
            (t.line, t.old.as_deref(), t.new.as_deref(), t.error.as_deref()),
            (Some(line), Some("passes"), Some("fails"), Some("out-of-bounds-write")),
            "{extra:?}"
        );
    }
    // Native replay (AddressSanitizer) sees the overflow in the new version only.
    let replayed = json(&["shadow", &path, "--replay", "--json", "--max-time", "60"]);
    let classes: Vec<&str> =
        replayed["tests"].as_array().expect("tests").iter().filter_map(|t| t["class"].as_str()).collect();
    assert_eq!(classes, ["regression"], "{replayed}");
}

#[test]
fn a_buffer_grown_by_one_step_overflows_in_the_memset_for_every_long_word() {
    let file = write_c("grow.c", GROW);
    let line = line_of(GROW, "// <- overflow");
    // The new version alone: the memset's symbolic length overflows the buffer of 16 or 32
    // bytes for n >= 32: one check, one error test, whatever values the run fixes the length
    // to afterwards (each a path of its own, the values left ending early).
    let (errors, tests) = run_new(&file);
    assert_eq!(errors, 1, "{tests:#?}");
    let error: Vec<&Value> = tests.iter().filter(|t| t["kind"] == "error").collect();
    assert_eq!(error.len(), 1, "{tests:#?}");
    assert!(record_byte(error[0], "n") >= 32, "{}", error[0]);
    assert_eq!(error[0]["error"]["line"].as_u64(), Some(line.into()));
    assert!(tests.iter().filter(|t| t["kind"] != "error").all(|t| record_byte(t, "n") < 32), "{tests:#?}");
    // Shadow execution, complete and seeded from a short word: one diff path (no branch), the
    // regression at the memset.
    for extra in [&[][..], &["--mode", "seeded", "--seed", "n=3"][..]] {
        let (summary, tests) = shadow_file(&file.path, extra);
        assert_eq!(summary["diff_paths"], 1, "{extra:?}: {summary}");
        assert_eq!(tests.len(), 1, "{extra:?}: {tests:?}");
        assert!(byte(&tests[0], "n") >= 32, "{:?}", tests[0]);
        assert_eq!(
            (tests[0].line, tests[0].old.as_deref(), tests[0].new.as_deref(), tests[0].error.as_deref()),
            (Some(line), Some("passes"), Some("fails"), Some("out-of-bounds-write")),
            "{extra:?}"
        );
    }
    let path = file.path.display().to_string();
    let replayed = json(&["shadow", &path, "--replay", "--json", "--max-time", "60"]);
    let classes: Vec<&str> =
        replayed["tests"].as_array().expect("tests").iter().filter_map(|t| t["class"].as_str()).collect();
    assert_eq!(classes, ["regression"], "{replayed}");
}

#[test]
fn sizes_above_the_object_limit_end_early_and_are_counted() {
    // Any 32-bit size: those above --max-object-size end early, the rest run on and the write
    // past the end is found for sizes the limit allows.
    let source = r#"#include <stdlib.h>
#include "penumbra.h"
int main(void) {
  unsigned n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  char *p = malloc(n);
  if (!p) return 1;
  p[100] = 1; // <- write
  return 0;
}
"#;
    let file = write_c("limit.c", source);
    let path = file.path.display().to_string();
    let s = json(&["run", &path, "--json", "--no-tests", "--max-object-size", "4096"]);
    assert_eq!(s["early_reasons"]["object-too-large"], 1, "{s}");
    assert_eq!(s["symbolic_sizes"], 1, "{s}");
    let tests = s["tests"].as_array().expect("tests");
    let error: Vec<&Value> = tests.iter().filter(|t| t["kind"] == "error").collect();
    assert_eq!(error.len(), 1, "{tests:#?}");
    let n = u32::from_le_bytes(
        (0..4)
            .map(|i| {
                u8::from_str_radix(&error[0]["inputs"]["n"]["hex"].as_str().expect("hex")[2 * i..2 * i + 2], 16)
                    .expect("hex")
            })
            .collect::<Vec<u8>>()
            .try_into()
            .expect("4 bytes"),
    );
    assert!(n <= 100, "the write at 100 overflows exactly the sizes up to 100: {}", error[0]);
    let early: Vec<&Value> = tests.iter().filter(|t| t["kind"] == "early").collect();
    assert_eq!(early.len(), 1, "{tests:#?}");
    assert_eq!(early[0]["reason"], "object-too-large");
}
