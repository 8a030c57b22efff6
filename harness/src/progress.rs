//! The progress line of long runs: once a second on stderr (never stdout), redrawn in place on a
//! terminal and one line each otherwise, cleared when exploration ends.

use penumbra_engine::run::{Observer, Progress};
use std::io::{IsTerminal, Write};

/// Draws the engine's progress reports.
pub struct ProgressLine {
    terminal: bool,
    drawn: bool,
}

impl ProgressLine {
    pub fn new() -> Self {
        ProgressLine { terminal: std::io::stderr().is_terminal(), drawn: false }
    }
}

impl Observer for ProgressLine {
    fn progress(&mut self, p: &Progress) {
        let line = format!(
            "penumbra: {:.0}s, {} paths, {} errors, {} states live, {} instructions, {} solver queries",
            p.elapsed.as_secs_f64(),
            p.paths_completed,
            p.errors,
            p.live_states,
            p.instructions,
            p.solver_queries,
        );
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal { write!(err, "\r\x1b[K{line}") } else { writeln!(err, "{line}") };
        let _ = err.flush();
        self.drawn = true;
    }

    fn finished(&mut self) {
        if self.drawn && self.terminal {
            eprint!("\r\x1b[K");
        }
    }
}
