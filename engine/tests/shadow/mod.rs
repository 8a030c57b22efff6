//! Complete shadow execution checked exhaustively against a brute-force oracle.
//!
//! Each program in `programs/` is a small unified C program (old and new version merged with
//! `change(old, new)`) whose inputs `penumbra_assume` confines to a small domain. The oracle
//! ([`oracle`]) runs both versions concretely on every input of the domain with branch traces
//! and derives the diff paths complete mode must find; [`compare`] runs the engine and checks
//! its count, each of its tests, and that its tests cover every expected diff path exactly
//! once; seeded mode started from every input of the domain must find exactly the same diff
//! paths. [`suite`] does the same for the benchmark suite (`benches/suite`) and checks its
//! manifest's expected counts. [`musl`] runs both with musl as the C library (`--libc musl`)
//! against the same oracle (a fixed subset: the programs whose divergences are printed values
//! are left out). [`sanity`] pins the oracle itself to hand-computed answers, and
//! [`trace`] tests the concrete interpreter's traces the oracle is built on.
//!
//! The programs cover every annotation pattern of the shadow papers (see each file's header),
//! `penumbra_execute` blocks (ShadowJPF+: a block runs against one version's state without an
//! immediate divergence; [`execute`] pins their results by hand too), `change` operands with
//! effects and errors of their own version ([`operands`]), and divergences that show only in
//! output.

mod block_output;
mod compare;
mod execute;
mod musl;
mod operands;
mod oracle;
mod outputs;
mod sanity;
mod site_tests;
mod suite;
mod trace;

use oracle::{char, int, Var};

