//! Progress of a batch on stderr: an `indicatif` bar when stderr is a terminal, and one line
//! per finished job either way (above the bar on a terminal; alone in logs, where a bar's
//! redraws would be noise).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

pub struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    done: usize,
}

impl Progress {
    pub fn new(total: usize) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} jobs {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar
        });
        Progress { bar, total, done: 0 }
    }

    /// Reports a finished job.
    pub fn finished(&mut self, line: &str) {
        self.done += 1;
        let line = format!("[{}/{}] {line}", self.done, self.total);
        match &self.bar {
            Some(bar) => {
                bar.println(line);
                bar.inc(1);
            }
            None => eprintln!("{line}"),
        }
    }

    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}
