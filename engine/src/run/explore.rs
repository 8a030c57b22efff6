//! The run loop: pick a state from the searcher, step it until it forks or ends, repeat, within
//! the budgets.
//!
//! A [`Runner`] holds what the loop works with: the interpreter's [`Context`], the test writer,
//! the budgets and the observer. What differs between modes is a [`Policy`]: what becomes of a
//! path that ended (counted and tested now, or held back by the concolic phase of seeded mode)
//! and which states stay in the search (all of them, or, in the concolic phase, those that did
//! not diverge).

use super::budget::Budget;
use super::{Observer, Progress};
use crate::config::StopReason;
use crate::interp::Interp;
use crate::output::testgen::TestWriter;
use crate::run_error::RunError;
use crate::search::{Coverage, Relevance, Searcher, StateId, View};
use crate::shadow::execute::BlockEnd;
use crate::shadow::Shadow;
use crate::symbolic::context::{Context, EndedPath, Flow, StepEvents, StepResult};
use crate::symbolic::state::{EarlyReason, Ending, ExecutionState};
use penumbra_solver::TermId;
use rustc_hash::FxHashMap;
use std::time::Duration;

/// Instructions a state runs without forking before it goes back to the search (KLEE's batching
/// searcher): a path in a long concrete loop (`seq 1 9999999999`) no longer keeps the searcher
/// from its other states; depth-first search picks it again, the searchers taking turns with it
/// do not. A multiple of 1,024 (the loop looks at it with the clock).
const SLICE_INSTRUCTIONS: u64 = 1 << 18;

/// The mode-specific part of the loop.
pub(crate) trait Policy {
    /// A path ended (past `penumbra_execute` blocks): count it and write its test, or keep it.
    fn path_ended(&mut self, runner: &mut Runner<'_, '_>, path: EndedPath) -> Result<(), RunError>;
    /// A state that stepped without ending, or was made by the step (`new`): whether it stays
    /// in the search (`Some`) or leaves it.
    fn place(&mut self, runner: &mut Runner<'_, '_>, st: ExecutionState, new: bool) -> Option<ExecutionState>;
    /// The old version exited in a `penumbra_execute` block and `st`, not diverged, starts the
    /// new version's side (both exits are compared at its end).
    fn new_side_starts(&mut self, _: &ExecutionState) {}
}

/// Every state is explored and every path gets its test at once: complete shadow execution,
/// plain symbolic execution and the bounded phase of seeded shadow execution.
pub(crate) struct ExploreAll;

impl Policy for ExploreAll {
    fn path_ended(&mut self, runner: &mut Runner<'_, '_>, path: EndedPath) -> Result<(), RunError> {
        runner.record(path)
    }

    fn place(&mut self, _: &mut Runner<'_, '_>, st: ExecutionState, _: bool) -> Option<ExecutionState> {
        Some(st)
    }
}

/// What the loop works with.
pub(crate) struct Runner<'p, 'o> {
    pub ctx: Context<'p>,
    pub tests: TestWriter,
    pub budget: Budget,
    observer: &'o mut dyn Observer,
    /// When to tell the observer next (`None`: it does not want to be told).
    next_progress: Option<Duration>,
    /// States made since the stepping state was taken from the search — forked off by its
    /// steps, or going on past a `penumbra_execute` block where a path ended — in order, for
    /// the search. Each says whether it is new, a fork off the path; not new is a path's own
    /// continuation (its old version exited in a `penumbra_execute` block, its new version's
    /// side runs on, no divergence yet), placed as the path itself (a seed's path stays
    /// followed).
    made: Vec<(ExecutionState, bool)>,
    /// The blocks states entered: the searchers that steer toward new code or the patch
    /// weigh states by it, and a path that enters a block first says so on its test.
    coverage: Coverage,
    /// The blocks that write the variables the patch's changes read (shadow runs; empty
    /// otherwise): a path entering one records it for the patch-directed searcher.
    relevance: Relevance,
    /// Diff paths per divergence site that wrote (or were to write) a test, where
    /// [`crate::config::Budgets::max_site_tests`] bounds them.
    site_tests: FxHashMap<String, u64>,
}

impl<'p, 'o> Runner<'p, 'o> {
    pub fn new(ctx: Context<'p>, tests: TestWriter, budget: Budget, observer: &'o mut dyn Observer) -> Self {
        let next_progress = observer.wants_progress().then_some(Duration::from_secs(1));
        let coverage = Coverage::new(&ctx.prog.module);
        let relevance = Relevance::new(&ctx.prog.module, &ctx.prog.funcs);
        Runner {
            ctx,
            tests,
            budget,
            observer,
            next_progress,
            made: Vec::new(),
            coverage,
            relevance,
            site_tests: FxHashMap::default(),
        }
    }

