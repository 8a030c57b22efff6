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
//! has run. An ending no kept point covers is recorded unless an earlier ending has its path.
//! An ending a point covers is what the seed confirmed: it is recorded unless that point's BSE
//! re-reached its path (explored the whole subtree, or ended a path with the same condition),
//! so a regression a seed hit survives a BSE share that runs out. Each diff path then has one
//! test however many seeds lead to it.

use super::explore::{ExploreAll, Policy, Runner, Slab};
use crate::concrete::Inputs;
use crate::config::SearchKind;
use crate::run_error::RunError;
use crate::search;
use crate::symbolic::context::EndedPath;
use crate::symbolic::state::{Divergence, EarlyReason, Ending, ExecutionState, SymbolicObject};
use penumbra_solver::{satisfies, ForkList, Model, TermId, TermStore};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The concolic phase: states follow their seed; a state that diverged, or that starts the new
/// version's side of a block after the old version exited in it, is queued as a point, and the
/// paths the seeds end are held back until every seed ran. A fork off
/// the seed that diverged leaves the search; the seed's own path, where it diverges itself, is
/// queued and still followed to its end (what the seed confirms: Shadow's test of the seed).
#[derive(Default)]
pub(super) struct Concolic {
    points: Vec<ExecutionState>,
    held: Vec<EndedPath>,
    /// The divergences of seeds followed past them (by identity), queued already.
    followed: Vec<*const Divergence>,
    /// What derivations need of the seeds followed (`--derived-seeds`): the paths they ended.
    paths: Vec<SeedPath>,
    /// The longest path condition of a point queued since the last [`SeedRun::take`].
    deepest: Option<usize>,
}

impl Concolic {
    fn queue(&mut self, point: ExecutionState) {
        self.deepest = self.deepest.max(Some(point.pc.len()));
        self.points.push(point);
    }
}

impl Policy for Concolic {
    fn path_ended(&mut self, _: &mut Runner<'_, '_>, path: EndedPath) -> Result<(), RunError> {
        if path.st.follows_seed() {
            self.paths.push(SeedPath::of(&path.st));
        }
        self.held.push(path);
        Ok(())
    }

    fn place(&mut self, runner: &mut Runner<'_, '_>, mut st: ExecutionState, new: bool) -> Option<ExecutionState> {
        if let Some(divergence) = &st.divergence {
            let at = Rc::as_ptr(divergence);
            if self.followed.contains(&at) {
                return Some(st);
            }
            if new || !st.follows_seed() {
                st.seed = None;
                self.queue(st);
                return None;
            }
            let mut point = st.clone();
            point.seed = None;
            self.queue(point);
            self.followed.push(at);
            Some(st)
        } else if new {
            // Off the seed's path without a divergence: not explored.
            runner.ctx.stats.dropped += 1;
            None
        } else {
            Some(st)
        }
    }

    /// A seed's old version exited in a block whose new side runs next (a program merged whole:
    /// `change(main_old(), main_new())`): the versions parted there, though whether they
    /// behave differently shows only at the new version's exit. The state is queued as a
    /// point, so that BSE explores the new version's side beside the seed's old path, as from
    /// a divergence; the seed goes on through it.
    fn new_side_starts(&mut self, st: &ExecutionState) {
        if st.follows_seed() {
            let mut point = st.clone();
            point.seed = None;
            self.queue(point);
        }
    }
}

