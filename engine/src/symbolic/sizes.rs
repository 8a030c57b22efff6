//! Objects whose size is a term: `malloc(n)`, `calloc`, `realloc` and variable-length arrays
//! with a symbolic `n`, and sizes that differ between the versions (`malloc(change(4, 5))`).
//!
//! KLEE fixes such a size to one value and loses every error that depends on it. Here the size
//! stays a term. The object is backed by storage for the largest size the path allows (its
//! *capacity*, found by [`Solver::max_value`](penumbra_solver::Solver::max_value)), and every
//! access, which the address space checks against the capacity, is also checked against the
//! size term ([`Resolver::check_size`]): `offset + len > n` is a check like any other, whose
//! failing side is an out-of-bounds error and which, when the size holds a shadow, is a
//! four-way question (an overflow in the new version only is a regression).
//!
//! Storage is bounded: a path on which the size may exceed `--max-object-size` forks, and the
//! side above it ends early (`object-too-large`, counted); where only one version's size may
//! exceed it, the versions diverge there (a new version that allocates without bound is how
//! a memory-exhaustion regression shows). A size the path fixes to one value
//! (the common case: a length that earlier branches decided) costs two queries and leaves a
//! plain object.
//!
//! Addresses after an object of symbolic size follow its capacity, so they may differ from a
//! native run's (as KLEE's addresses do); nothing in C depends on the distance between objects.

use super::access::{Offset, Resolver};
use super::context::Context;
use super::state::{EarlyReason, Ending, ExecutionState};
use crate::address::{Access, ObjectId, Resolution};
use crate::run_error::RunError;
use penumbra_ir::Version;
use penumbra_solver::{eval_version, SatResult, TermId, Version as TermVersion};

/// The size of a new object.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Extent {
    /// The bytes backing it: the largest size the path allows.
    pub capacity: u64,
    /// Its size, when that is not `capacity` on every path through here (symbolic, or
    /// different in each version).
    pub term: Option<TermId>,
}

