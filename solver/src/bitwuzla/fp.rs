//! Bitwuzla's floating-point theory (SMT-LIB `FloatingPoint`), for the float term operators:
//! IEEE binary32 and binary64 sorts and x87 extended precision (`FloatingPoint 15 64`),
//! conversions from their bit patterns, arithmetic with a rounding mode, comparisons and
//! classification, and the conversions to and from integers. As in the rest of the wrapper,
//! operand sorts are checked here so that Bitwuzla never aborts.
//!
//! The x87 format stores its integer bit, which SMT-LIB's sort leaves implicit: an 80-bit
//! pattern becomes the 79-bit IEEE-style pattern of the same value, the way the hardware (and
//! `rustc_apfloat`) reads it: a zero exponent with the integer bit set (a pseudo-denormal) is
//! exponent 1, and a nonzero exponent without it (unnormals, pseudo-infinities, pseudo-NaNs)
//! is a NaN. Back, the integer bit is 1 exactly when the exponent is nonzero.

use super::{err, Bitwuzla, BzError, BzTerm};
use crate::float::Format;
use bitwuzla_sys as sys;

/// Exponent and significand sizes (the latter with the hidden bit) of the IEEE format of
/// `width` bits.
fn sizes(width: u8) -> Result<(u64, u64), BzError> {
    match width {
        32 | 64 | 80 => {
            let (e, s) = Format::of_width(width).sort_sizes();
            Ok((u64::from(e), u64::from(s)))
        }
        w => err(format!("no floating-point format of {w} bits")),
    }
}

/// Rounding modes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FpRound {
    NearestEven,
    NearestAway,
    Down,
    Up,
    Zero,
}

/// Arithmetic operators (rounding to nearest even).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FpBinary {
    Add,
    Sub,
    Mul,
    Div,
}

/// Comparisons of two floats (Boolean result): IEEE `<`, `<=`, `==` (false with a NaN,
/// `-0 == +0`), and `Same`, SMT-LIB's `=` (identity: one NaN, `-0 != +0`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FpCompare {
    Lt,
    Le,
    Eq,
    Same,
}

impl Bitwuzla {
    fn rounding(&mut self, mode: FpRound) -> sys::BitwuzlaTerm {
        let rm = match mode {
            FpRound::NearestEven => sys::BITWUZLA_RM_RNE,
            FpRound::NearestAway => sys::BITWUZLA_RM_RNA,
            FpRound::Down => sys::BITWUZLA_RM_RTN,
            FpRound::Up => sys::BITWUZLA_RM_RTP,
            FpRound::Zero => sys::BITWUZLA_RM_RTZ,
        };
        // SAFETY: a rounding-mode value of our term manager.
        unsafe { sys::bitwuzla_mk_rm_value(self.tm.as_ptr(), rm) }
    }

    fn need_fp(what: &str, t: BzTerm) -> Result<(), BzError> {
        if !t.float {
            return err(format!("{what}: a bitvector or Boolean operand where a float is required"));
        }
        Ok(())
    }

    fn fp(raw: sys::BitwuzlaTerm, width: u8) -> BzTerm {
        BzTerm { raw, width, float: true }
    }

    /// The float whose bit pattern is the bitvector `bits` (IEEE binary32 or binary64, or an
    /// x87 extended value of 80 bits).
    pub fn fp_from_bits(&mut self, bits: BzTerm) -> Result<BzTerm, BzError> {
        Self::need_bv("fp_from_bits", bits)?;
        if bits.width == 80 {
            let ieee = self.x87_to_ieee(bits)?;
            return self.fp_from_ieee(ieee, 80);
        }
        self.fp_from_ieee(bits, bits.width)
    }

    /// The float of format `width` whose IEEE-layout pattern (`e + s - 1` bits, no stored
    /// integer bit) is `bits`.
    fn fp_from_ieee(&mut self, bits: BzTerm, width: u8) -> Result<BzTerm, BzError> {
        let (e, s) = sizes(width)?;
        if u64::from(bits.width) != e + s {
            return err(format!("fp_from_ieee: {} bits for a {width}-bit float", bits.width));
        }
        // SAFETY: a bitvector of exactly e + s bits, as the indices say.
        let raw = unsafe {
            sys::bitwuzla_mk_term1_indexed2(self.tm.as_ptr(), sys::BITWUZLA_KIND_FP_TO_FP_FROM_BV, bits.raw, e, s)
        };
        Ok(Self::fp(raw, width))
    }

