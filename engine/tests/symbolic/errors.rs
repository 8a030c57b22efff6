//! Every error class, found with an input that reaches it and reported at the right line; each
//! test replays concretely to the same error (checked by `explore`).

use super::support::*;
use penumbra_engine::RunSummary;

/// The error tests of `s` of `kind`, all at the line of `src` marked `// <- error`.
fn errors_at_mark<'a>(
    s: &'a RunSummary,
    src: &str,
    kind: &str,
) -> Vec<&'a penumbra_engine::output::testgen::TestRecord> {
    let line = line_of(src, "// <- error");
    let found: Vec<_> = of_kind(s, "error")
        .into_iter()
        .filter(|t| t.error.as_ref().is_some_and(|e| e.kind == kind && e.line == line))
        .collect();
    assert!(!found.is_empty(), "no {kind} at line {line}; summary:\n{}\ntests: {:#?}", s.human(), s.tests);
    found
}

#[test]
fn symbolic_index_overflow_of_a_stack_buffer() {
    let src = r#"#include <penumbra.h>
int main(void) {
    char buf[4] = {0};
    int n;
    penumbra_make_symbolic(&n, sizeof n, "n");
    if (n < 1000)
        buf[n] = 1; // <- error
    return buf[0];
}"#;
    let s = explore(src);
    for t in errors_at_mark(&s, src, "out-of-bounds-write") {
        let n = int_input(t, "n");
        assert!(!(0..4).contains(&n) && n < 1000, "n = {n} is not out of bounds");
    }
    // the in-bounds side goes on: n in 0..4 returns buf[0] (1 when n == 0, else 0), n >= 1000 returns 0
    assert!(s.paths_completed >= 2, "{}", s.human());
    assert_eq!(s.errors, 1, "{}", s.human());
}

#[test]
fn overflow_reachable_only_with_a_large_index_is_found() {
    let src = r#"#include <penumbra.h>
int main(void) {
    char table[16] = {0};
    unsigned n;
    penumbra_make_symbolic(&n, sizeof n, "n");
    if (n >= 3000 && n < 5000)
        return table[n]; // <- error
    return table[3];
}"#;
    let s = explore(src);
    let line = line_of(src, "// <- error");
    let errors = of_kind(&s, "error");
    assert_eq!(errors.len(), 1, "{}\n{:#?}", s.human(), s.tests);
    let e = errors[0].error.as_ref().unwrap();
    assert_eq!(e.line, line);
    // Far beyond every stack object: the concrete interpreter calls it an invalid pointer.
    assert_eq!(e.kind, "invalid-pointer");
    let n = int_input(errors[0], "n");
    assert!((3000..5000).contains(&n), "n = {n}");
}

#[test]
fn symbolic_index_overflow_of_a_global_reports_the_nearest_overflow() {
    let src = r#"#include <penumbra.h>
int data[8];
int main(void) {
    int i;
    penumbra_make_symbolic(&i, sizeof i, "i");
    if (i > 2 && i < 100)
        return data[i]; // <- error
    return 0;
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "out-of-bounds-read");
    let i = int_input(t[0], "i");
    assert!((8..100).contains(&i), "i = {i}");
}

#[test]
fn null_dereference_through_a_conditional_pointer() {
    let src = r#"#include <penumbra.h>
int main(void) {
    int x, y = 5;
    penumbra_make_symbolic(&x, sizeof x, "x");
    int *p = x == 42 ? 0 : &y;
    return *p; // <- error
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "null-dereference");
    assert_eq!(int_input(t[0], "x"), 42);
    assert_eq!(s.paths_completed, 1);
}

#[test]
fn pointer_to_one_of_two_objects_forks_per_object() {
    let src = r#"#include <penumbra.h>
int a = 1, b = 2;
int main(void) {
    int c;
    penumbra_make_symbolic(&c, sizeof c, "c");
    int *p = c > 0 ? &a : &b;
    return *p;
}"#;
    let s = explore(src);
    assert_eq!((s.paths_completed, s.errors), (2, 0), "{}", s.human());
    let mut codes: Vec<i32> = s.tests.iter().map(|t| t.exit_code.unwrap()).collect();
    codes.sort();
    assert_eq!(codes, vec![1, 2]);
}

#[test]
fn use_after_free_and_double_free() {
    let src = r#"#include <penumbra.h>
#include <stdlib.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    int *p = malloc(sizeof *p);
    *p = 3;
    if (x == 7) free(p);
    int v = *p; // <- error
    free(p);
    return v;
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "use-after-free");
    assert_eq!(int_input(t[0], "x"), 7);
    let src = r#"#include <penumbra.h>
