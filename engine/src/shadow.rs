//! Shadow execution: the old and the new version in one state (Palikareva, Kuchta and Cadar's
//! shadow symbolic execution; ShadowJPF+'s complete mode).
//!
//! A state in [`ExecMode::Both`] holds values that may be shadow terms: `change(a, b)` makes
//! `Shadow(a, b)` unless the path condition proves `a = b` (refactoring elimination), and
//! everything computed from it shares structure. Shadows stay inside values; they never enter
//! the path condition, which holds projections. Every place where a value is *used* — a
//! branch, a check, a concretisation, an address — first takes its [`Executor::view`]: the term
//! itself in `Both`, its new projection once the path has diverged ([`ExecMode::Diverged`]).
//!
//! Where a viewed condition still holds a shadow, [`fork`](crate::fork) asks the solver's
//! four-way question (same-true, same-false, diff-true, diff-false) and forks once per
//! feasible outcome. A diff outcome is a *divergence*: the state records it
//! ([`Executor::diverge`]) and follows the new version from then on. This file holds the
//! pieces the instruction semantics share: views, `change`, and the rule for values that must
//! be made concrete.

use crate::access::{Offset, Target};
use crate::executor::{Executor, Flow};
use crate::address::{Access, ObjectId, Resolution};
use crate::run_error::RunError;
use crate::state::{Divergence, ExecMode, ExecutionState};
use crate::ErrorKind;
use penumbra_ir::Inst;
use penumbra_solver::{eval_version, mask, SatResult, TermId, Version as TermVersion};
use std::rc::Rc;

impl Executor<'_> {
    /// The term `st` uses for the value `t`: `t` itself unless the state follows one version,
    /// then that version's projection.
    #[inline]
    pub fn view(&mut self, st: &ExecutionState, t: TermId) -> TermId {
        if !self.store.has_shadow(t) {
            return t;
        }
        match st.mode.single() {
            None => t,
            Some(penumbra_ir::Version::Old) => self.store.old(t),
            Some(penumbra_ir::Version::New) => self.store.new(t),
        }
    }

    /// `change(old, new)` in a state of mode `Both`: the shadow of the two, or one term when
    /// the path condition proves them equal.
    pub fn change_value(&mut self, st: &ExecutionState, old: TermId, new: TermId) -> Result<TermId, crate::RunError> {
        Ok(self.solver.shadow_under(&mut self.store, &st.pc, old, new)?)
    }

    /// Marks `st` as diverged at its current instruction: from now on it follows the new
    /// version. `old` and `new` say what each version did there.
    pub fn diverge(&mut self, st: &mut ExecutionState, old: String, new: String) {
        debug_assert_eq!(st.mode, ExecMode::Both, "only a state running both versions diverges");
        let loc = self.location(st);
        st.divergence = Some(Rc::new(Divergence { func: loc.func, line: loc.line, old, new }));
        st.mode = ExecMode::Diverged;
        self.stats.divergences += 1;
    }

    /// Fixes a value holding a shadow (a size, a pointer handed to the C library, a function
    /// pointer) in a state running both versions. When the versions can agree on one value,
    /// both projections are fixed to it and the state runs on in both versions. When they
    /// cannot, the path diverges here (the versions compute different values that penumbra
    /// cannot use together) and follows the new version's value.
    pub(crate) fn concretize_shadow(&mut self, st: &mut ExecutionState, t: TermId) -> u64 {
        let w = self.store.width(t);
        let (o, n) = self.store.projections(t);
        let value_of = |ex: &Self, st: &ExecutionState, x: TermId, v: TermVersion| {
            eval_version(&ex.store, x, &*st.model, v) & mask(w)
        };
        let mut vo = value_of(self, st, o, TermVersion::Old);
        let mut vn = value_of(self, st, n, TermVersion::New);
        if vo != vn {
            let same = self.store.eq(o, n);
            match self.solver.check_model_from(&self.store, &st.pc, &[same], &st.model) {
                Ok((SatResult::Sat, Some(model))) => {
                    st.model = Rc::new(model);
                    vn = value_of(self, st, n, TermVersion::New);
                    vo = vn;
                }
                Ok((SatResult::Unknown, _)) => self.stats.solver_unknown += 1,
                _ => {}
            }
        }
        let kn = self.store.constant(w, vn);
        let eq_new = self.store.eq(n, kn);
        if vo == vn {
            let eq_old = self.store.eq(o, kn);
            st.pc.push(eq_old);
            st.pc.push(eq_new);
        } else {
            let ko = self.store.constant(w, vo);
            let eq_old = self.store.eq(o, ko);
            st.pc.push(eq_old);
            st.pc.push(eq_new);
            self.stats.value_divergences += 1;
            self.diverge(st, format!("value {vo}"), format!("value {vn}"));
        }
        vn
    }
}

