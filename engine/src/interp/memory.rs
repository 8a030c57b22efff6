//! Loads, stores and stack allocation: an address is resolved by the machine
//! ([`Resolver::resolve`](crate::symbolic::access)), or, when it holds a shadow, for each version
//! ([`Shadow::resolve_pair`](crate::shadow::pairs)); the bytes are then read or written as
//! little-endian terms.
//!
//! A load or store at a constant address that is plainly allowed (a live object of a constant
//! size, in bounds, writable for a store, outside a `penumbra_execute` block)
//! takes a fast path: constant bytes are read into an unboxed constant and a constant is
//! written as the byte constants, so a concrete loop builds no terms.

use super::step::{set_result, val};
use super::Interp;
use crate::address::{bytes_text, check_stack, stack_room, Access, Origin, Segment, MAX_STACK_BYTES};
use crate::error::ErrorKind;
use crate::run_error::RunError;
use crate::shadow::pairs::PairTarget;
use crate::shadow::Shadow;
use crate::symbolic::access::Resolver;
use crate::symbolic::access::{Target, MAX_ACCESS_BYTES};
use crate::symbolic::context::Flow;
use crate::symbolic::state::{ExecMode, ExecutionState};
use crate::symbolic::value::Val;
use penumbra_ir::{Body, Inst, Value};
use penumbra_solver::TermId;

