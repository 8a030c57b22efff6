//! `setjmp` and `longjmp` in the symbolic engine. `setjmp` returns 0 and records its call
//! (the `jmp_buf`'s address, the frame, the position) on the state; the record dies with its
//! frame (`ExecutionState::pop_frame`). `longjmp(env, val)` pops the frames above the one that
//! called `setjmp` on `env` (their stack objects die, as on return) and that call returns `val`
//! again, 1 for 0. Jumping to a `setjmp` whose frame has returned is undefined in C; here, as a
//! `longjmp` inside a `penumbra_execute` block (one version's code, with the other's memory
//! kept apart), it ends the path as unsupported rather than guess.
//!
//! The `jmp_buf` itself is not written: the record is found by its address, the last `setjmp`
//! on it winning, as the last write to the buffer would.

use super::{Model, NativeCall};
use crate::address::Access;
use crate::interp::Interp;
use crate::symbolic::access::{Resolver, Target};
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::Flow;
use crate::symbolic::state::JumpTarget;
use penumbra_solver::TermId;

impl NativeCall<'_, '_> {
    /// `setjmp(env)`: 0, and a target for `longjmp(env, ...)`.
    pub(super) fn setjmp(&mut self, env: TermId) -> Model {
        let env = self.cx.concretize(self.st, env, Fixed::Pointer)?;
        // The buffer must be memory the program may write, as the real setjmp writes it.
        let addr = self.cx.store.constant(64, env);
        if let Target::Flow(flow) = Resolver::new(self.cx).resolve(self.st, self.inst, addr, 8, Access::Write)? {
            return Ok(Err(flow));
        }
        let frame = self.st.frame();
        let target = JumpTarget { env, depth: self.st.stack.len() as u32, block: frame.block, idx: frame.idx };
        self.st.jumps.retain(|j| j.env != env);
        self.st.jumps.push(target);
        Ok(Ok(Some(self.cx.store.zero(32))))
    }

    /// `longjmp(env, val)`: back to the `setjmp` call that filled `env`, which returns `val`
    /// (1 for 0).
    pub(super) fn longjmp(&mut self, env: TermId, val: TermId) -> Model {
        let env = self.cx.concretize(self.st, env, Fixed::Pointer)?;
        let Some(target) = self.st.jumps.iter().rfind(|j| j.env == env).cloned() else {
            let message = format!(
                "{}: no setjmp filled this jmp_buf in a function still running (undefined behaviour)",
                self.name
            );
            return Ok(Err(Flow::End(Box::new(self.cx.unsupported(self.st, message)))));
        };
        if self.st.execute.is_some() {
            let message = format!("{} inside a penumbra_execute block", self.name);
            return Ok(Err(Flow::End(Box::new(self.cx.unsupported(self.st, message)))));
        }
        let val = self.cx.fit(val, 32);
        let zero = self.cx.store.zero(32);
        let one = self.cx.store.constant(32, 1);
        let is_zero = self.cx.store.eq(val, zero);
        let result = self.cx.store.ite(is_zero, one, val);
        while self.st.stack.len() > target.depth as usize {
            self.st.pop_frame();
        }
        let prog = self.cx.prog;
        let frame = self.st.frame_mut();
        (frame.block, frame.idx) = (target.block, target.idx);
        let func = frame.func;
        let body = prog.module.funcs[func].body.as_ref().expect("a frame runs a defined function");
        let call = body.layout.block_insts(target.block)[target.idx as usize];
        let mut interp = Interp::new(self.cx);
        interp.set_call_result(self.st, body, call, result);
        self.st.frame_mut().idx += 1;
        Ok(Err(Flow::Jumped))
    }
}