/// The points no other point covers, the endings no point and no earlier ending covers, and
/// per kept point the endings it covers, each in the order they were found (which keeps the
/// run deterministic). A point covers another when its path condition is a prefix of the
/// other's; of two equal ones the first found stays. A point or an earlier ending covers an
/// ending also when the ending's input satisfies its path condition: the path that input
/// takes runs through the point (or is that ending's path), though two seeds recorded it in
/// different terms (each pins the values it fixes, a symbolic size, as its own input has them).
fn distinct(
    store: &TermStore,
    points: Vec<ExecutionState>,
    endings: Vec<EndedPath>,
) -> (Vec<ExecutionState>, Vec<EndedPath>, Vec<Vec<EndedPath>>) {
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
    // Each path condition made a slice once: an ending is checked against every point's and
    // every ending's kept before it.
    let point_pcs: Vec<Vec<TermId>> = points.iter().map(|p| p.pc.to_vec()).collect();
    let takes = |e: &EndedPath, pc: &[TermId]| satisfies(store, pc, &*e.st.model);
    let mut kept: Vec<(EndedPath, Vec<TermId>)> = Vec::new();
    let mut covered: Vec<Vec<(EndedPath, Vec<TermId>)>> = points.iter().map(|_| Vec::new()).collect();
    for e in endings {
        let pc = e.st.pc.to_vec();
        let point = points
            .iter()
            .position(|p| e.st.pc.starts_with(&p.pc))
            .or_else(|| point_pcs.iter().position(|p| takes(&e, p)));
        let same = |(_, c_pc): &(EndedPath, Vec<TermId>)| *c_pc == pc || takes(&e, c_pc);
        let paths = match point {
            Some(i) => &mut covered[i],
            None => &mut kept,
        };
        if !paths.iter().any(same) {
            paths.push((e, pc));
        }
    }
    let without_pcs = |paths: Vec<(EndedPath, Vec<TermId>)>| paths.into_iter().map(|(e, _)| e).collect();
    (points, without_pcs(kept), covered.into_iter().map(without_pcs).collect())
}

/// Bounded symbolic execution from one point: every path gets its test, except the paths the
/// concolic phase confirmed under the point, which have theirs already. A path is a confirmed
/// one when the seed's input satisfies its condition: the program is deterministic, so the
/// seed went that way (the seed's own path condition holds more: a concolic state records every
/// side it took, feasible alternative or not).
struct Reaching {
    /// The seeds' inputs (their models) of the confirmed paths.
    confirmed: Vec<Rc<Model>>,
}

impl Reaching {
    /// Whether a path (or a state on its way) with condition `pc` is one a seed confirmed.
    fn confirmed(&self, store: &TermStore, pc: &ForkList<TermId>) -> bool {
        let pc = pc.to_vec();
        self.confirmed.iter().any(|model| satisfies(store, &pc, &**model))
    }
}

impl Policy for Reaching {
    fn path_ended(&mut self, runner: &mut Runner<'_, '_>, path: EndedPath) -> Result<(), RunError> {
        // A seed confirmed this path, and its test is written already.
        if self.confirmed(&runner.ctx.store, &path.st.pc) {
            return Ok(());
        }
        runner.record(path)
    }

    fn place(&mut self, _: &mut Runner<'_, '_>, st: ExecutionState, _: bool) -> Option<ExecutionState> {
        Some(st)
    }
}

/// A path a seed ended in the concolic phase: what a derivation negates.
pub(super) struct SeedPath {
    /// Every side the seed took, oldest first, whether the other was feasible or not.
    pub pc: Vec<TermId>,
    /// The seed's input.
    pub model: Rc<Model>,
    /// The symbolic objects the path made, in order: a derived input's bytes.
    pub symbolics: Rc<Vec<SymbolicObject>>,
}

impl SeedPath {
    fn of(st: &ExecutionState) -> Self {
        SeedPath { pc: st.pc.to_vec(), model: st.model.clone(), symbolics: st.symbolics.clone() }
    }
}

/// What one seed's concolic phase leaves for derivations.
pub(super) struct SeedRun {
    pub paths: Vec<SeedPath>,
    /// The longest path condition of a divergence point the seed queued: the decisions before
    /// it are the prefix that BSE from the seed's points cannot vary.
    pub deepest_point: Option<usize>,
}