impl<'p> Interp<'_, 'p> {
    /// Reads a little-endian value of `bits` bits (1, 8, 16, 32, 64, or 80 for an x87 `long
    /// double`) at `addr`.
    pub fn read_value(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: TermId,
        bits: u32,
    ) -> Result<Result<TermId, Flow>, RunError> {
        let len = bits.div_ceil(8) as usize;
        let addr = self.cx.view(st, addr);
        let target = if self.cx.store.has_shadow(addr) {
            Shadow::new(self.cx).resolve_pair(st, inst, addr, len as u64, Access::Read)?
        } else {
            PairTarget::One(Resolver::new(self.cx).resolve(st, inst, addr, len as u64, Access::Read)?)
        };
        let mut bytes = [self.cx.prog.zero_byte; MAX_ACCESS_BYTES];
        match target {
            PairTarget::One(Target::Obj(obj, offset)) => {
                Resolver::new(self.cx).read_target(st, obj, offset, len, &mut bytes)?
            }
            PairTarget::Two { old, new } => Shadow::new(self.cx).read_pair(st, old, new, len, &mut bytes)?,
            PairTarget::One(Target::Flow(flow)) => return Ok(Err(flow)),
        }
        let mut v = bytes[len - 1];
        for &b in bytes[..len - 1].iter().rev() {
            v = self.cx.store.concat(v, b);
        }
        if bits == 1 {
            v = self.cx.store.extract(v, 0, 0);
        }
        Ok(Ok(v))
    }

    /// Writes the value `v` little-endian at `addr` (an `i1` as one byte 0 or 1).
    pub fn write_value(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: TermId,
        v: TermId,
    ) -> Result<Flow, RunError> {
        let w = self.cx.store.width(v);
        let v = if w == 1 { self.cx.store.zext(v, 8) } else { v };
        let len = usize::from(self.cx.store.width(v) / 8);
        let addr = self.cx.view(st, addr);
        let target = if self.cx.store.has_shadow(addr) {
            Shadow::new(self.cx).resolve_pair(st, inst, addr, len as u64, Access::Write)?
        } else {
            PairTarget::One(Resolver::new(self.cx).resolve(st, inst, addr, len as u64, Access::Write)?)
        };
        let mut bytes = [self.cx.prog.zero_byte; MAX_ACCESS_BYTES];
        for (i, b) in bytes.iter_mut().enumerate().take(len) {
            let lo = (8 * i) as u8;
            *b = self.cx.store.extract(v, lo + 7, lo);
        }
        match target {
            PairTarget::One(Target::Obj(obj, offset)) => {
                Resolver::new(self.cx).write_target(st, obj, offset, &bytes[..len])?
            }
            PairTarget::Two { old, new } => Shadow::new(self.cx).write_pair(st, old, new, &bytes[..len])?,
            PairTarget::One(Target::Flow(flow)) => return Ok(flow),
        }
        Ok(Flow::Next)
    }

    pub(crate) fn load(
        &mut self,
        st: &mut ExecutionState,
        body: &Body,
        inst: Inst,
        addr: Value,
    ) -> Result<Flow, RunError> {
        let Some(r) = body.results[inst] else { return Ok(Flow::Next) };
        let bits = body.values[r].ty.bits();
        if let Some(v) = self.concrete(st, addr).and_then(|a| self.load_concrete(st, a, bits)) {
            st.frame_mut().set(r, v);
            return Ok(Flow::Next);
        }
        let addr = self.term(st, addr);
        match self.read_value(st, inst, addr, bits)? {
            Ok(v) => {
                set_result(st, body, inst, v);
                Ok(Flow::Next)
            }
            Err(flow) => Ok(flow),
        }
    }

    pub(crate) fn store_inst(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: Value,
        value: Value,
    ) -> Result<Flow, RunError> {
        if let Some(a) = self.concrete(st, addr) {
            let v = val(st, value);
            if let Some(bits) = v.as_const(&self.cx.store) {
                if self.store_concrete(st, a, v.width(&self.cx.store), bits) {
                    return Ok(Flow::Next);
                }
            }
        }
        let (addr, value) = (self.term(st, addr), self.term(st, value));
        self.write_value(st, inst, addr, value)
    }

    /// A load of `bits` bits at the constant address `a` on the fast path (see the module
    /// documentation), if it applies and the bytes are constants.
    fn load_concrete(&self, st: &ExecutionState, a: u64, bits: u32) -> Option<Val> {
        if bits > 64 {
            return None;
        }
        let len = bits.div_ceil(8) as usize;
        let (obj, off) = st.mem.permitted(a, len as u64, Access::Read)?;
        if st.mem.size_term(obj).is_some() {
            return None;
        }
        let mut bytes = [self.cx.prog.zero_byte; 8];
        st.mem.read_bytes(obj, off, &mut bytes[..len]);
        let mut v = 0u64;
        for (i, &b) in bytes[..len].iter().enumerate() {
            v |= self.cx.store.as_const(b)? << (8 * i);
        }
        Some(Val::konst(bits as u8, v))
    }

    /// A store of the `width`-bit constant `bits` at the constant address `a` on the fast path
    /// (see the module documentation); whether it applied.
    fn store_concrete(&mut self, st: &mut ExecutionState, a: u64, width: u8, bits: u64) -> bool {
        if matches!(st.mode, ExecMode::Block(_)) {
            return false;
        }
        let len = usize::from(width.div_ceil(8));
        let Some((obj, off)) = st.mem.permitted(a, len as u64, Access::Write) else { return false };
        if st.mem.size_term(obj).is_some() {
            return false;
        }
        let mut bytes = [self.cx.prog.zero_byte; 8];
        for (i, b) in bytes.iter_mut().enumerate().take(len) {
            *b = self.cx.prog.byte_consts[(bits >> (8 * i)) as usize & 0xff];
        }
        st.mem.write_bytes(obj, off, &bytes[..len]);
        true
    }

    /// A variable-length array of `bytes` bytes (a term, see `symbolic::sizes`): sizes past the
    /// stack's room are a stack overflow, as natively; the others back an object of the
    /// largest size the path allows.
    pub(crate) fn dyn_alloca(
        &mut self,
        st: &mut ExecutionState,
        body: &Body,
        inst: Inst,
        bytes: TermId,
    ) -> Result<Flow, RunError> {
        let bytes = self.cx.fit(bytes, 64);
        if self.cx.store.as_const(bytes).is_none() {
            let locals = st.mem.live_bytes(Segment::Stack);
            let room = stack_room(st.stack.len(), locals, self.cx.config.stack_limit);
            let room_k = self.cx.store.constant(64, room);
            let too_big = self.cx.store.ugt(bytes, room_k);
            let failed = self.cx.check(st, too_big, |ex, st| {
                let size = ex.model_value(st, bytes);
                let what = || format!("stack object of {}", bytes_text(size));
                let message = check_stack(st.stack.len(), locals, size, ex.config.stack_limit, what)
                    .err()
                    .unwrap_or_else(|| format!("stack object of {} exceeds the stack limit", bytes_text(size)));
                ex.error(st, ErrorKind::StackOverflow, message)
            })?;
            if let Some(ending) = failed {
                return Ok(Flow::End(Box::new(ending)));
            }
        }
        let extent = match Resolver::new(self.cx).extent(st, bytes)? {
            Ok(extent) => extent,
            Err(ending) => return Ok(Flow::End(Box::new(ending))),
        };
        let flow = self.alloca(st, body, inst, extent.capacity, 16)?;
        if let (Flow::Next, Some(&obj)) = (&flow, st.frame().allocas.last()) {
            Resolver::new(self.cx).set_extent(st, obj, extent);
        }
        Ok(flow)
    }

    /// A fresh stack object of `size` bytes for the executing frame.
    pub(crate) fn alloca(
        &mut self,
        st: &mut ExecutionState,
        body: &Body,
        inst: Inst,
        size: u64,
        align: u64,
    ) -> Result<Flow, RunError> {
        let line = body.srclocs[inst].line;
        let func = st.frame().func;
        let origin = Origin::Stack { func, line };
        let locals = st.mem.live_bytes(Segment::Stack);
        let fits = check_stack(st.stack.len(), locals, size, self.cx.config.stack_limit, || {
            format!("stack object of {}", bytes_text(size))
        });
        if let Err(message) = fits {
            return Ok(Flow::End(Box::new(self.cx.error(st, ErrorKind::StackOverflow, message))));
        }
        let Some(id) = st.mem.allocate(Segment::Stack, size, align, origin, self.cx.prog.zero_byte) else {
            let what = bytes_text(size);
            let limit = bytes_text(MAX_STACK_BYTES);
            return Ok(Flow::End(Box::new(self.cx.error(
                st,
                ErrorKind::StackOverflow,
                format!("stack object of {what} exceeds the stack limit of {limit}"),
            ))));
        };
        st.frame_mut().allocas.push(id);
        let base = st.mem.object(id).base;
        set_result(st, body, inst, Val::Const { width: 64, bits: base });
        Ok(Flow::Next)
    }
}
