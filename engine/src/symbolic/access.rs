//! Resolving an address term to the object and offset an access of some bytes reaches, with
//! the implicit memory checks, and reading and writing bytes there.
//!
//! **Constant addresses** are resolved like the concrete interpreter resolves them: the object
//! containing the address (or whose redzone it is in), its liveness, writability and bounds.
//!
//! **Symbolic addresses** are resolved KLEE-style, one state per object the address may fall
//! into and one error for the rest ([`resolve`](super::resolve)).
//!
//! An object whose size is a term (symbolic, or different in each version: `malloc(change(4,
//! 5))`) holds its capacity; an access to it is also checked against the size term, a
//! four-way check while both versions run and the sizes differ (`Resolver::check_size`,
//! `sizes.rs`). Inside a `penumbra_execute` block a write changes only the running version's
//! projection of the bytes.
//!
//! The three files' operations are methods of a [`Resolver`], a view of the [`Context`] they
//! fork and ask the solver through, not of the context itself.

use super::concretize::Fixed;
use super::context::{Context, Flow};
use super::memory::{select_byte, MAX_SYMBOLIC_WRITE_BYTES};
use super::state::{ExecMode, ExecutionState};
use crate::address::{Access, ObjectId, Resolution};
use crate::run_error::RunError;
use penumbra_ir::{Inst, Version};
use penumbra_solver::TermId;

/// Memory resolution over the [`Context`] (this file, `resolve.rs` and `sizes.rs`).
pub struct Resolver<'c, 'p> {
    pub(super) cx: &'c mut Context<'p>,
}

impl<'c, 'p> Resolver<'c, 'p> {
    pub fn new(cx: &'c mut Context<'p>) -> Self {
        Resolver { cx }
    }
}

/// The most bytes one load or store moves: an x87 `long double`'s 10 (the term store's wide
/// terms go to 96 bits).
pub(crate) const MAX_ACCESS_BYTES: usize = 12;

/// The most objects (or functions) one access forks to before its address is fixed.
pub const MAX_RESOLVE_ATTEMPTS: u32 = 64;

/// An offset into an object.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Offset {
    Const(u64),
    /// A 64-bit term known to be in bounds for the access.
    Sym(TermId),
}

/// Where an access goes, or how the instruction ends.
#[derive(Debug)]
pub enum Target {
    Obj(ObjectId, Offset),
    Flow(Flow),
}

