//! C programs compiled by the frontend and run: the most convincing tests of the semantics.
//! Expected outputs are what the same programs print natively (`clang-15 -O0 -fwrapv`).

use crate::support::*;
use penumbra_engine::concrete::{run, Inputs, Outcome, Program, RunConfig};
use penumbra_engine::ErrorKind;
use penumbra_ir::Version;
use std::collections::BTreeMap;

#[test]
fn hello_world() {
    let r = run_c(
        r#"#include <stdio.h>
int main(void) {
    printf("hello, %s %d\n", "world", 42);
    return 3;
}"#,
    );
    assert_exit(&r, 3, "hello, world 42\n");
}

#[test]
fn integer_semantics_wrap_extend_and_truncate() {
    let r = run_c(
        r#"#include <stdio.h>
#include <limits.h>
int main(void) {
    volatile int big = INT_MAX, m = INT_MIN;
    volatile unsigned u = 0;
    volatile signed char c = -1;
    volatile unsigned char uc = 200;
    volatile long long ll = LLONG_MIN;
    printf("%d %d %u\n", big + 1, m - 1, u - 1);
    printf("%d %d %d\n", c, (unsigned char)c, uc);
    printf("%d %d %d %d\n", -7 / 2, -7 % 2, 7 / -2, 7 % -2);
    printf("%lld %lld\n", ll - 1, ll / 2);
    printf("%d %d\n", (short)70000, (signed char)uc);
    printf("%u %d\n", (unsigned)-1 >> 31, -1 >> 31);
    printf("%d\n", big * 2);
    return 0;
}"#,
    );
    assert_exit(
        &r,
        0,
        "-2147483648 2147483647 4294967295\n-1 255 200\n-3 -1 -3 1\n9223372036854775807 -4611686018427387904\n\
         4464 -56\n1 -1\n-2\n",
    );
}

#[test]
fn division_errors_in_c_at_their_lines() {
    let src = |expr: &str| {
        format!(
            r#"#include <limits.h>
int main(int argc, char **argv) {{
    volatile int a = INT_MIN, z = argc - 1, m = -argc, s = 31 + argc;
    int r = {expr};
    return r;
}}"#
        )
    };
    assert_error(&run_c(&src("a / z")), ErrorKind::DivisionByZero, "main", 4);
    assert_error(&run_c(&src("a % z")), ErrorKind::DivisionByZero, "main", 4);
    assert_error(&run_c(&src("a / m")), ErrorKind::SignedDivisionOverflow, "main", 4);
    assert_error(&run_c(&src("a % m")), ErrorKind::SignedDivisionOverflow, "main", 4);
    assert_error(&run_c(&src("1 << s")), ErrorKind::ShiftOutOfRange, "main", 4);
    assert_error(&run_c(&src("a >> s")), ErrorKind::ShiftOutOfRange, "main", 4);
    assert_eq!(run_c(&src("(int)((unsigned)a / (unsigned)m)")).outcome, Outcome::Exit(0));
    assert_eq!(run_c(&src("1 << (s - 1)")).outcome, Outcome::Exit(0));
}

/// The offbyone example: `buf[n] = 1` with `n < 4` (old) or `n <= 4` (new).
const OFFBYONE: &str = r#"#include "penumbra.h"

static char buf[4];

int main(void) {
  int n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  if (change(n < 4, n <= 4))
    buf[n] = 1;
  return 0;
}
"#;

fn offbyone(version: Version, n: i32) -> penumbra_engine::concrete::RunResult {
    let mut inputs = BTreeMap::new();
    inputs.insert("n".to_string(), n.to_le_bytes().to_vec());
    run_c_with(OFFBYONE, &RunConfig { version, inputs: Inputs::Named(inputs), ..RunConfig::default() })
}

#[test]
fn offbyone_is_an_error_in_new_only_at_four_and_in_both_below_zero() {
    assert_eq!(offbyone(Version::Old, 4).outcome, Outcome::Exit(0));
    let msg = assert_error(&offbyone(Version::New, 4), ErrorKind::OutOfBoundsWrite, "main", 9);
    assert_eq!(msg, "out-of-bounds write of 1 byte at offset 4 of global 'buf' (4 bytes)");
    for version in [Version::Old, Version::New] {
        assert_eq!(offbyone(version, 3).outcome, Outcome::Exit(0));
        let msg = assert_error(&offbyone(version, -1), ErrorKind::OutOfBoundsWrite, "main", 9);
        assert_eq!(msg, "out-of-bounds write of 1 byte at offset -1 of global 'buf' (4 bytes)");
    }
    let r = offbyone(Version::New, 2);
    assert_eq!(r.symbolics.len(), 1);
    assert_eq!((r.symbolics[0].name.as_str(), r.symbolics[0].bytes.as_slice()), ("n", &[2u8, 0, 0, 0][..]));
}

