//! The meaning of the pure instructions on concrete bitvectors: binary operations, comparisons
//! and casts. Values are `u64`s holding the bits of their type, zero-extended (every register
//! keeps that invariant).
//!
//! Arithmetic wraps at the width (`-fwrapv`). The cases C leaves undefined even then are
//! errors, checked before computing, as the contract requires of both engines: a zero divisor
//! (`division-by-zero`), `INT_MIN / -1` and `INT_MIN % -1` at the operand width
//! (`signed-division-overflow`), a shift by the width or more (`shift-out-of-range`).
//! Division and remainder truncate toward zero; the remainder has the dividend's sign.

use super::stop::Fault;
use crate::error::ErrorKind;
use penumbra_ir::{BinaryOp, CastOp, IntCC, Type};

/// `op a, b` at type `ty`.
#[inline]
pub fn binary(op: BinaryOp, ty: Type, a: u64, b: u64) -> Result<u64, Fault> {
    let mask = ty.mask();
    let r = match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::UDiv | BinaryOp::URem => {
            if b == 0 {
                return Err(division_by_zero(op, ty, a, false));
            }
            if op == BinaryOp::UDiv {
                a / b
            } else {
                a % b
            }
        }
        BinaryOp::SDiv | BinaryOp::SRem => {
            if b == 0 {
                return Err(division_by_zero(op, ty, a, true));
            }
            let (sa, sb) = (ty.sign_extend(a), ty.sign_extend(b));
            if b == mask && a == 1 << (ty.bits() - 1) {
                let sym = if op == BinaryOp::SDiv { '/' } else { '%' };
                return Err(Fault::error(
                    ErrorKind::SignedDivisionOverflow,
                    format!("{sa} {sym} -1 overflows {ty} ({})", op.name()),
                ));
            }
            // At widths below 64 the quotient fits; at 64, INT64_MIN / -1 was excluded above.
            if op == BinaryOp::SDiv {
                (sa / sb) as u64
            } else {
                (sa % sb) as u64
            }
        }
        BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr => {
            if b >= u64::from(ty.bits()) {
                return Err(Fault::error(
                    ErrorKind::ShiftOutOfRange,
                    format!("{} by {b} bits of a {}-bit value", op.name(), ty.bits()),
                ));
            }
            match op {
                BinaryOp::Shl => a << b,
                BinaryOp::LShr => a >> b,
                _ => (ty.sign_extend(a) >> b) as u64,
            }
        }
    };
    Ok(r & mask)
}

#[cold]
fn division_by_zero(op: BinaryOp, ty: Type, a: u64, signed: bool) -> Fault {
    let what = if matches!(op, BinaryOp::UDiv | BinaryOp::SDiv) { "division" } else { "remainder" };
    let dividend = if signed { ty.sign_extend(a).to_string() } else { a.to_string() };
    Fault::error(ErrorKind::DivisionByZero, format!("{what} of {dividend} by zero ({} {ty})", op.name()))
}

/// `icmp cc a, b` at type `ty`.
#[inline]
pub fn icmp(cc: IntCC, ty: Type, a: u64, b: u64) -> bool {
    let (sa, sb) = (ty.sign_extend(a), ty.sign_extend(b));
    match cc {
        IntCC::Eq => a == b,
        IntCC::Ne => a != b,
        IntCC::Ult => a < b,
        IntCC::Ule => a <= b,
        IntCC::Ugt => a > b,
        IntCC::Uge => a >= b,
        IntCC::Slt => sa < sb,
        IntCC::Sle => sa <= sb,
        IntCC::Sgt => sa > sb,
        IntCC::Sge => sa >= sb,
    }
}

/// `op v` from type `from` to type `to`.
#[inline]
pub fn cast(op: CastOp, from: Type, to: Type, v: u64) -> u64 {
    match op {
        CastOp::Zext => v & from.mask(),
        CastOp::Sext => from.sign_extend(v) as u64 & to.mask(),
        CastOp::Trunc => v & to.mask(),
    }
}

#[cfg(test)]
mod tests;
