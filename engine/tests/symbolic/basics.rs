//! The engine on small programs: concrete runs, simple forks, exit codes.

use super::support::*;

#[test]
fn a_concrete_program_runs_to_its_exit_code() {
    let s = explore("int main(void) { int x = 0; for (int i = 0; i < 10; i++) x += i; return x - 42; }");
    assert_eq!((s.paths_completed, s.errors, s.tests.len()), (1, 0, 1));
    assert_eq!(s.tests[0].exit_code, Some(3));
    assert_eq!(s.solver.queries, 0);
}

#[test]
fn one_symbolic_branch_gives_two_paths() {
    let s = explore(
        r#"#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (x > 10) return 1;
    return 2;
}"#,
    );
    assert_eq!((s.paths_completed, s.errors), (2, 0));
    let mut codes: Vec<i32> = s.tests.iter().map(|t| t.exit_code.unwrap()).collect();
    codes.sort();
    assert_eq!(codes, vec![1, 2]);
    for t in &s.tests {
        let x = int_input(t, "x");
        assert_eq!(t.exit_code.unwrap(), if x > 10 { 1 } else { 2 });
    }
}

/// The symbolic engine lays out memory exactly as the concrete interpreter: a hash of many
/// addresses is the exit status, which the replay check compares.
#[test]
fn addresses_agree_with_the_concrete_interpreter() {
    let s = explore(
        r#"#include <stdio.h>
#include <errno.h>
#include <ctype.h>
#include <stdlib.h>
int g[3];
const char *str = "hi";
static int f(void) { return 1; }
int main(int argc, char **argv) {
    int local = argc;
    char vla[local + 3];
    unsigned long a[] = {(unsigned long)g, (unsigned long)str, (unsigned long)&errno, (unsigned long)stdin,
                         (unsigned long)stdout, (unsigned long)stderr, (unsigned long)*__ctype_b_loc(),
                         (unsigned long)*__ctype_toupper_loc(), (unsigned long)*__ctype_tolower_loc(),
                         (unsigned long)argv, (unsigned long)argv[0], (unsigned long)malloc(4),
                         (unsigned long)malloc(100), (unsigned long)&local, (unsigned long)vla,
                         (unsigned long)&f, (unsigned long)&main};
    unsigned long h = 0;
    for (unsigned i = 0; i < sizeof a / sizeof a[0]; i++) h = h * 1000003 + a[i];
    return (int)(h % 251);
}"#,
    );
    assert_eq!((s.paths_completed, s.errors), (1, 0), "{}", s.human());
}
