//! The counterexample cache's entries: constraint sets (sorted, deduplicated
//! keys) with a model or an `unsat` verdict, evicted oldest first.
//!
//! A lookup asks for an unsat *subset* or a model of a *superset* of a
//! query's key. Scanning every entry for that cost a sixth of a long shadow
//! run (1,024 entries of hundreds of constraints, twice per query), so the
//! entries are indexed, more simply than KLEE's UBTree:
//! - an unsat set is filed under its largest constraint, which a query it is
//!   a subset of must hold: only the sets filed under the query's own
//!   constraints are candidates;
//! - a model's set is filed under each of its constraints: a superset of the
//!   query holds all of the query's constraints, so the shortest of their
//!   lists holds every candidate.
//!
//! Lists are in insertion order, so the newest match is found first and a
//! lookup answers exactly what a newest-first scan would: the hash maps are
//! only looked up, never iterated.

use std::collections::VecDeque;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::is_subset;
use crate::model::Model;
use crate::term::TermId;

/// An entry's number: its position in insertion order, never reused.
type Seq = u64;

struct Entry {
    key: Arc<[TermId]>,
    /// `None`: the set is unsat.
    model: Option<Model>,
}

pub(crate) struct CexEntries {
    /// Oldest first; `entries[i]` has number `first + i`.
    entries: VecDeque<Entry>,
    first: Seq,
    capacity: usize,
    /// Unsat sets by their largest constraint (`None`: the empty set).
    unsat_by_largest: FxHashMap<Option<TermId>, VecDeque<Seq>>,
    /// Sets with a model, by each of their constraints.
    models_by_constraint: FxHashMap<TermId, VecDeque<Seq>>,
    /// Every set with a model.
    models: VecDeque<Seq>,
}

impl CexEntries {
    pub(crate) fn new(capacity: usize) -> Self {
        CexEntries {
            entries: VecDeque::new(),
            first: 0,
            capacity: capacity.max(1),
            unsat_by_largest: FxHashMap::default(),
            models_by_constraint: FxHashMap::default(),
            models: VecDeque::new(),
        }
    }

    fn entry(&self, seq: Seq) -> &Entry {
        &self.entries[(seq - self.first) as usize]
    }

    /// Whether a cached unsat set is a subset of `key`.
    pub(crate) fn has_unsat_subset_of(&self, key: &[TermId]) -> bool {
        let filed_under = std::iter::once(None).chain(key.iter().map(|&c| Some(c)));
        filed_under
            .filter_map(|largest| self.unsat_by_largest.get(&largest))
            .flatten()
            .any(|&seq| is_subset(&self.entry(seq).key, key))
    }

    /// The newest cached model whose set holds all of `key`.
    pub(crate) fn newest_model_of_superset_of(&self, key: &[TermId]) -> Option<&Model> {
        let candidates = if key.is_empty() {
            &self.models
        } else {
            let mut shortest: Option<&VecDeque<Seq>> = None;
            for c in key {
                let list = self.models_by_constraint.get(c)?;
                if shortest.is_none_or(|s| list.len() < s.len()) {
                    shortest = Some(list);
                }
            }
            shortest?
        };
        candidates.iter().rev().map(|&seq| self.entry(seq)).find(|e| is_subset(key, &e.key))?.model.as_ref()
    }

