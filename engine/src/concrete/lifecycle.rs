//! The program's life around `main`, as the native C runtime runs it (and the symbolic
//! engine's `interp::lifecycle`): the constructors with `main`'s arguments, `main`, then at
//! exit — `main` returning or `exit` called — the `atexit` handlers, last registered first,
//! then the destructors. `exit` inside a handler or destructor changes the status and the
//! sequence goes on; `_exit` and `_Exit` end the run at once. A program linked with musl exits
//! through musl's `exit`, which runs the handlers and the destructors itself
//! ([`Interp::destructor`] hands it them).

use super::interp::Interp;
use super::result::Outcome;
use super::stop::{Fault, Halt, Stop};
use crate::address::{func_addr, func_at};
use crate::error::ErrorKind;
use penumbra_ir::Func;

impl Interp<'_> {
    /// Runs the whole program on `main`'s arguments `args`.
    pub(super) fn run_program(&mut self, main: Func, args: &[u64]) -> Outcome {
        for &ctor in &self.module.ctors {
            if let Err(halt) = self.execute(ctor, args) {
                return self.halted(halt);
            }
        }
        self.in_main = true;
        let result = self.execute(main, args);
        self.in_main = false;
        match result {
            Ok(value) => self.exit_sequence(value.map_or(0, |v| (v & 0xff) as i32)),
            Err(halt) => self.halted(halt),
        }
    }

    /// A run stopped: an `exit` runs the exit sequence, anything else is the outcome.
    fn halted(&mut self, halt: Halt) -> Outcome {
        match halt.stop {
            Stop::Exit(status) if !std::mem::take(&mut self.machine.quick_exit) => self.exit_sequence(status),
            _ => self.outcome(halt),
        }
    }

    /// The `atexit` handlers, then the destructors, then the exit with `status`.
    fn exit_sequence(&mut self, mut status: i32) -> Outcome {
        let mut dtors = self.module.dtors.iter();
        loop {
            self.unwind();
            let Some(next) = self.atexit.pop().or_else(|| dtors.next().copied()) else {
                return Outcome::Exit(status);
            };
            match self.execute(next, &[]) {
                Ok(_) => {}
                Err(Halt { stop: Stop::Exit(s), .. }) if !std::mem::take(&mut self.machine.quick_exit) => status = s,
                Err(halt) => return self.outcome(halt),
            }
        }
    }

    /// Drops every frame (after `exit` deep in the stack), killing their stack objects.
    fn unwind(&mut self) {
        for &id in &self.allocas {
            self.machine.mem.kill_stack_object(id);
        }
        self.allocas.clear();
        self.frames.clear();
        self.regs.clear();
        self.floor = 0;
    }

    /// `__penumbra_destructor(i)`: the address of the program's `i`-th destructor, or 0.
    pub(super) fn destructor(&self, i: u64) -> u64 {
        let dtors = &self.module.dtors;
        usize::try_from(i).ok().and_then(|i| dtors.get(i)).map_or(0, |&f| func_addr(f))
    }

    /// `atexit(handler)`.
    pub(super) fn register_atexit(&mut self, handler: u64) -> Result<Option<u64>, Stop> {
        let funcs = &self.module.funcs;
        let Some(func) = func_at(handler, funcs.len()).filter(|&f| funcs[f].body.is_some()) else {
            let message = format!("atexit({handler:#x}): not the address of a function of the program");
            return Err(Fault::error(ErrorKind::InvalidCall, message).into());
        };
        self.atexit.push(func);
        Ok(Some(0))
    }
}