    /// The 79-bit IEEE-layout pattern of the x87 pattern `x` (see the module documentation).
    fn x87_to_ieee(&mut self, x: BzTerm) -> Result<BzTerm, BzError> {
        let sign = self.extract(x, 79, 79)?;
        let exponent = self.extract(x, 78, 64)?;
        let integer = self.extract(x, 63, 63)?;
        let fraction = self.extract(x, 62, 0)?;
        let (zero15, one15, one1) = (self.bv_value(15, 0)?, self.bv_value(15, 1)?, self.bv_value(1, 1)?);
        let exponent_zero = self.compare(super::BvCompare::Eq, exponent, zero15)?;
        let integer_set = self.compare(super::BvCompare::Eq, integer, one1)?;
        let pseudo_denormal = self.and(exponent_zero, integer_set)?;
        let exponent = self.ite(pseudo_denormal, one15, exponent)?;
        let top = self.concat(sign, exponent)?;
        let ieee = self.concat(top, fraction)?;
        let unsupported = self.x87_unsupported(x)?;
        let nan = self.bv_value_wide(79, (0x7fff << 63) | 1 << 62)?;
        self.ite(unsupported, nan, ieee)
    }

    /// Whether the x87 pattern `x` is an encoding the hardware rejects (Boolean): a nonzero
    /// exponent without the integer bit ([`crate::float::x87_unsupported`]).
    pub fn x87_unsupported(&mut self, x: BzTerm) -> Result<BzTerm, BzError> {
        let exponent = self.extract(x, 78, 64)?;
        let integer = self.extract(x, 63, 63)?;
        let (zero15, zero1) = (self.bv_value(15, 0)?, self.bv_value(1, 0)?);
        let exponent_zero = self.compare(super::BvCompare::Eq, exponent, zero15)?;
        let integer_clear = self.compare(super::BvCompare::Eq, integer, zero1)?;
        let exponent_set = self.not(exponent_zero)?;
        self.and(exponent_set, integer_clear)
    }

    /// The x87 pattern of the 79-bit IEEE-layout pattern `ieee`: the integer bit made explicit.
    fn x87_from_ieee(&mut self, ieee: BzTerm) -> Result<BzTerm, BzError> {
        let top = self.extract(ieee, 78, 63)?;
        let exponent = self.extract(ieee, 77, 63)?;
        let fraction = self.extract(ieee, 62, 0)?;
        let zero15 = self.bv_value(15, 0)?;
        let exponent_zero = self.compare(super::BvCompare::Eq, exponent, zero15)?;
        let (zero1, one1) = (self.bv_value(1, 0)?, self.bv_value(1, 1)?);
        let integer = self.ite(exponent_zero, zero1, one1)?;
        let hi = self.concat(top, integer)?;
        self.concat(hi, fraction)
    }

    /// Fresh bits `symbol` for a float result of format `width`: the bit pattern (`width` bits)
    /// and the float it denotes. For x87 the fresh constant is the 79-bit IEEE-layout pattern,
    /// so that every float has exactly one pattern (the integer bit follows from it).
    pub fn fp_fresh(&mut self, width: u8, symbol: &str) -> Result<(BzTerm, BzTerm), BzError> {
        if width == 80 {
            let ieee = self.bv_const(79, symbol)?;
            let float = self.fp_from_ieee(ieee, 80)?;
            return Ok((self.x87_from_ieee(ieee)?, float));
        }
        let bits = self.bv_const(width, symbol)?;
        Ok((bits, self.fp_from_bits(bits)?))
    }

    /// `a op b`, rounded to nearest even.
    pub fn fp_binary(&mut self, op: FpBinary, a: BzTerm, b: BzTerm) -> Result<BzTerm, BzError> {
        Self::need_fp("fp_binary", a)?;
        Self::need_fp("fp_binary", b)?;
        if a.width != b.width {
            return err("fp_binary: formats differ");
        }
        let kind = match op {
            FpBinary::Add => sys::BITWUZLA_KIND_FP_ADD,
            FpBinary::Sub => sys::BITWUZLA_KIND_FP_SUB,
            FpBinary::Mul => sys::BITWUZLA_KIND_FP_MUL,
            FpBinary::Div => sys::BITWUZLA_KIND_FP_DIV,
        };
        let rm = self.rounding(FpRound::NearestEven);
        // SAFETY: a rounding mode and two floats of one sort.
        let raw = unsafe { sys::bitwuzla_mk_term3(self.tm.as_ptr(), kind, rm, a.raw, b.raw) };
        Ok(Self::fp(raw, a.width))
    }

    /// `a * b + c`, rounded once to nearest even.
    pub fn fp_fma(&mut self, a: BzTerm, b: BzTerm, c: BzTerm) -> Result<BzTerm, BzError> {
        for x in [a, b, c] {
            Self::need_fp("fp_fma", x)?;
        }
        if a.width != b.width || a.width != c.width {
            return err("fp_fma: formats differ");
        }
        let mut args = [self.rounding(FpRound::NearestEven), a.raw, b.raw, c.raw];
        // SAFETY: a rounding mode and three floats of one sort, four arguments as `argc` says.
        let raw = unsafe { sys::bitwuzla_mk_term(self.tm.as_ptr(), sys::BITWUZLA_KIND_FP_FMA, 4, args.as_mut_ptr()) };
        Ok(Self::fp(raw, a.width))
    }

