//! Symbolic pointers: one path per object (or function) a pointer may point into, and one
//! error for the rest, reported against the object the pointer was derived from. Every test
//! replays concretely to what it claims (checked by `explore`).

use super::support::*;
use penumbra_engine::output::testgen::TestRecord;

/// `(kind, exit code or error message, the input as an integer)` of every test, in order.
fn outcomes(tests: &[TestRecord], input: &str) -> Vec<(String, String, i64)> {
    tests
        .iter()
        .map(|t| {
            let what = match (&t.error, t.exit_code) {
                (Some(e), _) => e.message.clone(),
                (None, Some(code)) => format!("exit {code}"),
                (None, None) => t.reason.clone().unwrap_or_default(),
            };
            (t.kind.clone(), what, int_input(t, input))
        })
        .collect()
}

/// The issue's reproducer: an index that may be negative keeps every in-bounds path, and the
/// rest is one underflow of `weight`, at offset -4.
#[test]
fn a_table_index_that_may_be_negative_keeps_its_in_bounds_paths() {
    let src = r#"#include <penumbra.h>
static const int weight[4] = {5, 7, 9, 11};
int main(void) {
    signed char k;
    penumbra_make_symbolic(&k, sizeof k, "k");
    int i = k - 'a';
    if (i < 4 && weight[i] > 8)
        return 1;
    return 0;
}"#;
    let s = explore(src);
    let mut got = outcomes(&s.tests, "k");
    got.sort();
    let light = got.iter().filter(|(_, what, k)| what == "exit 0" && (97..99).contains(k)).count();
    let heavy = got.iter().filter(|(_, what, k)| what == "exit 1" && (99..101).contains(k)).count();
    let beyond = got.iter().filter(|(_, what, k)| what == "exit 0" && *k >= 101).count();
    assert_eq!((light, heavy, beyond, got.len()), (1, 1, 1, 4), "{got:#?}");
    assert!(
        got.contains(&(
            "error".into(),
            "out-of-bounds read of 4 bytes at offset -4 of global 'weight' (16 bytes)".into(),
            96
        )),
        "{got:#?}"
    );
}

/// A pointer loaded from a table of pointers may point to each of them: one path per string.
#[test]
fn a_pointer_loaded_from_a_table_forks_per_object_it_may_point_to() {
    let src = r#"#include <penumbra.h>
static const char *const names[3] = {"ab", "cd", "ef"};
int main(void) {
    unsigned i;
    penumbra_make_symbolic(&i, sizeof i, "i");
    if (i < 3)
        return names[i][1];
    return 0;
}"#;
    let s = explore(src);
    let got = outcomes(&s.tests, "i");
    let mut paths: Vec<(String, i64)> = got.iter().map(|(_, what, i)| (what.clone(), *i)).collect();
    paths.sort_by_key(|(_, i)| *i as u32);
    let expected: Vec<(String, i64)> =
        vec![("exit 98".into(), 0), ("exit 100".into(), 1), ("exit 102".into(), 2), ("exit 0".into(), paths[3].1)];
    assert_eq!(paths, expected, "{got:#?}");
    assert!(paths[3].1 as u32 >= 3);
}

/// A function pointer made from a symbolic integer calls each function of the program (an
/// invalid call where the signature does not fit), and the rest is one invalid call.
#[test]
fn a_function_pointer_from_a_symbolic_integer_resolves_to_the_programs_functions() {
    let src = r#"#include <penumbra.h>
int inc(int x) { return x + 1; }
int twice(int x) { return x * 2; }
int main(void) {
    long k;
    penumbra_make_symbolic(&k, sizeof k, "k");
    int (*fp)(int) = (int (*)(int))k;
    return fp(3);
}"#;
    let s = explore(src);
    let mut got = outcomes(&s.tests, "k");
    got.sort_by_key(|(_, _, k)| *k);
    let expected: Vec<(String, String, i64)> = vec![
        ("error".into(), "call through a null function pointer".into(), 0),
        ("path".into(), "exit 4".into(), 0x1000),
        ("path".into(), "exit 6".into(), 0x1010),
        ("error".into(), "call of 'main' through a pointer with 1 arguments; it takes 0".into(), 0x1020),
    ];
    assert_eq!(got, expected);
}

/// A pointer that may be into a freed block or a live one: a use after free for the first,
/// a path for the second.
#[test]
fn a_pointer_into_a_freed_or_a_live_block_forks_per_block() {
    let src = r#"#include <penumbra.h>
#include <stdlib.h>
int main(void) {
    int c;
    penumbra_make_symbolic(&c, sizeof c, "c");
    int *a = malloc(4), *b = malloc(4);
    *a = 1;
    *b = 2;
    free(a);
    int *p = c == 7 ? a : b;
    return *p;
}"#;
    let s = explore(src);
    let got = outcomes(&s.tests, "c");
    assert_eq!(got.len(), 2, "{got:#?}");
    assert!(got.iter().any(|(kind, what, c)| kind == "path" && what == "exit 2" && *c != 7), "{got:#?}");
    assert!(
        got.iter().any(|(kind, what, c)| kind == "error"
            && what.starts_with("read of 4 bytes at offset 0 of freed heap object")
            && *c == 7),
        "{got:#?}"
    );
}

/// A pointer advanced by a comparison's result, without a branch (expr's `nextarg`:
/// `args += STREQ (*args, str)`), is one address on each path that decided the comparison:
/// each access through it is taken at that address (counted), not resolved as a term.
#[test]
fn a_pointer_advanced_by_a_decided_comparison_is_one_address() {
    let src = r#"#include <penumbra.h>
static const char *const words[3] = {"+", "7", 0};
int main(void) {
    char op;
    penumbra_make_symbolic(&op, sizeof op, "op");
    const char *const *args = words;
    args += (op == '+');
    if (op == '+')
        return **args - '0';
    return **args == '+' ? 2 : 3;
}"#;
    let s = explore(src);
    let mut got = outcomes(&s.tests, "op");
    got.sort_by_key(|(_, what, _)| what.clone());
    assert_eq!(got.len(), 2, "{got:#?}");
    assert_eq!(got[0].1, "exit 2", "{got:#?}");
    assert_ne!(got[0].2, i64::from(b'+'), "{got:#?}");
    assert_eq!((got[1].1.as_str(), got[1].2), ("exit 7", i64::from(b'+')), "{got:#?}");
    // `*args` on each of the two paths (the string it holds is then a constant address).
    assert_eq!(s.fixed_addresses, 2);
}
