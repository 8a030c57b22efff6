//! SMT-LIB text of the floating-point operators, the same encoding as the backend's
//! (`core/float.rs`): operands are `((_ to_fp e s) BITS)`, comparisons `ite`s of `fp.lt`..,
//! and a float result is `|fp!N|`, declared fresh, defined by `(or (fp.isNaN R) (= ((_ to_fp e
//! s) |fp!N|) R))`, with the x86 NaN rules around it.

use super::constant_text;
use crate::float::{Arith, Format, Integral};
use crate::term::{Op, TermId, TermStore};

fn sizes(width: u8) -> (u8, u8) {
    Format::of_width(width).sort_sizes()
}

fn to_fp(width: u8, bits: &str) -> String {
    let (e, s) = sizes(width);
    format!("((_ to_fp {e} {s}) {bits})")
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
    let bits = format!("|fp!{}|", t.as_u32());
    let declaration = format!("(declare-fun {bits} () (_ BitVec {w}))");
    let definition = format!("(or (fp.isNaN {result}) (= {} {result}))", to_fp(w, &bits));
    let mut value = match d.op() {
        Op::FConvert | Op::SIntToF | Op::UIntToF => bits,
        _ => {
            let default = constant_text(w, Format::of_width(w).default_nan() as u64);
            format!("(ite (fp.isNaN {result}) {default} {bits})")
        }
    };
    if !matches!(d.op(), Op::SIntToF | Op::UIntToF) {
        let quiet = constant_text(w, Format::of_width(w).quiet_bit() as u64);
        for (x, fx) in a.iter().zip(&fa).rev() {
            let propagated = if d.op() == Op::FConvert { converted_nan(x, cw, w) } else { x.to_string() };
            value = format!("(ite (fp.isNaN {fx}) (bvor {propagated} {quiet}) {value})");
        }
    }
    (value, Some((declaration, definition)))
}

/// A NaN's bits in the other format (see `core/float.rs`).
fn converted_nan(x: &str, from: u8, to: u8) -> String {
    let sign = format!("((_ extract {} {}) {x})", from - 1, from - 1);
    if from == 32 && to == 64 {
        format!("(concat (concat (concat {sign} #b11111111111) ((_ extract 22 0) {x})) (_ bv0 29))")
    } else {
        format!("(concat (concat {sign} #xff) ((_ extract 51 29) {x}))")
    }
}
