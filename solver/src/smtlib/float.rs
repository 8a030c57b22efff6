//! SMT-LIB text of the floating-point operators, the same encoding as the backend's
//! (`core/float.rs`): operands are `((_ to_fp e s) BITS)`, comparisons `ite`s of `fp.lt`..,
//! and a float result is `|fp!N|`, declared fresh, defined by `(or (fp.isNaN R) (= ((_ to_fp e
//! s) |fp!N|) R))`, with the x86 NaN rules around it; x87 values (80 bits) pass through
//! their 79-bit IEEE layout as in `bitwuzla/fp.rs`.

use super::constant_text;
use crate::float::{Arith, Format, Integral};
use crate::term::{Op, TermId, TermStore};

fn sizes(width: u8) -> (u8, u8) {
    Format::of_width(width).sort_sizes()
}

fn to_fp(width: u8, bits: &str) -> String {
    let (e, s) = sizes(width);
    if width == 80 {
        return format!("((_ to_fp {e} {s}) {})", x87_to_ieee(bits));
    }
    format!("((_ to_fp {e} {s}) {bits})")
}

/// The 79-bit IEEE-layout pattern of the x87 pattern `x` (see `bitwuzla/fp.rs`).
fn x87_to_ieee(x: &str) -> String {
    let exponent = format!("((_ extract 78 64) {x})");
    let exponent_zero = format!("(= {exponent} {})", constant_text(15, 0));
    let integer_set = format!("(= ((_ extract 63 63) {x}) #b1)");
    let fixed = format!("(ite (and {exponent_zero} {integer_set}) {} {exponent})", constant_text(15, 1));
    let ieee = format!("(concat (concat ((_ extract 79 79) {x}) {fixed}) ((_ extract 62 0) {x}))");
    let nan = constant_text(79, (0x7fff << 63) | 1 << 62);
    format!("(ite {} {nan} {ieee})", x87_unsupported(x))
}

/// Whether the x87 pattern `x` is an encoding the hardware rejects (see
/// [`crate::float::x87_unsupported`]): a nonzero exponent without the integer bit.
fn x87_unsupported(x: &str) -> String {
    format!("(and (not (= ((_ extract 78 64) {x}) {})) (= ((_ extract 63 63) {x}) #b0))", constant_text(15, 0))
}

/// The x87 pattern of the 79-bit IEEE-layout pattern `b`: the integer bit made explicit.
fn x87_from_ieee(b: &str) -> String {
    let integer = format!("(ite (= ((_ extract 77 63) {b}) {}) #b0 #b1)", constant_text(15, 0));
    format!("(concat (concat ((_ extract 78 63) {b}) {integer}) ((_ extract 62 0) {b}))")
}

