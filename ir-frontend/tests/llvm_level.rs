//! Hand-written LLVM IR (assembled with `llvm-as-15`) for what C at `-O0` rarely produces
//! but the lowering must still handle: constant GEPs with equal indices over different types, aggregate phis and selects,
//! unnamed globals, odd integer widths, blocks out of dominance order, unreachable code,
//! mismatched call types, aliases and the intrinsics clang emits only at higher optimisation
//! levels.

use crate::common::{func_text, unsupported};
use crate::eval::{run, Side};
use penumbra_ir::{lower_bitcode, module_to_string, verify_module, Module};
use std::process::Command;

/// Assembles `ll` and lowers it; the module must pass the verifier.
fn lower_ll(ll: &str) -> Module {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("m.ll");
    let bc = dir.path().join("m.bc");
    let text = format!(
        "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128\"\n\
         target triple = \"x86_64-pc-linux-gnu\"\n{ll}"
    );
    std::fs::write(&src, text).expect("write");
    let out = Command::new("llvm-as-15").arg(&src).arg("-o").arg(&bc).output().expect("llvm-as-15 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let m = lower_bitcode(&bc, "m.ll").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(verify_module(&m), Ok(()), "{}", module_to_string(&m));
    m
}

#[test]
fn constant_geps_with_equal_indices_over_different_types_get_their_own_offsets() {
    let m = lower_ll(
        "@g = global [8 x i32] zeroinitializer
define i32 @f() {
  %a = load i32, ptr getelementptr (i32, ptr @g, i64 1)
  %b = load i32, ptr getelementptr (i8, ptr @g, i64 1)
  %c = add i32 %a, %b
  ret i32 %c
}
define i32 @h() {
  %a = load i32, ptr getelementptr ([8 x i32], ptr @g, i64 0, i64 3)
  %b = load i32, ptr getelementptr (i8, ptr getelementptr ([8 x i32], ptr @g, i64 0, i64 1), i64 2)
  %c = add i32 %a, %b
  ret i32 %c
}",
    );
    let f = func_text(&m, "f");
    assert!(f.contains("add.i64 @g, 4") && f.contains("add.i64 @g, 1"), "{f}");
    let h = func_text(&m, "h");
    assert!(h.contains("add.i64 @g, 12") && h.contains("add.i64 @g, 6"), "nested GEPs flatten: {h}");
}

#[test]
fn aggregate_phis_and_selects_work_leaf_by_leaf() {
    let m = lower_ll(
        "define void @f(i1 %c, ptr %out, i64 %x) {
entry:
  br i1 %c, label %a, label %b
a:
  %p = insertvalue { i64, i32 } undef, i64 %x, 0
  br label %j
b:
  br label %j
j:
  %v = phi { i64, i32 } [ %p, %a ], [ { i64 1, i32 2 }, %b ]
  %w = select i1 %c, { i64, i32 } %v, { i64, i32 } zeroinitializer
  %e = extractvalue { i64, i32 } %w, 1
  store { i64, i32 } %w, ptr %out
  ret void
}",
    );
    assert!(unsupported(&m, "f").is_empty(), "{}", func_text(&m, "f"));
    let t = func_text(&m, "f");
    assert!(t.contains("block3(v3: i64, v4: i32):"), "{t}");
    assert!(t.contains("jump block3(v2, 0)") && t.contains("jump block3(1, 2)"), "{t}");
    assert!(t.contains("store.i32") && t.contains("add.i64 v1, 8"), "{t}");
}

#[test]
fn unnamed_globals_get_generated_names() {
    let m = lower_ll(
        "@0 = private constant [3 x i8] c\"ab\\00\"
@p = global ptr @0
define ptr @f() {
  ret ptr @0
}",
    );
    let t = module_to_string(&m);
    assert!(t.contains("const @__unnamed_0: 3 bytes, align 1 = c\"ab\\00\""), "{t}");
    assert!(t.contains("relocs [0: @__unnamed_0]") && t.contains("ret @__unnamed_0"), "{t}");
}

#[test]
fn odd_integer_widths_up_to_64_bits_live_in_wider_ir_types() {
    let m = lower_ll(
        "define i32 @f(i32 %x) {
  %p = alloca [4 x i8]
  %t = trunc i32 %x to i24
  %d = mul i24 %t, 3
  store i24 %d, ptr %p
  %l = load i24, ptr %p
  %s = sext i24 %l to i32
  ret i32 %s
}
define i1 @neg(i40 %x) {
  %c = icmp slt i40 %x, 0
  ret i1 %c
}
define i64 @wide(i64 %x) {
  %t = zext i64 %x to i65
  %r = trunc i65 %t to i64
  ret i64 %r
}",
    );
    for x in [0i32, 1, -1, 0x7f_ffff, 0x80_0000, 0x12_3456, -0x55_5555] {
        let want = ((x.wrapping_mul(3)) << 8) >> 8;
        assert_eq!(run(&m, "f", &[x as u32 as u64], Side::New), Some(want as u32 as u64), "f({x})");
    }
    // i40 in an i64: the sign is bit 39.
    assert_eq!(run(&m, "neg", &[1 << 39], Side::New), Some(1));
    assert_eq!(run(&m, "neg", &[(1 << 39) - 1], Side::New), Some(0));
    assert_eq!(unsupported(&m, "wide")[0].0, "65-bit integer: zext");
}