    /// Explores from `initial` with `searcher` under `policy` until no state is left, a budget
    /// stops the run or the phase is over. States still in the search stay in `slab`.
    pub fn explore(
        &mut self,
        slab: &mut Slab,
        searcher: &mut dyn Searcher,
        initial: Vec<ExecutionState>,
        policy: &mut dyn Policy,
    ) -> Result<(), RunError> {
        let weigh = searcher.wants_updates();
        for st in initial {
            let id = slab.insert(st);
            searcher.add(id, None);
            if weigh {
                self.update(searcher, slab, id);
            }
        }
        self.count_live(slab);
        while let Some(id) = searcher.select() {
            if self.budget.exhausted(&self.ctx.stats, self.ctx.store.pending_growth()) || self.budget.phase_over() {
                break;
            }
            let Some(mut st) = slab.take(id) else { break };
            match self.run_state(&mut st, policy)? {
                Some(ending) => {
                    self.end(policy, EndedPath { st, ending })?;
                    searcher.remove(id);
                    slab.free(id);
                    // The step may have made states (an ending inside a `penumbra_execute`
                    // block goes on as a new state, the ended one's continuation).
                    for (s, new) in std::mem::take(&mut self.made) {
                        if let Some(s) = policy.place(self, s, new) {
                            let child = slab.insert(s);
                            searcher.add(child, Some(id));
                            if weigh {
                                self.update(searcher, slab, child);
                            }
                        }
                    }
                }
                None => {
                    let new_states = std::mem::take(&mut self.made);
                    let mut children = Vec::with_capacity(new_states.len());
                    for (s, new) in new_states {
                        if let Some(s) = policy.place(self, s, new) {
                            children.push(slab.insert(s));
                        }
                    }
                    match policy.place(self, st, false) {
                        Some(st) => {
                            slab.put(id, st);
                            if !children.is_empty() {
                                let on = self.fork_subject(slab, &children);
                                searcher.forked(id, &children, on);
                            }
                            if weigh {
                                self.update(searcher, slab, id);
                            }
                        }
                        None => {
                            searcher.remove(id);
                            slab.free(id);
                            for &child in &children {
                                searcher.add(child, None);
                            }
                        }
                    }
                    if weigh {
                        for &child in &children {
                            self.update(searcher, slab, child);
                        }
                    }
                }
            }
            self.count_live(slab);
            self.progress();
        }
        Ok(())
    }

    /// The run stopped at a budget on time, memory or instructions, or an interrupt: every
    /// state still alive ends early with that reason (in id order), its test written within
    /// the test budgets, when the configuration asks for it (KLEE's dump of states on halt).
    pub fn end_live(&mut self, slab: &mut Slab, policy: &mut dyn Policy) -> Result<(), RunError> {
        let Some(Ending::Early(reason)) = self.stopped_here() else { return Ok(()) };
        if !self.ctx.config.halt_tests {
            return Ok(());
        }
        for id in 0..slab.slots.len() {
            if let Some(st) = slab.take(StateId::new(id)) {
                slab.free(StateId::new(id));
                self.end(policy, EndedPath { st, ending: Ending::Early(reason) })?;
            }
        }
        // An ending inside a `penumbra_execute` block goes on as a new state: not now.
        self.made.clear();
        Ok(())
    }

    /// Tells a weighing searcher where state `id` now is.
    fn update(&self, searcher: &mut dyn Searcher, slab: &Slab, id: StateId) {
        let Some(st) = slab.get(id) else { return };
        let prog = self.ctx.prog;
        let view =
            View { module: &prog.module, funcs: &prog.funcs, coverage: &self.coverage, relevance: &self.relevance };
        searcher.update(id, st, &view);
    }

    /// Tells the observer that exploration is over.
    pub fn finished(&mut self) {
        self.observer.finished();
    }

    fn count_live(&mut self, slab: &Slab) {
        self.ctx.live_states = slab.len();
        self.ctx.stats.max_live_states = self.ctx.stats.max_live_states.max(slab.len() as u64);
    }

