//! Floating point on bits, exactly as the native x86-64 build computes it: `f32` and `f64` in
//! SSE registers, `long double` (`f80`) on the x87 unit with 64-bit precision, all rounding to
//! nearest even (C's default environment). The arithmetic is `rustc_apfloat`, the Rust port of
//! LLVM's APFloat (the library LLVM itself folds constants with: IEEE single, double and x87
//! double-extended, correctly rounded, with denormals and NaN payloads); this module adds what
//! the hardware does beyond IEEE's choices:
//! - an invalid operation (`0/0`, `inf - inf`, `sqrt(-1)`) gives the x86 *default NaN*, which
//!   is negative (`-nan` in glibc's printf): `0xFFC00000`, `0xFFF8000000000000`, and the x87
//!   "real indefinite" `0xFFFF_C000000000000000`;
//! - a NaN operand propagates, quieted, with its payload: SSE takes the first operand's when
//!   both are NaN, the x87 the one with the larger significand;
//! - negation, absolute value and `copysign` only touch the sign bit (a signalling NaN stays
//!   signalling, as `xorpd`/`andpd` leave it);
//! - an x87 operand in one of the encodings the 387 and later no longer support (a nonzero
//!   exponent without the integer bit: unnormals, pseudo-infinities, pseudo-NaNs) is an
//!   invalid operation, whose result is the default NaN whatever the other operand (APFloat
//!   reads them as NaNs, which would propagate them).
//!
//! Values are `u128`s holding the format's bits (32, 64 or 80) in their low bits, so one
//! signature serves all three formats; callers keep them masked to the width.

use rustc_apfloat::ieee::{Double, Single, X87DoubleExtended};
use rustc_apfloat::{Float, FloatConvert, Round, StatusAnd};
use std::cmp::Ordering;

/// A floating-point format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    F32,
    F64,
    F80,
}

impl Format {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Format::F32 => 32,
            Format::F64 => 64,
            Format::F80 => 80,
        }
    }

    /// The x86 default NaN of this format.
    pub fn default_nan(self) -> u128 {
        match self {
            Format::F32 => 0xFFC0_0000,
            Format::F64 => 0xFFF8_0000_0000_0000,
            Format::F80 => 0xFFFF_C000_0000_0000_0000,
        }
    }

    fn sign_bit(self) -> u128 {
        1 << (self.bits() - 1)
    }

    /// The quiet bit of a NaN: the most significant bit of the fraction.
    pub fn quiet_bit(self) -> u128 {
        match self {
            Format::F32 => 1 << 22,
            Format::F64 => 1 << 51,
            Format::F80 => 1 << 62,
        }
    }

    /// The bits between a NaN's sign and its fraction (their count and value: the all-ones
    /// exponent, and for x87 the integer bit) and the fraction's width: the layout in which
    /// a converted NaN keeps its payload.
    pub(crate) fn nan_layout(self) -> ((u8, u64), u8) {
        match self {
            Format::F32 => ((8, 0xff), 23),
            Format::F64 => ((11, 0x7ff), 52),
            Format::F80 => ((16, 0xffff), 63),
        }
    }

    /// Exponent and significand sizes as SMT-LIB's `FloatingPoint` sorts count them (the
    /// significand with its leading bit).
    pub fn sort_sizes(self) -> (u8, u8) {
        match self {
            Format::F32 => (8, 24),
            Format::F64 => (11, 53),
            Format::F80 => (15, 64),
        }
    }
}

/// Arithmetic operations that round.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    /// C's `fmod`: exact, with the sign of the dividend.
    Rem,
}

/// Rounding to an integral value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Integral {
    Floor,
    Ceil,
    Trunc,
    /// Halfway cases away from zero (`round`).
    HalfAway,
    /// Halfway cases to even (`rint` in the default rounding mode).
    HalfEven,
}

impl Arith {
    /// The operations a term node can hold, indexed by its payload byte (`Rem` has no node:
    /// C's `fmod` is not an SMT-LIB operation).
    pub const NODES: [Arith; 4] = [Arith::Add, Arith::Sub, Arith::Mul, Arith::Div];
}

impl Integral {
    /// The directions a term node can hold, indexed by its payload byte.
    pub const NODES: [Integral; 5] =
        [Integral::Floor, Integral::Ceil, Integral::Trunc, Integral::HalfAway, Integral::HalfEven];
}

impl Format {
    /// The format of a float term of `width` bits (32, 64 or 80).
    pub fn of_width(width: u8) -> Format {
        match width {
            32 => Format::F32,
            80 => Format::F80,
            _ => Format::F64,
        }
    }
}

