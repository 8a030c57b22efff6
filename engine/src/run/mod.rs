//! Running a program symbolically: [`run`] prepares the program, the solver, the test writer
//! and the initial states, drives the loop (`explore`) in the configured mode — one version,
//! complete shadow execution, or seeded shadow execution's two phases (`seeded`) — within the
//! budgets (`budget`), and returns the summary.
//!
//! A caller that wants to watch a long run passes an [`Observer`] ([`run_observed`]): the loop
//! tells it how the run goes once a second (the command line draws its progress line from it).

pub(crate) mod budget;
mod derive;
mod explore;
mod seeded;

use crate::config::{EngineConfig, ShadowMode, StopReason};
use crate::interp::start::{check_environment, initial_states};
use crate::output::summary::{RunEnd, RunSummary};
use crate::output::testgen::TestWriter;
use crate::run_error::RunError;
use crate::search;
use crate::symbolic::context::Context;
use crate::symbolic::program::Program;
use budget::{peak_rss_mb, Budget};
use explore::{ExploreAll, Runner, Slab};
use penumbra_ir::Module;
use penumbra_solver::{Solver, TermStore};
use std::time::{Duration, Instant};

/// How a run is going.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub elapsed: Duration,
    pub paths_completed: u64,
    pub errors: u64,
    /// States in the search.
    pub live_states: u64,
    pub instructions: u64,
    /// Queries that reached Bitwuzla.
    pub solver_queries: u64,
}

/// Watches a run.
pub trait Observer {
    /// Whether [`Observer::progress`] should be called (the run loop then reads the clock
    /// after every state it steps).
    fn wants_progress(&self) -> bool {
        true
    }
    /// Called once the output directory (if tests are written) is ready, before exploring.
    fn started(&mut self, _output_dir: Option<&std::path::Path>) {}
    /// Called about once a second while the run goes on.
    fn progress(&mut self, _progress: &Progress) {}
    /// Called once when exploration is over, before the summary is made.
    fn finished(&mut self) {}
}

/// An observer that ignores everything.
pub struct Quiet;

impl Observer for Quiet {
    fn wants_progress(&self) -> bool {
        false
    }
}

/// Runs `module` symbolically under `config` and returns the summary.
pub fn run(module: &Module, config: &EngineConfig) -> Result<RunSummary, RunError> {
    run_observed(module, config, &mut Quiet)
}

/// [`run`], telling `observer` how the run goes.
pub fn run_observed(
    module: &Module,
    config: &EngineConfig,
    observer: &mut dyn Observer,
) -> Result<RunSummary, RunError> {
    let start = Instant::now();
    let mut store = TermStore::with_capacity(1 << 16);
    let prog = Program::new(module, &mut store)?;
    let mut solver = Solver::new(config.solver.clone())?;
    // The wall-time budget holds inside a query too: Bitwuzla gives up at the deadline.
    solver.set_deadline(config.budgets.max_time.map(|max| start + max));
    // A refused environment is refused before the output directory is made.
    check_environment(&prog, config)?;
    let tests = TestWriter::create(config)?;
    observer.started(tests.dir());
    let mut runner =
        Runner::new(Context::new(&prog, config, store, solver), tests, Budget::new(&config.budgets, start), observer);
    let initial = initial_states(&mut runner.ctx)?;
    // An interrupt (or a budget) while the environment was made stops the run here.
    runner.budget.exhausted(&runner.ctx.stats, 0);
    let mut slab = Slab::default();
    let mut bse_budget_hit = false;
    // States left when a budget stopped the run (before their halt tests are written).
    let unexplored;
    match config.mode.shadow() {
        Some(ShadowMode::Seeded { seeds, bse_budget, derived }) => {
            let seeded = seeded::run_seeded(&mut runner, &mut slab, &initial, seeds, *bse_budget)?;
            bse_budget_hit = seeded.budget_hit;
            if *derived > 0 && runner.budget.stop.is_none() {
                let limit = derived.saturating_mul(seeds.len());
                bse_budget_hit |= derive::run_derived(&mut runner, &mut slab, &initial, seeded, limit)?;
            }
            unexplored = slab.len() as u64;
        }
        _ => {
            runner.ctx.stats.states += initial.len() as u64;
            let mut searcher =
                search::make(config.search, config.random_seed, config.mode.shadow().is_some(), config.site_states);
            runner.explore(&mut slab, &mut *searcher, initial, &mut ExploreAll)?;
            unexplored = slab.len() as u64;
            runner.end_live(&mut slab, &mut ExploreAll)?;
        }
    }
    runner.finished();
    if let Err(e) = runner.tests.finish() {
        runner.budget.output_failed(e.to_string());
        runner.ctx.stats.tests = runner.tests.settle_after_failure();
    }
    let wall = start.elapsed();
    // A query the wall-time budget cut short lost a side of its branch, even if the run then
    // ended on its own.
    let solver_stats = runner.ctx.solver.stats().clone();
    let cut_by_deadline =
        solver_stats.core_deadline > 0 && runner.budget.run_deadline().is_some_and(|d| Instant::now() >= d);
    let stop = runner
        .budget
        .stop
        .or(cut_by_deadline.then_some(StopReason::MaxTime))
        .or(bse_budget_hit.then_some(StopReason::BseBudget));
    let end = RunEnd {
        unexplored,
        stop,
        wall,
        terms: runner.ctx.store.len() as u64,
        peak_rss_mb: peak_rss_mb().unwrap_or(0.0),
        output_error: runner.budget.output_error.take(),
    };
    Ok(RunSummary::new(config, &runner.ctx.stats, &solver_stats, &mut runner.tests, end))
}
