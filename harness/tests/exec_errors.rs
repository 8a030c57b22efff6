//! `penumbra exec` on programs that go wrong: one small C program per detected error class, per
//! unsupported construct, and per kind of malformed input, each written next to its assertions.
//!
//! A detected error must print, after the program's own output up to that point,
//! `penumbra: error: <kind>: <message> at <file>:<line>` on stderr and exit with status 70. The
//! faulting line is marked `// <- error` in each program (for libc calls such as `strcpy`, the
//! line of the call). Unsupported constructs exit 69 with `penumbra: unsupported: ...` naming the
//! construct and its line (marked `// <- unsupported`). Malformed input exits 2 and never panics.

use crate::support::{
    error_line, exec_source, line_of, penumbra, unsupported_line, write_bytes, write_c, Output, EXIT_PROGRAM_ERROR,
    EXIT_UNSUPPORTED, EXIT_USAGE,
};

const ERROR_MARK: &str = "// <- error";
const UNSUPPORTED_MARK: &str = "// <- unsupported";

/// Runs `source` saved as `name` and checks that it stops with an error of `kind` on the line
/// marked `// <- error`, after printing exactly `stdout`.
fn assert_error(name: &str, source: &str, kind: &str, stdout: &str) -> Output {
    let out = exec_source(name, source, &[]);
    out.assert_no_panic();
    let diag = error_line(&out.stderr).unwrap_or_else(|| {
        panic!("no `penumbra: error:` line for {name}; status {:?}, stderr:\n{}", out.status, out.stderr)
    });
    let expected_line = line_of(source, ERROR_MARK);
    assert_eq!(
        (diag.kind.as_str(), diag.line, diag.file.ends_with(name), out.stdout_str().as_str(), out.status),
        (kind, expected_line, true, stdout, Some(EXIT_PROGRAM_ERROR)),
        "(kind, line, file ends with {name}, stdout, status) for {name}; stderr:\n{}",
        out.stderr
    );
    assert!(!diag.message.is_empty(), "the error line has an empty message: {}", out.stderr);
    out
}

/// Runs `source` saved as `name` and checks that it stops as unsupported on the line marked
/// `// <- unsupported` with a message containing `needle`, after printing exactly `stdout`.
fn assert_unsupported(name: &str, source: &str, needle: &str, stdout: &str) {
    let out = exec_source(name, source, &[]);
    out.assert_no_panic();
    let diag = unsupported_line(&out.stderr).unwrap_or_else(|| {
        panic!("no `penumbra: unsupported:` line for {name}; status {:?}, stderr:\n{}", out.status, out.stderr)
    });
    let expected_line = line_of(source, UNSUPPORTED_MARK);
    assert_eq!(
        (diag.message.contains(needle), diag.line, diag.file.ends_with(name), out.stdout_str().as_str(), out.status),
        (true, expected_line, true, stdout, Some(EXIT_UNSUPPORTED)),
        "(message contains {needle:?}, line, file ends with {name}, stdout, status) for {name}; stderr:\n{}",
        out.stderr
    );
}

/// Checks that malformed input is rejected with exit status 2, a message, and no panic.
fn assert_rejected(out: &Output) {
    out.assert_no_panic();
    out.assert_status(EXIT_USAGE);
    assert!(!out.stderr.trim().is_empty(), "rejected without any message on stderr");
}

// ---------------------------------------------------------------------------------------------
// Out-of-bounds accesses: stack, heap and global objects, reads and writes.

#[test]
fn stack_array_read_one_past_the_end_is_out_of_bounds_read() {
    let src = r#"#include <stdio.h>
static int sum(const int *a, int n) {
    int s = 0;
    for (int i = 0; i <= n; i++)
        s += a[i]; // <- error
    return s;
}
int main(void) {
    int a[4] = {1, 2, 3, 4};
    printf("summing %d values\n", 4);
    printf("sum=%d\n", sum(a, 4));
    return 0;
}
"#;
    assert_error("oob_stack_read.c", src, "out-of-bounds-read", "summing 4 values\n");
}