impl<'p> Resolver<'_, 'p> {
    /// The extent of a new object of `size` bytes (a 64-bit term) for `st`; `Err` when every
    /// size the path allows is above `--max-object-size` (the path ends early).
    pub(crate) fn extent(&mut self, st: &mut ExecutionState, size: TermId) -> Result<Result<Extent, Ending>, RunError> {
        let size = self.cx.view(st, size);
        if let Some(c) = self.cx.store.as_const(size) {
            return Ok(Ok(Extent { capacity: c, term: None }));
        }
        self.cx.stats.symbolic_sizes += 1;
        let (o, n) = if self.cx.store.has_shadow(size) { self.cx.store.projections(size) } else { (size, size) };
        let limit = self.cx.config.max_object_size;
        let k = self.cx.store.constant(64, limit);
        let (big_o, big_n) = (self.cx.store.ugt(o, k), self.cx.store.ugt(n, k));
        // Sizes of each version: a four-way check. An object too large in one version only is
        // a divergence (the new version's: its test ends there, and replay under a memory
        // limit shows what the allocation does natively; the old version's: the new one goes on).
        let too_large = if o == n { big_n } else { self.cx.store.shadow(big_o, big_n) };
        if let Some(ending) = self.cx.check(st, too_large, |_, _| Ending::Early(EarlyReason::ObjectTooLarge))? {
            return Ok(Err(ending));
        }
        // After a divergence at the check, the size is the new version's alone.
        let size = self.cx.view(st, size);
        let (o, n) = if self.cx.store.has_shadow(size) { self.cx.store.projections(size) } else { (size, size) };
        let old = self.largest(st, o, limit)?;
        let new = if n == o { old } else { self.largest(st, n, limit)? };
        let capacity = old.0.max(new.0);
        let mut pinned = |(max, fixed): (u64, bool), t: TermId| if fixed { self.cx.store.constant(64, max) } else { t };
        let (po, pn) = (pinned(old, o), pinned(new, n));
        let term = self.cx.store.shadow(po, pn);
        let term = (self.cx.store.as_const(term) != Some(capacity)).then_some(term);
        Ok(Ok(Extent { capacity, term }))
    }

    /// The largest value of `t` (no shadow) on `st`'s path, at most `limit`, and whether the
    /// path fixes `t` to it.
    fn largest(&mut self, st: &ExecutionState, t: TermId, limit: u64) -> Result<(u64, bool), RunError> {
        let max = self.cx.solver.max_value(&mut self.cx.store, &st.pc, t, &st.model, limit)?;
        if self.cx.model_value(st, t) != max {
            return Ok((max, false));
        }
        let k = self.cx.store.constant(64, max);
        let below = self.cx.store.ult(t, k);
        let fixed = self.cx.solver.check(&self.cx.store, &st.pc, &[below])? == SatResult::Unsat;
        Ok((max, fixed))
    }

    /// Gives the new object `obj` its extent's size term, if it has one.
    pub(crate) fn set_extent(&mut self, st: &mut ExecutionState, obj: ObjectId, extent: Extent) {
        if let Some(term) = extent.term {
            st.mem.set_size_term(obj, term);
        }
    }

    /// The check of an access of `len` bytes at `offset` of `obj` (inside its capacity)
    /// against the object's size term, when it has one; `Some` when the whole path fails.
    pub(crate) fn check_size(
        &mut self,
        st: &mut ExecutionState,
        obj: ObjectId,
        offset: Offset,
        len: u64,
        access: Access,
    ) -> Result<Option<Ending>, RunError> {
        let off = match offset {
            Offset::Const(c) => self.cx.store.constant(64, c),
            Offset::Sym(t) => t,
        };
        let Some(fail) = self.past_size(st, obj, off, len) else { return Ok(None) };
        self.cx.check(st, fail, |ex, st| size_error(ex, st, obj, off, len, access))
    }

    /// `offset + len > size` for an object with a size term (`None` otherwise). The offset is
    /// inside the capacity, so the sum does not wrap.
    pub(crate) fn past_size(&mut self, st: &ExecutionState, obj: ObjectId, off: TermId, len: u64) -> Option<TermId> {
        let size = st.mem.size_term(obj)?;
        let len_k = self.cx.store.constant(64, len);
        let end = self.cx.store.add(off, len_k);
        Some(self.cx.store.ugt(end, size))
    }

    /// The size term of `obj` as `st` sees it (its version's projection), with no shadow: while
    /// both versions run, the larger of the two versions' sizes. `None` for an object of
    /// constant size.
    pub(crate) fn size_view(&mut self, st: &ExecutionState, obj: ObjectId) -> Option<TermId> {
        let size = st.mem.size_term(obj)?;
        let size = self.cx.view(st, size);
        if !self.cx.store.has_shadow(size) {
            return Some(size);
        }
        let (o, n) = self.cx.store.projections(size);
        let old_larger = self.cx.store.ugt(o, n);
        Some(self.cx.store.ite(old_larger, o, n))
    }

    /// The verdict for an access of `len` bytes at the address `v` (the model's value of an
    /// address term): the address space's ([`AddressSpace::classify`]), except that an access
    /// inside an object's capacity but past its size (under the model) is out of bounds: past
    /// `version`'s size, or, without one, the size the state sees (the larger version's while
    /// both run).
    ///
    /// [`AddressSpace::classify`]: crate::address::AddressSpace::classify
    pub(crate) fn classify_at(
        &self,
        st: &ExecutionState,
        v: u64,
        len: u64,
        access: Access,
        version: Option<TermVersion>,
    ) -> Resolution {
        let verdict = st.mem.classify(&self.cx.prog.module, v, len, access);
        let Resolution::InBounds { obj, offset } = verdict else { return verdict };
        let Some(size) = st.mem.size_term(obj) else { return verdict };
        let of = |v| eval_version(&self.cx.store, size, &*st.model, v);
        let size = match (version, st.mode.single()) {
            (Some(v), _) => of(v),
            (None, Some(Version::Old)) => of(TermVersion::Old),
            (None, Some(Version::New)) => of(TermVersion::New),
            (None, None) => of(TermVersion::Old).max(of(TermVersion::New)),
        };
        if offset + len <= size {
            return verdict;
        }
        let message = st.mem.out_of_bounds_message(&self.cx.prog.module, obj, access, len, offset as i64, size);
        Resolution::Fault { kind: access.out_of_bounds(), obj: Some(obj), message }
    }
}

/// The error of an access past the size term of `obj`, with the offset and the size of
/// `st`'s model (the new version's, in shadow execution).
pub(crate) fn size_error(
    cx: &Context<'_>,
    st: &ExecutionState,
    obj: ObjectId,
    off: TermId,
    len: u64,
    access: Access,
) -> Ending {
    let offset = cx.model_value(st, off) as i64;
    let size = st.mem.size_term(obj).map_or(st.mem.object(obj).size, |t| cx.model_value(st, t));
    let message = st.mem.out_of_bounds_message(&cx.prog.module, obj, access, len, offset, size);
    cx.error(st, access.out_of_bounds(), message)
}
