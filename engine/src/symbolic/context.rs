//! [`Context`]: what every part of the symbolic interpreter works in — the prepared
//! [`Program`], the run's configuration, the term store, the solver and the counters. The state
//! being stepped is passed alongside as `&mut ExecutionState`. What a step makes besides that
//! state's own flow — the states it forked off and the paths it ended (the failing sides of
//! checks) — is collected while it runs ([`StepEvents`]) and returned with its flow as a
//! [`StepResult`]: the run loop reads nothing out of the context.
//!
//! The context knows nothing of the run loop, the searcher, budgets or tests: it sits below
//! them (`run/` drives it), so the instruction semantics cannot depend on how a run is driven.

use super::program::Program;
use super::state::{Ending, ExecutionState};
use super::stats::Stats;
use super::value::Val;
use crate::config::EngineConfig;
use crate::error::{ErrorKind, Location, RuntimeError};
use crate::splitmix::SplitMix64;
use penumbra_solver::{eval_version, mask, Model, Solver, TermId, TermStore, Version as TermVersion};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// What a step of an instruction did.
#[derive(Debug)]
pub enum Flow {
    /// Go on with the next instruction of the block.
    Next,
    /// Control moved (branch, call, return): the frame's position is already set.
    Jumped,
    /// Execute the same instruction again (a symbolic pointer resolved to another object).
    Retry,
    /// The path ended (boxed: the flow of every instruction is returned and moved, and ends
    /// are rare).
    End(Box<Ending>),
}

/// What one step did: the stepping state's own flow and, when it made any, the states it
/// forked off and the paths it ended besides the stepping state's (most steps make none: the
/// run loop's hot path only tests for them).
#[derive(Debug)]
pub struct StepResult {
    pub flow: Flow,
    /// Boxed: the result stays a word larger than the flow, which the hot loop moves.
    pub made: Option<Box<StepEvents>>,
}

/// The states and paths a step makes while it runs, deep in a fork or a check; handed out with
/// the step's flow ([`StepEvents::finish`]).
#[derive(Debug, Default)]
pub struct StepEvents {
    forked: Vec<ExecutionState>,
    ended: Vec<EndedPath>,
}

impl StepEvents {
    /// A state forked off the stepping one.
    pub fn fork(&mut self, st: ExecutionState) {
        self.forked.push(st);
    }

    /// A path ended besides the stepping state's own.
    pub fn end(&mut self, path: EndedPath) {
        self.ended.push(path);
    }

    /// How many states the step forked so far (they count against the state budget).
    pub fn forked(&self) -> usize {
        self.forked.len()
    }

    /// The step's result: `flow` with what the step made, which the events no longer hold.
    #[inline]
    pub fn finish(&mut self, flow: Flow) -> StepResult {
        let made = (!self.forked.is_empty() || !self.ended.is_empty()).then(|| Box::new(std::mem::take(self)));
        StepResult { flow, made }
    }

    /// The states forked off and the paths ended, each in order.
    pub fn into_parts(self) -> (Vec<ExecutionState>, Vec<EndedPath>) {
        (self.forked, self.ended)
    }
}

/// A path that ended, with the state as it was at its end.
#[derive(Debug)]
pub struct EndedPath {
    pub st: ExecutionState,
    pub ending: Ending,
}

/// The context of the symbolic interpreter (see the module documentation).
pub struct Context<'p> {
    pub(crate) prog: &'p Program,
    pub(crate) config: &'p EngineConfig,
    pub(crate) store: TermStore,
    pub(crate) solver: Solver,
    pub(crate) stats: Stats,
    /// What the current step has made so far (see [`StepResult`]).
    pub(crate) events: StepEvents,
    /// States in the search (the one stepping included), for the state budget.
    pub(crate) live_states: usize,
    /// The state cap `fork_memory_mb` set: the states alive when resident memory reached it
    /// (lowered again where memory grows on); forks resume as states end (the run loop sets
    /// it as it reads memory).
    pub(crate) memory_state_cap: Option<usize>,
    /// Reused buffer (a native call's arguments).
    pub(crate) scratch: Vec<TermId>,
    /// Reused buffer (block and call arguments).
    pub(crate) vals: Vec<Val>,
    /// The first variable of each symbolic object made by a state that follows a seed, by
    /// (ordinal on the path, name, size). Runs along different seeds reuse them, so seeds that
    /// take the same path build the same path condition (and queue the same divergence point).
    pub(crate) seed_vars: FxHashMap<(usize, Rc<str>, u32), u32>,
    /// Which side goes on where memory pressure keeps a branch from forking.
    coin: SplitMix64,
}

impl<'p> Context<'p> {
    pub fn new(prog: &'p Program, config: &'p EngineConfig, store: TermStore, solver: Solver) -> Self {
        Context {
            prog,
            config,
            store,
            solver,
            stats: Stats::default(),
            events: StepEvents::default(),
            live_states: 0,
            memory_state_cap: None,
            scratch: Vec::new(),
            vals: Vec::new(),
            seed_vars: FxHashMap::default(),
            coin: SplitMix64::new(config.random_seed ^ 0x5eed_c014),
        }
    }

