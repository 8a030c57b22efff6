//! Circles in a directed graph: each knot of nodes that reach each other (a strongly connected
//! component of more than one node) with one shortest circle through it, and the report of a
//! circle among a crate's files or folders.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// A directed graph: each node with the nodes it has an arrow to.
pub type Graph<N> = BTreeMap<N, BTreeSet<N>>;

/// Every knot of `graph`, in the order of their least nodes: its nodes (sorted) and a shortest
/// circle from its least node back to it (that node at both ends).
pub fn knots<N: Ord + Clone>(graph: &Graph<N>) -> Vec<(Vec<N>, Vec<N>)> {
    let mut out: Vec<(Vec<N>, Vec<N>)> = components(graph)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|members| {
            let circle = shortest_circle(graph, &members);
            (members.into_iter().collect(), circle)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The strongly connected components of `graph` (Tarjan's algorithm).
fn components<N: Ord + Clone>(graph: &Graph<N>) -> Vec<BTreeSet<N>> {
    struct Walk<'g, N> {
        graph: &'g Graph<N>,
        index: BTreeMap<&'g N, usize>,
        low: BTreeMap<&'g N, usize>,
        stack: Vec<&'g N>,
        on_stack: BTreeSet<&'g N>,
        out: Vec<BTreeSet<N>>,
    }
    impl<'g, N: Ord + Clone> Walk<'g, N> {
        fn visit(&mut self, n: &'g N) {
            let index = self.index.len();
            self.index.insert(n, index);
            self.low.insert(n, index);
            self.stack.push(n);
            self.on_stack.insert(n);
            for m in self.graph.get(n).into_iter().flatten() {
                // Only nodes that have an entry of their own are walked (an arrow may leave
                // the graph).
                let Some((m, _)) = self.graph.get_key_value(m) else { continue };
                if !self.index.contains_key(m) {
                    self.visit(m);
                    let low = self.low[n].min(self.low[m]);
                    self.low.insert(n, low);
                } else if self.on_stack.contains(m) {
                    let low = self.low[n].min(self.index[m]);
                    self.low.insert(n, low);
                }
            }
            if self.low[n] == self.index[n] {
                let mut component = BTreeSet::new();
                while let Some(m) = self.stack.pop() {
                    self.on_stack.remove(m);
                    component.insert(m.clone());
                    if m == n {
                        break;
                    }
                }
                self.out.push(component);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: vec![],
        on_stack: BTreeSet::new(),
        out: vec![],
    };
    for n in graph.keys() {
        if !walk.index.contains_key(n) {
            walk.visit(n);
        }
    }
    walk.out
}

/// A shortest circle through the least member of a knot, found breadth-first inside it.
fn shortest_circle<N: Ord + Clone>(graph: &Graph<N>, members: &BTreeSet<N>) -> Vec<N> {
    let start = members.first().expect("a knot has members");
    let mut came_from: BTreeMap<&N, &N> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for m in graph.get(n).into_iter().flatten().filter(|m| members.contains(*m)) {
            if m == start {
                let mut circle = vec![start.clone()];
                let mut at = n;
                while at != start {
                    circle.push(at.clone());
                    at = came_from[at];
                }
                circle.push(start.clone());
                circle.reverse();
                return circle;
            }
            if !came_from.contains_key(m) {
                came_from.insert(m, n);
                queue.push_back(m);
            }
        }
    }
    unreachable!("every member of a knot reaches every other")
}

/// A circle among the files or folders of a crate, as its report shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Circle {
    /// The files or folders (shown with a `/`) tied in one knot (each reaches every other).
    pub knot: Vec<PathBuf>,
    /// One circle through the knot: its first place again at the end.
    pub circle: Vec<PathBuf>,
    /// For each arrow of the circle, a file that imports and the file it imports from, with the
    /// names it takes.
    pub ties: Vec<Tie>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tie {
    pub from: PathBuf,
    pub to: PathBuf,
    pub names: BTreeSet<String>,
}

impl Circle {
    /// The circle in words, with paths relative to `base`:
    /// ```text
    /// a.rs -> b.rs -> a.rs
    ///     a.rs -> b.rs: B
    ///     b.rs -> a.rs: A, f
    /// ```
    /// and, where the knot is more than the circle, a line `(the knot: a.rs, b.rs, c.rs)`.
    pub fn describe(&self, base: &Path) -> String {
        let show = |p: &Path| {
            let shown = p.strip_prefix(base).unwrap_or(p).display().to_string();
            if p.is_dir() {
                shown + "/"
            } else {
                shown
            }
        };
        let places: Vec<String> = self.circle.iter().map(|p| show(p)).collect();
        let mut out = places.join(" -> ");
        for tie in &self.ties {
            let names: Vec<&str> = tie.names.iter().map(String::as_str).collect();
            let _ = write!(out, "\n    {} -> {}: {}", show(&tie.from), show(&tie.to), names.join(", "));
        }
        if self.knot.len() + 1 > self.circle.len() {
            let knot: Vec<String> = self.knot.iter().map(|p| show(p)).collect();
            let _ = write!(out, "\n    (the knot: {})", knot.join(", "));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(arrows: &[(u8, u8)]) -> Graph<u8> {
        let mut g = Graph::new();
        for &(a, b) in arrows {
            g.entry(a).or_insert_with(BTreeSet::new).insert(b);
            g.entry(b).or_default();
        }
        g
    }

    #[test]
    fn each_knot_comes_with_a_shortest_circle() {
        // 1 -> 2 -> 3 -> 1 and 1 -> 3 make one knot; 4 <-> 5 another; 6 is on none.
        let g = graph(&[(1, 2), (2, 3), (3, 1), (1, 3), (4, 5), (5, 4), (5, 6)]);
        assert_eq!(knots(&g), [(vec![1, 2, 3], vec![1, 3, 1]), (vec![4, 5], vec![4, 5, 4])]);
    }

    #[test]
    fn a_graph_without_circles_has_no_knot() {
        let g = graph(&[(1, 2), (2, 3), (1, 3)]);
        assert_eq!(knots(&g), []);
    }
}
