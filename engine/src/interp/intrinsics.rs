//! penumbra's own instructions: `make_symbolic` (fresh variables, one per byte, written into
//! an object and recorded under a unique name), `assume` (a constraint; a provably false one
//! ends the path as `assume-false`) and `assert` (a check whose failing side is an
//! `assertion-failed` error). `change` and `execute` are one line each in `step.rs`.
//!
//! Also the helper that reads a C string from memory for messages and output
//! ([`Interp::read_cstring`](super::Interp)): bounds-checked like the program's own reads, symbolic bytes
//! taken from the model without constraining them.

use super::Interp;
use crate::address::{Access, Resolution};
use crate::error::ErrorKind;
use crate::run_error::RunError;
use crate::symbolic::access::Resolver;
use crate::symbolic::access::Target;
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::Flow;
use crate::symbolic::state::{EarlyReason, Ending, ExecutionState};
use penumbra_ir::Inst;
use penumbra_solver::{eval, SatResult, TermId};
use std::rc::Rc;

/// The longest object name read from a program.
const MAX_NAME: u64 = 1024;

impl<'p> Interp<'_, 'p> {
    /// `make_symbolic(addr, size, name)`.
    pub(crate) fn make_symbolic(
        &mut self,
        st: &mut ExecutionState,
        addr: TermId,
        size: TermId,
        name: TermId,
        float: Option<penumbra_ir::Type>,
    ) -> Result<Flow, RunError> {
        let inst = st.current_inst(&self.cx.prog.module);
        let name_addr = self.cx.concretize(st, name, Fixed::Pointer)?;
        let name = match self.read_cstring(st, name_addr, Some(MAX_NAME)) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(ending) => return Ok(Flow::End(Box::new(ending))),
        };
        let size = self.cx.concretize(st, size, Fixed::Size)?;
        if size > self.cx.config.max_sym_bytes {
            // Every byte would be a solver variable: megabytes of them take gigabytes.
            return Ok(Flow::End(Box::new(Ending::Early(EarlyReason::InputTooLarge))));
        }
        let Ok(len) = u32::try_from(size) else {
            return Ok(Flow::End(Box::new(self.cx.unsupported(st, format!("make_symbolic of {size} bytes")))));
        };
        if len == 0 {
            // Nothing is symbolic, and a test may not hold an empty object (KLEE's reader
            // rejects them): no object.
            return Ok(Flow::Next);
        }
        let (obj, offset) = match Resolver::new(self.cx).resolve(
            st,
            inst.expect("an executing instruction"),
            addr,
            size,
            Access::Write,
        )? {
            Target::Obj(obj, offset) => (obj, offset),
            Target::Flow(flow) => return Ok(flow),
        };
        let mut object = st.new_symbolic(&name, Some(obj), 0, len);
        object.float = float;
        // A state following a seed reuses the variables another seed's run made for the same
        // object.
        let seed_key = st.follows_seed().then(|| (st.symbolics.len(), object.name.clone(), len));
        object.first_var = match seed_key.as_ref().and_then(|k| self.cx.seed_vars.get(k)) {
            Some(&first) => first,
            None => {
                let first = self.cx.store.num_vars() as u32;
                for i in 0..len {
                    let v = self.cx.store.new_var(&format!("{}[{i}]", object.name), 8);
                    debug_assert_eq!(v.as_u32(), first + i);
                }
                if let Some(key) = seed_key {
                    self.cx.seed_vars.insert(key, first);
                }
                first
            }
        };
        let bytes: Vec<TermId> = object.vars().map(|v| self.cx.store.var(v)).collect();
        Resolver::new(self.cx).write_target(st, obj, offset, &bytes)?;
        st.take_seed_value(st.symbolics.len(), &object);
        Rc::make_mut(&mut st.symbolics).push(object);
        Ok(Flow::Next)
    }

    /// `assume(cond)`: `cond` joins the path condition; if it cannot hold, the path ends.
    pub(crate) fn assume(&mut self, st: &mut ExecutionState, _inst: Inst, cond: TermId) -> Result<Flow, RunError> {
        let c = self.cx.truth(cond);
        let mut c = self.cx.view(st, c);
        if self.cx.store.has_shadow(c) {
            // Both versions assume it.
            let (o, n) = self.cx.store.projections(c);
            c = self.cx.store.and(o, n);
        }
        if let Some(v) = self.cx.store.as_const(c) {
            return Ok(if v == 1 {
                Flow::Next
            } else {
                Flow::End(Box::new(Ending::AssumeFalse(self.cx.location(st))))
            });
        }
        if eval(&self.cx.store, c, &*st.model) & 1 == 1 {
            st.pc.push(c);
            return Ok(Flow::Next);
        }
        let (res, model) = self.cx.solver.check_model_from(&self.cx.store, &st.pc, &[c], &st.model)?;
        match res {
            SatResult::Sat => {
                st.pc.push(c);
                st.model = Rc::new(model.unwrap_or_default());
                Ok(Flow::Next)
            }
            SatResult::Unsat => Ok(Flow::End(Box::new(Ending::AssumeFalse(self.cx.location(st))))),
            SatResult::Unknown => {
                self.cx.stats.solver_unknown += 1;
                Ok(Flow::End(Box::new(Ending::Early(EarlyReason::SolverUnknown))))
            }
        }
    }

    /// `assert(cond)`: failing is an `assertion-failed` error.
    pub(crate) fn assert(&mut self, st: &mut ExecutionState, cond: TermId) -> Result<Flow, RunError> {
        let c = self.cx.truth(cond);
        let fail = self.cx.store.not(c);
        Ok(match self.cx.check(st, fail, |ex, st| ex.error(st, ErrorKind::AssertionFailed, "assertion failed"))? {
            Some(ending) => Flow::End(Box::new(ending)),
            None => Flow::Next,
        })
    }

    /// The NUL-terminated string at the concrete address `addr` (at most `max` bytes), each
    /// byte bounds-checked as a read; symbolic bytes are read under the model (unconstrained).
    pub fn read_cstring(&mut self, st: &ExecutionState, addr: u64, max: Option<u64>) -> Result<Vec<u8>, Ending> {
        let module = &self.cx.prog.module;
        let mut out = Vec::new();
        let max = max.unwrap_or(u64::MAX);
        let mut i = 0u64;
        while i < max {
            let a = addr.wrapping_add(i);
            let t = match st.mem.classify(module, a, 1, Access::Read) {
                Resolution::InBounds { obj, offset } => st.mem.byte(obj, offset),
                Resolution::Fault { kind, message, .. } => return Err(self.cx.error(st, kind, message)),
                Resolution::Unsupported(m) => return Err(self.cx.unsupported(st, m.to_string())),
            };
            let b = match self.cx.store.as_const(t) {
                Some(b) => b as u8,
                None => {
                    self.cx.stats.printed_symbolic += 1;
                    self.cx.model_value(st, t) as u8
                }
            };
            if b == 0 {
                break;
            }
            out.push(b);
            i += 1;
        }
        Ok(out)
    }
}
