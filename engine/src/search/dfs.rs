//! Depth-first search: a stack of states; the newest runs first. A state's forks go right above
//! it, so when another searcher (taking turns, see `interleaved.rs`) runs a state deep in the
//! stack, depth-first search goes on in its own subtree and meets those forks when it gets
//! back to theirs.

use super::{Searcher, StateId};
use penumbra_solver::TermId;

#[derive(Default, Debug)]
pub struct Dfs {
    stack: Vec<StateId>,
}

impl Searcher for Dfs {
    fn select(&mut self) -> Option<StateId> {
        self.stack.last().copied()
    }

    fn add(&mut self, id: StateId, _ended: Option<StateId>) {
        self.stack.push(id);
    }

    fn forked(&mut self, parent: StateId, children: &[StateId], _on: Option<TermId>) {
        match self.stack.iter().rposition(|&s| s == parent) {
            Some(pos) if pos + 1 < self.stack.len() => {
                self.stack.splice(pos + 1..pos + 1, children.iter().copied());
            }
            _ => self.stack.extend_from_slice(children),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[usize]) -> Vec<StateId> {
        v.iter().map(|&i| StateId::new(i)).collect()
    }

    #[test]
    fn forks_of_a_state_below_the_top_wait_above_it() {
        let mut dfs = Dfs::default();
        dfs.add(StateId::new(0), None);
        dfs.forked(StateId::new(0), &ids(&[1, 2]), None);
        // State 0 (below the top) forks: its children go right above it, and the top stays.
        dfs.forked(StateId::new(0), &ids(&[3]), None);
        assert_eq!(dfs.stack, ids(&[0, 3, 1, 2]));
        assert_eq!(dfs.select(), Some(StateId::new(2)));
        // The top forks: its children are the new top.
        dfs.forked(StateId::new(2), &ids(&[4]), None);
        assert_eq!(dfs.select(), Some(StateId::new(4)));
    }
}
