//! Tests: one per ended path, written into an output directory (a fresh `penumbra-out-N` with a
//! `penumbra-last` link, or one the user names) as
//! - a KLEE-compatible `testNNNNNN.ktest` file each (what `ktest-tool` and replay read), and
//! - one line each in the JSON sidecar `tests.jsonl` (JSON Lines, in test order): the test's
//!   name and `.ktest` file, its inputs (`{hex, int}` per object), how the path ended (exit
//!   status, error kind, message and line, ...), the program's argument list and the path
//!   condition in SMT-LIB2.
//!
//! One file per test and a buffered sidecar keep writing cheap: creating files dominates the
//! cost of a test on most file systems. A test's inputs are the state's symbolic objects in
//! creation order, their bytes taken from the model the path already carries — no solver call.
//! Tests are numbered in the order paths end, which is deterministic.

use super::ktest::{le_int, KTest, KTestObject};
use crate::config::{EngineConfig, Output};
use crate::run_error::RunError;
use crate::symbolic::state::{Ending, ExecutionState};
use penumbra_solver::{to_smtlib, TermStore};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One input object of a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The inputs of a test, serialised as a JSON object `{name: {hex, int}}` in creation order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs(pub Vec<Input>);

impl Serialize for Inputs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Value {
            hex: String,
            int: Option<i64>,
        }
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for input in &self.0 {
            let hex: String = input.bytes.iter().map(|b| format!("{b:02x}")).collect();
            map.serialize_entry(&input.name, &Value { hex, int: le_int(&input.bytes) })?;
        }
        map.end()
    }
}

/// Where a path ended, for errors and the other non-exit endings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Place {
    pub func: String,
    pub line: u32,
}

/// A detected error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ErrorInfo {
    pub kind: String,
    pub message: String,
    pub func: String,
    pub line: u32,
}

/// What the summary lists for one test.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TestRecord {
    /// `test000001`, ...
    pub name: String,
    /// `path`, `error`, `unsupported`, `assume-false` or `early`; in shadow execution
    /// `divergence` (a diff path, however it ended) or `error` (an error in both versions).
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorInfo>,
    /// For `unsupported`, `assume-false` and `early`: why and where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Place>,
    pub inputs: Inputs,
    /// Shadow execution: the source line of the divergence (of the error, for an error in both
    /// versions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Shadow execution: what the old version did at the divergence (`true`/`false` for a
    /// branch, `case K`/`default` for a switch, `fails`/`passes` for a check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<String>,
    /// Shadow execution: what the new version did at the divergence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<String>,
    /// The `.ktest` file's name in the output directory, when tests are written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ktest: Option<String>,
    /// Seconds from the start of the run to this test (for plots of divergences over time).
    /// It varies from run to run, so it is set only on the kept record, after the test files
    /// are written: those stay byte-identical across runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_s: Option<f64>,
}

#[derive(Serialize)]
struct Sidecar<'a> {
    #[serde(flatten)]
    record: &'a TestRecord,
    args: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    path_condition: Option<String>,
}

/// Writes tests and keeps their records.
#[derive(Debug)]
pub struct TestWriter {
    dir: Option<PathBuf>,
    keep: bool,
    /// At most this many records are kept (the rest are still written and counted).
    keep_limit: usize,
    write_pc: bool,
    /// The `.ktest` argument list: program name, concrete arguments, symbolic options.
    args: Vec<String>,
    sym_argvs: u32,
    sym_argv_len: u32,
    records: Vec<TestRecord>,
    written: u64,
    /// The JSON Lines sidecar.
    sidecar: Option<std::io::BufWriter<std::fs::File>>,
    /// When the run started (the writer is created with it), for [`TestRecord::time_s`].
    started: std::time::Instant,
}

/// The sidecar's file name in the output directory.
pub const SIDECAR: &str = "tests.jsonl";

impl TestWriter {
    /// Prepares the output directory as configured.
    pub fn create(config: &EngineConfig) -> Result<Self, RunError> {
        let dir = match &config.output {
            Output::None => None,
            Output::Dir(dir) => Some(prepare_dir(dir)?),
            Output::Numbered(parent) => Some(numbered_dir(parent)?),
        };
        let env = &config.env;
        let args = ktest_args(env);
        let sidecar = match &dir {
            Some(d) => {
                let path = d.join(SIDECAR);
                let file = std::fs::File::create(&path)
                    .map_err(|e| RunError::io(format!("cannot create {}", path.display()), e))?;
                Some(std::io::BufWriter::with_capacity(1 << 16, file))
            }
            None => None,
        };
        let sym_argv_len = env.sym_args.iter().map(|a| match *a {
            crate::config::SymArg::Arg { len } | crate::config::SymArg::Args { len, .. } => len,
        });
        Ok(TestWriter {
            dir,
            keep: config.keep_test_records,
            keep_limit: config.test_record_limit.unwrap_or(usize::MAX),
            write_pc: config.write_path_condition,
            args,
            sym_argvs: env.sym_args.len() as u32,
            sym_argv_len: sym_argv_len.max().unwrap_or(0),
            records: Vec::new(),
            written: 0,
            sidecar,
            started: std::time::Instant::now(),
        })
    }

    /// The output directory, if tests are written.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The records kept so far.
    pub fn records(&self) -> &[TestRecord] {
        &self.records
    }

    pub fn take_records(&mut self) -> Vec<TestRecord> {
        std::mem::take(&mut self.records)
    }

