//! The table of fuzz targets every driver runs by name, and [`run_input`], which runs one
//! input through a target and turns a panic into a finding like a failed check.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// One fuzz target.
pub struct Target {
    /// The name drivers use (`fuzz-driver NAME`, `cargo fuzz run NAME`).
    pub name: &'static str,
    /// What it checks, one line.
    pub about: &'static str,
    /// The check: `Ok` with a classification of the input (the test suite checks that the
    /// inputs reach the interesting classes), `Err` with a description of a finding.
    pub check: fn(&[u8]) -> Result<&'static str, String>,
    /// The length of the pseudo-random inputs the stable drivers feed it.
    pub input_len: usize,
    /// Iterations in the ordinary test suite (a fixed seed): the budget CI spends on it.
    pub test_iterations: u64,
}

/// Every target, in the order of the module documentation.
pub const TARGETS: &[Target] = &[
    Target {
        name: "terms",
        about: "term rewrites vs. Bitwuzla, the evaluator vs. Bitwuzla's models",
        check: crate::terms::check,
        input_len: 256,
        test_iterations: 1_000,
    },
    Target {
        name: "fixed_inputs",
        about: "random IR programs with every input pinned: symbolic execution vs. the concrete interpreter",
        check: crate::fixed_inputs::check,
        input_len: 256,
        test_iterations: 2_000,
    },
    Target {
        name: "shadow",
        about: "random unified IR programs on small domains: complete shadow execution vs. the brute-force oracle",
        check: crate::shadow::check,
        input_len: 512,
        test_iterations: 1_000,
    },
    Target {
        name: "ktest",
        about: "the .ktest reader on arbitrary bytes: an error or a test that writes back to itself, no panic",
        check: crate::no_panic::ktest,
        input_len: 96,
        test_iterations: 100_000,
    },
    Target {
        name: "frontend",
        about: "the C frontend on arbitrary and fragment-built C: an error or a verifying module that runs, no panic",
        check: crate::no_panic::frontend,
        input_len: 64,
        test_iterations: 150,
    },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// Runs `data` through `target`: a panic is reported as `Err` like a failed check, with its
/// message.
pub fn run_input(target: &Target, data: &[u8]) -> Result<&'static str, String> {
    match catch_unwind(AssertUnwindSafe(|| (target.check)(data))) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(no message)".to_string());
            Err(format!("panic: {message}"))
        }
    }
}

/// The `iteration`-th input of a stable fixed-seed run of `target`: pseudo-random bytes of a
/// length between a quarter of the target's [`Target::input_len`] and all of it (shorter
/// inputs make smaller programs and terms), a pure function of `(seed, iteration)`.
pub fn nth_input(target: &Target, seed: u64, iteration: u64) -> Vec<u8> {
    let bytes = crate::source::input(seed, iteration, target.input_len + 8);
    let (head, body) = bytes.split_at(8);
    let quarter = target.input_len / 4;
    let spread = (target.input_len - quarter + 1) as u64;
    let len = quarter + (u64::from_le_bytes(head.try_into().unwrap()) % spread) as usize;
    body[..len].to_vec()
}

/// The body of every cargo-fuzz target (`fuzz/fuzz_targets/NAME.rs`): runs `data` through the
/// target called `name` and panics on a finding, which libFuzzer reports as a crash and saves.
pub fn fuzz_one(name: &str, data: &[u8]) {
    let t = target(name).unwrap_or_else(|| panic!("no fuzz target {name:?}"));
    if let Err(finding) = (t.check)(data) {
        panic!("{name}: {finding}");
    }
}