#[test]
fn klee_spellings_assume_and_execute_blocks() {
    let src = r#"#include <klee/klee.h>
#include "penumbra.h"
#include <stdio.h>
int main(void) {
    int x;
    klee_make_symbolic(&x, sizeof x, "x");
    klee_assume(x > 0);
    if (penumbra_execute(NEW))
        printf("new only\n");
    klee_assert(x != 7);
    return change(1, 2);
}"#;
    let module = compile(src);
    let program = Program::new(&module).unwrap();
    let with = |version, x: i32| {
        let inputs = Inputs::Ordered(vec![x.to_le_bytes().to_vec()]);
        program.run(&RunConfig { version, inputs, ..RunConfig::default() })
    };
    assert_exit(&with(Version::Old, 1), 1, "");
    assert_exit(&with(Version::New, 1), 2, "new only\n");
    match with(Version::New, -5).outcome {
        Outcome::AssumptionViolated(loc) => assert_eq!(loc.line, 7),
        other => panic!("{other}"),
    }
    assert_error(&with(Version::Old, 7), ErrorKind::AssertionFailed, "main", 10);
}

#[test]
fn assert_h_reports_the_expression() {
    let r = run_c(
        r#"#include <assert.h>
int main(int argc, char **argv) {
    assert(argc == 1);
    assert(argc > 1 && "needs an argument");
    return 0;
}"#,
    );
    let msg = assert_error(&r, ErrorKind::AssertionFailed, "main", 4);
    // glibc's assert passes __PRETTY_FUNCTION__.
    assert_eq!(msg, "assertion `argc > 1 && \"needs an argument\"' failed in function 'int main(int, char **)'");
}

#[test]
fn recursion_and_the_call_depth_limit() {
    let src = r#"#include <stdio.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int down(int n) { return n == 0 ? 0 : 1 + down(n - 1); }
int main(void) {
    printf("%d %d\n", fib(20), down(150000));
    return 0;
}"#;
    // 150,000 frames fit in the native 8 MiB stack.
    assert_exit(&run_c(src), 0, "6765 150000\n");
    let module = compile(src);
    let r = run(&module, &RunConfig { stack_limit: 16_000, ..RunConfig::default() });
    assert_error(&r, ErrorKind::StackOverflow, "down", 3);
    let infinite = r#"int f(int n) { return f(n + 1) + 1; }
int main(void) { return f(0); }"#;
    assert_error(&run_c(infinite), ErrorKind::StackOverflow, "f", 1);
}

#[test]
fn function_pointers_structs_and_switch() {
    let r = run_c(
        r#"#include <stdio.h>
struct pt { int x, y; };
static struct pt add(struct pt a, struct pt b) { struct pt r = { a.x + b.x, a.y + b.y }; return r; }
static int twice(int v) { return 2 * v; }
static int neg(int v) { return -v; }
static int (*ops[])(int) = { twice, neg };
static const char *name(int k) {
    switch (k) { case 0: return "zero"; case 5: return "five"; case -1: return "minus"; default: return "other"; }
}
int main(void) {
    struct pt p = add((struct pt){1, 2}, (struct pt){10, 20});
    printf("%d %d\n", p.x, p.y);
    for (int i = 0; i < 2; i++) printf("%d ", ops[i](21));
    printf("%s %s %s %s\n", name(0), name(5), name(-1), name(3));
    int (*f)(int) = neg;
    return f(-9);
}"#,
    );
    assert_exit(&r, 9, "11 22\n42 -21 zero five minus other\n");
}

#[test]
fn heap_lists_realloc_and_their_errors() {
    let r = run_c(
        r#"#include <stdio.h>
#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
    struct node *head = NULL;
    for (int i = 0; i < 5; i++) {
        struct node *n = malloc(sizeof *n);
        n->v = i; n->next = head; head = n;
    }
    int *arr = NULL, cap = 0;
    for (int i = 0; i < 100; i++) {
        if (i == cap) { cap = cap ? 2 * cap : 1; arr = realloc(arr, cap * sizeof *arr); }
        arr[i] = i;
    }
    long sum = 0;
    for (int i = 0; i < 100; i++) sum += arr[i];
    free(arr);
    while (head) { struct node *n = head->next; printf("%d", head->v); free(head); head = n; }
    int *z = calloc(4, sizeof(int));
    printf(" %ld %d\n", sum, z[0] + z[3]);
    free(z);
    free(NULL);
    return 0;
}"#,
    );
    assert_exit(&r, 0, "43210 4950 0\n");

    let uaf = r#"#include <stdlib.h>
