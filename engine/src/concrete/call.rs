//! Calls and returns: entering a defined function (a new frame whose entry-block parameters
//! are the arguments), calling a declared one through its library model, resolving function
//! pointers, and returning (killing the frame's stack objects, so later accesses through
//! dangling pointers are uses after free).

use super::interp::{Cursor, Flow, Frame, Interp};
use super::libc;
use super::stop::{Fault, Stop};
use crate::address::{check_stack, func_at, Segment, FRAME_BYTES};
use crate::error::ErrorKind;
use crate::libc::bindings::{self, LibcFn};
use cranelift_entity::EntityRef;
use penumbra_ir::{Body, Func, Inst, Value};

/// The most SSA values all frames may hold together (128 MiB of registers): deep recursion
/// of a large function overflows here before the stack limit, as its native stack would.
pub const MAX_REGISTERS: usize = 1 << 24;

impl<'a> Interp<'a> {
    pub(super) fn body_of(&self, func: Func) -> &'a Body {
        let module: &'a penumbra_ir::Module = self.module;
        module.funcs[func].body.as_ref().expect("frames only run defined functions")
    }

    /// The cursor of a frame.
    pub(super) fn cursor(&self, frame: Frame) -> Cursor<'a> {
        let body = self.body_of(frame.func);
        Cursor {
            func: frame.func,
            body,
            block: frame.block,
            insts: body.layout.block_insts(frame.block),
            pc: frame.pc as usize,
            base: frame.base as usize,
        }
    }

    /// Pushes a frame for the defined function `func` with fresh registers; returns its base.
    pub(super) fn push_frame(&mut self, func: Func) -> Result<Frame, Fault> {
        let body = self.body_of(func);
        let entry = body.layout.entry_block().ok_or_else(|| Fault::unsupported("function without blocks"))?;
        let registers = &self.prog.registers[func.index()];
        if self.regs.len() + registers.len() > MAX_REGISTERS {
            return Err(Fault::error(
                ErrorKind::StackOverflow,
                format!(
                    "calling '{}' exceeds the stack limit of {MAX_REGISTERS} values in all frames",
                    self.module.funcs[func].name
                ),
            ));
        }
        let base = self.regs.len() as u32;
        self.regs.extend_from_slice(registers);
        let frame = Frame { func, block: entry, pc: 0, base, allocas: self.allocas.len() as u32 };
        self.frames.push(frame);
        Ok(frame)
    }

    /// Enters `main` with its argument values.
    pub(super) fn enter_main(&mut self, main: Func, args: &[u64]) -> Result<Cursor<'a>, Fault> {
        let frame = self.push_frame(main)?;
        let cur = self.cursor(frame);
        let params = cur.body.blocks[frame.block].params.as_slice(&cur.body.value_lists);
        for (&p, &v) in params.iter().zip(args) {
            self.regs[cur.base + p.index()] = u128::from(v & cur.body.values[p].ty.mask());
        }
        Ok(cur)
    }

    /// Calls `func` with the values `args` of the executing frame, at the call `inst`.
    pub(super) fn call(&mut self, cur: &mut Cursor<'a>, inst: Inst, func: Func, args: &[Value]) -> Result<Flow, Stop> {
        let callee = &self.module.funcs[func];
        if callee.body.is_none() {
            return self.call_library(cur, inst, func, args);
        }
        let locals = self.machine.mem.live_bytes(Segment::Stack);
        check_stack(self.frames.len(), locals, FRAME_BYTES, self.config.stack_limit, || {
            format!("calling '{}'", callee.name)
        })
        .map_err(|message| Fault::error(ErrorKind::StackOverflow, message))?;
        if let Some(top) = self.frames.last_mut() {
            top.pc = cur.pc as u32;
            top.block = cur.block;
        }
        let frame = self.push_frame(func)?;
        let next = self.cursor(frame);
        let params = next.body.blocks[frame.block].params.as_slice(&next.body.value_lists);
        for (&p, &a) in params.iter().zip(args) {
            let v = self.regs[cur.base + a.index()] & next.body.values[p].ty.mask128();
            self.regs[next.base + p.index()] = v;
        }
        *cur = next;
        Ok(Flow::Continue)
    }

    /// Calls the library model bound to the declared function `func`.
    fn call_library(&mut self, cur: &mut Cursor<'a>, inst: Inst, func: Func, args: &[Value]) -> Result<Flow, Stop> {
        let name = self.module.funcs[func].name.as_str();
        let Some(binding) = self.prog.bindings[func.index()] else {
            return Err(Fault::unsupported(bindings::unknown_function(name, self.module.library_dir.is_some())).into());
        };
        binding.check_arity(name, args.len()).map_err(|message| Fault::error(ErrorKind::InvalidCall, message))?;
        let model = binding.func;
        self.scratch.clear();
        for &a in args {
            self.scratch.push(self.regs[cur.base + a.index()]);
        }
        // Allocation sites and messages name the program's line, as errors do.
        let (site_func, site) = self.program_site(cur, inst);
        self.machine.line = self.body_of(site_func).srclocs[site].line;
        let value = match model {
            LibcFn::Qsort | LibcFn::Bsearch => self.call_sorting(model, name),
            LibcFn::Atexit => self.register_atexit(self.scratch.first().map_or(0, |&a| a as u64)),
            LibcFn::Destructor => Ok(Some(self.destructor(self.scratch.first().map_or(0, |&a| a as u64)))),
            _ => libc::call(&mut self.machine, model, name, &self.scratch),
        };
        if !self.machine.observed.is_empty() {
            // Output inside the C library linked in as code (musl's exit status, at its
            // `exit_group`) is the program's call's, as the symbolic engine places it.
            self.record_outputs(site_func, site);
        }
        let value = value?;
        if let Some((r, ty)) = Self::result_type(cur, inst) {
            self.regs[cur.base + r.index()] = u128::from(value.unwrap_or(0) & ty.mask());
        }
        cur.pc += 1;
        Ok(Flow::Continue)
    }

    /// `qsort` or `bsearch` with the arguments in the scratch buffer.
    fn call_sorting(&mut self, model: LibcFn, name: &str) -> Result<Option<u64>, Stop> {
        // Callbacks reuse the scratch buffer: take the arguments out first.
        let args = std::mem::take(&mut self.scratch);
        let a = libc::Args { name, values: &args };
        let result = if model == LibcFn::Qsort {
            self.qsort(a.get(0)?, a.get(1)?, a.get(2)?, a.get(3)?).map(|()| None)
        } else {
            self.bsearch(a.get(0)?, a.get(1)?, a.get(2)?, a.get(3)?, a.get(4)?).map(Some)
        };
        self.scratch = args;
        result
    }

    /// The function a `call_indirect` with operands `args` (callee address first) calls,
    /// checked against the call's shape.
    pub(super) fn resolve_callee(&self, cur: &Cursor<'a>, inst: Inst, args: &[Value]) -> Result<Func, Fault> {
        let invalid = |message: String| Fault::error(ErrorKind::InvalidCall, message);
        let (&target, args) = args.split_first().ok_or_else(|| invalid("indirect call without a callee".into()))?;
        let addr = self.reg(cur, target);
        let Some(func) = func_at(addr, self.module.funcs.len()) else {
            return Err(invalid(if addr == 0 {
                "call through a null function pointer".to_string()
            } else {
                format!("call through {addr:#x}, which is not a function address")
            }));
        };
        let callee = &self.module.funcs[func];
        let (given, takes) = (args.len(), callee.sig.params.len());
        if given < takes || (given > takes && !callee.sig.varargs) {
            return Err(invalid(format!(
                "call of '{}' through a pointer with {given} arguments; it takes {takes}",
                callee.name
            )));
        }
        if cur.body.results[inst].is_some() && callee.sig.ret.is_none() {
            return Err(invalid(format!(
                "call of '{}' through a pointer expects a result; it returns void",
                callee.name
            )));
        }
        Ok(func)
    }

    /// Returns `value` from the executing frame to its caller.
    pub(super) fn ret(&mut self, cur: &mut Cursor<'a>, value: Option<u128>) -> Flow {
        let finished = Flow::Finished(value.map(|v| v as u64));
        let Some(frame) = self.frames.pop() else {
            return finished;
        };
        for &id in &self.allocas[frame.allocas as usize..] {
            self.machine.mem.kill_stack_object(id);
        }
        self.allocas.truncate(frame.allocas as usize);
        self.regs.truncate(frame.base as usize);
        if self.frames.len() == self.floor {
            return finished;
        }
        let Some(&caller) = self.frames.last() else {
            return finished;
        };
        *cur = self.cursor(caller);
        let call = cur.insts[cur.pc];
        if let Some((r, ty)) = Self::result_type(cur, call) {
            self.regs[cur.base + r.index()] = value.unwrap_or(0) & ty.mask128();
        }
        cur.pc += 1;
        Flow::Continue
    }
}