#[test]
fn stack_array_write_at_negative_index_is_out_of_bounds_write() {
    let src = r#"#include <stdio.h>
static void set(char *buf, int idx, char v) {
    buf[idx] = v; // <- error
}
int main(void) {
    char buf[8] = "abcdefg";
    int idx = 3;
    set(buf, idx, 'X');
    printf("%s\n", buf);
    idx -= 4;
    printf("writing at %d\n", idx);
    set(buf, idx, 'Y');
    printf("not reached\n");
    return 0;
}
"#;
    assert_error("oob_stack_write_negative.c", src, "out-of-bounds-write", "abcXefg\nwriting at -1\n");
}

#[test]
fn heap_read_past_a_malloc_block_is_out_of_bounds_read() {
    let src = r#"#include <stdio.h>
#include <stdlib.h>
static int get(const int *p, int i) {
    return p[i]; // <- error
}
int main(void) {
    int n = 10;
    int *p = malloc(n * sizeof *p);
    for (int i = 0; i < n; i++)
        p[i] = i * i;
    printf("last=%d\n", get(p, n - 1));
    printf("past=%d\n", get(p, n));
    free(p);
    return 0;
}
"#;
    assert_error("oob_heap_read.c", src, "out-of-bounds-read", "last=81\n");
}

#[test]
fn heap_write_of_terminator_one_past_the_block_is_out_of_bounds_write() {
    let src = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *dup(const char *src) {
    size_t n = strlen(src);
    char *d = malloc(n); /* forgot the + 1 for the terminator */
    for (size_t i = 0; i < n; i++)
        d[i] = src[i];
    d[n] = '\0'; // <- error
    return d;
}
int main(void) {
    printf("duplicating\n");
    char *d = dup("penumbra");
    printf("%s\n", d);
    free(d);
    return 0;
}
"#;
    assert_error("oob_heap_write_off_by_one.c", src, "out-of-bounds-write", "duplicating\n");
}

#[test]
fn global_array_read_at_negative_index_is_out_of_bounds_read() {
    let src = r#"#include <stdio.h>
int table[8] = {10, 11, 12, 13, 14, 15, 16, 17};
static int lookup(char digit) {
    return table[digit - '1']; // <- error
}
int main(void) {
    printf("lookup(3)=%d\n", lookup('3'));
    printf("lookup(0)=%d\n", lookup('0'));
    return 0;
}
"#;
    assert_error("oob_global_read_negative.c", src, "out-of-bounds-read", "lookup(3)=12\n");
}

#[test]
fn global_array_write_one_past_the_end_is_out_of_bounds_write() {
    let src = r#"#include <stdio.h>
int counts[10];
int main(void) {
    printf("filling\n");
    for (int i = 0; i <= 10; i++)
        counts[i] = i; // <- error
    printf("filled\n");
    return 0;
}
"#;
    assert_error("oob_global_write.c", src, "out-of-bounds-write", "filling\n");
}

/// As AddressSanitizer says: `memcpy` between overlapping ranges is an error (`memmove` is
/// not, nor a `memcpy` of a range onto itself).
#[test]
fn memcpy_between_overlapping_ranges_is_memcpy_param_overlap() {
    let src = r#"#include <stdio.h>
#include <string.h>
int main(void) {
    char buf[16] = "abcdefgh";
    memmove(buf + 1, buf, 4);
    memcpy(buf, buf, 4);
    memcpy(buf + 8, buf, 4);
    printf("%s\n", buf);
    memcpy(buf + 2, buf, 4); // <- error
    return 0;
}
"#;
    assert_error("memcpy_overlap.c", src, "memcpy-param-overlap", "aabcdfghaabc\n");
}

#[test]
fn strcpy_into_a_too_small_buffer_is_out_of_bounds_write_at_the_call() {
    let src = r#"#include <stdio.h>
#include <string.h>
static void greet(const char *who) {
    char name[8];
    strcpy(name, who); // <- error
    printf("hello %s\n", name);
}
int main(void) {
    greet("bob");
    greet("a much longer name");
    return 0;
}
"#;
    assert_error("strcpy_overflow.c", src, "out-of-bounds-write", "hello bob\n");
}

