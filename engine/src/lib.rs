//! penumbra-engine: the interpreters over penumbra's IR.
//!
//! The crate holds two interpreters. The **concrete interpreter** ([`concrete`]): given a
//! [`penumbra_ir::Module`] and a [`concrete::RunConfig`] (which version of every
//! `change(old, new)` to take, the bytes of the symbolic objects, `argv`, stdin and budgets),
//! [`concrete::run`] executes `main` and returns a [`concrete::RunResult`]: captured stdout and
//! stderr, the number of steps, the symbolic objects created, and an [`concrete::Outcome`]:
//! an exit status, a [`RuntimeError`] (out-of-bounds access, use after free, division by zero,
//! failed assertion, ...; see [`ErrorKind`]) at a function and source line, an unsupported
//! construct, a violated assumption, or the step limit. It is the reference semantics the
//! symbolic engine ([`executor`] and the modules around it) and the fuzzers are checked
//! against.
//!
//! The **symbolic engine** ([`run`], configured by an [`EngineConfig`]) explores every path of
//! one version: [`program`] prepares the module once (links the symbolic C library from
//! [`symlibc`], lays out memory exactly as the concrete interpreter does); each path is an
//! [`state::ExecutionState`] (frames of solver terms, copy-on-write [`memory`], path condition
//! with a model of it); the executor steps the state a [`search`] strategy picks until it forks
//! ([`fork`]: the one place where a condition meets the solver, including the implicit memory,
//! division, shift and assertion checks) or ends. Every ended path becomes a test
//! ([`testgen`]: `.ktest` files plus a JSON Lines sidecar) that [`replay`] runs concretely,
//! and the run a [`RunSummary`]. The instruction semantics are split by concern: `step.rs`,
//! `access.rs`, `calls.rs`, `checks.rs`, `intrinsics.rs`, `env.rs` (argv, stdin).
//!
//! Data flows one way: module -> [`concrete::Program`] (verified, globals laid out once) ->
//! per run, a copy of the initial memory plus a call stack -> result. Pieces meant to be
//! shared with the symbolic engine live outside `concrete`: [`error`] (error kinds and
//! locations) and [`libc`] (the `printf` formatter, `strtol` parsing, `<ctype.h>`).

pub mod concrete;
pub mod error;
pub mod libc;

pub mod address;
mod access;
mod calls;
mod checks;
pub mod config;
mod env;
pub mod executor;
pub mod fork;
mod intrinsics;
pub mod ktest;
pub mod memory;
mod object_bytes;
pub mod program;
mod region;
pub mod replay;
pub mod run_error;
pub mod search;
mod seeded;
mod shadow;
pub mod state;
pub mod stats;
mod step;
pub mod summary;
pub mod symlibc;
pub mod testgen;

pub use config::{Budgets, EngineConfig, Environment, Output, SearchKind, ShadowMode, SymArg};
pub use error::{ErrorKind, Location, RuntimeError};
pub use executor::run;
pub use run_error::RunError;
pub use summary::RunSummary;
