//! The run loop: pick a state from the searcher, step it until it forks or ends, repeat, within
//! the budgets; then summarise.
//!
//! [`Executor`] is the context every part of the interpreter works in: the prepared
//! [`Program`], the term store, the solver, the counters, the test writer, and the states
//! produced by the current step (`new_states`). The state being stepped is passed alongside as
//! `&mut ExecutionState`. The instruction semantics are split by concern: `step.rs` (dispatch,
//! arithmetic, control flow), `access.rs` (loads, stores and pointer resolution), `calls.rs`,
//! `checks.rs`, `intrinsics.rs`, and the C library in `symlibc/`.

use crate::concrete::Inputs;
use crate::config::{EngineConfig, ShadowMode};
use crate::env;
use crate::error::Location;
use crate::program::Program;
use crate::run_error::RunError;
use crate::search::{self, StateId};
use crate::state::{Ending, ExecutionState};
use crate::stats::Stats;
use crate::summary::RunSummary;
use crate::testgen::TestWriter;
use penumbra_ir::Module;
use penumbra_solver::{Model, Solver, TermId, TermStore};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// The immediate post-dominator of each block of a function.
pub type PostDoms = cranelift_entity::SecondaryMap<
    penumbra_ir::Block,
    cranelift_entity::packed_option::PackedOption<penumbra_ir::Block>,
>;

/// What a step of an instruction did.
#[derive(Debug)]
pub enum Flow {
    /// Go on with the next instruction of the block.
    Next,
    /// Control moved (branch, call, return): the frame's position is already set.
    Jumped,
    /// Execute the same instruction again (a symbolic pointer resolved to another object).
    Retry,
    /// The path ended.
    End(Ending),
}

/// Why a run stopped before exploring every path.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    MaxInstructions,
    MaxPaths,
    MaxTime,
    MaxMemory,
    /// Seeded shadow execution: a divergence point's share of `--bse-budget` ran out.
    BseBudget,
}

impl StopReason {
    pub fn name(self) -> &'static str {
        match self {
            StopReason::MaxInstructions => "max-instructions",
            StopReason::MaxPaths => "max-paths",
            StopReason::MaxTime => "max-time",
            StopReason::MaxMemory => "max-memory",
            StopReason::BseBudget => "bse-budget",
        }
    }
}

/// The context of the interpreter.
pub struct Executor<'p> {
    pub prog: &'p Program,
    pub config: &'p EngineConfig,
    pub store: TermStore,
    pub solver: Solver,
    pub stats: Stats,
    pub tests: TestWriter,
    /// States forked off during the current step.
    pub new_states: Vec<ExecutionState>,
    /// States in the searcher (the one stepping included).
    pub live_states: usize,
    /// Reused buffer (branch and call arguments).
    pub scratch: Vec<TermId>,
    start: Instant,
    pub(crate) stop: Option<StopReason>,
    /// The end of the current phase of a seeded run (one point's share of the BSE budget).
    pub(crate) phase_deadline: Option<Instant>,
    /// A point's BSE share ran out with states left (they ended early, with tests).
    pub(crate) bse_budget_hit: bool,
    /// Seeded shadow execution: the seed the concolic phase follows now.
    pub(crate) seed_inputs: Option<Inputs>,
    /// Seeded shadow execution: the first variable of each symbolic object the concolic phase
    /// made, by (ordinal on the path, name, size). Every seed's run reuses them, so seeds that
    /// follow the same path build the same path condition and queue the same divergence point
    /// (which is then explored once).
    pub(crate) seed_vars: rustc_hash::FxHashMap<(usize, String, u32), u32>,
    /// Seeded shadow execution: the paths the concolic phase ended, held back until every seed
    /// has run so that a path several seeds reach is counted and tested once.
    pub(crate) held_endings: Option<Vec<crate::seeded::HeldEnding>>,
    /// Post-dominators per function, for `penumbra_execute` blocks.
    pub(crate) postdoms: rustc_hash::FxHashMap<penumbra_ir::Func, std::rc::Rc<PostDoms>>,
    next_progress: Duration,
    progress_terminal: bool,
}

