//! The brute-force oracle for complete shadow execution (see its documentation in
//! penumbra-fuzz-checks, where it lives so that the `shadow` fuzz target uses it too).

pub use penumbra_fuzz_checks::oracle::*;
