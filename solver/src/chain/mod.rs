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
mod cex_entries;
pub(crate) mod exact;
pub(crate) mod independence;
mod partition;
pub(crate) mod ranges;

use std::time::Duration;

use crate::core::Core;
use crate::error::SolverError;
use crate::query::{Answer, Ctx, Query};
use crate::term::TermId;

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
