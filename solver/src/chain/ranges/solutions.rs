//! The solutions of a path's constraints over small input domains, kept between queries.
//!
//! Deciding a query over two inputs in [-100, 100] by trying all 40,401 combinations costs
//! milliseconds; a path asks such a query at every branch, and each path condition is the
//! previous one and one more constraint. So the solutions of a path condition (the
//! combinations, in enumeration order, under which it holds) are kept, keyed by the inputs
//! and the constraints, and the next query on the path only filters them by what it adds: along
//! a path the sets shrink, and each level of the execution tree costs about one pass over the
//! domain in all. A set is reused only when its inputs are the query's and its domains
//! include the query's (narrower domains filter it), so a kept set answers exactly what
//! enumeration would, and in the same order: the first solution, hence the model, is the same.

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHasher};

use super::enumerate::{Program, MAX_EVALUATIONS};
use super::Ranges;
use crate::term::{TermId, TermStore};

/// The most solution values (a `u64` per input per solution) kept at once: 32 MiB.
const MAX_KEPT_VALUES: usize = 1 << 22;

/// Kept solution sets, the oldest dropped first.
#[derive(Default)]
pub(crate) struct SolutionSets {
    entries: FxHashMap<u64, Entry>,
    order: VecDeque<u64>,
    kept: usize,
}

/// The solutions of `path` over `atoms`, each ranging over its domain.
struct Entry {
    atoms: Vec<TermId>,
    domains: Vec<Ranges>,
    path: Vec<TermId>,
    /// `atoms.len()` values per solution, in enumeration order.
    points: Arc<[u64]>,
}

impl SolutionSets {
    /// How many solution sets are kept.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The solutions of `path` over `atoms` (input `j` ranging over `domains[j]`), flattened
    /// in enumeration order; `None` when finding them would cost more than
    /// [`MAX_EVALUATIONS`] node evaluations.
    pub(super) fn solutions(
        &mut self,
        store: &TermStore,
        atoms: &[TermId],
        domains: &[Ranges],
        path: &[TermId],
    ) -> Option<Arc<[u64]>> {
        let k = atoms.len().max(1);
        // The key of each prefix of the path.
        let mut keys = Vec::with_capacity(path.len() + 1);
        let mut h = FxHasher::default();
        atoms.hash(&mut h);
        keys.push(h.finish());
        for c in path {
            c.hash(&mut h);
            keys.push(h.finish());
        }
        let usable = |e: &Entry, i: usize| {
            e.atoms == atoms && e.path == path[..i] && e.domains.iter().zip(domains).all(|(kept, d)| kept.includes(d))
        };
        let hit = (0..=path.len()).rev().find(|&i| self.entries.get(&keys[i]).is_some_and(|e| usable(e, i)));
        let (base, from) = match hit {
            Some(i) => {
                let e = &self.entries[&keys[i]];
                (Some((e.points.clone(), e.domains == domains)), i)
            }
            None => (None, 0),
        };
        if let Some((points, true)) = &base {
            if from == path.len() {
                return Some(points.clone());
            }
        }
        let mut program = Program::new(store, &path[from..], atoms)?;
        let counts: Vec<u64> = domains.iter().map(Ranges::count).collect();
        let points: Vec<u64> = match base {
            Some((kept, same_domains)) => {
                if program.evaluations(&counts, (kept.len() / k) as u64) > MAX_EVALUATIONS {
                    return None;
                }
                let inside = |p: &&[u64]| same_domains || p.iter().zip(domains).all(|(&v, d)| d.contains(v));
                let mut points = Vec::new();
                program.each_holding(kept.chunks(k).filter(inside), |p| {
                    points.extend_from_slice(p);
                    false
                });
                points
            }
            None => {
                if program.evaluations(&counts, u64::MAX) > MAX_EVALUATIONS {
                    return None;
                }
                let candidates: Vec<Vec<u64>> = domains.iter().map(Ranges::closest_to_zero_first).collect();
                program.all_solutions(&candidates)
            }
        };
        let points: Arc<[u64]> = points.into();
        self.keep(
            keys[path.len()],
            Entry { atoms: atoms.to_vec(), domains: domains.to_vec(), path: path.to_vec(), points: points.clone() },
        );
        Some(points)
    }

    fn keep(&mut self, key: u64, entry: Entry) {
        if let Some(old) = self.entries.remove(&key) {
            self.kept -= old.points.len();
            self.order.retain(|&k| k != key);
        }
        self.kept += entry.points.len();
        self.entries.insert(key, entry);
        self.order.push_back(key);
        while self.kept > MAX_KEPT_VALUES {
            let Some(oldest) = self.order.pop_front() else { break };
            if let Some(old) = self.entries.remove(&oldest) {
                self.kept -= old.points.len();
            }
        }
    }
}
