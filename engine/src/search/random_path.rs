//! KLEE's random-path searcher: the live states are the leaves of the tree of forks; selecting
//! walks down from a root, picking a child uniformly at random at each node. A state below
//! many forks is selected rarely; a subtree with few states is not starved by a deep one.
//! A state made from an ended one (the run going on past a `penumbra_execute` block's first
//! side) is not a new root: all such continuations hang below one shared node, so however many
//! there are, the tree of forks from the initial states keeps its share of the walks.
//! Forks that test one value against one constant after another (a lookup in a list: getopt's
//! option string, a table of long options or keywords) make one node whose children are the
//! values found and the rest, rather than a chain in which the k-th constant's share is 2^-k.
//! Deterministic for a given seed (the run loop's calls are deterministic).

use super::{Searcher, StateId};
use crate::splitmix::SplitMix64;
use penumbra_solver::TermId;

const NONE: u32 = u32::MAX;

#[derive(Debug)]
struct Node {
    parent: u32,
    children: Vec<u32>,
    state: Option<StateId>,
    /// The value the fork made here chose among ([`crate::symbolic::fork::fork_subject`]), if any.
    on: Option<TermId>,
}

#[derive(Debug)]
pub struct RandomPath {
    nodes: Vec<Node>,
    free: Vec<u32>,
    roots: Vec<u32>,
    /// The root whose children are the continuations of ended states (`NONE` while there are
    /// none).
    continuations: u32,
    /// The leaf of each live state (indexed by state id).
    leaf_of: Vec<u32>,
    rng: SplitMix64,
    live: usize,
}

impl RandomPath {
    pub fn new(seed: u64) -> Self {
        RandomPath {
            nodes: Vec::new(),
            free: Vec::new(),
            roots: Vec::new(),
            continuations: NONE,
            leaf_of: Vec::new(),
            rng: SplitMix64::new(seed),
            live: 0,
        }
    }

    fn new_node(&mut self, parent: u32, state: Option<StateId>) -> u32 {
        let node = Node { parent, children: Vec::new(), state, on: None };
        let n = match self.free.pop() {
            Some(n) => {
                self.nodes[n as usize] = node;
                n
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        };
        if let Some(id) = state {
            if self.leaf_of.len() <= id.index() {
                self.leaf_of.resize(id.index() + 1, NONE);
            }
            self.leaf_of[id.index()] = n;
        }
        n
    }

    /// A leaf for `state`, added to `parent`'s children.
    fn new_child(&mut self, parent: u32, state: StateId) {
        let n = self.new_node(parent, Some(state));
        self.nodes[parent as usize].children.push(n);
    }
}

impl Searcher for RandomPath {
    fn select(&mut self) -> Option<StateId> {
        if self.roots.is_empty() {
            return None;
        }
        let mut n = self.roots[self.rng.below(self.roots.len())];
        loop {
            let node = &self.nodes[n as usize];
            if node.children.is_empty() {
                return node.state;
            }
            n = node.children[self.rng.below(node.children.len())];
        }
    }

    fn add(&mut self, id: StateId, ended: Option<StateId>) {
        if ended.is_some() {
            if self.continuations == NONE {
                self.continuations = self.new_node(NONE, None);
                self.roots.push(self.continuations);
            }
            self.new_child(self.continuations, id);
        } else {
            let n = self.new_node(NONE, Some(id));
            self.roots.push(n);
        }
        self.live += 1;
    }

    fn forked(&mut self, parent: StateId, children: &[StateId], on: Option<TermId>) {
        let Some(&p) = self.leaf_of.get(parent.index()) else { return };
        if p == NONE {
            return;
        }
        // The state forked on the value the fork above it chose among: the program goes on
        // testing that value against constants, one after another. The new states join their
        // siblings there, so each value found is one child of a single choice, where a fork a
        // level would halve the chance of each later constant in the list.
        let above = self.nodes[p as usize].parent;
        let at = if on.is_some() && above != NONE && self.nodes[above as usize].on == on {
            above
        } else {
            // The leaf becomes the fork's node, with the state as its first child.
            self.nodes[p as usize].state = None;
            self.nodes[p as usize].on = on;
            self.new_child(p, parent);
            p
        };
        for &c in children {
            self.new_child(at, c);
        }
        self.live += children.len();
    }

