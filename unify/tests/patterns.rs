//! Shadow's annotation patterns, each from a pair of versions to the exact unified text, and
//! the changes no annotation can express, each refused with its line.

use penumbra_unify::check::{compare, compiler_for, Compiler};
use penumbra_unify::{unify, Unified, UnifyError};

fn compiler() -> Compiler {
    compiler_for(None, Vec::new())
}

fn unified(old: &str, new: &str) -> Unified {
    let c = compiler();
    // unify checked both projections against the inputs' IR before returning.
    unify(old, new, [&c, &c]).unwrap_or_else(|e| panic!("{e}"))
}

fn body(u: &Unified) -> &str {
    u.text.strip_prefix("#include \"penumbra.h\"\n").expect("the header comes first where the input has no include")
}

#[test]
fn a_changed_constant_is_changed_alone() {
    let u = unified(
        "int f(int x) {\n  if (x > 5)\n    return 1;\n  return 0;\n}\n",
        "int f(int x) {\n  if (x > 10)\n    return 1;\n  return 0;\n}\n",
    );
    assert_eq!(body(&u), "int f(int x) {\n  if (x > change(5, 10))\n    return 1;\n  return 0;\n}\n");
    assert!(u.notes.is_empty() && u.whole_functions.is_empty());
}

#[test]
fn changed_operands_and_call_arguments_are_changed_where_they_are() {
    let u = unified(
        "int g(int, int);\nint f(int x, int y) {\n  y = g(x + 1, y);\n  return y * 2;\n}\n",
        "int g(int, int);\nint f(int x, int y) {\n  y = g(x - 1, y);\n  return y * x;\n}\n",
    );
    assert_eq!(
        body(&u),
        "int g(int, int);\nint f(int x, int y) {\n  y = g(change(x + 1, x - 1), y);\n  return y * change(2, x);\n}\n"
    );
}

#[test]
fn a_pure_library_calls_changed_argument_changes_the_call_and_others_stay_where_they_are() {
    let (old, new) = (
        "#include <string.h>\nint puts(const char *);\nint f(const char *s) {\n  puts(\"a\");\n  int n = s[strcspn(s, \"eExX\")];\n  return n + strlen(s++);\n}\n",
        "#include <string.h>\nint puts(const char *);\nint f(const char *s) {\n  puts(\"b\");\n  int n = s[strcspn(s, \"xX\")];\n  return n + strlen(s += 2);\n}\n",
    );
    // puts prints: its argument changes alone. strlen's argument has a side effect: the change
    // stays inside.
    assert_eq!(
        unified(old, new).text,
        "#include <string.h>\n#include \"penumbra.h\"\nint puts(const char *);\nint f(const char *s) {\n  puts(change(\"a\", \"b\"));\n  int n = s[change(strcspn(s, \"eExX\"), strcspn(s, \"xX\"))];\n  return n + strlen(change(s++, s += 2));\n}\n"
    );
}

#[test]
fn weakened_and_strengthened_conditions_keep_the_shared_part_outside() {
    let u = unified(
        "int f(int x) {\n  if (x < 0)\n    return 1;\n  if (x > 9 && x < 20)\n    return 2;\n  return 0;\n}\n",
        "int f(int x) {\n  if (x < 0 || x > 50)\n    return 1;\n  if (x > 9)\n    return 2;\n  return 0;\n}\n",
    );
    assert_eq!(
        body(&u),
        "int f(int x) {\n  if (x < 0 || change(0, x > 50))\n    return 1;\n  if (x > 9 && change(x < 20, 1))\n    return 2;\n  return 0;\n}\n"
    );
}

#[test]
fn added_and_removed_statements_run_in_execute_blocks() {
    let u = unified(
        "int f(int x) {\n  x = x * 2;\n  if (x > 4)\n    x = 4;\n  return x;\n}\n",
        "int f(int x) {\n  if (x < 0)\n    return -1;\n  x = x * 2;\n  return x;\n}\n",
    );
    assert_eq!(
        body(&u),
        "int f(int x) {\n  if (penumbra_execute(NEW)) {\n    if (x < 0)\n    return -1;\n  }\n  x = x * 2;\n  if (penumbra_execute(OLD)) {\n    if (x > 4)\n    x = 4;\n  }\n  return x;\n}\n"
    );
}

#[test]
fn an_added_local_is_declared_in_both_versions_and_initialised_in_its_own() {
    let u = unified(
        "int g(int);\nint f(int x) {\n  return x;\n}\n",
        "int g(int);\nint f(int x) {\n  int y = g(x);\n  return x + y;\n}\n",
    );
    assert_eq!(
        body(&u),
        "int g(int);\nint f(int x) {\n  int y; if (penumbra_execute(NEW)) { y = g(x); }\n  return change(x, x + y);\n}\n"
    );
}

