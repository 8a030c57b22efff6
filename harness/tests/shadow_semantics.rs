//! `penumbra shadow` semantics beyond the bundled examples: `penumbra_execute(OLD|NEW)`
//! blocks (ShadowJPF+: one version's code runs against that version's state alone; only what
//! the versions then do differently diverges), `change(0, 1)` blocks (an immediate
//! divergence), changed pointer arithmetic, refactorings without effect, and the summary's
//! fields. Each test asserts the exact divergences: input, line, sides and ending.

use crate::shadow_examples::{shadow_file, Found};
use crate::support::{line_of, write_c};

/// Runs complete shadow execution on `source` and returns `(diff_paths, tests)` with the
/// tests sorted by their input.
fn shadow(name: &str, source: &str) -> (u64, Vec<Found>) {
    let file = write_c(name, source);
    let (summary, mut tests) = shadow_file(&file.path, &[]);
    tests.sort_by(|a, b| a.inputs.cmp(&b.inputs));
    (summary["diff_paths"].as_u64().expect("diff_paths is an integer"), tests)
}

/// The single input value of a test.
fn x(t: &Found) -> i64 {
    assert_eq!(t.inputs.len(), 1, "{t:?}");
    t.inputs[0].1
}

/// What a divergence test says: (line, old, new, error, exit).
type Sides<'a> = (Option<u32>, Option<&'a str>, Option<&'a str>, Option<&'a str>, Option<i64>);

fn sides(t: &Found) -> Sides<'_> {
    (t.line, t.old.as_deref(), t.new.as_deref(), t.error.as_deref(), t.exit_code)
}

const NEW_ONLY_CLAMP: &str = r#"#include "penumbra.h"
int counter;
int f(int x) {
  int y = x;
  if (penumbra_execute(NEW)) {
    if (y > 10)
      y = 5;
  }
  if (penumbra_execute(OLD)) {
    counter++;
  }
  if (y > 8) // <- diverges
    return 1;
  return 0;
}
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 20);
  return f(x);
}
"#;

#[test]
fn an_execute_new_block_diverges_only_where_its_effect_changes_a_branch() {
    // Old: y = x. New: y = 5 when x > 10. `y > 8` differs exactly for x in [11, 20]; the
    // blocks themselves (and the old-only counter) are no divergence.
    let (diff_paths, tests) = shadow("clamp.c", NEW_ONLY_CLAMP);
    assert_eq!(diff_paths, 1);
    assert_eq!(tests.len(), 1, "{tests:?}");
    assert!((11..=20).contains(&x(&tests[0])), "{:?}", tests[0]);
    let line = line_of(NEW_ONLY_CLAMP, "// <- diverges");
    assert_eq!(sides(&tests[0]), (Some(line), Some("true"), Some("false"), None, Some(0)));
}

const OLD_EARLY_RETURN: &str = r#"#include "penumbra.h"
int g(int x) {
  if (penumbra_execute(OLD)) { // <- block
    if (x < 0)
      return -1;
  }
  if (x < -5)
    return 7;
  return 0;
}
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= -10 && x <= 10);
  return g(x) == 7;
}
"#;

#[test]
fn a_return_inside_an_execute_old_block_is_a_divergence_after_which_new_runs_on() {
    // x < 0: old returns -1 from inside its block; new goes on, to `x < -5` (two paths).
    let (diff_paths, tests) = shadow("early.c", OLD_EARLY_RETURN);
    assert_eq!(diff_paths, 2);
    let line = Some(line_of(OLD_EARLY_RETURN, "// <- block"));
    assert_eq!(tests.len(), 2, "{tests:?}");
    assert!((-10..=-6).contains(&x(&tests[0])), "{:?}", tests[0]);
    assert_eq!(sides(&tests[0]), (line, Some("returns"), Some("continues"), None, Some(1)));
    assert!((-5..=-1).contains(&x(&tests[1])), "{:?}", tests[1]);
    assert_eq!(sides(&tests[1]), (line, Some("returns"), Some("continues"), None, Some(0)));
}

