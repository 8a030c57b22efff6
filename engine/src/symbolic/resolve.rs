//! Resolving a symbolic address: one state per object the address may fall into, each
//! accessing the in-bounds part of its object, and one error for what is left.
//!
//! **The object the pointer was derived from comes first.** A pointer computed from an
//! object's address (`weight + 4 * i`: the constant base of its outermost additions lies in or
//! next to `weight`) may access that object only: its in-bounds part is a path, and everything
//! else is one out-of-bounds error of that object, reported at its smallest overflow when the
//! path allows one (`weight[-1]`, offset -4), as AddressSanitizer would report it. Addresses
//! that happen to land in a neighbouring object are not paths into that neighbour: C gives
//! them no meaning, and they depend on penumbra's layout.
//!
//! **Otherwise, KLEE's resolution.** A pointer with no such base (loaded from a table of
//! pointers, chosen by a condition, made from an integer) forks once per object it may be in.
//! The model's value picks the first: the access forks on KLEE's bounds check
//! `addr - base <u size - len + 1`, whose other side re-executes the access and so picks the
//! next object. When the model's value is in no object, [`Resolver::object_model`] asks the
//! solver for a model in one, bisecting each segment's objects (sorted by address) around the
//! values it gets back; when there is none, every address the path allows is invalid and the
//! error is reported once, for the model's address, as the concrete interpreter reports it.
//! The same fallback applies to a derived pointer with no overflow near its object, so every
//! test replays to what it claims.
//!
//! A pointer into a freed object, or a write into a read-only one, is an error of that object:
//! the states inside its bytes end with it, the others re-execute. After
//! [`MAX_RESOLVE_ATTEMPTS`](super::access::MAX_RESOLVE_ATTEMPTS) objects the address is fixed to its model value (counted in the
//! summary). Function pointers are resolved KLEE's way against the program's functions
//! ([`Resolver::resolve_callee`]).

use super::access::{Offset, Resolver, Target};
use super::context::Flow;
use super::fork::Branch;
use super::state::{Ending, ExecutionState};
use crate::address::{func_at, Access, ObjectId, Resolution, FUNC_BASE, REDZONE};
use crate::run_error::RunError;
use penumbra_ir::Inst;
use penumbra_solver::{eval, mask, Model, Op, SatResult, TermId};
use std::rc::Rc;

/// What asking for a model of the path in which a condition holds gave.
enum Answer {
    Model(Model),
    /// The condition cannot hold on this path.
    Never,
    /// The solver could not say.
    Unknown,
}

impl Answer {
    fn model(self) -> Option<Model> {
        match self {
            Answer::Model(m) => Some(m),
            Answer::Never | Answer::Unknown => None,
        }
    }
}

