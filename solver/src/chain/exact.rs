//! The exact query cache: a bounded map from a query's constraint set
//! (sorted ids) to its answer. Unknown answers are not cached; a cached
//! `sat` without a model does not answer a query that needs one (the new
//! answer replaces it). Eviction is first-in first-out, so behaviour does
//! not depend on hash-map order.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::{Layer, Next};
use crate::error::SolverError;
use crate::query::{Answer, Ctx, Query};
use crate::term::TermId;

pub(crate) struct ExactCache {
    map: FxHashMap<Arc<[TermId]>, Answer>,
    order: VecDeque<Arc<[TermId]>>,
    capacity: usize,
}

impl ExactCache {
    pub(crate) fn new(capacity: usize) -> Self {
        ExactCache { map: FxHashMap::default(), order: VecDeque::new(), capacity: capacity.max(1) }
    }

    fn insert(&mut self, key: Arc<[TermId]>, answer: Answer) {
        if let Some(slot) = self.map.get_mut(&key) {
            *slot = answer;
            return;
        }
        if self.order.len() >= self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
            }
        }
        self.order.push_back(key.clone());
        self.map.insert(key, answer);
    }
}

impl Layer for ExactCache {
    fn solve(&mut self, ctx: &mut Ctx<'_>, q: &Query<'_>, next: &mut Next<'_>) -> Result<Answer, SolverError> {
        let start = Instant::now();
        ctx.stats.exact_queries += 1;
        let key = q.key().clone();
        let hit = match self.map.get(&key) {
            Some(Answer::Unsat) => Some(Answer::Unsat),
            Some(Answer::Sat(Some(m))) => Some(Answer::Sat(Some(m.clone()))),
            Some(Answer::Sat(None)) if !q.need_model => Some(Answer::Sat(None)),
            _ => None,
        };
        let answer = match hit {
            Some(a) => {
                ctx.stats.exact_hits += 1;
                a
            }
            None => {
                let a = next.solve(ctx, q)?;
                if a != Answer::Unknown {
                    self.insert(key, a.clone());
                }
                a
            }
        };
        ctx.stats.exact_time_us += ctx.layer_done(start, next.downstream);
        Ok(answer)
    }
}
