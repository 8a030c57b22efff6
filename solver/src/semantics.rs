//! Concrete bitvector semantics on `u64` values (`u128` for the slicing that wide terms use), shared by constant folding
//! and the evaluator so the two can never disagree.
//!
//! Every function takes operands already masked to `width` and returns a
//! masked result. The definitions follow SMT-LIB's `QF_BV` theory (which for
//! these operators matches LLVM's wrapping semantics where LLVM defines them):
//! `bvudiv x 0 = ~0`, `bvurem x 0 = x`, `bvsdiv`/`bvsrem` via the unsigned
//! operations on magnitudes, shifts by `width` or more give 0 (sign fill for
//! `bvashr`), comparisons return 1 for true and 0 for false.

use crate::term::{mask, mask_wide};

/// `v` (a `width`-bit value) sign-extended to `i64`.
pub fn to_signed(v: u64, width: u8) -> i64 {
    let sh = 64 - u32::from(width);
    ((v << sh) as i64) >> sh
}

fn msb(v: u64, width: u8) -> bool {
    (v >> (width - 1)) & 1 == 1
}

pub fn add(a: u64, b: u64, w: u8) -> u64 {
    a.wrapping_add(b) & mask(w)
}

pub fn sub(a: u64, b: u64, w: u8) -> u64 {
    a.wrapping_sub(b) & mask(w)
}

pub fn mul(a: u64, b: u64, w: u8) -> u64 {
    a.wrapping_mul(b) & mask(w)
}

pub fn neg(a: u64, w: u8) -> u64 {
    a.wrapping_neg() & mask(w)
}

pub fn not(a: u64, w: u8) -> u64 {
    !a & mask(w)
}

pub fn udiv(a: u64, b: u64, w: u8) -> u64 {
    a.checked_div(b).unwrap_or(mask(w))
}

pub fn urem(a: u64, b: u64, _w: u8) -> u64 {
    a.checked_rem(b).unwrap_or(a)
}

/// SMT-LIB `bvsdiv`: divide magnitudes unsigned, negate when the signs differ.
pub fn sdiv(a: u64, b: u64, w: u8) -> u64 {
    let (na, nb) = (msb(a, w), msb(b, w));
    let ma = if na { neg(a, w) } else { a };
    let mb = if nb { neg(b, w) } else { b };
    let q = udiv(ma, mb, w);
    if na != nb {
        neg(q, w)
    } else {
        q
    }
}

/// SMT-LIB `bvsrem`: the remainder has the sign of the dividend.
pub fn srem(a: u64, b: u64, w: u8) -> u64 {
    let (na, nb) = (msb(a, w), msb(b, w));
    let ma = if na { neg(a, w) } else { a };
    let mb = if nb { neg(b, w) } else { b };
    let r = urem(ma, mb, w);
    if na {
        neg(r, w)
    } else {
        r
    }
}

pub fn shl(a: u64, b: u64, w: u8) -> u64 {
    if b >= u64::from(w) {
        0
    } else {
        (a << b) & mask(w)
    }
}

pub fn lshr(a: u64, b: u64, w: u8) -> u64 {
    if b >= u64::from(w) {
        0
    } else {
        a >> b
    }
}

pub fn ashr(a: u64, b: u64, w: u8) -> u64 {
    let s = to_signed(a, w);
    let sh = b.min(u64::from(w) - 1);
    ((s >> sh) as u64) & mask(w)
}

pub fn eq(a: u64, b: u64) -> u64 {
    u64::from(a == b)
}

pub fn ult(a: u64, b: u64) -> u64 {
    u64::from(a < b)
}

pub fn ule(a: u64, b: u64) -> u64 {
    u64::from(a <= b)
}

/// `w` is the width of the operands.
pub fn slt(a: u64, b: u64, w: u8) -> u64 {
    u64::from(to_signed(a, w) < to_signed(b, w))
}

/// `w` is the width of the operands.
pub fn sle(a: u64, b: u64, w: u8) -> u64 {
    u64::from(to_signed(a, w) <= to_signed(b, w))
}

/// Bits `lo ..= lo + w - 1` of `a` (of any width: extracts and concatenations also serve
/// wide terms).
pub fn extract(a: u128, lo: u8, w: u8) -> u128 {
    (a >> lo) & mask_wide(w)
}

/// `hi` above `lo`, where `lo` is `lo_w` bits wide (the result at most [`crate::WIDE_MAX`]).
pub fn concat(hi: u128, lo: u128, lo_w: u8) -> u128 {
    (hi << lo_w) | lo
}

/// `a` (of width `from`) sign-extended to `to` bits.
pub fn sext(a: u64, from: u8, to: u8) -> u64 {
    (to_signed(a, from) as u64) & mask(to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_zero_follows_smtlib() {
        assert_eq!(udiv(7, 0, 8), 0xff);
        assert_eq!(urem(7, 0, 8), 7);
        assert_eq!(sdiv(7, 0, 8), 0xff); // non-negative dividend: -1
        assert_eq!(sdiv(0xf9, 0, 8), 1); // negative dividend: 1
        assert_eq!(srem(0xf9, 0, 8), 0xf9);
        assert_eq!(sdiv(0, 0, 64), u64::MAX);
    }

    #[test]
    fn signed_division_truncates_towards_zero() {
        assert_eq!(sdiv(0xf9, 2, 8), 0xfd); // -7 / 2 = -3
        assert_eq!(srem(0xf9, 2, 8), 0xff); // -7 % 2 = -1
        assert_eq!(srem(7, 0xfe, 8), 1); // 7 % -2 = 1
        assert_eq!(sdiv(0x80, 0xff, 8), 0x80); // INT_MIN / -1 wraps
        assert_eq!(srem(0x80, 0xff, 8), 0);
        assert_eq!(sdiv(1 << 63, u64::MAX, 64), 1 << 63);
    }

    #[test]
    fn shifts_by_width_or_more() {
        assert_eq!(shl(1, 8, 8), 0);
        assert_eq!(shl(1, 7, 8), 0x80);
        assert_eq!(lshr(0x80, 8, 8), 0);
        assert_eq!(ashr(0x80, 8, 8), 0xff);
        assert_eq!(ashr(0x80, 200, 8), 0xff);
        assert_eq!(ashr(0x40, 9, 8), 0);
        assert_eq!(shl(1, u64::MAX, 64), 0);
        assert_eq!(ashr(1 << 63, 64, 64), u64::MAX);
        assert_eq!(ashr(1, 0, 1), 1);
        assert_eq!(ashr(1, 1, 1), 1);
    }

    #[test]
    fn extension_and_concat() {
        assert_eq!(sext(0x80, 8, 16), 0xff80);
        assert_eq!(sext(1, 1, 64), u64::MAX);
        assert_eq!(concat(0xab, 0xcd, 8), 0xabcd);
        assert_eq!(concat(0, 5, 64), 5);
        assert_eq!(concat(0x3fff, 1 << 63, 64), (0x3fff << 64) | 1 << 63);
        assert_eq!(extract(0xabcd, 4, 8), 0xbc);
        assert_eq!(extract(0x3fff << 64, 72, 8), 0x3f);
    }
}
