//! Output written inside `penumbra_execute` blocks (`shadow::block_output`): each side's
//! output is recorded and the two are compared where the sides merge, so a block whose sides
//! print different texts diverges at the block, and one whose sides print the same does not.
//! The answers are computed by hand in each test's comment.

use super::compare::{compile, compile_with_musl, engine};
use crate::symbolic::support::line_of;
use penumbra_ir::Module;

/// `(first input's little-endian value, line, old, new)` of each divergence test, sorted,
/// with the diff-path count.
fn divergences(module: &Module) -> (u64, Vec<(i64, u32, String, String)>) {
    let summary = engine(module).unwrap_or_else(|e| panic!("{e}"));
    (summary.diff_paths, divergences_of(&summary))
}

/// `(first input's little-endian value, line, old, new)` of each divergence test of a run,
/// sorted.
fn divergences_of(summary: &penumbra_engine::RunSummary) -> Vec<(i64, u32, String, String)> {
    let mut out: Vec<_> = summary
        .tests
        .iter()
        .filter(|t| t.kind == "divergence")
        .map(|t| {
            let bytes = &t.inputs.0[0].bytes;
            let mut raw = [0u8; 8];
            raw[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
            let side = |s: &Option<String>| s.clone().unwrap_or_default();
            (i64::from_le_bytes(raw) as i32 as i64, t.line.unwrap_or(0), side(&t.old), side(&t.new))
        })
        .collect();
    out.sort();
    out
}

const LETTERS: &str = r#"#include <stdio.h>
#include <penumbra.h>
int main(void) {
    char w[4];
    penumbra_make_symbolic(w, sizeof w, "w");
    if (penumbra_execute(PENUMBRA_OLD)) { /* the block */
        if (w[0] == 'a') printf("A\n");
        else if (w[0] == 'b') printf("B\n");
        else printf("other\n");
    } else {
        if (w[0] == 'a') printf("A\n");
        else if (w[0] == 'b') printf("b!\n");
        else if (w[0] == 'q') printf("Q\n");
        else printf("other\n");
    }
    return 0;
}"#;

/// Old prints "B" where new prints "b!" (w[0] = 'b'), and "other" where new prints "Q"
/// (w[0] = 'q'); 'a' and every other letter print the same: two diff paths, at the block.
fn letters_expected() -> (u64, Vec<(i64, u32, String, String)>) {
    let line = line_of(LETTERS, "/* the block */");
    let printed = || "printed to stdout".to_string();
    (2, vec![(i64::from(b'b'), line, printed(), printed()), (i64::from(b'q'), line, printed(), printed())])
}

#[test]
fn sides_of_a_block_that_print_different_texts_diverge_at_the_block() {
    assert_eq!(divergences(&compile("block_letters", LETTERS)), letters_expected());
}

/// Under musl, `printf` is musl's code and the text reaches the `write` system call inside
/// each side (stdout is line-buffered: the models' `ioctl` says it is a terminal): the same
/// two diff paths.
#[test]
fn sides_of_a_block_that_write_different_texts_diverge_with_musl() {
    assert_eq!(divergences(&compile_with_musl("block_letters", LETTERS)), letters_expected());
}

/// Both sides print the same text, one in one `printf`, the other in three writes
/// (`printf`, `puts`, `putchar` to stdout; `fputs` to stderr): no divergence.
#[test]
fn sides_of_a_block_that_print_the_same_text_agree() {
    let src = r#"#include <stdio.h>
#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (penumbra_execute(PENUMBRA_NEW)) {
        printf("n=%d", x);
        puts(" done");
        putchar('!');
        fputs("e\n", stderr);
    } else {
        printf("n=%d done\n!", x);
        fprintf(stderr, "e\n");
    }
    return 0;
}"#;
    assert_eq!(divergences(&compile("block_same", src)), (0, vec![]));
}

/// `x` against `x + (x == 5)`, printed with `%d` in each side: the texts differ exactly at
/// x = 5 (old "5", new "6"), one diff path.
#[test]
fn a_symbolic_value_printed_in_both_sides_diverges_where_it_differs() {
    let src = r#"#include <stdio.h>
#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (penumbra_execute(PENUMBRA_OLD)) { /* the block */
        printf("%d\n", x);
    } else {
        printf("%d\n", x + (x == 5));
    }
    return 0;
}"#;
    let line = line_of(src, "/* the block */");
    let printed = "printed to stdout".to_string();
    assert_eq!(divergences(&compile("block_value", src)), (1, vec![(5, line, printed.clone(), printed)]));
}

/// Ordering: old prints "X" in its block then both print "Y"; new prints "Y" then "X" in a
/// second block. The first block's sides differ (old "X", new nothing): one diff path for
/// every input, at the first block, on stderr.
#[test]
fn output_moved_past_shared_output_diverges_at_the_first_block() {
    let src = r#"#include <stdio.h>
#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (penumbra_execute(PENUMBRA_OLD)) { /* the first block */
        fputs("X", stderr);
    }
    fputs("Y", stderr);
    if (penumbra_execute(PENUMBRA_NEW)) {
        fputs("X", stderr);
    }
    return 0;
}"#;
    let line = line_of(src, "/* the first block */");
    let (paths, tests) = divergences(&compile("block_order", src));
    let places: Vec<_> = tests.iter().map(|t| (t.1, t.2.as_str(), t.3.as_str())).collect();
    assert_eq!((paths, places), (1, vec![(line, "printed to stderr", "printed to stderr")]));
}

