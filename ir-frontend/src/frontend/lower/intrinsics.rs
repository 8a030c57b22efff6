//! LLVM intrinsics (`llvm.*` calls).
//! - Skipped (no code): `llvm.dbg.*`, `llvm.lifetime.*`, `llvm.stacksave/stackrestore` (stack
//!   objects live until return anyway), `llvm.assume` and other hints.
//! - Library calls: `llvm.memcpy/memmove/memset.*` call the C functions `memcpy`, `memmove`,
//!   `memset` (declared with their libc signatures; the `volatile` flag is dropped).
//! - Expanded into IR: `llvm.smax/smin/umax/umin/abs` (icmp + select), `llvm.bswap`,
//!   `llvm.ctpop/ctlz/cttz` (shifts and masks), `llvm.expect` and pointer annotations (the
//!   argument itself), `llvm.objectsize` ("unknown": -1, or 0 when asked for the minimum).
//! - `llvm.*.with.overflow` (an aggregate `{ result, overflowed }`, see [`super::aggregates`]),
//!   and `llvm.va_start/va_copy/va_end` (see [`super::varargs`]).
//! - `llvm.trap`: `unreachable`.
//! - Floating-point intrinsics: see [`super::float`].
//! - Everything else (`llvm.fshl`, `llvm.powi`, ...) is unsupported.

use super::calls::scalar_result;
use super::function::FnLower;
use super::types::{LResult, Unsup};
use super::widths::{int_bits, is_odd};
use crate::ir::{BinaryOp, IntCC, Type, Value};
use llvm_ir::instruction::Call;
use llvm_ir::{Constant, Type as LType};

/// Intrinsics that generate no code.
const SKIPPED: &[&str] = &[
    "llvm.dbg.",
    "llvm.lifetime.",
    "llvm.stacksave",
    "llvm.stackrestore",
    "llvm.assume",
    "llvm.experimental.noalias.scope.decl",
    "llvm.donothing",
    "llvm.sideeffect",
    "llvm.prefetch",
    "llvm.var.annotation",
    "llvm.codeview.annotation",
    "llvm.invariant.start",
    "llvm.invariant.end",
    "llvm.instrprof.",
    "llvm.pseudoprobe",
];

/// Intrinsics whose result is their first argument.
const IDENTITY: &[&str] =
    &["llvm.expect.", "llvm.ptr.annotation.", "llvm.launder.invariant.group", "llvm.strip.invariant.group"];