/// The value of a floating-point term node (`op` with payload `aux`, node width `w`, first
/// child of width `cw`) on its children's values: what constant folding and the evaluator
/// compute, the meaning the Bitwuzla translation and the SMT-LIB printer encode.
pub(crate) fn apply_node(op: crate::term::Op, aux: u8, w: u8, cw: u8, a: [u128; 3]) -> u128 {
    use crate::term::Op;
    let (x, y) = (a[0], a[1]);
    let f = Format::of_width(cw);
    let r: u128 = match op {
        Op::FArith => arith(f, Arith::NODES[usize::from(aux)], x, y),
        Op::FSqrt => sqrt(f, x),
        Op::FFma => fma(f, x, y, a[2]),
        Op::FRound => round_integral(f, Integral::NODES[usize::from(aux)], x),
        Op::FLt => u128::from(compare(f, x, y) == Some(Ordering::Less)),
        Op::FLe => u128::from(matches!(compare(f, x, y), Some(Ordering::Less | Ordering::Equal))),
        Op::FEq => u128::from(compare(f, x, y) == Some(Ordering::Equal)),
        Op::FIsNan => u128::from(is_nan(f, x)),
        Op::FConvert => convert(f, Format::of_width(w), x),
        Op::FToSInt | Op::FToUInt => u128::from(to_int(f, x, u32::from(w), op == Op::FToSInt).unwrap_or(0)),
        Op::SIntToF | Op::UIntToF => from_int(Format::of_width(w), a[0] as u64, u32::from(cw), op == Op::SIntToF),
        other => unreachable!("{other:?} is not a floating-point operator"),
    };
    r
}

const NEAREST: Round = Round::NearestTiesToEven;

/// Runs `$body` with `$T` bound to the apfloat type of `$fmt`.
macro_rules! with_format {
    ($fmt:expr, $T:ident => $body:expr) => {
        match $fmt {
            Format::F32 => {
                type $T = Single;
                $body
            }
            Format::F64 => {
                type $T = Double;
                $body
            }
            Format::F80 => {
                type $T = X87DoubleExtended;
                $body
            }
        }
    };
}

fn is_nan_bits<T: Float>(a: u128) -> bool {
    T::from_bits(a).is_nan()
}

/// Applies the x86 rules for NaN results to an operation's IEEE result: NaN operands
/// propagate (first-operand or larger-significand rule), a fresh NaN is the default NaN.
fn nan_rules<T: Float>(fmt: Format, operands: &[u128], result: StatusAnd<T>) -> u128 {
    let r = result.value;
    if !r.is_nan() {
        return r.to_bits();
    }
    if fmt == Format::F80 && operands.iter().any(|&a| x87_unsupported(a)) {
        return fmt.default_nan();
    }
    let nans: Vec<u128> = operands.iter().copied().filter(|&a| is_nan_bits::<T>(a)).collect();
    match nans.as_slice() {
        [] => fmt.default_nan(),
        [first, rest @ ..] => {
            let pick = if fmt == Format::F80 {
                // x87: the NaN with the larger significand (the first one on a tie).
                rest.iter().fold(*first, |best, &n| if significand80(n) > significand80(best) { n } else { best })
            } else {
                *first
            };
            quiet(fmt, pick)
        }
    }
}

fn significand80(a: u128) -> u64 {
    a as u64
}

/// Whether `a` is an x87 encoding the hardware rejects as an operand: a nonzero exponent
/// without the integer bit (unnormal, pseudo-infinity, pseudo-NaN).
pub fn x87_unsupported(a: u128) -> bool {
    (a >> 64) & 0x7fff != 0 && (a >> 63) & 1 == 0
}

/// A NaN with its quiet bit set (the most significant bit of the fraction).
fn quiet(fmt: Format, a: u128) -> u128 {
    a | fmt.quiet_bit()
}

/// `a op b`.
pub fn arith(fmt: Format, op: Arith, a: u128, b: u128) -> u128 {
    with_format!(fmt, T => {
        let (x, y) = (T::from_bits(a), T::from_bits(b));
        let r = match op {
            Arith::Add => x.add_r(y, NEAREST),
            Arith::Sub => x.sub_r(y, NEAREST),
            Arith::Mul => x.mul_r(y, NEAREST),
            Arith::Div => x.div_r(y, NEAREST),
            Arith::Rem => x.c_fmod(y),
        };
        nan_rules::<T>(fmt, &[a, b], r)
    })
}