/// The text of float node `t` on its operands' texts `a`, and for a float result the
/// declaration of its fresh bits and their definition.
pub(super) fn node_text(store: &TermStore, t: TermId, a: &[&str]) -> (String, Option<(String, String)>) {
    let d = store.data(t);
    let w = d.width();
    let cw = store.width(d.children()[0]);
    let fa: Vec<String> = a.iter().map(|x| to_fp(cw, x)).collect();
    let result = match d.op() {
        Op::FArith => {
            let f = match Arith::NODES[usize::from(d.aux())] {
                Arith::Add => "fp.add",
                Arith::Sub => "fp.sub",
                Arith::Mul => "fp.mul",
                _ => "fp.div",
            };
            format!("({f} RNE {} {})", fa[0], fa[1])
        }
        Op::FSqrt => format!("(fp.sqrt RNE {})", fa[0]),
        Op::FFma => format!("(fp.fma RNE {} {} {})", fa[0], fa[1], fa[2]),
        Op::FRound => {
            let rm = match Integral::NODES[usize::from(d.aux())] {
                Integral::Floor => "RTN",
                Integral::Ceil => "RTP",
                Integral::Trunc => "RTZ",
                Integral::HalfAway => "RNA",
                Integral::HalfEven => "RNE",
            };
            format!("(fp.roundToIntegral {rm} {})", fa[0])
        }
        Op::FLt => return (format!("(ite (fp.lt {} {}) #b1 #b0)", fa[0], fa[1]), None),
        Op::FLe => return (format!("(ite (fp.leq {} {}) #b1 #b0)", fa[0], fa[1]), None),
        Op::FEq => return (format!("(ite (fp.eq {} {}) #b1 #b0)", fa[0], fa[1]), None),
        Op::FIsNan => return (format!("(ite (fp.isNaN {}) #b1 #b0)", fa[0]), None),
        Op::FToSInt => return (format!("((_ fp.to_sbv {w}) RTZ {})", fa[0]), None),
        Op::FToUInt => return (format!("((_ fp.to_ubv {w}) RTZ {})", fa[0]), None),
        Op::FConvert => {
            let (e, s) = sizes(w);
            format!("((_ to_fp {e} {s}) RNE {})", fa[0])
        }
        Op::SIntToF | Op::UIntToF => {
            let (e, s) = sizes(w);
            let f = if d.op() == Op::SIntToF { "to_fp" } else { "to_fp_unsigned" };
            format!("((_ {f} {e} {s}) RNE {})", a[0])
        }
        other => unreachable!("{other:?} is not a floating-point operator"),
    };
    let fresh = format!("|fp!{}|", t.as_u32());
    let (bits, declaration, back) = if w == 80 {
        let (e, s) = sizes(w);
        let declaration = format!("(declare-fun {fresh} () (_ BitVec 79))");
        (x87_from_ieee(&fresh), declaration, format!("((_ to_fp {e} {s}) {fresh})"))
    } else {
        (fresh.clone(), format!("(declare-fun {fresh} () (_ BitVec {w}))"), to_fp(w, &fresh))
    };
    let definition = format!("(or (fp.isNaN {result}) (= {back} {result}))");
    let mut value = match d.op() {
        Op::FConvert | Op::SIntToF | Op::UIntToF => bits,
        _ => {
            let default = constant_text(w, Format::of_width(w).default_nan());
            format!("(ite (fp.isNaN {result}) {default} {bits})")
        }
    };
    if !matches!(d.op(), Op::SIntToF | Op::UIntToF) {
        let quiet = constant_text(w, Format::of_width(w).quiet_bit());
        for (x, fx) in a.iter().zip(&fa).rev() {
            let propagated = if d.op() == Op::FConvert { converted_nan(x, cw, w) } else { x.to_string() };
            value = format!("(ite (fp.isNaN {fx}) (bvor {propagated} {quiet}) {value})");
        }
        if w == 80 && a.len() == 2 {
            // x87: of two NaNs, the one with the larger significand.
            let larger = format!("(bvult ((_ extract 63 0) {}) ((_ extract 63 0) {}))", a[0], a[1]);
            let both = format!("(and (fp.isNaN {}) (fp.isNaN {}) {larger})", fa[0], fa[1]);
            value = format!("(ite {both} (bvor {} {quiet}) {value})", a[1]);
        }
        if cw == 80 {
            let default = constant_text(w, Format::of_width(w).default_nan());
            for x in a {
                value = format!("(ite {} {default} {value})", x87_unsupported(x));
            }
        }
    }
    (value, Some((declaration, definition)))
}

/// A NaN's bits in another format (see `core/float.rs`).
fn converted_nan(x: &str, from: u8, to: u8) -> String {
    let ((head_width, head), to_fraction) = Format::of_width(to).nan_layout();
    let from_fraction = Format::of_width(from).nan_layout().1;
    let (sign_bit, head) = (from - 1, constant_text(head_width, u128::from(head)));
    let top = format!("(concat ((_ extract {sign_bit} {sign_bit}) {x}) {head})");
    if to_fraction > from_fraction {
        let pad = to_fraction - from_fraction;
        format!("(concat (concat {top} ((_ extract {} 0) {x})) (_ bv0 {pad}))", from_fraction - 1)
    } else {
        format!("(concat {top} ((_ extract {} {}) {x}))", from_fraction - 1, from_fraction - to_fraction)
    }
}
