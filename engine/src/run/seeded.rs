//! Seeded shadow execution (Shadow, ICSE 2016): a concolic phase along each seed that queues
//! divergence points, then bounded symbolic execution (BSE) of the new version from each point.
//!
//! Many seeds reach the same divergences, and a point may be queued twice in different shapes:
//! a seed that diverges inside a multi-question instruction (a switch's chain of target
//! questions) goes on deciding the rest of that instruction before it is queued, while another
//! seed queues the same divergence off its own path right at the question. Since execution is
//! determined by its decisions, a state whose path condition extends another point's lies in
//! that point's BSE subtree; so points are kept only when no other point's path condition is a
//! prefix of theirs, and the paths the concolic phase ended (a divergence where the new version
//! fails ends at once; an error in both versions along a seed) are held back until every seed
//! has run and kept only when neither a kept point nor an earlier ending covers them. Each diff
//! path then has one test however many seeds lead to it.

use super::explore::{ExploreAll, Policy, Runner, Slab};
use crate::concrete::Inputs;
use crate::config::SearchKind;
use crate::run_error::RunError;
use crate::search;
use crate::symbolic::context::EndedPath;
use crate::symbolic::state::{EarlyReason, Ending, ExecutionState};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The concolic phase: states follow their seed; a state that diverged leaves the search for
/// the queue of divergence points, and the paths it ends are held back until every seed ran.
#[derive(Default)]
struct Concolic {
    points: Vec<ExecutionState>,
    held: Vec<EndedPath>,
}

impl Policy for Concolic {
    fn path_ended(&mut self, _: &mut Runner<'_, '_>, path: EndedPath) -> Result<(), RunError> {
        self.held.push(path);
        Ok(())
    }

    fn place(&mut self, runner: &mut Runner<'_, '_>, mut st: ExecutionState, new: bool) -> Option<ExecutionState> {
        if st.divergence.is_some() {
            st.seed = None;
            self.points.push(st);
            None
        } else if new {
            // Off the seed's path without a divergence: not explored.
            runner.ctx.stats.dropped += 1;
            None
        } else {
            Some(st)
        }
    }
}

/// The points no other point covers, and the endings no point and no earlier ending covers,
/// each in the order they were found (which keeps the run deterministic). A point covers
/// another when its path condition is a prefix of the other's; of two equal ones the first
/// found stays.
fn distinct(points: Vec<ExecutionState>, endings: Vec<EndedPath>) -> (Vec<ExecutionState>, Vec<EndedPath>) {
    // Point i is covered by point j when j's path condition is a shorter prefix of i's, or
    // equal to it and j was found first.
    let keep: Vec<bool> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            !points
                .iter()
                .enumerate()
                .any(|(j, q)| j != i && p.pc.starts_with(&q.pc) && (q.pc.len() < p.pc.len() || j < i))
        })
        .collect();
    let points: Vec<ExecutionState> = points.into_iter().zip(keep).filter_map(|(p, k)| k.then_some(p)).collect();
    let mut kept: Vec<EndedPath> = Vec::new();
    for e in endings {
        if points.iter().any(|p| e.st.pc.starts_with(&p.pc)) || kept.iter().any(|k| k.st.pc == e.st.pc) {
            continue;
        }
        kept.push(e);
    }
    (points, kept)
}

/// Seeded shadow execution. Phase 1 follows each seed concolically: where the seed's own path
/// diverges, or a divergence off it is feasible, the diverged state is queued. Phase 2 explores
/// the new version from each distinct queued point breadth-first, each within an even share of
/// what is left of `bse_budget`; when a share runs out, the point's remaining states end early
/// with a test each, so every queued divergence yields at least one test and none yields two
/// for the same path. Returns whether a point's share ran out with work left.
pub(crate) fn run_seeded(
    runner: &mut Runner<'_, '_>,
    slab: &mut Slab,
    initial: Vec<ExecutionState>,
    seeds: &[Inputs],
    bse_budget: Duration,
) -> Result<bool, RunError> {
    let mut concolic = Concolic::default();
    for seed in seeds {
        let seed = Rc::new(seed.clone());
        let states: Vec<ExecutionState> = initial
            .iter()
            .cloned()
            .map(|mut st| {
                st.seed = Some(seed.clone());
                st
            })
            .collect();
        runner.ctx.stats.states += states.len() as u64;
        let mut dfs = search::make(SearchKind::Dfs, 0);
        runner.explore(slab, &mut *dfs, states, &mut concolic)?;
        // A seed whose path did not end (a budget) leaves its state behind: drop it.
        runner.ctx.stats.dropped += slab.drain().len() as u64;
    }
    let (points, endings) = distinct(concolic.points, concolic.held);
    for e in endings {
        runner.record(e)?;
    }
    runner.ctx.stats.divergence_points = points.len() as u64;
    let mut budget_hit = false;
    let bse_start = Instant::now();
    let count = points.len();
    for (i, point) in points.into_iter().enumerate() {
        let left = bse_budget.saturating_sub(bse_start.elapsed());
        let share = left / (count - i) as u32;
        let phase_end = Instant::now() + share;
        runner.budget.phase_deadline = Some(phase_end);
        let run_deadline = runner.budget.run_deadline();
        runner.ctx.solver.set_deadline(Some(run_deadline.map_or(phase_end, |run| run.min(phase_end))));
        let mut bfs = search::make(SearchKind::Bfs, runner.ctx.config.random_seed);
        let cut_before = runner.ctx.solver.stats().core_deadline;
        runner.explore(slab, &mut *bfs, vec![point], &mut ExploreAll)?;
        runner.budget.phase_deadline = None;
        runner.ctx.solver.set_deadline(run_deadline);
        // A query the point's share cut short lost part of its subtree.
        if runner.ctx.solver.stats().core_deadline > cut_before && runner.budget.stop.is_none() {
            budget_hit = true;
        }
        if runner.budget.stop.is_some() {
            break;
        }
        let left_over = slab.drain();
        budget_hit |= !left_over.is_empty();
        for st in left_over {
            runner.end(&mut ExploreAll, EndedPath { st, ending: Ending::Early(EarlyReason::BseBudget) })?;
        }
    }
    Ok(budget_hit)
}
