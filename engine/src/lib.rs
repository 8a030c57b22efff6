//! penumbra-engine: the interpreters over penumbra's IR.
//!
//! The crate holds two interpreters over one address space. The **concrete interpreter**
//! ([`concrete`]): given a [`penumbra_ir::Module`] and a [`concrete::RunConfig`] (which version
//! of every `change(old, new)` to take, the bytes of the symbolic objects, `argv`, stdin and
//! budgets), [`concrete::run`] executes `main` and returns what a native run would show, or the
//! error it detects ([`RuntimeError`]: out-of-bounds access, use after free, division by zero,
//! failed assertion, ...) at a function and source line. It is the reference semantics the
//! symbolic engine and the fuzzers are checked against.
//!
//! The **symbolic engine** ([`run`], configured by an [`EngineConfig`]) explores every path of
//! one version, or of both versions together (shadow execution: [`config::Mode`]), and writes a
//! test per path (per divergence, in shadow execution). Its layers, each folder using only
//! those below it:
//!
//! ```text
//!   run/       the run loop, budgets, modes (seeded shadow execution's two phases), run()
//!   output/    tests (.ktest + tests.jsonl), the run summary, concrete replay of tests
//!   search/    which state runs next: DFS, BFS, random-path
//!   interp/    instruction semantics: step, loads and stores, calls, checks, intrinsics,
//!              the natively modelled C library, the initial states (argv, stdin)
//!   shadow/    shadow semantics: change() values, paired accesses, penumbra_execute blocks
//!   symbolic/  the machine: states, copy-on-write memory, the prepared program, the context,
//!              forks (two-way and four-way), address resolution with the implicit checks
//!   concrete/  the reference interpreter
//!   address/   the address space both interpreters share: layout, objects, verdicts, start-up
//!   libc/      C library semantics both share (printf formatting, strtol, <ctype.h>, rand)
//! ```
//!
//! `config`, `error`, `run_error` and `splitmix` (the seeded generator) are used by every
//! layer. A path is an [`ExecutionState`](symbolic::state::ExecutionState) (frames of solver
//! terms, copy-on-write memory, path condition with a model of it); the run loop steps the
//! state a searcher picks until it forks (every decision on a term goes through
//! `symbolic::fork`) or ends, and every ended path becomes a test that `output::replay` can run
//! concretely.

pub mod address;
pub mod concrete;
pub mod config;
pub mod error;
mod interp;
pub mod libc;
pub mod output;
pub mod run;
pub mod run_error;
pub mod search;
mod shadow;
pub mod splitmix;
pub mod symbolic;

pub use config::{Budgets, EngineConfig, Environment, Mode, Output, SearchKind, ShadowMode, SymArg};
pub use error::{ErrorKind, Location, RuntimeError};
pub use output::summary::RunSummary;
pub use penumbra_solver::{clear_interrupt, interrupt, interrupted};
pub use run::{run, run_observed};
pub use run_error::RunError;