    /// The square root (rounded to nearest even), or with `integral` the value rounded to an
    /// integral float in the direction `mode`.
    pub fn fp_unary(&mut self, a: BzTerm, integral: Option<FpRound>) -> Result<BzTerm, BzError> {
        Self::need_fp("fp_unary", a)?;
        let (kind, rm) = match integral {
            None => (sys::BITWUZLA_KIND_FP_SQRT, self.rounding(FpRound::NearestEven)),
            Some(mode) => (sys::BITWUZLA_KIND_FP_RTI, self.rounding(mode)),
        };
        // SAFETY: a rounding mode and a float.
        let raw = unsafe { sys::bitwuzla_mk_term2(self.tm.as_ptr(), kind, rm, a.raw) };
        Ok(Self::fp(raw, a.width))
    }

    /// A comparison of two floats of one format (Boolean).
    pub fn fp_compare(&mut self, op: FpCompare, a: BzTerm, b: BzTerm) -> Result<BzTerm, BzError> {
        Self::need_fp("fp_compare", a)?;
        Self::need_fp("fp_compare", b)?;
        if a.width != b.width {
            return err("fp_compare: formats differ");
        }
        let kind = match op {
            FpCompare::Lt => sys::BITWUZLA_KIND_FP_LT,
            FpCompare::Le => sys::BITWUZLA_KIND_FP_LEQ,
            FpCompare::Eq => sys::BITWUZLA_KIND_FP_EQUAL,
            FpCompare::Same => sys::BITWUZLA_KIND_EQUAL,
        };
        Ok(self.mk2(kind, a, b, 0))
    }

    /// Whether a float is NaN (Boolean).
    pub fn fp_is_nan(&mut self, a: BzTerm) -> Result<BzTerm, BzError> {
        Self::need_fp("fp_is_nan", a)?;
        Ok(self.mk1(sys::BITWUZLA_KIND_FP_IS_NAN, a, 0))
    }

    /// A float converted to the format of `width` bits, rounded to nearest even.
    pub fn fp_convert(&mut self, a: BzTerm, width: u8) -> Result<BzTerm, BzError> {
        Self::need_fp("fp_convert", a)?;
        let (e, s) = sizes(width)?;
        let rm = self.rounding(FpRound::NearestEven);
        // SAFETY: a rounding mode and a float; valid format sizes.
        let raw = unsafe {
            sys::bitwuzla_mk_term2_indexed2(self.tm.as_ptr(), sys::BITWUZLA_KIND_FP_TO_FP_FROM_FP, rm, a.raw, e, s)
        };
        Ok(Self::fp(raw, width))
    }

    /// A float truncated toward zero to a `width`-bit integer (unspecified out of range).
    pub fn fp_to_int(&mut self, a: BzTerm, width: u8, signed: bool) -> Result<BzTerm, BzError> {
        Self::need_fp("fp_to_int", a)?;
        if !(1..=64).contains(&width) {
            return err(format!("fp_to_int: {width}-bit integer"));
        }
        let kind = if signed { sys::BITWUZLA_KIND_FP_TO_SBV } else { sys::BITWUZLA_KIND_FP_TO_UBV };
        let rm = self.rounding(FpRound::Zero);
        // SAFETY: a rounding mode, a float and a positive width.
        let raw = unsafe { sys::bitwuzla_mk_term2_indexed1(self.tm.as_ptr(), kind, rm, a.raw, u64::from(width)) };
        Ok(BzTerm { raw, width, float: false })
    }

    /// An integer (bitvector, signed or not) converted to the float format of `width` bits.
    pub fn fp_from_int(&mut self, a: BzTerm, width: u8, signed: bool) -> Result<BzTerm, BzError> {
        Self::need_bv("fp_from_int", a)?;
        let (e, s) = sizes(width)?;
        let kind = if signed { sys::BITWUZLA_KIND_FP_TO_FP_FROM_SBV } else { sys::BITWUZLA_KIND_FP_TO_FP_FROM_UBV };
        let rm = self.rounding(FpRound::NearestEven);
        // SAFETY: a rounding mode and a bitvector; valid format sizes.
        let raw = unsafe { sys::bitwuzla_mk_term2_indexed2(self.tm.as_ptr(), kind, rm, a.raw, e, s) };
        Ok(Self::fp(raw, width))
    }

    /// Boolean disjunction.
    pub fn or(&mut self, a: BzTerm, b: BzTerm) -> Result<BzTerm, BzError> {
        if !a.is_bool() || !b.is_bool() {
            return err("or of non-Boolean operands");
        }
        Ok(self.mk2(sys::BITWUZLA_KIND_OR, a, b, 0))
    }

    /// Boolean negation.
    pub fn not(&mut self, a: BzTerm) -> Result<BzTerm, BzError> {
        if !a.is_bool() {
            return err("not of a non-Boolean operand");
        }
        Ok(self.mk1(sys::BITWUZLA_KIND_NOT, a, 0))
    }

    /// Boolean conjunction.
    pub fn and(&mut self, a: BzTerm, b: BzTerm) -> Result<BzTerm, BzError> {
        if !a.is_bool() || !b.is_bool() {
            return err("and of non-Boolean operands");
        }
        Ok(self.mk2(sys::BITWUZLA_KIND_AND, a, b, 0))
    }
}
