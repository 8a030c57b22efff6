//! KLEE's random-path searcher: the live states are the leaves of the tree of forks; selecting
//! walks down from a root, picking a child uniformly at random at each node. A state below
//! many forks is selected rarely; a subtree with few states is not starved by a deep one.
//! A state made from an ended one (the run going on past a `penumbra_execute` block's first
//! side) is not a new root: all such continuations hang below one shared node, so however many
//! there are, the tree of forks from the initial states keeps its share of the walks.
//! Deterministic for a given seed (the run loop's calls are deterministic).

use super::{Searcher, StateId};
use crate::splitmix::SplitMix64;

const NONE: u32 = u32::MAX;

#[derive(Debug)]
struct Node {
    parent: u32,
    children: Vec<u32>,
    state: Option<StateId>,
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
        let node = Node { parent, children: Vec::new(), state };
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
            let n = self.new_node(self.continuations, Some(id));
            self.nodes[self.continuations as usize].children.push(n);
        } else {
            let n = self.new_node(NONE, Some(id));
            self.roots.push(n);
        }
        self.live += 1;
    }

    fn forked(&mut self, parent: StateId, children: &[StateId]) {
        let Some(&p) = self.leaf_of.get(parent.index()) else { return };
        if p == NONE {
            return;
        }
        self.nodes[p as usize].state = None;
        let mut kids = Vec::with_capacity(children.len() + 1);
        kids.push(self.new_node(p, Some(parent)));
        for &c in children {
            kids.push(self.new_node(p, Some(c)));
        }
        self.nodes[p as usize].children = kids;
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
        rp.forked(StateId::new(0), &[StateId::new(1)]);
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
}
