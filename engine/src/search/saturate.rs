//! Divergence saturation, for shadow runs: once `site_states` (64 by default,
//! [`crate::config::DEFAULT_SITE_STATES`]) states have diverged at one
//! place (a divergence site: the line and function where the versions parted, and the side
//! each took), further states that diverged there wait in a pool of their own, run depth-first
//! on one selection in [`POOL_TURN`] (and on every one when nothing else is left), while the
//! other selections go to the inner searcher's states: those that have not diverged, or
//! diverged somewhere else.
//!
//! Why: a state that diverged runs on in the new version alone and forks there like any
//! other, so a divergence at the exit of a fast path or inside a loop roots a subtree whose
//! paths differ only after the versions parted, and depth-first search, half of the default's
//! turns, stays in it (CoREBench seq 3786fb6d: 874 of 958 divergent tests of 120 s at one
//! line). The pool keeps such subtrees going, more slowly, so the tests that vary what happens
//! after one divergence are still written, and states alive at a deadline get their tests as
//! every live state does. Measured (results/search-patches.md): on wc's and test's patches,
//! two to four times the output differences among 2,000 divergent tests (printf's: 7 to 0);
//! on CoREBench seq 3786fb6d and seq 6c5f11fb..86e4b778 nothing more exposed (reaching the
//! option seq 3786fb6d's patch reads took covering-new's turns).

use super::{Dfs, Searcher, StateId, View};
use crate::symbolic::state::ExecutionState;
use penumbra_solver::TermId;
use rustc_hash::FxHashMap;

/// The pool selects on one selection in this many (while the inner searcher has states).
pub const POOL_TURN: u32 = 8;

pub struct Saturating {
    inner: Box<dyn Searcher>,
    /// States diverged at one site that run in the inner searcher's turns.
    site_states: u32,
    pool: Dfs,
    /// Per state id: in the pool (not known to `inner`).
    pooled: Vec<bool>,
    /// Per state id: counted at its divergence site.
    counted: Vec<bool>,
    /// Diverged states seen per site (`file:line:function:old/new`).
    sites: FxHashMap<String, u32>,
    selections: u32,
}

impl Saturating {
    pub fn new(inner: Box<dyn Searcher>, site_states: u32) -> Self {
        Saturating {
            inner,
            site_states,
            pool: Dfs::default(),
            pooled: Vec::new(),
            counted: Vec::new(),
            sites: FxHashMap::default(),
            selections: 0,
        }
    }

    /// Forgets what an id meant before (ids are reused after a state ends).
    fn fresh(&mut self, id: StateId) {
        let i = id.index();
        if i >= self.pooled.len() {
            self.pooled.resize(i + 1, false);
            self.counted.resize(i + 1, false);
        }
        self.pooled[i] = false;
        self.counted[i] = false;
    }

    fn is_pooled(&self, id: StateId) -> bool {
        self.pooled.get(id.index()).copied().unwrap_or(false)
    }
}

impl Searcher for Saturating {
    fn select(&mut self) -> Option<StateId> {
        self.selections = self.selections.wrapping_add(1);
        if !self.pool.is_empty() && (self.selections % POOL_TURN == 0 || self.inner.is_empty()) {
            return self.pool.select();
        }
        self.inner.select()
    }

    fn add(&mut self, id: StateId, ended: Option<StateId>) {
        self.fresh(id);
        self.inner.add(id, ended);
    }

    fn forked(&mut self, parent: StateId, children: &[StateId], on: Option<TermId>) {
        children.iter().for_each(|&c| self.fresh(c));
        if self.is_pooled(parent) {
            // A pooled state's forks diverged where it did: they stay with it.
            children.iter().for_each(|&c| {
                self.pooled[c.index()] = true;
                self.counted[c.index()] = true;
            });
            self.pool.forked(parent, children, on);
        } else {
            self.inner.forked(parent, children, on);
        }
    }

