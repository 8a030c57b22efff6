//! The instruction loop.
//!
//! The call stack is a `Vec` of small [`Frame`]s over one shared register file: a frame's
//! registers are a window `regs[base .. base + values]`, indexed by [`Value`], copied on entry
//! from the function's prepared initial registers (constants and addresses already in place),
//! so reading an operand is one index. The executing frame's position lives in a [`Cursor`]
//! of locals and is written back to its frame only on calls. The loop matches on
//! [`InstData`] directly and allocates nothing per instruction; block arguments go through a
//! reused scratch buffer so they are assigned in parallel.
//!
//! Calls and returns are in [`call`](super::call), intrinsics in
//! [`intrinsics`](super::intrinsics), and the value semantics in [`exec`](super::exec).

use super::config::RunConfig;
use super::exec;
use super::float;
use super::machine::Machine;
use super::program::Program;
use super::result::{Outcome, RunResult, SymbolicObject, TraceEvent, Traced};
use super::stop::{Fault, Halt, Stop};
use crate::address::{bytes_text, check_stack, ObjectId, Origin, Segment, MAX_STACK_BYTES};
use crate::error::{ErrorKind, Location, RuntimeError};
use crate::libc::syscall::pack_sym_files;
use cranelift_entity::EntityRef;
use penumbra_ir::{
    execute_join, returning_post_dominators, tests_execute, Block, Body, Dest, Func, Inst, InstData, Module, Type,
    Value, Version,
};
use rustc_hash::FxHashMap;

/// One activation record. Kept small: deep recursion keeps up to half a million of them (8 MiB of 16-byte frames).
#[derive(Copy, Clone, Debug)]
pub(super) struct Frame {
    pub func: Func,
    pub block: Block,
    /// Index of the executing instruction within `block` (the call, while a callee runs).
    pub pc: u32,
    /// Start of this frame's window in the register file.
    pub base: u32,
    /// Start of this frame's stack objects in the alloca stack.
    pub allocas: u32,
}

/// The executing frame, in locals.
#[derive(Copy, Clone)]
pub(super) struct Cursor<'a> {
    pub func: Func,
    pub body: &'a Body,
    pub block: Block,
    pub insts: &'a [Inst],
    pub pc: usize,
    pub base: usize,
}

/// What the loop does after an instruction.
pub(super) enum Flow {
    Continue,
    /// The frame above [`Interp::floor`] (`main`'s, or a callback's) returned this value.
    Finished(Option<u64>),
}

pub(super) struct Interp<'a> {
    pub prog: &'a Program<'a>,
    pub module: &'a Module,
    pub version: Version,
    pub config: &'a RunConfig,
    pub machine: Machine<'a>,
    pub frames: Vec<Frame>,
    /// Every frame's registers: `u128`s so that a `long double` (80 bits) fits; every other
    /// value is zero-extended from its 64 bits or less.
    pub regs: Vec<u128>,
    /// Stack objects of all frames, innermost last.
    pub allocas: Vec<ObjectId>,
    /// Reused buffer for branch and call arguments.
    pub scratch: Vec<u128>,
    pub steps: u64,
    pub max_steps: u64,
    pub symbolics: Vec<SymbolicObject>,
    /// How many symbolic objects were created under each name so far.
    pub symbolic_names: FxHashMap<String, u32>,
    /// The frame count at which a return hands control back to Rust: 0 for `main`, more while
    /// a library model (`qsort`) runs a callback.
    pub floor: usize,
    /// [`RunConfig::trace`], copied here so the branch arms test a field of `self`.
    pub tracing: bool,
    /// The events so far, when tracing.
    pub trace: Vec<Traced>,
    /// When tracing: a `penumbra_execute` ran outside any execute block, so the next `brif`
    /// (unless a `jump` comes first) starts one, as in the symbolic engine.
    pub pending_execute: bool,
    /// When tracing, inside an execute block: its frame depth and join block.
    pub execute_block: Option<(usize, Block)>,
    /// Running `main` (not a constructor, `atexit` handler or destructor).
    pub in_main: bool,
    /// The `atexit` handlers registered so far.
    pub atexit: Vec<Func>,
}

impl Program<'_> {
    /// Runs the program once.
    pub fn run(&self, config: &RunConfig) -> RunResult {
        run(self, config)
    }
}

