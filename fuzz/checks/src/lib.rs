//! penumbra-fuzz-checks: the logic of penumbra's differential fuzz targets, in one library that
//! three drivers share: the cargo-fuzz targets in `fuzz/fuzz_targets/` (nightly, libFuzzer),
//! this crate's test suite (a fixed number of iterations from a fixed seed on stable, so CI runs
//! every target), and the `fuzz-driver` binary (any target for a given time on stable).
//!
//! A check takes the fuzzer's bytes, turns them into structure through a [`Source`] of choices
//! (an [`arbitrary::Unstructured`]), and returns `Err` with a description of any disagreement;
//! a panic inside penumbra is a finding too. The targets ([`TARGETS`]):
//! - [`terms`]: rewrites vs. Bitwuzla (and the evaluator vs. Bitwuzla's models);
//! - `fixed_inputs`: random IR programs run symbolically with every input pinned to one value
//!   vs. the concrete interpreter;
//! - `shadow`: random unified IR programs (`shadowgen`) over small input domains: complete
//!   shadow execution vs. a brute-force oracle over both versions' branch traces (`oracle`);
//! - `ktest` and `frontend` (module `no_panic`): the `.ktest` reader and the C frontend on
//!   arbitrary bytes.
//!
//! The generators (`irgen` for IR programs, [`terms::TermGen`] for terms) and the oracle are the
//! same ones the engine's and the solver's fixed-seed tests use. Without the default `engine`
//! feature only the term part is built (penumbra-solver's tests use it without linking LLVM).

pub mod source;
pub mod terms;

#[cfg(feature = "engine")]
pub mod build;
#[cfg(feature = "engine")]
pub mod compare;
#[cfg(feature = "engine")]
pub mod fixed_inputs;
#[cfg(feature = "engine")]
pub mod irgen;
#[cfg(feature = "engine")]
pub mod no_panic;
#[cfg(feature = "engine")]
pub mod oracle;
#[cfg(feature = "engine")]
pub mod shadow;
#[cfg(feature = "engine")]
pub mod shadowgen;
#[cfg(feature = "engine")]
pub mod targets;

pub use source::{input, Rng, Source};
#[cfg(feature = "engine")]
pub use targets::{fuzz_one, run_input, target, Target, TARGETS};