/// Runs `module` symbolically under `config` and returns the summary.
pub fn run(module: &Module, config: &EngineConfig) -> Result<RunSummary, RunError> {
    let start = Instant::now();
    let mut store = TermStore::with_capacity(1 << 16);
    let prog = Program::new(module, &mut store)?;
    let mut solver = Solver::new(config.solver.clone())?;
    // The wall-time budget holds inside a query too: Bitwuzla gives up at the deadline.
    solver.set_deadline(config.budgets.max_time.map(|max| start + max));
    let tests = TestWriter::create(config)?;
    let mut ex = Executor {
        prog: &prog,
        config,
        store,
        solver,
        stats: Stats::default(),
        tests,
        new_states: Vec::new(),
        live_states: 0,
        scratch: Vec::new(),
        start,
        stop: None,
        phase_deadline: None,
        bse_budget_hit: false,
        seed_inputs: None,
        seed_vars: Default::default(),
        held_endings: None,
        postdoms: Default::default(),
        next_progress: Duration::from_secs(1),
        progress_terminal: std::io::stderr().is_terminal(),
    };
    let initial = env::initial_states(&mut ex)?;
    let mut slab = Slab::default();
    match &config.shadow {
        Some(ShadowMode::Seeded { seeds, bse_budget }) => ex.run_seeded(&mut slab, initial, seeds, *bse_budget)?,
        _ => {
            ex.stats.states += initial.len() as u64;
            let mut searcher = search::make(config.search, config.seed);
            ex.explore(&mut slab, &mut *searcher, initial, None)?;
        }
    }
    ex.progress(true);
    ex.tests.finish()?;
    let unexplored = slab.len() as u64;
    let wall = start.elapsed();
    // A query the wall-time budget cut short lost a side of its branch, even if the run then
    // ended on its own.
    let cut_by_deadline = ex.solver.stats().core_deadline > 0 && ex.run_deadline().is_some_and(|d| Instant::now() >= d);
    let stop = ex
        .stop
        .or(cut_by_deadline.then_some(StopReason::MaxTime))
        .or(ex.bse_budget_hit.then_some(StopReason::BseBudget));
    Ok(RunSummary::new(&mut ex, unexplored, stop, wall))
}

/// Where the states a concolic phase sends off go.
pub(crate) type DivergenceQueue = Vec<ExecutionState>;

impl<'p> Executor<'p> {
    /// Explores from `initial` with `searcher` until no state is left or a budget stops the
    /// run. With a `queue` (the concolic phase of a seeded run), states that diverged leave the
    /// exploration for the queue instead of running on, and forks that did not diverge (off the
    /// seed's path) are not followed.
    pub(crate) fn explore(
        &mut self,
        slab: &mut Slab,
        searcher: &mut dyn search::Searcher,
        initial: Vec<ExecutionState>,
        mut queue: Option<&mut DivergenceQueue>,
    ) -> Result<(), RunError> {
        for st in initial {
            let id = slab.insert(st);
            searcher.add(id, None);
        }
        self.live_states = slab.len();
        self.stats.max_live_states = self.stats.max_live_states.max(slab.len() as u64);
        while let Some(id) = searcher.select() {
            if self.budget_exhausted() || self.phase_over() {
                break;
            }
            let Some(mut st) = slab.take(id) else { break };
            let ended = self.run_state(&mut st)?;
            match ended {
                Some(ending) => {
                    let model = st.model.clone();
                    self.end_path(&st, None, &model, ending)?;
                    searcher.remove(id);
                    slab.free(id);
                    // An ending inside a `penumbra_execute` block may go on as a new state.
                    for s in self.new_states.drain(..) {
                        let child = slab.insert(s);
                        searcher.add(child, None);
                    }
                }
                None => match queue.as_deref_mut() {
                    Some(queue) => {
                        for mut s in self.new_states.drain(..) {
                            if s.divergence.is_some() {
                                s.concolic = false;
                                queue.push(s);
                            } else {
                                self.stats.dropped += 1;
                            }
                        }
                        if st.divergence.is_some() {
                            st.concolic = false;
                            queue.push(st);
                            searcher.remove(id);
                            slab.free(id);
                        } else {
                            slab.put(id, st);
                        }
                    }
                    None => {
                        slab.put(id, st);
                        let children: Vec<StateId> = self.new_states.drain(..).map(|s| slab.insert(s)).collect();
                        if !children.is_empty() {
                            searcher.forked(id, &children);
                        }
                    }
                },
            }
            self.live_states = slab.len();
            self.stats.max_live_states = self.stats.max_live_states.max(slab.len() as u64);
            self.progress(false);
        }
        Ok(())
    }

