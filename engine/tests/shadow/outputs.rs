//! Divergences that show only in output (issue 14): a printed number or an exit status whose
//! versions differ is a divergence, with the test's own values as its sides.

use super::compare::{compile, engine};
use crate::symbolic::support::line_of;

/// `(x, line, old, new, exit status)` of each divergence test.
fn divergences(name: &str, source: &str) -> Vec<(i32, u32, String, String, Option<i32>)> {
    let module = compile(name, source);
    let summary = engine(&module).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out: Vec<_> = summary
        .tests
        .iter()
        .filter(|t| t.kind == "divergence")
        .map(|t| {
            let bytes = &t.inputs.0.iter().find(|i| i.name == "x").expect("x").bytes;
            let x = i32::from_le_bytes(bytes[..4].try_into().unwrap());
            let side = |s: &Option<String>| s.clone().unwrap_or_default();
            (x, t.line.unwrap_or(0), side(&t.old), side(&t.new), t.exit_code)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_printed_number_and_an_exit_status_that_differ_are_divergences() {
    let src = include_str!("programs/output_printf.c");
    let (printf, status) = (line_of(src, "/* the printf */"), line_of(src, "/* the status */"));
    assert_eq!(
        divergences("output_printf", src),
        [
            (7, printf, "value 14".into(), "value 15".into(), Some(0)),
            (42, status, "value 0".into(), "value 1".into(), Some(1)),
        ]
    );
}

/// The divergence a constructor's value moves: at x == 5, where `limit` is after the
/// constructor, not at x == 0.
#[test]
fn a_constructor_runs_before_main() {
    let src = include_str!("programs/ctor_limit.c");
    let compare = line_of(src, "/* the comparison */");
    assert_eq!(divergences("ctor_limit", src), [(5, compare, "false".into(), "true".into(), Some(1))]);
}

/// The destructor's output differs at total == 3 (x = 3), after main returned.
#[test]
fn a_destructor_runs_at_exit_and_its_output_is_compared() {
    let src = include_str!("programs/exit_handlers.c");
    let line = line_of(src, "/* the destructor's output */");
    assert_eq!(divergences("exit_handlers", src), [(3, line, "value 3".into(), "value 4".into(), Some(0))]);
}

/// A printed text whose versions can differ is a divergence, where it is printed (`puts`,
/// `fputs`, `%s`); bytes after the text's end in both versions are not printed, so they never
/// make one, and a text one version ends earlier than the other differs.
#[test]
fn a_printed_text_that_differs_is_a_divergence() {
    let src = r#"#include <stdio.h>
#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_assume(x >= 0 && x <= 9);
    char word[4] = {'a', 'b', 0, 0};
    word[1] = change('b', x == 3 ? 'c' : 'b');
    char after[4] = {'a', 0, 0, 0};
    after[2] = change('x', 'y');
    char longer[4] = {'a', 0, 0, 0};
    longer[1] = change(0, x == 5 ? 'z' : 0);
    puts(word); /* the word */
    printf("[%s]\n", after);
    fputs(longer, stdout); /* the longer */
    return 0;
}"#;
    let (word, longer) = (line_of(src, "/* the word */"), line_of(src, "/* the longer */"));
    assert_eq!(
        divergences("output_text", src),
        [(3, word, "text".into(), "text".into(), Some(0)), (5, longer, "text".into(), "text".into(), Some(0))]
    );
}