    /// The value the fork that made `children` chose among ([`crate::symbolic::fork::fork_subject`]): the one
    /// their conditions, the last each path condition holds, all test.
    fn fork_subject(&self, slab: &Slab, children: &[StateId]) -> Option<TermId> {
        let mut subjects = children.iter().map(|&c| {
            let cond = slab.get(c)?.pc.last()?;
            crate::symbolic::fork::fork_subject(&self.ctx.store, cond)
        });
        let first = subjects.next()??;
        subjects.all(|s| s == Some(first)).then_some(first)
    }

    /// Steps `st` until it forks (new states in [`Runner::made`]), ends, leaves its seed, runs
    /// out of its time slice, or a budget stops the run.
    fn run_state(&mut self, st: &mut ExecutionState, policy: &mut dyn Policy) -> Result<Option<Ending>, RunError> {
        let prog = self.ctx.prog;
        let max_instructions = self.budget.max_instructions();
        let slice_end = self.ctx.stats.instructions + SLICE_INSTRUCTIONS;
        loop {
            if self.ctx.stats.instructions >= max_instructions {
                self.budget.stop = Some(StopReason::MaxInstructions);
                return Ok(self.stopped_here());
            }
            let Some(frame) = st.stack.last() else {
                return Ok(Some(Ending::Exit(0)));
            };
            let Some(body) = prog.module.funcs[frame.func].body.as_ref() else {
                return Ok(Some(self.ctx.unsupported(st, "a frame of a function without a body")));
            };
            let Some(&inst) = body.layout.block_insts(frame.block).get(frame.idx as usize) else {
                return Ok(Some(self.ctx.unsupported(st, "a block without a terminator")));
            };
            self.ctx.stats.instructions += 1;
            st.instructions += 1;
            let StepResult { flow, made } = Interp::new(&mut self.ctx).step(st, body, inst)?;
            if let Some(made) = made {
                self.take_made(policy, *made)?;
            }
            match flow {
                Flow::Next => {
                    st.frame_mut().idx += 1;
                    st.resolve_attempts = 0;
                    st.value_attempts = 0;
                }
                Flow::Jumped => {
                    if let Some(frame) = st.stack.last().filter(|f| f.idx == 0) {
                        st.covered_new |= self.coverage.mark(frame.func, frame.block);
                        st.defs_written |= self.relevance.mask(frame.func, frame.block);
                    }
                    st.resolve_attempts = 0;
                    st.value_attempts = 0;
                }
                Flow::Retry => {}
                Flow::End(ending) => return Ok(Some(*ending)),
            }
            if !self.made.is_empty() || (st.follows_seed() && st.divergence.is_some()) {
                return Ok(None);
            }
            // Every 1,024 instructions: a clock read, so `--max-time` holds to a fraction of a
            // millisecond of concrete work (resident memory is read less often, see budget.rs).
            if self.ctx.stats.instructions & 0x3ff == 0 {
                if self.budget.exhausted(&self.ctx.stats, self.ctx.store.pending_growth()) {
                    return Ok(self.stopped_here());
                }
                if std::mem::take(&mut self.budget.fork_pressure) {
                    self.ctx.cap_states_for_memory();
                }
                if self.budget.phase_over() || self.ctx.stats.instructions >= slice_end {
                    return Ok(None);
                }
                self.progress();
            }
        }
    }

    /// How the path being computed ends when the run stops in the middle of it: early, with
    /// the reason (counted, and its test written if it gets one), when the run stopped for
    /// time, memory, an interrupt or the instruction count; stopped for paths or output, it is
    /// left unexplored (its test would pass the budget that stopped the run).
    fn stopped_here(&self) -> Option<Ending> {
        match self.budget.stop? {
            reason @ (StopReason::MaxTime
            | StopReason::MaxMemory
            | StopReason::Interrupted
            | StopReason::MaxInstructions) => Some(Ending::Early(EarlyReason::Stopped(reason))),
            _ => None,
        }
    }

    /// What a step made: its forks join [`Runner::made`], its ended paths end.
    #[cold]
    #[inline(never)]
    fn take_made(&mut self, policy: &mut dyn Policy, made: StepEvents) -> Result<(), RunError> {
        let (forked, ended) = made.into_parts();
        self.made.extend(forked.into_iter().map(|s| (fork_child(s), true)));
        for path in ended {
            self.end(policy, path)?;
        }
        Ok(())
    }

