//! The run-wide budgets ([`Budgets`]): when one is exhausted the run stops and says which
//! ([`StopReason`]). Counts (instructions, paths) make runs deterministic; wall time and memory
//! are best effort. Seeded shadow execution adds a deadline per phase (a divergence point's
//! share of `--bse-budget`).
//!
//! The output is budgeted too: tests and bytes written, the free space of the output's file
//! system, and a failed write stops the run like a budget (`io-error`), keeping what was
//! written.
//!
//! Also the process probes the budgets and the summary need: resident memory (the solver's
//! reading of `/proc`, which its checks use for the same limit), free disk space from `statvfs`.

use crate::config::{Budgets, StopReason};
use crate::symbolic::stats::Stats;
use penumbra_solver::{interrupted, resident_mb};
use std::path::Path;
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
    /// Resident memory at the last read (MiB).
    resident_mb: u64,
    /// Resident memory when the state cap was last lowered for `fork_memory_mb`, and whether
    /// memory has grown past it by [`FORK_MEMORY_STEP_MB`] since (taken by the run loop).
    fork_memory_mark: u64,
    pub fork_pressure: bool,
    /// The output size at which the file system's free space is read next.
    next_disk_check: u64,
    /// Why writing tests failed, if it did.
    pub output_error: Option<String>,
    /// The output budget (tests, bytes, disk, an I/O error) that was reached, even when another
    /// budget stopped the run first: the tests of the states alive at a time budget must not
    /// pass it.
    output_stop: Option<StopReason>,
}

/// How often (in bytes of tests written) [`Budget::tests_written`] reads the free space.
const DISK_CHECK_BYTES: u64 = 64 << 10;

/// The most a run leaves free on its output's file system: writing stops when less than this,
/// or than a tenth of the file system, is left (so a run never fills a disk others share).
pub const DISK_MARGIN: u64 = 256 << 20;

/// The space of a file system, in bytes.
#[derive(Copy, Clone, Debug)]
struct DiskSpace {
    /// Available to this process.
    free: u64,
    total: u64,
}

impl DiskSpace {
    fn margin(&self) -> u64 {
        (self.total / 10).min(DISK_MARGIN)
    }
}

/// The space of the file system holding `dir`, if it can be read.
fn disk_space(dir: &Path) -> Option<DiskSpace> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: `path` is a NUL-terminated string and `stat` a plain struct statvfs fills in.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(path.as_ptr(), &mut stat) } != 0 {
        return None;
    }
    let block = stat.f_frsize as u64;
    Some(DiskSpace { free: stat.f_bavail as u64 * block, total: stat.f_blocks as u64 * block })
}

/// How much resident memory may grow above `fork_memory_mb` before the state cap is lowered
/// again (the term store and the solver grow with the run, not only with its states).
const FORK_MEMORY_STEP_MB: u64 = 32;

/// How often [`Budget::exhausted`] reads resident memory at most.
const MEMORY_CHECK_INTERVAL: Duration = Duration::from_millis(10);

impl Budget {
    pub fn new(budgets: &Budgets, start: Instant) -> Self {
        Budget {
            budgets: *budgets,
            start,
            stop: None,
            phase_deadline: None,
            next_memory_check: start,
            resident_mb: 0,
            fork_memory_mark: 0,
            fork_pressure: false,
            next_disk_check: 0,
            output_error: None,
            output_stop: None,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// When the wall-time budget runs out, if there is one.
    pub fn run_deadline(&self) -> Option<Instant> {
        self.budgets.max_time.map(|max| self.start + max)
    }

    /// The wall time left, if there is a wall-time budget.
    pub fn time_left(&self) -> Option<Duration> {
        self.budgets.max_time.map(|max| max.saturating_sub(self.start.elapsed()))
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
    /// `pending` is memory about to be allocated (the term store's next doubling), counted
    /// against the memory budget with the resident size.
    pub fn exhausted(&mut self, stats: &Stats, pending: u64) -> bool {
        if self.stop.is_some() {
            return true;
        }
        let b = self.budgets;
        let reason = if interrupted() {
            Some(StopReason::Interrupted)
        } else if b.max_paths.is_some_and(|max| stats.paths_ended() >= max) {
            Some(StopReason::MaxPaths)
        } else if b.max_instructions.is_some_and(|max| stats.instructions >= max) {
            Some(StopReason::MaxInstructions)
        } else if b.max_time.is_some_and(|max| self.start.elapsed() >= max) {
            Some(StopReason::MaxTime)
        } else if self.read_memory() && b.max_memory_mb.is_some_and(|max| self.resident_mb + pending / (1 << 20) >= max)
        {
            Some(StopReason::MaxMemory)
        } else {
            None
        };
        self.stop = reason;
        reason.is_some()
    }

    /// Records that `tests` tests, `bytes` bytes in all, are written into `dir`: the run stops
    /// when that reaches `max_tests` or `max_output_mb`, or when the file system of `dir` has
    /// less than its margin free (read every [`DISK_CHECK_BYTES`] written).
    pub fn tests_written(&mut self, tests: u64, bytes: u64, dir: &Path) {
        let reason = if self.budgets.max_tests.is_some_and(|max| tests >= max) {
            Some(StopReason::MaxTests)
        } else if self.budgets.max_output_mb.is_some_and(|max| bytes >= max.saturating_mul(1 << 20)) {
            Some(StopReason::MaxOutput)
        } else if bytes >= self.next_disk_check {
            self.next_disk_check = bytes + DISK_CHECK_BYTES;
            disk_space(dir).filter(|space| space.free < space.margin()).map(|_| StopReason::DiskSpace)
        } else {
            None
        };
        self.output_stop = self.output_stop.or(reason);
        self.stop = self.stop.or(reason);
    }

    /// Writing a test failed with `error`: the run stops as at a budget (what was written
    /// stays), and the summary says why.
    pub fn output_failed(&mut self, error: String) {
        self.output_stop = self.output_stop.or(Some(StopReason::IoError));
        self.stop = self.stop.or(Some(StopReason::IoError));
        self.output_error.get_or_insert(error);
    }

    /// Whether the output stopped the run (a budget on tests or bytes, the disk, an I/O
    /// error): later paths write no test.
    pub fn output_full(&self) -> bool {
        self.output_stop.is_some()
    }

    /// Reads resident memory if [`MEMORY_CHECK_INTERVAL`] passed since the last read and a
    /// budget needs it (then `true`); sets [`Budget::fork_pressure`] where it reached
    /// `fork_memory_mb` or grew by [`FORK_MEMORY_STEP_MB`] above it since it last did.
    fn read_memory(&mut self) -> bool {
        let b = &self.budgets;
        let now = Instant::now();
        if now < self.next_memory_check || (b.max_memory_mb.is_none() && b.fork_memory_mb.is_none()) {
            return false;
        }
        self.next_memory_check = now + MEMORY_CHECK_INTERVAL;
        let Some(rss) = resident_mb() else { return false };
        self.resident_mb = rss;
        if b.fork_memory_mb.is_some_and(|max| rss >= max.max(self.fork_memory_mark + FORK_MEMORY_STEP_MB)) {
            self.fork_memory_mark = rss;
            self.fork_pressure = true;
        }
        true
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