int main(void) {
    int *p = malloc(8);
    free(p);
    return p[1];
}"#;
    let msg = assert_error(&run_c(uaf), ErrorKind::UseAfterFree, "main", 5);
    assert_eq!(
        msg,
        "read of 4 bytes at offset 4 of freed heap object allocated at line 3 and freed at line 4 (8 bytes)"
    );
    let double = "#include <stdlib.h>\nint main(void) { char *p = malloc(1);\n free(p);\n free(p); return 0; }";
    assert_error(&run_c(double), ErrorKind::DoubleFree, "main", 4);
    let interior = "#include <stdlib.h>\nint main(void) { char *p = malloc(8);\n free(p + 2); return 0; }";
    assert_error(&run_c(interior), ErrorKind::InvalidFree, "main", 3);
    let overflow = "#include <stdlib.h>\nint main(void) { int *p = malloc(3 * sizeof(int));\n p[3] = 1; return 0; }";
    assert_error(&run_c(overflow), ErrorKind::OutOfBoundsWrite, "main", 3);
    let stack = r#"static int *leak(void) { int x = 5; return &x; }
int main(void) {
    int *p = leak();
    return *p;
}"#;
    let msg = assert_error(&run_c(stack), ErrorKind::UseAfterFree, "main", 4);
    assert!(msg.contains("stack object of returned function 'leak'"), "{msg}");
    let null = "struct s { int a, b; };\nint main(void) { struct s *p = 0;\n return p->b; }";
    let msg = assert_error(&run_c(null), ErrorKind::NullDereference, "main", 3);
    assert_eq!(msg, "read of 4 bytes at address 0x4");
}

#[test]
fn malloc_zero_gives_distinct_pointers_and_huge_malloc_gives_null() {
    let r = run_c(
        r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    char *a = malloc(0), *b = malloc(0);
    printf("%d %d %d\n", a != 0, a != b, malloc((size_t)1 << 40) == 0);
    free(a); free(b);
    return 0;
}"#,
    );
    assert_exit(&r, 0, "1 1 1\n");
    let zero = "#include <stdlib.h>\nint main(void) { char *p = malloc(0);\n return *p; }";
    assert_error(&run_c(zero), ErrorKind::OutOfBoundsRead, "main", 3);
}

#[test]
fn pointer_output_is_deterministic() {
    let src = r#"#include <stdio.h>
#include <stdlib.h>
int g;
int main(void) {
    int local;
    void *h = malloc(4);
    printf("%p %p %p %p\n", (void *)&g, (void *)&local, h, (void *)main);
    return 0;
}"#;
    let module = compile(src);
    let first = run(&module, &RunConfig::default());
    let second = run(&module, &RunConfig::default());
    assert_eq!(first.outcome, Outcome::Exit(0));
    assert_eq!(first.stdout, second.stdout);
    let text = first.stdout_text();
    let ptrs: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(ptrs.len(), 4);
    assert!(ptrs.iter().all(|p| p.starts_with("0x")), "{text}");
    // Recompiling gives the same addresses too.
    assert_eq!(run_c(src).stdout, first.stdout);
}

#[test]
fn argv_and_stdin() {
    let src = r#"#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    long sum = 0;
    for (int i = 1; i < argc; i++) sum += strtol(argv[i], NULL, 0);
    int c, lines = 0;
    while ((c = getchar()) != EOF) lines += c == '\n';
    printf("%s argc=%d sum=%ld lines=%d last=%s\n", argv[0], argc, sum, lines, argv[argc - 1]);
    return argv[argc] == NULL;
}"#;
    let config = RunConfig {
        args: vec!["prog".into(), "10".into(), "0x20".into(), "-2".into()],
        stdin: b"a\nb\nc".to_vec(),
        ..RunConfig::default()
    };
    assert_exit(&run_c_with(src, &config), 1, "prog argc=4 sum=40 lines=2 last=-2\n");
    let fgets = r#"#include <stdio.h>
