//! When a Bitwuzla check must give up: the caller's deadline, a process-wide interrupt, or
//! the process's resident memory above a limit. Bitwuzla polls these through its termination
//! callback while it searches; a check that gives up answers unknown.
//!
//! The memory limit exists because one query can outgrow every budget of the run: a path
//! condition over `long double` arithmetic (seq printing symbolic numbers: 518 `fp.mul` of
//! 64-bit significands in the assertions of one 3.3-MB query) took Bitwuzla 16 s and 5 GB
//! inside one check, where the engine's own memory budget is read only between instructions.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// How often the callback reads resident memory at most: reading `/proc` costs microseconds,
/// and Bitwuzla polls far more often than that.
const MEMORY_READ_INTERVAL: Duration = Duration::from_millis(10);

/// What the termination callback reads. It lives in a box whose address never moves, since
/// Bitwuzla keeps a pointer to it.
#[derive(Debug)]
pub(crate) struct CheckLimits {
    pub deadline: Option<Instant>,
    /// Resident memory (MiB) above which a check gives up.
    pub memory_limit_mb: Option<u64>,
    next_memory_read: Cell<Option<Instant>>,
    /// Whether a check gave up because of the memory limit since [`CheckLimits::take_memory_hit`].
    memory_hit: Cell<bool>,
}

impl CheckLimits {
    pub fn new(memory_limit_mb: Option<u64>) -> Self {
        CheckLimits { deadline: None, memory_limit_mb, next_memory_read: Cell::new(None), memory_hit: Cell::new(false) }
    }

    /// Whether the deadline passed or the process was interrupted.
    pub fn past_deadline(&self) -> bool {
        crate::interrupt::interrupted() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether a check in progress must give up now.
    pub fn must_stop(&self) -> bool {
        self.past_deadline() || self.over_memory()
    }

    fn over_memory(&self) -> bool {
        if self.memory_hit.get() {
            return true;
        }
        let Some(limit) = self.memory_limit_mb else { return false };
        let now = Instant::now();
        if self.next_memory_read.get().is_some_and(|next| now < next) {
            return false;
        }
        self.next_memory_read.set(Some(now + MEMORY_READ_INTERVAL));
        let over = resident_mb().is_some_and(|rss| rss >= limit);
        self.memory_hit.set(over);
        over
    }

    /// Whether the memory limit stopped a check since the last call (and forgets it).
    pub fn take_memory_hit(&self) -> bool {
        self.next_memory_read.set(None);
        self.memory_hit.replace(false)
    }
}

/// The resident set size of this process in MiB (Linux), if known.
pub fn resident_mb() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096 / (1 << 20))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memory_limit_below_the_resident_size_stops_and_is_reported_once() {
        let limits = CheckLimits::new(Some(0));
        assert!(limits.must_stop());
        assert!(limits.take_memory_hit());
        assert!(!limits.take_memory_hit());
        let roomy = CheckLimits::new(Some(u64::MAX));
        assert!(!roomy.must_stop());
        assert!(!roomy.take_memory_hit());
        assert!(!CheckLimits::new(None).must_stop());
    }
}
