//! What a run produces: the captured output streams, how it ended ([`Outcome`]), how many
//! instructions it executed, and the symbolic objects it created.

use crate::error::{ErrorKind, Location, RuntimeError};
use penumbra_ir::{Func, Inst, Module};
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
                format!("penumbra: unsupported: {message} at {}", location.in_file(source_file))
            }
            Outcome::AssumptionViolated(location) => {
                format!("penumbra: assumption violated at {}", location.in_file(source_file))
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

/// One event of a traced run ([`RunConfig::trace`](super::RunConfig::trace)): a conditional
/// decision, the bounds of a `penumbra_execute` block, or a value the user sees.
///
/// These are exactly the places where the symbolic engine forks on a condition that depends on
/// the inputs: a `brif` is one two-way fork, a `switch` one decision among its targets (which
/// the engine asks as a chain of questions, one per distinct target in table order). So two
/// inputs that make the same decisions follow the same instructions, and the symbolic path of
/// an input is its trace plus how the run ended (an implicit check — bounds, division, shift,
/// assertion — forks too, but a run that passes it has no choice to record, and one that fails
/// it ends there). Two caveats keep that correspondence exact, and programs compared this way
/// must respect them:
/// - the C library: the symbolic engine runs `strlen`, `memcmp`, `atoi`, ... as C code (its
///   branches are forks), while this interpreter runs them natively (no events). Only `printf`
///   of integers is safe: its output does not steer the program.
/// - data-dependent targets that are not decisions: calls through function pointers, and
///   accesses whose symbolic address may hit several objects, which the engine resolves by
///   other means.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TraceEvent {
    /// The `brif` `inst` of `func` took its `then` side (`side` 1) or its `else` side (0).
    Brif { func: Func, inst: Inst, side: u8 },
    /// The `switch` `inst` of `func` took the target of its `index`-th case (in table order),
    /// or its default (`index` = the number of cases). Cases are matched by value, so `index`
    /// is the case whose value the selector had, even if other cases share its target.
    Switch { func: Func, inst: Inst, index: u32 },
    /// The `brif` `inst` of `func` on a `penumbra_execute(V)` (outside any other block) starts
    /// an execute block: this version runs its side up to the block's join. The symbolic
    /// engine runs the old side, then the new one, and merges them at the join.
    ExecuteEnter { func: Func, inst: Inst },
    /// The block's side reached its join: both versions run on together.
    ExecuteJoin,
    /// The block's function returned inside the block (its side never reached the join).
    ExecuteReturn,
    /// A value the user sees, where the symbolic engine compares the versions' values
    /// (`shadow::output`): `main`'s return value or `exit`'s status (its low 8 bits), a number
    /// or character `printf` formats (zero-extended from its type), a byte `putchar` or `fputc`
    /// writes. Inside an execute block the versions' outputs are their own and not compared.
    Output { func: Func, inst: Inst, value: u64 },
}

/// A trace event and the number of instructions executed before it (its position: two runs
/// that made the same decisions reach each event after the same number of steps).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Traced {
    pub step: u64,
    pub event: TraceEvent,
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
    /// The events in execution order, when [`RunConfig::trace`] was set (else empty).
    ///
    /// [`RunConfig::trace`]: super::RunConfig::trace
    pub trace: Vec<Traced>,
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