impl<'a, 'm> FnLower<'a, 'm> {
    pub(super) fn intrinsic(&mut self, name: &str, c: &'m Call, ret_ty: &LType) -> LResult<()> {
        // The expansions below compute on whole IR types; odd widths would need masking.
        let odd = |ty: &LType| int_bits(ty).is_some_and(is_odd);
        if odd(ret_ty) || c.arguments.iter().any(|(a, _)| odd(&self.cx.llvm.types.type_of(a))) {
            return Err(Unsup::msg(format!("LLVM intrinsic {name} on an odd-width integer")));
        }
        if name.contains(".with.overflow.") {
            return self.with_overflow(name, c);
        }
        let ret = scalar_result(ret_ty)?;
        if SKIPPED.iter().any(|p| name.starts_with(p)) {
            self.define_zero_result(c, ret);
            return Ok(());
        }
        let arg = |i: usize| intrinsic_arg(name, c, i);
        if IDENTITY.iter().any(|p| name.starts_with(p)) {
            let x = self.operand(arg(0)?)?;
            return self.define_result(c, x);
        }
        if name.starts_with("llvm.memcpy.") || name.starts_with("llvm.memmove.") {
            let f = if name.starts_with("llvm.memcpy.") { "memcpy" } else { "memmove" };
            let dst = self.operand(arg(0)?)?;
            let src = self.operand(arg(1)?)?;
            let len = self.operand(arg(2)?)?;
            return self.libc_memcpy(f, dst, src, len);
        }
        if name.starts_with("llvm.memset.") {
            let dst = self.operand(arg(0)?)?;
            let value = self.operand(arg(1)?)?;
            let len = self.operand(arg(2)?)?;
            return self.libc_memset(dst, value, len);
        }
        if name == "llvm.trap" || name == "llvm.debugtrap" || name == "llvm.ubsantrap" {
            self.b.unreachable();
            self.continue_in_fresh_block();
            return Ok(());
        }
        if name == "llvm.va_start" {
            return self.va_start(arg(0)?);
        }
        if name == "llvm.va_copy" {
            return self.va_copy(arg(0)?, arg(1)?);
        }
        if name == "llvm.va_end" {
            return Ok(());
        }
        let minmax = [
            ("llvm.smax.", IntCC::Sgt),
            ("llvm.smin.", IntCC::Slt),
            ("llvm.umax.", IntCC::Ugt),
            ("llvm.umin.", IntCC::Ult),
        ];
        if let Some(&(_, cc)) = minmax.iter().find(|(p, _)| name.starts_with(p)) {
            let a = self.operand(arg(0)?)?;
            let b = self.operand(arg(1)?)?;
            let pick_a = self.b.icmp(cc, a, b);
            let v = self.b.select(pick_a, a, b);
            return self.define_result(c, v);
        }
        if name.starts_with("llvm.abs.") {
            let x = self.operand(arg(0)?)?;
            let ty = self.b.body().value_type(x);
            let zero = self.b.iconst(ty, 0);
            let negative = self.b.icmp(IntCC::Slt, x, zero);
            let negated = self.b.binary(BinaryOp::Sub, zero, x);
            let v = self.b.select(negative, negated, x);
            return self.define_result(c, v);
        }
        if let Some(v) = self.float_intrinsic(name, c)? {
            return self.define_result(c, v);
        }
        if name.starts_with("llvm.objectsize.") {
            let ty = ret.ok_or_else(|| Unsup::msg("llvm.objectsize without a result"))?;
            let min = matches!(arg(1)?.as_constant(), Some(Constant::Int { value: 1, .. }));
            let v = self.b.iconst(ty, if min { 0 } else { u64::MAX });
            return self.define_result(c, v);
        }
        if name.starts_with("llvm.is.constant.") {
            let v = self.b.iconst(Type::I1, 0);
            return self.define_result(c, v);
        }
        type BitOp<'a, 'm> = fn(&mut FnLower<'a, 'm>, Value) -> Value;
        let bit_ops: [(&str, BitOp<'a, 'm>); 4] = [
            ("llvm.bswap.", Self::bswap),
            ("llvm.ctpop.", Self::ctpop),
            ("llvm.ctlz.", Self::ctlz),
            ("llvm.cttz.", Self::cttz),
        ];
        if let Some(&(_, op)) = bit_ops.iter().find(|(p, _)| name.starts_with(p)) {
            let x = self.operand(arg(0)?)?;
            let v = op(self, x);
            return self.define_result(c, v);
        }
        Err(Unsup::msg(format!("LLVM intrinsic {name}")))
    }

