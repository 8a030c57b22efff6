//! The lowered code computes what C computes: pure functions run in the tiny evaluator of
//! `eval.rs` against Rust's own arithmetic, exhaustively on 8- and 16-bit domains and on
//! sampled values for wider ones.

use crate::common::lower;
use crate::eval::{run, Side};

/// Edge values plus a deterministic pseudo-random sample of 64-bit patterns.
fn samples() -> Vec<u64> {
    let mut v = vec![0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x7fff_ffff, 0x8000_0000];
    v.extend([0xffff_ffff, 0x1_0000_0000, i64::MAX as u64, i64::MIN as u64, u64::MAX, u64::MAX - 1]);
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..200 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push(x);
        v.push(x >> (x % 64));
    }
    v
}

const BITS: &str = "
unsigned pop32(unsigned x) { return __builtin_popcount(x); }
unsigned pop64(unsigned long x) { return __builtin_popcountl(x); }
unsigned clz32(unsigned x) { return x ? __builtin_clz(x) : 32; }
unsigned clz64(unsigned long x) { return x ? __builtin_clzl(x) : 64; }
unsigned ctz32(unsigned x) { return x ? __builtin_ctz(x) : 32; }
unsigned ctz64(unsigned long x) { return x ? __builtin_ctzl(x) : 64; }
unsigned short bswap16(unsigned short x) { return __builtin_bswap16(x); }
unsigned bswap32(unsigned x) { return __builtin_bswap32(x); }
unsigned long bswap64(unsigned long x) { return __builtin_bswap64(x); }
";

#[test]
fn bit_counting_and_byte_swapping_builtins_match_rust() {
    let m = lower("bits.c", BITS);
    for x in samples() {
        let (x32, x16) = (x as u32, x as u16);
        let r = |f: &str, a: u64| run(&m, f, &[a], Side::New).unwrap_or_else(|| panic!("{f}({a:#x}) did not run"));
        assert_eq!(r("pop32", x), u64::from(x32.count_ones()), "pop32({x:#x})");
        assert_eq!(r("pop64", x), u64::from(x.count_ones()), "pop64({x:#x})");
        assert_eq!(r("clz32", x), u64::from(x32.leading_zeros()), "clz32({x:#x})");
        assert_eq!(r("clz64", x), u64::from(x.leading_zeros()), "clz64({x:#x})");
        assert_eq!(r("ctz32", x), u64::from(x32.trailing_zeros()), "ctz32({x:#x})");
        assert_eq!(r("ctz64", x), u64::from(x.trailing_zeros()), "ctz64({x:#x})");
        assert_eq!(r("bswap16", x), u64::from(x16.swap_bytes()), "bswap16({x:#x})");
        assert_eq!(r("bswap32", x), u64::from(x32.swap_bytes()), "bswap32({x:#x})");
        assert_eq!(r("bswap64", x), x.swap_bytes(), "bswap64({x:#x})");
    }
}

const OVERFLOW: &str = "
int add8(signed char a, signed char b) { signed char r; return __builtin_add_overflow(a, b, &r) ? 1000 : r; }
int sub8(signed char a, signed char b) { signed char r; return __builtin_sub_overflow(a, b, &r) ? 1000 : r; }
int mul8(signed char a, signed char b) { signed char r; return __builtin_mul_overflow(a, b, &r) ? 1000 : r; }
int uadd8(unsigned char a, unsigned char b) { unsigned char r; return __builtin_add_overflow(a, b, &r) ? 1000 : r; }
int usub8(unsigned char a, unsigned char b) { unsigned char r; return __builtin_sub_overflow(a, b, &r) ? 1000 : r; }
int umul8(unsigned char a, unsigned char b) { unsigned char r; return __builtin_mul_overflow(a, b, &r) ? 1000 : r; }
long mul64(long a, long b) { long r; return __builtin_mul_overflow(a, b, &r) ? 12345 : r; }
";