// ---------------------------------------------------------------------------------------------
// Invalid pointers and heap misuse.

#[test]
fn reading_through_a_null_next_pointer_is_null_dereference() {
    let src = r#"#include <stdio.h>
#include <stddef.h>
struct node { int value; struct node *next; };
static int second_value(const struct node *n) {
    return n->next->value; // <- error
}
int main(void) {
    struct node only = {7, NULL};
    printf("first=%d\n", only.value);
    printf("second=%d\n", second_value(&only));
    return 0;
}
"#;
    assert_error("null_read.c", src, "null-dereference", "first=7\n");
}

#[test]
fn writing_through_a_null_result_is_null_dereference() {
    let src = r#"#include <stdio.h>
#include <stddef.h>
static int slots[4] = {3, 1, 4, 1};
static int *find(int v) {
    for (int i = 0; i < 4; i++)
        if (slots[i] == v)
            return &slots[i];
    return NULL;
}
int main(void) {
    *find(4) = 40;
    printf("slots[2]=%d\n", slots[2]);
    int *p = find(9);
    *p = 90; // <- error
    printf("not reached\n");
    return 0;
}
"#;
    assert_error("null_write.c", src, "null-dereference", "slots[2]=40\n");
}

#[test]
fn reading_freed_memory_is_use_after_free() {
    let src = r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int *p = malloc(4 * sizeof *p);
    p[0] = 42;
    printf("p[0]=%d\n", p[0]);
    free(p);
    printf("freed\n");
    int v = p[0]; // <- error
    printf("v=%d\n", v);
    return 0;
}
"#;
    assert_error("use_after_free.c", src, "use-after-free", "p[0]=42\nfreed\n");
}

#[test]
fn freeing_twice_is_double_free() {
    let src = r#"#include <stdio.h>
#include <stdlib.h>
static void release(char *p) {
    free(p); // <- error
}
int main(void) {
    char *p = malloc(16);
    p[0] = 'a';
    release(p);
    printf("released once\n");
    release(p);
    printf("released twice\n");
    return 0;
}
"#;
    // The first release() goes through the same line; only the second one fails.
    assert_error("double_free.c", src, "double-free", "released once\n");
}

#[test]
fn freeing_a_stack_address_is_invalid_free() {
    let src = r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int local = 5;
    int *p = &local;
    printf("local=%d\n", *p);
    free(p); // <- error
    printf("not reached\n");
    return 0;
}
"#;
    assert_error("invalid_free_stack.c", src, "invalid-free", "local=5\n");
}

// ---------------------------------------------------------------------------------------------
// Arithmetic checks: division, remainder, INT_MIN / -1, shifts by the width.

#[test]
fn dividing_by_zero_is_division_by_zero() {
    let src = r#"#include <stdio.h>
static int average(int total, int count) {
    return total / count; // <- error
}
int main(void) {
    printf("avg=%d\n", average(10, 3));
    printf("avg=%d\n", average(10, 0));
    return 0;
}
"#;
    assert_error("div_by_zero.c", src, "division-by-zero", "avg=3\n");
}

#[test]
fn unsigned_remainder_by_zero_is_division_by_zero() {
    let src = r#"#include <stdio.h>
static unsigned bucket(unsigned hash, unsigned nbuckets) {
    return hash % nbuckets; // <- error
}
int main(void) {
    printf("bucket=%u\n", bucket(1234567u, 10u));
    printf("bucket=%u\n", bucket(1234567u, 0u));
    return 0;
}
"#;
    assert_error("rem_by_zero.c", src, "division-by-zero", "bucket=7\n");
}

