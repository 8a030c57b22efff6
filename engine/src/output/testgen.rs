//! Tests: one per ended path, written into an output directory (a fresh `penumbra-out-N` with a
//! `penumbra-last` link, or one the user names) as
//! - one line each in the JSON sidecar `tests.jsonl` (JSON Lines, in test order): the test's
//!   name and `.ktest` file (if any), its inputs (`{hex, int}` per object, in creation order,
//!   and `float`, the decimal values, for an object the program declared floating-point),
//!   how the path ended (exit status, error kind, message and line, ...), the program's
//!   argument list and, on request, the path condition in SMT-LIB2; and
//! - a KLEE-compatible `testNNNNNN.ktest` file (what `ktest-tool` reads) for every test that is
//!   not a plain exit, or for every test with `--all-ktests`. Replay rebuilds the `.ktest` of
//!   a record without one from its line.
//!
//! A buffered sidecar keeps writing cheap: creating a file costs 100-250 µs on most file
//! systems, far more than exploring a path, so plain exits get none by default. A test's inputs
//! are the state's symbolic objects in creation order, their bytes taken from the model the
//! path already carries — no solver call.
//! Tests are numbered in the order paths end, which is deterministic.

use super::ktest::{le_int, KTest, KTestObject};
use super::lines::LineFile;
use crate::config::{EngineConfig, Output};
use crate::run_error::RunError;
use crate::symbolic::state::{Ending, ExecutionState};
use penumbra_solver::{to_smtlib, TermStore};
use schemars::JsonSchema;
use serde::de::{Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One input object of a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
    /// The object is a `float`, `double` or `long double` (or an array of them): its values
    /// are shown as decimals too.
    pub float: Option<penumbra_ir::Type>,
}

/// The values of a floating-point object as decimals (`nan`, `inf`, `-0` as C prints them):
/// one string for one value, an array for several.
fn float_values(bytes: &[u8], ty: penumbra_ir::Type) -> Option<serde_json::Value> {
    use penumbra_ir::Type;
    let stride = match ty {
        Type::F32 => 4,
        Type::F64 => 8,
        _ => 16,
    };
    let texts: Vec<serde_json::Value> = bytes
        .chunks(stride)
        .filter(|c| c.len() >= stride.min(10))
        .map(|c| {
            let mut raw = [0u8; 16];
            raw[..c.len().min(16)].copy_from_slice(&c[..c.len().min(16)]);
            let bits = u128::from_le_bytes(raw);
            serde_json::Value::String(match ty {
                Type::F32 => crate::libc::printf::shortest(f64::from(f32::from_bits(bits as u32))),
                Type::F64 => crate::libc::printf::shortest(f64::from_bits(bits as u64)),
                _ => crate::libc::printf::long_double_text(bits & ((1 << 80) - 1)),
            })
        })
        .collect();
    match texts.len() {
        0 => None,
        1 => texts.into_iter().next(),
        _ => Some(serde_json::Value::Array(texts)),
    }
}

/// The inputs of a test, serialised as a JSON object `{name: {hex, int}}` in creation order
/// (with `float` for floating-point objects).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs(pub Vec<Input>);

/// One object's value in [`Inputs`].
#[derive(Serialize, JsonSchema)]
struct InputValue {
    /// The bytes, two hex digits each.
    hex: String,
    /// The bytes as a little-endian signed integer (objects of 1, 2, 4 or 8 bytes).
    int: Option<i64>,
    /// A floating-point object's values as decimals: one string, or an array for several.
    #[serde(skip_serializing_if = "Option::is_none")]
    float: Option<serde_json::Value>,
}

impl Serialize for Inputs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for input in &self.0 {
            let hex: String = input.bytes.iter().map(|b| format!("{b:02x}")).collect();
            let float = input.float.and_then(|ty| float_values(&input.bytes, ty));
            map.serialize_entry(&input.name, &InputValue { hex, int: le_int(&input.bytes), float })?;
        }
        map.end()
    }
}

/// The schema of what [`Inputs`] serialises to: object names (in creation order) to their
/// values.
impl JsonSchema for Inputs {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Inputs".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "The test's objects by name, in creation order (duplicate names made unique: x, x#1, ...).",
            "type": "object",
            "additionalProperties": generator.subschema_for::<InputValue>(),
        })
    }
}

/// Reads the sidecar's `{name: {hex, int}}` back, keeping the objects in their written order
/// (a JSON object read into a map would sort them, and replay needs the order).
impl<'de> Deserialize<'de> for Inputs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Value {
            hex: String,
        }
        struct InOrder;
        impl<'de> Visitor<'de> for InOrder {
            type Value = Inputs;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map from object names to {hex, int}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Inputs, A::Error> {
                let mut inputs = Vec::new();
                while let Some((name, value)) = map.next_entry::<String, Value>()? {
                    let bytes = hex_bytes(&value.hex).ok_or_else(|| {
                        serde::de::Error::custom(format!("object {name}: `{}` is not hex", value.hex))
                    })?;
                    inputs.push(Input { name, bytes, float: None });
                }
                Ok(Inputs(inputs))
            }
        }
        d.deserialize_map(InOrder)
    }
}

