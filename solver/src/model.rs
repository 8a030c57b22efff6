//! Models: an assignment of values to variables, as returned by the solver.
//!
//! A [`Model`] is a vector of `(VarId, value)` pairs sorted by `VarId`, so
//! iteration order is deterministic and lookups are binary searches.
//! Variables it does not mention are 0: a model is a total assignment.

use crate::term::VarId;

/// A total assignment: listed variables have their value, all others are 0.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Model {
    entries: Vec<(VarId, u64)>,
}

impl Model {
    /// The all-zero model.
    pub fn new() -> Self {
        Self::default()
    }

    /// A model from pairs in any order; for a repeated variable the last value wins.
    pub fn from_pairs(pairs: impl IntoIterator<Item = (VarId, u64)>) -> Self {
        let mut entries: Vec<(VarId, u64)> = pairs.into_iter().collect();
        // stable sort keeps input order among equal keys; keep the last one
        entries.sort_by_key(|&(v, _)| v);
        let mut out: Vec<(VarId, u64)> = Vec::with_capacity(entries.len());
        for (v, x) in entries {
            match out.last_mut() {
                Some(last) if last.0 == v => last.1 = x,
                _ => out.push((v, x)),
            }
        }
        Model { entries: out }
    }

    /// The value of `v` (0 when unmentioned).
    pub fn get(&self, v: VarId) -> u64 {
        match self.entries.binary_search_by_key(&v, |&(k, _)| k) {
            Ok(i) => self.entries[i].1,
            Err(_) => 0,
        }
    }

    /// Whether `v` is listed explicitly.
    pub fn contains(&self, v: VarId) -> bool {
        self.entries.binary_search_by_key(&v, |&(k, _)| k).is_ok()
    }

    /// Sets the value of `v`.
    pub fn insert(&mut self, v: VarId, value: u64) {
        match self.entries.binary_search_by_key(&v, |&(k, _)| k) {
            Ok(i) => self.entries[i].1 = value,
            Err(i) => self.entries.insert(i, (v, value)),
        }
    }

    /// The listed variables and values, sorted by variable.
    pub fn iter(&self) -> impl Iterator<Item = (VarId, u64)> + '_ {
        self.entries.iter().copied()
    }

    /// Number of listed variables.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no variable is listed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The same assignment on `vars` (sorted, deduplicated), listing each of
    /// them (0 when this model does not mention it) and nothing else.
    pub fn restrict(&self, vars: &[VarId]) -> Model {
        Model { entries: vars.iter().map(|&v| (v, self.get(v))).collect() }
    }

    /// Adds the entries of `other`; on a variable both list, `other` wins.
    /// Merging models of components with disjoint variables gives a model
    /// of their conjunction.
    pub fn merge(&mut self, other: &Model) {
        if other.is_empty() {
            return;
        }
        let mut out = Vec::with_capacity(self.entries.len() + other.entries.len());
        let (mut i, mut j) = (0, 0);
        let (a, b) = (&self.entries, &other.entries);
        while i < a.len() || j < b.len() {
            if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
                out.push(a[i]);
                i += 1;
            } else {
                if i < a.len() && a[i].0 == b[j].0 {
                    i += 1;
                }
                out.push(b[j]);
                j += 1;
            }
        }
        self.entries = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(i: u32) -> VarId {
        VarId::from_u32(i)
    }

    #[test]
    fn models_are_sorted_and_default_to_zero() {
        let m = Model::from_pairs([(v(3), 7), (v(1), 5), (v(3), 9)]);
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![(v(1), 5), (v(3), 9)]);
        assert_eq!(m.get(v(2)), 0);
        assert_eq!(m.get(v(3)), 9);
        assert!(!m.contains(v(2)));
    }

    #[test]
    fn merge_and_restrict() {
        let mut a = Model::from_pairs([(v(0), 1), (v(4), 4)]);
        let b = Model::from_pairs([(v(2), 2), (v(4), 5), (v(6), 6)]);
        a.merge(&b);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![(v(0), 1), (v(2), 2), (v(4), 5), (v(6), 6)]);
        let r = a.restrict(&[v(2), v(3)]);
        assert_eq!(r.iter().collect::<Vec<_>>(), vec![(v(2), 2), (v(3), 0)]);
        let mut c = Model::new();
        c.insert(v(9), 1);
        c.insert(v(1), 2);
        assert_eq!(c.iter().collect::<Vec<_>>(), vec![(v(1), 2), (v(9), 1)]);
    }
}