#[test]
fn int_min_divided_by_minus_one_is_signed_division_overflow() {
    let src = r#"#include <stdio.h>
#include <limits.h>
static int quotient(int a, int b) {
    return a / b; // <- error
}
int main(void) {
    printf("q=%d\n", quotient(INT_MIN, 2));
    printf("q=%d\n", quotient(INT_MIN, -1));
    return 0;
}
"#;
    assert_error("int_min_div.c", src, "signed-division-overflow", "q=-1073741824\n");
}

#[test]
fn int_min_remainder_minus_one_is_signed_division_overflow() {
    let src = r#"#include <stdio.h>
#include <limits.h>
static int remainder_of(int a, int b) {
    return a % b; // <- error
}
int main(void) {
    printf("r=%d\n", remainder_of(INT_MIN, 3));
    printf("r=%d\n", remainder_of(INT_MIN, -1));
    return 0;
}
"#;
    assert_error("int_min_rem.c", src, "signed-division-overflow", "r=-2\n");
}

#[test]
fn shifting_an_int_by_32_is_shift_out_of_range() {
    let src = r#"#include <stdio.h>
static int pow2(int k) {
    return 1 << k; // <- error
}
int main(void) {
    printf("2^30=%d\n", pow2(30));
    printf("2^31=%d\n", pow2(31));
    printf("2^32=%d\n", pow2(32));
    return 0;
}
"#;
    assert_error("shift_int_32.c", src, "shift-out-of-range", "2^30=1073741824\n2^31=-2147483648\n");
}

#[test]
fn shifting_a_long_by_64_is_shift_out_of_range() {
    let src = r#"#include <stdio.h>
static long high_bits(long v, int s) {
    return v >> s; // <- error
}
int main(void) {
    printf("%ld\n", high_bits(-1L, 63));
    printf("%ld\n", high_bits(1L << 62, 62));
    printf("%ld\n", high_bits(5L, 64));
    return 0;
}
"#;
    assert_error("shift_long_64.c", src, "shift-out-of-range", "-1\n1\n");
}

// ---------------------------------------------------------------------------------------------
// Assertions, abort, and the stack.

#[test]
fn failing_assert_is_assertion_failed_at_the_assert() {
    let src = r#"#include <stdio.h>
#include <assert.h>
static int withdraw(int balance, int amount) {
    balance -= amount;
    assert(balance >= 0); // <- error
    return balance;
}
int main(void) {
    int b = withdraw(100, 30);
    printf("balance=%d\n", b);
    b = withdraw(b, 80);
    printf("balance=%d\n", b);
    return 0;
}
"#;
    assert_error("assert_fails.c", src, "assertion-failed", "balance=70\n");
}

#[test]
fn failing_penumbra_assert_is_assertion_failed() {
    let src = r#"#include <stdio.h>
#include "penumbra.h"
int main(void) {
    int total = 0;
    for (int i = 1; i <= 5; i++) {
        total += i;
        printf("total=%d\n", total);
        penumbra_assert(total < 10); // <- error
    }
    return 0;
}
"#;
    assert_error("penumbra_assert_fails.c", src, "assertion-failed", "total=1\ntotal=3\ntotal=6\ntotal=10\n");
}

#[test]
fn calling_abort_is_abort() {
    let src = r#"#include <stdio.h>
#include <stdlib.h>
static void check(int ok) {
    if (!ok) {
        printf("fatal: check failed\n");
        abort(); // <- error
    }
}
int main(void) {
    check(1);
    printf("first check passed\n");
    check(0);
    printf("not reached\n");
    return 0;
}
"#;
    assert_error("abort_called.c", src, "abort", "first check passed\nfatal: check failed\n");
}

#[test]
fn unbounded_recursion_is_stack_overflow() {
    // The recursive function sits on one line, so its call and its frame share the line number.
    let src = r#"#include <stdio.h>
static int down(int n) { return down(n + 1) + 1; } // <- error
int main(void) {
    printf("descending\n");
    return down(0);
}
"#;
    assert_error("stack_overflow.c", src, "stack-overflow", "descending\n");
}

// ---------------------------------------------------------------------------------------------
// Unsupported constructs: reached ones stop the run, unreached ones do not matter.

