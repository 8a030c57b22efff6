//! Weighted random search toward a goal (KLEE's non-uniform random search): a state is drawn
//! with probability proportional to `1 / (d + 1)²`, `d` its distance in instructions to the
//! goal ([`super::distance`]), so states about to reach it run first and the rest are not
//! starved.
//!
//! Goals: code no state has run yet ([`Goal::Uncovered`], KLEE's covering-new, the program's
//! own functions only: not the C library's), or the patch ([`Goal::Changes`]: the blocks
//! holding a `change()` or a `penumbra_execute` that no state has run yet, then, once every one
//! has run, all of them: a path through more changes is one more chance to diverge; a state
//! that diverged already weighs least; a path weighs more for each variable the patch reads
//! that it wrote, [`super::relevance`]).
//!
//! Weights are integers in a Fenwick tree (exact sums, so draws are deterministic); a state's
//! weight is computed when it is placed (after each of its forks). Distances are recomputed
//! when coverage grew, at most every [`RECOMPUTE_EVERY`] placements.

use super::distance::{CallGraph, Distances, FAR};
use super::{Searcher, StateId, View};
use crate::splitmix::SplitMix64;
use crate::symbolic::state::ExecutionState;
use cranelift_entity::EntityRef;
use penumbra_ir::{Block, Func, Module};
use penumbra_solver::TermId;

/// Placements between two recomputations of the distances (when coverage grew).
const RECOMPUTE_EVERY: u32 = 64;

/// The weight of distance 0; distance `d` weighs `ONE / (d + 1)²` (at least 1).
const ONE: u64 = 1 << 32;

/// Patch-directed search: a path weighs `2^DEF_FACTOR_LOG2` (16) times more for each variable
/// the patch reads that it wrote ([`super::Relevance`]), up to [`MAX_DEFS`] of them (weights,
/// at most 2^48, stay below 2^64 summed over 65,536 states at distance 0).
const DEF_FACTOR_LOG2: u32 = 4;
const MAX_DEFS: u32 = 4;

/// Where the search steers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Blocks of the program's own functions no state has entered.
    Uncovered,
    /// Blocks holding a `change()` or `penumbra_execute`, those not run yet first.
    Changes,
}

pub struct Weighted {
    goal: Goal,
    rng: SplitMix64,
    graph: Option<CallGraph>,
    /// The blocks holding a change, sorted (found with the call graph, once).
    changes: Vec<(Func, Block)>,
    distances: Distances,
    /// Coverage (blocks) when the distances were computed (`u64::MAX`: never).
    computed_at: u64,
    since_computed: u32,
    /// Per state id: its weight (0: not live).
    weights: Vec<u64>,
    tree: Fenwick,
    live: usize,
    /// Patch-directed search: of the states placed, how many had written each relevant variable
    /// (bit), and how many there were. A variable nearly every path writes (gnulib getopt's
    /// `optind`, read on the way to `main`'s call of the changed code) tells no path apart,
    /// so only those fewer than half of them wrote count.
    def_counts: [u32; 64],
    placed: u32,
}

impl Weighted {
    pub fn new(goal: Goal, seed: u64) -> Self {
        Weighted {
            goal,
            rng: SplitMix64::new(seed),
            graph: None,
            changes: Vec::new(),
            distances: Distances::default(),
            computed_at: u64::MAX,
            since_computed: 0,
            weights: Vec::new(),
            tree: Fenwick::default(),
            live: 0,
            def_counts: [0; 64],
            placed: 0,
        }
    }

    fn set(&mut self, id: StateId, w: u64) {
        let i = id.index();
        if i >= self.weights.len() {
            self.weights.resize((i + 1).next_power_of_two(), 0);
            self.tree = Fenwick::from(&self.weights);
        }
        let old = std::mem::replace(&mut self.weights[i], w);
        self.tree.add(i, w.wrapping_sub(old));
    }

    /// The variables fewer than half of the states placed so far had written.
    fn rare_mask(&self) -> u64 {
        let mut mask = 0;
        for (i, &c) in self.def_counts.iter().enumerate() {
            mask |= u64::from(rare(c, self.placed)) << i;
        }
        mask
    }

