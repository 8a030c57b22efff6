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

mod calls;
mod checks;
mod float;
mod intrinsics;
mod lifecycle;
mod memory;
mod natives;
pub mod start;
mod step;