impl Executor<'_> {
    /// The size of an allocation in each version: `(old, new)`, equal unless `t` holds a
    /// shadow in a state running both versions. Symbolic sizes are fixed to their model values.
    pub(crate) fn alloc_sizes(&mut self, st: &mut ExecutionState, t: TermId) -> (u64, u64) {
        let t = self.view(st, t);
        if !self.store.has_shadow(t) {
            if self.store.as_const(t).is_none() {
                self.stats.concretized_sizes += 1;
            }
            let n = self.concretize(st, t);
            return (n, n);
        }
        let (o, n) = self.store.projections(t);
        if self.store.as_const(o).is_none() || self.store.as_const(n).is_none() {
            self.stats.concretized_sizes += 1;
        }
        (self.concretize(st, o), self.concretize(st, n))
    }

    /// Records that `obj` (allocated with the larger size) has `old` bytes in the old version
    /// and `new` in the new one.
    pub(crate) fn record_shadow_size(&mut self, st: &mut ExecutionState, obj: ObjectId, old: u64, new: u64) {
        if old != new {
            Rc::make_mut(&mut st.shadow_sizes).push((obj, old, new));
        }
    }

    /// The bounds check of an access of `len` bytes at `offset` of `obj` against each
    /// version's size, when the versions allocated `obj` with different sizes: a four-way
    /// check while both versions run, the followed version's size otherwise.
    pub(crate) fn check_shadow_size(
        &mut self,
        st: &mut ExecutionState,
        obj: ObjectId,
        offset: Offset,
        len: u64,
        access: Access,
    ) -> Result<Option<crate::state::Ending>, RunError> {
        let Some(&(_, old, new)) = st.shadow_sizes.iter().find(|(o, _, _)| *o == obj) else { return Ok(None) };
        let off = match offset {
            Offset::Const(c) => self.store.constant(64, c),
            Offset::Sym(t) => t,
        };
        let len_k = self.store.constant(64, len);
        let end = self.store.add(off, len_k);
        let (old_k, new_k) = (self.store.constant(64, old), self.store.constant(64, new));
        let (out_old, out_new) = (self.store.ugt(end, old_k), self.store.ugt(end, new_k));
        let fail = match st.mode.single() {
            None => self.store.shadow(out_old, out_new),
            Some(penumbra_ir::Version::Old) => out_old,
            Some(penumbra_ir::Version::New) => out_new,
        };
        let kind = if access == Access::Read { ErrorKind::OutOfBoundsRead } else { ErrorKind::OutOfBoundsWrite };
        let message = format!(
            "{} of {} past the end of an object of {old} bytes (old) / {new} bytes (new)",
            access.name(),
            crate::address::bytes_text(len)
        );
        self.check(st, fail, |ex, st| ex.error(st, kind, message))
    }
}

/// Where an access goes in each version when its address holds a shadow.
#[derive(Debug)]
pub enum PairTarget {
    /// The versions access the same place (or only the new version goes on).
    One(Target),
    /// Old accesses `old`, new accesses `new`.
    Two { old: (ObjectId, Offset), new: (ObjectId, Offset) },
}

