//! [`ExecutionState`]: one path of a symbolic run — its call stack of [`Frame`]s (every SSA
//! value a [`TermId`]), its copy-on-write [`Memory`], its path condition with a model that
//! satisfies it, its fork depth and trail of decisions, and the symbolic objects made so far.
//!
//! Cloning a state is the fork, and it costs the same whatever the path's length: the path
//! condition and the trail of decisions are [`ForkList`]s (chunks shared with the parent, a
//! short tail copied), each frame's values are an `Rc` copied when first written, memory and
//! the symbolic object list are shared `Rc`s, and the model is shared until one side gets a
//! new one.
//!
//! The state also carries its [`ExecMode`]: one version (`change(a, b)` is `a` or `b`), or
//! shadow execution, where values may be shadow terms holding both versions' values until the
//! path diverges ([`Divergence`]) and from then on follows the new version only.

use super::memory::Memory;
use super::value::Val;
pub use super::written::Written;
use crate::address::ObjectId;
use crate::concrete::Inputs;
use crate::error::{Location, RuntimeError};
use penumbra_ir::{Block, Body, Dest, Func, Inst, Module, Value, Version};
use penumbra_solver::{eval, mask, ForkList, Model, TermId, TermStore, VarId};
use std::fmt;
use std::rc::Rc;

/// Which program a state executes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ExecMode {
    /// One version throughout: `change(old, new)` evaluates to one side.
    Single(Version),
    /// Shadow execution before any divergence: both versions at once, values may hold shadows.
    Both,
    /// Shadow execution after a divergence: the new version only (shadows are projected away
    /// wherever a value is used).
    Diverged,
    /// Shadow execution inside a `penumbra_execute(OLD|NEW)` block ([`ExecuteBlock`]): this
    /// version runs alone; its writes leave the other version's memory as it was.
    Block(Version),
}

impl ExecMode {
    /// The one version this mode follows, if it follows one.
    pub fn single(self) -> Option<Version> {
        match self {
            ExecMode::Single(v) | ExecMode::Block(v) => Some(v),
            ExecMode::Diverged => Some(Version::New),
            ExecMode::Both => None,
        }
    }

    /// Whether this is shadow execution (either phase).
    pub fn is_shadow(self) -> bool {
        !matches!(self, ExecMode::Single(_))
    }
}

/// A `penumbra_execute(OLD|NEW)` block being run by one version at a time (ShadowJPF+): at the
/// branch on `penumbra_execute`, the old version runs its side to the point where both sides
/// meet again (the branch's immediate post-dominator over the paths that return, `join`), then
/// the new version runs its side from the branch to `join`, and their frames merge into
/// shadows. Memory needs no merge: each side's writes keep the other version's bytes (the old
/// side's frees wait for the new side: [`ExecuteBlock::old_frees`]).
#[derive(Clone, Debug)]
pub struct ExecuteBlock {
    /// The call-stack depth of the branch's frame.
    pub depth: usize,
    /// Where the sides meet; `None` for sides that never meet nor return (each ends the
    /// program: their exits are compared).
    pub join: Option<Block>,
    /// The new version's destination from the branch, while the old version runs.
    pub new_dest: Option<penumbra_ir::Dest>,
    /// The branch's frame, to start the new version's side from.
    pub at_branch: Frame,
    /// The old version's frame at `join`, once it got there.
    pub old_at_join: Option<Frame>,
    /// What the side running now wrote to stdout and stderr (compared at `join`).
    pub written: Written,
    /// What the old version's side wrote, once it got to `join` or exited.
    pub old_written: Option<Written>,
    /// The status the old version's side exited with, when it did (the new version's side
    /// then runs, and an exit of its own is compared with this one).
    pub old_exit: Option<i32>,
    /// The heap blocks the old version's side freed. Whether an object is live is not kept
    /// per version, so they stay live for the new version's side, which mostly frees them
    /// too (expr's `toarith`, kept whole for each version, frees the string it converts);
    /// one the new side leaves live stays live past the join (a leak in the old version is
    /// no divergence, a use after free in the new version would be a false one).
    pub old_frees: Vec<crate::address::ObjectId>,
}

/// Where and how the two versions first took different sides on a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    pub func: String,
    pub line: u32,
    /// The source file of `line` (empty when unknown).
    pub file: String,
    /// What the old version did.
    pub old: Side,
    /// What the new version did.
    pub new: Side,
    /// Where the block of code only the new version has starts, when the versions parted in
    /// one (its statements ran, or its output, exit or return differed from the old code's).
    pub new_code: Option<Rc<Location>>,
}

