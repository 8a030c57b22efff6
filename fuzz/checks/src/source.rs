//! Where the generators' choices come from: a [`Source`] of numbers, fed either by a fuzzer's
//! bytes ([`arbitrary::Unstructured`]) or by a fixed-seed PRNG ([`Rng`]), and [`input`], the
//! deterministic byte strings the test suite and the stable driver feed the checks in place of
//! libFuzzer.
//!
//! Every generator in this crate is written against [`Source`] only, so one generator serves the
//! fuzz targets (bytes in, structure out, so that libFuzzer's mutations mutate programs and
//! terms) and the existing fixed-seed tests of the solver and the engine (a PRNG stream).

use arbitrary::Unstructured;

/// A stream of choices. Implementations must be deterministic: the same stream state gives the
/// same choices.
pub trait Source {
    fn next_u64(&mut self) -> u64;

    /// Uniform-ish in `0..n` (`n > 0`).
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// An index into a collection of `n > 0` items.
    fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// SplitMix64: small, fast, deterministic.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
}

impl Source for Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// A fuzzer's bytes as choices. When the bytes run out every number is 0 (the first item, the
/// smallest number, and so `chance` is true), which every generator here maps to a small,
/// always-terminating case.
impl Source for Unstructured<'_> {
    fn next_u64(&mut self) -> u64 {
        self.arbitrary::<u64>().unwrap_or(0)
    }

    /// Consumes only the bytes the range needs (libFuzzer then mutates one choice at a time).
    fn below(&mut self, n: u64) -> u64 {
        self.int_in_range(0..=n - 1).unwrap_or(0)
    }
}

/// The `iteration`-th input of a fixed-seed run: `len` pseudo-random bytes, a pure function of
/// `(seed, iteration)` so that any failing iteration can be rerun alone.
pub fn input(seed: u64, iteration: u64, len: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed ^ iteration.wrapping_mul(0xd1b5_4a32_d192_ed03));
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        out.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    out.truncate(len);
    out
}
