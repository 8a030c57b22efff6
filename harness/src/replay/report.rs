//! The replay report: tests grouped by class, most severe first, each with its inputs, where the
//! versions parted, and how each build ran it; and the same as JSON (`report.json`, and the
//! test array of `penumbra replay --json` / `penumbra shadow --replay --json`).

use super::classify::{outcome_json, Class};
use super::native::RunOutcome;
use crate::inputs::show_input;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many tests of each class the readable report lists.
const LIST_LIMIT: usize = 25;

/// One test after replay.
#[derive(Clone, Debug)]
pub struct ReplayedTest {
    pub name: String,
    /// The test's record from `tests.jsonl` (kind, inputs, line, old, new, error, ...).
    pub record: Value,
    /// The test's objects in creation order.
    pub inputs: Vec<(String, Vec<u8>)>,
    pub class: Class,
    pub old: RunOutcome,
    pub new: RunOutcome,
    /// The fixed version's run, when it decided an output difference.
    pub fixed: Option<RunOutcome>,
}

impl ReplayedTest {
    /// The record with the replay's `class`, `old_outcome` and `new_outcome` (and
    /// `fixed_outcome`) added.
    pub fn to_json(&self) -> Value {
        let mut v = self.record.clone();
        if let Some(map) = v.as_object_mut() {
            map.insert("class".into(), json!(self.class.as_str()));
            map.insert("old_outcome".into(), outcome_json(&self.old));
            map.insert("new_outcome".into(), outcome_json(&self.new));
            if let Some(f) = &self.fixed {
                map.insert("fixed_outcome".into(), outcome_json(f));
            }
        }
        v
    }
}

#[derive(Clone, Debug)]
pub struct Report {
    pub source: PathBuf,
    pub fixed_version: Option<PathBuf>,
    pub tests: Vec<ReplayedTest>,
    pub wall: Duration,
    pub timeout: Duration,
    /// How the native builds were made ("AddressSanitizer + UBSan", ...).
    pub builds: &'static str,
    /// Tests an interrupt left unreplayed (not in `tests`).
    pub not_replayed: usize,
}

impl Report {
    /// The number of tests in `class`.
    pub fn count(&self, class: Class) -> usize {
        self.tests.iter().filter(|t| t.class == class).count()
    }

    pub fn tests_json(&self) -> Vec<Value> {
        self.tests.iter().map(ReplayedTest::to_json).collect()
    }

    /// `report.json`: the source, the counts per class and every test.
    pub fn to_json(&self) -> Value {
        let classes: serde_json::Map<String, Value> =
            Class::ALL.iter().map(|&c| (c.as_str().to_string(), json!(self.count(c)))).collect();
        json!({
            "source": self.source.display().to_string(),
            "fixed_version": self.fixed_version.as_ref().map(|f| f.display().to_string()),
            "timeout_s": self.timeout.as_secs_f64(),
            "classes": classes,
            "not_replayed": self.not_replayed,
            "tests": self.tests_json(),
        })
    }

    /// The readable report.
    pub fn human(&self) -> String {
        let mut out = String::new();
        let name = self.source.file_name().map_or(self.source.display().to_string(), |n| n.to_string_lossy().into());
        let _ = writeln!(
            out,
            "replay: {} test{} of {name} on the old and the new version (native, {}), {:.2} s",
            self.tests.len(),
            if self.tests.len() == 1 { "" } else { "s" },
            self.builds,
            self.wall.as_secs_f64()
        );
        if self.not_replayed > 0 {
            let _ = writeln!(out, "  interrupted: {} more tests were not replayed", self.not_replayed);
        }
        if self.tests.is_empty() {
            let _ = writeln!(out, "  nothing to replay");
            return out;
        }
        let counts: Vec<String> = Class::ALL
            .iter()
            .filter(|&&c| self.count(c) > 0)
            .map(|&c| format!("{} {}", self.count(c), c.as_str()))
            .collect();
        let _ = writeln!(out, "  {}", counts.join(", "));
        for class in Class::ALL {
            let tests: Vec<&ReplayedTest> = self.tests.iter().filter(|t| t.class == class).collect();
            if tests.is_empty() {
                continue;
            }
            let _ = writeln!(out, "{}:", class.heading(self.fixed_version.is_some()));
            if tests.len() > LIST_LIMIT {
                let _ = writeln!(out, "  (the first {LIST_LIMIT} of {}; all in report.json)", tests.len());
            }
            for t in tests.into_iter().take(LIST_LIMIT) {
                let _ = writeln!(out, "  {}  {}", t.name, self.describe(t));
                let _ = writeln!(out, "      old: {}", show_outcome(&t.old));
                let _ = writeln!(out, "      new: {}", show_outcome(&t.new));
                if let Some(f) = &t.fixed {
                    let _ = writeln!(out, "    fixed: {}", show_outcome(f));
                }
            }
        }
        out
    }

    fn describe(&self, t: &ReplayedTest) -> String {
        let inputs: Vec<String> = t.inputs.iter().map(|(n, b)| show_input(n, b)).collect();
        let mut s = if inputs.is_empty() { "no inputs".to_string() } else { inputs.join(" ") };
        let field = |k: &str| {
            t.record.get(k).and_then(|v| v.as_str().map(str::to_string).or_else(|| v.as_u64().map(|n| n.to_string())))
        };
        if let (Some(line), Some(old), Some(new)) = (field("line"), field("old"), field("new")) {
            // A place in another file than the program's first is `file:line`.
            let first = self.source.file_name().map(|n| n.to_string_lossy().into_owned());
            let place = match field("file") {
                Some(file) if Path::new(&file).file_name().map(|n| n.to_string_lossy().into_owned()) != first => {
                    format!("{file}:{line}")
                }
                _ => format!("line {line}"),
            };
            let _ = write!(s, "  (parted at {place}: old {old}, new {new})");
        }
        s
    }
}

/// An outcome in a few words: `exit 0, stdout "1\n"` or the error.
fn show_outcome(o: &RunOutcome) -> String {
    match o {
        RunOutcome::Exit { code, stdout } => format!("exit {code}, stdout {}", excerpt(stdout)),
        RunOutcome::Error(e) => format!("error: {e}"),
        RunOutcome::ReplayFailed(e) => format!("cannot replay: {e}"),
    }
}

/// Stdout quoted, escaped, cut after 60 characters.
fn excerpt(bytes: &[u8]) -> String {
    const MAX: usize = 60;
    let text = String::from_utf8_lossy(bytes);
    let mut quoted: String = text.chars().take(MAX).flat_map(char::escape_debug).collect();
    if text.chars().count() > MAX {
        quoted.push_str("...");
    }
    format!("\"{quoted}\"")
}

/// A progress bar on stderr while tests replay (only on a terminal, and only when it takes a
/// while: short replays print nothing).
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    pub fn new(total: u64) -> Self {
        let bar = (std::io::stderr().is_terminal() && total > 20).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("replay {elapsed_precise} [{bar:30}] {pos}/{len} tests")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar
        });
        Progress { bar }
    }

    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