impl Divergence {
    /// The divergence's site, as the search's pool and the per-site test budget count it:
    /// `file:line:function:old/new`, a value shown named by its kind only.
    pub fn site(&self) -> String {
        format!("{}:{}:{}:{}/{}", self.file, self.line, self.func, self.old, self.new)
    }
}

/// What one version did where the versions parted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    /// A conditional branch's side.
    Branch(bool),
    /// A switch case (the case value, signed at the selector's width).
    Case(i64),
    /// A switch's default.
    Default,
    /// A check (bounds, division, assertion) passes.
    Passes,
    /// A check fails (or, inside a `penumbra_execute` block, the version's path ends with an
    /// error).
    Fails,
    /// A value the engine had to make concrete, which the versions could not agree on.
    Value(u64),
    /// A value the user sees (output), named at the test's inputs: its term in this version
    /// (see [`Side::describe`]).
    Shows(TermId),
    /// A text the user sees (printed with `puts`, `%s`, `fwrite`, ...).
    ShowsText,
    /// What one version's side of a `penumbra_execute` block printed, to these streams.
    Printed(Streams),
    /// Inside a `penumbra_execute` block: the version returns from the function ...
    Returns,
    /// ... goes on past the block ...
    Continues,
    /// ... exits ...
    Exits,
    /// ... or reaches an unsupported construct.
    Unsupported,
}

impl fmt::Display for Side {
    /// The words of test records: `true`/`false`, `case K`/`default`, `passes`/`fails`,
    /// `value N`, `text`, `returns`/`continues`/`exits`/`unsupported`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Side::Branch(b) => write!(f, "{b}"),
            Side::Case(k) => write!(f, "case {k}"),
            Side::Default => f.write_str("default"),
            Side::Passes => f.write_str("passes"),
            Side::Fails => f.write_str("fails"),
            Side::Value(v) => write!(f, "value {v}"),
            Side::Shows(_) => f.write_str("value"),
            Side::ShowsText => f.write_str("text"),
            Side::Printed(streams) => write!(f, "printed to {streams}"),
            Side::Returns => f.write_str("returns"),
            Side::Continues => f.write_str("continues"),
            Side::Exits => f.write_str("exits"),
            Side::Unsupported => f.write_str("unsupported"),
        }
    }
}

impl Side {
    /// The side's words in the test of inputs `model`: a value shown is named by its value
    /// there (the test's own, not the one the divergence was found with).
    pub fn describe(&self, store: &TermStore, model: &Model) -> String {
        match *self {
            Side::Shows(t) => format!("value {}", eval(store, t, model) & mask(store.width(t))),
            ref side => side.to_string(),
        }
    }
}

/// Which standard streams a block's output differs on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Streams {
    Stdout,
    Stderr,
    Both,
}

impl fmt::Display for Streams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Streams::Stdout => "stdout",
            Streams::Stderr => "stderr",
            Streams::Both => "stdout and stderr",
        })
    }
}

/// One activation of a defined function.
#[derive(Clone, Debug)]
pub struct Frame {
    pub func: Func,
    pub block: Block,
    /// Index of the next instruction in the block's layout.
    pub idx: u32,
    /// The value of every SSA value of the function (constants and addresses prefilled),
    /// shared with the frame's forks until written.
    pub values: Rc<[Val]>,
    /// Where the caller wants the result (the call's result value in the caller's frame).
    pub ret_to: Option<Value>,
    /// Stack objects to kill on return.
    pub allocas: Vec<ObjectId>,
}

impl Frame {
    /// The value of `v`.
    #[inline]
    pub fn value(&self, v: Value) -> Val {
        self.values[v.as_u32() as usize]
    }

    /// Sets the value of `v` (copying the values if a fork shares them).
    #[inline]
    pub fn set(&mut self, v: Value, t: impl Into<Val>) {
        Rc::make_mut(&mut self.values)[v.as_u32() as usize] = t.into();
    }
}

/// A symbolic object: a name (unique within the state), the memory object, and its bytes'
/// variables (`len` consecutive [`VarId`]s from `first_var`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolicObject {
    /// The unique name: the program's name, or `name#k` when objects before it took that name.
    pub name: Rc<str>,
    /// The name the program gave.
    pub base: Rc<str>,
    /// How many objects of the state were made before it under the same program name (seeds
    /// and `--input` values are looked up by it, as `base#occurrence` then `base`).
    pub occurrence: u32,
    /// The object (none for a 0-byte object).
    pub obj: Option<ObjectId>,
    pub first_var: u32,
    pub len: u32,
    /// The object's C type is `float`, `double` or `long double` (or an array of them).
    pub float: Option<penumbra_ir::Type>,
}