    /// Counts a placed state's written variables; how many of them fewer than half of the
    /// states placed so far had written.
    fn rare_defs(&mut self, written: u64) -> u32 {
        if self.placed == 1 << 31 {
            self.placed /= 2;
            self.def_counts.iter_mut().for_each(|c| *c /= 2);
        }
        self.placed += 1;
        let mut count = 0;
        let mut bits = written;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.def_counts[i] += 1;
            count += u32::from(rare(self.def_counts[i], self.placed));
        }
        count
    }

    /// Recomputes the distances when coverage grew (and not too often).
    fn refresh(&mut self, view: &View<'_>) {
        if self.graph.is_none() {
            self.graph = Some(CallGraph::new(view.module));
            self.changes = change_blocks(view.module).collect();
            self.changes.sort();
        }
        let graph = self.graph.as_ref().expect("built above");
        let covered = view.coverage.covered();
        let fresh =
            self.computed_at == covered || (self.computed_at != u64::MAX && self.since_computed < RECOMPUTE_EVERY);
        if fresh {
            self.since_computed += 1;
            return;
        }
        self.computed_at = covered;
        self.since_computed = 0;
        let (module, coverage) = (view.module, view.coverage);
        self.distances = match self.goal {
            Goal::Uncovered => {
                graph.distances(module, |f, b| !view.funcs[f.index()].internal && !coverage.is_covered(f, b))
            }
            Goal::Changes => {
                let changes = &self.changes;
                let all_run = changes.iter().all(|&(f, b)| coverage.is_covered(f, b));
                // The blocks that write a variable the changes read (one fewer than half of the
                // paths wrote) are targets too: a path still able to write one may yet reach a
                // change it could not, or make a change's sides differ.
                let rare = self.rare_mask();
                let relevance = view.relevance;
                graph.distances(module, |f, b| {
                    let change = changes.binary_search(&(f, b)).is_ok();
                    (change && (all_run || !coverage.is_covered(f, b))) || relevance.mask(f, b) & rare != 0
                })
            }
        };
    }
}

/// Whether `written` of `placed` states are fewer than half.
fn rare(written: u32, placed: u32) -> bool {
    u64::from(written) * 2 < u64::from(placed)
}

/// Whether `block` of `func` holds a `change()` or a `penumbra_execute`.
fn holds_change(module: &Module, func: Func, block: Block) -> bool {
    module.funcs[func]
        .body
        .as_ref()
        .is_some_and(|body| body.layout.block_insts(block).iter().any(|&i| body.insts[i].is_patch_annotation()))
}

fn change_blocks(module: &Module) -> impl Iterator<Item = (Func, Block)> + '_ {
    module.funcs.iter().flat_map(move |(f, func)| {
        func.body.iter().flat_map(move |body| {
            body.layout.blocks().iter().copied().filter(move |&b| holds_change(module, f, b)).map(move |b| (f, b))
        })
    })
}

impl Searcher for Weighted {
    fn select(&mut self) -> Option<StateId> {
        let total = self.tree.total();
        if total == 0 {
            return None;
        }
        let r = ((u128::from(self.rng.next_u64()) * u128::from(total)) >> 64) as u64;
        Some(StateId::new(self.tree.find(r)))
    }

    fn add(&mut self, id: StateId, _ended: Option<StateId>) {
        self.live += 1;
        self.set(id, 1);
    }

    fn forked(&mut self, parent: StateId, children: &[StateId], _on: Option<TermId>) {
        let w = self.weights.get(parent.index()).copied().unwrap_or(1).max(1);
        for &c in children {
            self.live += 1;
            self.set(c, w);
        }
    }

    fn remove(&mut self, id: StateId) {
        if self.weights.get(id.index()).is_some_and(|&w| w > 0) {
            self.live -= 1;
            self.set(id, 0);
        }
    }

