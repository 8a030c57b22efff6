//! An upper bound on a term's unsigned value, read off its top few operators: what lets the
//! constructors see that `sext(extract(zext(c) + 1, 31, 0))`, C's `(long)((int)c + 1)` for an
//! `unsigned char c`, is `zext(c) + 1`, so that comparing it with a constant narrows to
//! comparing `c` (tables indexed by characters: a 16-write range of tr's translation table
//! then asks `c == k - i` of each byte, not 64-bit sums).

use crate::term::{mask, Op, TermId, TermStore};

/// How many operators down [`TermStore::max_unsigned`] looks (it stays local, as the
/// constructors' other rewrites do).
const DEPTH: u32 = 4;

impl TermStore {
    /// A bound `m` with `t <= m` (unsigned) for every assignment; `t` at most 64 bits wide.
    pub(crate) fn max_unsigned(&self, t: TermId) -> u64 {
        self.bound(t, DEPTH)
    }

    fn bound(&self, t: TermId, depth: u32) -> u64 {
        let d = self.data(t);
        if d.width() > 64 {
            return u64::MAX;
        }
        let top = mask(d.width());
        if let Some(c) = d.const_value() {
            return c;
        }
        if depth == 0 {
            return top;
        }
        let kids = d.children();
        let b = |i: usize| self.bound(kids[i], depth - 1);
        match d.op() {
            Op::ZExt => b(0),
            // A wide operand's bits above 64 are not in `b(0)`'s reach.
            Op::Extract if self.width(kids[0]) > 64 => top,
            Op::Extract => (b(0) >> d.extract_lo()).min(top),
            Op::Add => b(0).checked_add(b(1)).filter(|&m| m <= top).unwrap_or(top),
            Op::Mul => b(0).checked_mul(b(1)).filter(|&m| m <= top).unwrap_or(top),
            Op::And => b(0).min(b(1)),
            Op::Or | Op::Xor => {
                let m = b(0).max(b(1));
                u64::MAX.checked_shr(m.leading_zeros()).unwrap_or(0).min(top)
            }
            Op::LShr => match self.as_const(kids[1]) {
                Some(k) if k < 64 => b(0) >> k,
                Some(_) => 0,
                None => b(0),
            },
            // `x / 0` is all ones: only a nonzero divisor keeps the quotient below `x`.
            Op::UDiv => match self.as_const(kids[1]) {
                Some(n) if n > 0 => b(0) / n,
                _ => top,
            },
            Op::URem => match self.as_const(kids[1]) {
                Some(n) if n > 0 => b(0).min(n - 1),
                _ => b(0),
            },
            Op::Ite => b(1).max(b(2)),
            Op::Shadow => b(0).max(b(1)),
            _ => top,
        }
    }
}
