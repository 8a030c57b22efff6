//! The concrete interpreter: penumbra's reference semantics for the IR.
//!
//! [`run`] executes one version of a program on fixed inputs and reports what a native run
//! would show (captured stdout and stderr, the exit status) or the error it detects, with
//! the function and source line. The symbolic engine and the fuzzers are checked against it.
//!
//! The execution model, one file per concern:
//! - [`program`]: a [`Program`] is a module verified and prepared once (globals laid out by
//!   the shared [`address::Image`](crate::address::Image), library functions bound, initial
//!   frame registers built), then run any number of times;
//! - `memory`: the bytes of the objects of the shared [`address`](crate::address) space
//!   (deterministic, never-reused addresses with redzones between them); every access is
//!   bounds- and liveness-checked by its rules;
//! - `interp`: the instruction loop, frames and branches; `call`: calls and returns;
//!   `exec`: arithmetic, comparisons and casts (with the division and shift checks);
//!   `intrinsics`: `make_symbolic`; `callback`: `qsort` and `bsearch`, which call back into
//!   the program;
//! - `machine`: memory plus the standard streams, what the C library models see;
//!   `libc`: the modelled C library;
//! - `stop`: faults and the other ways a run ends early; [`config`] and [`result`]: the API's
//!   input and output types.
//!
//! On request ([`RunConfig::trace`]) a run records its conditional decisions
//! ([`TraceEvent`]), the concrete counterpart of the symbolic engine's forks: the
//! shadow-execution tests derive the expected diff paths from the traces of both versions.

mod call;
mod callback;
pub mod config;
pub(crate) mod exec;
pub(crate) mod float;
mod interp;
mod intrinsics;
mod libc;
mod lifecycle;
mod machine;
pub(crate) mod memory;
pub mod program;
pub mod result;
pub(crate) mod stop;

pub use config::{Inputs, RunConfig};
pub use program::{run, LoadError, Program};
pub use result::{Outcome, RunResult, SymbolicObject, TraceEvent, Traced};

/// The address layout, for tools that want to recognise where an address points.
pub mod layout {
    pub use crate::address::{func_addr, FUNC_BASE, GLOBAL_BASE, HEAP_BASE, NULL_PAGE_END, REDZONE, STACK_BASE};
}