impl<'p> Resolver<'_, 'p> {
    /// Resolves an access of `len > 0` bytes at the address term `addr` executed by `inst`.
    /// In shadow execution, an object whose size differs between the versions is also checked
    /// against the size of each version the state runs (`check_shadow_size`).
    pub fn resolve(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: TermId,
        len: u64,
        access: Access,
    ) -> Result<Target, RunError> {
        let target = self.resolve_in_memory(st, inst, addr, len, access)?;
        if let Target::Obj(obj, offset) = target {
            // A symbolic address was resolved within the size its state sees ([`in_bounds`]);
            // a constant one, or sizes that differ between the versions, are checked here.
            let checked = matches!(offset, Offset::Sym(_))
                && st.mem.size_term(obj).is_some_and(|s| !self.cx.store.has_shadow(s) || st.mode.single().is_some());
            if st.mem.size_term(obj).is_some() && !checked {
                if let Some(ending) = self.check_size(st, obj, offset, len, access)? {
                    return Ok(Target::Flow(Flow::End(Box::new(ending))));
                }
            }
        }
        Ok(target)
    }

    fn resolve_in_memory(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: TermId,
        len: u64,
        access: Access,
    ) -> Result<Target, RunError> {
        let addr = self.cx.view(st, addr);
        let module = &self.cx.prog.module;
        let a = match self.cx.store.as_const(addr) {
            Some(a) => a,
            // Both versions, one address wanted (the C library's accesses): fix it.
            None if self.cx.store.has_shadow(addr) => self.cx.concretize(st, addr, Fixed::Pointer)?,
            None if st.resolve_attempts >= MAX_RESOLVE_ATTEMPTS => self.cx.concretize(st, addr, Fixed::Pointer)?,
            // An address the path allows one value is that value. Optimised C computes many
            // such addresses without a branch (`args += STREQ (*args, "+")`, expr's nextarg:
            // a comparison whose outcome earlier branches decided): taken as a term, every
            // read through it would be an `ite` over the object's bytes, and every query
            // after it would carry them (expr's queries grew to 200 kB, 27 ms each).
            None => match self.cx.fixed_value(st, addr)? {
                Some(a) => {
                    self.cx.stats.fixed_addresses += 1;
                    a
                }
                None => return self.resolve_symbolic(st, inst, addr, len, access),
            },
        };
        if let Some((id, off)) = st.mem.permitted(a, len, access) {
            return Ok(Target::Obj(id, Offset::Const(off)));
        }
        Ok(Target::Flow(Flow::End(Box::new(match st.mem.classify(module, a, len, access) {
            Resolution::InBounds { obj, offset } => return Ok(Target::Obj(obj, Offset::Const(offset))),
            Resolution::Fault { kind, message, .. } => self.cx.error(st, kind, message),
            Resolution::Unsupported(m) => self.cx.unsupported(st, m.to_string()),
        }))))
    }

    /// `addr - base <u size - len + 1`: the access of `len` bytes at `addr` is inside `obj`;
    /// for an object whose size is a term, also within that size (within the larger version's
    /// while both versions run: where only one version's size holds, the four-way
    /// [`Resolver::check_size`] decides).
    pub(crate) fn in_bounds(&mut self, st: &ExecutionState, obj: ObjectId, addr: TermId, len: u64) -> TermId {
        let o = st.mem.object(obj);
        if o.size < len {
            return self.cx.store.ff();
        }
        let (base, limit) = (o.base, o.size - len + 1);
        let base = self.cx.store.constant(64, base);
        let off = self.cx.store.sub(addr, base);
        let limit = self.cx.store.constant(64, limit);
        let inside = self.cx.store.ult(off, limit);
        match self.size_view(st, obj) {
            Some(size) => {
                let len_k = self.cx.store.constant(64, len);
                let end = self.cx.store.add(off, len_k);
                let fits = self.cx.store.ule(end, size);
                self.cx.store.and(inside, fits)
            }
            None => inside,
        }
    }

    /// The `len` (1..=8) bytes at a resolved target, as terms.
    pub(crate) fn read_target(
        &mut self,
        st: &mut ExecutionState,
        obj: ObjectId,
        offset: Offset,
        len: usize,
        out: &mut [TermId; MAX_ACCESS_BYTES],
    ) -> Result<(), RunError> {
        match offset {
            Offset::Const(off) => st.mem.read_bytes(obj, off, &mut out[..len]),
            Offset::Sym(off) => {
                let bytes = &st.mem.object(obj).contents;
                for (j, slot) in out.iter_mut().enumerate().take(len) {
                    match select_byte(&mut self.cx.store, bytes, off, j, len) {
                        Some(t) => *slot = t,
                        None => {
                            let o = self.cx.concretize(st, off, Fixed::Offset)?;
                            st.mem.read_bytes(obj, o, &mut out[..len]);
                            return Ok(());
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Writes `data` at a resolved target.
    pub fn write_target(
        &mut self,
        st: &mut ExecutionState,
        obj: ObjectId,
        offset: Offset,
        data: &[TermId],
    ) -> Result<(), RunError> {
        if let ExecMode::Block(version) = st.mode {
            // One version's write inside a `penumbra_execute` block: keep the other version's
            // bytes.
            let off = match offset {
                Offset::Const(off) => off,
                Offset::Sym(off) if st.mem.object(obj).size <= MAX_SYMBOLIC_WRITE_BYTES => {
                    // Write symbolically, then take this version's projection of the result and
                    // the other version's of what was there (no concrete offset: that would
                    // drop the paths of every other offset).
                    let size = st.mem.object(obj).size;
                    let before = st.mem.bytes(obj, 0, size);
                    st.mem.write_symbolic(&mut self.cx.store, obj, off, data);
                    let after = st.mem.bytes(obj, 0, size);
                    let merged: Vec<TermId> = before
                        .iter()
                        .zip(&after)
                        .map(|(&b, &a)| match version {
                            Version::Old => {
                                let (o, n) = (self.cx.store.old(a), self.cx.store.new(b));
                                self.cx.store.shadow(o, n)
                            }
                            Version::New => {
                                let (o, n) = (self.cx.store.old(b), self.cx.store.new(a));
                                self.cx.store.shadow(o, n)
                            }
                        })
                        .collect();
                    st.mem.write_bytes(obj, 0, &merged);
                    return Ok(());
                }
                Offset::Sym(off) => self.cx.concretize(st, off, Fixed::Offset)?,
            };
            let current = st.mem.bytes(obj, off, data.len() as u64);
            let merged: Vec<TermId> = data
                .iter()
                .zip(&current)
                .map(|(&d, &c)| match version {
                    Version::Old => self.cx.store.shadow(d, c),
                    Version::New => self.cx.store.shadow(c, d),
                })
                .collect();
            st.mem.write_bytes(obj, off, &merged);
            return Ok(());
        }
        match offset {
            Offset::Const(off) => st.mem.write_bytes(obj, off, data),
            Offset::Sym(off) if st.mem.object(obj).size <= MAX_SYMBOLIC_WRITE_BYTES => {
                st.mem.write_symbolic(&mut self.cx.store, obj, off, data);
            }
            Offset::Sym(off) => {
                let o = self.cx.concretize(st, off, Fixed::Offset)?;
                st.mem.write_bytes(obj, o, data);
            }
        }
        Ok(())
    }
}
