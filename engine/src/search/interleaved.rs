//! Searchers taking turns (KLEE's interleaved searcher): every searcher knows every live
//! state, and each selection asks the searcher whose turn it is. In shadow runs a weighted
//! searcher heads for the patch on half of the turns, depth-first search goes on from where it
//! left the tree on a quarter, and random-path and covering-new spread over it on the rest.

use super::{Searcher, StateId, View};
use crate::symbolic::state::ExecutionState;
use penumbra_solver::TermId;

pub struct Interleaved {
    searchers: Vec<Box<dyn Searcher>>,
    /// The searcher of each turn, by index, round and round.
    turns: Vec<usize>,
    next: usize,
}

impl Interleaved {
    /// Each searcher in turn, in order.
    pub fn new(searchers: Vec<Box<dyn Searcher>>) -> Self {
        assert!(!searchers.is_empty(), "interleaving no searcher");
        let turns = (0..searchers.len()).collect();
        Interleaved { searchers, turns, next: 0 }
    }

    /// The searchers select in this order of their indices, round and round: a searcher named
    /// twice gets twice the turns.
    pub fn with_turns(mut self, turns: Vec<usize>) -> Self {
        assert!(!turns.is_empty() && turns.iter().all(|&t| t < self.searchers.len()), "turns of searchers that exist");
        self.turns = turns;
        self
    }
}

impl Searcher for Interleaved {
    fn select(&mut self) -> Option<StateId> {
        let turn = self.turns[self.next];
        self.next = (self.next + 1) % self.turns.len();
        self.searchers[turn].select()
    }

    fn add(&mut self, id: StateId, ended: Option<StateId>) {
        self.searchers.iter_mut().for_each(|s| s.add(id, ended));
    }

    fn forked(&mut self, parent: StateId, children: &[StateId], on: Option<TermId>) {
        self.searchers.iter_mut().for_each(|s| s.forked(parent, children, on));
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
    fn searchers_select_in_their_turns() {
        let ids = |v: &[usize]| v.iter().map(|&i| StateId::new(i)).collect::<Vec<_>>();
        let make = || {
            let mut s = Interleaved::new(vec![Box::new(Dfs::default()), Box::new(Bfs::default())]);
            s.add(StateId::new(0), None);
            s.forked(StateId::new(0), &ids(&[1, 2]), None);
            s
        };
        // In turn, depth-first takes the newest and breadth-first the oldest.
        let mut even = make();
        assert_eq!((even.select(), even.select()), (Some(StateId::new(2)), Some(StateId::new(1))));
        // Depth-first twice, then breadth-first.
        let mut weighted = make().with_turns(vec![0, 0, 1]);
        let picks: Vec<_> = (0..4).map(|_| weighted.select()).collect();
        assert_eq!(picks, [2, 2, 1, 2].map(|i| Some(StateId::new(i))));
    }
}
