//! SIGINT and SIGTERM (what `timeout`, Slurm and Kubernetes send first) end an exploring run
//! cleanly: the first asks the engine to stop, and the run then writes the test it is writing,
//! its summary and `run.json`, as after a budget (`stopped_by: interrupted`); a second one
//! exits at once. Replay (`shadow --replay` after its run, `penumbra replay`) starts afresh:
//! the next signal stops it after the tests replayed so far (a program being run is killed)
//! and they are reported; one more exits at once.
//!
//! SIGXFSZ (a write past the file-size limit, `ulimit -f`) is ignored: the write then fails
//! with an error the run reports (`stopped_by: io-error`) instead of killing the process.

/// Installs the handlers for the rest of the process.
pub fn install() {
    extern "C" fn on_signal(_: libc::c_int) {
        if penumbra_engine::interrupted() {
            // SAFETY: `_exit` is async-signal-safe.
            unsafe { libc::_exit(130) }
        }
        penumbra_engine::interrupt();
    }
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only loads and stores an atomic flag or calls `_exit`, which are
        // async-signal-safe.
        unsafe {
            libc::signal(signal, handler);
        }
    }
    // SAFETY: ignoring a signal installs no code.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}