    /// A path ended: inside a `penumbra_execute` block it may go on as a new state; otherwise
    /// the policy decides what becomes of it.
    pub fn end(&mut self, policy: &mut dyn Policy, path: EndedPath) -> Result<(), RunError> {
        let end = Shadow::new(&mut self.ctx).end_in_execute_block(path)?;
        // Where both versions exited in a block, a copy may diverge on their output.
        let (forked, ended) = std::mem::take(&mut self.ctx.events).into_parts();
        self.made.extend(forked.into_iter().map(|s| (fork_child(s), true)));
        match end {
            BlockEnd::Continue(st) => {
                self.ctx.stats.states += 1;
                let new = st.divergence.is_some();
                if !new {
                    policy.new_side_starts(&st);
                }
                self.made.push((st, new));
            }
            BlockEnd::Ended(path) => policy.path_ended(self, path)?,
        }
        for path in ended {
            self.end(policy, path)?;
        }
        Ok(())
    }

    /// Counts a path's ending and writes its test, if it gets one: in shadow execution a test
    /// per diff path and per error in both versions.
    pub fn record(&mut self, path: EndedPath) -> Result<(), RunError> {
        let stats = &mut self.ctx.stats;
        match &path.ending {
            Ending::Exit(_) => stats.paths_completed += 1,
            Ending::Error(e) => {
                stats.errors += 1;
                *stats.error_kinds.entry(e.kind.as_str()).or_insert(0) += 1;
            }
            Ending::Unsupported { message, location } => {
                stats.unsupported += 1;
                let site = (location.file.clone(), location.line, location.func.clone(), message.clone());
                *stats.unsupported_sites.entry(site).or_insert(0) += 1;
            }
            Ending::AssumeFalse(_) => stats.assume_false += 1,
            Ending::Early(why) => {
                stats.early += 1;
                *stats.early_reasons.entry(why.name()).or_insert(0) += 1;
            }
        }
        if self.ctx.config.mode.shadow().is_some() {
            // A false assume means the path does not exist, diverged or not.
            let diff_path = path.st.divergence.is_some() && !matches!(path.ending, Ending::AssumeFalse(_));
            if diff_path {
                stats.diff_paths += 1;
                if !self.site_has_tests(&path.st) {
                    self.ctx.stats.diff_paths_untested += 1;
                    return Ok(());
                }
            } else if !matches!(path.ending, Ending::Error(_)) {
                return Ok(());
            }
        }
        if self.budget.output_full() {
            return Ok(());
        }
        let stats = &mut self.ctx.stats;
        match self.tests.write(&self.ctx.store, &path.st, &path.ending) {
            Ok(()) => stats.tests += 1,
            Err(e) => {
                self.budget.output_failed(e.to_string());
                stats.tests = self.tests.settle_after_failure();
            }
        }
        if let Some(dir) = self.tests.dir() {
            self.budget.tests_written(stats.tests, self.tests.bytes(), dir);
        }
        Ok(())
    }

    /// Whether a diff path of `st` may still write a test at its divergence site (within
    /// [`crate::config::Budgets::max_site_tests`]); counts the test it will write.
    fn site_has_tests(&mut self, st: &ExecutionState) -> bool {
        let (Some(max), Some(d)) = (self.ctx.config.budgets.max_site_tests, &st.divergence) else { return true };
        if self.budget.output_full() {
            return true;
        }
        let written = self.site_tests.entry(d.site()).or_insert(0);
        *written += 1;
        *written <= max
    }

    /// Tells the observer how the run goes, once a second.
    fn progress(&mut self) {
        let Some(next) = self.next_progress else { return };
        let elapsed = self.budget.elapsed();
        if elapsed < next {
            return;
        }
        self.next_progress = Some(elapsed + Duration::from_secs(1));
        let s = &self.ctx.stats;
        self.observer.progress(&Progress {
            elapsed,
            paths_completed: s.paths_completed,
            errors: s.errors,
            live_states: self.ctx.live_states as u64,
            instructions: s.instructions,
            solver_queries: self.ctx.solver.stats().core_queries,
        });
    }
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

    fn get(&self, id: StateId) -> Option<&ExecutionState> {
        self.slots.get(id.index())?.as_ref()
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

    pub fn len(&self) -> usize {
        self.len
    }

    /// Takes every live state out, in slot order.
    pub fn drain(&mut self) -> Vec<ExecutionState> {
        let states: Vec<ExecutionState> = self.slots.drain(..).flatten().collect();
        self.free.clear();
        self.len = 0;
        states
    }
}

/// A state forked off a path: it has entered no block first yet (the path it forked from
/// keeps its own mark), as KLEE's `ExecutionState::branch` clears `coveredNew`.
fn fork_child(mut st: ExecutionState) -> ExecutionState {
    st.covered_new = false;
    st
}
