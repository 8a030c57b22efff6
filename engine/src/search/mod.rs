//! Searchers: which live state runs next.
//!
//! The run loop tells a [`Searcher`] about states as they appear (`add` for initial states,
//! `forked` when a running state produced new ones) and disappear (`remove`), and asks it to
//! `select` the state to step next. Every searcher is deterministic: DFS and BFS by
//! construction, random-path from its seed ([`SplitMix64`](crate::splitmix::SplitMix64)).
//!
//! - [`Dfs`]: the newest state first (a stack).
//! - [`Bfs`]: states in order of creation; a state that forks moves behind its children's
//!   generation (KLEE's BFS).
//! - [`RandomPath`]: KLEE's random-path: a walk from the root of the tree of forks, choosing a
//!   child uniformly at each node, so a state's chance halves with every fork above it and
//!   paths stuck in deep loops do not starve the rest.
//! - [`Weighted`]: a draw weighted by the distance to a [`Goal`] (code not run yet, or the
//!   patch's changes), from [`distance`] on the interprocedural control-flow graph.
//! - [`Interleaved`]: searchers taking turns. The default: random-path; in shadow runs,
//!   the patch-directed searcher on half of the turns, depth-first search on a quarter,
//!   random-path and covering-new on an eighth each, and states past a divergence site's first
//!   few waiting in a pool ([`Saturating`]).

mod bfs;
pub mod coverage;
mod dfs;
pub mod distance;
mod interleaved;
mod random_path;
pub mod relevance;
mod saturate;
mod weighted;

pub use bfs::Bfs;
pub use coverage::Coverage;
pub use dfs::Dfs;
pub use interleaved::Interleaved;
pub use random_path::RandomPath;
pub use relevance::Relevance;
pub use saturate::Saturating;
pub use weighted::{Goal, Weighted};

use crate::config::SearchKind;
use crate::symbolic::program::FuncInfo;
use crate::symbolic::state::ExecutionState;
use penumbra_ir::Module;
use penumbra_solver::TermId;

/// What a searcher may look at when a state is placed: the program and the run's coverage.
pub struct View<'a> {
    pub module: &'a Module,
    /// Per function (by index): how it runs; `internal` ones are the C library's, not the
    /// program's own code.
    pub funcs: &'a [FuncInfo],
    pub coverage: &'a Coverage,
    /// The blocks that write the variables the patch reads.
    pub relevance: &'a Relevance,
}

/// A live state's id (an index into the run loop's state table; reused after a state ends).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(u32);