int main(void) {
    char line[6];
    while (fgets(line, sizeof line, stdin)) printf("[%s]", line);
    return 0;
}"#;
    let config = RunConfig { stdin: b"hello world\nx\n".to_vec(), ..RunConfig::default() };
    assert_exit(&run_c_with(fgets, &config), 0, "[hello][ worl][d\n][x\n]");
}

#[test]
fn exit_status_is_the_low_byte() {
    let r = run_c("#include <stdlib.h>\nvoid f(void) { exit(300); }\nint main(void) { f(); return 1; }");
    assert_exit(&r, 44, "");
    assert_eq!(run_c("int main(void) { return -1; }").outcome, Outcome::Exit(255));
}

#[test]
fn string_literals_are_read_only() {
    let r = run_c("int main(void) {\n char *s = \"abc\";\n s[0] = 'x';\n return 0; }");
    let msg = assert_error(&r, ErrorKind::InvalidPointer, "main", 3);
    assert!(msg.starts_with("write to read-only global"), "{msg}");
}

#[test]
fn variable_length_arrays_and_user_varargs() {
    let r = run_c(
        r#"#include <stdarg.h>
#include <stdio.h>
static int sum(int n, ...) {
    va_list ap; va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}
int main(int argc, char **argv) {
    int n = argc + 4;
    int vla[n];
    for (int i = 0; i < n; i++) vla[i] = i * i;
    printf("%d %d\n", sum(4, 1, 2, 3, 4), vla[n - 1]);
    return vla[n];
}"#,
    );
    assert_eq!(r.stdout_text(), "10 16\n");
    assert_error(&r, ErrorKind::OutOfBoundsRead, "main", 15);
}

#[test]
fn quadruple_floating_point_is_unsupported_only_where_reached() {
    let src = r#"#include <stdio.h>
int main(int argc, char **argv) {
    printf("start\n");
    if (argc > 1) {
        __float128 d = argc * (__float128)0.5;
        printf("%d\n", (int)d);
    }
    double e = argc * 0.75;
    printf("%d %.2f\n", (int)e, e);
    return 0;
}"#;
    assert_exit(&run_c(src), 0, "start\n0 0.75\n");
    let config = RunConfig { args: vec!["p".into(), "x".into()], ..RunConfig::default() };
    let r = run_c_with(src, &config);
    assert_eq!(r.stdout_text(), "start\n");
    let Outcome::Unsupported { location, message } = &r.outcome else { panic!("{}", r.outcome) };
    assert_eq!((location.line, message.as_str()), (5, "floating point of type FP128: sitofp"));
}

#[test]
fn globals_with_pointers_and_function_tables() {
    let r = run_c(
        r#"#include <stdio.h>
static int counter = 40;
static int *pc = &counter;
static const char *names[] = { "alpha", "beta", "gamma" };
struct entry { const char *key; int (*fn)(int); };
static int inc(int x) { return x + 1; }
static struct entry table[] = { { "inc", inc }, { 0, 0 } };
int main(int argc, char **argv) {
    // Indices computed at run time: the frontend does not lower every constant
    // getelementptr into a global array yet.
    int two = argc + 1, zero = argc - 1, one = argc;
    *pc += 1;
    printf("%s %s %d %s\n", names[two], names[zero] + 2, table[zero].fn(counter), table[zero].key);
    return table[one].key == 0;
}"#,
    );
    assert_exit(&r, 1, "gamma pha 42 inc\n");
}

#[test]
fn unknown_external_functions_end_the_path_as_unsupported() {
    let r = run_c(
        r#"#include <stdio.h>
int main(void) {
    printf("before\n");
    FILE *f = fopen("/etc/passwd", "r");
    return f != NULL;
}"#,
    );
    assert_eq!(r.stdout_text(), "before\n");
    assert_unsupported(&r, "unknown external function 'fopen' is not modelled; `--libc musl` provides it", 4);
}

/// A function penumbra's models lack but musl has: the message names `--libc musl`; one musl
/// lacks too gets no hint.
#[test]
fn an_unknown_function_that_musl_provides_says_so() {
    let r = run_c(
        r#"#include <stdlib.h>
int main(void) {
    double d = strtod("2.5", 0);
    return d > 2;
}"#,
    );
    assert_unsupported(&r, "unknown external function 'strtod' is not modelled; `--libc musl` provides it", 3);
    let r = run_c(
        r#"int frobnicate(int);
int main(void) {
    return frobnicate(1);
}"#,
    );
    assert_unsupported(&r, "unknown external function 'frobnicate'", 3);
}

