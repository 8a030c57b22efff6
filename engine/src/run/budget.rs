//! The run-wide budgets ([`Budgets`]): when one is exhausted the run stops and says which
//! ([`StopReason`]). Counts (instructions, paths) make runs deterministic; wall time and memory
//! are best effort. Seeded shadow execution adds a deadline per phase (a divergence point's
//! share of `--bse-budget`).
//!
//! Also the process probes the budgets and the summary need: resident memory from `/proc`.

use crate::config::{Budgets, StopReason};
use crate::symbolic::stats::Stats;
use penumbra_solver::interrupted;
use std::time::{Duration, Instant};

/// The budgets of one run and what stopped it.
#[derive(Debug)]
pub(crate) struct Budget {
    budgets: Budgets,
    start: Instant,
    /// The budget that stopped the run, once one did.
    pub stop: Option<StopReason>,
    /// The end of the current phase of a seeded run (one point's share of the BSE budget).
    pub phase_deadline: Option<Instant>,
    /// When resident memory is read next: reading `/proc` costs microseconds, so it is read
    /// at most every [`MEMORY_CHECK_INTERVAL`] however often the cheap budgets are checked.
    next_memory_check: Instant,
}

/// How often [`Budget::exhausted`] reads resident memory at most.
const MEMORY_CHECK_INTERVAL: Duration = Duration::from_millis(10);

impl Budget {
    pub fn new(budgets: &Budgets, start: Instant) -> Self {
        Budget { budgets: budgets.clone(), start, stop: None, phase_deadline: None, next_memory_check: start }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// When the wall-time budget runs out, if there is one.
    pub fn run_deadline(&self) -> Option<Instant> {
        self.budgets.max_time.map(|max| self.start + max)
    }

    /// The instruction budget (`u64::MAX` when there is none).
    pub fn max_instructions(&self) -> u64 {
        self.budgets.max_instructions.unwrap_or(u64::MAX)
    }

    /// Whether the current phase's deadline has passed.
    pub fn phase_over(&self) -> bool {
        self.phase_deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Checks the run-wide budgets against `stats`; records the reason when one is exhausted.
    pub fn exhausted(&mut self, stats: &Stats) -> bool {
        if self.stop.is_some() {
            return true;
        }
        let b = &self.budgets;
        let reason = if interrupted() {
            Some(StopReason::Interrupted)
        } else if b.max_paths.is_some_and(|max| stats.paths_ended() >= max) {
            Some(StopReason::MaxPaths)
        } else if b.max_instructions.is_some_and(|max| stats.instructions >= max) {
            Some(StopReason::MaxInstructions)
        } else if b.max_time.is_some_and(|max| self.start.elapsed() >= max) {
            Some(StopReason::MaxTime)
        } else if b.max_memory_mb.is_some_and(|max| self.over_memory(max)) {
            Some(StopReason::MaxMemory)
        } else {
            None
        };
        self.stop = reason;
        reason.is_some()
    }

    /// Whether resident memory reached `max` MiB, read at most every
    /// [`MEMORY_CHECK_INTERVAL`].
    fn over_memory(&mut self, max: u64) -> bool {
        let now = Instant::now();
        if now < self.next_memory_check {
            return false;
        }
        self.next_memory_check = now + MEMORY_CHECK_INTERVAL;
        resident_mb().is_some_and(|rss| rss >= max)
    }
}

/// The peak resident set size of this process in MiB (Linux `VmHWM`), if known. Child processes
/// (the C compiler) are not included.
pub fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb as f64 / 1024.0)
}

/// The resident set size of this process in MiB (Linux), if known.
fn resident_mb() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096 / (1 << 20))
}