/// One `#[test]` per program: `name: [variables];` compares `programs/name.c` on that domain.
macro_rules! programs {
    ($($(#[$attr:meta])* $name:ident: [$($var:expr),* $(,)?];)*) => {
        $(
            $(#[$attr])*
            #[test]
            fn $name() {
                let vars: &[Var] = &[$($var),*];
                compare::assert_agrees(stringify!($name), include_str!(concat!("programs/", stringify!($name), ".c")), vars);
            }
        )*
        /// Every program of the suite with its domain (for tests over all of them).
        #[allow(dead_code)]
        pub fn all() -> Vec<(&'static str, &'static str, Vec<Var>)> {
            vec![$((stringify!($name), include_str!(concat!("programs/", stringify!($name), ".c")), vec![$($var),*])),*]
        }
    };
}

programs! {
    // Changed values and conditions (patterns 1-3).
    rvalue_scale: [int("x", -8, 8)];
    threshold: [int("x", -8, 8)];
    abs_mutant: [int("x", -8, 8)];
    two_changes: [int("x", -1, 8)];
    weaken_or: [int("x", -8, 8)];
    strengthen_and: [int("x", -8, 8)];
    or_to_b: [int("x", -5, 5), int("y", -5, 5)];
    and_to_b: [int("x", -4, 4), int("y", -4, 4)];
    digit_char: [char("c", 46, 60)];
    int_types: [int("x", -3, 3), int("w", 0, 2)];
    // Added and removed assignments and code (patterns 4-5).
    added_assign: [int("x", -6, 6)];
    removed_assign: [int("x", -3, 3), int("y", -3, 3)];
    added_cond_code: [int("x", -8, 8)];
    removed_cond_code: [int("x", -8, 8)];
    added_block: [int("x", -4, 4)];
    removed_block: [int("x", 0, 6)];
    struct_field: [int("n", 0, 4), int("reject", 0, 1)];
    shadow_memory: [int("x", -2, 4)];
    // Loops.
    loop_bound: [int("n", -2, 6)];
    loop_step: [int("n", 0, 7)];
    nested_break: [int("rows", 0, 3), int("limit", 0, 3)];
    do_while: [int("seed", 0, 9)];
    many_paths: [int("bits", 0, 31)];
    // Array sizes, pointers and memory errors.
    offbyone: [int("n", -2, 6)];
    array_table: [int("i", -1, 7)];
    stack_array: [int("count", 0, 6), int("v", 0, 1)];
    malloc_size: [int("i", -1, 7)];
    alloc_symbolic: [int("a", 0, 4), int("b", 0, 4)];
    grow_buffer: [int("n", 0, 20)];
    grow_shift: [int("n", 0, 40)];
    calloc_symbolic: [int("k", 0, 4), int("i", 0, 5)];
    realloc_symbolic: [int("n", 1, 6)];
    vla_symbolic: [int("n", 0, 5)];
    heap_index: [int("k", 0, 4), int("v", 0, 2)];
    vla_size: [int("n", 1, 4), int("last", 0, 1)];
    pointer_arith: [int("x", -3, 3), int("y", -3, 3)];
    pointer_write: [int("at", 0, 3), int("x", -2, 2)];
    pointer_walk: [int("start", 0, 5)];
    pointer_compare: [int("start", 0, 4), int("neg", 0, 4)];
    pointer_pick: [int("i", -1, 5)];
    pointer_choice: [int("x", 45, 66)];
    // Errors in one version (divergences) and in both (not).
    foo_assert: [int("x", -8, 8)];
    assert_fix: [int("x", -6, 6)];
    div_zero: [int("x", -4, 4)];
    both_error: [int("x", -6, 6)];
    shift_range: [int("s", 28, 33)];
    div_overflow: [int("x", -2, 2), int("d", -1, 1)];
    div_zero_or_overflow: [int("x", -2, 2), int("d", -1, 1)];
    // Switches.
    switch_selector: [int("x", -5, 5)];
    switch_mapping: [int("code", -1, 6), int("attempts", 0, 2)];
    switch_fallthrough: [int("op", -1, 4), int("v", 0, 3)];
    switch_loop: [int("bits", 0, 15)];
    switch_default: [int("x", 0, 8)];
    // Interacting changes.
    interaction_and: [int("x", -4, 4), int("y", -4, 4)];
    interaction_cancel: [int("x", -4, 4)];
    interaction_seq: [int("n", 0, 3)];
    // No divergence at all, and one in output only.
    refactor: [int("x", -8, 8)];
    output_only: [int("x", -3, 3)];
    // penumbra_execute blocks, and change() operands that are blocks.
    execute_new: [int("x", -3, 3)];
    execute_old: [int("x", 0, 4)];
    execute_return: [int("x", -2, 2)];
    execute_exit: [int("x", -3, 3)];
    execute_free: [int("x", 0, 3)];
    operand_deref: [int("k", -1, 1)];
    operand_effect: [int("x", 0, 3)];
    // Constructors, atexit handlers and destructors.
    ctor_limit: [int("x", 0, 9)];
    exit_handlers: [int("x", 0, 5)];
    // Calls and recursion.
    call_arg: [int("x", -5, 5)];
    callee_return: [int("x", -3, 3), int("y", 0, 2)];
    recursion_gcd: [int("a", 0, 6), int("b", 0, 6)];
    recursion_sum: [int("n", 0, 6)];
    wbs_update: [int("pedal", 0, 4), int("autobrake", 0, 1)];
}

/// The diff paths of a complete run do not depend on the search order: breadth-first and
/// random-path search must agree with the oracle on every program as depth-first does (one
/// test over the whole suite, listing every program that disagrees).
#[test]
fn every_search_finds_the_same_diff_paths() {
    use penumbra_engine::SearchKind;
    let mut failures = Vec::new();
    for (name, source, vars) in all() {
        let module = compare::compile(name, source);
        let oracle = oracle::Oracle::new(&module, &vars);
        let expected = oracle.explore();
        for search in [SearchKind::Bfs, SearchKind::RandomPath, SearchKind::PatchDirected, SearchKind::Interleaved] {
            match compare::engine_with(&module, search) {
                Ok(summary) => {
                    let problems = compare::check_summary(&oracle, &expected, &summary);
                    if !problems.is_empty() {
                        failures.push(format!("{name} ({}):\n  {}", search.name(), problems.join("\n  ")));
                    }
                }
                Err(e) => failures.push(format!("{name} ({}): the engine failed: {e}", search.name())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Seeded mode started from every input of the domain as a seed finds exactly complete mode's
/// diff paths: each diverging seed queues its divergence, bounded symbolic execution from
/// there covers the seed's own diff path, and seeds that share a divergence count it once.
/// Each test is checked against the oracle as in complete mode.
#[test]
fn seeded_mode_from_every_input_finds_exactly_the_diff_paths_of_complete_mode() {
    let mut failures = Vec::new();
    for (name, source, vars) in all() {
        let module = compare::compile(name, source);
        let oracle = oracle::Oracle::new(&module, &vars);
        let expected = oracle.explore();
        let seeds = oracle::points(&vars);
        match penumbra_engine::run(&module, &compare::seeded_config(&vars, &seeds)) {
            Ok(summary) => {
                let mut problems = compare::check_seeded(&oracle, &summary, &seeds);
                let (complete, seeded) = (expected.diff_paths() as u64, summary.diff_paths);
                if seeded != complete {
                    problems.push(format!("diff_paths: complete mode {complete}, seeded {seeded}"));
                }
                if !problems.is_empty() {
                    failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
                }
            }
            Err(e) => failures.push(format!("{name}: the engine failed: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
