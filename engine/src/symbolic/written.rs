//! What one version's side of a `penumbra_execute` block wrote to stdout and stderr, kept in
//! the state's [`ExecuteBlock`](super::state::ExecuteBlock) until the sides merge (recorded
//! and compared in `shadow::block_output`).

use penumbra_solver::TermId;
use std::rc::Rc;

/// What one version's side of a block wrote: the pieces printed to stdout and to stderr.
#[derive(Clone, Debug, Default)]
pub struct Written {
    /// stdout's pieces, then stderr's.
    pub streams: [Vec<Piece>; 2],
}

/// One write of a side, its terms that version's (never shadows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Bytes that are all printed.
    Bytes(Vec<TermId>),
    /// A C string's bytes as far as it goes under the model (its terminator included when
    /// memory holds one): printed up to its first zero byte.
    CString(Vec<TermId>),
    /// A `printf` conversion (`spec`, e.g. `%5d`) of the argument values `terms` (a `%s`
    /// string's bytes after any `*` width), one of them symbolic.
    Conversion { spec: Rc<[u8]>, terms: Vec<TermId> },
}

impl Piece {
    pub fn terms(&self) -> &[TermId] {
        match self {
            Piece::Bytes(t) | Piece::CString(t) | Piece::Conversion { terms: t, .. } => t,
        }
    }
}