/// Runs `prog` once under `config`.
fn run(prog: &Program<'_>, config: &RunConfig) -> RunResult {
    let mut mem = prog.memory.clone();
    let Some(args) = mem.main_args(&config.args, &config.env, prog.entry.main_params) else {
        return RunResult {
            stdout: Vec::new(),
            stderr: Vec::new(),
            outcome: Outcome::Unsupported {
                message: "the program arguments do not fit in memory".into(),
                location: Location::new("main", 0),
            },
            steps: 0,
            symbolics: Vec::new(),
            trace: Vec::new(),
        };
    };
    let mut interp = Interp {
        prog,
        module: prog.module,
        version: config.version,
        config,
        machine: Machine {
            sym_files: pack_sym_files(config.sym_files, config.sym_file_types),
            ..Machine::new(mem, prog.runtime, &config.stdin)
        },
        frames: Vec::new(),
        regs: Vec::new(),
        allocas: Vec::new(),
        scratch: Vec::new(),
        steps: 0,
        max_steps: config.max_steps.unwrap_or(u64::MAX),
        symbolics: Vec::new(),
        symbolic_names: FxHashMap::default(),
        floor: 0,
        tracing: config.trace,
        trace: Vec::new(),
        pending_execute: false,
        execute_block: None,
        in_main: false,
        atexit: Vec::new(),
    };
    interp.machine.tracing = config.trace;
    let outcome = interp.run_program(prog.entry.main, &args);
    RunResult {
        stdout: interp.machine.stdout,
        stderr: interp.machine.stderr,
        outcome,
        steps: interp.steps,
        symbolics: interp.symbolics,
        trace: interp.trace,
    }
}

impl<'a> Interp<'a> {
    /// Runs `func` (`main`, a constructor, a handler) with `args` to completion.
    pub(super) fn execute(&mut self, main: Func, args: &[u64]) -> Result<Option<u64>, Halt> {
        let cur = self.enter_main(main, args).map_err(|f| Halt { stop: f.into(), func: main, inst: None })?;
        self.run_frames(cur)
    }

    /// Executes from `cur` until the frame above [`Interp::floor`] returns; returns its value.
    pub(super) fn run_frames(&mut self, mut cur: Cursor<'a>) -> Result<Option<u64>, Halt> {
        loop {
            let inst = cur.insts[cur.pc];
            if self.steps == self.max_steps {
                return Err(Halt { stop: Stop::StepLimit, func: cur.func, inst: Some(inst) });
            }
            self.steps += 1;
            match self.step(&mut cur, inst) {
                Ok(Flow::Continue) => {}
                Ok(Flow::Finished(value)) => return Ok(value),
                // Stopped inside a callback: already located there.
                Err(Stop::Located(halt)) => return Err(*halt),
                Err(stop) => return Err(self.halt_at(stop, &cur, inst)),
            }
        }
    }

    /// Where a run stopping at `inst` of `cur` is reported: there, or, inside the C library
    /// linked in as code, at the call of the innermost frame of the program (as the symbolic
    /// engine reports it).
    fn halt_at(&self, stop: Stop, cur: &Cursor<'a>, inst: Inst) -> Halt {
        let (func, inst) = self.program_site(cur, inst);
        Halt { stop, func, inst: Some(inst) }
    }

    /// `inst` of `cur`, or, inside the C library linked in as code, the call of the innermost
    /// frame of the program: where what happens there is reported.
    pub(super) fn program_site(&self, cur: &Cursor<'a>, inst: Inst) -> (Func, Inst) {
        if self.module.is_library(cur.func) {
            // The last frame is the executing one; the others wait at their calls.
            let callers = self.frames.iter().rev().skip(1);
            if let Some(f) = callers.into_iter().find(|f| !self.module.is_library(f.func)) {
                let body = self.body_of(f.func);
                return (f.func, body.layout.block_insts(f.block)[f.pc as usize]);
            }
        }
        (cur.func, inst)
    }

