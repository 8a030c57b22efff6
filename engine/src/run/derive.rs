//! Seeds derived from seeds (`--derived-seeds N`): SAGE's generational search (Godefroid,
//! Levin and Molnar, NDSS 2008) over the part of a seed's path that bounded symbolic execution
//! cannot vary.
//!
//! A seed's path condition fixes every byte its path decided before a divergence point, so BSE
//! from the point cannot vary them: the first limitation of seeded shadow execution
//! (`background.md`). CoREBench's seq 86e4b778 prints one number too many on `seq -w 1 3.5`;
//! the era's seed `seq -w 1 3.0` diverges where the regression is, but its path decided before
//! that point that the fraction digit is `0`.
//!
//! Once the seeds' divergences are explored and time is left, each seed's path is negated at
//! a decision before its deepest divergence point (anywhere, for a seed that reached none):
//! first where it pinned a value to a constant (`x == K`: `strlen`, `strchr` and `strtod`
//! each compare a byte, which is freed once), then at the other decisions, each the latest
//! first. A satisfiable negation (the path up to the decision, then its other side; the
//! seed's input wherever that leaves a choice) is a new input, and a freed value also gives
//! one at the largest value it can take there (a boundary: `3.0` gives `3.9` beside the
//! solver's pick). Floating-point decisions are neither negated nor asked to hold: Bitwuzla
//! takes seconds on each such query, and an input that parts from the path earlier is an
//! input still. Each new input runs as a seed (the concolic phase, then BSE of each divergence
//! point no point explored before covers), and its own path is negated in turn past the
//! decision that made it (SAGE's bound: a lineage derives no input twice). The lineages take
//! turns, one negation each, so a seed with a long path does not take every turn; the run
//! derives at most N seeds per seed. Without a time budget the count bounds it, and the run
//! is deterministic.

use super::explore::{Runner, Slab};
use super::seeded::{follow, settle, within_share, Concolic, SeedPath, SeedRun, Seeded};
use crate::concrete::Inputs;
use crate::run_error::RunError;
use crate::symbolic::fork::fork_subject;
use crate::symbolic::state::{ExecutionState, SymbolicObject};
use penumbra_solver::{collect_vars, eval, mask, Model, Op, SatResult, TermId, TermStore, VarId};
use rustc_hash::FxHashSet;
use std::collections::VecDeque;
use std::rc::Rc;

/// The share of the time left that a derived seed's concolic run may take: a derived input
/// can turn a loop's bound from a seed's `3` into `32293` (cut 7380cf79's `-b1-32293`), and
/// following it, a query at every iteration over a growing path condition, took 100 s of a
/// 120-s run. The run goes on with the next seed; the points the cut seed queued are explored.
const DERIVED_SEED_SHARE: u32 = 50;

/// A path to negate and the decisions left to negate, the next last.
struct Lineage {
    path: SeedPath,
    left: Vec<usize>,
}

impl Lineage {
    /// `path`, negated at its decisions from `from` (those before are its parent's) up to its
    /// seed's deepest divergence point (the whole path, when it reached none): first where
    /// the path pins a value to a constant (`x == K`, each value once: a byte `strlen`, `strchr`
    /// and `strtod` each compare is freed once), then the other decisions, each the latest first.
    fn new(store: &TermStore, path: SeedPath, deepest_point: Option<usize>, from: usize) -> Self {
        let below = deepest_point.unwrap_or(usize::MAX).min(path.pc.len());
        let mut pins = Vec::new();
        let mut rest = Vec::new();
        let mut pinned: FxHashSet<Vec<VarId>> = FxHashSet::default();
        for k in (from.min(below)..below).rev() {
            let c = path.pc[k];
            if store.is_const(c) {
                continue;
            }
            match pinned_value(store, c) {
                Some(value) => {
                    if pinned.insert(collect_vars(store, value)) {
                        pins.push(k);
                    }
                }
                None => rest.push(k),
            }
        }
        let mut left: Vec<usize> = pins.into_iter().chain(rest).collect();
        left.reverse();
        Lineage { path, left }
    }
}

