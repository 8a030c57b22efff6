//! KLEE's random-path searcher: the live states are the leaves of the tree of forks; selecting
//! walks down from a root, picking a child uniformly at random at each node. A state below
//! many forks is selected rarely; a subtree with few states is not starved by a deep one.
//! Deterministic for a given seed (the run loop's calls are deterministic).

use super::{Searcher, SplitMix64, StateId};

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

    fn add(&mut self, id: StateId, _parent: Option<StateId>) {
        let n = self.new_node(NONE, Some(id));
        self.roots.push(n);
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
