//! Seeds derived from seeds (`--derived-seeds N`): SAGE's generational search (Godefroid,
//! Levin and Molnar, NDSS 2008) over the part of a seed's path that bounded symbolic execution
//! cannot vary.
//!
//! A seed's path condition fixes every byte its path decided before a divergence point, so BSE
//! from the point cannot vary them: the first limitation of seeded shadow execution
//! (`background.md`). CoREBench's seq 86e4b778 prints one number too many on `seq -w 1 3.5`;
//! the era's seed `seq -w 1 3.0` diverges where the regression is, but its path decided before
//! that point that the fraction digit is `0`. Once the seeds' divergences are explored and time
//! is left, each seed's path is negated at a decision before its deepest divergence point (at
//! any decision, for a seed that reached none), the latest first. A satisfiable negation (the
//! path up to the decision, then its other side; the seed's input wherever that leaves a choice)
//! is a new input, run as a seed: the concolic phase, then BSE of each divergence point that no
//! point explored before covers. Its own path is negated in turn, past the decision that made
//! it (SAGE's bound: a lineage derives no input twice). The lineages take turns, one negation
//! each, so a seed with a long path does not take every turn; the run derives at most N seeds
//! per seed. Without a time budget the count bounds it, and the run is deterministic.

use super::explore::{Runner, Slab};
use super::seeded::{distinct, explore_points, follow, Concolic, Explored, SeedPath, SeedRun, Seeded};
use crate::concrete::Inputs;
use crate::run_error::RunError;
use crate::symbolic::state::ExecutionState;
use penumbra_solver::{satisfies, Model, SatResult};
use rustc_hash::FxHashSet;
use std::collections::VecDeque;
use std::rc::Rc;

/// A path to negate and where its next negation is looked for.
struct Lineage {
    path: SeedPath,
    /// Decisions from here on may be negated; those before are its parent's.
    from: usize,
    /// The next negation is the decision below this one.
    below: usize,
}

impl Lineage {
    /// `path`, negated below its seed's deepest divergence point, or anywhere when it reached
    /// none.
    fn new(path: SeedPath, deepest_point: Option<usize>, from: usize) -> Self {
        let below = deepest_point.unwrap_or(usize::MAX).min(path.pc.len());
        Lineage { path, from, below }
    }

    /// The latest decision not negated yet.
    fn next_decision(&mut self) -> Option<usize> {
        (self.below > self.from).then(|| {
            self.below -= 1;
            self.below
        })
    }
}

/// The bytes of every object `path` made, under `model`.
fn input_of(path: &SeedPath, model: &Model) -> Vec<Vec<u8>> {
    path.symbolics.iter().map(|o| o.bytes(model)).collect()
}

/// Derives and runs seeds from the paths of `seeded`'s seeds, at most `limit` of them, while
/// no budget stops the run. Returns whether a point's share of BSE ran out with work left.
pub(super) fn run_derived(
    runner: &mut Runner<'_, '_>,
    slab: &mut Slab,
    initial: &[ExecutionState],
    seeded: Seeded,
    limit: usize,
) -> Result<bool, RunError> {
    let Seeded { runs, mut explored, share, .. } = seeded;
    let mut inputs_run: FxHashSet<Vec<Vec<u8>>> = FxHashSet::default();
    let mut turns: VecDeque<Lineage> = VecDeque::new();
    for SeedRun { paths, deepest_point } in runs {
        for path in paths {
            inputs_run.insert(input_of(&path, &path.model));
            turns.push_back(Lineage::new(path, deepest_point, 0));
        }
    }
    let mut budget_hit = false;
    let mut made = 0;
    while made < limit && !runner.budget.exhausted(&runner.ctx.stats, runner.ctx.store.pending_growth()) {
        let Some(mut lineage) = turns.pop_front() else { break };
        let Some(k) = lineage.next_decision() else { continue };
        let other_side = runner.ctx.store.not(lineage.path.pc[k]);
        let (res, model) = runner.ctx.solver.check_model_from(
            &runner.ctx.store,
            &lineage.path.pc[..k],
            &[other_side],
            &lineage.path.model,
        )?;
        let input = match (res, model) {
            (SatResult::Sat, Some(model)) => Some(input_of(&lineage.path, &model)),
            (SatResult::Unknown, _) => {
                runner.ctx.stats.solver_unknown += 1;
                None
            }
            _ => None,
        };
        turns.push_back(lineage);
        let Some(input) = input.filter(|i| inputs_run.insert(i.clone())) else { continue };
        made += 1;
        runner.ctx.stats.derived_seeds += 1;
        let mut concolic = Concolic::default();
        follow(runner, slab, initial, Rc::new(Inputs::Ordered(input)), &mut concolic)?;
        let SeedRun { paths, deepest_point } = SeedRun::take(&mut concolic);
        budget_hit |= explore_new(runner, slab, concolic, &mut explored, share)?;
        for path in paths {
            turns.push_back(Lineage::new(path, deepest_point, k + 1));
        }
    }
    Ok(budget_hit)
}

/// Records the endings and explores the points of a derived seed's concolic phase that nothing
/// explored before covers: a point below an explored point lies in its BSE subtree, and an
/// ending whose input takes an explored point's or a recorded ending's path was found already.
fn explore_new(
    runner: &mut Runner<'_, '_>,
    slab: &mut Slab,
    concolic: Concolic,
    explored: &mut Explored,
    share: std::time::Duration,
) -> Result<bool, RunError> {
    let (points, endings, covered) = distinct(&runner.ctx.store, concolic.points, concolic.held);
    let store = &runner.ctx.store;
    let (points, covered): (Vec<ExecutionState>, Vec<_>) = points
        .into_iter()
        .zip(covered)
        .filter(|(p, _)| {
            let pc = p.pc.to_vec();
            !explored.points.iter().any(|q| pc.starts_with(q))
        })
        .unzip();
    let found = |model: &Model| explored.points.iter().chain(&explored.endings).any(|pc| satisfies(store, pc, model));
    let endings: Vec<_> = endings.into_iter().filter(|e| !found(&e.st.model)).collect();
    for e in endings {
        explored.endings.push(e.st.pc.to_vec());
        runner.record(e)?;
    }
    runner.ctx.stats.divergence_points += points.len() as u64;
    explored.points.extend(points.iter().map(|p| p.pc.to_vec()));
    let budget = share * points.len() as u32;
    explore_points(runner, slab, points, covered, budget)
}
