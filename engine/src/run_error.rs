//! [`RunError`]: why a symbolic run could not start or had to stop. Problems *of the program*
//! (an out-of-bounds write, an unsupported construct) are not run errors: they end one path
//! and become tests.

use penumbra_solver::SolverError;

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The module cannot be executed (no `main`, a bad signature, an unplaceable global).
    #[error("cannot run the program: {0}")]
    Load(String),
    /// The configuration is inconsistent (e.g. `--sym-args` with `MIN > MAX`).
    #[error("invalid configuration: {0}")]
    Config(String),
    /// Penumbra's symbolic C library could not be compiled or linked in.
    #[error("cannot build penumbra's symbolic C library: {0}")]
    Libc(String),
    /// The solver failed (not a timeout: those are `unknown` answers). Its message (with its
    /// own causes) is part of this one, not a `source`: callers print error chains, and each
    /// cause would appear again.
    #[error("solver failure: {0}")]
    Solver(SolverError),
    /// Writing tests failed. The OS error is part of the message, not a `source`: callers
    /// print error chains, and it would appear twice.
    #[error("{context}: {cause}")]
    Io { context: String, cause: std::io::Error },
}

impl From<SolverError> for RunError {
    fn from(e: SolverError) -> Self {
        RunError::Solver(e)
    }
}

impl RunError {
    pub fn io(context: impl Into<String>, cause: std::io::Error) -> Self {
        RunError::Io { context: context.into(), cause }
    }
}
