//! Trying combinations of input values quickly: the constraints are compiled once into a flat
//! program over their DAG's nodes (children first: the store numbers children before parents),
//! and each node records which inputs it depends on. Moving to the next combination changes
//! the first inputs only (the first fastest), so a step recomputes only the nodes that depend
//! on them: over two inputs in [-100, 100] most steps recompute one input's cone, and the
//! 40,401 combinations take a few milliseconds where Bitwuzla bit-blasts the products for up
//! to seconds.

use rustc_hash::FxHashMap;

use crate::eval::apply;
use crate::term::{mask, Op, TermId, TermStore, VarId};

/// The most node evaluations one enumeration may cost (tens of milliseconds).
pub(crate) const MAX_EVALUATIONS: u64 = 1 << 25;

/// What a floating-point node costs, in bit-vector node evaluations: software IEEE arithmetic
/// (an addition aligns, adds, normalizes and rounds) takes tens of times longer; on CoREBench's
/// seq (`strtold` of symbolic digits) the float routines took three times as long as all other
/// node evaluations together, at one float node in six.
const FLOAT_NODE_COST: u64 = 32;

/// One node of the compiled program.
struct Node {
    term: TermId,
    op: Op,
    width: u8,
    /// Slots of the children.
    args: [u32; 3],
    /// For a variable: the input it belongs to and its bit offset in the input's value.
    input: (u8, u8),
    /// Bit `j` set: the node depends on input `j`.
    deps: u64,
}

/// Constraints compiled for enumeration (see the module documentation).
pub(super) struct Program<'s> {
    store: &'s TermStore,
    nodes: Vec<Node>,
    values: Vec<u128>,
    roots: Vec<u32>,
    /// See [`Program::cost`].
    cost: u64,
}

impl<'s> Program<'s> {
    /// Compiles `constraints`, whose variables are the parts of `inputs` (each an atom: a
    /// variable or a concatenation of variables); `None` if there are more than 64 inputs or
    /// a variable belongs to none.
    pub(super) fn new(store: &'s TermStore, constraints: &[TermId], inputs: &[TermId]) -> Option<Program<'s>> {
        if inputs.len() > 64 {
            return None;
        }
        let mut owner: FxHashMap<VarId, (u8, u8)> = FxHashMap::default();
        for (j, &atom) in inputs.iter().enumerate() {
            place_vars(store, atom, j as u8, 0, &mut owner);
        }
        // Every node the constraints reach, in increasing id order: children first.
        let mut reached: Vec<TermId> = Vec::new();
        let mut seen: FxHashMap<TermId, u32> = FxHashMap::default();
        let mut stack: Vec<TermId> = constraints.to_vec();
        while let Some(t) = stack.pop() {
            if seen.insert(t, 0).is_none() {
                reached.push(t);
                stack.extend_from_slice(store.children(t));
            }
        }
        reached.sort_unstable();
        let mut nodes = Vec::with_capacity(reached.len());
        let mut values = vec![0u128; reached.len()];
        for (slot, &t) in reached.iter().enumerate() {
            seen.insert(t, slot as u32);
            let d = store.data(t);
            let mut args = [0u32; 3];
            let mut deps = 0u64;
            for (a, c) in args.iter_mut().zip(d.children()) {
                *a = seen[c];
                deps |= nodes.get(*a as usize).map_or(0, |n: &Node| n.deps);
            }
            let mut input = (0, 0);
            match d.op() {
                Op::Var => {
                    input = *owner.get(&d.var()?)?;
                    deps = 1 << input.0;
                }
                Op::Const => values[slot] = d.const_wide().unwrap_or(0),
                _ => {}
            }
            nodes.push(Node { term: t, op: d.op(), width: d.width(), args, input, deps });
        }
        let roots = constraints.iter().map(|c| seen[c]).collect();
        let cost = nodes.iter().map(|n| if n.op.is_float() { FLOAT_NODE_COST } else { 1 }).sum();
        Some(Program { store, nodes, values, roots, cost })
    }

    /// What one combination costs at most, in bit-vector node evaluations.
    pub(super) fn cost(&self) -> u64 {
        self.cost
    }

    /// Whether every constraint holds when input `j` is `point[j]`.
    pub(super) fn holds(&mut self, point: &[u64]) -> bool {
        self.evaluate(point, u64::MAX, true);
        self.roots.iter().all(|&r| self.values[r as usize] == 1)
    }

    /// Recomputes the nodes depending on the inputs in `changed` (every node if `all`).
    fn evaluate(&mut self, current: &[u64], changed: u64, all: bool) {
        for i in 0..self.nodes.len() {
            let n = &self.nodes[i];
            if !all && n.deps & changed == 0 {
                continue;
            }
            let v = match n.op {
                Op::Const => continue,
                Op::Var => u128::from((current[usize::from(n.input.0)] >> n.input.1) & mask(n.width)),
                Op::Shadow => self.values[n.args[1] as usize],
                op => {
                    let a = n.args.map(|a| self.values[a as usize]);
                    apply(self.store, op, n.term, n.width, a)
                }
            };
            self.values[i] = v;
        }
    }

    /// Every combination (as in [`Program::first_solution`], in its order) under which every
    /// constraint holds, flattened: `candidates.len()` values per solution.
    pub(super) fn all_solutions(&mut self, candidates: &[Vec<u64>]) -> Vec<u64> {
        let mut out = Vec::new();
        self.enumerate(candidates, |point| {
            out.extend_from_slice(point);
            false
        });
        out
    }

    /// The first combination, input `j` taking a value of `candidates[j]` with the first input
    /// changing fastest, under which every constraint holds: its values, or `None`.
    pub(super) fn first_solution(&mut self, candidates: &[Vec<u64>]) -> Option<Vec<u64>> {
        let mut found = None;
        self.enumerate(candidates, |point| {
            found = Some(point.to_vec());
            true
        });
        found
    }

    /// Calls `found` with each combination under which every constraint holds, in order, until
    /// it returns true.
    fn enumerate(&mut self, candidates: &[Vec<u64>], mut found: impl FnMut(&[u64]) -> bool) {
        if candidates.iter().any(Vec::is_empty) {
            return;
        }
        let mut at = vec![0usize; candidates.len()];
        let mut current: Vec<u64> = candidates.iter().map(|c| c[0]).collect();
        let mut changed = u64::MAX;
        let mut first = true;
        loop {
            self.evaluate(&current, changed, first);
            first = false;
            if self.roots.iter().all(|&r| self.values[r as usize] == 1) && found(&current) {
                return;
            }
            let mut j = 0;
            loop {
                if j == at.len() {
                    return;
                }
                at[j] += 1;
                if at[j] < candidates[j].len() {
                    current[j] = candidates[j][at[j]];
                    break;
                }
                at[j] = 0;
                current[j] = candidates[j][0];
                j += 1;
            }
            changed = if j >= 63 { u64::MAX } else { (2u64 << j) - 1 };
        }
    }
}

/// Records, for each variable of `atom`, input `j` and its bit offset in the atom's value.
fn place_vars(store: &TermStore, atom: TermId, j: u8, shift: u8, out: &mut FxHashMap<VarId, (u8, u8)>) {
    match store.op(atom) {
        Op::Var => {
            if let Some(v) = store.as_var(atom) {
                out.insert(v, (j, shift));
            }
        }
        Op::Concat => {
            let (hi, lo) = (store.children(atom)[0], store.children(atom)[1]);
            place_vars(store, lo, j, shift, out);
            place_vars(store, hi, j, shift + store.width(lo), out);
        }
        _ => {}
    }
}
