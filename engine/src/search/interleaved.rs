//! Searchers taking turns (KLEE's interleaved searcher): every searcher knows every live
//! state, and each selection asks the next one: a weighted searcher heads for its goal while
//! the other (depth-first in shadow runs) goes on from where it left the tree.

use super::{Searcher, StateId, View};
use crate::symbolic::state::ExecutionState;

pub struct Interleaved {
    searchers: Vec<Box<dyn Searcher>>,
    next: usize,
}

impl Interleaved {
    pub fn new(searchers: Vec<Box<dyn Searcher>>) -> Self {
        assert!(!searchers.is_empty(), "interleaving no searcher");
        Interleaved { searchers, next: 0 }
    }
}

impl Searcher for Interleaved {
    fn select(&mut self) -> Option<StateId> {
        let turn = self.next;
        self.next = (self.next + 1) % self.searchers.len();
        self.searchers[turn].select()
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