    /// Executes `inst`, the instruction at the cursor.
    #[inline]
    fn step(&mut self, cur: &mut Cursor<'a>, inst: Inst) -> Result<Flow, Stop> {
        let body = cur.body;
        match &body.insts[inst] {
            InstData::Binary { op, args: [a, b] } => {
                let ty = body.values[*a].ty;
                let v = exec::binary(*op, ty, self.reg(cur, *a), self.reg(cur, *b))?;
                self.set_result(cur, inst, v);
            }
            InstData::Icmp { cc, args: [a, b] } => {
                let ty = body.values[*a].ty;
                let v = exec::icmp(*cc, ty, self.reg(cur, *a), self.reg(cur, *b));
                self.set_result(cur, inst, u64::from(v));
            }
            InstData::Cast { op, arg } => {
                if let Some(r) = body.results[inst] {
                    let v = exec::cast(*op, body.values[*arg].ty, body.values[r].ty, self.reg(cur, *arg));
                    self.regs[cur.base + r.index()] = u128::from(v);
                }
            }
            InstData::FBinary { op, args: [a, b] } => {
                let ty = body.values[*a].ty;
                let v = float::binary(*op, ty, self.wide(cur, *a), self.wide(cur, *b));
                self.set_wide(cur, inst, v);
            }
            InstData::FUnary { op, arg } => {
                let v = float::unary(*op, body.values[*arg].ty, self.wide(cur, *arg));
                self.set_wide(cur, inst, v);
            }
            InstData::Fma { args: [a, b, c] } => {
                let v = float::fma(body.values[*a].ty, self.wide(cur, *a), self.wide(cur, *b), self.wide(cur, *c));
                self.set_wide(cur, inst, v);
            }
            InstData::Fcmp { cc, args: [a, b] } => {
                let v = float::compare(*cc, body.values[*a].ty, self.wide(cur, *a), self.wide(cur, *b));
                self.set_result(cur, inst, u64::from(v));
            }
            InstData::FCast { op, arg } => {
                if let Some(r) = body.results[inst] {
                    let v = float::cast(*op, body.values[*arg].ty, body.values[r].ty, self.wide(cur, *arg))?;
                    self.regs[cur.base + r.index()] = v;
                }
            }
            InstData::Select { args: [c, a, b] } => {
                let v = if self.reg(cur, *c) != 0 { self.wide(cur, *a) } else { self.wide(cur, *b) };
                self.set_wide(cur, inst, v);
            }
            InstData::Load { addr } => {
                if let Some(r) = body.results[inst] {
                    let ty = body.values[r].ty;
                    let v = self.machine.mem.load(self.reg(cur, *addr), ty.bytes())?;
                    self.regs[cur.base + r.index()] = v & ty.mask128();
                }
            }
            InstData::Store { addr, value } => {
                let ty = body.values[*value].ty;
                self.machine.mem.store(self.reg(cur, *addr), ty.bytes(), self.wide(cur, *value))?;
            }
            InstData::Alloca { size, align } => {
                let addr = self.alloca(cur, inst, u64::from(*size), u64::from(*align))?;
                self.set_result(cur, inst, addr);
            }
            InstData::DynAlloca { bytes } => {
                let addr = self.alloca(cur, inst, self.reg(cur, *bytes), 16)?;
                self.set_result(cur, inst, addr);
            }
            InstData::Call { func, args } => {
                let args = args.as_slice(&body.value_lists);
                return self.call(cur, inst, *func, args);
            }
            InstData::CallIndirect { args } => {
                let args = args.as_slice(&body.value_lists);
                let func = self.resolve_callee(cur, inst, args)?;
                return self.call(cur, inst, func, &args[1..]);
            }
            InstData::Change { args: [old, new] } => {
                let v = match self.version {
                    Version::Old => self.wide(cur, *old),
                    Version::New => self.wide(cur, *new),
                };
                self.set_wide(cur, inst, v);
            }
            InstData::Execute { version } => {
                self.pending_execute = self.tracing && self.execute_block.is_none();
                self.set_result(cur, inst, u64::from(*version == self.version));
            }
            InstData::MakeSymbolic { args: [addr, size, name], .. } => {
                self.make_symbolic(self.reg(cur, *addr), self.reg(cur, *size), self.reg(cur, *name))?;
            }
            InstData::Assume { cond } => {
                if self.reg(cur, *cond) == 0 {
                    return Err(Stop::AssumptionViolated);
                }
            }
            InstData::Assert { cond } => {
                if self.reg(cur, *cond) == 0 {
                    return Err(Fault::error(ErrorKind::AssertionFailed, "assertion failed").into());
                }
            }
            InstData::Jump { dest } => {
                self.branch(cur, *dest);
                if self.tracing {
                    self.pending_execute = false;
                    self.at_join(cur);
                }
                return Ok(Flow::Continue);
            }
            InstData::Brif { cond, then_dest, else_dest } => {
                let taken = self.reg(cur, *cond) != 0;
                let (dest, other) = if taken { (*then_dest, *else_dest) } else { (*else_dest, *then_dest) };
                if self.tracing
                    && !(std::mem::take(&mut self.pending_execute)
                        && self.enter_execute_block(cur, inst, *cond, dest, other))
                {
                    self.record(TraceEvent::Brif { func: cur.func, inst, side: u8::from(taken) });
                }
                self.branch(cur, dest);
                if self.tracing {
                    self.at_join(cur);
                }
                return Ok(Flow::Continue);
            }
            InstData::Switch { arg, table } => {
                let v = self.reg(cur, *arg);
                let table = &body.jump_tables[*table];
                let index = table.cases.iter().position(|(case, _)| *case == v);
                if self.tracing {
                    self.record(TraceEvent::Switch {
                        func: cur.func,
                        inst,
                        index: index.unwrap_or(table.cases.len()) as u32,
                    });
                }
                self.branch(cur, index.map_or(table.default, |i| table.cases[i].1));
                if self.tracing {
                    self.at_join(cur);
                }
                return Ok(Flow::Continue);
            }
            InstData::Return { value } => {
                let v = value.map(|v| self.wide(cur, v));
                if self.tracing {
                    self.trace_return(cur, inst, v.map(|v| v as u64));
                }
                return Ok(self.ret(cur, v));
            }
            InstData::Unreachable => {
                return Err(Fault::error(ErrorKind::Unreachable, "reached unreachable code").into());
            }
            InstData::Unsupported { msg } => {
                let message = self.module.messages.get(*msg).map_or("unsupported construct", String::as_str);
                return Err(Fault::unsupported(message).into());
            }
        }
        cur.pc += 1;
        Ok(Flow::Continue)
    }