/// A double converted to an integer type too small for it is undefined behaviour in C (UBSan's
/// `float-cast-overflow`), reported at the conversion with the value; a NaN likewise.
#[test]
fn converting_an_out_of_range_double_to_int_is_an_error() {
    let src = r#"#include <stdio.h>
int main(void) {
    double big = 1e10;
    printf("%g fits: %d\n", big / 1e5, (int)(big / 1e5));
    unsigned char c = (unsigned char)255.9;
    printf("%d\n", c);
    return (int)big; // <- error
}
"#;
    let out = assert_error("float_cast.c", src, "float-cast-overflow", "100000 fits: 100000\n255\n");
    assert!(
        out.stderr.contains("10000000000 of type f64 is outside the range of a signed 32-bit integer"),
        "{}",
        out.stderr
    );
    let nan = r#"int main(void) {
    volatile double zero = 0.0;
    unsigned long long u = (unsigned long long)(zero / zero); // <- error
    return (int)u;
}
"#;
    let out = assert_error("float_cast_nan.c", nan, "float-cast-overflow", "");
    assert!(
        out.stderr.contains("nan of type f64 is outside the range of an unsigned 64-bit integer"),
        "{}",
        out.stderr
    );
}

#[test]
fn reaching_quadruple_floating_point_is_unsupported_with_its_line() {
    let src = r#"#include <stdio.h>
int main(void) {
    int x = 7;
    printf("before floating point\n");
    int r = (int)(x * (__float128)1.5); // <- unsupported
    printf("r=%d\n", r);
    return r;
}
"#;
    assert_unsupported("float_reached.c", src, "floating point of type FP128", "before floating point\n");
}

#[test]
fn reaching_inline_assembly_is_unsupported_with_its_line() {
    let src = r#"#include <stdio.h>
int main(void) {
    printf("before asm\n");
    __asm__ volatile("nop"); // <- unsupported
    printf("after asm\n");
    return 0;
}
"#;
    assert_unsupported("inline_asm.c", src, "inline assembly", "before asm\n");
}

#[test]
fn calling_an_unknown_external_function_is_unsupported_and_names_it() {
    let src = r#"#include <stdio.h>
extern int foo(int);
int main(void) {
    printf("calling foo\n");
    int v = foo(3); // <- unsupported
    printf("foo returned %d\n", v);
    return v;
}
"#;
    assert_unsupported("unknown_external.c", src, "foo", "calling foo\n");
}

#[test]
fn calling_an_unmodelled_libc_function_is_unsupported_and_names_it() {
    let src = r#"#include <stdio.h>
int main(void) {
    printf("opening\n");
    FILE *f = fopen("/etc/hostname", "r"); // <- unsupported
    printf("opened\n");
    return f != 0;
}
"#;
    assert_unsupported("unmodelled_libc.c", src, "fopen", "opening\n");
}

#[test]
fn floating_point_on_a_path_not_taken_does_not_matter() {
    let src = r#"#include <stdio.h>
int main(int argc, char **argv) {
    printf("argc=%d\n", argc);
    if (argc > 5) {
        double d = argc * 0.5;
        printf("half=%d %s\n", (int)d, argv[1]);
    }
    printf("done\n");
    return 3;
}
"#;
    let out = exec_source("float_untaken.c", src, &[]);
    out.assert_no_panic();
    assert_eq!(out.stdout_str(), "argc=1\ndone\n", "stderr:\n{}", out.stderr);
    out.assert_status(3);
}

// ---------------------------------------------------------------------------------------------
// Malformed input and usage errors: exit status 2, a message, never a panic.

#[test]
fn c_with_a_syntax_error_is_rejected_with_clangs_diagnostic() {
    let src = "#include <stdio.h>\nint main(void) {\n    printf(\"hi\\n\")\n    return 0;\n}\n";
    let out = exec_source("syntax_error.c", src, &[]);
    assert_rejected(&out);
    assert!(out.stderr.contains("expected ';'"), "clang's diagnostic is not shown:\n{}", out.stderr);
    assert!(out.stdout.is_empty(), "the program must not run: {}", out.stdout_str());
}

