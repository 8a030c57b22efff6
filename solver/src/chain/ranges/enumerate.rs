//! Trying combinations of input values quickly: the constraints are compiled once into a flat
//! program over their DAG's nodes (children first: the store numbers children before parents),
//! and each node records which inputs it depends on. Moving to the next combination changes
//! the first inputs only (the first fastest), so a step recomputes only the nodes that depend
//! on them: over two inputs in [-100, 100] most steps recompute one input's cone, and the
//! 40,401 combinations take a few milliseconds where Bitwuzla bit-blasts the products for up
//! to seconds.
//!
//! A combination under which a constraint fails skips every combination that differs from it
//! only in inputs the constraint does not read and that change faster than all it reads: a
//! constraint over the slowest input alone is evaluated once per value of that input, so a
//! costly one (floating point over one digit) belongs last ([`Program::input_weights`]).

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
    /// Per root: the fastest-changing input it depends on (64 for none).
    root_fastest: Vec<u32>,
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
        // Roots whose fastest input is slowest first: the first failing one says how far the
        // odometer may skip.
        let mut roots: Vec<u32> = constraints.iter().map(|c| seen[c]).collect();
        roots.sort_by_key(|&r| std::cmp::Reverse(nodes[r as usize].deps.trailing_zeros()));
        let root_fastest = roots.iter().map(|&r| nodes[r as usize].deps.trailing_zeros()).collect();
        let cost = nodes.iter().filter(|n| n.op != Op::Const).map(|n| node_cost(n.op)).sum();
        Some(Program { store, nodes, values, roots, root_fastest, cost })
    }

    /// What evaluating every node once costs, in bit-vector node evaluations.
    pub(super) fn cost(&self) -> u64 {
        self.cost
    }

    /// An upper bound on the node evaluations (a float node counting as [`FLOAT_NODE_COST`])
    /// of trying at most `points` combinations in order, input `j` ranging over `counts[j]`
    /// values: a node is recomputed whenever the fastest-changing input it reads changes,
    /// which input `j` does once per combination of the inputs from `j` on.
    pub(super) fn evaluations(&self, counts: &[u64], points: u64) -> u64 {
        let mut changes = vec![1u64; counts.len() + 1];
        for j in (0..counts.len()).rev() {
            changes[j] = changes[j + 1].saturating_mul(counts[j]);
        }
        let checks = changes[0].min(points).saturating_mul(self.roots.len() as u64);
        let levels = self.level_costs(counts.len());
        levels
            .iter()
            .zip(&changes)
            .fold(checks, |total, (&cost, &times)| total.saturating_add(times.min(points).saturating_mul(cost)))
    }

    /// Per input `j`, what the nodes whose fastest-changing input is `j` cost to evaluate
    /// once; last, the nodes that read no input.
    fn level_costs(&self, inputs: usize) -> Vec<u64> {
        let mut costs = vec![0u64; inputs + 1];
        for n in self.nodes.iter().filter(|n| n.op != Op::Const) {
            costs[(n.deps.trailing_zeros() as usize).min(inputs)] += node_cost(n.op);
        }
        costs
    }

    /// Per input, what evaluating every node that reads it once costs: the inputs that
    /// change fastest should be the cheap ones.
    pub(super) fn input_weights(&self, inputs: usize) -> Vec<u64> {
        let mut weights = vec![0u64; inputs];
        for n in self.nodes.iter().filter(|n| n.op != Op::Const) {
            for (j, w) in weights.iter_mut().enumerate() {
                if n.deps >> j & 1 == 1 {
                    *w += node_cost(n.op);
                }
            }
        }
        weights
    }

    /// Calls `found` with each of `points` (combinations in enumeration order, so that
    /// neighbours share their slower inputs and only the nodes reading the others are
    /// recomputed) under which every constraint holds, until it returns true.
    pub(super) fn each_holding<'p>(
        &mut self,
        points: impl Iterator<Item = &'p [u64]>,
        mut found: impl FnMut(&'p [u64]) -> bool,
    ) {
        let mut previous: Option<&[u64]> = None;
        for point in points {
            let changed = match previous {
                Some(before) => {
                    before.iter().zip(point).enumerate().fold(0u64, |m, (j, (a, b))| m | (u64::from(a != b) << j))
                }
                None => u64::MAX,
            };
            self.evaluate(point, changed, previous.is_none());
            previous = Some(point);
            if self.roots.iter().all(|&r| self.values[r as usize] == 1) && found(point) {
                return;
            }
        }
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

    /// Per input `j`: what recomputing after a change of the inputs up to `j` costs.
    fn step_costs(&self, inputs: usize) -> Vec<u64> {
        let mut costs = self.level_costs(inputs);
        costs.truncate(inputs);
        for j in 1..inputs {
            costs[j] += costs[j - 1];
        }
        costs
    }

    /// Every combination (as in [`Program::first_solution`], in its order) under which every
    /// constraint holds, flattened: `candidates.len()` values per solution.
    pub(super) fn all_solutions(&mut self, candidates: &[Vec<u64>]) -> Vec<u64> {
        let mut out = Vec::new();
        self.enumerate(candidates, u64::MAX, |point| {
            out.extend_from_slice(point);
            false
        });
        out
    }

    /// The first combination, input `j` taking a value of `candidates[j]` with the first input
    /// changing fastest, under which every constraint holds: `Some(Some(values))`, or
    /// `Some(None)` when there is none; `None` when finding out would take more than `limit`
    /// node evaluations.
    pub(super) fn first_solution(&mut self, candidates: &[Vec<u64>], limit: u64) -> Option<Option<Vec<u64>>> {
        let mut found = None;
        let finished = self.enumerate(candidates, limit, |point| {
            found = Some(point.to_vec());
            true
        });
        (finished || found.is_some()).then_some(found)
    }

    /// Calls `found` with each combination under which every constraint holds, in order, until
    /// it returns true; false if it stopped because more than `limit` node evaluations were
    /// spent.
    fn enumerate(&mut self, candidates: &[Vec<u64>], limit: u64, mut found: impl FnMut(&[u64]) -> bool) -> bool {
        if candidates.iter().any(Vec::is_empty) {
            return true;
        }
        let mut at = vec![0usize; candidates.len()];
        let mut current: Vec<u64> = candidates.iter().map(|c| c[0]).collect();
        let mut changed = u64::MAX;
        let mut first = true;
        // Counted only under a limit: the cost of each step is known from the input it moved.
        let step_costs = if limit < u64::MAX { self.step_costs(candidates.len()) } else { Vec::new() };
        let mut spent = self.cost;
        let mut moved = 0;
        loop {
            self.evaluate(&current, changed, first);
            if !first {
                spent = spent.saturating_add(step_costs.get(moved).copied().unwrap_or(0));
            }
            if spent > limit {
                return false;
            }
            first = false;
            // Of the failing constraints, the one whose fastest-changing input is slowest:
            // every combination changing only inputs faster than that fails it too, so the
            // odometer moves on at that input.
            let failing = self.roots.iter().zip(&self.root_fastest).find(|(&r, _)| self.values[r as usize] != 1);
            let mut j = match failing.map(|(_, &fastest)| fastest as usize) {
                None if found(&current) => return true,
                None => 0,
                Some(fastest) => fastest,
            };
            for i in 0..j.min(at.len()) {
                at[i] = 0;
                current[i] = candidates[i][0];
            }
            loop {
                if j >= at.len() {
                    return true;
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
            moved = j;
        }
    }
}

/// What evaluating one node of `op` costs, in bit-vector node evaluations.
fn node_cost(op: Op) -> u64 {
    if op.is_float() {
        FLOAT_NODE_COST
    } else {
        1
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
