//! Accesses through an address that holds a shadow: the old and the new version may access
//! different objects (`p = change(a, b); *p = 1`). Equal projections (proven under the path
//! condition) are one access; otherwise each version's address is resolved to its own object,
//! the bounds check is one four-way question (an error in one version only is a divergence),
//! and the read or write happens at both places, each version's bytes kept apart as shadows.

use super::Shadow;
use crate::address::{bytes_text, Access, ObjectId, Resolution};
use crate::error::ErrorKind;
use crate::run_error::RunError;
use crate::symbolic::access::Resolver;
use crate::symbolic::access::{Offset, Target, MAX_ACCESS_BYTES, MAX_RESOLVE_ATTEMPTS};
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::Flow;
use crate::symbolic::memory::MAX_SYMBOLIC_WRITE_BYTES;
use crate::symbolic::sizes::size_error;
use crate::symbolic::state::{ExecMode, ExecutionState, Side};
use penumbra_ir::Inst;
use penumbra_solver::{eval_version, TermId, Version as TermVersion};

/// Where an access goes in each version when its address holds a shadow.
#[derive(Debug)]
pub enum PairTarget {
    /// The versions access the same place (or only the new version goes on).
    One(Target),
    /// Old accesses `old`, new accesses `new`.
    Two { old: (ObjectId, Offset), new: (ObjectId, Offset) },
}