/// The bytes of every object `path` made, under `model`.
fn input_of(symbolics: &[SymbolicObject], model: &Model) -> Vec<Vec<u8>> {
    symbolics.iter().map(|o| o.bytes(model)).collect()
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
            inputs_run.insert(input_of(&path.symbolics, &path.model));
            turns.push_back(Lineage::new(&runner.ctx.store, path, deepest_point, 0));
        }
    }
    let mut budget_hit = false;
    let mut made = 0;
    while made < limit && !runner.budget.exhausted(&runner.ctx.stats, runner.ctx.store.pending_growth()) {
        let Some(mut lineage) = turns.pop_front() else { break };
        let Some(k) = lineage.left.pop() else { continue };
        let inputs = negations(runner, &lineage.path, k)?;
        let symbolics = lineage.path.symbolics.clone();
        turns.push_back(lineage);
        for model in inputs {
            let input = input_of(&symbolics, &model);
            if made == limit || runner.budget.stop.is_some() || !inputs_run.insert(input.clone()) {
                continue;
            }
            made += 1;
            runner.ctx.stats.derived_seeds += 1;
            let mut concolic = Concolic::default();
            let follow_share = runner.budget.time_left().map(|left| left / DERIVED_SEED_SHARE);
            let seed = Rc::new(Inputs::Ordered(input));
            let cut = within_share(runner, follow_share, |runner| follow(runner, slab, initial, seed, &mut concolic))?;
            if cut && runner.budget.stop.is_none() {
                runner.ctx.stats.derived_seeds_cut += 1;
            }
            let SeedRun { paths, deepest_point } = SeedRun::take(&mut concolic);
            budget_hit |= settle(runner, slab, concolic, &mut explored, |points| share * points as u32)?.0;
            for path in paths {
                turns.push_back(Lineage::new(&runner.ctx.store, path, deepest_point, k + 1));
            }
        }
    }
    Ok(budget_hit)
}

/// The inputs that negate `path`'s decision `k`: a model of the path before it and its other
/// side, and where the decision pinned a value to a constant, also one with that value at the
/// largest it can take there (a boundary: a digit the path read as `0` becomes `9` as well as
/// whatever the solver picks). None for a floating-point decision: it and the floating-point
/// constraints before it stay out of the question (Bitwuzla takes seconds on each), since an
/// input that parts from the path before the decision is an input still.
fn negations(runner: &mut Runner<'_, '_>, path: &SeedPath, k: usize) -> Result<Vec<Model>, RunError> {
    let store = &mut runner.ctx.store;
    let decision = path.pc[k];
    if store.has_float(decision) {
        return Ok(Vec::new());
    }
    let mut question: Vec<TermId> = path.pc[..k].iter().copied().filter(|&c| !store.has_float(c)).collect();
    let other_side = store.not(decision);
    let solver = &mut runner.ctx.solver;
    let model = match solver.check_model_from(store, &question, &[other_side], &path.model)? {
        (SatResult::Sat, Some(model)) => model,
        (SatResult::Unknown, _) => {
            runner.ctx.stats.solver_unknown += 1;
            return Ok(Vec::new());
        }
        _ => return Ok(Vec::new()),
    };
    let Some(value) = pinned_value(store, decision) else { return Ok(vec![model]) };
    question.push(other_side);
    let width = store.width(value);
    let largest = solver.max_value(store, &question, value, &model, mask(width))?;
    if eval(store, value, &model) & mask(width) == largest {
        return Ok(vec![model]);
    }
    let at_largest = store.constant(width, largest);
    let at_largest = store.eq(value, at_largest);
    Ok(match solver.check_model_from(store, &question, &[at_largest], &model)? {
        (SatResult::Sat, Some(boundary)) => vec![model, boundary],
        _ => vec![model],
    })
}

/// The value `decision` pins to a constant (`x == K`), if it is such a decision.
fn pinned_value(store: &TermStore, decision: TermId) -> Option<TermId> {
    fork_subject(store, decision).filter(|_| store.op(decision) == Op::Eq)
}
