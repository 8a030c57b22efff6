//! penumbra-solver's integration tests, in one binary (each test binary
//! links Bitwuzla statically, so there is only this one).
//!
//! - `semantics`: every operator at edge values, against an independent
//!   reference, constant folding, the evaluator and Bitwuzla;
//! - `rewrites`: random terms: `t == simplify(t)` is valid for Bitwuzla, and
//!   the evaluator agrees with Bitwuzla's models;
//! - `base_model`: queries with a model of the path condition in hand answer as
//!   the plain ones;
//! - `caches`: the same exploration with every cache configuration gives the
//!   same answers, and the same models run after run;
//! - `float`, `float_x87`: every floating-point operator on tables of edge values (the
//!   x87's against the x87 itself), in folding, the evaluator, Bitwuzla and z3;
//! - `query_log`: the log of a run replays with `z3` to the same answers;
//! - `deep`: 100,000-deep terms through every pass;
//! - `solving`: four-way checks, incremental push/pop, timeouts.

mod common;

mod base_model;
mod caches;
mod deep;
mod float;
mod float_x87;
mod query_log;
mod rewrites;
mod semantics;
mod solving;