/// `a * b + c`, rounded once.
pub fn fma(fmt: Format, a: u128, b: u128, c: u128) -> u128 {
    with_format!(fmt, T => {
        let r = T::from_bits(a).mul_add_r(T::from_bits(b), T::from_bits(c), NEAREST);
        nan_rules::<T>(fmt, &[a, b, c], r)
    })
}

/// `llvm.minnum` (`min`) or `llvm.maxnum` (what C's `fmin`/`fmax` become) as the native x86-64
/// build computes it. `float`/`double`: LLVM's lowering, `isnan(a) ? b : minsd(b, a)`: a NaN
/// `a` gives `b` as it is (two NaNs: `b`, unquieted), otherwise the smaller (larger) one, `a`
/// when they compare equal (signed zeros too). `long double`: a call of glibc's `fminl`/`fmaxl`
/// (x86-64 assembly; measured against it): ordered, the smaller (larger) one, on a tie `a` for
/// the minimum and `b` for the maximum; with a signalling NaN or two NaNs, `a + b` (the x87's
/// NaN rules); with one quiet NaN, the other operand.
pub fn min_max(fmt: Format, max: bool, a: u128, b: u128) -> u128 {
    let b_before_a = compare(fmt, b, a) == Some(Ordering::Less);
    if fmt != Format::F80 {
        if is_nan(fmt, a) {
            return b;
        }
        let a_before_b = compare(fmt, a, b) == Some(Ordering::Less);
        return if (max && a_before_b) || (!max && b_before_a) { b } else { a };
    }
    let (nan_a, nan_b) = (is_nan(fmt, a), is_nan(fmt, b));
    if !nan_a && !nan_b {
        return if b_before_a != max { b } else { a };
    }
    if x87_signalling(a) || x87_signalling(b) || (nan_a && nan_b) {
        return arith(fmt, Arith::Add, a, b);
    }
    if nan_a {
        b
    } else {
        a
    }
}

/// Whether `a` is an x87 signalling NaN as glibc's `issignaling` says: all-ones exponent,
/// integer bit set, quiet bit clear, a nonzero payload (pseudo-NaNs are not).
pub fn x87_signalling(a: u128) -> bool {
    (a >> 64) & 0x7fff == 0x7fff && (a >> 62) & 0b11 == 0b10 && a & ((1 << 62) - 1) != 0
}

/// `-a`: the sign bit flipped.
pub fn neg(fmt: Format, a: u128) -> u128 {
    a ^ fmt.sign_bit()
}

/// `|a|`: the sign bit cleared.
pub fn abs(fmt: Format, a: u128) -> u128 {
    a & !fmt.sign_bit()
}

/// The magnitude of `a` with the sign of `b`.
pub fn copysign(fmt: Format, a: u128, b: u128) -> u128 {
    abs(fmt, a) | (b & fmt.sign_bit())
}

/// The square root, correctly rounded.
pub fn sqrt(fmt: Format, a: u128) -> u128 {
    match fmt {
        // The host is x86-64 (as the programs' target is): Rust's `sqrt` is `sqrtss`/`sqrtsd`,
        // the very instruction, default NaN included.
        Format::F32 => u128::from(f32::from_bits(a as u32).sqrt().to_bits()),
        Format::F64 => u128::from(f64::from_bits(a as u64).sqrt().to_bits()),
        Format::F80 => sqrt80(a),
    }
}

/// `fsqrt` at 64-bit precision: an integer square root of the significand scaled to 128 bits,
/// rounded to nearest (an exact square root has no halfway case).
fn sqrt80(a: u128) -> u128 {
    let x = X87DoubleExtended::from_bits(a);
    if x87_unsupported(a) {
        return Format::F80.default_nan();
    }
    if x.is_nan() {
        return quiet(Format::F80, a);
    }
    if x.is_zero() || (x.is_infinite() && !x.is_negative()) {
        return a;
    }
    if x.is_negative() {
        return Format::F80.default_nan();
    }
    let exp_field = ((a >> 64) & 0x7fff) as i32;
    let mant = a as u64;
    // value = mant * 2^e
    let mut e = if exp_field == 0 { 1 - 16383 - 63 } else { exp_field - 16383 - 63 };
    let mut m = u128::from(mant);
    if e % 2 != 0 {
        m <<= 1;
        e -= 1;
    }
    let lz = m.leading_zeros();
    let s = if lz % 2 == 0 { lz } else { lz - 1 };
    let big = m << s;
    let mut r = isqrt(big);
    let rem = big - r * r;
    if rem > r {
        r += 1;
    }
    // sqrt(value) = r * 2^((e - s) / 2), r in [2^63, 2^64]
    let mut exp = (e - s as i32) / 2;
    if r == 1 << 64 {
        r >>= 1;
        exp += 1;
    }
    let biased = (exp + 63 + 16383) as u128;
    (biased << 64) | r
}