const NEW_EARLY_RETURN: &str = r#"#include "penumbra.h"
int h(int x) {
  if (penumbra_execute(NEW)) { // <- block
    if (x > 6)
      return 1;
  }
  return x > 8;
}
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 9);
  return h(x);
}
"#;

#[test]
fn a_return_inside_an_execute_new_block_is_a_divergence_the_path_follows() {
    let (diff_paths, tests) = shadow("early_new.c", NEW_EARLY_RETURN);
    assert_eq!(diff_paths, 1);
    assert_eq!(tests.len(), 1, "{tests:?}");
    assert!((7..=9).contains(&x(&tests[0])), "{:?}", tests[0]);
    let line = Some(line_of(NEW_EARLY_RETURN, "// <- block"));
    assert_eq!(sides(&tests[0]), (line, Some("continues"), Some("returns"), None, Some(1)));
}

const IF_ELSE_BLOCKS: &str = r#"#include "penumbra.h"
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 9);
  int r = 0;
  if (penumbra_execute(OLD)) {
    penumbra_assert(x != 3); // <- old check
    r = 1;
  } else {
    penumbra_assert(x != 5); // <- new check
    r = 2;
  }
  if (r == 1) // <- uses r
    return 10;
  return 20;
}
"#;

#[test]
fn errors_inside_execute_blocks_are_divergences_of_one_version() {
    // x = 3: only old fails (a fix; new runs on and exits 20); x = 5: only new fails (a
    // regression); every other x reaches `r == 1`, which the versions decide differently.
    let (diff_paths, tests) = shadow("ifelse.c", IF_ELSE_BLOCKS);
    assert_eq!(diff_paths, 3);
    let by_x = |v: i64| tests.iter().find(|t| x(t) == v);
    let old_check = Some(line_of(IF_ELSE_BLOCKS, "// <- old check"));
    let new_check = Some(line_of(IF_ELSE_BLOCKS, "// <- new check"));
    let uses_r = Some(line_of(IF_ELSE_BLOCKS, "// <- uses r"));
    assert_eq!(sides(by_x(3).expect("x = 3")), (old_check, Some("fails"), Some("continues"), None, Some(20)));
    assert_eq!(
        sides(by_x(5).expect("x = 5")),
        (new_check, Some("continues"), Some("fails"), Some("assertion-failed"), None)
    );
    let rest: Vec<&Found> = tests.iter().filter(|t| ![3, 5].contains(&x(t))).collect();
    assert_eq!(rest.len(), 1, "{tests:?}");
    assert_eq!(sides(rest[0]), (uses_r, Some("true"), Some("false"), None, Some(20)));
}

const ADDED_CODE: &str = r#"#include "penumbra.h"
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x >= 0 && x <= 3);
  int y = x;
  if (change(0, 1)) { // <- added
    y = y + 1;
  }
  return y;
}
"#;

#[test]
fn a_change_0_1_block_is_an_immediate_divergence_for_every_input() {
    let (diff_paths, tests) = shadow("added.c", ADDED_CODE);
    assert_eq!(diff_paths, 1);
    let line = Some(line_of(ADDED_CODE, "// <- added"));
    assert_eq!(tests.len(), 1);
    assert_eq!((tests[0].line, tests[0].old.as_deref(), tests[0].new.as_deref()), (line, Some("false"), Some("true")));
}

const POINTER_ARITHMETIC: &str = r#"#include "penumbra.h"
int main(void) {
  int a[4] = {1, 2, 3, 4};
  int i;
  penumbra_make_symbolic(&i, sizeof i, "i");
  penumbra_assume(i >= 0 && i <= 3);
  int *p = a + change(i, i + 1);
  int v = *p; // <- access
  if (v > 2) // <- compare
    return 1;
  return 0;
}
"#;