    /// Flushes the sidecar (call once the run is over).
    pub fn finish(&mut self) -> Result<(), RunError> {
        if let (Some(out), Some(dir)) = (&mut self.sidecar, &self.dir) {
            out.flush().map_err(|e| RunError::io(format!("cannot write {}", dir.join(SIDECAR).display()), e))?;
        }
        Ok(())
    }

    /// Tests produced so far.
    pub fn count(&self) -> u64 {
        self.written
    }

    /// Writes the test of the path `st` that ended with `ending` (its inputs under the state's
    /// model).
    pub fn write(&mut self, store: &TermStore, st: &ExecutionState, ending: &Ending) -> Result<(), RunError> {
        let model = &*st.model;
        self.written += 1;
        let keep = self.keep && self.records.len() < self.keep_limit;
        if self.dir.is_none() && !keep {
            return Ok(());
        }
        let name = format!("test{:06}", self.written);
        let inputs: Vec<Input> =
            st.symbolics.iter().map(|s| Input { name: s.name.to_string(), bytes: s.bytes(model) }).collect();
        let kind = if st.divergence.is_some() { "divergence" } else { ending.kind() };
        let mut record = TestRecord {
            name,
            kind: kind.to_string(),
            exit_code: None,
            error: None,
            reason: None,
            location: None,
            inputs: Inputs(inputs),
            line: None,
            old: None,
            new: None,
            ktest: None,
            time_s: None,
        };
        if let Some(d) = &st.divergence {
            record.line = Some(d.line);
            record.old = Some(d.old.describe(store, model));
            record.new = Some(d.new.describe(store, model));
        } else if let (true, Ending::Error(e)) = (st.mode.is_shadow(), ending) {
            record.line = Some(e.location.line);
        }
        match ending {
            Ending::Exit(code) => record.exit_code = Some(*code),
            Ending::Error(e) => {
                record.error = Some(ErrorInfo {
                    kind: e.kind.as_str().to_string(),
                    message: e.message.clone(),
                    func: e.location.func.clone(),
                    line: e.location.line,
                })
            }
            Ending::Unsupported { message, location } => {
                record.reason = Some(message.clone());
                record.location = Some(Place { func: location.func.clone(), line: location.line });
            }
            Ending::AssumeFalse(location) => {
                record.reason = Some("the assumed condition cannot hold".into());
                record.location = Some(Place { func: location.func.clone(), line: location.line });
            }
            Ending::Early(why) => record.reason = Some(why.name().to_string()),
        }
        if let Some(dir) = &self.dir {
            let ktest = KTest {
                args: self.args.clone(),
                sym_argvs: self.sym_argvs,
                sym_argv_len: self.sym_argv_len,
                objects: record
                    .inputs
                    .0
                    .iter()
                    .map(|i| KTestObject { name: i.name.clone(), bytes: i.bytes.clone() })
                    .collect(),
            };
            let ktest_path = dir.join(format!("{}.ktest", record.name));
            std::fs::write(&ktest_path, ktest.to_bytes())
                .map_err(|e| RunError::io(format!("cannot write {}", ktest_path.display()), e))?;
            record.ktest = Some(format!("{}.ktest", record.name));
            let path_condition = self.write_pc.then(|| to_smtlib(store, &st.pc.to_vec()));
            if let Some(out) = &mut self.sidecar {
                let line = Sidecar { record: &record, args: &self.args, path_condition };
                let failed =
                    |e: std::io::Error| RunError::io(format!("cannot write {}", dir.join(SIDECAR).display()), e);
                serde_json::to_writer(&mut *out, &line).map_err(|e| failed(std::io::Error::other(e)))?;
                out.write_all(b"\n").map_err(failed)?;
            }
        }
        if keep {
            record.time_s = Some(self.started.elapsed().as_secs_f64());
            self.records.push(record);
        }
        Ok(())
    }
}

/// The argument list written into every `.ktest`: the program name, the concrete arguments and
/// the symbolic options (`--sym-arg N`, ...), which replay reads back.
pub fn ktest_args(env: &crate::config::Environment) -> Vec<String> {
    let mut args = vec![env.program_name.clone()];
    args.extend(env.args.iter().cloned());
    args.extend(env.option_words());
    args
}

/// Creates `dir` (which must not exist or be empty).
fn prepare_dir(dir: &Path) -> Result<PathBuf, RunError> {
    if dir.exists() {
        let mut entries =
            std::fs::read_dir(dir).map_err(|e| RunError::io(format!("cannot read {}", dir.display()), e))?;
        if entries.next().is_some() {
            return Err(RunError::Config(format!("output directory {} exists and is not empty", dir.display())));
        }
    } else {
        std::fs::create_dir_all(dir).map_err(|e| RunError::io(format!("cannot create {}", dir.display()), e))?;
    }
    Ok(dir.to_path_buf())
}

/// Creates `parent/penumbra-out-N` for the next free `N` and points `parent/penumbra-last` at it.
fn numbered_dir(parent: &Path) -> Result<PathBuf, RunError> {
    let entries =
        std::fs::read_dir(parent).map_err(|e| RunError::io(format!("cannot read {}", parent.display()), e))?;
    let next = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str()?.strip_prefix("penumbra-out-")?.parse::<u64>().ok())
        .max()
        .map_or(0, |n| n + 1);
    let name = format!("penumbra-out-{next}");
    let dir = parent.join(&name);
    std::fs::create_dir(&dir).map_err(|e| RunError::io(format!("cannot create {}", dir.display()), e))?;
    let link = parent.join("penumbra-last");
    if link.symlink_metadata().is_ok() {
        let _ = std::fs::remove_file(&link);
    }
    #[cfg(unix)]
    {
        let _ = std::os::unix::fs::symlink(&name, &link);
    }
    Ok(dir)
}
