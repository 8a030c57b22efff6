//! A question to the solver chain and its answer: the [`Query`] (a path-condition part and
//! extra constraints, with its cache key), the [`Answer`], and the [`Ctx`] that every layer of
//! the chain and the Bitwuzla core are given beside it.

use std::cell::OnceCell;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::model::Model;
use crate::stats::SolverStats;
use crate::term::{TermId, TermStore};
use crate::vars::VarIndex;

/// A satisfiability question: is `pc ∧ extra` satisfiable (and if it is and
/// `need_model`, what is a model)?
pub(crate) struct Query<'a> {
    pub pc: &'a [TermId],
    pub extra: &'a [TermId],
    pub need_model: bool,
    /// A model the caller knows to satisfy `pc` (the engine's state carries one). With it,
    /// the independence layer asks only about the constraints connected to `extra` and takes
    /// the rest of the model from `base`.
    pub base: Option<&'a Model>,
    key: OnceCell<Arc<[TermId]>>,
}

impl<'a> Query<'a> {
    pub fn new(pc: &'a [TermId], extra: &'a [TermId], need_model: bool) -> Self {
        Query { pc, extra, need_model, base: None, key: OnceCell::new() }
    }

    /// The same constraints, with a different model requirement.
    pub fn with_need_model(&self, need_model: bool) -> Query<'a> {
        Query { pc: self.pc, extra: self.extra, need_model, base: self.base, key: self.key.clone() }
    }

    /// All constraints, sorted and deduplicated (the cache key).
    pub fn key(&self) -> &Arc<[TermId]> {
        self.key.get_or_init(|| {
            let mut k: Vec<TermId> = self.pc.iter().chain(self.extra).copied().collect();
            k.sort_unstable();
            k.dedup();
            k.into()
        })
    }

    /// Constraints in the order most likely to fail first when tried
    /// against an old model: the extras, then the path condition newest first.
    pub fn likely_failing_first(&self) -> impl Iterator<Item = TermId> + '_ {
        self.extra.iter().chain(self.pc.iter().rev()).copied()
    }
}

/// The answer to a [`Query`]. `Sat(None)` only when no model was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    Sat(Option<Model>),
    Unsat,
    Unknown,
}

/// What every layer may use besides the query.
pub(crate) struct Ctx<'s> {
    pub store: &'s TermStore,
    pub stats: &'s mut SolverStats,
    pub vars: &'s mut VarIndex,
    /// The wall time of the layer (or core) call that returned last, its own and everything
    /// below it: [`Next::solve`](crate::chain::Next::solve) adds it to the caller's `downstream` without reading the
    /// clock again (hundreds of thousands of cache hits per run make clock reads show).
    pub inclusive: Duration,
}

impl Ctx<'_> {
    /// Ends a layer's call that started at `start` and spent `downstream` in the layers below:
    /// records the inclusive time for the caller and returns the layer's own microseconds.
    pub fn layer_done(&mut self, start: Instant, downstream: Duration) -> u64 {
        self.inclusive = start.elapsed();
        micros(self.inclusive.saturating_sub(downstream))
    }
}

/// Microseconds of `d`, saturating.
pub(crate) fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}
