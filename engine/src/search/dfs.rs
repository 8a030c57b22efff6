//! Depth-first search: a stack of states; the newest runs first.

use super::{Searcher, StateId};

#[derive(Default, Debug)]
pub struct Dfs {
    stack: Vec<StateId>,
}

impl Searcher for Dfs {
    fn select(&mut self) -> Option<StateId> {
        self.stack.last().copied()
    }

    fn add(&mut self, id: StateId, _parent: Option<StateId>) {
        self.stack.push(id);
    }

    fn forked(&mut self, _parent: StateId, children: &[StateId]) {
        self.stack.extend_from_slice(children);
    }

    fn remove(&mut self, id: StateId) {
        // The removed state is nearly always the top.
        if let Some(pos) = self.stack.iter().rposition(|&s| s == id) {
            self.stack.remove(pos);
        }
    }

    fn len(&self) -> usize {
        self.stack.len()
    }
}
