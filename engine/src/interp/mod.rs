//! The symbolic interpreter's instruction semantics, over the machine of
//! [`symbolic`](crate::symbolic) and the shadow semantics of [`shadow`](crate::shadow): one
//! file per concern.
//!
//! - `step`: the dispatcher (one `match` per instruction), arithmetic, comparisons, casts,
//!   branches and switches;
//! - `memory`: loads, stores and stack allocation;
//! - `calls`: calls, function pointers and returns;
//! - `checks`: the implicit checks of division and shifts;
//! - `intrinsics`: `make_symbolic`, `assume`, `assert`;
//! - `natives`: the C library functions modelled natively (heap, bulk memory, process control,
//!   `<ctype.h>`, output and standard input, the system calls of programs linked with musl), a
//!   handler bound once per program beside the context;
//! - `start`: the initial states (`argv`, symbolic arguments and stdin, `main`'s frame).

use crate::symbolic::context::Context;

/// The instruction semantics, over the [`Context`] they work in: the methods of the files
/// above, kept off the context (which holds the machine's state and its own operations on it:
/// forks, memory resolution, the solver).
pub(crate) struct Interp<'c, 'p> {
    cx: &'c mut Context<'p>,
}

impl<'c, 'p> Interp<'c, 'p> {
    pub(crate) fn new(cx: &'c mut Context<'p>) -> Self {
        Interp { cx }
    }
}

mod calls;
mod checks;
mod float;
mod intrinsics;
mod lifecycle;
mod memory;
mod natives;
pub mod start;
mod step;
