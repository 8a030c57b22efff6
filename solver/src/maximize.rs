//! The largest value a term can take under a path condition: what the engine backs an object
//! of symbolic size with (`malloc(n)` gets storage for the largest `n` the path allows, and
//! every access is checked against `n` itself).
//!
//! Two steps. [`TermStore::unsigned_max`] bounds the term from its structure alone (an
//! interval walk, no solver): `zext(x) + 1` of a byte is at most 256, `ite(c, a, b)` at most
//! the larger arm. [`Solver::max_value`] then searches between the model's value and that
//! bound with the solver: each satisfiable query `t >= mid` raises the floor to the value its
//! model gives `t` (often far above `mid`), each unsatisfiable one lowers the ceiling, so a
//! size the path fixes costs one query and a free byte about eight.

use crate::error::SolverError;
use crate::eval::eval;
use crate::model::Model;
use crate::path::PathCondition;
use crate::solver::{SatResult, Solver};
use crate::term::{mask, Op, TermId, TermStore};
use rustc_hash::FxHashMap;

/// Terms visited by [`TermStore::unsigned_max`] before it gives up (and answers the width's
/// largest value): sizes are small expressions, and a bound is only an optimisation.
const MAX_BOUND_NODES: usize = 512;

impl TermStore {
    /// An upper bound of `t` as an unsigned number, from its structure alone (no solver):
    /// always at least the largest value `t` can take, for any values of its variables.
    pub fn unsigned_max(&self, t: TermId) -> u64 {
        let mut memo: FxHashMap<TermId, u64> = FxHashMap::default();
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if memo.contains_key(&u) {
                continue;
            }
            if memo.len() + stack.len() > MAX_BOUND_NODES {
                return mask(self.width(t));
            }
            let children = self.children(u);
            if !expanded && !children.is_empty() && self.bound_uses_children(u) {
                stack.push((u, true));
                stack.extend(children.iter().map(|&c| (c, false)));
                continue;
            }
            let bound = self.node_max(u, &memo);
            memo.insert(u, bound);
        }
        memo.get(&t).copied().unwrap_or_else(|| mask(self.width(t)))
    }

    /// Whether [`TermStore::node_max`] of `t` reads its children's bounds.
    fn bound_uses_children(&self, t: TermId) -> bool {
        matches!(
            self.op(t),
            Op::Add | Op::Mul | Op::UDiv | Op::URem | Op::LShr | Op::And | Op::Or | Op::ZExt | Op::Ite | Op::Concat
        )
    }

    /// The bound of one node from its children's bounds in `memo`.
    fn node_max(&self, t: TermId, memo: &FxHashMap<TermId, u64>) -> u64 {
        let w = self.width(t);
        let full = mask(w);
        if w > 64 {
            return u64::MAX;
        }
        if let Some(c) = self.as_const(t) {
            return c;
        }
        let kids = self.children(t);
        let b = |i: usize| memo.get(&kids[i]).copied().unwrap_or(full);
        let fits = |v: Option<u64>| v.filter(|&v| v <= full).unwrap_or(full);
        match self.op(t) {
            Op::Add => fits(b(0).checked_add(b(1))),
            Op::Mul => fits(b(0).checked_mul(b(1))),
            // A quotient is at most its dividend (`x / 0` is all ones).
            Op::UDiv if self.as_const(kids[1]).is_some_and(|d| d != 0) => b(0),
            Op::URem => b(0).min(b(1)),
            Op::LShr => b(0),
            Op::And => b(0).min(b(1)),
            // `a | b` sets no bit above the highest bit of either.
            Op::Or => {
                let m = b(0).max(b(1));
                if m == 0 {
                    0
                } else {
                    fits(Some(u64::MAX >> m.leading_zeros()))
                }
            }
            Op::ZExt => b(0),
            Op::Ite => b(1).max(b(2)),
            Op::Concat => {
                let lo_w = self.width(kids[1]);
                if lo_w >= 64 {
                    return full;
                }
                fits(b(0).checked_shl(u32::from(lo_w)).map(|hi| hi | mask(lo_w)))
            }
            _ => full,
        }
    }
}

