//! Translation of the floating-point term operators to Bitwuzla's floating-point theory.
//!
//! A float term is a bitvector (its IEEE bits). An operand becomes a float with `to_fp` of its
//! bits; a comparison is a Boolean; an integer result is `fp.to_sbv`/`fp.to_ubv`. A float
//! *result* needs the way back, which SMT-LIB lacks (there is no `fp.to_ieee_bv`: a NaN has
//! many bit patterns), so each result node `n` gets a fresh bitvector `fp!n` with the
//! definition `isNaN(r) or to_fp(fp!n) = r` (`=` is identity, so the bits of a non-NaN `r`
//! are unique), and its bits are what x86-64 computes ([`crate::float`]):
//! `ite(isNaN(a), quiet(a), ite(isNaN(b), quiet(b), ite(isNaN(r), default NaN, fp!n)))`,
//! and for x87 values (80 bits, where `fp!n` is the 79-bit IEEE layout and the integer bit
//! follows from the exponent) two outer cases: of two NaN operands the larger significand
//! wins, and an operand in an unsupported encoding gives the default NaN.
//!
//! Definitions do not live on Bitwuzla's assertion stack, where a pop would drop them while
//! the memo keeps `fp!n`: every constraint literal mentioning floats carries, conjoined, the
//! definitions of all the float results below it ([`Core::float_definitions`]), so whatever is
//! asserted or assumed is self-contained.

use super::Core;
use crate::bitwuzla::{BvBinary, BvCompare, BzError, BzTerm, FpBinary, FpCompare, FpRound};
use crate::error::SolverError;
use crate::float::{Arith, Format, Integral};
use crate::term::{Op, TermData, TermId, TermStore};

impl Core {
    /// The bitvector translation of the float node `n` (`d`), its children translated to `a`.
    pub(super) fn translate_float(
        &mut self,
        n: TermId,
        d: &TermData,
        cw: u8,
        a: &[BzTerm],
    ) -> Result<BzTerm, SolverError> {
        let w = d.width();
        let bz = &mut self.bz;
        let fa: Vec<BzTerm> = match d.op() {
            Op::SIntToF | Op::UIntToF => Vec::new(),
            _ => a.iter().map(|&x| bz.fp_from_bits(x)).collect::<Result<_, _>>()?,
        };
        let result = match d.op() {
            Op::FArith => {
                let op = match Arith::NODES[usize::from(d.aux())] {
                    Arith::Add => FpBinary::Add,
                    Arith::Sub => FpBinary::Sub,
                    Arith::Mul => FpBinary::Mul,
                    _ => FpBinary::Div,
                };
                bz.fp_binary(op, fa[0], fa[1])?
            }
            Op::FSqrt => bz.fp_unary(fa[0], None)?,
            Op::FFma => bz.fp_fma(fa[0], fa[1], fa[2])?,
            Op::FRound => {
                let mode = match Integral::NODES[usize::from(d.aux())] {
                    Integral::Floor => FpRound::Down,
                    Integral::Ceil => FpRound::Up,
                    Integral::Trunc => FpRound::Zero,
                    Integral::HalfAway => FpRound::NearestAway,
                    Integral::HalfEven => FpRound::NearestEven,
                };
                bz.fp_unary(fa[0], Some(mode))?
            }
            Op::FLt | Op::FLe | Op::FEq => {
                let op = match d.op() {
                    Op::FLt => FpCompare::Lt,
                    Op::FLe => FpCompare::Le,
                    _ => FpCompare::Eq,
                };
                let b = bz.fp_compare(op, fa[0], fa[1])?;
                return Ok(bz.bool_to_bv(b)?);
            }
            Op::FIsNan => {
                let b = bz.fp_is_nan(fa[0])?;
                return Ok(bz.bool_to_bv(b)?);
            }
            Op::FToSInt | Op::FToUInt => return Ok(bz.fp_to_int(fa[0], w, d.op() == Op::FToSInt)?),
            Op::FConvert => bz.fp_convert(fa[0], w)?,
            Op::SIntToF | Op::UIntToF => bz.fp_from_int(a[0], w, d.op() == Op::SIntToF)?,
            other => return Err(SolverError::Backend(BzError(format!("{other:?} is not a floating-point operator")))),
        };
        // The fresh bits of a non-NaN result.
        let (bits, back) = bz.fp_fresh(w, &format!("fp!{}", n.as_u32()))?;
        let same = bz.fp_compare(FpCompare::Same, back, result)?;
        let result_nan = bz.fp_is_nan(result)?;
        let definition = bz.or(result_nan, same)?;
        self.float_defs.insert(n, definition);
        let bz = &mut self.bz;
        let default = bz.bv_value_wide(w, Format::of_width(w).default_nan())?;
        let mut value = match d.op() {
            Op::FConvert | Op::SIntToF | Op::UIntToF => bits,
            _ => bz.ite(result_nan, default, bits)?,
        };
        if !matches!(d.op(), Op::SIntToF | Op::UIntToF) {
            // NaN operands propagate, quieted: the first one wins (SSE), so wrap the last first.
            let q = bz.bv_value_wide(w, Format::of_width(w).quiet_bit())?;
            let mut quieted = Vec::with_capacity(a.len());
            let mut nans = Vec::with_capacity(a.len());
            for (&x, &fx) in a.iter().zip(&fa) {
                nans.push(bz.fp_is_nan(fx)?);
                let propagated = if d.op() == Op::FConvert { Self::converted_nan(bz, x, cw, w)? } else { x };
                quieted.push(bz.binary(BvBinary::Or, propagated, q)?);
            }
            for (&nan, &quiet) in nans.iter().zip(&quieted).rev() {
                value = bz.ite(nan, quiet, value)?;
            }
            if w == 80 && a.len() == 2 {
                // x87: of two NaNs, the one with the larger significand (the first on a tie).
                let both = bz.and(nans[0], nans[1])?;
                let (sa, sb) = (bz.extract(a[0], 63, 0)?, bz.extract(a[1], 63, 0)?);
                let second_larger = bz.compare(BvCompare::Ult, sa, sb)?;
                let second = bz.and(both, second_larger)?;
                value = bz.ite(second, quieted[1], value)?;
            }
            if cw == 80 {
                // An x87 operand in an unsupported encoding: an invalid operation.
                for &x in a {
                    let unsupported = bz.x87_unsupported(x)?;
                    value = bz.ite(unsupported, default, value)?;
                }
            }
        }
        Ok(value)
    }

