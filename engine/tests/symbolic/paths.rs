//! Exact path counts on programs whose counts follow from their branches, each checked
//! against brute force where the input domain is small: the program prints one character per
//! decision, so the number of distinct outputs over all inputs (run concretely) is the number
//! of feasible paths, and every test's replay must print a different trace.

use super::support::*;
use penumbra_engine::concrete::{Inputs, Program, RunConfig};
use std::collections::BTreeSet;

/// The distinct stdout traces of `src` over every value of its single `n`-byte input `name`.
fn brute_force_traces(src: &str, n: usize) -> BTreeSet<Vec<u8>> {
    let module = compile(src);
    let program = Program::new(&module).expect("loadable");
    let mut traces = BTreeSet::new();
    for v in 0u64..(1u64 << (8 * n)) {
        let bytes = v.to_le_bytes()[..n].to_vec();
        let config = RunConfig { inputs: Inputs::Ordered(vec![bytes]), ..RunConfig::default() };
        traces.insert(program.run(&config).stdout);
    }
    traces
}

/// The traces of the tests' replays (one per test).
fn replay_traces(src: &str, summary: &penumbra_engine::RunSummary) -> Vec<Vec<u8>> {
    let module = compile(src);
    let program = Program::new(&module).expect("loadable");
    summary
        .tests
        .iter()
        .map(|t| {
            let objects = t.inputs.0.iter().map(|i| i.bytes.clone()).collect();
            program.run(&RunConfig { inputs: Inputs::Ordered(objects), ..RunConfig::default() }).stdout
        })
        .collect()
}

/// Explores `src`, checks the path count, and (for small inputs) that the tests cover exactly
/// the traces brute force finds.
fn check_paths(src: &str, expected: u64, brute_bytes: Option<usize>) {
    let s = explore(src);
    assert_eq!(s.paths_completed + s.errors, expected, "paths of\n{src}\nsummary: {}", s.human());
    if let Some(n) = brute_bytes {
        let brute = brute_force_traces(src, n);
        let mut replayed = replay_traces(src, &s);
        let count = replayed.len();
        replayed.sort();
        replayed.dedup();
        assert_eq!(replayed.len(), count, "two tests follow the same path");
        assert_eq!(replayed.into_iter().collect::<BTreeSet<_>>(), brute, "tests vs brute force");
        assert_eq!(brute.len() as u64, expected);
    }
}

const RANGE_LOOP_2: &str = r#"#include <penumbra.h>
#include <stdio.h>
int main(void) {
    char b[2];
    penumbra_make_symbolic(b, sizeof b, "b");
    int n = 0;
    for (int i = 0; i < 2; i++) {
        if (b[i] >= 'a' && b[i] <= 'z') { n++; putchar('='); }
        else if (b[i] < 'a') putchar('<');
        else putchar('>');
    }
    return n;
}"#;

#[test]
fn range_loop_over_two_bytes_has_nine_paths() {
    check_paths(RANGE_LOOP_2, 9, Some(2));
}

#[test]
fn range_loop_over_four_bytes_has_81_paths() {
    let src = r#"#include <penumbra.h>
int main(void) {
    char b[4];
    penumbra_make_symbolic(b, sizeof b, "b");
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (b[i] >= 'a' && b[i] <= 'z') n++;
    return n;
}"#;
    check_paths(src, 81, None);
}

#[test]
fn counting_equal_bytes_in_a_loop_has_two_to_the_n_paths() {
    let src = r#"#include <penumbra.h>
#include <stdio.h>
int main(void) {
    unsigned char b[2];
    penumbra_make_symbolic(b, sizeof b, "b");
    int n = 0;
    for (int i = 0; i < 2; i++) { if (b[i] == 'x') { n++; putchar('x'); } else putchar('.'); }
    return n;
}"#;
    check_paths(src, 4, Some(2));
}

#[test]
fn switch_forks_once_per_distinct_target() {
    let src = r#"#include <penumbra.h>
#include <stdio.h>
int main(void) {
    unsigned char c;
    penumbra_make_symbolic(&c, 1, "c");
    switch (c) {
    case 'a': case 'b': case 'c': putchar('1'); return 1;
    case 'x': putchar('2'); return 2;
    case 'y': putchar('3'); return 3;
    case 0: putchar('0'); return 4;
    default: putchar('d'); return 0;
    }
}"#;
    check_paths(src, 5, Some(1));
}