/// A program merged whole, `change(main_old(x), main_new(x))` (as unify writes it where it
/// cannot merge finer): each side ends the program. The exits are compared, status then
/// output, so only where the versions behave differently is there a divergence: x = 5 (old
/// prints "five", new "5!") and x = 200 (both print "big"; old exits 2, new 3). Every other
/// input agrees: no other diff path.
const WHOLE: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <penumbra.h>
static int main_old(int x) {
    if (x > 100) { puts("big"); exit(2); }
    puts(x == 5 ? "five" : "small");
    exit(0);
}
static int main_new(int x) {
    if (x > 100) { puts("big"); exit(x == 200 ? 3 : 2); }
    puts(x == 5 ? "5!" : "small");
    exit(0);
}
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    return change(main_old(x), main_new(x)); /* the block */
}"#;

fn whole_expected() -> (u64, Vec<(i64, u32, String, String)>) {
    let line = line_of(WHOLE, "/* the block */");
    let printed = || "printed to stdout".to_string();
    (2, vec![(5, line, printed(), printed()), (200, line, "value 2".into(), "value 3".into())])
}

#[test]
fn a_program_merged_whole_diverges_only_where_its_exits_differ() {
    assert_eq!(divergences(&compile("block_whole", WHOLE)), whole_expected());
}

/// The same under musl: each side's `exit` is musl's, which flushes stdout through `write`
/// before the `exit_group` system call.
#[test]
fn a_program_merged_whole_diverges_only_where_its_exits_differ_with_musl() {
    assert_eq!(divergences(&compile_with_musl("block_whole", WHOLE)), whole_expected());
}

/// The same program with each version's function `_Noreturn`, called from the two sides of an
/// `if`: the sides never meet again (the compiler ends each with `unreachable`) and neither
/// can return, so they are a block without a join, whose exits are compared as above.
#[test]
fn sides_that_never_meet_and_each_exit_are_compared_at_their_exits() {
    let src = WHOLE
        .replace("static int main_old", "static _Noreturn void main_old")
        .replace("static int main_new", "static _Noreturn void main_new")
        .replace(
            "return change(main_old(x), main_new(x)); /* the block */",
            "if (penumbra_execute(PENUMBRA_OLD)) main_old(x); /* the block */\n    else main_new(x);",
        );
    assert!(src.contains("_Noreturn void main_new") && src.contains("else main_new(x);"), "{src}");
    assert_eq!(divergences(&compile("block_whole_noreturn", &src)), whole_expected());
}

/// Seeded mode on the program merged whole: a seed's path goes on into the new version's side
/// after the old one exits (the same path, not a fork off it), so each seed that behaves
/// differently is its divergence: of x = 4, 5, 6 only 5; of x = 199, 200, 201 only 200.
#[test]
fn seeds_of_a_program_merged_whole_diverge_where_their_exits_differ() {
    use super::compare::seeded_config;
    use super::oracle::{int, points};
    let module = compile("block_whole_seeded", WHOLE);
    for (lo, hi, diverging) in [(4, 6, 5), (199, 201, 200)] {
        let vars = [int("x", lo, hi)];
        let summary =
            penumbra_engine::run(&module, &seeded_config(&vars, &points(&vars))).unwrap_or_else(|e| panic!("{e}"));
        let found: Vec<i64> = divergences_of(&summary).into_iter().map(|d| d.0).collect();
        assert_eq!((summary.diff_paths, found), (1, vec![diverging]), "seeds {lo}..={hi}");
    }
}

/// New prints "5!" for x = 5 where old, which never asks, prints "small".
const WHOLE_NEW_CASE: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <penumbra.h>
static int main_old(int x) {
    if (x > 100) { puts("big"); exit(2); }
    puts("small");
    exit(0);
}
static int main_new(int x) {
    if (x > 100) { puts("big"); exit(2); }
    puts(x == 5 ? "5!" : "small");
    exit(0);
}
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    return change(main_old(x), main_new(x)); /* the block */
}"#;

/// Seeded mode explores the new version's side from where each seed's old version exited, as
/// from a divergence (BSE): the seed x = 4 behaves alike in both, and its old path (x <= 100)
/// leaves x = 5 open, on which new prints "5!": found though no seed takes it. The seed x = 300
/// takes old's other side, where new behaves alike: nothing.
#[test]
fn seeds_of_a_program_merged_whole_explore_the_new_side_beside_their_old_path() {
    use super::compare::seeded_config;
    use super::oracle::int;
    let module = compile("block_whole_new_case", WHOLE_NEW_CASE);
    let line = line_of(WHOLE_NEW_CASE, "/* the block */");
    let printed = || "printed to stdout".to_string();
    for (seed, expected) in [(4, vec![(5, line, printed(), printed())]), (300, vec![])] {
        let vars = [int("x", i64::from(i32::MIN), i64::from(i32::MAX))];
        let summary =
            penumbra_engine::run(&module, &seeded_config(&vars, &[vec![seed]])).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(divergences_of(&summary), expected, "seed x = {seed}");
        assert_eq!(summary.divergence_points, 1, "the seed's new side is one point");
    }
}
