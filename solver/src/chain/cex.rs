//! The counterexample cache (KLEE's `CexCachingSolver`): a bounded list of
//! constraint sets with a model or an `unsat` verdict, used to answer
//! queries it has never seen:
//! 1. a cached **unsat subset** of the query's constraints means unsat;
//! 2. a cached **model of a superset** is a model of the query;
//! 3. the most recent models are **evaluated** on the query's constraints
//!    (extras first, then the path condition newest first); one that makes
//!    them all true is a model.
//!
//! On a miss the query goes down the chain *with* a model requested, so that
//! every cached `sat` carries a model to reuse. The entries live in
//! [`CexEntries`], indexed so that a lookup does not scan all of them.

use std::time::Instant;

use super::{Layer, Next};
use crate::chain::cex_entries::CexEntries;
use crate::error::SolverError;
use crate::eval::Evaluator;
use crate::query::{Answer, Ctx, Query};

pub(crate) struct CexCache {
    entries: CexEntries,
    eval_models: usize,
}

impl CexCache {
    /// Keeps `capacity` entries; evaluates the `eval_models` newest models on a query.
    pub(crate) fn new(capacity: usize, eval_models: usize) -> Self {
        CexCache { entries: CexEntries::new(capacity), eval_models }
    }

    fn lookup(&self, ctx: &mut Ctx<'_>, q: &Query<'_>) -> Option<Answer> {
        let key = q.key();
        if self.entries.has_unsat_subset_of(key) {
            ctx.stats.cex_unsat_subset_hits += 1;
            return Some(Answer::Unsat);
        }
        if let Some(m) = self.entries.newest_model_of_superset_of(key) {
            ctx.stats.cex_superset_hits += 1;
            return Some(Answer::Sat(Some(m.clone())));
        }
        for m in self.entries.newest_models(self.eval_models) {
            let mut ev = Evaluator::new(ctx.store, m);
            if q.likely_failing_first().all(|c| ev.eval(c) == 1) {
                ctx.stats.cex_eval_hits += 1;
                return Some(Answer::Sat(Some(m.clone())));
            }
        }
        None
    }
}

impl Layer for CexCache {
    fn solve(&mut self, ctx: &mut Ctx<'_>, q: &Query<'_>, next: &mut Next<'_>) -> Result<Answer, SolverError> {
        let start = Instant::now();
        ctx.stats.cex_queries += 1;
        let answer = match self.lookup(ctx, q) {
            Some(a) => {
                ctx.stats.cex_hits += 1;
                a
            }
            None => {
                let a = next.solve(ctx, &q.with_need_model(true))?;
                match &a {
                    Answer::Sat(Some(m)) => self.entries.insert(q.key().clone(), Some(m.clone())),
                    Answer::Unsat => self.entries.insert(q.key().clone(), None),
                    _ => {}
                }
                a
            }
        };
        ctx.stats.cex_time_us += ctx.layer_done(start, next.downstream);
        Ok(answer)
    }
}
