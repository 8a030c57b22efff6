//! The variables a term depends on, used by constraint independence and to
//! know which variables a model must assign.
//!
//! [`collect_vars`] walks the DAG with an explicit stack and a visited set.
//! [`VarIndex`] memoises the (sorted) variable set per constraint root, with
//! a bound: when full it is cleared (deterministically) and refilled.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::term::{Op, TermId, TermStore, VarId};

/// The variables below `t`, sorted and deduplicated. Both sides of shadows count.
pub fn collect_vars(store: &TermStore, t: TermId) -> Vec<VarId> {
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        let d = store.data(n);
        match d.op() {
            Op::Var => out.extend(d.var()),
            Op::Const => {}
            _ => stack.extend(d.children().iter().filter(|c| !seen.contains(c))),
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A bounded memo `constraint -> sorted variables`.
pub(crate) struct VarIndex {
    memo: FxHashMap<TermId, Arc<[VarId]>>,
    capacity: usize,
}

impl VarIndex {
    pub(crate) fn new(capacity: usize) -> Self {
        VarIndex { memo: FxHashMap::default(), capacity: capacity.max(1) }
    }

    /// The variables of `t` (sorted, deduplicated).
    pub(crate) fn vars(&mut self, store: &TermStore, t: TermId) -> Arc<[VarId]> {
        if let Some(v) = self.memo.get(&t) {
            return v.clone();
        }
        let v: Arc<[VarId]> = collect_vars(store, t).into();
        if self.memo.len() >= self.capacity {
            self.memo.clear();
        }
        self.memo.insert(t, v.clone());
        v
    }

    /// The union of the variables of `terms`, sorted and deduplicated.
    pub(crate) fn vars_of_all(&mut self, store: &TermStore, terms: &[TermId]) -> Vec<VarId> {
        let mut out = Vec::new();
        for &t in terms {
            out.extend_from_slice(&self.vars(store, t));
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_sorted_unique_vars() {
        let mut s = TermStore::default();
        let a = s.new_var("a", 8);
        let b = s.new_var("b", 8);
        let c = s.new_var("c", 8);
        let (at, bt, ct) = (s.var(a), s.var(b), s.var(c));
        let x = s.add(ct, at);
        let y = s.mul(x, at);
        let z = s.ult(y, x);
        assert_eq!(collect_vars(&s, z), vec![a, c]);
        let w = s.shadow(bt, ct);
        assert_eq!(collect_vars(&s, w), vec![b, c]);
        let mut idx = VarIndex::new(1);
        assert_eq!(&*idx.vars(&s, z), &[a, c]);
        assert_eq!(idx.vars_of_all(&s, &[z, w]), vec![a, b, c]);
    }
}