/// glibc's merge sort: the same comparator calls as natively (the count is printed), equal
/// keys keep their order, a library function works as the comparator, and bsearch finds.
#[test]
fn qsort_and_bsearch_call_back_into_the_program() {
    let r = run_c(
        r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct item { int key; char tag; };
static int calls;
static int by_key(const void *a, const void *b) {
    calls++;
    return ((const struct item *)a)->key - ((const struct item *)b)->key;
}
static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
int main(void) {
    struct item items[] = {{3, 'a'}, {1, 'b'}, {3, 'c'}, {2, 'd'}, {1, 'e'}, {9, 'f'}, {0, 'g'}};
    qsort(items, 7, sizeof items[0], by_key);
    for (int i = 0; i < 7; i++) printf("%d%c ", items[i].key, items[i].tag);
    printf("calls=%d\n", calls);
    char names[4][8] = {"pear", "apple", "fig", "banana"};
    qsort(names, 4, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    for (int i = 0; i < 4; i++) printf("%s ", names[i]);
    int v[] = {1, 3, 5, 7, 9, 11};
    int k = 7, missing = 4;
    int *hit = bsearch(&k, v, 6, sizeof v[0], cmp_int);
    printf("\n%ld %d\n", (long)(hit - v), bsearch(&missing, v, 6, sizeof v[0], cmp_int) == NULL);
    qsort(v, 0, sizeof v[0], cmp_int);
    return 0;
}"#,
    );
    // Exactly what the native build prints with glibc 2.36.
    assert_exit(&r, 0, "0g 1b 1e 2d 3a 3c 9f calls=14\napple banana fig pear \n3 1\n");
}

#[test]
fn errors_inside_a_comparator_are_located_there() {
    let r = run_c(
        r#"#include <stdlib.h>
static int bad(const void *a, const void *b) {
    const int *p = a;
    return p[3] - *(const int *)b;
}
int main(void) {
    int v[3] = {3, 1, 2};
    qsort(v, 3, sizeof v[0], bad);
    return v[0];
}"#,
    );
    assert_error(&r, ErrorKind::OutOfBoundsRead, "bad", 4);
    let r = run_c(
        r#"#include <stdlib.h>
int main(void) {
    int v[3] = {3, 1, 2};
    qsort(v, 4, sizeof v[0], 0);
    return v[0];
}"#,
    );
    assert_error(&r, ErrorKind::OutOfBoundsRead, "main", 4);
}

/// Constructors by ascending priority (table order within one), `atexit` handlers last
/// registered first (one registered by a constructor), then destructors in the reverse of the
/// constructors' order; `exit` deep in the stack runs them too, `_exit` does not. The expected
/// text is what glibc prints for the same program.
#[test]
fn constructors_atexit_handlers_and_destructors_run_in_the_native_order() {
    let src = r#"#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static int limit;
static void h1(void) { printf("atexit h1\n"); }
static void h2(void) { printf("atexit h2\n"); }
__attribute__((constructor)) static void c1(void) { limit = 5; printf("ctor c1\n"); atexit(h1); }
__attribute__((constructor(200))) static void c0(void) { printf("ctor c0 (prio 200)\n"); }
__attribute__((constructor)) static void c2(void) { printf("ctor c2\n"); }
__attribute__((destructor)) static void d1(void) { printf("dtor d1\n"); }
__attribute__((destructor)) static void d2(void) { printf("dtor d2\n"); }
__attribute__((destructor(200))) static void d0(void) { printf("dtor d0 (prio 200)\n"); }
static void deep(int how) { if (how == 1) exit(4); if (how == 2) _exit(5); }
int main(int argc, char **argv) {
  printf("main limit=%d\n", limit);
  atexit(h2);
  deep(argc - 1);
  return 3;
}"#;
    let lines = "ctor c0 (prio 200)\nctor c1\nctor c2\nmain limit=5\n";
    let after = "atexit h2\natexit h1\ndtor d2\ndtor d1\ndtor d0 (prio 200)\n";
    assert_exit(&run_c(src), 3, &format!("{lines}{after}"));
    let with_args = |args: &[&str]| {
        let args = ["prog"].iter().chain(args).map(|a| a.as_bytes().to_vec()).collect();
        run_c_with(src, &RunConfig { args, ..RunConfig::default() })
    };
    assert_exit(&with_args(&["x"]), 4, &format!("{lines}{after}"));
    // Natively `_exit` also drops what stdio buffered (all of it, through a pipe); penumbra
    // writes unbuffered, so only the handlers' and destructors' lines are missing.
    assert_exit(&with_args(&["x", "y"]), 5, lines);
}