#include <stdlib.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    char *p = malloc(8);
    if (x < -5) free(p);
    free(p); // <- error
    return 0;
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "double-free");
    assert!(int_input(t[0], "x") < -5);
    assert_eq!(s.paths_completed, 1);
}

#[test]
fn division_by_a_symbolic_zero() {
    let src = r#"#include <penumbra.h>
int main(void) {
    int d;
    penumbra_make_symbolic(&d, sizeof d, "d");
    return 100 / d; // <- error
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "division-by-zero");
    assert_eq!(int_input(t[0], "d"), 0);
    // the passing side goes on: INT_MIN / -1 is impossible with a constant dividend
    assert_eq!((s.paths_completed, s.errors), (1, 1));
}

#[test]
fn int_min_divided_by_minus_one() {
    let src = r#"#include <penumbra.h>
int main(void) {
    int a, b;
    penumbra_make_symbolic(&a, sizeof a, "a");
    penumbra_make_symbolic(&b, sizeof b, "b");
    if (b == 0) return 0;
    return a % b; // <- error
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "signed-division-overflow");
    assert_eq!((int_input(t[0], "a"), int_input(t[0], "b")), (i32::MIN as i64, -1));
}

#[test]
fn shift_by_the_width_or_more() {
    let src = r#"#include <penumbra.h>
int main(void) {
    unsigned s;
    penumbra_make_symbolic(&s, sizeof s, "s");
    return 1u << s; // <- error
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "shift-out-of-range");
    assert!(int_input(t[0], "s") as u32 >= 32);
}

#[test]
fn failing_asserts_and_abort() {
    let src = r#"#include <penumbra.h>
#include <assert.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    assert(x != 1234); // <- error
    return 0;
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "assertion-failed");
    assert_eq!(int_input(t[0], "x"), 1234);
    let src = r#"#include <penumbra.h>
int main(void) {
    unsigned char x;
    penumbra_make_symbolic(&x, 1, "x");
    penumbra_assert(x < 200); // <- error
    return 0;
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "assertion-failed");
    assert!(int_input(t[0], "x") as u8 >= 200);
    let src = r#"#include <penumbra.h>
#include <stdlib.h>
int main(void) {
    char c;
    penumbra_make_symbolic(&c, 1, "c");
    if (c == 'q')
        abort(); // <- error
    return 0;
}"#;
    let s = explore(src);
    let t = errors_at_mark(&s, src, "abort");
    assert_eq!(int_input(t[0], "c"), 'q' as i64);
}

#[test]
fn overflow_inside_a_library_call_is_reported_at_the_call() {
    let src = r#"#include <penumbra.h>
#include <string.h>
int main(void) {
    char src[8], dst[4];
    penumbra_make_symbolic(src, sizeof src, "src");
    src[7] = 0;
    strcpy(dst, src); // <- error
    return dst[0];
}"#;
    let s = explore(src);
    errors_at_mark(&s, src, "out-of-bounds-write");
    // lengths 0..=3 fit, 4..=7 overflow (one error test per length)
    assert_eq!((s.paths_completed, s.errors), (4, 4), "{}", s.human());
}

#[test]
fn provably_false_assume_ends_the_path() {
    let src = r#"#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_assume(x > 10);
    if (x < 20) {
        penumbra_assume(x > 30);
        return 1;
    }
    return 2;
}"#;
    let s = explore(src);
    assert_eq!((s.paths_completed, s.assume_false), (1, 1), "{}", s.human());
    assert_eq!(of_kind(&s, "assume-false").len(), 1);
}

#[test]
fn unsupported_constructs_end_only_their_paths() {
    let src = r#"#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (x == 3) {
        __float128 d = x;
        return (int)(d * 1.5);
    }
    return 0;
}"#;
    let s = explore(src);
    assert_eq!((s.paths_completed, s.unsupported), (1, 1), "{}", s.human());
}

/// A function penumbra's models lack but musl has: the unsupported site's message names
/// `--libc musl`, as the concrete interpreter's does; so does one the table binds for the
/// concrete interpreter only (`qsort`; so the run is not replayed: concretely it sorts).
#[test]
fn an_unknown_function_that_musl_provides_says_so() {
    let src = r#"#include <stdlib.h>
#include <penumbra.h>
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int main(void) {
    int x[2];
    penumbra_make_symbolic(x, sizeof x, "x");
    if (x[0] == 3)
        return strtod("2.5", 0) > 2; // <- strtod
    qsort(x, 2, sizeof x[0], cmp); // <- qsort
    return 0;
}"#;
    let s = run_with(&compile(src), &config());
    let sites: Vec<(u32, &str)> = s.unsupported_sites.iter().map(|u| (u.line, u.construct.as_str())).collect();
    assert_eq!(
        sites,
        [
            (
                line_of(src, "<- strtod"),
                "unknown external function 'strtod' is not modelled; `--libc musl` provides it"
            ),
            (line_of(src, "<- qsort"), "unknown external function 'qsort' is not modelled; `--libc musl` provides it"),
        ],
        "{}",
        s.human()
    );
}