impl StateId {
    pub fn new(index: usize) -> StateId {
        StateId(u32::try_from(index).expect("more than 2^32 live states"))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A search strategy.
pub trait Searcher {
    /// The state to step next, if any is live (it stays live until `remove`).
    fn select(&mut self) -> Option<StateId>;
    /// A state without a parent: an initial state (`ended` None) or the continuation of the
    /// ended state `ended` (a run going on past a `penumbra_execute` block's first side; the
    /// id may have been reused for `id` itself).
    fn add(&mut self, id: StateId, ended: Option<StateId>);
    /// `parent` (still live) forked into `children` (new states); `on`: the value the fork
    /// chose among, when it tested one for equality with a constant ([`crate::symbolic::fork::fork_subject`]).
    fn forked(&mut self, parent: StateId, children: &[StateId], on: Option<TermId>);
    /// A state ended.
    fn remove(&mut self, id: StateId);
    /// The state `id` was placed (made, or stepped to its next fork) and is now `st`: a
    /// searcher that weighs states looks at it (the others ignore it).
    fn update(&mut self, _id: StateId, _st: &ExecutionState, _view: &View<'_>) {}
    /// Whether [`Searcher::update`] matters (the run loop skips the calls otherwise).
    fn wants_updates(&self) -> bool {
        false
    }
    /// Live states known to the searcher.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The searcher for `kind`; `shadow`: the run executes two versions (the interleaved default
/// then also steers toward the patch, and with `site_states` pools the states past a
/// divergence site's first ones).
pub fn make(kind: SearchKind, seed: u64, shadow: bool, site_states: Option<u32>) -> Box<dyn Searcher> {
    match kind {
        SearchKind::Dfs => Box::new(Dfs::default()),
        SearchKind::Bfs => Box::new(Bfs::default()),
        SearchKind::RandomPath => Box::new(RandomPath::new(seed)),
        SearchKind::CoveringNew => Box::new(Weighted::new(Goal::Uncovered, seed)),
        SearchKind::PatchDirected => Box::new(Weighted::new(Goal::Changes, seed)),
        // Measured on coreutils (results/search.md): covering-new taking turns with random-path
        // covers less than random-path alone on 5 of 6 utilities, so the default leaves it out.
        SearchKind::Interleaved if !shadow => Box::new(RandomPath::new(seed)),
        // Shadow runs: the patch-directed searcher on half of the turns, depth-first search on
        // a quarter, random-path and covering-new on an eighth each (results/search-patches.md:
        // a divergence on 9 of the eleven coreutils patches in 120 s, where depth-first search
        // on half of the turns and the others on a sixth each reached 7: dd's `oflag=append`
        // and pr's `-dl1` need the directed turns; random-path alone also reached 7, but
        // random-path alone, or with depth-first on a third of the turns, loses CoREBench du's
        // regression, which depth-first search reaches in seconds and still does on a quarter;
        // covering-new's turns reach the options the patch reads, as `seq -s X N` for CoREBench
        // seq 3786fb6d, exposed at 36 s with them and not in 120 s without). The forks of a
        // state another searcher picks wait above it in the depth-first stack, so depth-first
        // search goes on in its own subtree, keeping the solver's incremental stack and caches
        // on one path.
        SearchKind::Interleaved => {
            let turns: Box<dyn Searcher> = Box::new(
                Interleaved::new(vec![
                    Box::new(Dfs::default()),
                    Box::new(Weighted::new(Goal::Changes, seed ^ 0x2545_f491)),
                    Box::new(RandomPath::new(seed)),
                    Box::new(Weighted::new(Goal::Uncovered, seed ^ 0x9e37_79b9)),
                ])
                .with_turns(vec![1, 0, 1, 2, 1, 0, 1, 3]),
            );
            // States past a divergence site's first ones wait in a pool (`saturate.rs`).
            match site_states {
                Some(n) => Box::new(Saturating::new(turns, n)),
                None => turns,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolic::fork::fork_subject;
    use penumbra_solver::TermStore;

    fn ids(v: &[usize]) -> Vec<StateId> {
        v.iter().map(|&i| StateId::new(i)).collect()
    }

    /// A fork's subject is the term an equality with a constant tests, on either side of the
    /// fork; an order, or an equality of two unknowns, has none.
    #[test]
    fn a_fork_on_an_equality_with_a_constant_has_the_other_side_as_subject() {
        let mut store = TermStore::default();
        let (x, y) = (store.new_var("x", 8), store.new_var("y", 8));
        let (x, y) = (store.var(x), store.var(y));
        let k = store.constant(8, 0x64);
        let (is_k, k_is) = (store.eq(x, k), store.eq(k, x));
        let is_not_k = store.not(is_k);
        assert_eq!(fork_subject(&store, is_k), Some(x));
        assert_eq!(fork_subject(&store, k_is), Some(x));
        assert_eq!(fork_subject(&store, is_not_k), Some(x));
        let below = store.ult(x, k);
        let same = store.eq(x, y);
        assert_eq!(fork_subject(&store, below), None);
        assert_eq!(fork_subject(&store, same), None);
    }

    /// Runs a searcher on a scripted binary tree: state 0 forks twice, then every selected state
    /// ends; returns the order in which states were selected.
    fn order(mut s: Box<dyn Searcher>) -> Vec<usize> {
        s.add(StateId::new(0), None);
        let mut next = 1;
        let mut seen = Vec::new();
        let mut forks = 0;
        while let Some(id) = s.select() {
            if forks < 3 {
                s.forked(id, &ids(&[next]), None);
                next += 1;
                forks += 1;
                continue;
            }
            seen.push(id.index());
            s.remove(id);
        }
        seen
    }

    #[test]
    fn dfs_takes_the_newest_and_bfs_the_oldest() {
        assert_eq!(order(make(SearchKind::Dfs, 0, false, None)), vec![3, 2, 1, 0]);
        assert_eq!(order(make(SearchKind::Bfs, 0, false, None)), vec![2, 1, 3, 0]);
    }

    #[test]
    fn random_path_is_deterministic_per_seed_and_visits_everything() {
        for kind in [SearchKind::RandomPath, SearchKind::Interleaved, SearchKind::CoveringNew] {
            let a = order(make(kind, 7, true, Some(64)));
            let b = order(make(kind, 7, true, Some(64)));
            assert_eq!(a, b, "{kind:?}");
            let mut sorted = a.clone();
            sorted.sort();
            assert_eq!(sorted, vec![0, 1, 2, 3], "{kind:?}");
        }
    }
}
