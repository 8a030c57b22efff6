//! What a run produces: the captured output streams, how it ended ([`Outcome`]), how many
//! instructions it executed, and the symbolic objects it created.

use crate::error::{ErrorKind, Location, RuntimeError};
use penumbra_ir::Module;
use std::fmt;

/// One `make_symbolic` object: its name as the program gave it and the bytes it received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymbolicObject {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `main` returned or `exit` was called: the status as the OS reports it (`status & 0xff`).
    Exit(i32),
    /// A detected error.
    Error(RuntimeError),
    /// The path reached a construct penumbra does not model (or the program could not be
    /// loaded: no `main`, invalid IR).
    Unsupported { message: String, location: Location },
    /// A `penumbra_assume` / `klee_assume` condition was false: not an error, the input is
    /// outside the program's domain.
    AssumptionViolated(Location),
    /// The step budget ran out.
    StepLimit,
}

impl Outcome {
    /// The error kind, if the run ended with an error.
    pub fn error_kind(&self) -> Option<ErrorKind> {
        match self {
            Outcome::Error(e) => Some(e.kind),
            _ => None,
        }
    }

    /// The one-line diagnostic the CLI prints on stderr, naming `source_file`:
    /// `penumbra: error: <kind>: <message> at <file>:<line>`,
    /// `penumbra: unsupported: <message> at <file>:<line>`, and similar lines for the other
    /// outcomes.
    pub fn diagnostic(&self, source_file: &str) -> String {
        match self {
            Outcome::Exit(status) => format!("penumbra: exited with status {status}"),
            Outcome::Error(e) => e.diagnostic(source_file),
            Outcome::Unsupported { message, location } => {
                format!(
                    "penumbra: unsupported: {message} at {}",
                    location.in_file(source_file)
                )
            }
            Outcome::AssumptionViolated(location) => {
                format!(
                    "penumbra: assumption violated at {}",
                    location.in_file(source_file)
                )
            }
            Outcome::StepLimit => "penumbra: step limit reached".to_string(),
        }
    }
}

impl fmt::Display for Outcome {
    /// A short summary without the file name (`exit 0`, `error out-of-bounds-write: ... at main:12`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Exit(status) => write!(f, "exit {status}"),
            Outcome::Error(e) => write!(f, "error {}: {} at {}", e.kind, e.message, e.location),
            Outcome::Unsupported { message, location } => {
                write!(f, "unsupported: {message} at {location}")
            }
            Outcome::AssumptionViolated(location) => write!(f, "assumption violated at {location}"),
            Outcome::StepLimit => write!(f, "step limit"),
        }
    }
}

/// Everything a run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunResult {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub outcome: Outcome,
    /// Instructions executed (a library call counts as one).
    pub steps: u64,
    /// The symbolic objects in creation order.
    pub symbolics: Vec<SymbolicObject>,
}

impl RunResult {
    /// The CLI's one-line diagnostic (see [`Outcome::diagnostic`]); a step-limit line also
    /// gives the number of steps.
    pub fn diagnostic(&self, module: &Module) -> String {
        match self.outcome {
            Outcome::StepLimit => {
                format!("penumbra: step limit reached after {} steps", self.steps)
            }
            _ => self.outcome.diagnostic(&module.source_file),
        }
    }

    /// Standard output as text (lossy), for tests and messages.
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}