/// The bytes a string of hex digit pairs spells (`0a1b` -> `[10, 27]`), if it is one.
pub fn hex_bytes(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok()).collect()
}

impl Inputs {
    /// The test as a `.ktest` with the argument list `args` (what replay reads).
    pub fn to_ktest(&self, args: Vec<String>, sym_argvs: u32, sym_argv_len: u32) -> KTest {
        let objects = self.0.iter().map(|i| KTestObject { name: i.name.clone(), bytes: i.bytes.clone() }).collect();
        KTest { args, sym_argvs, sym_argv_len, objects }
    }
}

/// What a `tests.jsonl` line holds to rebuild its test's `.ktest` (tests written without a
/// `.ktest` file: plain exits, unless `--all-ktests`).
#[derive(Debug, Deserialize)]
pub struct SidecarInputs {
    pub args: Vec<String>,
    pub inputs: Inputs,
}

impl SidecarInputs {
    pub fn to_ktest(&self) -> KTest {
        self.inputs.to_ktest(self.args.clone(), 0, 0)
    }
}

/// Where a path ended, for errors and the other non-exit endings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Place {
    pub func: String,
    pub line: u32,
    /// The source file (absent when unknown).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file: String,
}

impl Place {
    pub fn of(location: &crate::error::Location) -> Self {
        Place { func: location.func.clone(), line: location.line, file: location.file.clone() }
    }
}

/// A detected error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorInfo {
    pub kind: String,
    pub message: String,
    pub func: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file: String,
}

/// What the summary lists for one test (a `tests.jsonl` line holds it too, with `args` and,
/// on request, `path_condition`: [`SidecarLine`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
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
    /// Shadow execution: the source file of `line`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
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
    /// The path was the first to enter some block of the program, or forked off one that was
    /// after it did (KLEE's covering-new states): the tests that gain coverage over those
    /// before them, and a sample of a long run's tests that keeps its coverage.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub new_code: bool,
    /// Shadow execution: where the code only the new version has (statements the patch adds:
    /// a `penumbra_execute(NEW)` block, or the branch of an `if (change(0, c))`) starts,
    /// `FILE:LINE`, when the versions parted there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_only_code: Option<String>,
}

/// One line of `tests.jsonl`: the test's record, the program's argument list and, with
/// `--write-smt2`, the path condition in SMT-LIB2. Written borrowed, read back owned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SidecarLine<'a> {
    #[serde(flatten)]
    pub record: std::borrow::Cow<'a, TestRecord>,
    pub args: std::borrow::Cow<'a, [String]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_condition: Option<String>,
}

/// Writes tests and keeps their records.
#[derive(Debug)]
pub struct TestWriter {
    dir: Option<PathBuf>,
    keep: bool,
    /// At most this many records are kept (the rest are still written and counted).
    keep_limit: usize,
    /// A `.ktest` file for every test, not only for those that are not plain exits.
    all_ktests: bool,
    write_pc: bool,
    /// The `.ktest` argument list: program name, concrete arguments, symbolic options.
    args: Vec<String>,
    sym_argvs: u32,
    sym_argv_len: u32,
    records: Vec<TestRecord>,
    written: u64,
    /// Bytes written: `.ktest` files (in whole [`BLOCK`]s) and `tests.jsonl` lines.
    bytes: u64,
    /// The JSON Lines sidecar.
    sidecar: Option<LineFile>,
    /// When the run started (the writer is created with it), for [`TestRecord::time_s`].
    started: std::time::Instant,
    last_flush: std::time::Instant,
}

/// The block of most file systems: a `.ktest` file takes at least this much disk.
const BLOCK: u64 = 4096;

