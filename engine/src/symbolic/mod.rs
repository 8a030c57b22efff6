//! The symbolic machine: what a path is and where it meets the solver.
//!
//! - `state`: an [`ExecutionState`](state::ExecutionState) (frames of terms, copy-on-write
//!   memory, path condition with a model, decisions, symbolic objects, shadow-execution mode);
//! - `memory`, `object_bytes`: the shared address space with byte terms, copy-on-write in
//!   chunks;
//! - `program`: a module prepared once (the symbolic C library linked in from `libc/`, memory
//!   laid out, frame templates built);
//! - `context`: what the interpreter works in (program, term store, solver, counters) and what a
//!   step leaves for the run loop (new states, ended paths);
//! - `fork`, `four_way`: every decision on a term, two ways or, when the condition holds a
//!   shadow, four ways; `concretize`: fixing a value to one number, the other values kept as
//!   another state;
//! - `access`: resolving an address term to an object and offset, with the implicit memory
//!   checks; `sizes`: objects whose size is a term (symbolic, or per version);
//! - `value`: a frame's value, a concrete bitvector unboxed or a term;
//! - `stats`: the counters.
//!
//! It knows nothing of instructions, the run loop or tests: those sit above it.

pub mod access;
pub mod concretize;
pub mod context;
pub mod fork;
pub mod four_way;
pub mod libc;
pub mod memory;
pub mod object_bytes;
pub mod program;
pub mod resolve;
pub mod sizes;
pub mod state;
pub mod stats;
pub mod value;
pub mod written;