#[test]
fn an_empty_file_is_rejected_with_clangs_diagnostic() {
    // An empty file is not an empty program: clang's diagnostic says why it was rejected.
    let out = exec_source("empty.c", "", &[]);
    assert_rejected(&out);
    assert!(
        out.stderr.contains("at least one declaration"),
        "the message should say that the file is empty:\n{}",
        out.stderr
    );
}

#[test]
fn a_file_with_functions_but_no_main_is_rejected_for_lacking_main() {
    let out = exec_source("no_main.c", "int helper(int x) { return x + 1; }\n", &[]);
    assert_rejected(&out);
    assert!(out.stderr.contains("main"), "the message should say that `main` is missing:\n{}", out.stderr);
}

#[test]
fn a_binary_file_is_rejected() {
    // 4 KiB of fixed pseudo-random bytes (xorshift64), including NULs and invalid UTF-8.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    let file = write_bytes("random.c", &bytes);
    let out = penumbra(["exec".as_ref(), file.path.as_os_str()]);
    assert_rejected(&out);
}

#[test]
fn a_nonexistent_path_is_rejected_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("does_not_exist.c");
    let out = penumbra(["exec".as_ref(), missing.as_os_str()]);
    assert_rejected(&out);
    assert!(out.stderr.contains("does_not_exist.c"), "the message should name the file:\n{}", out.stderr);
}

#[test]
fn exec_without_a_file_is_a_usage_error() {
    assert_rejected(&penumbra(["exec"]));
}

#[test]
fn an_unknown_version_is_a_usage_error() {
    let file = write_c("ok.c", "int main(void) { return 0; }\n");
    let out = penumbra(["exec".as_ref(), file.path.as_os_str(), "--version".as_ref(), "sideways".as_ref()]);
    assert_rejected(&out);
}

#[test]
fn malformed_input_values_are_usage_errors() {
    let file = write_c("ok.c", "int main(void) { return 0; }\n");
    for bad in ["x", "=5", "x=notanumber", "x=hex:zz", "x=hex:a\u{e9}1", "x=99999999999999999999"] {
        let out = penumbra(["exec".as_ref(), file.path.as_os_str(), "--input".as_ref(), bad.as_ref()]);
        out.assert_no_panic();
        assert_eq!(out.status, Some(EXIT_USAGE), "--input {bad} should be a usage error; stderr:\n{}", out.stderr);
    }
}