#[test]
fn changed_pointer_arithmetic_reads_each_versions_element() {
    // Old reads a[i], new a[i + 1]: new overflows at i = 3 (old reads 4 there); `v > 2`
    // differs at i = 1 (old 2, new 3). i = 0 (1 vs 2) and i = 2 (3 vs 4) do not diverge.
    let (diff_paths, tests) = shadow("ptr.c", POINTER_ARITHMETIC);
    assert_eq!(diff_paths, 2);
    let access = Some(line_of(POINTER_ARITHMETIC, "// <- access"));
    let compare = Some(line_of(POINTER_ARITHMETIC, "// <- compare"));
    assert_eq!(tests.iter().map(x).collect::<Vec<_>>(), vec![1, 3]);
    assert_eq!(sides(&tests[0]), (compare, Some("false"), Some("true"), None, Some(1)));
    assert_eq!(sides(&tests[1]), (access, Some("passes"), Some("fails"), Some("out-of-bounds-read"), None));
}

const REFACTORING: &str = r#"#include "penumbra.h"
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  int y = change(x * 2, x + x);
  if (y > 10)
    return 1;
  return 0;
}
"#;

#[test]
fn a_refactoring_without_effect_has_no_divergence() {
    let (diff_paths, tests) = shadow("refactor.c", REFACTORING);
    assert_eq!((diff_paths, tests.len()), (0, 0));
}

const CHANGED_MALLOC_SIZE: &str = r#"#include <stdlib.h>
#include "penumbra.h"
int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  penumbra_assume(n >= 0 && n <= 6);
  char *buf = malloc(change(4, 5));
  buf[n] = 1; // <- write
  int r = buf[0];
  free(buf);
  return r;
}
"#;

#[test]
fn a_changed_allocation_size_is_checked_against_each_versions_size() {
    // n = 4 overflows the old 4-byte block only (the fix: new exits 0); n in [5, 6] overflows
    // both (an error in both versions, not a divergence).
    let (diff_paths, tests) = shadow("malloc.c", CHANGED_MALLOC_SIZE);
    assert_eq!(diff_paths, 1);
    let write = Some(line_of(CHANGED_MALLOC_SIZE, "// <- write"));
    assert_eq!(tests.len(), 2, "{tests:?}");
    assert_eq!(x(&tests[0]), 4);
    assert_eq!(sides(&tests[0]), (write, Some("fails"), Some("passes"), None, Some(0)));
    assert!((5..=6).contains(&x(&tests[1])), "{:?}", tests[1]);
    assert_eq!(
        (tests[1].kind.as_str(), tests[1].line, tests[1].error.as_deref()),
        ("error", write, Some("out-of-bounds-write"))
    );
}

#[test]
fn an_unannotated_program_has_no_divergence_and_penumbra_says_so() {
    let file = write_c(
        "plain.c",
        "#include \"penumbra.h\"\nint main(void) {\n  int x;\n  penumbra_make_symbolic(&x, sizeof x, \"x\");\n  if (x > 3) return 1;\n  return 0;\n}\n",
    );
    let out = crate::support::penumbra(["shadow".as_ref(), file.path.as_os_str(), "--no-tests".as_ref()]);
    out.assert_status(0);
    let stdout = out.stdout_str();
    assert!(stdout.contains("diff paths              0"), "{stdout}");
    assert!(stdout.contains("no divergence found"), "{stdout}");
    assert!(out.stderr.contains("has no change() or penumbra_execute() annotations"), "{}", out.stderr);
    let (summary, tests) = shadow_file(&file.path, &[]);
    assert_eq!((summary["diff_paths"].as_u64(), tests.len()), (Some(0), 0));
}

#[test]
fn unsupported_code_on_a_path_that_never_diverged_is_still_reported_with_its_line() {
    // x < 0 reaches an external function penumbra cannot run, on a path where both versions
    // agree: it writes no test, so the summary is where the user learns what was not explored.
    let source = r#"#include "penumbra.h"
int ext(int);
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  if (change(x > 5, x > 10))
    return 1;
  if (x < 0)
    return ext(x); // <- unsupported
  return 0;
}
"#;
    let line = line_of(source, "<- unsupported");
    let file = write_c("unsupported.c", source);
    let out = crate::support::penumbra(["shadow".as_ref(), file.path.as_os_str(), "--no-tests".as_ref()]);
    out.assert_status(0);
    let stdout = out.stdout_str();
    assert!(stdout.contains("unsupported paths       1"), "{stdout}");
    assert!(stdout.contains(&format!(":{line} (main): unknown external function 'ext', 1 path")), "{stdout}");

    let (summary, tests) = shadow_file(&file.path, &[]);
    assert_eq!(summary["diff_paths"].as_u64(), Some(1));
    assert_eq!(tests.len(), 1, "only the divergence (x in [6, 10]) has a test: {tests:?}");
    assert_eq!(
        summary["unsupported_sites"],
        serde_json::json!([{
            "construct": "unknown external function 'ext'",
            "func": "main",
            "line": line,
            "file": file.path.display().to_string(),
            "paths": 1
        }])
    );
}