impl SeedRun {
    /// Takes what `concolic` gathered of the seed it followed last.
    pub fn take(concolic: &mut Concolic) -> Self {
        SeedRun { paths: std::mem::take(&mut concolic.paths), deepest_point: concolic.deepest.take() }
    }
}

/// What seeded execution explored, so that a later seed's points and paths do not count twice:
/// the path conditions of the points BSE explored from, each with whether it explored the
/// whole subtree (no share ran out there), and of the concolic endings recorded.
#[derive(Default)]
pub(super) struct Explored {
    pub points: Vec<(Vec<TermId>, bool)>,
    pub endings: Vec<Vec<TermId>>,
}

/// What [`run_seeded`] leaves.
pub(super) struct Seeded {
    /// A point's share of the BSE budget ran out with work left.
    pub budget_hit: bool,
    /// Per seed, in order.
    pub runs: Vec<SeedRun>,
    pub explored: Explored,
    /// Each point's share of the BSE budget.
    pub share: Duration,
}

/// Seeded shadow execution. Phase 1 follows each seed concolically: where the seed's own path
/// diverges, or a divergence off it is feasible, the diverged state is queued. Phase 2 explores
/// the new version from each distinct queued point breadth-first, each within an even share of
/// what is left of `bse_budget`; when a share runs out, the point's remaining states end early
/// with a test each, so every queued divergence yields at least one test and none yields two
/// for the same path.
pub(crate) fn run_seeded(
    runner: &mut Runner<'_, '_>,
    slab: &mut Slab,
    initial: &[ExecutionState],
    seeds: &[Inputs],
    bse_budget: Duration,
) -> Result<Seeded, RunError> {
    let mut concolic = Concolic::default();
    let mut runs = Vec::with_capacity(seeds.len());
    for seed in seeds {
        follow(runner, slab, initial, Rc::new(seed.clone()), &mut concolic)?;
        runs.push(SeedRun::take(&mut concolic));
    }
    let mut explored = Explored::default();
    let (budget_hit, points) = settle(runner, slab, concolic, &mut explored, |_| bse_budget)?;
    let share = bse_budget / points.max(1) as u32;
    Ok(Seeded { budget_hit, runs, explored, share })
}

/// After a concolic phase: records its endings and explores its points (see [`distinct`]),
/// leaving out what `explored` covers already (nothing, for the seeds' own phase): a point
/// below an explored point lies in its BSE subtree, and an ending whose input takes a recorded
/// ending's path, or goes through a point whose whole subtree BSE explored, was found already.
/// BSE gets `budget(points)` in all. Returns whether a point's share ran out with work left,
/// and how many points were explored.
pub(super) fn settle(
    runner: &mut Runner<'_, '_>,
    slab: &mut Slab,
    concolic: Concolic,
    explored: &mut Explored,
    budget: impl Fn(usize) -> Duration,
) -> Result<(bool, usize), RunError> {
    let (points, endings, covered) = distinct(&runner.ctx.store, concolic.points, concolic.held);
    let store = &runner.ctx.store;
    let (points, covered): (Vec<ExecutionState>, Vec<_>) = points
        .into_iter()
        .zip(covered)
        .filter(|(p, _)| {
            let pc = p.pc.to_vec();
            !explored.points.iter().any(|(q, _)| pc.starts_with(q))
        })
        .unzip();
    // Under a point whose share ran out, BSE may not have reached the path: it is recorded
    // (a confirmed divergence is never lost; BSE may have written it too).
    let whole_points = explored.points.iter().filter(|(_, whole)| *whole).map(|(pc, _)| pc);
    let found = |model: &Model| whole_points.clone().chain(&explored.endings).any(|pc| satisfies(store, pc, model));
    let endings: Vec<EndedPath> = endings.into_iter().filter(|e| !found(&e.st.model)).collect();
    for e in endings {
        explored.endings.push(e.st.pc.to_vec());
        runner.record(e)?;
    }
    let count = points.len();
    runner.ctx.stats.divergence_points += count as u64;
    let pcs: Vec<Vec<TermId>> = points.iter().map(|p| p.pc.to_vec()).collect();
    let (budget_hit, whole) = explore_points(runner, slab, points, covered, budget(count))?;
    explored.points.extend(pcs.into_iter().zip(whole));
    Ok((budget_hit, count))
}