#[test]
fn recursion_depth_follows_the_input() {
    let src = r#"#include <penumbra.h>
#include <stdio.h>
static int depth(int n) { if (n <= 0) return 0; putchar('r'); return 1 + depth(n - 1); }
int main(void) {
    signed char n;
    penumbra_make_symbolic(&n, 1, "n");
    if (n > 6) { putchar('x'); return 9; }
    return depth(n);
}"#;
    // n <= 0, n = 1..6, n > 6
    check_paths(src, 8, Some(1));
}

#[test]
fn string_parsing_with_strcmp_and_strlen() {
    let src = r#"#include <penumbra.h>
#include <string.h>
int main(void) {
    char s[4];
    penumbra_make_symbolic(s, sizeof s, "s");
    s[3] = 0;
    if (strcmp(s, "ab") == 0) return 1;
    return 0;
}"#;
    // strcmp differs at byte 0, 1 or 2, or the strings are equal
    check_paths(src, 4, None);
    let src = r#"#include <penumbra.h>
#include <string.h>
int main(void) {
    char s[5];
    penumbra_make_symbolic(s, sizeof s, "s");
    s[4] = 0;
    return (int)strlen(s);
}"#;
    let s = explore(src);
    assert_eq!(s.paths_completed, 5);
    let mut codes: Vec<i32> = s.tests.iter().map(|t| t.exit_code.unwrap()).collect();
    codes.sort();
    assert_eq!(codes, vec![0, 1, 2, 3, 4]);
}

#[test]
fn parsing_digits_with_isdigit() {
    let src = r#"#include <penumbra.h>
#include <ctype.h>
#include <stdio.h>
int main(void) {
    char s[2];
    penumbra_make_symbolic(s, sizeof s, "s");
    int v = 0;
    for (int i = 0; i < 2 && isdigit(s[i]); i++) { v = v * 10 + (s[i] - '0'); putchar('d'); }
    return v;
}"#;
    // no digit, one digit then a non-digit, two digits
    check_paths(src, 3, Some(2));
}

#[test]
fn pointer_chasing_through_a_table() {
    let src = r#"#include <penumbra.h>
#include <stdio.h>
struct node { int val; int next; };
static struct node list[3] = {{10, 1}, {20, 2}, {30, -1}};
int main(void) {
    unsigned char k;
    penumbra_make_symbolic(&k, 1, "k");
    int i = k % 3, sum = 0;
    while (i >= 0) { sum += list[i].val; putchar('0' + i); i = list[i].next; }
    return sum;
}"#;
    check_paths(src, 3, Some(1));
}

#[test]
fn pointer_chasing_through_a_heap_list() {
    let src = r#"#include <penumbra.h>
#include <stdlib.h>
#include <stdio.h>
struct node { signed char val; struct node *next; };
int main(void) {
    signed char v[3];
    penumbra_make_symbolic(v, sizeof v, "v");
    struct node *head = 0;
    for (int i = 0; i < 3; i++) {
        struct node *n = malloc(sizeof *n);
        n->val = v[i];
        n->next = head;
        head = n;
    }
    int pos = 0;
    for (struct node *p = head; p; p = p->next) { if (p->val > 0) { pos++; putchar('+'); } else putchar('-'); }
    while (head) { struct node *n = head->next; free(head); head = n; }
    return pos;
}"#;
    check_paths(src, 8, None);
}

#[test]
fn ctype_classes_fork_only_where_the_program_branches() {
    let src = r#"#include <penumbra.h>
#include <ctype.h>
#include <stdio.h>
int main(void) {
    unsigned char c;
    penumbra_make_symbolic(&c, 1, "c");
    if (isalpha(c)) {
        if (isupper(c)) putchar('U');
        else putchar('l');
    } else if (isdigit(c)) putchar('d');
    else if (isspace(c)) putchar('s');
    else if (ispunct(c)) putchar('p');
    if (tolower(c) == 'k') putchar('k');
    else putchar('.');
    return 0;
}"#;
    // upper (K or not), lower (k or not), digit, space, punct, other
    check_paths(src, 8, Some(1));
}