impl SymbolicObject {
    pub fn vars(&self) -> impl Iterator<Item = VarId> {
        (self.first_var..self.first_var + self.len).map(VarId::from_u32)
    }

    /// The object's bytes under `model`.
    pub fn bytes(&self, model: &Model) -> Vec<u8> {
        self.vars().map(|v| model.get(v) as u8).collect()
    }
}

/// A decision at a fork: the instruction and the side taken (for a switch, the case index).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub inst: Inst,
    pub side: u32,
}

/// How a path ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `main` returned or `exit` was called: the status as the OS reports it.
    Exit(i32),
    /// A detected error.
    Error(RuntimeError),
    /// A construct penumbra does not model.
    Unsupported { message: String, location: Location },
    /// An `assume` whose condition cannot hold on this path.
    AssumeFalse(Location),
    /// A budget ended the path early.
    Early(EarlyReason),
}

/// Which budget ended a path early.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EarlyReason {
    /// `--max-depth`: the path would have forked deeper.
    MaxDepth,
    /// Seeded shadow execution: a divergence point's share of `--bse-budget` ran out.
    BseBudget,
    /// The solver could not say whether the path can go on (an `assume` it timed out on):
    /// not known to be infeasible, so not `assume-false`.
    SolverUnknown,
    /// An allocation whose size may exceed `--max-object-size`: the sizes above it.
    ObjectTooLarge,
    /// A value whose term grew past `--max-term-weight` (a loop folding a symbolic value into
    /// itself): no query on it could be answered within any budget.
    TermTooLarge,
    /// A symbolic object larger than `--max-sym-bytes` (`make_symbolic` of many megabytes).
    InputTooLarge,
    /// The run stopped (a budget, SIGINT, SIGTERM) while this path was being computed.
    Stopped(crate::config::StopReason),
    /// A value the engine fixed to one number (a size, an offset, a pointer handed to the C
    /// library): the values left after [`MAX_CONCRETE_VALUES`](super::fork::MAX_CONCRETE_VALUES)
    /// were tried.
    Concretized,
}

impl EarlyReason {
    /// `max-depth`, `bse-budget`, `solver-unknown`, `object-too-large`, `concretized`,
    /// `term-too-large`, `input-too-large`, or the budget that stopped the run (`max-time`,
    /// `interrupted`, ...): the word of test records and summaries.
    pub fn name(self) -> &'static str {
        match self {
            EarlyReason::MaxDepth => "max-depth",
            EarlyReason::BseBudget => "bse-budget",
            EarlyReason::SolverUnknown => "solver-unknown",
            EarlyReason::ObjectTooLarge => "object-too-large",
            EarlyReason::TermTooLarge => "term-too-large",
            EarlyReason::InputTooLarge => "input-too-large",
            EarlyReason::Stopped(why) => why.name(),
            EarlyReason::Concretized => "concretized",
        }
    }
}

impl Ending {
    /// The test kind written to JSON: `path`, `error`, `unsupported`, `assume-false`, `early`.
    pub fn kind(&self) -> &'static str {
        match self {
            Ending::Exit(_) => "path",
            Ending::Error(_) => "error",
            Ending::Unsupported { .. } => "unsupported",
            Ending::AssumeFalse(_) => "assume-false",
            Ending::Early(_) => "early",
        }
    }
}

/// Standard input as the program reads it.
#[derive(Clone, Debug, Default)]
pub struct Stdin {
    /// The symbolic (or empty) contents.
    pub bytes: Rc<Vec<TermId>>,
    /// The next byte to read.
    pub pos: usize,
}