impl<'p> Shadow<'_, 'p> {
    /// Resolves an access whose address `addr` holds a shadow, in a state running both
    /// versions. Equal projections (proven under the path condition) are one access.
    /// Otherwise each version's address is resolved to the object it was derived from or its
    /// model value lies in, and the bounds check is one four-way question: an error in one version only is a
    /// divergence (the path ends when the new version fails, and follows the new version when
    /// only the old one fails); an error in both is an ordinary error. When a model value lies
    /// in no object, both addresses are fixed to their model values and classified.
    pub(crate) fn resolve_pair(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: TermId,
        len: u64,
        access: Access,
    ) -> Result<PairTarget, RunError> {
        let (ao, an) = self.cx.store.projections(addr);
        if self.cx.solver.prove_equal(&mut self.cx.store, &st.pc, ao, an)? {
            return Ok(PairTarget::One(Resolver::new(self.cx).resolve(st, inst, an, len, access)?));
        }
        if st.resolve_attempts >= MAX_RESOLVE_ATTEMPTS {
            return self.resolve_pair_concrete(st, ao, an, len, access);
        }
        let value = |ex: &Self, t: TermId, v: TermVersion| eval_version(&ex.cx.store, t, &*st.model, v);
        let (mo, mn) = (value(self, ao, TermVersion::Old), value(self, an, TermVersion::New));
        // Each version's address belongs to the object it was derived from, if it has one (as
        // a single address does: `Resolver::resolve_symbolic`), else to the object its model
        // value is in or next to.
        let derived = (Resolver::new(self.cx).derived_object(st, ao), Resolver::new(self.cx).derived_object(st, an));
        let mut place = |derived: Option<ObjectId>, v: u64, version| match (
            derived,
            Resolver::new(self.cx).classify_at(st, v, len, access, Some(version)),
        ) {
            (Some(d), _) => (Some(d), false),
            (None, Resolution::InBounds { obj, .. }) => (Some(obj), true),
            (
                None,
                Resolution::Fault {
                    obj: Some(obj),
                    kind: ErrorKind::OutOfBoundsRead | ErrorKind::OutOfBoundsWrite,
                    ..
                },
            ) => (Some(obj), false),
            (None, _) => (None, false),
        };
        let ((object_o, chosen_o), (object_n, chosen_n)) =
            (place(derived.0, mo, TermVersion::Old), place(derived.1, mn, TermVersion::New));
        let (Some(oo), Some(on)) = (object_o, object_n) else {
            return self.resolve_pair_concrete(st, ao, an, len, access);
        };
        let (ib_o, ib_n) =
            (Resolver::new(self.cx).in_bounds(st, oo, ao, len), Resolver::new(self.cx).in_bounds(st, on, an, len));
        // An object whose size is a term: each version's access within its own size too.
        let ib_o = self.within_size(st, oo, ao, len, TermVersion::Old, ib_o);
        let ib_n = self.within_size(st, on, an, len, TermVersion::New, ib_n);
        // A version's address with no object of its own (chosen by a condition, loaded from a
        // table) whose model value is inside an object is in that object on this path; the
        // addresses outside it are other paths, which re-execute the access (and so pick their
        // own objects), not errors of this object (KLEE's resolution, per version).
        let mut here = self.cx.store.tt();
        for (chosen, ib) in [(chosen_o, ib_o), (chosen_n, ib_n)] {
            if chosen {
                here = self.cx.store.and(here, ib);
            }
        }
        if self.cx.store.as_const(here).is_none() {
            if let Some(flow) = Resolver::new(self.cx).fork_object(st, here, inst)? {
                return Ok(PairTarget::One(Target::Flow(flow)));
            }
        }
        let (out_o, out_n) = (self.cx.store.not(ib_o), self.cx.store.not(ib_n));
        let fail = self.cx.store.shadow(out_o, out_n);
        let kind = access.out_of_bounds();
        let message = format!("{} of {} out of the bounds of its object", access.name(), bytes_text(len));
        if let Some(ending) = self.cx.check(st, fail, |ex, st| ex.error(st, kind, message.as_str()))? {
            return Ok(PairTarget::One(Target::Flow(Flow::End(Box::new(ending)))));
        }
        if st.mode != ExecMode::Both {
            // Only the old version failed: the new version goes on alone.
            return Ok(PairTarget::One(Resolver::new(self.cx).resolve(st, inst, addr, len, access)?));
        }
        let offset = |ex: &mut Self, obj: ObjectId, a: TermId| {
            let base = ex.cx.store.constant(64, st.mem.object(obj).base);
            let off = ex.cx.store.sub(a, base);
            match ex.cx.store.as_const(off) {
                Some(c) => Offset::Const(c),
                None => Offset::Sym(off),
            }
        };
        let (off_o, off_n) = (offset(self, oo, ao), offset(self, on, an));
        Ok(PairTarget::Two { old: (oo, off_o), new: (on, off_n) })
    }

    /// `inside` (the access of `len` bytes at `addr` is inside `obj`'s bytes) and, for an object
    /// whose size is a term, within `version`'s projection of that size.
    fn within_size(
        &mut self,
        st: &ExecutionState,
        obj: ObjectId,
        addr: TermId,
        len: u64,
        version: TermVersion,
        inside: TermId,
    ) -> TermId {
        let Some(size) = st.mem.size_term(obj) else { return inside };
        let size = match version {
            TermVersion::Old => self.cx.store.old(size),
            TermVersion::New => self.cx.store.new(size),
        };
        let base = self.cx.store.constant(64, st.mem.object(obj).base);
        let off = self.cx.store.sub(addr, base);
        let len_k = self.cx.store.constant(64, len);
        let end = self.cx.store.add(off, len_k);
        let fits = self.cx.store.ule(end, size);
        self.cx.store.and(inside, fits)
    }

    /// [`Shadow::resolve_pair`] when a version's address lies in no object: both are fixed to
    /// their model values and classified like constant addresses.
    fn resolve_pair_concrete(
        &mut self,
        st: &mut ExecutionState,
        ao: TermId,
        an: TermId,
        len: u64,
        access: Access,
    ) -> Result<PairTarget, RunError> {
        let vo = self.cx.concretize(st, ao, Fixed::Pointer)?;
        let vn = self.cx.concretize(st, an, Fixed::Pointer)?;
        let module = &self.cx.prog.module;
        let ended = |flow| Ok(PairTarget::One(Target::Flow(Flow::End(Box::new(flow)))));
        match (st.mem.classify(module, vo, len, access), st.mem.classify(module, vn, len, access)) {
            (Resolution::InBounds { obj: oo, offset: of }, Resolution::InBounds { obj: no, offset: nf }) => {
                // Objects whose size is a term: each version within its own size.
                let (ko, kn) = (self.cx.store.constant(64, vo), self.cx.store.constant(64, vn));
                let tt = self.cx.store.tt();
                let fits_o = self.within_size(st, oo, ko, len, TermVersion::Old, tt);
                let fits_n = self.within_size(st, no, kn, len, TermVersion::New, tt);
                let (out_o, out_n) = (self.cx.store.not(fits_o), self.cx.store.not(fits_n));
                let fail = self.cx.store.shadow(out_o, out_n);
                let nf_k = self.cx.store.constant(64, nf);
                if let Some(ending) = self.cx.check(st, fail, |ex, st| size_error(ex, st, no, nf_k, len, access))? {
                    return ended(ending);
                }
                if st.mode != ExecMode::Both {
                    // Only the old version failed: the new version goes on alone.
                    return Ok(PairTarget::One(Target::Obj(no, Offset::Const(nf))));
                }
                Ok(PairTarget::Two { old: (oo, Offset::Const(of)), new: (no, Offset::Const(nf)) })
            }
            (Resolution::Unsupported(m), _) | (_, Resolution::Unsupported(m)) => {
                ended(self.cx.unsupported(st, m.to_string()))
            }
            (Resolution::InBounds { .. }, Resolution::Fault { kind, message, .. }) => {
                self.cx.diverge(st, Side::Passes, Side::Fails);
                ended(self.cx.error(st, kind, message))
            }
            (Resolution::Fault { .. }, Resolution::InBounds { obj, offset }) => {
                self.cx.diverge(st, Side::Fails, Side::Passes);
                Ok(PairTarget::One(Target::Obj(obj, Offset::Const(offset))))
            }
            (Resolution::Fault { .. }, Resolution::Fault { kind, message, .. }) => {
                ended(self.cx.error(st, kind, message))
            }
        }
    }

    /// Reads `len` bytes at two places: the old version's bytes from `old`, the new version's
    /// from `new`, as shadows.
    pub(crate) fn read_pair(
        &mut self,
        st: &mut ExecutionState,
        old: (ObjectId, Offset),
        new: (ObjectId, Offset),
        len: usize,
        out: &mut [TermId; MAX_ACCESS_BYTES],
    ) -> Result<(), RunError> {
        let mut from_old = [self.cx.prog.zero_byte; MAX_ACCESS_BYTES];
        Resolver::new(self.cx).read_target(st, old.0, old.1, len, &mut from_old)?;
        Resolver::new(self.cx).read_target(st, new.0, new.1, len, out)?;
        for (slot, &o) in out.iter_mut().zip(&from_old).take(len) {
            *slot = self.cx.store.shadow(o, *slot);
        }
        Ok(())
    }

    /// Writes `data` at two places: the old version's value at `old` (the new version's bytes
    /// there unchanged), then the new version's value at `new` (keeping the old version's).
    /// Each write is an ordinary one, after which the object's bytes are merged with what they
    /// were before: over the written range for a constant offset, over the object otherwise.
    pub(crate) fn write_pair(
        &mut self,
        st: &mut ExecutionState,
        old: (ObjectId, Offset),
        new: (ObjectId, Offset),
        data: &[TermId],
    ) -> Result<(), RunError> {
        // Offsets into objects too large for a symbolic write are fixed before either write
        // (fixing one forks a state that executes the instruction again).
        let fixed = |ex: &mut Self, st: &mut ExecutionState, (obj, offset): (ObjectId, Offset)| match offset {
            Offset::Sym(t) if st.mem.object(obj).size > MAX_SYMBOLIC_WRITE_BYTES => {
                Ok::<_, RunError>((obj, Offset::Const(ex.cx.concretize(st, t, Fixed::Offset)?)))
            }
            _ => Ok((obj, offset)),
        };
        let (old, new) = (fixed(self, st, old)?, fixed(self, st, new)?);
        for (version, (obj, offset)) in [(TermVersion::Old, old), (TermVersion::New, new)] {
            let (from, to) = match offset {
                Offset::Const(off) => (off as usize, off as usize + data.len()),
                Offset::Sym(_) => (0, st.mem.object(obj).size as usize),
            };
            let before = st.mem.bytes(obj, from as u64, (to - from) as u64);
            Resolver::new(self.cx).write_target(st, obj, offset, data)?;
            let after = st.mem.bytes(obj, from as u64, (to - from) as u64);
            let merged: Vec<TermId> = before
                .iter()
                .zip(&after)
                .map(|(&b, &a)| match version {
                    TermVersion::Old => self.cx.store.shadow(a, b),
                    TermVersion::New => self.cx.store.shadow(b, a),
                })
                .collect();
            st.mem.write_bytes(obj, from as u64, &merged);
        }
        Ok(())
    }
}