#[test]
fn overflow_builtins_agree_with_checked_arithmetic_on_all_bytes() {
    let m = lower("overflow.c", OVERFLOW);
    for a in 0..=255u64 {
        for b in 0..=255u64 {
            let (sa, sb, ua, ub) = (a as u8 as i8, b as u8 as i8, a as u8, b as u8);
            let r = |f: &str| run(&m, f, &[a, b], Side::New).map(|v| v as u32 as i32);
            let expect = |x: Option<i8>| Some(x.map_or(1000, i32::from));
            let expect_u = |x: Option<u8>| Some(x.map_or(1000, i32::from));
            assert_eq!(r("add8"), expect(sa.checked_add(sb)), "add8({sa}, {sb})");
            assert_eq!(r("sub8"), expect(sa.checked_sub(sb)), "sub8({sa}, {sb})");
            assert_eq!(r("mul8"), expect(sa.checked_mul(sb)), "mul8({sa}, {sb})");
            assert_eq!(r("uadd8"), expect_u(ua.checked_add(ub)), "uadd8({ua}, {ub})");
            assert_eq!(r("usub8"), expect_u(ua.checked_sub(ub)), "usub8({ua}, {ub})");
            assert_eq!(r("umul8"), expect_u(ua.checked_mul(ub)), "umul8({ua}, {ub})");
        }
    }
    let values = samples();
    for &a in values.iter().step_by(7) {
        for &b in values.iter().step_by(5) {
            let got = run(&m, "mul64", &[a, b], Side::New).map(|v| v as i64);
            let want = (a as i64).checked_mul(b as i64).unwrap_or(12345);
            assert_eq!(got, Some(want), "mul64({}, {})", a as i64, b as i64);
        }
    }
}

#[test]
fn change_takes_the_old_or_the_new_side() {
    let m = lower(
        "threshold.c",
        r#"#include "penumbra.h"
int classify(int x) {
  if (change(x > 5, x > 10))
    return 1;
  return 0;
}
long widen(int x, long y) { return change(x, y) + 1; }
"#,
    );
    for x in -20i64..20 {
        let x_bits = x as u64;
        let old = run(&m, "classify", &[x_bits], Side::Old);
        let new = run(&m, "classify", &[x_bits], Side::New);
        assert_eq!(old, Some(u64::from(x > 5)), "old classify({x})");
        assert_eq!(new, Some(u64::from(x > 10)), "new classify({x})");
        // change(int, long) has type long: the int side is sign-extended.
        let y = (x * 1000) as u64;
        assert_eq!(run(&m, "widen", &[x_bits, y], Side::Old), Some((x + 1) as u64));
        assert_eq!(run(&m, "widen", &[x_bits, y], Side::New), Some((x * 1000 + 1) as u64));
    }
}