    fn remove(&mut self, id: StateId) {
        let Some(&leaf) = self.leaf_of.get(id.index()) else { return };
        if leaf == NONE {
            return;
        }
        self.leaf_of[id.index()] = NONE;
        self.live -= 1;
        let mut n = leaf;
        loop {
            let parent = self.nodes[n as usize].parent;
            self.nodes[n as usize].children = Vec::new();
            self.nodes[n as usize].state = None;
            self.free.push(n);
            if n == self.continuations {
                self.continuations = NONE;
            }
            let siblings = if parent == NONE { &mut self.roots } else { &mut self.nodes[parent as usize].children };
            if let Some(pos) = siblings.iter().position(|&c| c == n) {
                siblings.remove(pos);
            }
            if parent == NONE || !self.nodes[parent as usize].children.is_empty() {
                break;
            }
            n = parent;
        }
    }

    fn len(&self) -> usize {
        self.live
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten continuations of ended states share one root: the tree of the initial state (two
    /// states) keeps half of the walks, where as ten more roots it had a sixth of them.
    #[test]
    fn continuations_share_one_root() {
        let mut rp = RandomPath::new(3);
        rp.add(StateId::new(0), None);
        rp.forked(StateId::new(0), &[StateId::new(1)], None);
        for i in 2..12 {
            rp.add(StateId::new(i), Some(StateId::new(99)));
        }
        let from_tree = (0..1000).filter(|_| rp.select().unwrap().index() < 2).count();
        assert!((450..550).contains(&from_tree), "{from_tree} of 1000 walks reached the initial tree");
        // The shared root goes when its last continuation ends, and comes back for the next.
        for i in 2..12 {
            rp.remove(StateId::new(i));
        }
        assert_eq!(rp.roots.len(), 1);
        assert_eq!(rp.continuations, NONE);
        rp.add(StateId::new(2), Some(StateId::new(1)));
        assert_eq!(rp.roots.len(), 2);
        assert_eq!(rp.len(), 3);
    }

    /// A state looks a value up in a list of twenty constants, forking at each test: the twenty
    /// states found and the one still looking are the children of one node and share the walks
    /// (about 1 in 21 each, where as a chain the last constant's state had 1 in 2^20). A fork
    /// on another value is a level of its own, and so is a later test of the first value below
    /// it.
    #[test]
    fn forks_on_one_value_in_a_row_are_one_choice() {
        let mut store = penumbra_solver::TermStore::default();
        let (x, y) = (store.new_var("x", 8), store.new_var("y", 8));
        let (x, y) = (Some(store.var(x)), Some(store.var(y)));
        let mut rp = RandomPath::new(5);
        rp.add(StateId::new(0), None);
        for i in 1..=20 {
            rp.forked(StateId::new(0), &[StateId::new(i)], x);
        }
        let mut walks = [0usize; 21];
        for _ in 0..21_000 {
            walks[rp.select().unwrap().index()] += 1;
        }
        assert!(walks.iter().all(|&n| (800..1200).contains(&n)), "walks per state: {walks:?}");
        // State 20 forks on y, then on x again: two levels below the choice.
        rp.forked(StateId::new(20), &[StateId::new(21)], y);
        rp.forked(StateId::new(20), &[StateId::new(22)], x);
        let root = rp.roots[0] as usize;
        assert_eq!(rp.nodes[root].children.len(), 21);
        let below_20 = rp.nodes[root].children[20] as usize;
        assert_eq!(rp.nodes[below_20].on, y);
        assert_eq!(rp.nodes[below_20].children.len(), 2);
        let below_y = rp.nodes[below_20].children[0] as usize;
        assert_eq!(rp.nodes[below_y].on, x);
        assert_eq!(rp.nodes[below_y].children.len(), 2);
        assert_eq!(rp.len(), 23);
    }
}