    fn remove(&mut self, id: StateId) {
        if self.is_pooled(id) {
            self.pool.remove(id);
        } else {
            self.inner.remove(id);
        }
        self.fresh(id);
    }

    fn update(&mut self, id: StateId, st: &ExecutionState, view: &View<'_>) {
        if self.is_pooled(id) {
            return;
        }
        if let (Some(d), false) = (&st.divergence, self.counted[id.index()]) {
            self.counted[id.index()] = true;
            let seen = self.sites.entry(d.site()).or_insert(0);
            *seen += 1;
            if *seen > self.site_states {
                self.inner.remove(id);
                self.pool.add(id, None);
                self.pooled[id.index()] = true;
                return;
            }
        }
        self.inner.update(id, st, view);
    }

    fn wants_updates(&self) -> bool {
        true
    }

    fn len(&self) -> usize {
        self.inner.len() + self.pool.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::coverage::Coverage;
    use crate::symbolic::memory::Memory;
    use crate::symbolic::state::{Divergence, ExecMode, Side};
    use penumbra_ir::Module;
    use std::rc::Rc;

    fn diverged_at(line: u32) -> ExecutionState {
        let mut st = ExecutionState::new(Memory::default(), ExecMode::Diverged);
        st.divergence = Some(Rc::new(Divergence {
            func: "main".into(),
            line,
            file: "seq.c".into(),
            old: Side::Branch(false),
            new: Side::Branch(true),
            new_code: None,
        }));
        st
    }

    #[test]
    fn states_beyond_a_sites_share_wait_and_run_on_their_turns() {
        let (module, coverage) = (Module::default(), Coverage::default());
        let relevance = crate::search::Relevance::default();
        let view = View { module: &module, funcs: &[], coverage: &coverage, relevance: &relevance };
        let mut s = Saturating::new(Box::new(Dfs::default()), 64);
        let id = StateId::new;
        // State 0 has not diverged; state 1 forks off it and diverges at line 586, and so do
        // its forks, one a selection, depth-first.
        s.add(id(0), None);
        s.update(id(0), &ExecutionState::new(Memory::default(), ExecMode::Both), &view);
        s.forked(id(0), &[id(1)], None);
        s.update(id(1), &diverged_at(586), &view);
        let mut next = 2;
        for _ in 0..63 {
            let top = s.select().expect("states are live");
            s.forked(top, &[id(next)], None);
            s.update(id(next), &diverged_at(586), &view);
            next += 1;
        }
        // 64 states diverged at 586: all with depth-first search.
        assert_eq!(s.select(), Some(id(next - 1)));
        assert_eq!(s.pool.len(), 0);
        // The 65th waits in the pool, and the state that has not diverged runs next ...
        s.forked(id(next - 1), &[id(next)], None);
        s.update(id(next), &diverged_at(586), &view);
        assert_eq!(s.pool.select(), Some(id(next)));
        assert_eq!(s.len(), 64 + 2);
        // ... and a divergence at another line counts on its own.
        s.forked(id(0), &[id(next + 1)], None);
        s.update(id(next + 1), &diverged_at(539), &view);
        assert!(!s.is_pooled(id(next + 1)));
        // The pool selects on one selection in POOL_TURN; its forks stay in it.
        let picks: Vec<_> = (0..POOL_TURN).map(|_| s.select().expect("live")).collect();
        assert_eq!(picks.iter().filter(|&&p| p == id(next)).count(), 1, "{picks:?}");
        s.forked(id(next), &[id(next + 2)], None);
        assert!(s.is_pooled(id(next + 2)));
        // With nothing else left, the pool runs on every selection.
        for i in (0..next + 2).filter(|&i| i != next) {
            s.remove(id(i));
        }
        assert_eq!(s.len(), 2);
        assert_eq!((s.select(), s.select()), (Some(id(next + 2)), Some(id(next + 2))));
        s.remove(id(next + 2));
        assert_eq!(s.select(), Some(id(next)));
        s.remove(id(next));
        assert_eq!(s.select(), None);
    }
}
