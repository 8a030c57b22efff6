//! Replaying tests concretely: turning a `.ktest` back into the concrete interpreter's inputs
//! (`argv`, stdin and the program's objects in creation order), running it, and checking that
//! the run ends as the symbolic path did (same exit status, or same error kind and line).
//!
//! The test's argument list is read as KLEE's `klee_init_env` reads it: after the program name,
//! `--sym-arg N` takes the next object as an argument string (up to its first NUL),
//! `--sym-args MIN MAX N` takes an `n_args` object and then that many argument objects,
//! `--sym-stdin N` takes the next object as standard input, and any other word is a concrete
//! argument. The objects left are the program's own.

use super::ktest::{le_int, KTest, KTestObject};
use super::testgen::TestRecord;
use crate::concrete::{self, Inputs, Outcome, RunConfig};
use penumbra_ir::{Module, Version};

/// What a concrete run of a test needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayInputs {
    /// `argv`, program name first.
    pub args: Vec<String>,
    pub stdin: Vec<u8>,
    /// The program's symbolic objects, in creation order.
    pub objects: Vec<Vec<u8>>,
}

/// Why a test cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the test's arguments end inside option {0}")]
    TruncatedOption(String),
    #[error("option {0} needs an object the test does not have")]
    MissingObject(String),
    #[error("the n_args object is not a 4-byte integer")]
    BadArgCount,
}

/// Splits a test into `argv`, stdin and the program's objects.
pub fn replay_inputs(test: &KTest) -> Result<ReplayInputs, ReplayError> {
    let mut out = ReplayInputs::default();
    let mut words = test.args.iter();
    out.args.push(words.next().cloned().unwrap_or_else(|| "program".into()));
    let mut objects = test.objects.iter();
    let as_string = |bytes: &[u8]| {
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        String::from_utf8_lossy(&bytes[..end]).into_owned()
    };
    while let Some(word) = words.next() {
        let mut skip = |n: usize| -> Result<(), ReplayError> {
            for _ in 0..n {
                words.next().ok_or_else(|| ReplayError::TruncatedOption(word.clone()))?;
            }
            Ok(())
        };
        match word.as_str() {
            "--sym-arg" => {
                skip(1)?;
                let o = objects.next().ok_or_else(|| ReplayError::MissingObject(word.clone()))?;
                out.args.push(as_string(&o.bytes));
            }
            "--sym-args" => {
                skip(3)?;
                let n = objects.next().ok_or_else(|| ReplayError::MissingObject(word.clone()))?;
                let k = le_int(&n.bytes).filter(|_| n.bytes.len() == 4).ok_or(ReplayError::BadArgCount)?;
                for _ in 0..k.max(0) {
                    let o = objects.next().ok_or_else(|| ReplayError::MissingObject(word.clone()))?;
                    out.args.push(as_string(&o.bytes));
                }
            }
            "--sym-stdin" => {
                skip(1)?;
                let o = objects.next().ok_or_else(|| ReplayError::MissingObject(word.clone()))?;
                out.stdin = o.bytes.clone();
            }
            _ => out.args.push(word.clone()),
        }
    }
    out.objects = objects.map(|o| o.bytes.clone()).collect();
    Ok(out)
}

/// The concrete configuration that replays `test` on `version`.
pub fn replay_config(test: &KTest, version: Version) -> Result<RunConfig, ReplayError> {
    let inputs = replay_inputs(test)?;
    Ok(RunConfig {
        version,
        inputs: Inputs::Ordered(inputs.objects),
        args: inputs.args,
        stdin: inputs.stdin,
        ..RunConfig::default()
    })
}

/// Whether a concrete outcome is the one the symbolic path ended with: the same exit status,
/// error kind and line, unsupported line, or violated assumption.
pub fn same_outcome(record: &TestRecord, outcome: &Outcome) -> bool {
    match (record.kind.as_str(), outcome) {
        ("path", Outcome::Exit(code)) => record.exit_code == Some(*code),
        ("error", Outcome::Error(e)) => {
            record.error.as_ref().is_some_and(|r| r.kind == e.kind.as_str() && r.line == e.location.line)
        }
        ("unsupported", Outcome::Unsupported { location, .. }) => {
            record.location.as_ref().is_some_and(|l| l.line == location.line)
        }
        ("assume-false", Outcome::AssumptionViolated(_)) => true,
        ("early", _) => true,
        _ => false,
    }
}

/// A test whose concrete replay ended differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub test: String,
    pub expected: String,
    pub got: String,
}

/// Replays every test of a run (records with their inputs, `args` as the tests were written)
/// and returns those that end differently.
pub fn check_tests(module: &Module, version: Version, args: &[String], records: &[TestRecord]) -> Vec<Mismatch> {
    let Ok(program) = concrete::Program::new(module) else {
        return records
            .iter()
            .map(|r| Mismatch {
                test: r.name.clone(),
                expected: r.kind.clone(),
                got: "the program cannot be loaded".into(),
            })
            .collect();
    };
    let mut out = Vec::new();
    for r in records {
        let test = KTest {
            args: args.to_vec(),
            objects: r.inputs.0.iter().map(|i| KTestObject { name: i.name.clone(), bytes: i.bytes.clone() }).collect(),
            ..KTest::default()
        };
        let result = match replay_config(&test, version) {
            Ok(config) => program.run(&config),
            Err(e) => {
                out.push(Mismatch { test: r.name.clone(), expected: r.kind.clone(), got: e.to_string() });
                continue;
            }
        };
        if !same_outcome(r, &result.outcome) {
            let expected = match (&r.error, r.exit_code) {
                (Some(e), _) => format!("error {} at line {}", e.kind, e.line),
                (None, Some(c)) => format!("exit {c}"),
                _ => r.kind.clone(),
            };
            out.push(Mismatch { test: r.name.clone(), expected, got: result.outcome.to_string() });
        }
    }
    out
}