    /// A NaN's bits in another format, as `cvtss2sd`/`cvtsd2ss`/`fld`/`fstp` keep them
    /// ([`crate::float::convert`]): sign, all-ones exponent (and for x87 the integer bit), the
    /// fraction's top bits (padded with zeros when widening, cut when narrowing); the caller
    /// sets the quiet bit.
    fn converted_nan(bz: &mut crate::bitwuzla::Bitwuzla, x: BzTerm, from: u8, to: u8) -> Result<BzTerm, SolverError> {
        let (from_fraction, to_fraction) = (Format::of_width(from).nan_layout().1, Format::of_width(to).nan_layout().1);
        let sign = bz.extract(x, from - 1, from - 1)?;
        let (head_width, head) = Format::of_width(to).nan_layout().0;
        let head = bz.bv_value(head_width, head)?;
        let top = bz.concat(sign, head)?;
        Ok(if to_fraction > from_fraction {
            let fraction = bz.extract(x, from_fraction - 1, 0)?;
            let pad = bz.bv_value(to_fraction - from_fraction, 0)?;
            let mid = bz.concat(top, fraction)?;
            bz.concat(mid, pad)?
        } else {
            let fraction = bz.extract(x, from_fraction - 1, from_fraction - to_fraction)?;
            bz.concat(top, fraction)?
        })
    }

    /// The definitions of every float result below the constraint `c` (already translated),
    /// conjoined onto `lit`; `lit` itself when `c` has no floats.
    pub(super) fn float_definitions(
        &mut self,
        store: &TermStore,
        c: TermId,
        lit: BzTerm,
    ) -> Result<BzTerm, SolverError> {
        if !store.has_float(c) {
            return Ok(lit);
        }
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![c];
        let mut out = lit;
        while let Some(t) = stack.pop() {
            if !seen.insert(t) || !store.has_float(t) {
                continue;
            }
            if let Some(&def) = self.float_defs.get(&t) {
                out = self.bz.and(out, def)?;
            }
            stack.extend_from_slice(store.children(t));
        }
        Ok(out)
    }
}

/// The most floating-point arithmetic a query may hold, in multiplications of `long double`
/// significands (64 x 64 bits; [`float_arithmetic_cost`]). Bit-blasting is where Bitwuzla's
/// memory goes, and it does not poll its termination callback there: a seq path condition with
/// 518 such multiplications and 388 additions grew to 4.7 GB before the memory limit could stop
/// it, and 62 and 106 of them (prefixes of that query, Bitwuzla 0.10) took 12 s at 250 MB and
/// 87 s at 550 MB.
pub(super) const MAX_FLOAT_ARITHMETIC: u64 = 256 * 64 * 64;

/// What the floating-point arithmetic of `roots` costs Bitwuzla to bit-blast, roughly: each
/// distinct multiplication, division, remainder, square root or fused multiply-add the square
/// of its significand's bits, an addition or subtraction an eighth of that (an adder and an
/// alignment shifter where a multiplier is a square array); the rest is small beside them, and
/// so is an operation on constants (Bitwuzla folds it). Stops counting above `limit`.
pub(super) fn float_arithmetic_cost(store: &TermStore, roots: impl IntoIterator<Item = TermId>, limit: u64) -> u64 {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack: Vec<TermId> = roots.into_iter().filter(|&t| store.has_float(t)).collect();
    let mut cost = 0u64;
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let d = store.data(t);
        if d.children().iter().all(|&c| store.data(c).op() == Op::Const) {
            continue;
        }
        let significand = |width: u8| u64::from(Format::of_width(width).sort_sizes().1);
        cost += match d.op() {
            Op::FArith => {
                let s = significand(d.width());
                match Arith::NODES[usize::from(d.aux())] {
                    Arith::Add | Arith::Sub => s * s / 8,
                    _ => s * s,
                }
            }
            Op::FSqrt | Op::FFma => significand(d.width()).pow(2),
            _ => 0,
        };
        if cost > limit {
            break;
        }
        stack.extend(d.children().iter().copied().filter(|&c| store.has_float(c)));
    }
    cost
}