    /// `llvm.{s,u}{add,sub,mul}.with.overflow.iN(a, b)`: `{ a op b, overflowed }`.
    fn with_overflow(&mut self, name: &str, c: &'m Call) -> LResult<()> {
        let (Some((a, _)), Some((b, _)), Some(dest)) = (c.arguments.first(), c.arguments.get(1), &c.dest) else {
            return Err(Unsup::msg(format!("{name} with unexpected operands")));
        };
        let a = self.operand(a)?;
        let b = self.operand(b)?;
        let op = name.trim_start_matches("llvm.").split('.').next().unwrap_or("");
        let (result, overflow) = match op {
            "sadd" | "uadd" => {
                let r = self.b.binary(BinaryOp::Add, a, b);
                let o = if op == "uadd" {
                    self.b.icmp(IntCC::Ult, r, a)
                } else {
                    // Signed overflow: both operands differ in sign from the result.
                    let x = self.b.binary(BinaryOp::Xor, a, r);
                    let y = self.b.binary(BinaryOp::Xor, b, r);
                    let both = self.b.binary(BinaryOp::And, x, y);
                    self.is_negative(both)
                };
                (r, o)
            }
            "ssub" | "usub" => {
                let r = self.b.binary(BinaryOp::Sub, a, b);
                let o = if op == "usub" {
                    self.b.icmp(IntCC::Ult, a, b)
                } else {
                    // Signed overflow: the operands differ in sign and the result's sign is b's.
                    let x = self.b.binary(BinaryOp::Xor, a, b);
                    let y = self.b.binary(BinaryOp::Xor, a, r);
                    let both = self.b.binary(BinaryOp::And, x, y);
                    self.is_negative(both)
                };
                (r, o)
            }
            "umul" | "smul" => {
                let r = self.b.binary(BinaryOp::Mul, a, b);
                let o = self.mul_overflows(a, b, r, op == "smul");
                (r, o)
            }
            _ => return Err(Unsup::msg(format!("LLVM intrinsic {name}"))),
        };
        self.define_aggregate(dest, vec![result, overflow]);
        Ok(())
    }

    fn is_negative(&mut self, x: Value) -> Value {
        let ty = self.b.body().value_type(x);
        let zero = self.b.iconst(ty, 0);
        self.b.icmp(IntCC::Slt, x, zero)
    }

    /// Whether `r = a * b` (wrapped) lost information: `a != 0 && r / a != b`, with the
    /// divisor made safe (1) where the division itself would be an error, and for signed
    /// multiplication the one quotient that overflows (`a == -1, b == MIN`) checked apart.
    fn mul_overflows(&mut self, a: Value, b: Value, r: Value, signed: bool) -> Value {
        let ty = self.b.body().value_type(a);
        let zero = self.b.iconst(ty, 0);
        let one = self.b.iconst(ty, 1);
        let minus_one = self.b.iconst(ty, u64::MAX);
        let a_zero = self.b.icmp(IntCC::Eq, a, zero);
        let a_nonzero = self.b.icmp(IntCC::Ne, a, zero);
        if !signed {
            let divisor = self.b.select(a_zero, one, a);
            let q = self.b.binary(BinaryOp::UDiv, r, divisor);
            let differs = self.b.icmp(IntCC::Ne, q, b);
            return self.b.binary(BinaryOp::And, a_nonzero, differs);
        }
        let a_minus_one = self.b.icmp(IntCC::Eq, a, minus_one);
        let unsafe_divisor = self.b.binary(BinaryOp::Or, a_zero, a_minus_one);
        let divisor = self.b.select(unsafe_divisor, one, a);
        let q = self.b.binary(BinaryOp::SDiv, r, divisor);
        let differs = self.b.icmp(IntCC::Ne, q, b);
        let ordinary = self.b.binary(BinaryOp::And, a_nonzero, differs);
        let no = self.b.iconst(Type::I1, 0);
        let ordinary = self.b.select(a_minus_one, no, ordinary);
        let min = self.b.iconst(ty, 1u64 << (ty.bits() - 1));
        let b_min = self.b.icmp(IntCC::Eq, b, min);
        let negated_min = self.b.binary(BinaryOp::And, a_minus_one, b_min);
        self.b.binary(BinaryOp::Or, ordinary, negated_min)
    }

    fn define_result(&mut self, c: &'m Call, v: Value) -> LResult<()> {
        if let Some(dest) = &c.dest {
            self.define(dest, v);
        }
        Ok(())
    }

    fn shift(&mut self, op: BinaryOp, x: Value, amount: u32) -> Value {
        let ty = self.b.body().value_type(x);
        let k = self.b.iconst(ty, u64::from(amount));
        self.b.binary(op, x, k)
    }