const OPTION_PATCH: &str = r#"#include <string.h>
#include "penumbra.h"
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (change(0, strcmp(argv[i], "oflag=append") == 0))
            return 1;
    return 0;
}
"#;

/// Seeded mode with `--sym-args`: the seed names the start's objects (`n_args`, `arg00`, ...),
/// which exist before `main` runs, and the run follows it. Only the start with the seed's
/// argument count runs (the others contradict it); the divergence is the seed's own input.
#[test]
fn seeded_mode_follows_seeds_of_symbolic_arguments() {
    let file = write_c("option.c", OPTION_PATCH);
    let run = |seed: &str| {
        let extra = ["--mode", "seeded", "--sym-args", "0", "2", "13", "--seed", seed, "--bse-budget", "5"];
        crate::shadow_examples::shadow_summary(&file.path, &extra)
    };
    for (seed, args) in [
        ("n_args=1,arg00=str:oflag=append", vec!["oflag=append"]),
        ("n_args=2,arg00=str:x,arg01=str:oflag=append", vec!["x", "oflag=append"]),
    ] {
        let s = run(seed);
        assert_eq!((s["diff_paths"].as_u64(), s["divergence_points"].as_u64()), (Some(1), Some(1)), "{seed}: {s}");
        let t = &s["tests"][0];
        assert_eq!(t["line"].as_u64(), Some(u64::from(line_of(OPTION_PATCH, "change(0"))), "{t}");
        assert_eq!((t["old"].as_str(), t["new"].as_str()), (Some("false"), Some("true")), "{t}");
        assert_eq!(t["inputs"]["n_args"]["int"].as_i64(), Some(args.len() as i64), "{t}");
        for (i, arg) in args.iter().enumerate() {
            let hex = t["inputs"][format!("arg{i:02}")]["hex"].as_str().unwrap_or_default().to_string();
            let bytes = penumbra_engine::output::testgen::hex_bytes(&hex).expect("hex");
            assert_eq!(&bytes[..arg.len() + 1], format!("{arg}\0").as_bytes(), "{t}");
        }
    }
    let s = run("n_args=1,arg00=str:oflag=appenx");
    assert_eq!(s["diff_paths"].as_u64(), Some(0), "a seed off the patch finds nothing: {s}");
}

/// A seed's environment objects are checked against the environment (not against the objects
/// the program makes, which would call every one unknown); a misspelt name or an argument
/// longer than its object is still warned about.
#[test]
fn seeds_of_environment_objects_are_checked_against_the_environment() {
    let file = write_c("option.c", OPTION_PATCH);
    let run = |seed: &str| {
        let f = file.path.to_str().unwrap();
        let args =
            [f, "--mode", "seeded", "--sym-args", "0", "2", "4", "--seed", seed, "--no-tests", "--max-time", "20"];
        let out = crate::support::penumbra([&["shadow"][..], &args].concat());
        out.assert_status(0);
        out.stderr
    };
    let quiet = run("n_args=2,arg00=str:ab,arg01=str:abcd");
    assert!(!quiet.contains("warning"), "{quiet}");
    let misspelt = run("n_args=1,arg0=str:ab");
    assert!(misspelt.contains("no symbolic object of the program is named 'arg0'"), "{misspelt}");
    assert!(!misspelt.contains("'n_args'"), "{misspelt}");
    let long = run("n_args=1,arg00=str:abcdef");
    assert!(long.contains("'arg00' holds 6 bytes, the environment's object 5: the rest is ignored"), "{long}");
}
