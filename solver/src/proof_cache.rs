//! The cache of refactoring proofs (`pc ⇒ a = b`, see `prove.rs`): each pair `(a, b)` with the
//! path conditions it was proven under, as sorted sets. A proof under a subset of the current
//! path condition still holds (more constraints only remove models). The cache is bounded
//! (oldest proofs evicted first).

use std::collections::VecDeque;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::chain::is_subset;
use crate::term::TermId;

/// Proven pairs, each with the path conditions it holds under.
pub(crate) struct ProofCache {
    proofs: FxHashMap<(TermId, TermId), Vec<Arc<[TermId]>>>,
    order: VecDeque<(TermId, TermId)>,
    capacity: usize,
}

impl ProofCache {
    pub(crate) fn new(capacity: usize) -> Self {
        ProofCache { proofs: FxHashMap::default(), order: VecDeque::new(), capacity: capacity.max(1) }
    }

    pub(crate) fn lookup(&self, pair: (TermId, TermId), pc: &[TermId]) -> bool {
        self.proofs.get(&pair).is_some_and(|sets| sets.iter().any(|s| is_subset(s, pc)))
    }

    pub(crate) fn insert(&mut self, pair: (TermId, TermId), pc: Arc<[TermId]>) {
        if self.order.len() >= self.capacity {
            if let Some(old) = self.order.pop_front() {
                if let Some(sets) = self.proofs.get_mut(&old) {
                    if !sets.is_empty() {
                        sets.remove(0);
                    }
                    if sets.is_empty() {
                        self.proofs.remove(&old);
                    }
                }
            }
        }
        self.order.push_back(pair);
        self.proofs.entry(pair).or_default().push(pc);
    }
}
