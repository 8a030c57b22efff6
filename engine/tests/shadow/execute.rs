//! `penumbra_execute(OLD)` / `penumbra_execute(NEW)` blocks under ShadowJPF+'s semantics: the
//! block runs against one version's state only, without an immediate divergence; the versions
//! diverge only where they later take different sides, or where one returns early inside
//! such a block.
//!
//! The trace oracle knows execute blocks (`programs!` in the parent module compares these
//! programs with it); the answers here are computed by hand, in each test's comment, so that
//! the oracle and the engine cannot drift together.

use super::compare::{compile, engine, seeded_config};
use super::oracle::{int, point_of, points, Point, Var};
use std::collections::BTreeSet;

/// The engine's diff-path count and the inputs of its divergence tests.
fn divergences(name: &str, source: &str, vars: &[Var]) -> (u64, BTreeSet<Point>) {
    let module = compile(name, source);
    let summary = engine(&module).unwrap_or_else(|e| panic!("{name}: {e}"));
    let inputs = summary
        .tests
        .iter()
        .filter(|t| t.kind == "divergence")
        .map(|t| {
            let named: Vec<_> = t.inputs.0.iter().map(|i| (i.name.clone(), i.bytes.clone())).collect();
            point_of(vars, &named).expect("every variable has a value")
        })
        .collect();
    (summary.diff_paths, inputs)
}

fn set(points: &[i64]) -> BTreeSet<Point> {
    points.iter().map(|&x| vec![x]).collect()
}

/// y = x, plus one in the new version for x > 0; then `y == 2`: old x = 2 against new x = 1.
/// Two diff paths, x = 1 (old false, new true) and x = 2 (old true, new false).
#[test]
fn execute_new_diverges_only_where_the_value_matters() {
    let got = divergences("execute_new", include_str!("programs/execute_new.c"), &[int("x", -3, 3)]);
    assert_eq!(got, (2, set(&[1, 2])));
}

/// The old version clamps y to 2: only x = 3 and 4 then differ at `y >= 3` (old false, new
/// true), one diff path (the clamp's `if` is the old state's decision, the same for both).
#[test]
fn execute_old_diverges_only_after_the_clamp() {
    let got = divergences("execute_old", include_str!("programs/execute_old.c"), &[int("x", 0, 4)]);
    assert_eq!((got.0, got.1.len()), (1, 1));
    assert!(got.1.is_subset(&set(&[3, 4])));
}

/// The new version returns early for x < 0 inside its block: one diff path (x = -2 or -1).
#[test]
fn execute_return_diverges_on_the_early_return() {
    let got = divergences("execute_return", include_str!("programs/execute_return.c"), &[int("x", -2, 2)]);
    assert_eq!(got.0, 1);
    assert!(got.1.is_subset(&set(&[-2, -1])) && got.1.len() == 1);
}

/// Both versions' sides may exit inside the block (a function kept whole for each version,
/// inlined): they still join where both return. x = -3 exits alike in both; x = -2 exits in
/// old only (divergence at the block); x = 1 returns 1 in old, 0 in new. Two diff paths, on
/// exactly those inputs. (When exits kept the sides from meeting, every path diverged at the
/// block: seven.)
#[test]
fn execute_sides_that_may_exit_still_join() {
    let got = divergences("execute_exit", include_str!("programs/execute_exit.c"), &[int("x", -3, 3)]);
    assert_eq!(got, (2, set(&[-2, 1])));
}

/// Both sides free the block they read: the new side still reads it live, so the only
/// divergence is x = 3 (old 3, new 4), and no path fails.
#[test]
fn execute_sides_that_both_free_a_block_do_not_fail() {
    let module = compile("execute_free", include_str!("programs/execute_free.c"));
    let summary = engine(&module).unwrap_or_else(|e| panic!("execute_free: {e}"));
    assert_eq!(summary.errors, 0, "{}", summary.human());
    let got = divergences("execute_free", include_str!("programs/execute_free.c"), &[int("x", 0, 3)]);
    assert_eq!(got, (1, set(&[3])));
}

/// Seeded mode from every input finds what complete mode finds on each execute program (the
/// counts above): the regions run the same way in the concolic phase.
#[test]
fn seeded_mode_from_every_input_agrees_on_execute_blocks() {
    for (name, source, vars, paths) in [
        ("execute_new", include_str!("programs/execute_new.c"), [int("x", -3, 3)], 2),
        ("execute_old", include_str!("programs/execute_old.c"), [int("x", 0, 4)], 1),
        ("execute_return", include_str!("programs/execute_return.c"), [int("x", -2, 2)], 1),
        ("execute_exit", include_str!("programs/execute_exit.c"), [int("x", -3, 3)], 2),
        ("execute_free", include_str!("programs/execute_free.c"), [int("x", 0, 3)], 1),
    ] {
        let module = compile(name, source);
        let seeds = points(&vars);
        let summary =
            penumbra_engine::run(&module, &seeded_config(&vars, &seeds)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((summary.diff_paths, summary.stopped_by.as_deref()), (paths, None), "{name}");
        assert_eq!(summary.tests.iter().filter(|t| t.kind == "divergence").count() as u64, paths, "{name}");
    }
}
