//! The replay report: what each build has and who decides its errors, then the tests grouped
//! by class, `unconfirmed` first, each with its inputs, where the versions parted, how each
//! version ended and which witness decided it, the undefined behaviour both versions share
//! and, where the witnesses disagree, what each said; and the same as JSON (`report.json`,
//! and the test array of `penumbra replay --json` / `penumbra shadow --replay --json`).

use super::builds::BuildLine;
use super::classify::{judge, Class, Fix};
use super::interpreter::InterpOutcome;
use super::native::RunOutcome;
use super::record::{
    DecidedBy, Decider, FixRecord, FixVersions, LineDiff, OutcomeRecord, ReplayReport, SharedUb, Verdict,
};
use super::sanitizer::UbReport;
use super::verdict::Decided;
use crate::digest::sha256_hex;
use crate::inputs::show_input;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::Value;
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
    pub old: Decided,
    pub new: Decided,
    /// The fixes' versions, when they decided an output difference.
    pub fixes: Vec<Fix<Decided>>,
    /// The interpreter's runs, by version.
    pub interpreted: Vec<(String, InterpOutcome)>,
    /// UBSan's reports both versions made that are no error of either.
    pub shared_ub: Vec<UbReport>,
    /// UBSan's reports of a null argument to a parameter declared never null, in one version
    /// only: no error of it ([`UbReport::is_null_argument`]).
    pub null_argument_ub: Vec<UbReport>,
    /// Where the versions' standard output first differ, when both exited and it does.
    pub stdout_diff: Option<LineDiff>,
    /// For `stderr-diff`: where the versions' standard error first differ.
    pub stderr_diff: Option<LineDiff>,
}

impl ReplayedTest {
    /// The versions decided, by name.
    fn decided(&self) -> Vec<(String, &Decided)> {
        let mut versions = vec![("old".to_string(), &self.old), ("new".to_string(), &self.new)];
        for (i, fix) in self.fixes.iter().enumerate() {
            let (fixed, parent) = Fix::<()>::names(i);
            versions.push((fixed, &fix.fixed));
            versions.extend(fix.parent.as_ref().map(|p| (parent, p)));
        }
        versions
    }

    /// Each fix's runs and what it says of the output difference (Shadow's rule).
    fn fix_records(&self) -> Vec<FixRecord> {
        self.fixes
            .iter()
            .map(|f| FixRecord {
                fixed_outcome: OutcomeRecord::of(&f.fixed.outcome),
                fix_parent_outcome: f.parent.as_ref().map(|p| OutcomeRecord::of(&p.outcome)),
                judgement: judge(&self.new.outcome, f.as_ref().map(|d| &d.outcome)),
            })
            .collect()
    }

    /// What replay adds to the test's record: `class`, `old_outcome` and `new_outcome` (and
    /// `fixes`: each fix's outcomes and judgement); `decided_by` (`native` or `interpreter`, or per version where they
    /// differ), `interpreter` (its outcome per version), `shared_ub` (when there is any) and,
    /// for `unconfirmed`, `disagreement`.
    pub fn verdict(&self) -> Verdict {
        let by: Vec<(String, Decider)> = self.decided().into_iter().map(|(name, d)| (name, d.by)).collect();
        let decided_by = match by.iter().all(|(_, d)| *d == by[0].1) {
            true => DecidedBy::All(by[0].1),
            false => DecidedBy::PerVersion(by.into_iter().collect()),
        };
        Verdict {
            class: self.class,
            old_outcome: OutcomeRecord::of(&self.old.outcome),
            new_outcome: OutcomeRecord::of(&self.new.outcome),
            fixes: self.fix_records(),
            decided_by,
            interpreter: self
                .interpreted
                .iter()
                .map(|(name, run)| (name.to_string(), interpreted_record(run)))
                .collect(),
            shared_ub: self
                .shared_ub
                .iter()
                .map(|r| SharedUb { place: r.brief_place(), text: r.text.clone() })
                .collect(),
            null_argument_ub: self
                .null_argument_ub
                .iter()
                .map(|r| SharedUb { place: r.brief_place(), text: r.text.clone() })
                .collect(),
            disagreement: self.disagreement(),
            stdout_diff: self.stdout_diff.clone(),
            stderr_diff: self.stderr_diff.clone(),
        }
    }

    /// The record with the [`verdict`](Self::verdict)'s fields added (a
    /// [`ReplayedRecord`](super::record::ReplayedRecord)).
    pub fn to_json(&self) -> Value {
        let mut v = self.record.clone();
        if let (Some(map), Ok(Value::Object(verdict))) = (v.as_object_mut(), serde_json::to_value(self.verdict())) {
            map.extend(verdict);
        }
        v
    }