impl Executor<'_> {
    /// Resolves an access whose address `addr` holds a shadow, in a state running both
    /// versions. Equal projections (proven under the path condition) are one access.
    /// Otherwise each version's address is resolved to the object its model value lies in,
    /// and the bounds check is one four-way question: an error in one version only is a
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
        let (ao, an) = self.store.projections(addr);
        if self.solver.prove_equal(&mut self.store, &st.pc, ao, an)? {
            return Ok(PairTarget::One(self.resolve(st, inst, an, len, access)?));
        }
        let module = &self.prog.module;
        let value = |ex: &Self, t: TermId, v: TermVersion| eval_version(&ex.store, t, &*st.model, v);
        let (mo, mn) = (value(self, ao, TermVersion::Old), value(self, an, TermVersion::New));
        let live = |r: Resolution| match r {
            Resolution::InBounds { obj, .. } => Some(obj),
            Resolution::Fault {
                obj: Some(obj),
                kind: ErrorKind::OutOfBoundsRead | ErrorKind::OutOfBoundsWrite,
                ..
            } => Some(obj),
            _ => None,
        };
        let objects = (live(st.mem.classify(module, mo, len, access)), live(st.mem.classify(module, mn, len, access)));
        let (Some(oo), Some(on)) = objects else {
            return self.resolve_pair_concrete(st, ao, an, len, access);
        };
        let (ib_o, ib_n) = (self.in_bounds(st, oo, ao, len), self.in_bounds(st, on, an, len));
        let (out_o, out_n) = (self.store.not(ib_o), self.store.not(ib_n));
        let fail = self.store.shadow(out_o, out_n);
        let kind = if access == Access::Read { ErrorKind::OutOfBoundsRead } else { ErrorKind::OutOfBoundsWrite };
        let message =
            format!("{} of {} out of the bounds of its object", access.name(), crate::address::bytes_text(len));
        if let Some(ending) = self.check(st, fail, |ex, st| ex.error(st, kind, message))? {
            return Ok(PairTarget::One(Target::Flow(Flow::End(ending))));
        }
        if st.mode != ExecMode::Both {
            // Only the old version failed: the new version goes on alone.
            return Ok(PairTarget::One(self.resolve(st, inst, addr, len, access)?));
        }
        let offset = |ex: &mut Self, obj: ObjectId, a: TermId| {
            let base = ex.store.constant(64, st.mem.object(obj).base);
            let off = ex.store.sub(a, base);
            match ex.store.as_const(off) {
                Some(c) => Offset::Const(c),
                None => Offset::Sym(off),
            }
        };
        let (off_o, off_n) = (offset(self, oo, ao), offset(self, on, an));
        Ok(PairTarget::Two { old: (oo, off_o), new: (on, off_n) })
    }

    /// [`Executor::resolve_pair`] when a version's address lies in no object: both are fixed to
    /// their model values and classified like constant addresses.
    fn resolve_pair_concrete(
        &mut self,
        st: &mut ExecutionState,
        ao: TermId,
        an: TermId,
        len: u64,
        access: Access,
    ) -> Result<PairTarget, RunError> {
        if self.store.as_const(ao).is_none() || self.store.as_const(an).is_none() {
            self.stats.concretized_offsets += 1;
        }
        let vo = self.concretize(st, ao);
        let vn = self.concretize(st, an);
        let module = &self.prog.module;
        let ended = |flow| Ok(PairTarget::One(Target::Flow(Flow::End(flow))));
        match (st.mem.classify(module, vo, len, access), st.mem.classify(module, vn, len, access)) {
            (Resolution::InBounds { obj: oo, offset: of }, Resolution::InBounds { obj: no, offset: nf }) => {
                Ok(PairTarget::Two { old: (oo, Offset::Const(of)), new: (no, Offset::Const(nf)) })
            }
            (Resolution::Unsupported(m), _) | (_, Resolution::Unsupported(m)) => {
                ended(self.unsupported(st, m.to_string()))
            }
            (Resolution::InBounds { .. }, Resolution::Fault { kind, message, .. }) => {
                self.diverge(st, "passes".into(), "fails".into());
                ended(self.error(st, kind, message))
            }
            (Resolution::Fault { .. }, Resolution::InBounds { obj, offset }) => {
                self.diverge(st, "fails".into(), "passes".into());
                Ok(PairTarget::One(Target::Obj(obj, Offset::Const(offset))))
            }
            (Resolution::Fault { .. }, Resolution::Fault { kind, message, .. }) => ended(self.error(st, kind, message)),
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
        out: &mut [TermId; 8],
    ) {
        let mut from_old = [self.prog.zero_byte; 8];
        self.read_target(st, old.0, old.1, len, &mut from_old);
        self.read_target(st, new.0, new.1, len, out);
        for (slot, &o) in out.iter_mut().zip(&from_old).take(len) {
            *slot = self.store.shadow(o, *slot);
        }
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
    ) {
        for (version, (obj, offset)) in [(TermVersion::Old, old), (TermVersion::New, new)] {
            let (from, to) = match offset {
                Offset::Const(off) => (off as usize, off as usize + data.len()),
                Offset::Sym(_) => (0, st.mem.object(obj).size as usize),
            };
            let before = st.mem.bytes(obj, from as u64, (to - from) as u64);
            self.write_target(st, obj, offset, data);
            let after = st.mem.bytes(obj, from as u64, (to - from) as u64);
            let merged: Vec<TermId> = before
                .iter()
                .zip(&after)
                .map(|(&b, &a)| match version {
                    TermVersion::Old => self.store.shadow(a, b),
                    TermVersion::New => self.store.shadow(b, a),
                })
                .collect();
            st.mem.write_bytes(obj, from as u64, &merged);
        }
    }
}