    /// A fair coin from the run's seed.
    pub(crate) fn coin(&mut self) -> bool {
        self.coin.below(2) == 1
    }

    /// How many more states a fork may make now: `None` without a limit, else what
    /// `max_states` and the cap memory set leave.
    pub fn fork_room(&self) -> Option<usize> {
        Some(self.fork_limit()?.saturating_sub(self.live_states + self.events.forked()))
    }

    /// How many states the run may hold now: `None` without a limit, else the least of
    /// `max_states` and the cap memory set.
    pub(crate) fn fork_limit(&self) -> Option<usize> {
        match (self.config.budgets.max_states, self.memory_state_cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// States alive and forked since the running state was taken from the search.
    pub(crate) fn states_held(&self) -> usize {
        self.live_states + self.events.forked()
    }

    /// Resident memory reached `fork_memory_mb`: the states alive now are as many as the run
    /// may hold; where it grows on, an eighth fewer each time.
    pub fn cap_states_for_memory(&mut self) {
        let cap = match self.memory_state_cap {
            None => self.live_states,
            Some(cap) => cap.min(self.live_states) - cap.min(self.live_states) / 8,
        };
        self.memory_state_cap = Some(cap.max(1));
    }

    /// Records that a path branching off `st` ended: `st` with `extra` (the condition of the
    /// ending side, if the path condition does not imply it yet) and `model`, a model of it.
    pub fn end_path(&mut self, st: &ExecutionState, extra: Option<TermId>, model: Rc<Model>, ending: Ending) {
        let mut ended = st.clone();
        ended.pc.extend(extra);
        ended.model = model;
        self.events.end(EndedPath { st: ended, ending });
    }

    /// The location errors of `st` are reported at: the executing instruction of the innermost
    /// frame that is not part of penumbra's C library (so an overflow inside `strcpy` is
    /// reported at the line of the call).
    pub fn location(&self, st: &ExecutionState) -> Location {
        let module = &self.prog.module;
        let frame = st.stack.iter().rev().find(|f| !self.prog.info(f.func).internal).or(st.stack.last());
        let Some(frame) = frame else { return Location::new("main", 0) };
        let func = &module.funcs[frame.func];
        let line = func
            .body
            .as_ref()
            .and_then(|b| b.layout.block_insts(frame.block).get(frame.idx as usize).map(|&i| b.srclocs[i].line))
            .unwrap_or(func.line);
        Location::of(func, line)
    }

    /// An ending for an unsupported construct at the current location.
    pub fn unsupported(&self, st: &ExecutionState, message: impl Into<String>) -> Ending {
        Ending::Unsupported { message: message.into(), location: self.location(st) }
    }

    /// An error ending at the current location.
    pub fn error(&self, st: &ExecutionState, kind: ErrorKind, message: impl Into<String>) -> Ending {
        Ending::Error(RuntimeError { kind, message: message.into(), location: self.location(st) })
    }

    /// The term `st` uses for the value `t`: `t` itself unless the state follows one version,
    /// then that version's projection.
    #[inline]
    pub fn view(&mut self, st: &ExecutionState, t: TermId) -> TermId {
        if !self.store.has_shadow(t) {
            return t;
        }
        match st.mode.single() {
            None => t,
            Some(penumbra_ir::Version::Old) => self.store.old(t),
            Some(penumbra_ir::Version::New) => self.store.new(t),
        }
    }

    /// The value of `t` under the state's model, without constraining it (for output only;
    /// a shadow gives its new version's value).
    pub fn model_value(&self, st: &ExecutionState, t: TermId) -> u64 {
        match self.store.as_const(t) {
            Some(c) => c,
            None => eval_version(&self.store, t, &*st.model, TermVersion::New) & mask(self.store.width(t)),
        }
    }

    /// A width-1 truth value of `t` (`t != 0` for wider terms).
    pub fn truth(&mut self, t: TermId) -> TermId {
        let w = self.store.width(t);
        if w == 1 {
            return t;
        }
        let zero = self.store.zero(w);
        self.store.ne(t, zero)
    }

    /// `v` truncated or zero-extended to `w` bits, a constant staying unboxed.
    pub fn fit_val(&mut self, v: Val, w: u8) -> Val {
        match v {
            Val::Const { bits, .. } => Val::wide(&mut self.store, w, u128::from(bits)),
            Val::Term(t) => Val::Term(self.fit(t, w)),
        }
    }

    /// `t` truncated or zero-extended to `w` bits (the concrete interpreter masks registers).
    pub fn fit(&mut self, t: TermId, w: u8) -> TermId {
        let tw = self.store.width(t);
        match tw.cmp(&w) {
            std::cmp::Ordering::Equal => t,
            std::cmp::Ordering::Greater => self.store.extract(t, w - 1, 0),
            std::cmp::Ordering::Less if w > 64 => {
                let zeros = self.store.constant_wide(w - tw, 0);
                self.store.concat(zeros, t)
            }
            std::cmp::Ordering::Less => self.store.zext(t, w),
        }
    }
}
