//! The meaning of the floating-point instructions on concrete bits, for both interpreters:
//! the IR's operations mapped onto [`penumbra_solver::float`] (x86-64's arithmetic, bit-exact),
//! plus the one check C requires: a conversion to an integer type that cannot hold the value
//! is undefined (`float-cast-overflow`), reported before converting, as UBSan does natively.
//!
//! Values are `u128`s holding the bits of their type (an `f80`'s 80).

use super::stop::Fault;
use crate::error::ErrorKind;
use penumbra_ir::{FCastOp, FUnaryOp, FloatCC, FloatOp, Type};
use penumbra_solver::float::{self as fp, Arith, Format, Integral};

/// The solver's format of a floating-point IR type.
pub fn format(ty: Type) -> Format {
    match ty {
        Type::F32 => Format::F32,
        Type::F80 => Format::F80,
        _ => Format::F64,
    }
}

/// `op a, b` at the floating-point type `ty`.
pub fn binary(op: FloatOp, ty: Type, a: u128, b: u128) -> u128 {
    let f = format(ty);
    match op {
        FloatOp::Add => fp::arith(f, Arith::Add, a, b),
        FloatOp::Sub => fp::arith(f, Arith::Sub, a, b),
        FloatOp::Mul => fp::arith(f, Arith::Mul, a, b),
        FloatOp::Div => fp::arith(f, Arith::Div, a, b),
        FloatOp::Rem => fp::arith(f, Arith::Rem, a, b),
        FloatOp::Copysign => fp::copysign(f, a, b),
        FloatOp::Minnum => fp::min_max(f, false, a, b),
        FloatOp::Maxnum => fp::min_max(f, true, a, b),
    }
}

/// `op a` at the floating-point type `ty`.
pub fn unary(op: FUnaryOp, ty: Type, a: u128) -> u128 {
    let f = format(ty);
    match op {
        FUnaryOp::Neg => fp::neg(f, a),
        FUnaryOp::Abs => fp::abs(f, a),
        FUnaryOp::Sqrt => fp::sqrt(f, a),
        FUnaryOp::Floor => fp::round_integral(f, Integral::Floor, a),
        FUnaryOp::Ceil => fp::round_integral(f, Integral::Ceil, a),
        FUnaryOp::Trunc => fp::round_integral(f, Integral::Trunc, a),
        FUnaryOp::Round => fp::round_integral(f, Integral::HalfAway, a),
        FUnaryOp::RoundEven => fp::round_integral(f, Integral::HalfEven, a),
    }
}

/// `a * b + c` rounded once.
pub fn fma(ty: Type, a: u128, b: u128, c: u128) -> u128 {
    fp::fma(format(ty), a, b, c)
}

/// `fcmp cc a, b`.
pub fn compare(cc: FloatCC, ty: Type, a: u128, b: u128) -> bool {
    cc.holds(fp::compare(format(ty), a, b))
}

/// `op a` from type `from` to type `to`; `Err` for a conversion C leaves undefined.
pub fn cast(op: FCastOp, from: Type, to: Type, a: u128) -> Result<u128, Fault> {
    Ok(match op {
        FCastOp::Ext | FCastOp::Trunc => fp::convert(format(from), format(to), a),
        FCastOp::FromSi | FCastOp::FromUi => fp::from_int(format(to), a as u64, from.bits(), op == FCastOp::FromSi),
        FCastOp::ToSi | FCastOp::ToUi => {
            let signed = op == FCastOp::ToSi;
            match fp::to_int(format(from), a, to.bits(), signed) {
                Some(v) => u128::from(v),
                None => return Err(cast_overflow(from, to, signed, a)),
            }
        }
        FCastOp::Bitcast => a & to.mask128(),
    })
}

#[cold]
fn cast_overflow(from: Type, to: Type, signed: bool, a: u128) -> Fault {
    let kind = if signed { "a signed" } else { "an unsigned" };
    Fault::error(
        ErrorKind::FloatCastOverflow,
        format!("{} of type {from} is outside the range of {kind} {}-bit integer", show(from, a), to.bits()),
    )
}

/// A value for messages: `nan`, or the decimal printf's models print (the shortest that reads
/// back for a `float` or `double`, `%.21Lg` for a `long double`).
pub fn show(ty: Type, a: u128) -> String {
    let f = format(ty);
    if fp::is_nan(f, a) {
        return "nan".to_string();
    }
    match ty {
        Type::F80 => crate::libc::printf::long_double_text(a),
        _ => crate::libc::printf::shortest(f64::from_bits(fp::convert(f, Format::F64, a) as u64)),
    }
}
