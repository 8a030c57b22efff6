//! Refactoring elimination: prove `pc ⇒ a = b` and collapse
//! `Shadow(a, b)` to `a` when it holds.
//!
//! Proofs are cached per pair `(a, b)` with the path conditions they were
//! proven under ([`ProofCache`](crate::proof_cache::ProofCache)): a proof
//! under a subset of the current path condition still holds.

use crate::error::SolverError;
use crate::path::{Path, PathCondition};
use crate::query::{micros, Answer};
use crate::solver::Solver;
use crate::term::{TermId, TermStore};

impl Solver {
    /// Is `pc ⇒ a = b` valid? (`Unknown` counts as not proven.) `a` and `b`
    /// must be shadow-free and of equal width. Cached.
    pub fn prove_equal(
        &mut self,
        store: &mut TermStore,
        pc: &(impl PathCondition + ?Sized),
        a: TermId,
        b: TermId,
    ) -> Result<bool, SolverError> {
        let start = std::time::Instant::now();
        let r = self.with_path_mut(store, pc, |s, store, pc| s.prove_equal_inner(store, pc, a, b));
        self.stats.total_time_us += micros(start.elapsed());
        r
    }

    fn prove_equal_inner(
        &mut self,
        store: &mut TermStore,
        pc: Path<'_>,
        a: TermId,
        b: TermId,
    ) -> Result<bool, SolverError> {
        for t in [a, b] {
            if !store.contains(t) {
                return Err(SolverError::UnknownTerm(t));
            }
        }
        if store.width(a) != store.width(b) {
            return Err(SolverError::WidthMismatch(a, b));
        }
        self.stats.prove_equal_calls += 1;
        if a == b {
            self.stats.prove_equal_proven += 1;
            return Ok(true);
        }
        let differ = store.ne(a, b);
        if let Some(v) = store.as_const(differ) {
            if v == 0 {
                self.stats.prove_equal_proven += 1;
            }
            return Ok(v == 0);
        }
        let pair = (a.min(b), a.max(b));
        let mut key: Vec<TermId> = pc.items.to_vec();
        key.sort_unstable();
        key.dedup();
        if self.proofs.lookup(pair, &key) {
            self.stats.prove_equal_hits += 1;
            self.stats.prove_equal_proven += 1;
            return Ok(true);
        }
        let proven = self.query(store, pc, &[differ], false, None)? == Answer::Unsat;
        if proven {
            self.stats.prove_equal_proven += 1;
            self.proofs.insert(pair, key.into());
        }
        Ok(proven)
    }

    /// `Shadow(old, new)` with refactoring elimination: `old(old)` when the
    /// two projections are the same term or `pc` implies they are equal,
    /// otherwise the shadow.
    pub fn shadow_under(
        &mut self,
        store: &mut TermStore,
        pc: &(impl PathCondition + ?Sized),
        old: TermId,
        new: TermId,
    ) -> Result<TermId, SolverError> {
        if store.width(old) != store.width(new) {
            return Err(SolverError::WidthMismatch(old, new));
        }
        let (o, n) = (store.old(old), store.new(new));
        if o == n || self.prove_equal(store, pc, o, n)? {
            return Ok(o);
        }
        Ok(store.shadow(o, n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SolverConfig;

    #[test]
    fn equal_refactorings_collapse_and_proofs_are_cached() {
        let mut s = TermStore::default();
        let xv = s.new_var("x", 16);
        let x = s.var(xv);
        let (two, one) = (s.constant(16, 2), s.constant(16, 1));
        let a = s.mul(x, two);
        let b = s.shl(x, one);
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        assert_eq!(solver.shadow_under(&mut s, &[], a, b).unwrap(), a);
        assert!(solver.prove_equal(&mut s, &[], b, a).unwrap());
        assert_eq!(solver.stats().prove_equal_hits, 1);
        // x + 1 vs x | 1: equal only when x is even
        let c = s.add(x, one);
        let d = s.or(x, one);
        let sh = solver.shadow_under(&mut s, &[], c, d).unwrap();
        assert!(s.has_shadow(sh));
        let bit0 = s.extract(x, 0, 0);
        let even = s.not(bit0);
        assert_eq!(solver.shadow_under(&mut s, &[even], c, d).unwrap(), c);
        // a proof under [even] holds under a superset
        let k = s.constant(16, 100);
        let small = s.ult(x, k);
        assert!(solver.prove_equal(&mut s, &[small, even], c, d).unwrap());
        assert_eq!(solver.stats().prove_equal_hits, 2);
    }
}
