//! The JSON that replay writes, as types read and written alike (and whose JSON Schema
//! `penumbra schema` prints): a replayed test is the engine's test record
//! ([`TestRecord`], a `tests.jsonl` line) with the fields replay adds ([`Verdict`]), and
//! `report.json` is [`ReplayReport`].
//!
//! A replayed test is written as its `tests.jsonl` line with the verdict's fields merged in (so
//! that whatever the line holds, the decimal values of floating-point inputs too, goes into
//! the report unchanged) and read back as [`ReplayedRecord`].

use super::classify::{Class, Judgement};
use super::native::RunOutcome;
pub use super::streams::LineDiff;
use crate::digest::sha256_hex;
use penumbra_engine::output::testgen::TestRecord;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which witness decided a version's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Decider {
    Native,
    Interpreter,
}

/// How one version ran a test, as the reports give it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OutcomeRecord {
    /// It ended: its exit status and the SHA-256 of its stdout.
    Exit { exit: i32, stdout_sha256: String },
    /// It erred (a sanitizer report, a signal, a timeout; for the interpreter, its error).
    Error { error: String },
    /// The test could not be fed to the build.
    ReplayFailed { replay_failed: String },
    /// The interpreter gave no verdict (it reached something it does not run), and why.
    NoVerdict { no_verdict: String },
}

impl OutcomeRecord {
    /// An outcome as the JSON reports give it: `{exit, stdout_sha256}` or `{error}` (and
    /// `{replay_failed}` when the test could not be fed to the build).
    pub fn of(outcome: &RunOutcome) -> Self {
        match outcome {
            RunOutcome::Exit { code, stdout } => OutcomeRecord::Exit { exit: *code, stdout_sha256: sha256_hex(stdout) },
            RunOutcome::Error(e) => OutcomeRecord::Error { error: e.clone() },
            RunOutcome::ReplayFailed(e) => OutcomeRecord::ReplayFailed { replay_failed: e.clone() },
        }
    }
}

/// Who decided: one witness for every version, or one per version where they differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DecidedBy {
    All(Decider),
    PerVersion(BTreeMap<String, Decider>),
}

/// A UBSan report recorded on a test that is no error: one both versions made
/// (`shared_ub`), or a null argument to a parameter declared never null (`null_argument_ub`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SharedUb {
    /// `file.c:LINE:COL`.
    pub place: String,
    pub text: String,
}

/// What replay adds to a test's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Verdict {
    pub class: Class,
    pub old_outcome: OutcomeRecord,
    pub new_outcome: OutcomeRecord,
    /// Each fix's runs and judgement, in the order of `--fixed-version`, when the fixes decided
    /// an output difference (Shadow's rule: `expected` if any judgement explains it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<FixRecord>,
    pub decided_by: DecidedBy,
    /// The interpreter's runs, by version (absent without an interpreter).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub interpreter: BTreeMap<String, OutcomeRecord>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_ub: Vec<SharedUb>,
    /// Null arguments to parameters declared never null that one version's run reported: the
    /// declaration, not an access, so no error unless the interpreter errs on its line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub null_argument_ub: Vec<SharedUb>,
    /// For `unconfirmed`: the witnesses and what each said, version by version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disagreement: Option<String>,
    /// For an output difference: the first line where the versions' standard output differ
    /// (absent where only the exit status does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout_diff: Option<LineDiff>,
    /// For `stderr-diff`: the first line where the versions' standard error differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr_diff: Option<LineDiff>,
}

/// How one fix ran an output difference, and what it says of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FixRecord {
    /// The fixing commit's version (`--fixed-version`).
    pub fixed_outcome: OutcomeRecord,
    /// The fixing commit's parent's (`--fix-parent-version`), when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix_parent_outcome: Option<OutcomeRecord>,
    pub judgement: Judgement,
}

/// The files of one fix in `report.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FixVersions {
    pub fixed: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix_parent: Option<String>,
}

/// A replayed test: its record and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReplayedRecord {
    #[serde(flatten)]
    pub record: TestRecord,
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// One build in `report.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BuildRecord {
    /// How it was made (`native glibc, AddressSanitizer + UBSan`, a prebuilt file, ...).
    pub build: String,
    pub address_sanitizer: bool,
    /// Whether the interpreter runs this version.
    pub interpreter: bool,
    pub decides_errors: Decider,
}

/// `report.json`; its tests are [`ReplayedRecord`]s (written as JSON values: see the module
/// header).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReplayReport<T = ReplayedRecord> {
    pub source: String,
    /// The fixes that decide output differences (`--fixed-version`, `--fix-parent-version`,
    /// or their `--native-*` executables), in order.
    #[serde(default)]
    pub fixes: Vec<FixVersions>,
    /// Per run of one build on one test.
    pub timeout_s: f64,
    /// The memory each native run had, in MiB (`--native-memory-limit`; absent: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limit_mb: Option<u64>,
    /// By version: `old`, `new` and, with fixes, `fixed` and `fix-parent` (`fixed-2`, ... for
    /// more fixes).
    pub builds: BTreeMap<String, BuildRecord>,
    /// Tests per class, every class named.
    pub classes: BTreeMap<Class, u64>,
    /// Tests an interrupt left unreplayed.
    pub not_replayed: u64,
    pub tests: Vec<T>,
}