/// The concolic phase for one seed: its states follow it from the initial states, depth first.
/// Returns whether a budget or the phase's deadline left a state of it behind (dropped).
pub(super) fn follow(
    runner: &mut Runner<'_, '_>,
    slab: &mut Slab,
    initial: &[ExecutionState],
    seed: Rc<Inputs>,
    concolic: &mut Concolic,
) -> Result<bool, RunError> {
    let store = &runner.ctx.store;
    let states: Vec<ExecutionState> = initial
        .iter()
        .cloned()
        .filter_map(|mut st| {
            st.seed = Some(seed.clone());
            st.take_seed_values_of_made_objects();
            // A start the seed contradicts (`--sym-args`: another argument count) is off
            // its path.
            satisfies(store, &st.pc.to_vec(), &*st.model).then_some(st)
        })
        .collect();
    runner.ctx.stats.states += states.len() as u64;
    let mut dfs = search::make(SearchKind::Dfs, 0, true, None);
    runner.explore(slab, &mut *dfs, states, concolic)?;
    // A seed whose path did not end (a budget) leaves its state behind: drop it.
    let left = slab.drain().len() as u64;
    runner.ctx.stats.dropped += left;
    Ok(left > 0)
}

/// Runs `phase` with a deadline `share` from now (none without one: the run stays
/// deterministic), Bitwuzla's queries held to it too, and the run's deadline back after it.
pub(super) fn within_share<T>(
    runner: &mut Runner<'_, '_>,
    share: Option<Duration>,
    phase: impl FnOnce(&mut Runner<'_, '_>) -> Result<T, RunError>,
) -> Result<T, RunError> {
    let Some(share) = share else { return phase(runner) };
    let phase_end = Instant::now() + share;
    runner.budget.phase_deadline = Some(phase_end);
    let run_deadline = runner.budget.run_deadline();
    runner.ctx.solver.set_deadline(Some(run_deadline.map_or(phase_end, |run| run.min(phase_end))));
    let result = phase(runner);
    runner.budget.phase_deadline = None;
    runner.ctx.solver.set_deadline(run_deadline);
    result
}