impl Solver {
    /// The largest value `t` (no shadow) takes in a model of `pc`, searched up to `ceiling`
    /// (the caller makes sure `t <= ceiling` holds on the path). `base` is a model of `pc`.
    /// A query the solver cannot decide counts as satisfiable where that keeps the answer an
    /// upper bound: the result is never below the true maximum (up to `ceiling`).
    pub fn max_value(
        &mut self,
        store: &mut TermStore,
        pc: &(impl PathCondition + ?Sized),
        t: TermId,
        base: &Model,
        ceiling: u64,
    ) -> Result<u64, SolverError> {
        let w = store.width(t);
        let value = |store: &TermStore, m: &Model| eval(store, t, m) & mask(w);
        let at_base = value(store, base);
        let mut lo = at_base.min(ceiling);
        let mut hi = ceiling.min(store.unsigned_max(t));
        while lo < hi {
            // Ask first whether anything above the floor is possible: a size the path fixes
            // costs this one query.
            let mid = if lo == at_base { lo + 1 } else { lo + (hi - lo).div_ceil(2) };
            let k = store.constant(w, mid);
            let at_least = store.uge(t, k);
            match self.check_model_from(store, pc, &[at_least], base)? {
                (SatResult::Sat, Some(m)) => lo = value(store, &m).clamp(mid, hi),
                (SatResult::Sat, None) => lo = mid,
                (SatResult::Unsat, _) => hi = mid - 1,
                // Undecided: the ceiling stays (an overestimate only costs storage).
                (SatResult::Unknown, _) => return Ok(hi),
            }
        }
        Ok(lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SolverConfig;

    #[test]
    fn structural_bounds_follow_the_operators() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 8);
        let xv = s.var(x);
        let x64 = s.zext(xv, 64);
        let one = s.constant(64, 1);
        let n = s.add(x64, one);
        assert_eq!(s.unsigned_max(n), 256);
        let k = s.constant(64, 3);
        let m = s.mul(n, k);
        assert_eq!(s.unsigned_max(m), 768);
        let y = s.new_var("y", 8);
        let yv = s.var(y);
        let y64 = s.zext(yv, 64);
        let c = s.ult(x64, y64);
        let pick = s.ite(c, y64, x64);
        assert_eq!(s.unsigned_max(pick), 255);
        let cc = s.concat(yv, xv);
        assert_eq!(s.unsigned_max(cc), 0xffff);
        let sixteen = s.constant(64, 16);
        let masked = s.and(x64, sixteen);
        assert_eq!(s.unsigned_max(masked), 16);
        // A variable of the full width has no bound below its width's maximum.
        let z = s.new_var("z", 32);
        let zv = s.var(z);
        let z64 = s.zext(zv, 64);
        let big = s.add(z64, one);
        assert_eq!(s.unsigned_max(big), 1 << 32);
    }

    #[test]
    fn the_maximum_under_a_path_condition() {
        let mut s = TermStore::default();
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let (a, b) = (s.new_var("a", 8), s.new_var("b", 8));
        let (av, bv) = (s.var(a), s.var(b));
        let (a64, b64) = (s.zext(av, 64), s.zext(bv, 64));
        let one = s.constant(64, 1);
        let n = s.add(a64, one);
        // a < b and b <= 100: n = a + 1 is at most 100.
        let lt = s.ult(a64, b64);
        let hundred = s.constant(64, 100);
        let le = s.ule(b64, hundred);
        let pc = vec![lt, le];
        let base = solver.check_model(&s, &pc, &[]).unwrap().1.unwrap();
        assert_eq!(solver.max_value(&mut s, &pc, n, &base, 1 << 24).unwrap(), 100);
        // A ceiling below the maximum is the answer.
        assert_eq!(solver.max_value(&mut s, &pc, n, &base, 50).unwrap(), 50);
        // A size the path fixes.
        let seven = s.constant(8, 7);
        let fixed = s.eq(av, seven);
        let pc2 = vec![fixed];
        let base2 = solver.check_model(&s, &pc2, &[]).unwrap().1.unwrap();
        assert_eq!(solver.max_value(&mut s, &pc2, n, &base2, 1 << 24).unwrap(), 8);
    }
}
