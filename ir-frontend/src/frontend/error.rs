//! [`FrontendError`]: why a C file could not be turned into an IR module.
//!
//! Problems in the user's program (C errors) are [`FrontendError::CompileFailed`] with clang's
//! diagnostics verbatim. Constructs penumbra does not model are *not* errors: they lower to
//! `unsupported` instructions. [`FrontendError::Internal`] means a bug in the frontend.

use std::path::PathBuf;

/// The install line printed when the LLVM 15 tools are missing.
pub const INSTALL_HINT: &str = "apt-get install clang-15 llvm-15-tools";

#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// `clang-15` or `opt-15` is not on the `PATH`.
    #[error("`{tool}` was not found on the PATH; install it with `{hint}`", hint = INSTALL_HINT)]
    ToolNotFound { tool: String },

    /// A tool ran and failed; for clang this means errors in the C program.
    /// `stderr` is the tool's output, verbatim.
    #[error("{tool} failed on {file}:\n{stderr}")]
    CompileFailed { tool: String, file: String, stderr: String },

    /// Reading or writing a file, or starting a process, failed.
    /// The OS error is part of the message, not a `source` (callers print error chains, and
    /// it would appear twice).
    #[error("{context}: {cause}")]
    Io { context: String, cause: std::io::Error },

    /// The bitcode the tools produced could not be read.
    #[error("cannot read LLVM bitcode {}: {message}", path.display())]
    BitcodeUnreadable { path: PathBuf, message: String },

    /// A bug in the frontend: the lowered module failed the IR verifier, or LLVM and the
    /// `llvm-ir` crate disagree about the module. The message lists the findings.
    #[error("internal error in penumbra's C frontend (please report it): {0}")]
    Internal(String),
}

impl FrontendError {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        FrontendError::Io { context: context.into(), cause: source }
    }
}