/// The same bad access gets the same error kind and message from the concrete interpreter and
/// from the symbolic engine (both take them from the one address space): an overflow, a use
/// after free, a null pointer, a function address and an address in no object.
#[test]
fn both_interpreters_give_the_same_fault_message() {
    let cases = [
        (
            "char buf[4]; buf[0] = 0; volatile int i = 4; return buf[i];",
            "out-of-bounds-read",
            "out-of-bounds read of 1 byte at offset 4 of stack object of 'main' allocated at line 3 (4 bytes)",
        ),
        (
            "int *p = malloc(8); free(p); return p[1];",
            "use-after-free",
            "read of 4 bytes at offset 4 of freed heap object allocated at line 3 and freed at line 3 (8 bytes)",
        ),
        ("int *p = (int *)0; return *p;", "null-dereference", "read of 4 bytes at address 0x0"),
        (
            "int *p = (int *)(void *)&main; return *p;",
            "invalid-pointer",
            "read of 4 bytes at 0x1000, in the range of function addresses",
        ),
        (
            "long *p = (long *)0x20000000; *p = 1; return 0;",
            "invalid-pointer",
            "write of 8 bytes at address 0x20000000, which is in no object",
        ),
    ];
    for (body, kind, message) in cases {
        let src = format!("#include <stdlib.h>\nint main(void) {{\n    {body} // <- error\n}}\n");
        let module = compile(&src);
        let concrete = penumbra_engine::concrete::run(&module, &penumbra_engine::concrete::RunConfig::default());
        match &concrete.outcome {
            penumbra_engine::concrete::Outcome::Error(e) => {
                assert_eq!((e.kind.as_str(), e.message.as_str(), e.location.line), (kind, message, 3), "{src}")
            }
            other => panic!("concrete run of {src}: {other}"),
        }
        let s = run_with(&module, &config());
        let errors = errors_at_mark(&s, &src, kind);
        assert_eq!(errors.len(), 1, "{src}");
        assert_eq!(errors[0].error.as_ref().map(|e| e.message.as_str()), Some(message), "{src}");
    }
}

/// The stack is the native 8 MiB: 150,000 frames of a small function fit (a frame-count limit
/// of 100,000 called this a stack overflow), unbounded recursion does not.
#[test]
fn the_stack_holds_what_the_native_stack_holds() {
    let src = r#"#include <penumbra.h>
static int depth_of(int n) { return n == 0 ? 0 : 1 + depth_of(n - 1); }
static int forever(int n) { return forever(n + 1) + 1; } // <- error
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (x == 3)
        return forever(0);
    return depth_of(150000) == 150000;
}"#;
    let s = explore(src);
    assert_eq!((s.paths_completed, s.errors), (1, 1), "{}", s.human());
    assert_eq!(of_kind(&s, "path")[0].exit_code, Some(1));
    let e = errors_at_mark(&s, src, "stack-overflow");
    assert_eq!(int_input(e[0], "x"), 3);
    let message = &e[0].error.as_ref().unwrap().message;
    assert!(message.starts_with("calling 'forever' exceeds the stack limit of 8388608 bytes ("), "{message}");
}

/// `memcpy` whose ranges overlap for some inputs: an error for exactly those (a copy onto
/// itself is none), as AddressSanitizer reports it.
#[test]
fn memcpy_with_a_symbolic_overlap() {
    let src = r#"#include <penumbra.h>
#include <string.h>
int main(void) {
    char buf[16] = "abcdefghijklmno";
    int k;
    penumbra_make_symbolic(&k, sizeof k, "k");
    if (k < 0 || k > 8)
        return 0;
    memcpy(buf + k, buf, 4); // <- error
    return buf[4];
}"#;
    let s = explore(src);
    let errors = errors_at_mark(&s, src, "memcpy-param-overlap");
    assert_eq!(errors.len(), 1, "{}", s.human());
    assert!((1..=3).contains(&int_input(errors[0], "k")));
    assert_eq!(errors[0].error.as_ref().unwrap().message, "memcpy of 4 bytes between overlapping ranges");
    for t in of_kind(&s, "path") {
        let k = int_input(t, "k");
        assert!(!(1..=3).contains(&k), "k = {k} overlaps but completed");
    }
}