/// Inputs that do not fit the program's symbolic objects are refused with what does not fit,
/// never fed by position, padded or cut; an object of size 0 is no object.
#[test]
fn inputs_that_do_not_fit_the_programs_objects_are_refused() {
    use penumbra_engine::output::ktest::{KTest, KTestObject};
    let file = write_c(
        "fit.c",
        r#"#include <penumbra.h>
int main(void) {
    int x; char c, none[1];
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_make_symbolic(&c, sizeof c, "c");
    penumbra_make_symbolic(none, 0, "none");
    return x + c;
}
"#,
    );
    let exec = |extra: &[&str]| {
        let mut args: Vec<&std::ffi::OsStr> = vec!["exec".as_ref(), file.path.as_os_str()];
        args.extend(extra.iter().map(std::ffi::OsStr::new));
        let out = penumbra(args);
        out.assert_no_panic();
        out
    };
    let fits = exec(&["--input", "x=5", "--input", "c=-1"]);
    assert_eq!(fits.status, Some(4), "{}", fits.stderr);
    let refused = |extra: &[&str], why: &str| {
        let out = exec(extra);
        assert_eq!(out.status, Some(EXIT_USAGE), "{extra:?}: {}", out.stderr);
        assert!(out.stderr.contains(why), "{extra:?}: expected `{why}` in:\n{}", out.stderr);
    };
    refused(&["--input", "y=5"], "no symbolic object of the program is named 'y' (it makes: x, c)");
    refused(&["--input", "c=300"], "the value of 'c' has 8 bytes and does not fit the program's 1-byte object");
    refused(&["--input", "x=str:longer"], "the value of 'x' has 6 bytes and does not fit the program's 4-byte object");
    let ktest = |objects: &[(&str, &[u8])]| {
        let test = KTest {
            args: vec!["fit.c".into()],
            objects: objects.iter().map(|(n, b)| KTestObject { name: n.to_string(), bytes: b.to_vec() }).collect(),
            ..KTest::default()
        };
        let path = file.dir.path().join("t.ktest");
        std::fs::write(&path, test.to_bytes()).unwrap();
        path.display().to_string()
    };
    let good = ktest(&[("x", &[1, 0, 0, 0]), ("c", &[2])]);
    assert_eq!(exec(&["--ktest", &good]).status, Some(3));
    type Objects<'a> = &'a [(&'a str, &'a [u8])];
    let cases: [(Objects, &str); 4] = [
        (&[("c", &[2]), ("x", &[1, 0, 0, 0])], "the program's symbolic object 0 is 'x', the test's is 'c'"),
        (&[("x", &[1, 0]), ("c", &[2])], "object 'x' has 2 bytes in the test; the program makes it with 4"),
        (&[("x", &[1, 0, 0, 0]), ("c", &[2]), ("d", &[3])], "the test has objects the program does not make: 'd'"),
        (&[("x", &[1, 0, 0, 0])], "the program makes symbolic object 'c', which the test does not give"),
    ];
    for (objects, why) in cases {
        refused(&["--ktest", &ktest(objects)], why);
    }
}

/// `--input NAME=hex:BYTES` gives all of the object's bytes, as a `.ktest` file does, and is
/// refused like a test of another size (strings are still padded, integers sized by value).
#[test]
fn a_hex_input_of_another_size_than_its_object_is_refused_like_a_test() {
    let file = write_c(
        "n.c",
        "#include <penumbra.h>\nint main(void) { int n; penumbra_make_symbolic(&n, sizeof n, \"n\"); return n & 0xff; }\n",
    );
    let exec = |input: &str| {
        let out = penumbra(["exec".as_ref(), file.path.as_os_str(), "--input".as_ref(), input.as_ref()]);
        out.assert_no_panic();
        out
    };
    // Five bytes whose last is zero would fit as an integer does; as `hex:` they do not.
    for (input, given) in [("n=hex:0102", 2), ("n=hex:0102030400", 5)] {
        let out = exec(input);
        assert_eq!(out.status, Some(EXIT_USAGE), "{input}: {}", out.stderr);
        assert_eq!(
            out.stderr.trim_end(),
            format!(
                "penumbra: error: --input does not fit the program: object 'n' has {given} bytes in --input {input}; the program makes it with 4"
            )
        );
    }
    assert_eq!(exec("n=hex:07000000").status, Some(7));
    assert_eq!(exec("n=7").status, Some(7));
    assert_eq!(exec("n=str:\x07").status, Some(7));
}

/// `exec` stops a program that does not end at its default step limit (a billion IR
/// instructions), says so and exits with status 124; `--max-steps N` moves the limit.
#[test]
fn an_endless_loop_ends_at_the_step_limit_with_its_own_status() {
    let file = write_c("forever.c", "int main(void) { for (;;) ; }\n");
    let out = penumbra(["exec".as_ref(), file.path.as_os_str()]);
    out.assert_no_panic();
    assert_eq!(out.status, Some(124), "{}", out.stderr);
    assert_eq!(
        out.stderr.trim_end(),
        "penumbra: step limit reached after 1000000000 steps (--max-steps 1000000000; 0: no limit)"
    );
    let out = penumbra(["exec".as_ref(), file.path.as_os_str(), "--max-steps".as_ref(), "1000".as_ref()]);
    assert_eq!(out.status, Some(124), "{}", out.stderr);
    assert_eq!(out.stderr.trim_end(), "penumbra: step limit reached after 1000 steps (--max-steps 1000; 0: no limit)");
}