    fn update(&mut self, id: StateId, st: &ExecutionState, view: &View<'_>) {
        if self.weights.get(id.index()).is_none_or(|&w| w == 0) {
            return;
        }
        if self.goal == Goal::Changes && st.divergence.is_some() {
            // A state that diverged follows one version: no change parts the versions on its
            // path again, so it weighs least (finishing it is depth-first search's turn), and
            // the directed turns go to states that can still diverge.
            self.set(id, 1);
            return;
        }
        self.refresh(view);
        let graph = self.graph.as_ref().expect("refresh builds the call graph");
        let d = u64::from(graph.state_distance(view.module, &self.distances, st));
        let near = (ONE / ((d + 1) * (d + 1))).max(1);
        let defs = match self.goal {
            // Counted for every state placed (rarity is among them all), but a state that can
            // no longer reach a change gains nothing from what it wrote: dd's operands that set
            // a flag variable and are then rejected spent their weight quoting the operand.
            Goal::Changes => {
                let rare = self.rare_defs(st.defs_written).min(MAX_DEFS);
                if d < u64::from(FAR) {
                    rare
                } else {
                    0
                }
            }
            Goal::Uncovered => 0,
        };
        self.set(id, near << (defs * DEF_FACTOR_LOG2));
    }

    fn wants_updates(&self) -> bool {
        true
    }

    fn len(&self) -> usize {
        self.live
    }
}

/// A Fenwick (binary indexed) tree of weights: prefix sums and a draw by cumulative weight in
/// O(log n).
#[derive(Default, Debug)]
struct Fenwick {
    tree: Vec<u64>,
}

impl Fenwick {
    /// Over `weights` (its length a power of two).
    fn from(weights: &[u64]) -> Self {
        let mut tree = weights.to_vec();
        for i in 0..tree.len() {
            let j = i | (i + 1);
            if j < tree.len() {
                tree[j] = tree[j].wrapping_add(tree[i]);
            }
        }
        Fenwick { tree }
    }

    /// Adds `delta` (two's complement: a decrease wraps) at `i`.
    fn add(&mut self, mut i: usize, delta: u64) {
        while i < self.tree.len() {
            self.tree[i] = self.tree[i].wrapping_add(delta);
            i |= i + 1;
        }
    }

    fn total(&self) -> u64 {
        // The length is a power of two: the last node sums everything.
        self.tree.last().copied().unwrap_or(0)
    }

    /// The index whose cumulative range holds `r` (`r < total`).
    fn find(&self, mut r: u64) -> usize {
        let mut pos = 0;
        let mut step = self.tree.len().next_power_of_two();
        while step > 0 {
            let next = pos + step;
            if next <= self.tree.len() && self.tree[next - 1] <= r {
                r -= self.tree[next - 1];
                pos = next;
            }
            step >>= 1;
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenwick_draws_by_weight() {
        let mut f = Fenwick::from(&[0; 8]);
        f.add(2, 5);
        f.add(6, 3);
        assert_eq!(f.total(), 8);
        assert_eq!((0..8).map(|r| f.find(r)).collect::<Vec<_>>(), vec![2, 2, 2, 2, 2, 6, 6, 6]);
        f.add(2, 5u64.wrapping_neg());
        assert_eq!(f.total(), 3);
        assert_eq!(f.find(0), 6);
        let g = Fenwick::from(&[1, 0, 2, 0]);
        assert_eq!((0..3).map(|r| g.find(r)).collect::<Vec<_>>(), vec![0, 2, 2]);
    }

    #[test]
    fn weights_favour_the_near_and_removed_states_are_never_drawn() {
        let mut w = Weighted::new(Goal::Uncovered, 3);
        for i in 0..3 {
            w.add(StateId::new(i), None);
        }
        w.set(StateId::new(0), ONE);
        w.set(StateId::new(2), 1);
        w.remove(StateId::new(1));
        let picks: Vec<usize> = (0..200).map(|_| w.select().unwrap().index()).collect();
        assert!(picks.iter().all(|&i| i == 0 || i == 2));
        assert!(picks.iter().filter(|&&i| i == 0).count() >= 199);
        assert_eq!(w.len(), 2);
    }
}