#[test]
fn an_added_else_branch_runs_in_the_new_version_only() {
    let u = unified(
        "int f(int x) {\n  int r = 0;\n  if (x > 0)\n    r = 1;\n  return r;\n}\n",
        "int f(int x) {\n  int r = 0;\n  if (x > 0)\n    r = 1;\n  else\n    r = 2;\n  return r;\n}\n",
    );
    assert_eq!(
        body(&u),
        "int f(int x) {\n  int r = 0;\n  if (x > 0)\n    r = 1;\n  else if (penumbra_execute(NEW)) { r = 2; }\n  return r;\n}\n"
    );
}

#[test]
fn a_changed_local_type_keeps_both_whole_functions_behind_a_dispatcher() {
    let u =
        unified("int f(int x) {\n  short s = x;\n  return s;\n}\n", "int f(int x) {\n  int s = x;\n  return s;\n}\n");
    assert_eq!(u.whole_functions, Vec::<String>::new(), "the merge itself gave up, not the check");
    assert_eq!(
        body(&u),
        "int f(int x);\nstatic inline __attribute__((always_inline)) int f__penumbra_old(int x) {\n  short s = x;\n  return s;\n}\n\nstatic inline __attribute__((always_inline)) int f__penumbra_new(int x) {\n  int s = x;\n  return s;\n}\n\nint f(int x) {\n  return change(f__penumbra_old(x), f__penumbra_new(x));\n}\n"
    );
    assert_eq!(u.notes.len(), 1);
    assert!(u.notes[0].message.starts_with("`f` is kept as two whole functions"), "{:?}", u.notes);
}

#[test]
fn comments_and_directives_are_kept() {
    let u = unified(
        "#include <stdio.h>\n#define LIMIT 3\n/* doc */\nint f(int x) {\n  // why\n  return x > LIMIT; /* end */\n}\n",
        "#include <stdio.h>\n#define LIMIT 3\n/* doc */\nint f(int x) {\n  // why\n  return x >= LIMIT; /* end */\n}\n",
    );
    assert_eq!(
        u.text,
        "#include <stdio.h>\n#include \"penumbra.h\"\n#define LIMIT 3\n/* doc */\nint f(int x) {\n  // why\n  return change(x > LIMIT, x >= LIMIT); /* end */\n}\n"
    );
}

