//! Edge values of every binary operation, comparison and cast, at every width.

use super::*;
use penumbra_ir::Type::{I1, I16, I32, I64, I8};

fn ok(op: BinaryOp, ty: Type, a: i64, b: i64) -> i64 {
    let r = binary(op, ty, a as u64 & ty.mask(), b as u64 & ty.mask()).expect("no fault");
    assert_eq!(r & !ty.mask(), 0, "result of {op:?} not masked to {ty}");
    ty.sign_extend(r)
}

fn fault(op: BinaryOp, ty: Type, a: i64, b: i64) -> ErrorKind {
    match binary(op, ty, a as u64 & ty.mask(), b as u64 & ty.mask()) {
        Err(Fault::Error(kind, _)) => kind,
        other => panic!("{op:?} {a} {b} at {ty}: expected an error, got {other:?}"),
    }
}

#[test]
fn addition_subtraction_and_multiplication_wrap_at_the_width() {
    use BinaryOp::*;
    assert_eq!(ok(Add, I8, 127, 1), -128);
    assert_eq!(ok(Add, I16, 0x7fff, 1), -0x8000);
    assert_eq!(ok(Add, I32, i32::MAX as i64, 1), i32::MIN as i64);
    assert_eq!(ok(Add, I64, i64::MAX, 1), i64::MIN);
    assert_eq!(ok(Add, I1, 1, 1), 0);
    assert_eq!(ok(Sub, I8, -128, 1), 127);
    assert_eq!(ok(Sub, I32, 0, 1), -1);
    assert_eq!(ok(Sub, I64, i64::MIN, 1), i64::MAX);
    assert_eq!(ok(Mul, I8, 16, 16), 0);
    assert_eq!(ok(Mul, I32, 0x10000, 0x10000), 0);
    assert_eq!(ok(Mul, I32, -1, i32::MIN as i64), i32::MIN as i64);
    assert_eq!(ok(Mul, I64, 3, -5), -15);
}

#[test]
fn division_and_remainder_truncate_toward_zero() {
    use BinaryOp::*;
    assert_eq!(ok(SDiv, I32, 7, 2), 3);
    assert_eq!(ok(SDiv, I32, -7, 2), -3);
    assert_eq!(ok(SDiv, I32, 7, -2), -3);
    assert_eq!(ok(SDiv, I32, -7, -2), 3);
    assert_eq!(ok(SRem, I32, 7, 2), 1);
    assert_eq!(ok(SRem, I32, -7, 2), -1);
    assert_eq!(ok(SRem, I32, 7, -2), 1);
    assert_eq!(ok(SRem, I32, -7, -2), -1);
    assert_eq!(ok(SDiv, I8, -128, 2), -64);
    assert_eq!(ok(SDiv, I8, -127, -1), 127);
    assert_eq!(ok(SDiv, I64, i64::MIN, 1), i64::MIN);
    assert_eq!(ok(SRem, I64, i64::MIN, 3), -2);
    // Unsigned: operands are their bit patterns.
    assert_eq!(ok(UDiv, I32, -1, 2) as u32, u32::MAX / 2);
    assert_eq!(ok(URem, I32, -1, 10) as u32, u32::MAX % 10);
    assert_eq!(ok(UDiv, I8, -128, 3) as u8, 128 / 3);
    assert_eq!(ok(UDiv, I64, -1, -1), 1);
    assert_eq!(ok(URem, I64, 5, -1), 5);
}

#[test]
fn division_by_zero_and_int_min_by_minus_one_are_errors_at_every_width() {
    use BinaryOp::*;
    for ty in [I1, I8, I16, I32, I64] {
        for op in [UDiv, SDiv, URem, SRem] {
            assert_eq!(fault(op, ty, 1, 0), ErrorKind::DivisionByZero, "{op:?} {ty}");
        }
        let int_min = ty.sign_extend(1 << (ty.bits() - 1));
        assert_eq!(fault(SDiv, ty, int_min, -1), ErrorKind::SignedDivisionOverflow, "{ty}");
        assert_eq!(fault(SRem, ty, int_min, -1), ErrorKind::SignedDivisionOverflow, "{ty}");
        // Unsigned division by all-ones is fine.
        ok(UDiv, ty, int_min, -1);
        ok(URem, ty, int_min, -1);
    }
    // INT_MIN of a narrower width is an ordinary value at a wider one.
    assert_eq!(ok(SDiv, I64, i32::MIN as i64, -1), 1 << 31);
    assert_eq!(ok(SRem, I32, i32::MIN as i64 + 1, -1), 0);
}

