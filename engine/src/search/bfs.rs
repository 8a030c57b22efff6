//! Breadth-first search: a queue of states in order of creation. The state at the front runs
//! until it forks; then it moves to the back, behind its children, so each generation of forks
//! is explored before the next (KLEE's BFS).

use super::{Searcher, StateId};
use penumbra_solver::TermId;
use std::collections::VecDeque;

#[derive(Default, Debug)]
pub struct Bfs {
    queue: VecDeque<StateId>,
}

impl Searcher for Bfs {
    fn select(&mut self) -> Option<StateId> {
        self.queue.front().copied()
    }

    fn add(&mut self, id: StateId, _ended: Option<StateId>) {
        self.queue.push_back(id);
    }

    fn forked(&mut self, parent: StateId, children: &[StateId], _on: Option<TermId>) {
        if self.queue.front() == Some(&parent) {
            self.queue.pop_front();
        } else if let Some(pos) = self.queue.iter().position(|&s| s == parent) {
            self.queue.remove(pos);
        }
        self.queue.extend(children.iter().copied());
        self.queue.push_back(parent);
    }

    fn remove(&mut self, id: StateId) {
        if self.queue.front() == Some(&id) {
            self.queue.pop_front();
        } else if let Some(pos) = self.queue.iter().position(|&s| s == id) {
            self.queue.remove(pos);
        }
    }

    fn len(&self) -> usize {
        self.queue.len()
    }
}