/// One path of the run.
#[derive(Clone, Debug)]
pub struct ExecutionState {
    pub stack: Vec<Frame>,
    pub mem: Memory,
    /// Constraints of the path, oldest first (the solver finds what changed by identity).
    pub pc: ForkList<TermId>,
    /// An assignment satisfying `pc` (unmentioned variables are 0).
    pub model: Rc<Model>,
    /// Symbolic forks so far.
    pub depth: u32,
    /// The decisions at those forks.
    pub trail: ForkList<Decision>,
    pub symbolics: Rc<Vec<SymbolicObject>>,
    pub mode: ExecMode,
    /// Shadow execution: the path's divergence, once it happened.
    pub divergence: Option<Rc<Divergence>>,
    /// The `penumbra_execute` block being run, if any.
    pub execute: Option<Box<ExecuteBlock>>,
    /// The version a `penumbra_execute` just asked about (its branch starts a block).
    pub pending_execute: Option<Version>,
    /// Seeded shadow execution: the seed the state follows concolically (its model), without
    /// forking off it; divergences off it are queued for bounded symbolic execution.
    pub seed: Option<Rc<Inputs>>,
    pub stdin: Stdin,
    /// Instructions this path executed.
    pub instructions: u64,
    /// How many times the current instruction was re-executed to resolve a symbolic pointer
    /// to another object (reset when an instruction completes).
    pub resolve_attempts: u32,
    /// How many values the current instruction was re-executed with after the engine fixed a
    /// symbolic value to one number (`Context::concretize`; reset when an instruction
    /// completes).
    pub value_attempts: u32,
    /// Where the program is in its life around `main` (`interp::lifecycle`); `None`: in
    /// `main`, no `atexit` handler registered (most programs, always).
    pub life: Option<Box<Life>>,
    /// The path was the first to enter some block (or forked off one that was, since):
    /// KLEE's `coveredNew`, written on its test as `new_code`.
    pub covered_new: bool,
    /// Shadow execution, in a `penumbra_execute` block whose new side is code only the new
    /// version has (statements the patch adds), or entering the branch of an `if (change(0,
    /// c))`: where it starts. A divergence there keeps it ([`Divergence::new_code`]).
    pub in_new_code: Option<Rc<Location>>,
    /// Which of the variables the patch's changes read this path has written, one bit per
    /// variable ([`crate::search::Relevance`]): the patch-directed searcher prefers paths that
    /// wrote more of them.
    pub defs_written: u64,
    /// The `setjmp` calls whose frames are still on the stack, oldest first: where a
    /// `longjmp` returns to (`interp::natives::jumps`). Empty in almost every program.
    pub jumps: Vec<JumpTarget>,
}

/// A `setjmp` call a `longjmp` may return to: its `jmp_buf`'s address, and the frame (the
/// stack's depth with it on top) and position of the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpTarget {
    pub env: u64,
    pub depth: u32,
    pub block: Block,
    pub idx: u32,
}

/// Constructors, `main`, or the exit sequence, and the `atexit` handlers registered so far.
#[derive(Clone, Debug, Default)]
pub struct Life {
    pub phase: Phase,
    pub atexit: Vec<Func>,
}

#[derive(Clone, Debug, Default)]
pub enum Phase {
    /// Running the constructors; `next` is the one after the running one. `main` then gets
    /// `main_args`.
    Constructors { next: u32, main_args: Rc<[TermId]> },
    #[default]
    Main,
    /// Exiting with `status`: running the `atexit` handlers, then destructor `next_dtor` on.
    Exiting { status: i32, next_dtor: u32 },
}

impl ExecutionState {
    pub fn new(mem: Memory, mode: ExecMode) -> Self {
        ExecutionState {
            stack: Vec::new(),
            mem,
            pc: ForkList::new(),
            model: Rc::new(Model::new()),
            depth: 0,
            trail: ForkList::new(),
            symbolics: Rc::new(Vec::new()),
            mode,
            divergence: None,
            execute: None,
            pending_execute: None,
            seed: None,
            stdin: Stdin::default(),
            instructions: 0,
            resolve_attempts: 0,
            value_attempts: 0,
            life: None,
            covered_new: false,
            in_new_code: None,
            defs_written: 0,
            jumps: Vec::new(),
        }
    }

    /// Whether the state runs `main` (not a constructor, an `atexit` handler or a destructor).
    pub fn in_main(&self) -> bool {
        self.life.as_ref().is_none_or(|l| matches!(l.phase, Phase::Main))
    }

    /// Pops the top frame, its stack objects dying with it, and the `setjmp` targets in it.
    pub fn pop_frame(&mut self) -> Option<Frame> {
        let frame = self.stack.pop()?;
        for &id in &frame.allocas {
            self.mem.kill_stack_object(id);
        }
        if !self.jumps.is_empty() {
            let depth = self.stack.len() as u32;
            self.jumps.retain(|j| j.depth <= depth);
        }
        Some(frame)
    }

    pub fn frame(&self) -> &Frame {
        self.stack.last().expect("a running state has a frame")
    }

    pub fn frame_mut(&mut self) -> &mut Frame {
        self.stack.last_mut().expect("a running state has a frame")
    }

    /// The instruction the top frame executes next (or is executing).
    pub fn current_inst(&self, module: &Module) -> Option<Inst> {
        let f = self.stack.last()?;
        let body = module.funcs[f.func].body.as_ref()?;
        body.layout.block_insts(f.block).get(f.idx as usize).copied()
    }

