//! The crate's error type.

use std::path::PathBuf;

use thiserror::Error;

use crate::bitwuzla::BzError;
use crate::term::TermId;

/// Why a solver call failed. (A timeout is not an error: it is
/// [`crate::SatResult::Unknown`].)
#[derive(Debug, Error)]
pub enum SolverError {
    /// A constraint (or four-way condition) is not a width-1 term.
    #[error("constraint {0:?} is {1} bits wide; constraints must be 1 bit wide")]
    NotBoolean(TermId, u8),
    /// A constraint contains a `Shadow` node: ask about a projection instead.
    #[error("constraint {0:?} contains a shadow term; use its old() or new() projection")]
    ShadowInConstraint(TermId),
    /// A term id that is not in the store passed along.
    #[error("term {0:?} is not in this term store")]
    UnknownTerm(TermId),
    /// The solver memoises translations per store: one solver, one store.
    #[error("this solver is used with a different term store than before")]
    StoreMismatch,
    /// Two terms of different widths were compared.
    #[error("terms {0:?} and {1:?} have different widths")]
    WidthMismatch(TermId, TermId),
    /// Bitwuzla refused an operation or gave an unexpected answer.
    #[error("Bitwuzla: {0}")]
    Backend(#[from] BzError),
    /// The query log could not be written.
    #[error("query log {path}: {source}")]
    QueryLog {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}