    /// When the wall-time budget runs out, if there is one.
    pub(crate) fn run_deadline(&self) -> Option<Instant> {
        self.config.budgets.max_time.map(|max| self.start + max)
    }

    /// Whether the current phase's deadline has passed.
    fn phase_over(&self) -> bool {
        self.phase_deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Steps `st` until it forks (new states in `new_states`), ends, or a budget stops the run.
    fn run_state(&mut self, st: &mut ExecutionState) -> Result<Option<Ending>, RunError> {
        let prog: &'p Program = self.prog;
        let max_instructions = self.config.budgets.max_instructions.unwrap_or(u64::MAX);
        loop {
            if self.stats.instructions >= max_instructions {
                self.stop = Some(StopReason::MaxInstructions);
                return Ok(None);
            }
            let Some(frame) = st.stack.last() else {
                return Ok(Some(Ending::Exit(0)));
            };
            let Some(body) = prog.module.funcs[frame.func].body.as_ref() else {
                return Ok(Some(self.unsupported(st, "a frame of a function without a body")));
            };
            let Some(&inst) = body.layout.block_insts(frame.block).get(frame.idx as usize) else {
                return Ok(Some(self.unsupported(st, "a block without a terminator")));
            };
            self.stats.instructions += 1;
            st.instructions += 1;
            match self.step(st, body, inst)? {
                Flow::Next => {
                    st.frame_mut().idx += 1;
                    st.resolve_attempts = 0;
                }
                Flow::Jumped => st.resolve_attempts = 0,
                Flow::Retry => {}
                Flow::End(ending) => return Ok(Some(ending)),
            }
            if !self.new_states.is_empty() || (st.concolic && st.divergence.is_some()) {
                return Ok(None);
            }
            if self.stats.instructions & 0x3fff == 0 {
                if self.budget_exhausted() || self.phase_over() {
                    return Ok(None);
                }
                self.progress(false);
            }
        }
    }

    /// Checks the run-wide budgets; records the reason when one is exhausted.
    fn budget_exhausted(&mut self) -> bool {
        if self.stop.is_some() {
            return true;
        }
        let b = &self.config.budgets;
        let reason = if b.max_paths.is_some_and(|max| self.stats.paths_ended() >= max) {
            Some(StopReason::MaxPaths)
        } else if b.max_instructions.is_some_and(|max| self.stats.instructions >= max) {
            Some(StopReason::MaxInstructions)
        } else if b.max_time.is_some_and(|max| self.start.elapsed() >= max) {
            Some(StopReason::MaxTime)
        } else if b.max_memory_mb.is_some_and(|max| resident_mb().is_some_and(|rss| rss >= max)) {
            Some(StopReason::MaxMemory)
        } else {
            None
        };
        self.stop = reason;
        reason.is_some()
    }

    /// Prints the progress line on stderr once a second (and clears it at the end).
    fn progress(&mut self, last: bool) {
        if !self.config.progress {
            return;
        }
        let elapsed = self.start.elapsed();
        if last {
            if self.next_progress > Duration::from_secs(1) && self.progress_terminal {
                eprint!("\r\x1b[K");
            }
            return;
        }
        if elapsed < self.next_progress {
            return;
        }
        self.next_progress = elapsed + Duration::from_secs(1);
        let line = format!(
            "penumbra: {:.0}s, {} paths, {} errors, {} states live, {} instructions, {} solver queries",
            elapsed.as_secs_f64(),
            self.stats.paths_completed,
            self.stats.errors,
            self.live_states,
            self.stats.instructions,
            self.solver.stats().core_queries,
        );
        let mut err = std::io::stderr().lock();
        let _ = if self.progress_terminal { write!(err, "\r\x1b[K{line}") } else { writeln!(err, "{line}") };
        let _ = err.flush();
    }

    /// Records the end of a path: counts it and writes its test. `extra` is a constraint that
    /// holds on the ending side but is not (yet) in `st.pc` (the failing side of a check).
    pub fn end_path(
        &mut self,
        st: &ExecutionState,
        extra: Option<TermId>,
        model: &Model,
        ending: Ending,
    ) -> Result<(), RunError> {
        if st.region.is_some() {
            match self.region_ending(st, extra, model, &ending) {
                Some(crate::region::RegionEnd::Continue(s)) => {
                    self.stats.states += 1;
                    self.new_states.push(s);
                    return Ok(());
                }
                Some(crate::region::RegionEnd::Ended(s)) => return self.end_path(&s, None, &s.model.clone(), ending),
                None => {}
            }
        }
        if let Some(held) = self.held_endings.as_mut() {
            held.push(crate::seeded::HeldEnding { st: st.clone(), extra, model: model.clone(), ending });
            return Ok(());
        }
        self.finish_path(st, extra, model, ending)
    }

    /// Counts a path's ending and writes its test, if it gets one (`end_path` past the
    /// `penumbra_execute` region and the concolic phase's holding back).
    pub(crate) fn finish_path(
        &mut self,
        st: &ExecutionState,
        extra: Option<TermId>,
        model: &Model,
        ending: Ending,
    ) -> Result<(), RunError> {
        let shadow = self.config.shadow.is_some();
        let diverged = st.divergence.is_some();
        match &ending {
            Ending::Exit(_) => self.stats.paths_completed += 1,
            Ending::Error(e) => {
                self.stats.errors += 1;
                *self.stats.error_kinds.entry(e.kind.as_str()).or_insert(0) += 1;
            }
            Ending::Unsupported { message, location } => {
                self.stats.unsupported += 1;
                let site = (location.line, location.func.clone(), message.clone());
                *self.stats.unsupported_sites.entry(site).or_insert(0) += 1;
            }
            Ending::AssumeFalse(_) => self.stats.assume_false += 1,
            Ending::Early(_) => self.stats.early += 1,
        }
        if shadow {
            // Shadow execution writes a test per diff path and per error in both versions; a
            // false assume means the path does not exist, diverged or not.
            let diff_path = diverged && !matches!(ending, Ending::AssumeFalse(_));
            if diff_path {
                self.stats.diff_paths += 1;
            } else if !matches!(ending, Ending::Error(_)) {
                return Ok(());
            }
        }
        self.stats.tests += 1;
        let prog = self.prog;
        self.tests.write(prog, &self.store, st, extra, model, &ending)
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
        Location::new(func.name.clone(), line)
    }

    /// An ending for an unsupported construct at the current location.
    pub fn unsupported(&self, st: &ExecutionState, message: impl Into<String>) -> Ending {
        Ending::Unsupported { message: message.into(), location: self.location(st) }
    }

    /// An error ending at the current location.
    pub fn error(&self, st: &ExecutionState, kind: crate::ErrorKind, message: impl Into<String>) -> Ending {
        Ending::Error(crate::RuntimeError { kind, message: message.into(), location: self.location(st) })
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// The peak resident set size of this process in KiB (Linux `VmHWM`), if known. Child
/// processes (the C compiler) are not included.
pub fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The resident set size of this process in MiB (Linux), if known.
pub fn resident_mb() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096 / (1 << 20))
}

/// The live states, by id; ids of ended states are reused (deterministically: last freed first).
#[derive(Default)]
pub(crate) struct Slab {
    slots: Vec<Option<ExecutionState>>,
    free: Vec<StateId>,
    len: usize,
}

impl Slab {
    fn insert(&mut self, st: ExecutionState) -> StateId {
        self.len += 1;
        match self.free.pop() {
            Some(id) => {
                self.slots[id.index()] = Some(st);
                id
            }
            None => {
                self.slots.push(Some(st));
                StateId::new(self.slots.len() - 1)
            }
        }
    }

    fn take(&mut self, id: StateId) -> Option<ExecutionState> {
        self.slots.get_mut(id.index())?.take()
    }

    fn put(&mut self, id: StateId, st: ExecutionState) {
        self.slots[id.index()] = Some(st);
    }

    fn free(&mut self, id: StateId) {
        self.len -= 1;
        self.free.push(id);
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Takes every live state out, in slot order.
    pub(crate) fn drain(&mut self) -> Vec<ExecutionState> {
        let states: Vec<ExecutionState> = self.slots.drain(..).flatten().collect();
        self.free.clear();
        self.len = 0;
        states
    }
}
