//! Searchers taking turns (KLEE's interleaved searcher): every searcher knows every live
//! state, and each selection asks the next one: a weighted searcher heads for its goal while
//! the other (depth-first in shadow runs) goes on from where it left the tree.

use super::{Searcher, StateId, View};
use crate::symbolic::state::ExecutionState;

pub struct Interleaved {
    searchers: Vec<Box<dyn Searcher>>,
    next: usize,
    /// From this many live states on, only the first searcher selects (`usize::MAX`: always
    /// in turn), unless it picks the state it picked last.
    spread_limit: usize,
    /// The state picked last.
    last: Option<StateId>,
}

impl Interleaved {
    pub fn new(searchers: Vec<Box<dyn Searcher>>) -> Self {
        assert!(!searchers.is_empty(), "interleaving no searcher");
        Interleaved { searchers, next: 0, spread_limit: usize::MAX, last: None }
    }

    /// Turns only while fewer than `limit` states are live; from there the first searcher alone
    /// selects until they are fewer again, except when it picks the state picked last: that
    /// state ran a whole time slice without forking or ending (a long concrete loop: `seq` of
    /// ten billion numbers held CoREBench's complete run for 100 of its 120 s), and the
    /// searchers take turns with it. Every directed pick leaves the states of another
    /// subtree behind; without a limit they fill the live-state cap and every later fork is
    /// dropped (depth-first search with patch-directed turns ran CoREBench's du at 6,000 live
    /// states, 395,000 forks dropped, no divergence; depth-first alone never held 100).
    pub fn with_spread_limit(mut self, limit: usize) -> Self {
        self.spread_limit = limit;
        self
    }
}

impl Searcher for Interleaved {
    fn select(&mut self) -> Option<StateId> {
        if self.len() >= self.spread_limit {
            let pick = self.searchers[0].select();
            if pick != self.last {
                self.last = pick;
                return pick;
            }
        }
        let turn = self.next;
        self.next = (self.next + 1) % self.searchers.len();
        self.last = self.searchers[turn].select();
        self.last
    }

    fn add(&mut self, id: StateId, parent: Option<StateId>) {
        self.searchers.iter_mut().for_each(|s| s.add(id, parent));
    }

    fn forked(&mut self, parent: StateId, children: &[StateId]) {
        self.searchers.iter_mut().for_each(|s| s.forked(parent, children));
    }

    fn remove(&mut self, id: StateId) {
        self.searchers.iter_mut().for_each(|s| s.remove(id));
    }

    fn update(&mut self, id: StateId, st: &ExecutionState, view: &View<'_>) {
        self.searchers.iter_mut().for_each(|s| s.update(id, st, view));
    }

    fn wants_updates(&self) -> bool {
        self.searchers.iter().any(|s| s.wants_updates())
    }

    fn len(&self) -> usize {
        self.searchers[0].len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Bfs, Dfs};

    #[test]
    fn turns_stop_at_the_spread_limit() {
        let ids = |v: &[usize]| v.iter().map(|&i| StateId::new(i)).collect::<Vec<_>>();
        let make = |limit| {
            let mut s = Interleaved::new(vec![Box::new(Dfs::default()), Box::new(Bfs::default())]);
            s = s.with_spread_limit(limit);
            s.add(StateId::new(0), None);
            s.forked(StateId::new(0), &ids(&[1, 2]));
            s
        };
        // Three live states: in turn, depth-first takes the newest and breadth-first the oldest.
        let mut free = make(usize::MAX);
        assert_eq!((free.select(), free.select()), (Some(StateId::new(2)), Some(StateId::new(1))));
        // From three live states on, depth-first alone, but a state picked twice running (it
        // used its whole time slice) has the searchers take turns with it.
        let mut limited = make(3);
        let picks: Vec<_> = (0..4).map(|_| limited.select()).collect();
        assert_eq!(picks, [2, 2, 1, 2].map(|i| Some(StateId::new(i))));
        // A new pick of depth-first search is its alone again.
        limited.remove(StateId::new(2));
        limited.forked(StateId::new(1), &ids(&[3]));
        assert_eq!(limited.select(), Some(StateId::new(3)));
    }
}