    fn and_const(&mut self, x: Value, mask: u64) -> Value {
        let ty = self.b.body().value_type(x);
        let k = self.b.iconst(ty, mask);
        self.b.binary(BinaryOp::And, x, k)
    }

    /// Byte swap: byte `k` moves to byte `n - 1 - k`.
    fn bswap(&mut self, x: Value) -> Value {
        let ty = self.b.body().value_type(x);
        let n = ty.bytes();
        if n < 2 {
            return x;
        }
        let mut acc: Option<Value> = None;
        for k in 0..n {
            let byte = self.shift(BinaryOp::LShr, x, 8 * k);
            let byte = self.and_const(byte, 0xff);
            let moved = self.shift(BinaryOp::Shl, byte, 8 * (n - 1 - k));
            acc = Some(match acc {
                None => moved,
                Some(a) => self.b.binary(BinaryOp::Or, a, moved),
            });
        }
        acc.unwrap_or(x)
    }

    /// Population count by the classic SWAR reduction.
    fn ctpop(&mut self, x: Value) -> Value {
        let ty = self.b.body().value_type(x);
        let w = ty.bits();
        if w == 1 {
            return x;
        }
        let pattern = |byte: u64| byte.wrapping_mul(0x0101_0101_0101_0101);
        let half = self.shift(BinaryOp::LShr, x, 1);
        let half = self.and_const(half, pattern(0x55));
        let x = self.b.binary(BinaryOp::Sub, x, half);
        let lo = self.and_const(x, pattern(0x33));
        let hi = self.shift(BinaryOp::LShr, x, 2);
        let hi = self.and_const(hi, pattern(0x33));
        let x = self.b.binary(BinaryOp::Add, lo, hi);
        let hi = self.shift(BinaryOp::LShr, x, 4);
        let x = self.b.binary(BinaryOp::Add, x, hi);
        let x = self.and_const(x, pattern(0x0f));
        if w == 8 {
            return x;
        }
        let ones = self.b.iconst(ty, pattern(0x01));
        let x = self.b.binary(BinaryOp::Mul, x, ones);
        self.shift(BinaryOp::LShr, x, w - 8)
    }

    /// Leading zeros: smear the highest set bit rightwards, count the zeros left.
    fn ctlz(&mut self, x: Value) -> Value {
        let ty = self.b.body().value_type(x);
        let w = ty.bits();
        let all = self.b.iconst(ty, u64::MAX);
        if w == 1 {
            return self.b.binary(BinaryOp::Xor, x, all);
        }
        let mut x = x;
        let mut s = 1;
        while s < w {
            let shifted = self.shift(BinaryOp::LShr, x, s);
            x = self.b.binary(BinaryOp::Or, x, shifted);
            s *= 2;
        }
        let zeros = self.b.binary(BinaryOp::Xor, x, all);
        self.ctpop(zeros)
    }

    /// Trailing zeros: the bits below the lowest set bit are `!x & (x - 1)`.
    fn cttz(&mut self, x: Value) -> Value {
        let ty = self.b.body().value_type(x);
        let all = self.b.iconst(ty, u64::MAX);
        if ty.bits() == 1 {
            return self.b.binary(BinaryOp::Xor, x, all);
        }
        let one = self.b.iconst(ty, 1);
        let not_x = self.b.binary(BinaryOp::Xor, x, all);
        let below = self.b.binary(BinaryOp::Sub, x, one);
        let bits = self.b.binary(BinaryOp::And, not_x, below);
        self.ctpop(bits)
    }
}

/// Argument `i` of the intrinsic call `c` (of `name`); a call with fewer is unsupported.
pub(super) fn intrinsic_arg<'m>(name: &str, c: &'m Call, i: usize) -> LResult<&'m llvm_ir::Operand> {
    let n = c.arguments.len();
    c.arguments.get(i).map(|(a, _)| a).ok_or_else(|| Unsup::msg(format!("{name} with {n} arguments")))
}
