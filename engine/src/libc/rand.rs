//! glibc's `rand()`/`srand()`: the additive feedback generator of `random_r` (TYPE_3, degree
//! 31, separation 3), seeded by a Lehmer generator, with the first 310 outputs discarded.
//! Programs that print `rand()` after `srand(seed)` (or without it: the seed is 1) see the
//! same numbers natively and under penumbra.

/// The generator's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlibcRand {
    r: [i32; 34],
    /// Index of the next output in the circular buffer `r`.
    i: usize,
}

impl Default for GlibcRand {
    /// The state before any `srand`: as if `srand(1)`.
    fn default() -> Self {
        GlibcRand::new(1)
    }
}

impl GlibcRand {
    /// `srand(seed)`. glibc treats seed 0 as 1.
    pub fn new(seed: u32) -> Self {
        let mut r = [0i32; 34];
        r[0] = if seed == 0 { 1 } else { seed as i32 };
        for i in 1..31 {
            // 16807 * r[i-1] % 2147483647 without overflow (Schrage's method), as glibc.
            let (hi, lo) = (r[i - 1] / 127_773, r[i - 1] % 127_773);
            let mut word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += 2_147_483_647;
            }
            r[i] = word;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut g = GlibcRand { r, i: 0 };
        for _ in 34..344 {
            g.step();
        }
        g
    }

    /// The next raw 32-bit sum; the buffer holds the last 34 values.
    fn step(&mut self) -> u32 {
        let n = self.r.len();
        let v = self.r[(self.i + n - 31) % n].wrapping_add(self.r[(self.i + n - 3) % n]);
        self.r[self.i] = v;
        self.i = (self.i + 1) % n;
        v as u32
    }

    /// `rand()`: a value in `0..=RAND_MAX` (2^31 - 1).
    pub fn rand(&mut self) -> i32 {
        (self.step() >> 1) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of glibc 2.36's `rand()` without `srand`, and after `srand(42)`.
    #[test]
    fn matches_glibc() {
        let mut g = GlibcRand::default();
        let first: Vec<i32> = (0..5).map(|_| g.rand()).collect();
        assert_eq!(first, [1804289383, 846930886, 1681692777, 1714636915, 1957747793]);
        let mut g = GlibcRand::new(42);
        let first: Vec<i32> = (0..3).map(|_| g.rand()).collect();
        assert_eq!(first, [71876166, 708592740, 1483128881]);
        assert_eq!(GlibcRand::new(0), GlibcRand::new(1));
    }
}