#[test]
fn blocks_are_lowered_in_dominance_order_whatever_their_order_in_the_function() {
    let m = lower_ll(
        "define i32 @f(i32 %x) {
entry:
  br label %second
third:
  %r = add i32 %v, 1
  ret i32 %r
second:
  %v = mul i32 %x, 2
  br label %third
}",
    );
    assert_eq!(run(&m, "f", &[20], Side::New), Some(41));
}

#[test]
fn unreachable_code_may_use_values_before_their_definition() {
    let m = lower_ll(
        "define i32 @f(i32 %x) {
entry:
  ret i32 %x
dead:
  %y = add i32 %z, 1
  %z = add i32 %y, 1
  br label %dead
}",
    );
    assert_eq!(run(&m, "f", &[5], Side::New), Some(5));
}

#[test]
fn a_call_whose_types_differ_from_the_callee_goes_through_its_address() {
    let m = lower_ll(
        "define i32 @k(i32 %a) {
  ret i32 %a
}
define i32 @f() {
  %r = call i32 @k(i64 7)
  ret i32 %r
}",
    );
    assert!(func_text(&m, "f").contains("call_indirect.i32 @k(7)"), "{}", func_text(&m, "f"));
}

/// A call through an unprototyped declaration (`int main();` called with three arguments)
/// passes the arguments the definition takes, as x86-64 does.
#[test]
fn extra_arguments_through_an_unprototyped_declaration_are_dropped() {
    let m = lower_ll(
        "define i32 @k(i32 %a) {
  ret i32 %a
}
define i32 @f() {
  %r = call i32 (i32, i64, ...) @k(i32 7, i64 9)
  ret i32 %r
}",
    );
    assert!(func_text(&m, "f").contains("call.i32 @k(7)"), "{}", func_text(&m, "f"));
    assert_eq!(run(&m, "f", &[], Side::New), Some(7));
}

/// Aliases (musl's `weak_alias`) name their target: calls and addresses of an alias reach the
/// aliased function, loads and stores through a global's alias reach the global, chains
/// included.
#[test]
fn aliases_of_functions_and_globals_are_their_targets() {
    let m = lower_ll(
        "@counter = global i32 5
@count = weak alias i32, ptr @counter
define i32 @impl(i32 %a) {
  %c = load i32, ptr @count
  %r = add i32 %a, %c
  ret i32 %r
}
@api2 = weak alias i32 (i32), ptr @api
@api = alias i32 (i32), ptr @impl
define i32 @f(i32 %a) {
  %r = call i32 @api2(i32 %a)
  ret i32 %r
}",
    );
    assert!(func_text(&m, "f").contains("call.i32 @impl(v0)"), "{}", func_text(&m, "f"));
    assert!(func_text(&m, "impl").contains("load.i32 [@counter]"), "{}", func_text(&m, "impl"));
}

#[test]
fn min_max_abs_and_hint_intrinsics_compute_their_value() {
    let m = lower_ll(
        "declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i8 @llvm.abs.i8(i8, i1)
declare i64 @llvm.expect.i64(i64, i64)
declare i64 @llvm.objectsize.i64.p0(ptr, i1, i1, i1)
define i32 @mm(i32 %a, i32 %b) {
  %x = call i32 @llvm.smax.i32(i32 %a, i32 %b)
  %y = call i32 @llvm.umin.i32(i32 %a, i32 %b)
  %z = xor i32 %x, %y
  %f = freeze i32 %z
  ret i32 %f
}
define i8 @ab(i8 %a) {
  %r = call i8 @llvm.abs.i8(i8 %a, i1 false)
  ret i8 %r
}
define i64 @ex(i64 %a, ptr %p) {
  %e = call i64 @llvm.expect.i64(i64 %a, i64 1)
  %s = call i64 @llvm.objectsize.i64.p0(ptr %p, i1 false, i1 true, i1 false)
  %r = add i64 %e, %s
  ret i64 %r
}",
    );
    for (a, b) in [(3i32, -4i32), (-1, 1), (i32::MIN, i32::MAX), (7, 7)] {
        let want = a.max(b) ^ ((a as u32).min(b as u32) as i32);
        assert_eq!(run(&m, "mm", &[a as u64, b as u64], Side::New), Some(want as u32 as u64));
    }
    for a in 0..=255u64 {
        assert_eq!(run(&m, "ab", &[a], Side::New), Some(u64::from((a as u8 as i8).wrapping_abs() as u8)));
    }
    assert_eq!(run(&m, "ex", &[10, 0], Side::New), Some(9), "objectsize answers -1 (unknown)");
}

#[test]
fn intrinsics_penumbra_does_not_model_are_unsupported_by_name() {
    let m = lower_ll(
        "declare i32 @llvm.fshl.i32(i32, i32, i32)
define i32 @f(i32 %a) {
  %r = call i32 @llvm.fshl.i32(i32 %a, i32 %a, i32 3)
  ret i32 %r
}",
    );
    assert_eq!(unsupported(&m, "f")[0].0, "LLVM intrinsic llvm.fshl.i32");
}

#[test]
fn a_memcpy_of_the_program_with_another_signature_makes_byval_copies_unsupported() {
    let m = lower_ll(
        "%big = type { [8 x i64] }
define i32 @memcpy(i32 %a) {
  ret i32 %a
}
define i64 @first(ptr byval(%big) %b) {
  %p = getelementptr %big, ptr %b, i64 0, i32 0, i64 1
  %v = load i64, ptr %p
  ret i64 %v
}",
    );
    assert_eq!(unsupported(&m, "first")[0].0, "memcpy is defined with a signature other than the C library's");
}