    /// Where the witnesses of the test's versions disagree, version by version.
    pub fn disagreement(&self) -> Option<String> {
        let decided = self.decided();
        let said: Vec<&str> = decided.iter().filter_map(|(_, d)| d.disagreement.as_deref()).collect();
        (!said.is_empty()).then(|| said.join("; "))
    }
}

/// An interpreter's run as JSON: `{exit, stdout_sha256}`, `{error}` or `{no_verdict}`.
fn interpreted_record(run: &InterpOutcome) -> OutcomeRecord {
    match run {
        InterpOutcome::Exit { code, stdout } => OutcomeRecord::Exit { exit: *code, stdout_sha256: sha256_hex(stdout) },
        InterpOutcome::Error { text, .. } => OutcomeRecord::Error { error: text.clone() },
        InterpOutcome::NoVerdict(why) => OutcomeRecord::NoVerdict { no_verdict: why.clone() },
    }
}

#[derive(Clone, Debug)]
pub struct Report {
    pub source: PathBuf,
    /// The fixes' files (sources, bitcode or prebuilt executables).
    pub fixes: Vec<Fix<PathBuf>>,
    pub tests: Vec<ReplayedTest>,
    pub wall: Duration,
    pub timeout: Duration,
    /// `--native-memory-limit`, in MiB.
    pub memory_limit_mb: Option<u64>,
    /// What each build has and who decides its errors.
    pub builds: Vec<BuildLine>,
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
        let report = ReplayReport {
            source: self.source.display().to_string(),
            fixes: self
                .fixes
                .iter()
                .map(|f| FixVersions {
                    fixed: f.fixed.display().to_string(),
                    fix_parent: f.parent.as_ref().map(|p| p.display().to_string()),
                })
                .collect(),
            timeout_s: self.timeout.as_secs_f64(),
            memory_limit_mb: self.memory_limit_mb,
            builds: self.builds.iter().map(|b| (b.version.to_string(), b.record())).collect(),
            classes: Class::ALL.iter().map(|&c| (c, self.count(c) as u64)).collect(),
            not_replayed: self.not_replayed as u64,
            tests: self.tests_json(),
        };
        serde_json::to_value(report).expect("a report always serialises")
    }

    /// The readable report.
    pub fn human(&self) -> String {
        let mut out = String::new();
        let name = self.source.file_name().map_or(self.source.display().to_string(), |n| n.to_string_lossy().into());
        let _ = writeln!(
            out,
            "replay: {} test{} of {name} on the old and the new version, {:.2} s",
            self.tests.len(),
            if self.tests.len() == 1 { "" } else { "s" },
            self.wall.as_secs_f64()
        );
        // Builds alike share a line (`old, new: ...`).
        let mut lines: Vec<(Vec<&str>, String)> = Vec::new();
        for build in &self.builds {
            match lines.iter_mut().find(|(_, text)| *text == build.human()) {
                Some((versions, _)) => versions.push(&build.version),
                None => lines.push((vec![&build.version], build.human())),
            }
        }
        for (versions, text) in lines {
            let _ = writeln!(out, "  {}: {text}", versions.join(", "));
        }
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
            let _ = writeln!(out, "{}:", class.heading(!self.fixes.is_empty()));
            if tests.len() > LIST_LIMIT {
                let _ = writeln!(out, "  (the first {LIST_LIMIT} of {}; all in report.json)", tests.len());
            }
            for t in tests.into_iter().take(LIST_LIMIT) {
                let _ = writeln!(out, "  {}  {}", t.name, self.describe(t));
                for (name, decided) in t.decided() {
                    let _ = writeln!(out, "    {name:>5}: {}", show_decided(decided));
                }
                for (i, record) in t.fix_records().iter().enumerate() {
                    let _ = writeln!(out, "    fix {}: {}", i + 1, record.judgement.meaning());
                }
                for r in &t.shared_ub {
                    let _ = writeln!(out, "    shared UB: {}: {}", r.brief_place(), r.text);
                }
                for r in &t.null_argument_ub {
                    let _ = writeln!(out, "    null argument (no error): {}: {}", r.brief_place(), r.text);
                }
                if let Some(text) = t.disagreement() {
                    let _ = writeln!(out, "    disagree: {text}");
                }
                if let Some(d) = &t.stderr_diff {
                    let _ = writeln!(out, "    stderr line {}: old {}", d.line, excerpt(d.old.as_bytes()));
                    let _ = writeln!(out, "    stderr line {}: new {}", d.line, excerpt(d.new.as_bytes()));
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

/// A decided outcome in a few words, with `(interpreter)` where the interpreter decided it.
fn show_decided(d: &Decided) -> String {
    match d.by {
        Decider::Native => show_outcome(&d.outcome),
        Decider::Interpreter => format!("{} (interpreter)", show_outcome(&d.outcome)),
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