    /// Appends an event to the trace. Out of line and cold: the hot loop only pays the test
    /// of [`Interp::tracing`] at branches.
    #[cold]
    #[inline(never)]
    pub(super) fn record(&mut self, event: TraceEvent) {
        self.trace.push(Traced { step: self.steps, event });
    }

    /// Traces the values a library call at `inst` made the user see.
    #[cold]
    #[inline(never)]
    pub(super) fn record_outputs(&mut self, func: Func, inst: Inst) {
        for value in std::mem::take(&mut self.machine.observed) {
            self.record(TraceEvent::Output { func, inst, value });
        }
    }

    /// At the `brif` `inst` right after a `penumbra_execute` (this version goes to `dest`, the
    /// other to `other`): starts an execute block if its sides meet again in this function, as
    /// the symbolic engine does (`shadow::execute`).
    #[cold]
    #[inline(never)]
    fn enter_execute_block(&mut self, cur: &Cursor<'a>, inst: Inst, cond: Value, dest: Dest, other: Dest) -> bool {
        let body = cur.body;
        if !tests_execute(body, cond) {
            return false;
        }
        let (mine, theirs) = (body.dests[dest].block, body.dests[other].block);
        let (old, new) = if self.version == Version::Old { (mine, theirs) } else { (theirs, mine) };
        let ipdom = || returning_post_dominators(body)[cur.block].expand();
        let Some(join) = execute_join(body, cur.block, old, new, ipdom) else { return false };
        self.record(TraceEvent::ExecuteEnter { func: cur.func, inst });
        self.execute_block = Some((self.frames.len(), join));
        true
    }

    /// After a jump: the end of the execute block whose join `cur` reached.
    fn at_join(&mut self, cur: &Cursor<'a>) {
        if self.execute_block == Some((self.frames.len(), cur.block)) {
            self.execute_block = None;
            self.record(TraceEvent::ExecuteJoin);
        }
    }

    /// Before the `return` `inst`: `main`'s status is output, and a return from an execute
    /// block's frame ends the block.
    #[cold]
    #[inline(never)]
    fn trace_return(&mut self, cur: &Cursor<'a>, inst: Inst, value: Option<u64>) {
        let from_main = self.in_main && self.prog.entry.returns_from_main(self.frames.len(), cur.func);
        if let (Some(v), true) = (value, from_main) {
            self.record(TraceEvent::Output { func: cur.func, inst, value: v & 0xff });
        }
        if self.execute_block.is_some_and(|(depth, _)| depth == self.frames.len()) {
            self.execute_block = None;
            self.record(TraceEvent::ExecuteReturn);
        }
    }

