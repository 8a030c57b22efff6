//! cargo-fuzz target `terms`: the check `penumbra_fuzz_checks::TARGETS` names so (see that crate's
//! documentation); a finding panics, which libFuzzer saves as a crash.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| penumbra_fuzz_checks::fuzz_one("terms", data));