impl<'p> Resolver<'_, 'p> {
    /// Resolves the access of `len` bytes at the symbolic address `addr` (see the module
    /// documentation).
    pub(super) fn resolve_symbolic(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: TermId,
        len: u64,
        access: Access,
    ) -> Result<Target, RunError> {
        let derived = self.derived_object(st, addr);
        let v = self.cx.model_value(st, addr);
        match self.object_at(st, v, len, access) {
            // A seed's address is taken as it is, as the concrete interpreter takes it.
            Some(o) if derived.is_none_or(|d| d == o) || st.follows_seed() => {
                self.take_object(st, inst, addr, len, access)
            }
            _ => self.resolve_elsewhere(st, inst, addr, len, access, derived),
        }
    }

    /// The object the access at the address `v` is a part of: in bounds of it, or in the bytes
    /// of a freed, read-only (for a write) or unsupported object.
    fn object_at(&self, st: &ExecutionState, v: u64, len: u64, access: Access) -> Option<ObjectId> {
        match self.classify_at(st, v, len, access, None) {
            Resolution::InBounds { obj, .. } => Some(obj),
            Resolution::Fault { kind, obj: Some(o), .. } if kind != access.out_of_bounds() => {
                self.holds(st, o, v).then_some(o)
            }
            Resolution::Unsupported(_) => st.mem.resolve(v).map(|(o, _)| o).filter(|&o| self.holds(st, o, v)),
            Resolution::Fault { .. } => None,
        }
    }

    /// Forks on the object the model's address is a part of ([`Context::object_at`]): the
    /// state goes on with it (or ends with its error), the others re-execute the access.
    fn take_object(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: TermId,
        len: u64,
        access: Access,
    ) -> Result<Target, RunError> {
        let v = self.cx.model_value(st, addr);
        let (o, ending) = match self.classify_at(st, v, len, access, None) {
            Resolution::InBounds { obj, .. } => {
                let inside = self.in_bounds(st, obj, addr, len);
                if let Some(flow) = self.fork_object(st, inside, inst)? {
                    return Ok(Target::Flow(flow));
                }
                let base = self.cx.store.constant(64, st.mem.object(obj).base);
                let off = self.cx.store.sub(addr, base);
                return Ok(Target::Obj(obj, Offset::Sym(off)));
            }
            Resolution::Fault { kind, obj, message } => (obj, self.cx.error(st, kind, message)),
            Resolution::Unsupported(m) => (st.mem.resolve(v).map(|(o, _)| o), self.cx.unsupported(st, m.to_string())),
        };
        let Some(o) = o else { return Ok(Target::Flow(Flow::End(Box::new(ending)))) };
        // Every address in the bytes of a freed (or read-only, or unsupported) object is this
        // error.
        let (base, size) = (st.mem.object(o).base, st.mem.object(o).size);
        let inside = self.within(addr, base, size);
        Ok(Target::Flow(self.fork_object(st, inside, inst)?.unwrap_or(Flow::End(Box::new(ending)))))
    }

    /// The model's address is not in the object the pointer was derived from (or in no object
    /// at all): that object's in-bounds part comes first, then its smallest overflow, then any
    /// other object; when none is possible, every address left is one error.
    fn resolve_elsewhere(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: TermId,
        len: u64,
        access: Access,
        derived: Option<ObjectId>,
    ) -> Result<Target, RunError> {
        // Whether the path condition is known to keep the address out of every object.
        let mut proven = false;
        if !st.follows_seed() {
            let mut steered = false;
            if let Some(d) = derived {
                if st.mem.object(d).size >= len {
                    let inside = self.in_bounds(st, d, addr, len);
                    if let Some(model) = self.model_where(st, inside)?.model() {
                        st.model = Rc::new(model);
                        return self.take_object(st, inst, addr, len, access);
                    }
                }
                steered = self.steer_to_overflow(st, d, addr, len)?;
            }
            if !steered {
                match self.object_model(st, addr, len)? {
                    Answer::Model(model) => st.model = Rc::new(model),
                    Answer::Never => proven = true,
                    Answer::Unknown => {}
                }
            }
        }
        let v = self.cx.model_value(st, addr);
        if self.object_at(st, v, len, access).is_some() {
            return self.take_object(st, inst, addr, len, access);
        }
        // The error's side joins the path condition (a seeded run queues this state as a
        // divergence point, whose condition must hold only where the access fails): outside
        // the object the pointer was derived from, or else this very address.
        match derived {
            Some(d) => {
                let inside = self.in_bounds(st, d, addr, len);
                let outside = self.cx.store.not(inside);
                st.pc.push(outside);
            }
            None if !proven => {
                let k = self.cx.store.constant(64, v);
                let here = self.cx.store.eq(addr, k);
                st.pc.push(here);
            }
            None => {}
        }
        let ending = match self.classify_at(st, v, len, access, None) {
            Resolution::Fault { kind, message, .. } => self.cx.error(st, kind, message),
            Resolution::Unsupported(m) => self.cx.unsupported(st, m.to_string()),
            Resolution::InBounds { .. } => return self.take_object(st, inst, addr, len, access),
        };
        Ok(Target::Flow(Flow::End(Box::new(ending))))
    }

    /// A model of the state's path in which `cond` holds, if the solver finds one.
    fn model_where(&mut self, st: &ExecutionState, cond: TermId) -> Result<Answer, RunError> {
        let (res, model) = self.cx.solver.check_model_from(&self.cx.store, &st.pc, &[cond], &st.model)?;
        Ok(match res {
            SatResult::Sat => Answer::Model(model.unwrap_or_default()),
            SatResult::Unsat => Answer::Never,
            SatResult::Unknown => {
                self.cx.stats.solver_unknown += 1;
                Answer::Unknown
            }
        })
    }

    /// Whether the address `v` is one of the bytes of `o`.
    fn holds(&self, st: &ExecutionState, o: ObjectId, v: u64) -> bool {
        let o = st.mem.object(o);
        v.wrapping_sub(o.base) < o.size
    }

    /// Forks on `inside` (true under the state's model): the state goes on inside, the others
    /// re-execute the instruction. `Some` is how the instruction ends instead.
    pub(crate) fn fork_object(
        &mut self,
        st: &mut ExecutionState,
        inside: TermId,
        inst: Inst,
    ) -> Result<Option<Flow>, RunError> {
        match self.cx.branch(st, inside, inst)? {
            Branch::Sides { side: false, .. } => {
                // Counted like a fork to another object, so that no resolution can retry
                // forever (the pointer is fixed after `MAX_RESOLVE_ATTEMPTS`).
                st.resolve_attempts += 1;
                Ok(Some(Flow::Retry))
            }
            Branch::Sides { side: true, others } => {
                for (_, mut other) in others {
                    other.resolve_attempts += 1;
                    self.cx.events.fork(other);
                }
                Ok(None)
            }
            Branch::Early(reason) => Ok(Some(Flow::End(Box::new(Ending::Early(reason))))),
        }
    }

    /// `addr - lo <u span`.
    fn within(&mut self, addr: TermId, lo: u64, span: u64) -> TermId {
        let lo = self.cx.store.constant(64, lo);
        let off = self.cx.store.sub(addr, lo);
        let span = self.cx.store.constant(64, span);
        self.cx.store.ult(off, span)
    }

    /// A model of the state's path in which the access of `len` bytes at `addr` lies inside
    /// some object (of any state: a freed one is a use after free). Each query asks for an
    /// address between the first and the last object of a run of objects; an answer in a gap
    /// splits the run there.
    fn object_model(&mut self, st: &ExecutionState, addr: TermId, len: u64) -> Result<Answer, RunError> {
        let order = st.mem.address_order();
        // (segment, first, end) runs of objects still to ask about, the lowest on top.
        let mut runs: Vec<(usize, usize, usize)> =
            (0..3).rev().filter(|&s| !order[s].is_empty()).map(|s| (s, 0, order[s].len())).collect();
        let mut unknown = false;
        while let Some((s, i, j)) = runs.pop() {
            let index = order[s];
            let lo = index[i].0;
            let last = st.mem.object(index[j - 1].1);
            let end = last.base + last.size;
            if end - lo < len {
                continue;
            }
            let cond = self.within(addr, lo, end - lo - len + 1);
            let model = match self.model_where(st, cond)? {
                Answer::Model(model) => model,
                Answer::Never => continue,
                Answer::Unknown => {
                    unknown = true;
                    continue;
                }
            };
            let v = eval(&self.cx.store, addr, &model) & mask(64);
            // The objects at or below `v` and those above it; `lo <= v`, so `p > i`.
            let p = i + index[i..j].partition_point(|&(base, _)| base <= v);
            let o = st.mem.object(index[p - 1].1);
            if o.size >= len && v - o.base <= o.size - len {
                return Ok(Answer::Model(model));
            }
            if p == j {
                // Cannot happen (the query bounds the address by the last object's end).
                continue;
            }
            // `v` is in a gap: the runs below and above it both exclude it.
            runs.push((s, p, j));
            runs.push((s, i, p));
        }
        Ok(if unknown { Answer::Unknown } else { Answer::Never })
    }

    /// The object a pointer was derived from: the one its constant base (an operand of the
    /// outermost additions) points into or next to.
    pub(crate) fn derived_object(&self, st: &ExecutionState, addr: TermId) -> Option<ObjectId> {
        let mut pending = vec![addr];
        while let Some(t) = pending.pop() {
            if self.cx.store.op(t) != Op::Add || pending.len() > 8 {
                continue;
            }
            for &c in self.cx.store.children(t) {
                match self.cx.store.as_const(c) {
                    Some(base) => return st.mem.resolve(base).map(|(id, _)| id),
                    None => pending.push(c),
                }
            }
        }
        None
    }

    /// Gives the state (whose address cannot be in bounds of `obj`) a model in which the
    /// access overflows `obj` by the least: touching the bytes next to it, else within half a
    /// redzone. Whether there was one.
    fn steer_to_overflow(
        &mut self,
        st: &mut ExecutionState,
        obj: ObjectId,
        addr: TermId,
        len: u64,
    ) -> Result<bool, RunError> {
        let (base, size) = (st.mem.object(obj).base, st.mem.object(obj).size);
        for margin in [len, REDZONE / 2] {
            let near = self.within(addr, base.wrapping_sub(margin), size + 2 * margin);
            if let Some(model) = self.model_where(st, near)?.model() {
                st.model = Rc::new(model);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Resolves a symbolic callee address to a function of the program: the state forks once
    /// per function it may be, and what is left calls the model's address (an error, reported
    /// by the caller). `Err` is how the call ends instead.
    pub(crate) fn resolve_callee(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: TermId,
    ) -> Result<Result<u64, Flow>, RunError> {
        let funcs = self.cx.prog.module.funcs.len();
        let v = self.cx.model_value(st, addr);
        if func_at(v, funcs).is_some() {
            let k = self.cx.store.constant(64, v);
            let hit = self.cx.store.eq(addr, k);
            return Ok(match self.fork_object(st, hit, inst)? {
                Some(flow) => Err(flow),
                None => Ok(v),
            });
        }
        let mut proven = false;
        if !st.follows_seed() {
            // Any function's address: in the function range and 16-aligned.
            let in_range = self.within(addr, FUNC_BASE, 16 * funcs as u64);
            let (fifteen, zero) = (self.cx.store.constant(64, 15), self.cx.store.zero(64));
            let low = self.cx.store.and(addr, fifteen);
            let aligned = self.cx.store.eq(low, zero);
            let cond = self.cx.store.and(in_range, aligned);
            match self.model_where(st, cond)? {
                Answer::Model(model) => {
                    st.model = Rc::new(model);
                    return Ok(Err(Flow::Retry));
                }
                Answer::Never => proven = true,
                Answer::Unknown => {}
            }
        }
        if !proven {
            // The call fails at this address (the path condition must say so where it does
            // not already).
            let k = self.cx.store.constant(64, v);
            let here = self.cx.store.eq(addr, k);
            st.pc.push(here);
        }
        Ok(Ok(v))
    }
}