/// How long records of plain exits may wait in the sidecar's buffer.
const FLUSH_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

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
                Some(
                    LineFile::create(&path)
                        .map_err(|e| RunError::io(format!("cannot create {}", path.display()), e))?,
                )
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
            all_ktests: config.all_ktests,
            args,
            sym_argvs: env.sym_args.len() as u32,
            sym_argv_len: sym_argv_len.max().unwrap_or(0),
            records: Vec::new(),
            written: 0,
            bytes: 0,
            sidecar,
            started: std::time::Instant::now(),
            last_flush: std::time::Instant::now(),
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
        self.flush()
    }

    fn flush(&mut self) -> Result<(), RunError> {
        self.last_flush = std::time::Instant::now();
        match (&mut self.sidecar, &self.dir) {
            (Some(out), Some(dir)) => out.flush().map_err(|e| sidecar_error(dir, e)),
            _ => Ok(()),
        }
    }

    /// Tests produced so far.
    pub fn count(&self) -> u64 {
        self.written
    }

    /// After a failed write: the tests whose records reached the disk, which are all the run
    /// can claim (the kept records are cut to them too).
    pub fn settle_after_failure(&mut self) -> u64 {
        if let Some(sidecar) = &self.sidecar {
            self.written = sidecar.lines();
            self.records.truncate(self.written as usize);
        }
        self.written
    }

    /// Disk taken so far (`.ktest` files, in whole blocks, and `tests.jsonl` lines).
    pub fn bytes(&self) -> u64 {
        self.bytes
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
        let inputs: Vec<Input> = st
            .symbolics
            .iter()
            .map(|s| Input { name: s.name.to_string(), bytes: s.bytes(model), float: s.float })
            .collect();
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
            file: None,
            old: None,
            new: None,
            ktest: None,
            time_s: None,
            new_code: st.covered_new,
            new_only_code: None,
        };
        if let Some(d) = &st.divergence {
            record.line = Some(d.line);
            record.file = Some(d.file.clone()).filter(|f| !f.is_empty());
            record.old = Some(d.old.describe(store, model));
            record.new = Some(d.new.describe(store, model));
            record.new_only_code = d.new_code.as_ref().map(|l| match l.file.is_empty() {
                true => l.line.to_string(),
                false => format!("{}:{}", l.file, l.line),
            });
        } else if let (true, Ending::Error(e)) = (st.mode.is_shadow(), ending) {
            record.line = Some(e.location.line);
            record.file = Some(e.location.file.clone()).filter(|f| !f.is_empty());
        }
        match ending {
            Ending::Exit(code) => record.exit_code = Some(*code),
            Ending::Error(e) => {
                record.error = Some(ErrorInfo {
                    kind: e.kind.as_str().to_string(),
                    message: e.message.clone(),
                    func: e.location.func.clone(),
                    line: e.location.line,
                    file: e.location.file.clone(),
                })
            }
            Ending::Unsupported { message, location } => {
                record.reason = Some(message.clone());
                record.location = Some(Place::of(location));
            }
            Ending::AssumeFalse(location) => {
                record.reason = Some("the assumed condition cannot hold".into());
                record.location = Some(Place::of(location));
            }
            Ending::Early(why) => record.reason = Some(why.name().to_string()),
        }
        if let Some(dir) = self.dir.clone() {
            let with_file = self.all_ktests || kind != "path";
            if with_file {
                self.write_ktest(&dir, &mut record)?;
            }
            let path_condition = self.write_pc.then(|| to_smtlib(store, &st.pc.to_vec()));
            if let Some(out) = &mut self.sidecar {
                let line = SidecarLine {
                    record: std::borrow::Cow::Borrowed(&record),
                    args: std::borrow::Cow::Borrowed(&self.args),
                    path_condition,
                };
                let text = serde_json::to_vec(&line).map_err(|e| sidecar_error(&dir, std::io::Error::other(e)))?;
                self.bytes += text.len() as u64 + 1;
                out.push(&text).map_err(|e| sidecar_error(&dir, e))?;
            }
            // A killed run keeps every `.ktest` with its record, and at most a second of
            // records of plain exits is lost (and at most one line cut short).
            if with_file || self.last_flush.elapsed() >= FLUSH_INTERVAL {
                self.flush()?;
            }
        }
        if keep {
            record.time_s = Some(self.started.elapsed().as_secs_f64());
            self.records.push(record);
        }
        Ok(())
    }

    /// Writes the `.ktest` file of `record` into `dir` and names it in the record.
    fn write_ktest(&mut self, dir: &Path, record: &mut TestRecord) -> Result<(), RunError> {
        let ktest = record.inputs.to_ktest(self.args.clone(), self.sym_argvs, self.sym_argv_len);
        let file = format!("{}.ktest", record.name);
        let path = dir.join(&file);
        let bytes = ktest.to_bytes();
        // What the file takes on disk: file systems allocate whole blocks.
        self.bytes += (bytes.len() as u64).next_multiple_of(BLOCK);
        // Written under another name and renamed: a `.ktest` file is whole or absent, even if
        // the process dies mid-write or the disk fills.
        let part = dir.join(format!("{file}.part"));
        let failed = |e| RunError::io(format!("cannot write {}", path.display()), e);
        if let Err(e) = std::fs::write(&part, bytes) {
            let _ = std::fs::remove_file(&part);
            return Err(failed(e));
        }
        std::fs::rename(&part, &path).map_err(failed)?;
        record.ktest = Some(file);
        Ok(())
    }
}

fn sidecar_error(dir: &Path, e: std::io::Error) -> RunError {
    RunError::io(format!("cannot write {}", dir.join(SIDECAR).display()), e)
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