    /// Whether the state follows a seed (the concolic phase of seeded shadow execution).
    pub fn follows_seed(&self) -> bool {
        self.seed.is_some()
    }

    /// A state following a seed: its model takes the seed's bytes for `object`, the `index`-th
    /// symbolic object made (missing bytes are 0, extra bytes ignored, as in concrete runs).
    /// Fresh variables are not in the path condition yet, so the model still satisfies it.
    pub(crate) fn take_seed_value(&mut self, index: usize, object: &SymbolicObject) {
        let Some(seed) = &self.seed else { return };
        let Some(value) = seed.value(index, &object.base, object.occurrence) else { return };
        let mut model = (*self.model).clone();
        for (i, var) in object.vars().enumerate() {
            model.insert(var, u64::from(value.get(i).copied().unwrap_or(0)));
        }
        self.model = Rc::new(model);
    }

    /// Gives the objects made before the state took its seed (the start's `--sym-args`,
    /// `--sym-arg`, `--sym-stdin` objects) the seed's values.
    pub(crate) fn take_seed_values_of_made_objects(&mut self) {
        let made = self.symbolics.clone();
        for (index, object) in made.iter().enumerate() {
            self.take_seed_value(index, object);
        }
    }

    /// A new symbolic object the program calls `name`, of `len` bytes from `first_var`, in
    /// memory object `obj`: its unique name is `name`, or `name#k` if `name` is taken
    /// (creation order), as the contract asks.
    pub fn new_symbolic(&self, name: &str, obj: Option<ObjectId>, first_var: u32, len: u32) -> SymbolicObject {
        let occurrence = self.symbolics.iter().filter(|s| &*s.base == name).count() as u32;
        let taken = |n: &str| self.symbolics.iter().any(|s| &*s.name == n);
        let unique = if taken(name) {
            (1..).map(|k| format!("{name}#{k}")).find(|n| !taken(n)).unwrap_or_default()
        } else {
            name.to_string()
        };
        SymbolicObject { name: Rc::from(unique), base: Rc::from(name), occurrence, obj, first_var, len, float: None }
    }

    /// Moves the top frame to `dest`, passing the destination's arguments to its block's
    /// parameters (read first into `scratch`, then assigned, so swaps through parameters work).
    pub fn goto(&mut self, body: &Body, dest: Dest, scratch: &mut Vec<Val>) {
        let data = &body.dests[dest];
        let args = body.list(data.args);
        let frame = self.frame_mut();
        if !args.is_empty() {
            scratch.clear();
            scratch.extend(args.iter().map(|&a| frame.value(a)));
            let values = Rc::make_mut(&mut frame.values);
            for (&p, &t) in body.block_params(data.block).iter().zip(scratch.iter()) {
                values[p.as_u32() as usize] = t;
            }
        }
        frame.block = data.block;
        frame.idx = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States are cloned at every fork: keep them small. A frame is a function, a position,
    /// its shared values, its stack objects and the caller's result slot.
    #[test]
    fn state_and_frame_sizes_are_pinned() {
        assert_eq!(std::mem::size_of::<Frame>(), 64);
        assert!(std::mem::size_of::<ExecutionState>() <= 288, "{}", std::mem::size_of::<ExecutionState>());
    }

    /// A fork shares the path condition's chunks and the frames' values with its parent.
    #[test]
    fn a_fork_shares_the_path_and_the_frames_values() {
        let mut store = penumbra_solver::TermStore::default();
        let mut t = |i: u64| store.constant(32, i);
        let mut st = ExecutionState::new(Memory::default(), ExecMode::Single(Version::New));
        let values: Rc<[Val]> = (0..8).map(|i| Val::Term(t(i))).collect();
        let (func, block) = (Func::from_u32(0), Block::from_u32(0));
        st.stack.push(Frame { func, block, idx: 0, values, ret_to: None, allocas: Vec::new() });
        st.pc.extend((0..1000).map(&mut t));
        let mut fork = st.clone();
        assert!(Rc::ptr_eq(&st.frame().values, &fork.frame().values));
        fork.pc.push(t(5000));
        assert_eq!(fork.pc.common_prefix(&st.pc), 1000);
        fork.frame_mut().set(Value::from_u32(3), t(77));
        assert!(!Rc::ptr_eq(&st.frame().values, &fork.frame().values));
        assert_eq!(st.frame().value(Value::from_u32(3)), Val::Term(t(3)));
        assert_eq!(fork.frame().value(Value::from_u32(3)), Val::Term(t(77)));
    }
}
