//! The process-wide stop request: a signal handler sets it, every run stops at its next budget
//! check, and a Bitwuzla check in progress gives up (answering unknown) as at a deadline. It
//! lives here, the lowest crate that must see it.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Asks every run of the process to stop, as if a budget ran out: the run writes the test it is
/// writing, its summary and its directory as usual. Only an atomic store, so a signal handler
/// may call it.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// Withdraws the stop request: the next phase of the process (replaying what an interrupted
/// run wrote) starts afresh, and a new signal stops that phase.
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::SeqCst);
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}
