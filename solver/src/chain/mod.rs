//! The solver chain, after KLEE's: each layer answers a query itself or
//! passes it (possibly changed) to the next one, and the last stop is the
//! Bitwuzla core.
//!
//! ```text
//! Solver --> independence --> exact cache --> counterexample cache --> ranges --> core (Bitwuzla)
//! ```
//! Each layer is one small file implementing [`Layer`]; a disabled layer is
//! simply not in the chain. A [`Query`] is a path-condition part (ordered as
//! the engine keeps it, which the incremental core relies on) plus extra
//! constraints (branch literals, checked as assumptions); its cache key is
//! the sorted, deduplicated set of all its constraints.

pub(crate) mod cex;
pub(crate) mod exact;
pub(crate) mod independence;
mod partition;
pub(crate) mod ranges;

use std::cell::OnceCell;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::core::Core;
use crate::error::SolverError;
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
    /// below it: [`Next::solve`] adds it to the caller's `downstream` without reading the
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

/// One layer of the chain.
pub(crate) trait Layer: Send {
    /// Answers `q`, calling `next` for whatever this layer cannot answer.
    fn solve(&mut self, ctx: &mut Ctx<'_>, q: &Query<'_>, next: &mut Next<'_>) -> Result<Answer, SolverError>;
}

/// The rest of the chain after a layer. It also measures the time spent
/// downstream so that each layer can report only its own overhead.
pub(crate) struct Next<'a> {
    layers: &'a mut [Box<dyn Layer>],
    core: &'a mut Core,
    /// Time spent in calls to `solve` through this handle so far.
    pub downstream: Duration,
}

impl<'a> Next<'a> {
    pub fn new(layers: &'a mut [Box<dyn Layer>], core: &'a mut Core) -> Self {
        Next { layers, core, downstream: Duration::ZERO }
    }

    /// Passes `q` to the next layer (or the core).
    pub fn solve(&mut self, ctx: &mut Ctx<'_>, q: &Query<'_>) -> Result<Answer, SolverError> {
        let r = match self.layers.split_first_mut() {
            Some((first, rest)) => {
                let mut next = Next::new(rest, self.core);
                first.solve(ctx, q, &mut next)
            }
            None => self.core.solve(ctx, q),
        };
        self.downstream += ctx.inclusive;
        r
    }
}

/// Whether sorted `small` is a subset of sorted `big`.
pub(crate) fn is_subset(small: &[TermId], big: &[TermId]) -> bool {
    if small.len() > big.len() {
        return false;
    }
    let mut j = 0;
    for &x in small {
        while j < big.len() && big[j] < x {
            j += 1;
        }
        if j == big.len() || big[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

/// Microseconds of `d`, saturating.
pub(crate) fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_on_sorted_ids() {
        let t = |v: &[usize]| v.iter().map(|&i| TermId::from_index(i)).collect::<Vec<_>>();
        assert!(is_subset(&t(&[]), &t(&[1])));
        assert!(is_subset(&t(&[1, 3]), &t(&[1, 2, 3])));
        assert!(!is_subset(&t(&[1, 4]), &t(&[1, 2, 3])));
        assert!(!is_subset(&t(&[0]), &t(&[1, 2, 3])));
        assert!(!is_subset(&t(&[1, 2]), &t(&[1])));
    }
}
