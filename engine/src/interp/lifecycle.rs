//! The program's life around `main`, as the native C runtime runs it: the constructors
//! first (with `main`'s arguments, as glibc passes them), then `main`, then at exit — `main`
//! returning or `exit` called — the `atexit` handlers, last registered first, then the
//! destructors. Each runs as the state's only frame; when it returns, the next one starts.
//! `_exit` and `_Exit` skip the handlers, as natively. A program linked with musl exits through
//! musl's `exit`, which runs its handlers and, through `__penumbra_destructor`, the
//! destructors itself (runtime/musl/penumbra_start.c); the engine runs its constructors.

use super::Interp;
use crate::error::ErrorKind;
use crate::run_error::RunError;
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::Flow;
use crate::symbolic::state::{Ending, ExecutionState, Life, Phase};
use crate::symbolic::value::Val;
use penumbra_ir::Func;
use penumbra_solver::TermId;

impl<'p> Interp<'_, 'p> {
    /// Starts the program: its first constructor, or `main` with `args`.
    pub(crate) fn start_program(&mut self, st: &mut ExecutionState, args: &[TermId]) {
        let prog = self.cx.prog;
        match prog.module.ctors.first() {
            Some(&first) => {
                st.life = Some(Box::new(Life {
                    phase: Phase::Constructors { next: 1, main_args: args.into() },
                    atexit: Vec::new(),
                }));
                self.push_bottom(st, first, args);
            }
            None => self.push_bottom(st, prog.entry.main, args),
        }
    }

    /// The state's bottom frame returned `value`: the next constructor or `main` starts, or
    /// the exit sequence goes on.
    pub(crate) fn bottom_returned(&mut self, st: &mut ExecutionState, value: Option<Val>) -> Flow {
        let prog = self.cx.prog;
        let phase = st.life.as_ref().map_or(Phase::Main, |l| l.phase.clone());
        match phase {
            Phase::Constructors { next, main_args } => {
                let life = st.life.as_mut().expect("constructors run with a life");
                let func = match prog.module.ctors.get(next as usize) {
                    Some(&ctor) => {
                        life.phase = Phase::Constructors { next: next + 1, main_args: main_args.clone() };
                        ctor
                    }
                    None => {
                        life.phase = Phase::Main;
                        prog.entry.main
                    }
                };
                self.push_bottom(st, func, &main_args);
                Flow::Jumped
            }
            Phase::Main => {
                // The status is the model's value (replay computes the same).
                let status = match value {
                    None => 0,
                    Some(Val::Const { bits, .. }) => bits & 0xff,
                    Some(Val::Term(t)) => self.cx.model_value(st, t) & 0xff,
                } as i32;
                self.exit(st, status)
            }
            Phase::Exiting { status, .. } => self.exit(st, status),
        }
    }

    /// `exit(status)` (or `main` returning it): unwinds the stack and runs the next `atexit`
    /// handler or destructor, or ends the path. Inside a `penumbra_execute` block the path
    /// ends at once (the block's version exits; its handlers are not the block's to run).
    pub(crate) fn exit(&mut self, st: &mut ExecutionState, status: i32) -> Flow {
        let dtors = &self.cx.prog.module.dtors;
        if st.execute.is_some() || (st.life.is_none() && dtors.is_empty()) {
            return Flow::End(Box::new(Ending::Exit(status)));
        }
        while st.pop_frame().is_some() {}
        let life = st.life.get_or_insert_default();
        let next_dtor = match life.phase {
            Phase::Exiting { next_dtor, .. } => next_dtor,
            _ => 0,
        };
        let next = match life.atexit.pop() {
            Some(handler) => {
                life.phase = Phase::Exiting { status, next_dtor };
                handler
            }
            None => match dtors.get(next_dtor as usize) {
                Some(&dtor) => {
                    life.phase = Phase::Exiting { status, next_dtor: next_dtor + 1 };
                    dtor
                }
                None => return Flow::End(Box::new(Ending::Exit(status))),
            },
        };
        self.push_bottom(st, next, &[]);
        Flow::Jumped
    }

    /// `atexit(handler)`: registers the function at address `handler`; `Err`: the path's
    /// error, `handler` is not a function of the program.
    pub(crate) fn register_atexit(
        &mut self,
        st: &mut ExecutionState,
        handler: TermId,
    ) -> Result<Result<(), Ending>, RunError> {
        let addr = self.cx.concretize(st, handler, Fixed::Pointer)?;
        let module = &self.cx.prog.module;
        let Some(func) = crate::address::func_at(addr, module.funcs.len()).filter(|&f| module.funcs[f].body.is_some())
        else {
            let message = format!("atexit({addr:#x}): not the address of a function of the program");
            return Ok(Err(self.cx.error(st, ErrorKind::InvalidCall, message)));
        };
        st.life.get_or_insert_default().atexit.push(func);
        Ok(Ok(()))
    }

    /// Pushes a frame for `func` as the state's only one, `args` for its parameters.
    fn push_bottom(&mut self, st: &mut ExecutionState, func: Func, args: &[TermId]) {
        let prog = self.cx.prog;
        let body = prog.module.funcs[func].body.as_ref().expect("a defined function");
        let entry = body.layout.entry_block().expect("a function has an entry block");
        let args: Vec<Val> = args.iter().map(|&t| Val::Term(t)).collect();
        let frame = self.new_frame(func, body, entry, &args, None);
        st.stack.push(frame);
    }
}