    /// The `n` newest cached models, newest first.
    pub(crate) fn newest_models(&self, n: usize) -> impl Iterator<Item = &Model> + '_ {
        self.models.iter().rev().take(n).filter_map(|&seq| self.entry(seq).model.as_ref())
    }

    /// Caches `key` with its model (`None`: unsat), evicting the oldest entry when full.
    pub(crate) fn insert(&mut self, key: Arc<[TermId]>, model: Option<Model>) {
        if self.entries.len() >= self.capacity {
            self.evict_oldest();
        }
        let seq = self.first + self.entries.len() as Seq;
        if model.is_some() {
            for &c in key.iter() {
                self.models_by_constraint.entry(c).or_default().push_back(seq);
            }
            self.models.push_back(seq);
        } else {
            self.unsat_by_largest.entry(key.last().copied()).or_default().push_back(seq);
        }
        self.entries.push_back(Entry { key, model });
    }

    /// Removes the oldest entry, which is the first of every list it is in.
    fn evict_oldest(&mut self) {
        let Some(e) = self.entries.pop_front() else { return };
        let seq = self.first;
        self.first += 1;
        if e.model.is_some() {
            for c in e.key.iter() {
                pop_front_of(&mut self.models_by_constraint, c, seq);
            }
            pop_front_of_list(&mut self.models, seq);
        } else {
            pop_front_of(&mut self.unsat_by_largest, &e.key.last().copied(), seq);
        }
    }
}

fn pop_front_of<K: std::hash::Hash + Eq>(lists: &mut FxHashMap<K, VecDeque<Seq>>, k: &K, seq: Seq) {
    if let Some(list) = lists.get_mut(k) {
        pop_front_of_list(list, seq);
        if list.is_empty() {
            lists.remove(k);
        }
    }
}

fn pop_front_of_list(list: &mut VecDeque<Seq>, seq: Seq) {
    let front = list.pop_front();
    debug_assert_eq!(front, Some(seq), "the oldest entry heads each of its lists");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::VarId;

    fn key(ids: &[usize]) -> Arc<[TermId]> {
        ids.iter().map(|&i| TermId::from_index(i)).collect()
    }

    fn model(v: u64) -> Option<Model> {
        Some(Model::from_pairs([(VarId::from_u32(0), v)]))
    }

    fn value(m: Option<&Model>) -> Option<u64> {
        m.map(|m| m.get(VarId::from_u32(0)))
    }

    #[test]
    fn the_newest_model_of_a_superset_answers() {
        let mut c = CexEntries::new(8);
        c.insert(key(&[1, 2, 3]), model(10));
        c.insert(key(&[2, 3]), model(20));
        c.insert(key(&[1, 3, 4]), model(30));
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[3]))), Some(30));
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[2, 3]))), Some(20));
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[1, 2]))), Some(10));
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[]))), Some(30));
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[2, 4]))), None);
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[5]))), None);
    }

    #[test]
    fn an_unsat_subset_is_found_under_its_largest_constraint() {
        let mut c = CexEntries::new(8);
        c.insert(key(&[2, 7]), None);
        assert!(c.has_unsat_subset_of(&key(&[1, 2, 7])));
        assert!(!c.has_unsat_subset_of(&key(&[1, 7])));
        assert!(!c.has_unsat_subset_of(&key(&[2, 8])));
        c.insert(key(&[]), None);
        assert!(c.has_unsat_subset_of(&key(&[5])));
    }

    #[test]
    fn eviction_takes_the_oldest_entry_out_of_every_list() {
        let mut c = CexEntries::new(3);
        c.insert(key(&[1, 2]), model(10));
        c.insert(key(&[3]), None);
        c.insert(key(&[1]), model(20));
        c.insert(key(&[4]), model(30)); // evicts {1, 2}
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[2]))), None);
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[1]))), Some(20));
        assert!(c.has_unsat_subset_of(&key(&[3])));
        c.insert(key(&[5]), model(40)); // evicts {3}
        assert!(!c.has_unsat_subset_of(&key(&[3])));
        assert_eq!(c.newest_models(5).map(|m| m.get(VarId::from_u32(0))).collect::<Vec<_>>(), [40, 30, 20]);
        assert_eq!(c.newest_models(2).count(), 2);
        // Long after every first entry is gone, the numbering still finds each entry.
        for i in 0..20 {
            c.insert(key(&[100 + i]), model(i as u64));
        }
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[119]))), Some(19));
        assert_eq!(value(c.newest_model_of_superset_of(&key(&[100]))), None);
    }
}