    /// The value of `v` in the executing frame (not an `f80`: see [`Interp::wide`]).
    #[inline]
    pub fn reg(&self, cur: &Cursor<'a>, v: Value) -> u64 {
        self.regs[cur.base + v.index()] as u64
    }

    /// The value of `v` in the executing frame, of any type.
    #[inline]
    pub fn wide(&self, cur: &Cursor<'a>, v: Value) -> u128 {
        self.regs[cur.base + v.index()]
    }

    /// Sets the result of `inst`, if it has one.
    #[inline]
    pub fn set_result(&mut self, cur: &Cursor<'a>, inst: Inst, v: u64) {
        self.set_wide(cur, inst, u128::from(v));
    }

    /// Sets the result of `inst` (of any type), if it has one.
    #[inline]
    pub fn set_wide(&mut self, cur: &Cursor<'a>, inst: Inst, v: u128) {
        if let Some(r) = cur.body.results[inst] {
            self.regs[cur.base + r.index()] = v;
        }
    }

    /// Branches to `dest`: its arguments are read first, then assigned to the block's
    /// parameters, so swaps through block parameters work.
    #[inline]
    fn branch(&mut self, cur: &mut Cursor<'a>, dest: Dest) {
        let body = cur.body;
        let data = &body.dests[dest];
        let args = data.args.as_slice(&body.value_lists);
        if !args.is_empty() {
            let params = body.blocks[data.block].params.as_slice(&body.value_lists);
            self.scratch.clear();
            for &a in args {
                self.scratch.push(self.regs[cur.base + a.index()]);
            }
            for (&p, &v) in params.iter().zip(&self.scratch) {
                self.regs[cur.base + p.index()] = v;
            }
        }
        cur.block = data.block;
        cur.insts = body.layout.block_insts(data.block);
        cur.pc = 0;
    }

    /// A fresh stack object of `size` bytes for the executing frame.
    fn alloca(&mut self, cur: &Cursor<'a>, inst: Inst, size: u64, align: u64) -> Result<u64, Fault> {
        let line = cur.body.srclocs[inst].line;
        let origin = Origin::Stack { func: cur.func, line };
        let locals = self.machine.mem.live_bytes(Segment::Stack);
        check_stack(self.frames.len(), locals, size, self.config.stack_limit, || {
            format!("stack object of {}", bytes_text(size))
        })
        .map_err(|message| Fault::error(ErrorKind::StackOverflow, message))?;
        let Some(id) = self.machine.mem.allocate(Segment::Stack, size, align, origin) else {
            return Err(Fault::error(
                ErrorKind::StackOverflow,
                format!(
                    "stack object of {} exceeds the stack limit of {}",
                    bytes_text(size),
                    bytes_text(MAX_STACK_BYTES)
                ),
            ));
        };
        self.allocas.push(id);
        Ok(self.machine.mem.object(id).base)
    }

    /// The outcome for a run that stopped at `halt`.
    pub(super) fn outcome(&self, halt: Halt) -> Outcome {
        let location = || self.location(halt.func, halt.inst);
        match halt.stop {
            Stop::Exit(status) => Outcome::Exit(status),
            Stop::StepLimit => Outcome::StepLimit,
            Stop::AssumptionViolated => Outcome::AssumptionViolated(location()),
            Stop::Fault(Fault::Error(kind, message)) => {
                Outcome::Error(RuntimeError { kind, message, location: location() })
            }
            Stop::Fault(Fault::Unsupported(message)) => Outcome::Unsupported { message, location: location() },
            Stop::Located(inner) => self.outcome(*inner),
        }
    }

    /// The function name and source line of `inst`.
    pub fn location(&self, func: Func, inst: Option<Inst>) -> Location {
        let f = &self.module.funcs[func];
        let line = match (&f.body, inst) {
            (Some(body), Some(inst)) => body.srclocs[inst].line,
            _ => f.line,
        };
        Location::of(f, line)
    }

    /// The result type of `inst`, if it has a result.
    pub fn result_type(cur: &Cursor<'a>, inst: Inst) -> Option<(Value, Type)> {
        cur.body.results[inst].map(|r| (r, cur.body.values[r].ty))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame per call, up to half a million of them: keep it at 20 bytes (five `u32`s).
    /// Anything bigger per frame belongs in the register file or the alloca stack.
    #[test]
    fn frame_is_20_bytes() {
        assert_eq!(std::mem::size_of::<Frame>(), 20);
    }
}