fn refused(old: &str, new: &str) -> Vec<(usize, String)> {
    let c = compiler();
    match unify(old, new, [&c, &c]) {
        Err(UnifyError::Inexpressible(reasons)) => reasons.into_iter().map(|r| (r.line, r.why)).collect(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_changed_macro_or_global_initialiser_is_refused_with_its_line() {
    let r = refused("#define N 3\nint f(void) { return N; }\n", "#define N 4\nint f(void) { return N; }\n");
    assert_eq!(
        r,
        vec![(1, "the definition of macro `N` changed: a macro has one definition in the unified program".to_string())]
    );
    let r = refused("int g = 1;\nint f(void) { return g; }\n", "\nint g = 2;\nint f(void) { return g; }\n");
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].0, 2);
    assert!(r[0].1.starts_with("the declaration `g` changed"), "{r:?}");
}

#[test]
fn a_changed_signature_with_no_dispatcher_is_refused() {
    let r = refused("int f(int x, ...) { return x; }\n", "long f(int x, ...) { return x; }\n");
    assert_eq!(r.iter().map(|(l, _)| *l).collect::<Vec<_>>(), vec![1, 1]);
    assert_eq!(r[0].1, "the signature of `f` changed");
    // A parameter added to a function other files can call: the dispatcher could not call
    // old's body with new's arguments.
    let r = refused(
        "int f(int x) { return x; }\nint g(int y) { return f(y); }\n",
        "int f(int x, int z) { return x + z; }\nint g(int y) { return f(y, 1); }\n",
    );
    assert!(
        r.iter().any(|(_, why)| why
            == "the signature of `f` changed (1 parameters, then 2): no dispatcher can call both versions"),
        "{r:?}"
    );
}

#[test]
fn a_static_function_whose_parameters_changed_is_two_functions_each_called_by_its_version() {
    // seq of 2006: print_numbers took its globals as parameters.
    let u = unified(
        "static int f(int x) { return x; }\nint g(int y) { return f(y); }\n",
        "static int f(int x, int z) { return x + z; }\nint g(int y) { return f(y, 1); }\n",
    );
    assert_eq!(
        body(&u),
        "static int f__penumbra_old(int x) { return x; }\nstatic int f__penumbra_new(int x, int z) { return x + z; }\nint g(int y) { return change(f__penumbra_old(y), f__penumbra_new(y, 1)); }\n"
    );
    assert_eq!(
        u.notes[0].message,
        "the parameters of static `f` changed: each version keeps its own (f__penumbra_old, f__penumbra_new) and its calls call it"
    );
}

#[test]
fn the_inputs_must_compile() {
    let c = compiler();
    match unify("int f(void) { return 0; }\n", "int f(void) { return undefined_name; }\n", [&c, &c]) {
        Err(UnifyError::InputDoesNotCompile { which: "new", .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_merge_clang_rejects_falls_back_to_whole_functions() {
    // `change` cannot initialise an array: the projection does not compile, and the function
    // clang names is merged again as two whole bodies.
    let u = unified(
        "int f(int i) {\n  char s[] = \"ab\";\n  return s[i];\n}\n",
        "int f(int i) {\n  char s[] = \"abc\";\n  return s[i];\n}\n",
    );
    assert_eq!(u.whole_functions, vec!["f".to_string()]);
    assert!(
        body(&u).contains(
            "static inline __attribute__((always_inline)) int f__penumbra_old(int i) {\n  char s[] = \"ab\";"
        ),
        "{}",
        u.text
    );
    assert!(
        body(&u).ends_with("int f(int i) {\n  return change(f__penumbra_old(i), f__penumbra_new(i));\n}\n"),
        "{}",
        u.text
    );
    assert_eq!(u.notes[0].message, "`f` is kept as two whole functions (f__penumbra_old, f__penumbra_new) behind a dispatcher: the symbolic build rejects its finer merge (array initializer must be an initializer list or string literal)");
}

#[test]
fn a_changed_static_variable_keeps_both_definitions_and_uses_read_their_version() {
    let u = unified(
        "static int limit = 5;\nint f(int x) {\n  limit++;\n  return x > limit;\n}\n",
        "static int limit = 7;\nint f(int x) {\n  limit++;\n  return x > limit;\n}\n",
    );
    assert_eq!(
        body(&u),
        "static int limit__penumbra_old = 5;\nstatic int limit__penumbra_new = 7;\nint f(int x) {\n  (*change(&limit__penumbra_old, &limit__penumbra_new))++;\n  return x > (*change(&limit__penumbra_old, &limit__penumbra_new));\n}\n"
    );
    assert_eq!(u.notes.len(), 1);
    // Not static: other files may name it, so it keeps one name, and the change is refused.
    let r =
        refused("int limit = 5;\nint f(void) { return limit; }\n", "int limit = 7;\nint f(void) { return limit; }\n");
    assert!(r[0].1.starts_with("the declaration `limit` changed"), "{r:?}");
}

#[test]
fn a_static_variable_whose_type_gains_a_qualifier_is_read_through_one_pointer_type() {
    // seq of 2006 (3964d508): `static char *separator` became `static char const *separator`.
    let u = unified(
        "int puts(const char *);\nstatic char *sep = \"\\n\";\nvoid set(char *s) { sep = s; }\nint f(void) { return puts(sep); }\n",
        "int puts(const char *);\nstatic char const *sep = \"\\n\";\nvoid set(char *s) { sep = s; }\nint f(void) { return puts(sep); }\n",
    );
    let redirected = "(*change((__typeof__(&sep__penumbra_new))&sep__penumbra_old, &sep__penumbra_new))";
    assert_eq!(
        body(&u),
        format!("int puts(const char *);\nstatic char *sep__penumbra_old = \"\\n\";\nstatic char const *sep__penumbra_new = \"\\n\";\nvoid set(char *s) {{ {redirected} = s; }}\nint f(void) {{ return puts({redirected}); }}\n")
    );
    // A pointer that became an array (seq's terminator): read as a value of the common type.
    let u = unified(
        "int puts(const char *);\nstatic char *end = \"\\n\";\nint f(void) { return puts(end); }\n",
        "int puts(const char *);\nstatic char const end[] = \"\\n\";\nint f(void) { return puts(end); }\n",
    );
    let common = "__typeof__(0 ? end__penumbra_old : end__penumbra_new)";
    assert_eq!(
        body(&u),
        format!("int puts(const char *);\nstatic char *end__penumbra_old = \"\\n\";\nstatic char const end__penumbra_new[] = \"\\n\";\nint f(void) {{ return puts(change(({common})end__penumbra_old, ({common})end__penumbra_new)); }}\n")
    );
    // An unsigned that became an unsigned long: read as the common type, old's product would
    // no longer wrap at 32 bits, and the check refuses the conversion.
    let c = compiler();
    let checked = unify(
        "static unsigned n = 4000000000u;\nunsigned long f(unsigned x) { return x * n; }\n",
        "static unsigned long n = 4000000000u;\nunsigned long f(unsigned x) { return x * n; }\n",
        [&c, &c],
    );
    assert!(matches!(checked, Err(UnifyError::CheckFailed { which: "old", .. })), "{checked:?}");
}

#[test]
fn a_statement_newly_guarded_by_an_if_becomes_a_changed_condition() {
    // An arm added in front of an if-else chain, and a guard added around a statement (but a
    // changed condition stays a changed condition).
    let u = unified(
        "int g(int);\nint f(int x) {\n  if (x > 9)\n    return 1;\n  else\n    return 2;\n}\nint h(int x) {\n  g(x);\n  if (0) g(1);\n  return 0;\n}\n",
        "int g(int);\nint f(int x) {\n  if (x == 0)\n    return 0;\n  else if (x > 9)\n    return 1;\n  else\n    return 2;\n}\nint h(int x) {\n  if (x > 0)\n    g(x);\n  if (x) g(1);\n  return 0;\n}\n",
    );
    assert_eq!(
        body(&u),
        "int g(int);\nint f(int x) {\n  if (change(0, x == 0)) { return 0; }\n  else if (x > 9)\n    return 1;\n  else\n    return 2;\n}\nint h(int x) {\n  if (change(1, x > 0)) g(x);\n  if (change(0, x)) g(1);\n  return 0;\n}\n"
    );
}

/// The shape of GNU cut's "avoid a redundant heap allocation" (coreutils ec48bead): the new
/// version guards an allocation and a test with a `size_t`, so the guards are `change(1, n)`.
const CUT_OLD: &str = r#"#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct range_pair { size_t lo, hi; };
static size_t max_range_endpoint;
static size_t eol_range_start;
static unsigned char *printable_field;
static bool complement;

static void mark_printable_field (size_t i) {
  printable_field[i / 8] |= (1 << (i % 8));
}

static bool is_printable_field (size_t i) {
  return (printable_field[i / 8] >> (i % 8)) & 1;
}

void mark_range_start (size_t i);
void *xzalloc (size_t n);

void set_fields (struct range_pair *rp, size_t n_rp, bool output_delimiter_specified) {
  max_range_endpoint = 0;
  for (size_t i = 0; i < n_rp; i++)
    if (rp[i].hi > max_range_endpoint)
      max_range_endpoint = rp[i].hi;
  if (max_range_endpoint < eol_range_start)
    max_range_endpoint = eol_range_start;

  /* One bit per field up to the largest bound.  */

  printable_field = xzalloc (max_range_endpoint / CHAR_BIT + 1);
  for (size_t i = 0; i < n_rp; i++) {
    if (eol_range_start && eol_range_start <= rp[i].lo)
      continue;
    size_t rsi_candidate = complement ? rp[i].hi + 1 : rp[i].lo;
    if (output_delimiter_specified && !is_printable_field (rsi_candidate))
      mark_range_start (rsi_candidate);
    for (size_t j = rp[i].lo; j <= rp[i].hi; j++)
      mark_printable_field (j);
  }
  if (output_delimiter_specified && !complement
      && eol_range_start && !is_printable_field (eol_range_start))
    mark_range_start (eol_range_start);
}
"#;

/// `text` with `from` (which it must hold) replaced by `to`.
fn edited(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in the text");
    text.replacen(from, to, 1)
}

const CUT_GROWS: &str = "  if (max_range_endpoint < eol_range_start)\n    max_range_endpoint = eol_range_start;\n";
const CUT_ALLOCATES: &str = "  printable_field = xzalloc";
const CUT_TESTS: &str = "      && eol_range_start && !is_printable_field";

fn cut_new() -> String {
    let text = edited(CUT_OLD, CUT_GROWS, "");
    let text = edited(&text, CUT_ALLOCATES, "  if (max_range_endpoint)\n    printable_field = xzalloc");
    edited(&text, CUT_TESTS, "      && eol_range_start\n      && max_range_endpoint && !is_printable_field")
}

#[test]
fn a_guard_of_another_type_than_int_keeps_the_fine_merge() {
    // The symbolic build's type check refused `change(1, max_range_endpoint)` (int against
    // size_t) although only its truth counts, and the whole-function fallback's IR differs in
    // block order, so unify refused a merge whose projections compile to their inputs' IR.
    let u = unified(CUT_OLD, &cut_new());
    let expected = edited(CUT_OLD, "#include <stddef.h>\n", "#include <stddef.h>\n#include \"penumbra.h\"\n");
    let expected = edited(
        &expected,
        CUT_GROWS,
        "  if (penumbra_execute(OLD)) {\n    if (max_range_endpoint < eol_range_start)\n    max_range_endpoint = eol_range_start;\n  }\n",
    );
    let expected = edited(&expected, CUT_ALLOCATES, "  if (change(1, max_range_endpoint)) printable_field = xzalloc");
    let expected = edited(
        &expected,
        CUT_TESTS,
        "      && eol_range_start\n      && change(1, max_range_endpoint) && !is_printable_field",
    );
    assert_eq!(u.text, expected);
    assert!(u.whole_functions.is_empty() && u.notes.is_empty(), "{:?} {:?}", u.whole_functions, u.notes);
}

#[test]
fn a_truth_value_of_another_type_is_a_changed_condition_and_a_value_of_another_type_is_not() {
    let u = unified(
        "int f(unsigned long n, int x) {\n  if (x)\n    return 1;\n  return !x;\n}\n",
        "int f(unsigned long n, int x) {\n  if (n)\n    return 1;\n  return !n;\n}\n",
    );
    assert_eq!(
        body(&u),
        "int f(unsigned long n, int x) {\n  if (change(x, n))\n    return 1;\n  return !change(x, n);\n}\n"
    );
    assert!(u.whole_functions.is_empty());
    // As a value, `2` and `2L` differ (the symbolic build would compute the old version in
    // long): the function is kept whole.
    let u = unified("long f(int x) {\n  return x * 2;\n}\n", "long f(int x) {\n  return x * 2L;\n}\n");
    assert_eq!(u.whole_functions, vec!["f".to_string()]);
    assert_eq!(u.notes[0].message, "`f` is kept as two whole functions (f__penumbra_old, f__penumbra_new) behind a dispatcher: the symbolic build rejects its finer merge (the operands of change() differ in type)");
}

#[test]
fn a_refusal_shows_the_first_differing_ir_lines() {
    // A constructor only the new version has would run in the old projection too.
    let c = compiler();
    let error = unify(
        "int counter;\nint f(void) { return counter; }\n",
        "int counter;\n__attribute__((constructor)) static void start(void) { counter = 5; }\nint f(void) { return counter; }\n",
        [&c, &c],
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the unified program's old projection differs from the old version in global counter, global llvm.global_ctors; refusing to write it:
  global counter (first difference at line 1 of its optimised IR):
    old version:
      @counter = dso_local local_unnamed_addr global i32 0, align 4
    old projection:
      @counter = dso_local local_unnamed_addr global i32 5, align 4
  global llvm.global_ctors (first difference at line 1 of its optimised IR):
    old version: (no such definition)
    old projection:
      @llvm.global_ctors = appending global [0 x { i32, ptr, ptr }] zeroinitializer"
    );
}

#[test]
fn a_differing_function_is_shown_from_its_first_differing_line_with_why_it_is_whole() {
    let c = compiler();
    let ir = |text: &str| c.ir(text, None).unwrap_or_else(|e| panic!("{e}"));
    let input = ir("int f(int x) {\n  if (x > 3)\n    x = x * 3;\n  return x + 1;\n}\n");
    let projection = ir("int f(int x) {\n  if (x > 3)\n    x = x * 3;\n  return x + 2;\n}\n");
    let differing = compare(&input, &projection).differing;
    assert_eq!(differing.len(), 1);
    assert_eq!(differing[0].name, "function f");
    let error = UnifyError::CheckFailed {
        which: "new",
        differing,
        kept_whole: vec![("f".to_string(), "its finer merge's new projection does not compile (why)".to_string())],
    };
    assert_eq!(
        error.to_string(),
        "the unified program's new projection differs from the new version in function f; refusing to write it:
  function f (first difference at line 5 of its optimised IR):
    new version:
        %5 = add nsw i32 %4, 1
        ret i32 %5
      }
    new projection:
        %5 = add nsw i32 %4, 2
        ret i32 %5
      }
    (f is merged as two whole functions behind a dispatcher: its finer merge's new projection does not compile (why))"
    );
}

/// The shape of GNU cut's "make memory allocation independent of range width" (coreutils
/// 3e466ad0): a function's locals become file-scope variables.
const STEP_LOCAL: &str = "int step(int x) {\n  int total = 0;\n  total += x;\n  return total;\n}\n";
const STEP_GLOBAL: &str = "static int total;\nint step(int x) {\n  total += x;\n  return total;\n}\n";

/// `step` as two whole functions, of `old_body` and `new_body`, behind its dispatcher.
fn step_dispatched(old_body: &str, new_body: &str) -> String {
    format!(
        "static int total;\nint step(int x);\nstatic inline __attribute__((always_inline)) int step__penumbra_old(int x) {{\n{old_body}}}\n\nstatic inline __attribute__((always_inline)) int step__penumbra_new(int x) {{\n{new_body}}}\n\nint step(int x) {{\n  return change(step__penumbra_old(x), step__penumbra_new(x));\n}}\n"
    )
}

#[test]
fn an_added_global_is_kept_and_the_local_it_replaces_does_not_hide_it() {
    // Declared in both versions (as an added local is), the old `total` would hide the new
    // global from the new version's `step`.
    let u = unified(STEP_LOCAL, STEP_GLOBAL);
    let (with_local, without) =
        ("  int total = 0;\n  total += x;\n  return total;\n", "  total += x;\n  return total;\n");
    assert_eq!(body(&u), step_dispatched(with_local, without));
    assert_eq!(u.whole_functions, Vec::<String>::new(), "the merge itself gave up, not the check");
    assert_eq!(u.notes.len(), 1);
    assert_eq!(u.notes[0].message, "`step` is kept as two whole functions (step__penumbra_old, step__penumbra_new) behind a dispatcher: line 2: a declaration only one version has cannot be split: it would hide the file-scope `total` of the new version");
    // The old projection has `total` too, unused: -O2 drops an unused static variable.
    assert_eq!(u.extra, [Vec::<String>::new(), Vec::<String>::new()]);
}

#[test]
fn a_removed_global_is_kept_and_the_local_replacing_it_does_not_hide_it() {
    let u = unified(STEP_GLOBAL, STEP_LOCAL);
    let (with_local, without) =
        ("  int total = 0;\n  total += x;\n  return total;\n", "  total += x;\n  return total;\n");
    assert_eq!(body(&u), step_dispatched(without, with_local));
    assert_eq!(u.notes[0].message, "`step` is kept as two whole functions (step__penumbra_old, step__penumbra_new) behind a dispatcher: line 2: a declaration only one version has cannot be split: it would hide the file-scope `total` of the old version");
}

#[test]
fn a_moved_struct_is_defined_once_before_either_versions_first_use() {
    let u = unified(
        "int zero(void) { return 0; }\nint one(void) { return 1; }\nstruct pair { long lo, hi; };\nlong width(struct pair *p) { return p->hi - p->lo; }\n",
        "struct pair { long lo, hi; };\nstatic struct pair last;\nint zero(void) { return 0; }\nint one(void) { return 1; }\nlong width(struct pair *p) { last = *p; return p->hi - p->lo; }\n",
    );
    assert_eq!(
        body(&u),
        "struct pair { long lo, hi; };\nstatic struct pair last;\nint zero(void) { return 0; }\nint one(void) { return 1; }\nlong width(struct pair *p) { if (penumbra_execute(NEW)) { last = *p; } return p->hi - p->lo; }\n"
    );
    assert!(u.notes.is_empty() && u.whole_functions.is_empty(), "{:?} {:?}", u.notes, u.whole_functions);
}

#[test]
fn a_moved_function_is_defined_once_where_the_old_version_had_it_first() {
    let u = unified(
        "int zero(void) { return 0; }\nstruct pair { long lo, hi; };\nlong width(struct pair *p) { return p->hi - p->lo; }\n",
        "struct pair { long lo, hi; };\nint zero(void) { return 0; }\nlong width(struct pair *p) { return p->hi - p->lo + 1; }\n",
    );
    assert_eq!(
        body(&u),
        "int zero(void) { return 0; }\nstruct pair { long lo, hi; };\nlong width(struct pair *p) { return change(p->hi - p->lo, p->hi - p->lo + 1); }\n"
    );
}

#[test]
fn a_moved_name_defined_otherwise_is_refused_with_its_line() {
    let r = refused(
        "int count;\nint zero(void) { return 0; }\nint get(void) { return count; }\n",
        "int zero(void) { return 0; }\nlong count;\nint get(void) { return count; }\n",
    );
    assert_eq!(
        r,
        vec![(2, "the declaration `count` changed: a file-scope declaration has one type and a constant initialiser, which `change` cannot vary".to_string())]
    );
    let r = refused(
        "int zero(void) { return 0; }\nstruct pair { long lo, hi; };\nlong width(struct pair *p) { return p->hi - p->lo; }\n",
        "struct pair { int lo, hi; };\nint zero(void) { return 0; }\nlong width(struct pair *p) { return p->hi - p->lo; }\n",
    );
    assert_eq!(
        r,
        vec![(
            1,
            "the definition of type `struct pair` changed: a type has one definition in the unified program"
                .to_string()
        )]
    );
}

#[test]
fn a_function_differing_with_a_global_is_kept_whole_before_the_check_refuses() {
    // `optind` is declared by a header, out of the merge's sight: the old `optind` declared in
    // both versions hides it, and the new projection's `f` neither reads it nor (so) declares
    // it. The check finds `f` and `optind` differing; keeping `f` whole mends both.
    let u = unified(
        "#include <unistd.h>\nint f(void) {\n  int optind = 2;\n  return optind;\n}\n",
        "#include <unistd.h>\nint f(void) {\n  return optind;\n}\n",
    );
    assert_eq!(u.whole_functions, vec!["f".to_string()]);
    assert!(
        u.text.ends_with("int f(void) {\n  return change(f__penumbra_old(), f__penumbra_new());\n}\n"),
        "{}",
        u.text
    );
}

/// A function whose optimised IR comes out in another block order once its body is inlined
/// into a dispatcher (-O2 simplifies the always-inlined copy, then the dispatcher again).
const RANGES: &str = "struct pair { unsigned long lo, hi; };
int parse(const char *s) {
  struct pair rp[8];
  unsigned long n = 0;
  for (; *s && n < 8; s++, n++)
    rp[n].lo = rp[n].hi = (unsigned long)*s;
  for (unsigned long i = 0; i < n; i++)
    for (unsigned long j = i + 1; j < n; j++)
      if (rp[j].lo <= rp[i].hi) { rp[j] = rp[n - 1]; n--; j--; }
  return n;
}
";

#[test]
fn a_function_kept_whole_is_checked_against_its_input_kept_whole_alike() {
    // A local's type changed, which no expression-level change expresses: the function is
    // kept whole. Its old projection inlines the old body into the dispatcher, and
    // -O2 lays out its blocks otherwise than for the old version as written; compared with
    // the old version forwarded through the same dispatcher, it is the same code.
    let new = edited(RANGES, "  unsigned long n = 0;", "  long n = 0;");
    let u = unified(RANGES, &new);
    assert_eq!(u.whole_functions, Vec::<String>::new(), "the merge itself kept it whole, not the check");
    assert_eq!(u.notes.len(), 1);
    assert_eq!(u.notes[0].message, "`parse` is kept as two whole functions (parse__penumbra_old, parse__penumbra_new) behind a dispatcher: line 4: the declaration changed in a way no expression-level change expresses");
    assert!(
        body(&u).ends_with(
            "int parse(const char *s) {\n  return change(parse__penumbra_old(s), parse__penumbra_new(s));\n}\n"
        ),
        "{}",
        u.text
    );
}

#[test]
fn a_type_that_gains_members_at_its_end_keeps_new_definition_for_both() {
    // cut of 2004 (7380cf79): `--complement` added an enumerator after the last.
    let u = unified(
        "enum { A = 300 };\nint f(int x) { return x == A; }\n",
        "enum { A = 300, B };\nint f(int x) { return x == A || x == B; }\n",
    );
    assert!(body(&u).starts_with("enum { A = 300, B };\n"), "{}", u.text);
    assert!(u.notes.iter().any(|n| n.message.starts_with("type `` gained members at its end")), "{:?}", u.notes);
    // A member inserted before old's last is a changed type, refused.
    let r = refused(
        "enum { A = 300, C };\nint f(int x) { return x == C; }\n",
        "enum { A = 300, B, C };\nint f(int x) { return x == C; }\n",
    );
    assert!(r[0].1.starts_with("the definition of type"), "{r:?}");
}

#[test]
fn a_struct_that_grows_is_old_code_under_new_definition_sizes_included() {
    // tail of 2009 (ae494d4b): struct File_spec gained inotify members, and old's allocation
    // of the specs asks for new's size; the old projection is checked against old's code
    // compiled with new's definition.
    let old = "struct spec { int fd; long size; };\nvoid *malloc(unsigned long);\n\
               struct spec *specs(unsigned long n) { struct spec *s = malloc(n * sizeof *s); s[0].fd = -1; return s; }\n";
    let new = "struct spec { int fd; long size; int wd; };\nvoid *malloc(unsigned long);\n\
               struct spec *specs(unsigned long n) { struct spec *s = malloc(n * sizeof *s); s[0].fd = -1; s[0].wd = -1; return s; }\n";
    let u = unified(old, new);
    assert!(body(&u).starts_with("struct spec { int fd; long size; int wd; };\n"), "{}", u.text);
    assert!(
        u.notes.iter().any(|n| n.message.starts_with("type `struct spec` gained members at its end")),
        "{:?}",
        u.notes
    );
    assert!(u.whole_functions.is_empty(), "{:?}", u.whole_functions);
}

#[test]
fn an_array_sized_by_its_changed_initialiser_is_read_as_a_pointer() {
    // cut of 2004: longopts[] gained an option; getopt_long takes it as a pointer.
    let u = unified(
        "int g(const int *);\nstatic const int opts[] = {1, 2};\nint f(void) { return g(opts); }\n",
        "int g(const int *);\nstatic const int opts[] = {1, 2, 3};\nint f(void) { return g(opts); }\n",
    );
    let common = "__typeof__(0 ? opts__penumbra_old : opts__penumbra_new)";
    assert!(
        body(&u).contains(&format!("g(change(({common})opts__penumbra_old, ({common})opts__penumbra_new))")),
        "{}",
        u.text
    );
}

#[test]
fn a_difference_accepted_by_hand_is_a_note_and_nothing_else_is_relaxed() {
    let c = compiler();
    let (old, new) = (
        "static unsigned n = 4000000000u;\nunsigned long f(unsigned x) { return x * n; }\nint g(int y) { return y + 1; }\n",
        "static unsigned long n = 4000000000u;\nunsigned long f(unsigned x) { return x * n; }\nint g(int y) { return y + 1; }\n",
    );
    let accept = |names: &[&str]| penumbra_unify::Options {
        keep_attempts: None,
        accept_differences: names.iter().map(|n| n.to_string()).collect(),
    };
    let u = penumbra_unify::unify_with(old, new, [&c, &c], &accept(&["f"])).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        u.notes.iter().any(|n| n.line == 2
            && n.message == "function f: its old projection differs from the old version, accepted by hand"),
        "{:?}",
        u.notes
    );
    // Another function's name accepts nothing.
    let refused = penumbra_unify::unify_with(old, new, [&c, &c], &accept(&["g"]));
    assert!(matches!(refused, Err(UnifyError::CheckFailed { which: "old", .. })), "{refused:?}");
}

/// seq 86e4b778's get_default_format in small: the merge declares `width` and `w` again in an
/// inner block for one version, which shadows the other version's in its projection; -O2
/// inlines the static function into main, so the check finds main differing. The inlined
/// function is kept whole, not main, and the result is checked.
#[test]
fn a_changed_function_inlined_into_a_differing_one_is_kept_whole_first() {
    let u = unified(
        concat!(
            "extern int sprintf(char *, const char *, ...);\n",
            "static char buf[64];\n",
            "static const char *fmt(unsigned a, unsigned b, int prec) {\n",
            "  if (prec > 0) {\n",
            "    unsigned long first = a + prec, last = b + prec;\n",
            "    if (a <= first && (b < last) == (prec < 3)) {\n",
            "      unsigned long width = first > last ? first : last;\n",
            "      if (width <= 1000) {\n",
            "        int w = width;\n",
            "        sprintf(buf, \"%%0%d.%dLf\", w, prec);\n",
            "        return buf;\n",
            "      }\n",
            "    }\n",
            "  }\n",
            "  return \"%Lg\";\n",
            "}\n",
            "int main(int argc, char **argv) { return fmt(argc, argv[0][0], argv[0][1])[1]; }\n",
        ),
        concat!(
            "extern int sprintf(char *, const char *, ...);\n",
            "static char buf[64];\n",
            "static const char *fmt(unsigned a, unsigned b, int prec) {\n",
            "  if (prec > 0) {\n",
            "    unsigned long first = a + prec, last = b + prec;\n",
            "    if (b && prec == 0)\n",
            "      last--;\n",
            "    unsigned long width = first > last ? first : last;\n",
            "    if (width <= 1000) {\n",
            "      int w = width;\n",
            "      sprintf(buf, \"%%0%d.%dLf\", w, prec);\n",
            "      return buf;\n",
            "    }\n",
            "  }\n",
            "  return \"%Lg\";\n",
            "}\n",
            "int main(int argc, char **argv) { return fmt(argc, argv[0][0], argv[0][1])[1]; }\n",
        ),
    );
    assert_eq!(u.whole_functions, vec!["fmt".to_string()]);
    assert!(
        body(&u).contains("int main(int argc, char **argv) { return fmt(argc, argv[0][0], argv[0][1])[1]; }"),
        "{}",
        u.text
    );
}
