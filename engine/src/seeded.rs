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

use crate::concrete::Inputs;
use crate::executor::{DivergenceQueue, Executor, Slab};
use crate::run_error::RunError;
use crate::search;
use crate::state::{Ending, ExecutionState};
use penumbra_solver::{Model, TermId};
use std::time::{Duration, Instant};

/// A path the concolic phase ended, with what `end_path` needs to count it and write its test.
pub(crate) struct HeldEnding {
    pub st: ExecutionState,
    pub extra: Option<TermId>,
    pub model: Model,
    pub ending: Ending,
}

impl HeldEnding {
    /// The ending's whole path condition (the failed check's condition last, if any).
    fn path(&self) -> Vec<TermId> {
        self.st.pc.iter().copied().chain(self.extra).collect()
    }
}

/// Whether `prefix` is a prefix of (or equal to) `pc`.
fn extends(pc: &[TermId], prefix: &[TermId]) -> bool {
    pc.len() >= prefix.len() && pc[..prefix.len()] == *prefix
}

/// The points no other point covers, and the endings no point and no earlier ending covers,
/// each in the order they were found (which keeps the run deterministic). A point covers
/// another when its path condition is a prefix of the other's; of two equal ones the first
/// found stays.
fn distinct(points: DivergenceQueue, endings: Vec<HeldEnding>) -> (DivergenceQueue, Vec<HeldEnding>) {
    // Point i is covered by point j when j's path condition is a shorter prefix of i's, or
    // equal to it and j was found first.
    let keep: Vec<bool> = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            !points
                .iter()
                .enumerate()
                .any(|(j, q)| j != i && extends(&p.pc, &q.pc) && (q.pc.len() < p.pc.len() || j < i))
        })
        .collect();
    let points: DivergenceQueue = points.into_iter().zip(keep).filter_map(|(p, k)| k.then_some(p)).collect();
    let mut kept_paths: Vec<Vec<TermId>> = Vec::new();
    let mut kept = Vec::new();
    for e in endings {
        let path = e.path();
        if points.iter().any(|p| extends(&path, &p.pc)) || kept_paths.contains(&path) {
            continue;
        }
        kept_paths.push(path);
        kept.push(e);
    }
    (points, kept)
}

impl Executor<'_> {
    /// Seeded shadow execution. Phase 1 follows each seed concolically: where the seed's own
    /// path diverges, or a divergence off it is feasible, the diverged state is queued. Phase 2
    /// explores the new version from each distinct queued point breadth-first, each within an
    /// even share of what is left of `bse_budget`; when a share runs out, the point's remaining
    /// states end early with a test each, so every queued divergence yields at least one test
    /// and none yields two for the same path.
    pub(crate) fn run_seeded(
        &mut self,
        slab: &mut Slab,
        initial: Vec<ExecutionState>,
        seeds: &[Inputs],
        bse_budget: Duration,
    ) -> Result<(), RunError> {
        let mut queue = DivergenceQueue::new();
        self.held_endings = Some(Vec::new());
        for seed in seeds {
            self.seed_inputs = Some(seed.clone());
            let states: Vec<ExecutionState> = initial
                .iter()
                .cloned()
                .map(|mut st| {
                    st.concolic = true;
                    st
                })
                .collect();
            self.stats.states += states.len() as u64;
            let mut dfs = search::make(crate::config::SearchKind::Dfs, 0);
            self.explore(slab, &mut *dfs, states, Some(&mut queue))?;
            self.seed_inputs = None;
            // A seed whose path did not end (a budget) leaves its state behind: drop it.
            for st in slab.drain() {
                drop(st);
                self.stats.dropped += 1;
            }
        }
        let held = self.held_endings.take().unwrap_or_default();
        let (queue, endings) = distinct(queue, held);
        for e in endings {
            self.finish_path(&e.st, e.extra, &e.model, e.ending)?;
        }
        self.stats.divergence_points = queue.len() as u64;
        let bse_start = Instant::now();
        let points = queue.len();
        for (i, point) in queue.into_iter().enumerate() {
            let left = bse_budget.saturating_sub(bse_start.elapsed());
            let share = left / (points - i) as u32;
            let phase_end = Instant::now() + share;
            self.phase_deadline = Some(phase_end);
            self.solver.set_deadline(Some(self.run_deadline().map_or(phase_end, |run| run.min(phase_end))));
            let mut bfs = search::make(crate::config::SearchKind::Bfs, self.config.seed);
            let cut_before = self.solver.stats().core_deadline;
            self.explore(slab, &mut *bfs, vec![point], None)?;
            self.phase_deadline = None;
            self.solver.set_deadline(self.run_deadline());
            // A query the point's share cut short lost part of its subtree.
            if self.solver.stats().core_deadline > cut_before && self.stop.is_none() {
                self.bse_budget_hit = true;
            }
            if self.stop.is_some() {
                break;
            }
            let left_over = slab.drain();
            if !left_over.is_empty() {
                self.bse_budget_hit = true;
            }
            for st in left_over {
                let model = st.model.clone();
                self.end_path(&st, None, &model, Ending::Early("bse-budget"))?;
            }
        }
        Ok(())
    }
}
