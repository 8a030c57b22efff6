//! Calls and returns: entering a defined function (a frame from the function's template, the
//! arguments in its entry block's parameters), calling a native model, resolving function
//! pointers (a symbolic pointer forks once per function it may point to), and returning
//! (killing the frame's stack objects, so later accesses through dangling pointers are uses
//! after free; `main` returning ends the path with its exit status).

use super::step::val;
use super::Interp;
use crate::address::{check_stack, func_at, Segment, FRAME_BYTES};
use crate::error::ErrorKind;
use crate::libc::bindings::unknown_function;
use crate::run_error::RunError;
use crate::shadow::Shadow;
use crate::symbolic::access::Resolver;
use crate::symbolic::access::MAX_RESOLVE_ATTEMPTS;
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::Flow;
use crate::symbolic::program::FuncKind;
use crate::symbolic::state::{Ending, ExecutionState, Frame};
use crate::symbolic::value::Val;
use penumbra_ir::{Block, Body, Func, Inst, Value};
use penumbra_solver::TermId;
use std::rc::Rc;

impl<'p> Interp<'_, 'p> {
    /// A direct call of `func` with the caller's `args`.
    pub(crate) fn call(
        &mut self,
        st: &mut ExecutionState,
        body: &'p Body,
        inst: Inst,
        func: Func,
        args: &[Value],
    ) -> Result<Flow, RunError> {
        match self.cx.prog.info(func).kind {
            FuncKind::Defined => {
                let mut vals = std::mem::take(&mut self.cx.vals);
                vals.clear();
                vals.extend(args.iter().map(|&a| val(st, a)));
                let flow = self.enter(st, body, inst, func, &vals);
                self.cx.vals = vals;
                Ok(flow)
            }
            FuncKind::Native(binding) => super::natives::call(self.cx, st, body, inst, binding, args),
            FuncKind::Unknown => {
                let module = &self.cx.prog.module;
                let message = unknown_function(&module.funcs[func].name, module.library_dir.is_some());
                Ok(Flow::End(Box::new(self.cx.unsupported(st, message))))
            }
        }
    }

    /// Pushes a frame for the defined function `func` called by `inst` with `args`.
    pub(crate) fn enter(&mut self, st: &mut ExecutionState, body: &Body, inst: Inst, func: Func, args: &[Val]) -> Flow {
        let module = &self.cx.prog.module;
        let locals = st.mem.live_bytes(Segment::Stack);
        let fits = check_stack(st.stack.len(), locals, FRAME_BYTES, self.cx.config.stack_limit, || {
            format!("calling '{}'", module.funcs[func].name)
        });
        if let Err(message) = fits {
            return Flow::End(Box::new(self.cx.error(st, ErrorKind::StackOverflow, message)));
        }
        let Some(callee) = module.funcs[func].body.as_ref() else {
            return Flow::End(Box::new(self.cx.unsupported(st, "call of a function without a body")));
        };
        let Some(entry) = callee.layout.entry_block() else {
            return Flow::End(Box::new(self.cx.unsupported(st, "function without blocks")));
        };
        let frame = self.new_frame(func, callee, entry, args, body.results[inst]);
        st.stack.push(frame);
        Flow::Jumped
    }

    /// A frame for `func` (body `callee`) at its `entry`, with `args` for its parameters,
    /// returning its value to `ret_to` of the caller (`None`: a bottom frame, or no result).
    pub(crate) fn new_frame(
        &mut self,
        func: Func,
        callee: &Body,
        entry: Block,
        args: &[Val],
        ret_to: Option<Value>,
    ) -> Frame {
        let mut values: Rc<[Val]> = self.cx.prog.info(func).template.clone();
        let params = callee.block_params(entry);
        if !params.is_empty() {
            let slots = Rc::make_mut(&mut values);
            for (&p, &a) in params.iter().zip(args) {
                let w = callee.values[p].ty.bits() as u8;
                slots[p.as_u32() as usize] = self.cx.fit_val(a, w);
            }
        }
        Frame { func, block: entry, idx: 0, values, ret_to, allocas: Vec::new() }
    }

    /// A call through a function pointer (`args[0]` is the callee address).
    pub(crate) fn call_indirect(
        &mut self,
        st: &mut ExecutionState,
        body: &'p Body,
        inst: Inst,
        args: &[Value],
    ) -> Result<Flow, RunError> {
        let Some((&target, rest)) = args.split_first() else {
            return Ok(Flow::End(Box::new(self.cx.error(
                st,
                ErrorKind::InvalidCall,
                "indirect call without a callee",
            ))));
        };
        let addr_term = self.term(st, target);
        let addr_term = self.cx.view(st, addr_term);
        let addr = match self.cx.store.as_const(addr_term) {
            Some(a) => a,
            None if self.cx.store.has_shadow(addr_term) => self.cx.concretize(st, addr_term, Fixed::Pointer)?,
            None if st.resolve_attempts >= MAX_RESOLVE_ATTEMPTS => self.cx.concretize(st, addr_term, Fixed::Pointer)?,
            None => match Resolver::new(self.cx).resolve_callee(st, inst, addr_term)? {
                Ok(addr) => addr,
                Err(flow) => return Ok(flow),
            },
        };
        let module = &self.cx.prog.module;
        let Some(func) = func_at(addr, module.funcs.len()) else {
            let message = if addr == 0 {
                "call through a null function pointer".to_string()
            } else {
                format!("call through {addr:#x}, which is not a function address")
            };
            return Ok(Flow::End(Box::new(self.cx.error(st, ErrorKind::InvalidCall, message))));
        };
        let callee = &module.funcs[func];
        let (given, takes) = (rest.len(), callee.sig.params.len());
        if given < takes || (given > takes && !callee.sig.varargs) {
            let message =
                format!("call of '{}' through a pointer with {given} arguments; it takes {takes}", callee.name);
            return Ok(Flow::End(Box::new(self.cx.error(st, ErrorKind::InvalidCall, message))));
        }
        if body.results[inst].is_some() && callee.sig.ret.is_none() {
            let message = format!("call of '{}' through a pointer expects a result; it returns void", callee.name);
            return Ok(Flow::End(Box::new(self.cx.error(st, ErrorKind::InvalidCall, message))));
        }
        self.call(st, body, inst, func, rest)
    }

    /// Returns `value` from the top frame.
    pub(crate) fn ret(&mut self, st: &mut ExecutionState, value: Option<Val>) -> Flow {
        if st.execute.is_some() && Shadow::new(self.cx).return_in_execute_block(st) {
            return Flow::Jumped;
        }
        let Some(frame) = st.pop_frame() else { return Flow::End(Box::new(Ending::Exit(0))) };
        if st.stack.is_empty() {
            return self.bottom_returned(st, value);
        }
        let module = &self.cx.prog.module;
        let caller_func = st.frame().func;
        if let Some(r) = frame.ret_to {
            let w = module.funcs[caller_func].body.as_ref().map_or(64, |b| b.values[r].ty.bits() as u8);
            let t = match value {
                Some(v) => self.cx.fit_val(v, w),
                None => Val::wide(&mut self.cx.store, w, 0),
            };
            st.frame_mut().set(r, t);
        }
        st.frame_mut().idx += 1;
        Flow::Jumped
    }

    /// Sets the result of a native call (fitted to the call's result type).
    pub(crate) fn set_call_result(&mut self, st: &mut ExecutionState, body: &Body, inst: Inst, t: TermId) {
        if let Some(r) = body.results[inst] {
            let w = body.values[r].ty.bits() as u8;
            let t = self.cx.fit(t, w);
            st.frame_mut().set(r, t);
        }
    }
}