/// The integer square root (floor) of a 128-bit number.
fn isqrt(n: u128) -> u128 {
    let mut result: u128 = 0;
    let mut bit: u128 = 1 << 126;
    let mut n = n;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if n >= result + bit {
            n -= result + bit;
            result = (result >> 1) + bit;
        } else {
            result >>= 1;
        }
        bit >>= 2;
    }
    result
}

/// Rounds to an integral value in the given direction.
pub fn round_integral(fmt: Format, mode: Integral, a: u128) -> u128 {
    let round = match mode {
        Integral::Floor => Round::TowardNegative,
        Integral::Ceil => Round::TowardPositive,
        Integral::Trunc => Round::TowardZero,
        Integral::HalfAway => Round::NearestTiesToAway,
        Integral::HalfEven => Round::NearestTiesToEven,
    };
    with_format!(fmt, T => {
        let r = T::from_bits(a).round_to_integral(round);
        nan_rules::<T>(fmt, &[a], r)
    })
}

/// How `a` compares with `b`; `None` when either is NaN (unordered). `-0 == +0`.
pub fn compare(fmt: Format, a: u128, b: u128) -> Option<Ordering> {
    with_format!(fmt, T => T::from_bits(a).partial_cmp(&T::from_bits(b)))
}

/// Whether `a` is a NaN.
pub fn is_nan(fmt: Format, a: u128) -> bool {
    with_format!(fmt, T => T::from_bits(a).is_nan())
}

/// `a` converted to another format (exact when wider, rounded when narrower). A NaN keeps
/// the top of its payload and is quieted, as `cvtss2sd`, `cvtsd2ss`, `fld` and `fstp` do.
pub fn convert(from: Format, to: Format, a: u128) -> u128 {
    if from == to {
        return a;
    }
    if from == Format::F80 && x87_unsupported(a) {
        return to.default_nan();
    }
    with_format!(from, S => {
        let x = S::from_bits(a);
        with_format!(to, D => {
            let r: StatusAnd<D> = x.convert_r(NEAREST, &mut false);
            if x.is_nan() {
                quiet(to, r.value.to_bits())
            } else {
                r.value.to_bits()
            }
        })
    })
}