#[test]
fn switches_loops_and_narrow_arithmetic_compute_like_c() {
    let m = lower(
        "mix.c",
        "int grade(int s) { switch (s) { case 1: case 2: return 10; case 5: return 3; case -1: return 7; default: return 0; } }
int tri(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int narrow(signed char a, unsigned char b) { return (signed char)(a * 3) + (unsigned char)(b + 7) - (a >> 1); }
unsigned long mix(unsigned long x) { return (x >> 3) ^ (x << 5) ^ (unsigned)(x * 0x9e3779b9u); }
int minmax(int a, int b) { return (a < b ? a : b) * 2 - (a > b ? a : b); }
",
    );
    for s in [-2i64, -1, 0, 1, 2, 3, 5, 6] {
        let want = match s {
            1 | 2 => 10,
            5 => 3,
            -1 => 7,
            _ => 0,
        };
        assert_eq!(run(&m, "grade", &[s as u64], Side::New), Some(want), "grade({s})");
    }
    for n in -3i64..40 {
        let want: i64 = (0..n.max(0)).sum();
        assert_eq!(run(&m, "tri", &[n as u64], Side::New), Some(want as u64), "tri({n})");
    }
    for a in 0..=255u64 {
        for b in (0..=255u64).step_by(3) {
            let (sa, ub) = (a as u8 as i8, b as u8);
            let want = i32::from(sa.wrapping_mul(3)) + i32::from(ub.wrapping_add(7)) - i32::from(sa >> 1);
            assert_eq!(run(&m, "narrow", &[a, b], Side::New), Some(want as u32 as u64), "narrow({sa}, {ub})");
        }
    }
    for x in samples() {
        let want = (x >> 3) ^ (x << 5) ^ u64::from((x as u32).wrapping_mul(0x9e37_79b9));
        assert_eq!(run(&m, "mix", &[x], Side::New), Some(want), "mix({x:#x})");
        let (a, b) = (x as i32, (x >> 32) as i32);
        let want = a.min(b).wrapping_mul(2).wrapping_sub(a.max(b));
        assert_eq!(run(&m, "minmax", &[a as u64, b as u64], Side::New), Some(want as u32 as u64));
    }
}

#[test]
fn bit_fields_of_odd_widths_read_and_write_like_c() {
    let m = lower(
        "bitfields.c",
        "struct f { unsigned a:20; unsigned b:20; unsigned char c; };
struct __attribute__((packed)) p { char c; int v:20; };
struct w { long x:40; long y:24; };
int f_roundtrip(unsigned a, unsigned b) { struct f s; s.a = a; s.b = b; s.c = 9; return (int)(s.a + 3 * s.b + s.c); }
int p_signed(int v) { struct p s; s.c = 1; s.v = v; return s.v + s.c; }
long w_mix(long x, long y) { struct w s; s.x = x; s.y = y; s.x += s.y; return s.x * 1000 + s.y; }
",
    );
    let sext = |v: i64, bits: u32| (v << (64 - bits)) >> (64 - bits);
    for x in samples() {
        let (a, b) = (x & 0xf_ffff, (x >> 20) & 0xf_ffff);
        assert_eq!(run(&m, "f_roundtrip", &[x, x >> 20], Side::New), Some((a + 3 * b + 9) & 0xffff_ffff), "f({x:#x})");
        let want = sext(x as i64, 20) + 1;
        assert_eq!(run(&m, "p_signed", &[x], Side::New), Some(want as u32 as u64), "p({x:#x})");
        let y = x.rotate_left(17);
        let (sx, sy) = (sext(x as i64, 40), sext(y as i64, 24));
        let want = sext(sx.wrapping_add(sy), 40).wrapping_mul(1000).wrapping_add(sy);
        assert_eq!(run(&m, "w_mix", &[x, y], Side::New), Some(want as u64), "w({x:#x}, {y:#x})");
    }
}

#[test]
fn structs_returned_in_registers_and_passed_by_value_round_trip() {
    let m = lower(
        "structs.c",
        "struct pair { long a; int b; };
struct big { long v[5]; };
static struct pair make(long a, int b) { struct pair p = { a, b }; return p; }
static long sum(struct big s) { s.v[0] = 100; return s.v[1] + s.v[4]; }
long use(long a, int b) {
  struct pair p = make(a, b);
  struct big g = { { 1, a, 3, 4, b } };
  long s = sum(g);
  return p.a * 2 + p.b + s + g.v[0];
}",
    );
    for (a, b) in [(1i64, 2i32), (-5, 7), (1 << 40, -1)] {
        let want = a * 2 + i64::from(b) + (a + i64::from(b)) + 1;
        assert_eq!(run(&m, "use", &[a as u64, b as u32 as u64], Side::New), Some(want as u64), "use({a}, {b})");
    }
}

#[test]
fn variable_arguments_of_user_functions_are_read_in_order() {
    let m = lower(
        "va.c",
        "#include <stdarg.h>
static long weigh(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  long s = 0;
  for (int i = 0; i < n; i++) s = s * 10 + (i % 2 ? va_arg(ap, long) : va_arg(ap, int));
  long first = va_arg(again, int);
  va_end(again);
  va_end(ap);
  return s * 100 + first;
}
long go(int a, long b) { return weigh(4, a, b, 3, 4L) + weigh(1, 5); }",
    );
    let want = |a: i64, b: i64| (((a * 10 + b) * 10 + 3) * 10 + 4) * 100 + a + (5 * 100 + 5);
    for (a, b) in [(1i64, 2i64), (7, -3), (-9, 5)] {
        assert_eq!(run(&m, "go", &[a as u64, b as u64], Side::New), Some(want(a, b) as u64), "go({a}, {b})");
    }
}
