//! Target 3, complete shadow execution vs. the brute-force oracle: a random unified IR program
//! over a small input domain ([`crate::shadowgen`]) is run by the engine in complete shadow
//! mode, and the oracle ([`crate::oracle`]) runs both versions concretely on every input of the
//! domain. Every divergence the engine reports must reproduce on its input (at the reported
//! line, with the reported sides, ending as the new version ends), no other test's input may
//! diverge, and the engine's tests must cover each of the oracle's diff paths exactly once
//! (none missed). The comparison is [`crate::compare::check_summary`], the one the engine's
//! hand-written shadow programs are checked with.
//!
//! Then seeded mode runs on the same program from one to three random inputs of the domain as
//! seeds ([`crate::compare::check_seeded`]): every test it writes must hold as in complete
//! mode, and the diff path of each seed that diverges must be among them.
//!
//! Seeded mode runs again with no BSE time: every test must still hold, and each seed whose
//! new version fails at its divergence (a path the concolic phase ends itself) must still have
//! its test. Last, complete mode runs again under budgets that cut it short: one to three states alive
//! at once, and half the time a millisecond per solver check (with every query going to
//! Bitwuzla, some answer unknown): whatever such a run explores, each test it writes must be what it claims
//! ([`crate::compare::check_budgeted`]).

use crate::compare::{
    budgeted_config, check_budgeted, check_seeded, check_summary, complete_config, report, seeded_config,
    seeded_config_within, show,
};
use crate::oracle::{Expected, Oracle, Point, Site, Verdict};
use crate::shadowgen::random_shadow_program;
use crate::source::Source;
use penumbra_engine::SearchKind;
use std::time::Duration;

/// The fuzz target (see the module documentation). `Ok` says where the program diverges.
pub fn check(data: &[u8]) -> Result<&'static str, String> {
    let mut u = arbitrary::Unstructured::new(data);
    // Every search strategy must find the same diff paths; depth-first is the default.
    let search = *u.pick(&[SearchKind::Dfs, SearchKind::Dfs, SearchKind::Bfs, SearchKind::RandomPath]);
    let seed = u.below(1 << 16);
    let program = random_shadow_program(&mut u);
    let module = &program.module;
    let listing = || penumbra_ir::module_to_string(module);
    let oracle = Oracle::new(module, &program.vars);
    let expected = oracle.explore();
    let summary = penumbra_engine::run(module, &complete_config(search, seed))
        .map_err(|e| format!("the engine failed: {e}\nprogram:\n{}", listing()))?;
    let problems = check_summary(&oracle, &expected, &summary);
    if !problems.is_empty() {
        return Err(format!(
            "complete shadow execution ({} search) disagrees with the oracle on the domain {:?}:\n{}\nprogram:\n{}",
            search.name(),
            program.vars,
            report(&problems, Some(&summary)),
            listing()
        ));
    }
    let seeds: Vec<Point> = (0..u.int_in_range(1..=3).unwrap_or(1))
        .map(|_| program.vars.iter().map(|v| u.int_in_range(v.lo..=v.hi).unwrap_or(v.lo)).collect())
        .collect();
    let seeded = penumbra_engine::run(module, &seeded_config(&program.vars, &seeds))
        .map_err(|e| format!("the engine failed in seeded mode: {e}\nprogram:\n{}", listing()))?;
    let problems = check_seeded(&oracle, &seeded, &seeds);
    if !problems.is_empty() {
        let shown: Vec<String> = seeds.iter().map(|p| format!("[{}]", show(&program.vars, p))).collect();
        return Err(format!(
            "seeded shadow execution from {} disagrees with the oracle on the domain {:?}:\n{}\nprogram:\n{}",
            shown.join(" "),
            program.vars,
            report(&problems, Some(&seeded)),
            listing()
        ));
    }
    // The concolic phase alone (no BSE time): what the seeds confirmed must still be there.
    let concolic = penumbra_engine::run(module, &seeded_config_within(&program.vars, &seeds, Duration::ZERO))
        .map_err(|e| format!("the engine failed in seeded mode without BSE: {e}\nprogram:\n{}", listing()))?;
    let problems = check_seeded(&oracle, &concolic, &seeds);
    if !problems.is_empty() {
        let shown: Vec<String> = seeds.iter().map(|p| format!("[{}]", show(&program.vars, p))).collect();
        return Err(format!(
            "seeded shadow execution without BSE time from {} disagrees with the oracle on the domain {:?}:\n{}\nprogram:\n{}",
            shown.join(" "),
            program.vars,
            report(&problems, Some(&concolic)),
            listing()
        ));
    }
    let (max_states, starved) = (1 + u.below(3) as usize, u.chance(50));
    let budgeted = penumbra_engine::run(module, &budgeted_config(search, seed, max_states, starved))
        .map_err(|e| format!("the engine failed under budgets: {e}\nprogram:\n{}", listing()))?;
    let problems = check_budgeted(&oracle, &budgeted);
    if !problems.is_empty() {
        return Err(format!(
            "complete shadow execution with at most {max_states} states{} claims what is not so on the domain {:?}:\n{}\nprogram:\n{}",
            if starved { " and 1 ms solver checks" } else { "" },
            program.vars,
            report(&problems, Some(&budgeted)),
            listing()
        ));
    }
    Ok(divergence_class(&oracle, &expected))
}

/// What kind of place the program's divergences are at, the rarest kind when there are several
/// (so that the test suite can require each kind to occur): `check` (a check failing in one
/// version only), `switch`, `branch`, or `same` when the versions never diverge.
fn divergence_class(oracle: &Oracle, expected: &Expected) -> &'static str {
    let kind = |points: &Vec<Point>| match oracle.verdict(&points[0]) {
        Verdict::Diverges(d) => match d.site {
            Site::Block { .. } => 5,
            Site::Output { .. } | Site::Printed => 4,
            Site::Check { .. } => 3,
            Site::Switch { .. } => 2,
            Site::Branch { .. } => 1,
        },
        _ => unreachable!("a diff path's inputs diverge"),
    };
    match expected.paths.values().map(kind).max() {
        Some(5) => "diverges in an execute block",
        Some(4) => "diverges in output",
        Some(3) => "diverges at a check",
        Some(2) => "diverges at a switch",
        Some(_) => "diverges at a branch",
        None => "same",
    }
}