/// `a` truncated toward zero to an integer of `width` bits (signed or not), or `None` when the
/// result does not fit (or `a` is NaN): C leaves that undefined.
pub fn to_int(fmt: Format, a: u128, width: u32, signed: bool) -> Option<u64> {
    with_format!(fmt, T => {
        let t = T::from_bits(a).round_to_integral(Round::TowardZero).value;
        if !t.is_finite() {
            return None;
        }
        let v = t.to_i128(128);
        if v.status != rustc_apfloat::Status::OK && v.status != rustc_apfloat::Status::INEXACT {
            return None;
        }
        let v = v.value;
        let (lo, hi) = if signed {
            (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
        } else {
            (0, (1i128 << width) - 1)
        };
        (lo..=hi).contains(&v).then_some(v as u64 & (u64::MAX >> (64 - width)))
    })
}

/// The bounds of the floats whose truncation fits an integer of `width` bits (signed or
/// not): `(lower, upper, strict)` such that `x` fits iff `lower < x < upper` (`lower <= x <
/// upper` when not `strict`). `upper` is the integer range's end (a power of two); `lower`
/// is one below its start when the format has that number, else the start itself (no float
/// lies between the two).
pub fn int_conversion_bounds(fmt: Format, width: u32, signed: bool) -> (u128, u128, bool) {
    with_format!(fmt, T => {
        let two_to = |k: u32| T::from_u128(1u128 << k).value;
        if !signed {
            return (T::from_i128(-1).value.to_bits(), two_to(width).to_bits(), true);
        }
        let upper = two_to(width - 1).to_bits();
        let below = T::from_i128(-(1i128 << (width - 1)) - 1);
        if below.status == rustc_apfloat::Status::OK {
            (below.value.to_bits(), upper, true)
        } else {
            ((-two_to(width - 1)).to_bits(), upper, false)
        }
    })
}

/// The integer `v` (of `width` bits, signed or not) converted to the format, rounded.
pub fn from_int(fmt: Format, v: u64, width: u32, signed: bool) -> u128 {
    let v = v & (u64::MAX >> (64 - width));
    with_format!(fmt, T => {
        let r: StatusAnd<T> = if signed {
            let shift = 64 - width;
            T::from_i128(i128::from(((v << shift) as i64) >> shift))
        } else {
            T::from_u128(u128::from(v))
        };
        r.value.to_bits()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: f64) -> u128 {
        u128::from(x.to_bits())
    }

    fn back(x: u128) -> f64 {
        f64::from_bits(x as u64)
    }

    #[test]
    fn doubles_agree_with_the_hardware() {
        let values = [0.1, -2.5, 1e308, 3.0, -0.0, 0.0, f64::INFINITY, 1e-310, 7.0e-5];
        for &x in &values {
            for &y in &values {
                let hw = [x + y, x - y, x * y, x / y, x % y];
                let ops = [Arith::Add, Arith::Sub, Arith::Mul, Arith::Div, Arith::Rem];
                for (op, want) in ops.into_iter().zip(hw) {
                    let got = arith(Format::F64, op, d(x), d(y));
                    assert_eq!(got as u64, want.to_bits(), "{x} {op:?} {y}");
                }
                assert_eq!(compare(Format::F64, d(x), d(y)), x.partial_cmp(&y));
            }
        }
    }

    #[test]
    fn invalid_operations_give_the_negative_default_nan_and_nans_propagate() {
        assert_eq!(arith(Format::F64, Arith::Div, d(0.0), d(0.0)), 0xFFF8_0000_0000_0000);
        assert_eq!(arith(Format::F32, Arith::Sub, 0x7F80_0000, 0x7F80_0000), 0xFFC0_0000);
        assert_eq!(sqrt(Format::F80, (0xBFFFu128 << 64) | 1 << 63), Format::F80.default_nan());
        // A signalling NaN with payload 5 comes out quieted with its payload, first operand first.
        let snan = 0x7FF0_0000_0000_0005u128;
        assert_eq!(arith(Format::F64, Arith::Add, snan, d(1.0)), 0x7FF8_0000_0000_0005);
        let other = 0xFFF8_0000_0000_0009u128;
        assert_eq!(arith(Format::F64, Arith::Mul, other, snan), other);
        assert_eq!(neg(Format::F64, snan), snan | 1 << 63);
        assert_eq!(convert(Format::F32, Format::F64, 0x7FC0_0001), 0x7FF8_0000_2000_0000);
    }

    #[test]
    fn x87_extended_precision() {
        let one = (0x3FFFu128 << 64) | 1 << 63;
        let third = arith(Format::F80, Arith::Div, one, convert(Format::F64, Format::F80, d(3.0)));
        assert_eq!(third, 0x3FFD_AAAA_AAAA_AAAA_AAAB);
        assert_eq!(back(convert(Format::F80, Format::F64, third)), 1.0 / 3.0);
        let two = convert(Format::F64, Format::F80, d(2.0));
        assert_eq!(sqrt(Format::F80, two), 0x3FFF_B504_F333_F9DE_6484);
        assert_eq!(
            sqrt(Format::F80, convert(Format::F64, Format::F80, d(16.0))),
            convert(Format::F64, Format::F80, d(4.0))
        );
        assert_eq!(from_int(Format::F80, u64::MAX, 64, false), 0x403E_FFFF_FFFF_FFFF_FFFF);
        assert_eq!(to_int(Format::F80, 0x403E_FFFF_FFFF_FFFF_FFFF, 64, false), Some(u64::MAX));
    }

    #[test]
    fn integer_conversions_check_their_range() {
        assert_eq!(to_int(Format::F64, d(-1.9), 32, true), Some((-1i32) as u32 as u64));
        assert_eq!(to_int(Format::F64, d(-0.9), 8, false), Some(0));
        assert_eq!(to_int(Format::F64, d(-1.0), 8, false), None);
        assert_eq!(to_int(Format::F64, d(255.9), 8, false), Some(255));
        assert_eq!(to_int(Format::F64, d(2147483648.0), 32, true), None);
        assert_eq!(to_int(Format::F64, d(f64::NAN), 64, true), None);
        assert_eq!(to_int(Format::F64, d(-(2f64.powi(63))), 64, true), Some(1 << 63));
        assert_eq!(back(from_int(Format::F64, u64::MAX, 64, false)), 18446744073709551616.0);
        assert_eq!(back(from_int(Format::F64, 0x80, 8, true)), -128.0);
        assert_eq!(round_integral(Format::F64, Integral::HalfAway, d(2.5)), d(3.0));
        assert_eq!(round_integral(Format::F64, Integral::HalfEven, d(2.5)), d(2.0));
        assert_eq!(round_integral(Format::F64, Integral::Floor, d(-0.5)), d(-1.0));
    }
}
