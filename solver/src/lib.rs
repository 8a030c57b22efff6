//! penumbra-solver: hash-consed bitvector terms, shadow terms, the Bitwuzla
//! backend and its caches.
//!
//! **What it does.** The engine describes program values as *terms* in a
//! [`TermStore`]: a hash-consed DAG of bitvector operations (widths 1 to 64;
//! booleans are width 1) over named variables — one 8-bit [`VarId`] per byte
//! of a symbolic object. Constructors (`store.add(a, b)`, `store.ult(a, b)`,
//! `store.ite(c, a, b)`, ...) fold constants and apply cheap rewrites, so
//! equal terms have equal [`TermId`]s. A `Shadow(old, new)` term carries
//! both versions of a changed value; [`TermStore::old`] / [`TermStore::new`]
//! project it away. [`eval()`] computes a term's value under a [`Model`].
//!
//! **How questions are answered.** A [`Solver`] decides whether a path
//! condition (a slice of width-1 terms) plus extra constraints is
//! satisfiable ([`Solver::check`], [`Solver::check_model`]), which of the four
//! shadow outcomes of a branch are feasible ([`Solver::four_way`]), and
//! whether a changed expression is in fact equal under the path condition
//! ([`Solver::prove_equal`], [`Solver::shadow_under`]). Each question flows
//! through a chain of layers, each switchable in [`SolverConfig`]:
//! ```text
//! Solver -> independence -> exact cache -> counterexample cache -> core (Bitwuzla, incremental)
//! ```
//! and every layer keeps counters in [`SolverStats`]. Queries reaching
//! Bitwuzla can be logged as SMT-LIB2 scripts ([`query_log`]), and any
//! constraint set prints with [`to_smtlib`].
//!
//! **Where to look.** `term.rs` (nodes, interning, variables),
//! `construct.rs` (constructors and rewrites), `semantics.rs` (bitvector
//! semantics shared by folding and evaluation), `shadow.rs`, `eval.rs`,
//! `solver.rs` (entry point), `chain/` (one file per cache layer), `core.rs`
//! (translation and incremental solving), `bitwuzla.rs` (the only `unsafe`:
//! the FFI wrapper), `four_way.rs`, `prove.rs`, `smtlib.rs`, `query_log.rs`.
//! Nothing recurses on term depth: every DAG walk uses an explicit stack.

#![deny(unsafe_code)]

#[allow(unsafe_code)]
mod bitwuzla;
mod chain;
mod construct;
mod core;
mod error;
mod eval;
pub mod float;
mod float_terms;
mod fork_list;
mod four_way;
mod interrupt;
mod maximize;
mod model;
mod path;
mod proof_cache;
mod prove;
mod query;
pub mod query_log;
mod rewrite;
pub mod semantics;
mod shadow;
mod smtlib;
mod solver;
mod stats;
mod term;
mod vars;

pub use bitwuzla::resident_mb;
pub use error::SolverError;
pub use eval::{eval, eval_version, eval_wide, satisfies, Assignment, Evaluator};
pub use fork_list::ForkList;
pub use four_way::{FourWay, Outcome};
pub use interrupt::{clear_interrupt, interrupt, interrupted};
pub use model::Model;
pub use path::{Constraints, PathCondition};
pub use rewrite::SortError;
pub use shadow::Version;
pub use smtlib::{constant_text, to_smtlib, write_constraints};
pub use solver::{SatResult, Solver, SolverConfig};
pub use stats::SolverStats;
pub use term::{mask, mask_wide, Op, TermData, TermId, TermStore, VarId, WIDE_MAX};
pub use vars::collect_vars;