#[test]
fn fault_messages_name_the_operands() {
    let Err(Fault::Error(_, m)) = binary(BinaryOp::SDiv, I32, 0x8000_0000, 0xffff_ffff) else { panic!() };
    assert_eq!(m, "-2147483648 / -1 overflows i32 (sdiv)");
    let Err(Fault::Error(_, m)) = binary(BinaryOp::SRem, I32, 0xffff_fff9, 0) else { panic!() };
    assert_eq!(m, "remainder of -7 by zero (srem i32)");
    let Err(Fault::Error(_, m)) = binary(BinaryOp::Shl, I32, 1, 32) else { panic!() };
    assert_eq!(m, "shl by 32 bits of a 32-bit value");
}

#[test]
fn shifts_up_to_width_minus_one_and_errors_beyond() {
    use BinaryOp::*;
    for ty in [I1, I8, I16, I32, I64] {
        let w = ty.bits() as i64;
        assert_eq!(ok(Shl, ty, 1, w - 1), ty.sign_extend(1 << (w - 1)), "{ty}");
        assert_eq!(ok(LShr, ty, -1, w - 1), ty.sign_extend(1), "{ty}");
        assert_eq!(ok(AShr, ty, -1, w - 1), -1, "{ty}");
        for op in [Shl, LShr, AShr] {
            assert_eq!(fault(op, ty, 1, w), ErrorKind::ShiftOutOfRange, "{op:?} {ty}");
            assert_eq!(fault(op, ty, 1, -1), ErrorKind::ShiftOutOfRange, "{op:?} {ty} by all-ones");
        }
    }
    assert_eq!(ok(Shl, I8, 0x81, 1), 2);
    assert_eq!(ok(LShr, I8, -128, 7), 1);
    assert_eq!(ok(AShr, I8, -128, 7), -1);
    assert_eq!(ok(AShr, I32, 0x4000_0000, 30), 1);
    assert_eq!(ok(AShr, I16, -2, 1), -1);
    assert_eq!(ok(LShr, I64, -1, 0), -1);
    // 64-bit shift amounts that are huge but would be small mod 2^32 are still errors.
    assert!(binary(Shl, I64, 1, 1 << 32).is_err());
}

#[test]
fn bitwise_operations() {
    use BinaryOp::*;
    assert_eq!(ok(And, I8, 0xf0, 0x3c), 0x30);
    assert_eq!(ok(Or, I16, 0x0f00, 0x00f0), 0x0ff0);
    assert_eq!(ok(Xor, I32, -1, 0x0f), !0x0f);
    assert_eq!(ok(Xor, I1, 1, 1), 0);
}

#[test]
fn comparisons_signed_and_unsigned() {
    let c = |cc: IntCC, ty: Type, a: i64, b: i64| icmp(cc, ty, a as u64 & ty.mask(), b as u64 & ty.mask());
    assert!(c(IntCC::Slt, I32, -1, 0));
    assert!(!c(IntCC::Ult, I32, -1, 0));
    assert!(c(IntCC::Ugt, I8, -1, 127));
    assert!(!c(IntCC::Sgt, I8, -1, 127));
    assert!(c(IntCC::Sle, I64, i64::MIN, i64::MAX));
    assert!(c(IntCC::Sge, I16, 5, 5));
    assert!(c(IntCC::Uge, I16, 5, 5));
    assert!(c(IntCC::Ule, I1, 0, 1));
    assert!(c(IntCC::Sgt, I1, 0, 1), "i1 1 is -1 when signed");
    assert!(c(IntCC::Eq, I32, 7, 7));
    assert!(c(IntCC::Ne, I32, 7, 8));
}

#[test]
fn casts_extend_and_truncate() {
    assert_eq!(cast(CastOp::Sext, I8, I32, 0x80), 0xffff_ff80);
    assert_eq!(cast(CastOp::Zext, I8, I32, 0x80), 0x80);
    assert_eq!(cast(CastOp::Sext, I1, I8, 1), 0xff);
    assert_eq!(cast(CastOp::Zext, I1, I64, 1), 1);
    assert_eq!(cast(CastOp::Sext, I32, I64, 0x7fff_ffff), 0x7fff_ffff);
    assert_eq!(cast(CastOp::Sext, I32, I64, 0x8000_0000), 0xffff_ffff_8000_0000);
    assert_eq!(cast(CastOp::Trunc, I64, I8, 0x1234), 0x34);
    assert_eq!(cast(CastOp::Trunc, I32, I1, 2), 0);
    assert_eq!(cast(CastOp::Trunc, I16, I8, 0xff80), 0x80);
}