/// Phase 2 for `points` (distinct, each with the endings of the concolic phase it covers, see
/// [`distinct`]): the covered endings are recorded, then each point is explored breadth-first
/// within an even share of what is left of `budget`. Returns whether a share ran out with
/// work left, and per point whether its whole subtree was explored.
fn explore_points(
    runner: &mut Runner<'_, '_>,
    slab: &mut Slab,
    points: Vec<ExecutionState>,
    covered: Vec<Vec<EndedPath>>,
    budget: Duration,
) -> Result<(bool, Vec<bool>), RunError> {
    let mut budget_hit = false;
    // A point a budget stopped the run before stays unexplored.
    let mut whole = vec![false; points.len()];
    let bse_start = Instant::now();
    let count = points.len();
    // What the seeds confirmed under every point is written before any point is explored: a
    // budget or --max-tests that one point's exploration uses up cannot lose another's.
    let confirmed: Vec<Vec<Rc<Model>>> =
        covered.iter().map(|paths| paths.iter().map(|e| e.st.model.clone()).collect()).collect();
    for e in covered.into_iter().flatten() {
        runner.record(e)?;
    }
    for ((i, point), confirmed) in points.into_iter().enumerate().zip(confirmed) {
        if runner.budget.stop.is_some() {
            break;
        }
        let mut reaching = Reaching { confirmed };
        let left = budget.saturating_sub(bse_start.elapsed());
        let share = left / (count - i) as u32;
        let mut bfs = search::make(SearchKind::Bfs, runner.ctx.config.random_seed, true, None);
        let cut_before = runner.ctx.solver.stats().core_deadline;
        within_share(runner, Some(share), |runner| runner.explore(slab, &mut *bfs, vec![point], &mut reaching))?;
        // A query the point's share cut short lost part of its subtree.
        let mut cut = runner.ctx.solver.stats().core_deadline > cut_before;
        let left_over = if runner.budget.stop.is_none() { slab.drain() } else { Vec::new() };
        cut |= !left_over.is_empty();
        if runner.budget.stop.is_none() {
            budget_hit |= cut;
            whole[i] = !cut;
        }
        // A state left on the way to a path the seeds confirmed needs no test of its own.
        for st in left_over {
            if reaching.confirmed(&runner.ctx.store, &st.pc) {
                continue;
            }
            runner.end(&mut ExploreAll, EndedPath { st, ending: Ending::Early(EarlyReason::BseBudget) })?;
        }
        if runner.budget.stop.is_some() {
            break;
        }
    }
    Ok((budget_hit, whole))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolic::memory::Memory;
    use crate::symbolic::state::ExecMode;
    use penumbra_solver::{TermId, TermStore};

    fn state(pc: &[TermId]) -> ExecutionState {
        let mut st = ExecutionState::new(Memory::default(), ExecMode::Both);
        for &t in pc {
            st.pc.push(t);
        }
        st
    }

    fn ended(pc: &[TermId], status: i32) -> EndedPath {
        EndedPath { st: state(pc), ending: Ending::Exit(status) }
    }

    /// An ending a point covers is kept aside for that point (recorded before its BSE, which
    /// then writes no second test for its path), not dropped; an ending no point covers is
    /// recorded once.
    #[test]
    fn endings_under_a_point_are_kept_for_it() {
        let mut store = TermStore::default();
        let t: Vec<TermId> = (0..5).map(|k| store.constant(8, k)).collect();
        let points = vec![state(&[t[0], t[1]]), state(&[t[0], t[1], t[2]]), state(&[t[0], t[4]])];
        let endings = vec![ended(&[t[0], t[1], t[3]], 1), ended(&[t[0], t[3]], 2), ended(&[t[0], t[3]], 3)];
        let (points, kept, covered) = distinct(&store, points, endings);
        let pcs = |states: Vec<&ExecutionState>| states.iter().map(|s| s.pc.to_vec()).collect::<Vec<_>>();
        assert_eq!(pcs(points.iter().collect()), vec![vec![t[0], t[1]], vec![t[0], t[4]]]);
        let statuses = |paths: &[EndedPath]| paths.iter().map(|p| format!("{:?}", p.ending)).collect::<Vec<_>>();
        assert_eq!(statuses(&kept), vec!["Exit(2)"]);
        assert_eq!(covered.iter().map(|c| statuses(c)).collect::<Vec<_>>(), vec![vec!["Exit(1)"], vec![]]);
    }

    /// The point's BSE writes no test for a path the seed's input takes, however many sides the
    /// seed's own path condition recorded besides.
    #[test]
    fn a_path_the_seed_takes_is_the_seeds_confirmed_path() {
        let mut store = TermStore::default();
        let v = store.new_var("x", 8);
        let x = store.var(v);
        let three = store.constant(8, 3);
        let seven = store.constant(8, 7);
        let is_three = store.eq(x, three);
        let is_seven = store.eq(x, seven);
        let not_seven = store.not(is_seven);
        let seed = Model::from_pairs([(v, 3)]);
        let reaching = Reaching { confirmed: vec![Rc::new(seed)] };
        assert!(reaching.confirmed(&store, &state(&[is_three]).pc));
        assert!(reaching.confirmed(&store, &state(&[not_seven]).pc));
        assert!(!reaching.confirmed(&store, &state(&[is_seven]).pc));
    }
}
