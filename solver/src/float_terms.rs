//! Constructors of floating-point terms. A float is a bitvector term holding the bits of an
//! IEEE binary32 (width 32) or binary64 (width 64) value, or of an x87 `long double` (width
//! 80: sign, 15-bit exponent, explicit integer bit, 63-bit fraction; a *wide* term), so floats
//! live in memory, registers and shadow pairs like any other value; the `F*` operators
//! interpret those bits (see [`crate::float`] for their exact, x86-64 meaning). Every
//! constructor folds constant operands through [`crate::float::apply_node`], the function the
//! evaluator uses, so folding and evaluation cannot disagree.
//!
//! # Panics
//! On ill-sorted operands (a float width other than 32, 64 or 80, mismatched widths): bugs in
//! the caller, as for the bitvector constructors.

use crate::float::{apply_node, Arith, Integral};
use crate::term::{check_width, Op, TermId, TermStore};

fn check_float_width(what: &str, w: u8) {
    assert!(matches!(w, 32 | 64 | 80), "{what}: a float is 32, 64 or 80 bits, not {w}");
}

impl TermStore {
    /// Interns a floating-point node, folded when every child is a constant (also how
    /// [`TermStore::rebuild`] rebuilds one).
    pub(crate) fn float_node(&mut self, op: Op, width: u8, aux: u8, children: &[TermId]) -> TermId {
        let mut values = [0u128; 3];
        let mut all_const = true;
        for (slot, &c) in values.iter_mut().zip(children) {
            match self.as_const_wide(c) {
                Some(v) => *slot = v,
                None => all_const = false,
            }
        }
        if all_const {
            let cw = self.width(children[0]);
            return self.mk_const_wide(width, apply_node(op, aux, width, cw, values));
        }
        self.mk_node(op, width, aux, children)
    }

    /// `a op b` on floats (`op` one of [`Arith::NODES`]).
    pub fn fp_arith(&mut self, op: Arith, a: TermId, b: TermId) -> TermId {
        let w = self.width(a);
        check_float_width("fp_arith", w);
        assert_eq!(w, self.width(b), "fp_arith: operand widths differ");
        let aux = Arith::NODES.iter().position(|&o| o == op).expect("fmod has no term: fold it or refuse it");
        self.float_node(Op::FArith, w, aux as u8, &[a, b])
    }

    /// The square root of a float.
    pub fn fp_sqrt(&mut self, a: TermId) -> TermId {
        let w = self.width(a);
        check_float_width("fp_sqrt", w);
        self.float_node(Op::FSqrt, w, 0, &[a])
    }

    /// `a * b + c` on floats (32 or 64 bits), rounded once.
    pub fn fp_fma(&mut self, a: TermId, b: TermId, c: TermId) -> TermId {
        let w = self.width(a);
        assert!(matches!(w, 32 | 64), "fp_fma: a fused multiply-add of {w}-bit floats");
        assert!(self.width(b) == w && self.width(c) == w, "fp_fma: operand widths differ");
        self.float_node(Op::FFma, w, 0, &[a, b, c])
    }

    /// A float rounded to an integral value.
    pub fn fp_round(&mut self, mode: Integral, a: TermId) -> TermId {
        let w = self.width(a);
        check_float_width("fp_round", w);
        let aux = Integral::NODES.iter().position(|&m| m == mode).expect("every direction has a node");
        self.float_node(Op::FRound, w, aux as u8, &[a])
    }

    /// `a < b` on floats (false with a NaN).
    pub fn fp_lt(&mut self, a: TermId, b: TermId) -> TermId {
        self.fp_compare(Op::FLt, a, b)
    }

    /// `a <= b` on floats (false with a NaN).
    pub fn fp_le(&mut self, a: TermId, b: TermId) -> TermId {
        self.fp_compare(Op::FLe, a, b)
    }

    /// `a == b` on floats (false with a NaN, true for `-0 == +0`).
    pub fn fp_eq(&mut self, a: TermId, b: TermId) -> TermId {
        self.fp_compare(Op::FEq, a, b)
    }

    fn fp_compare(&mut self, op: Op, a: TermId, b: TermId) -> TermId {
        let w = self.width(a);
        check_float_width("fp comparison", w);
        assert_eq!(w, self.width(b), "fp comparison: operand widths differ");
        self.float_node(op, 1, 0, &[a, b])
    }

    /// Whether a float is NaN.
    pub fn fp_is_nan(&mut self, a: TermId) -> TermId {
        check_float_width("fp_is_nan", self.width(a));
        self.float_node(Op::FIsNan, 1, 0, &[a])
    }

    /// A float converted to the format of `width` bits (32, 64 or 80).
    pub fn fp_convert(&mut self, a: TermId, width: u8) -> TermId {
        let from = self.width(a);
        check_float_width("fp_convert", from);
        check_float_width("fp_convert", width);
        if from == width {
            return a;
        }
        self.float_node(Op::FConvert, width, 0, &[a])
    }

    /// A float truncated toward zero to an integer of `width` bits.
    pub fn fp_to_int(&mut self, a: TermId, width: u8, signed: bool) -> TermId {
        check_float_width("fp_to_int", self.width(a));
        check_width(width);
        let op = if signed { Op::FToSInt } else { Op::FToUInt };
        self.float_node(op, width, 0, &[a])
    }

    /// An integer converted to a float of `width` bits, rounded.
    pub fn int_to_fp(&mut self, a: TermId, width: u8, signed: bool) -> TermId {
        check_float_width("int_to_fp", width);
        let op = if signed { Op::SIntToF } else { Op::UIntToF };
        self.float_node(op, width, 0, &[a])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::eval;

    #[test]
    fn constants_fold_and_symbolic_operands_build_nodes() {
        let mut s = TermStore::default();
        let half = s.constant(64, 0.5f64.to_bits());
        let two = s.constant(64, 2.0f64.to_bits());
        let one = s.fp_arith(Arith::Mul, half, two);
        assert_eq!(s.as_const(one), Some(1.0f64.to_bits()));
        let x = s.new_var("x", 64);
        let xt = s.var(x);
        let product = s.fp_arith(Arith::Mul, xt, half);
        let quotient = s.fp_arith(Arith::Div, xt, two);
        assert!(s.has_float(product) && !s.has_float(xt));
        let lt = s.fp_lt(product, one);
        for v in [3.0f64, -0.0, f64::NAN, 1e-310, f64::INFINITY] {
            let m = |_| v.to_bits();
            assert_eq!(eval(&s, product, &m), eval(&s, quotient, &m), "{v}");
            assert_eq!(eval(&s, lt, &m), u64::from(v * 0.5 < 1.0), "{v}");
        }
        let f = s.fp_convert(xt, 32);
        assert_eq!(eval(&s, f, &|_| 0.1f64.to_bits()), u64::from(0.1f32.to_bits()));
        let i = s.fp_to_int(xt, 32, true);
        assert_eq!(eval(&s, i, &|_| (-7.9f64).to_bits()), (-7i32) as u32 as u64);
        let byte = s.new_var("b", 8);
        let bt = s.var(byte);
        let back = s.int_to_fp(bt, 64, true);
        assert_eq!(eval(&s, back, &|_| 0x80), (-128.0f64).to_bits());
    }
}
