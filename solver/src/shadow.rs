//! Shadow terms: `Shadow(old, new)` holds the value of an expression in the
//! old and in the new version of the program at once (Kuchta et al.'s shadow
//! symbolic execution). A term *contains* a shadow when any node below it is
//! one; [`TermStore::has_shadow`] answers that in O(1) from a node flag.
//!
//! The projections [`TermStore::old`] and [`TermStore::new`] replace every
//! `Shadow(a, b)` below a term by `a` (respectively `b`), rebuilding through
//! the simplifying constructors. They are memoised per [`TermId`] for the
//! lifetime of the store and walk the DAG iteratively.
//!
//! [`TermStore::shadow`] keeps shadows normalised: its children are
//! projected first (so a `Shadow` never nests), and equal children collapse.
//! *Refactoring elimination* — collapsing `Shadow(a, b)` when the path
//! condition implies `a = b` — needs the solver: see
//! [`crate::Solver::shadow_under`].

use crate::term::{Op, TermId, TermStore};

/// Which version of the program a projection or evaluation follows.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Version {
    Old,
    New,
}

impl TermStore {
    /// `Shadow(old(a), new(b))`, or just `old(a)` when the two are the same term.
    ///
    /// # Panics
    /// If the widths differ.
    pub fn shadow(&mut self, a: TermId, b: TermId) -> TermId {
        let (wa, wb) = (self.width(a), self.width(b));
        assert_eq!(wa, wb, "shadow: widths differ ({a:?}: {wa}, {b:?}: {wb})");
        let a = self.old(a);
        let b = self.new(b);
        if a == b {
            return a;
        }
        self.mk_node(Op::Shadow, wa, 0, &[a, b])
    }

    /// The old-version projection of `t` (memoised).
    pub fn old(&mut self, t: TermId) -> TermId {
        self.project(t, Version::Old)
    }

    /// The new-version projection of `t` (memoised).
    #[allow(clippy::new_ret_no_self, clippy::wrong_self_convention)]
    pub fn new(&mut self, t: TermId) -> TermId {
        self.project(t, Version::New)
    }

    /// The projection of `t` on `version` (memoised).
    pub fn project(&mut self, t: TermId, version: Version) -> TermId {
        if !self.has_shadow(t) {
            return t;
        }
        let mut memo = match version {
            Version::Old => std::mem::take(&mut self.old_memo),
            Version::New => std::mem::take(&mut self.new_memo),
        };
        let pick = usize::from(version == Version::New);
        let r = self.map_dag(t, &mut memo, |s, x| {
            if !s.has_shadow(x) {
                Some(x)
            } else if s.op(x) == Op::Shadow {
                Some(s.children(x)[pick])
            } else {
                None
            }
        });
        match version {
            Version::Old => self.old_memo = memo,
            Version::New => self.new_memo = memo,
        }
        r
    }

    /// `(old(t), new(t))`.
    pub fn projections(&mut self, t: TermId) -> (TermId, TermId) {
        (self.old(t), self.new(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shadow_of_equal_terms_is_the_term() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 32);
        let x = s.var(x);
        assert_eq!(s.shadow(x, x), x);
        assert!(!s.has_shadow(x));
    }

    #[test]
    fn projections_rebuild_and_fold() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 32);
        let x = s.var(x);
        let one = s.constant(32, 1);
        let two = s.constant(32, 2);
        let sh = s.shadow(one, two);
        assert!(s.has_shadow(sh));
        let sum = s.add(x, sh);
        assert!(s.has_shadow(sum));
        let c = s.ult(sum, x);
        assert!(s.has_shadow(c));
        let o = s.old(sum);
        let n = s.new(sum);
        assert_eq!(o, s.add(x, one));
        assert_eq!(n, s.add(x, two));
        assert!(!s.has_shadow(o) && !s.has_shadow(n));
        // memoised: the same ids again
        assert_eq!(s.old(sum), o);
        let (oc, nc) = s.projections(c);
        assert_eq!(oc, s.ult(o, x));
        assert_eq!(nc, s.ult(n, x));
    }

    #[test]
    fn shadows_never_nest() {
        let mut s = TermStore::default();
        let a = s.constant(8, 1);
        let b = s.constant(8, 2);
        let c = s.constant(8, 3);
        let inner = s.shadow(a, b);
        let outer = s.shadow(inner, c);
        assert_eq!(s.children(outer), &[a, c]);
        let outer2 = s.shadow(c, inner);
        assert_eq!(s.children(outer2), &[c, b]);
        // Shadow(a, Shadow(b, a)) collapses to a? no: old = a, new = a.
        let back = s.shadow(b, a);
        assert_eq!(s.shadow(a, back), a);
    }

    #[test]
    fn projection_of_a_deep_chain_does_not_overflow() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 64);
        let sh = {
            let (a, b) = (s.constant(64, 3), s.constant(64, 5));
            s.shadow(a, b)
        };
        let x = s.var(x);
        let mut t = s.add(x, sh);
        let y = s.new_var("y", 64);
        let y = s.var(y);
        for i in 0..100_000u64 {
            let k = s.constant(64, i);
            let m = s.mul(t, y);
            t = s.add(m, k);
        }
        let o = s.old(t);
        let n = s.new(t);
        assert_ne!(o, n);
        assert!(!s.has_shadow(o));
        assert!(s.has_shadow(t));
    }
}
