//! Tests of the term constructors: folding, canonical forms, rewrites that keep loops
//! folding a value into itself small, and term weights.

use super::*;

fn store_with_vars() -> (TermStore, TermId, TermId) {
    let mut s = TermStore::default();
    let x = s.new_var("x", 32);
    let y = s.new_var("y", 32);
    let (x, y) = (s.var(x), s.var(y));
    (s, x, y)
}

#[test]
fn loops_that_fold_a_value_into_itself_keep_it_small() {
    let (mut s, x, y) = store_with_vars();
    // s += x, a thousand times: one product.
    let mut sum = s.zero(32);
    for _ in 0..1000 {
        sum = s.add(sum, x);
    }
    let thousand = s.constant(32, 1000);
    assert_eq!(sum, s.mul(x, thousand));
    assert_eq!(s.weight(sum), 4);
    // s += x + 1: the constant goes to the top, the like terms meet.
    let one = s.constant(32, 1);
    let mut acc = s.zero(32);
    for _ in 0..3 {
        let step = s.add(x, one);
        acc = s.add(acc, step);
    }
    let (three, c3) = (s.constant(32, 3), s.constant(32, 3));
    let x3 = s.mul(x, three);
    assert_eq!(acc, s.add(x3, c3));
    // (x + 5) + y = (x + y) + 5.
    let five = s.constant(32, 5);
    let x5 = s.add(x, five);
    let xy = s.add(x, y);
    assert_eq!(s.add(x5, y), s.add(xy, five));
    assert_eq!(s.add(y, x5), s.add(xy, five));
}

#[test]
fn arithmetic_with_constants_goes_into_a_choice_between_constants() {
    let (mut s, x, _) = store_with_vars();
    let zero = s.zero(32);
    let c = s.slt(zero, x);
    let (one, two) = (s.constant(32, 1), s.constant(32, 2));
    let mut acc = s.ite(c, one, two);
    for i in 0..100u64 {
        let k = s.constant(32, 3);
        let m = s.mul(acc, k);
        let i = s.constant(32, i);
        acc = s.add(m, i);
    }
    // Still an ite of two constants, whatever the arithmetic.
    assert_eq!(s.op(acc), Op::Ite);
    let arms = [s.children(acc)[1], s.children(acc)[2]];
    assert!(arms.iter().all(|&a| s.is_const(a)), "{arms:?}");
    assert_eq!(s.weight(acc), 2);
    // A comparison with a constant is decided in the arms: `ite(c, 1, 2) < 5` is true.
    let ite = s.ite(c, one, two);
    let five = s.constant(32, 5);
    assert_eq!(s.ult(ite, five), s.tt());
    assert_eq!(s.eq(ite, one), c);
    assert_eq!(s.slt(two, ite), s.ff());
}

#[test]
fn weights_count_operators_by_cost() {
    let (mut s, x, y) = store_with_vars();
    let sum = s.add(x, y);
    assert_eq!((s.weight(x), s.weight(sum)), (0, 1));
    let product = s.mul(sum, y);
    assert_eq!(s.weight(product), 33);
    let k = s.constant(32, 3);
    let shifted = s.shl(product, k);
    assert_eq!(s.weight(shifted), 39);
}

#[test]
fn neutral_elements_disappear() {
    let (mut s, x, _) = store_with_vars();
    let zero = s.zero(32);
    let one = s.constant(32, 1);
    let ones = s.ones(32);
    assert_eq!(s.add(x, zero), x);
    assert_eq!(s.add(zero, x), x);
    assert_eq!(s.sub(x, zero), x);
    assert_eq!(s.mul(one, x), x);
    assert_eq!(s.mul(x, zero), zero);
    assert_eq!(s.and(x, ones), x);
    assert_eq!(s.and(x, x), x);
    assert_eq!(s.or(x, zero), x);
    assert_eq!(s.xor(x, x), zero);
    assert_eq!(s.sub(x, x), zero);
    assert_eq!(s.udiv(x, zero), ones);
    assert_eq!(s.urem(x, zero), x);
    let nx = s.not(x);
    assert_eq!(s.and(x, nx), zero);
    assert_eq!(s.or(nx, x), ones);
    assert_eq!(s.not(nx), x);
}

#[test]
fn commutative_operands_are_ordered() {
    let (mut s, x, y) = store_with_vars();
    let c = s.constant(32, 5);
    assert_eq!(s.add(x, y), s.add(y, x));
    assert_eq!(s.add(c, x), s.add(x, c));
    let xc = s.add(x, c);
    assert_eq!(s.children(xc), &[x, c]);
    assert_eq!(s.eq(y, x), s.eq(x, y));
}

#[test]
fn constant_chains_fold() {
    let (mut s, x, _) = store_with_vars();
    let c3 = s.constant(32, 3);
    let c4 = s.constant(32, 4);
    let a = s.add(x, c3);
    let b = s.add(a, c4);
    let c7 = s.constant(32, 7);
    assert_eq!(b, s.add(x, c7));
    // x - 3 is x + (-3)
    let d = s.sub(x, c3);
    let m3 = s.constant(32, (-3i64) as u64);
    assert_eq!(d, s.add(x, m3));
    // (x + 3) == 10  is  x == 7
    let c10 = s.constant(32, 10);
    let e = s.eq(a, c10);
    assert_eq!(e, s.eq(x, c7));
}

#[test]
fn comparisons_normalise() {
    let (mut s, x, y) = store_with_vars();
    let lt = s.ult(x, y);
    assert_eq!(s.ugt(y, x), lt);
    let nlt = s.not(lt);
    assert_eq!(nlt, s.ule(y, x));
    assert_eq!(s.uge(x, y), nlt);
    let (a, b) = (s.ult(x, x), s.sle(x, x));
    assert!(s.is_false(a) && s.is_true(b));
    let zero = s.zero(32);
    let (a, b) = (s.ult(x, zero), s.ule(zero, x));
    assert!(s.is_false(a) && s.is_true(b));
}

#[test]
fn byte_extracts_reassemble() {
    let (mut s, x, _) = store_with_vars();
    let b0 = s.extract(x, 7, 0);
    let b1 = s.extract(x, 15, 8);
    let b2 = s.extract(x, 23, 16);
    let b3 = s.extract(x, 31, 24);
    let lo = s.concat(b1, b0);
    let hi = s.concat(b3, b2);
    assert_eq!(s.concat(hi, lo), x);
    assert_eq!(s.extract(lo, 15, 8), b1);
    let z = s.zext(b0, 32);
    assert_eq!(s.extract(z, 7, 0), b0);
    let top = s.extract(z, 31, 8);
    assert_eq!(s.as_const(top), Some(0));
    let zero8 = s.zero(8);
    assert_eq!(s.concat(zero8, b0), s.zext(b0, 16));
}

#[test]
fn ite_simplifies_on_width_one() {
    let (mut s, x, y) = store_with_vars();
    let c = s.ult(x, y);
    let (t, f) = (s.tt(), s.ff());
    assert_eq!(s.ite(c, t, f), c);
    let nc = s.not(c);
    assert_eq!(s.ite(c, f, t), nc);
    assert_eq!(s.ite(t, x, y), x);
    assert_eq!(s.ite(c, x, x), x);
    let e = s.eq(x, y);
    let ne = s.ne(x, y);
    assert_eq!(s.op(ne), Op::Not);
    assert_eq!(s.ite(ne, x, y), s.ite(e, y, x));
}

#[test]
#[should_panic(expected = "operand widths differ")]
fn mismatched_widths_panic() {
    let (mut s, x, _) = store_with_vars();
    let b = s.constant(8, 1);
    s.add(x, b);
}

#[test]
fn a_small_value_narrowed_and_extended_again_is_itself() {
    let mut s = TermStore::default();
    let c = s.new_var("c", 8);
    let c = s.var(c);
    // C's `(long)((int)c + i)` for an unsigned char c: sext(extract(zext(c) + i, 31, 0)).
    let wide = s.zext(c, 64);
    let i = s.constant(64, 15);
    let sum = s.add(wide, i);
    let low = s.extract(sum, 31, 0);
    assert_eq!(s.sext(low, 64), sum);
    assert_eq!(s.zext(low, 64), sum);
    // Compared with a constant, it is a comparison of c: `c == 85 - 15`, or false past c's range.
    let k = s.constant(64, 85);
    let seventy = s.constant(8, 70);
    assert_eq!(s.eq(sum, k), s.eq(c, seventy));
    let far = s.constant(64, 300);
    assert_eq!(s.eq(sum, far), s.ff());
    // A value that may reach the sign bit still extends with it.
    let x = s.new_var("x", 32);
    let x = s.var(x);
    let x64 = s.zext(x, 64);
    let xlow = s.extract(x64, 31, 0);
    assert_eq!(xlow, x);
    let signed = s.sext(x, 64);
    assert_eq!(s.op(signed), Op::SExt);
    let minus_one = s.constant(64, u64::MAX);
    let big = s.add(wide, minus_one);
    let big_low = s.extract(big, 31, 0);
    let big_signed = s.sext(big_low, 64);
    assert_eq!(s.op(big_signed), Op::SExt);
    // A quotient is at most its dividend only for a nonzero divisor: `0 / y` is all ones for
    // y = 0 (the fuzz checks' finding), so its sign bit may be set.
    let y = s.new_var("y", 4);
    let y = s.var(y);
    let zero = s.zero(4);
    let q = s.udiv(zero, y);
    let q16 = s.sext(q, 16);
    assert_eq!(crate::eval(&s, q16, &|_| 0), 0xffff);
    let two = s.constant(4, 2);
    let half = s.udiv(y, two);
    let half16 = s.sext(half, 16);
    assert_eq!(half16, s.zext(half, 16));
    // Two values bounded by 0 (a byte over a larger constant): their `|` is too.
    let thousand = s.constant(16, 1000);
    let c16 = s.zext(c, 16);
    let small = s.udiv(c16, thousand);
    let two_thousand = s.constant(16, 2000);
    let smaller = s.udiv(c16, two_thousand);
    let zero_or = s.or(small, smaller);
    let zero_or32 = s.sext(zero_or, 32);
    assert_eq!(zero_or32, s.zext(zero_or, 32));
}

#[test]
fn unsigned_comparisons_of_a_zero_extended_value_narrow() {
    let mut s = TermStore::default();
    let c = s.new_var("c", 8);
    let c = s.var(c);
    let wide = s.zext(c, 64);
    let k = s.constant(64, 0x5d);
    let k8 = s.constant(8, 0x5d);
    assert_eq!(s.ult(wide, k), s.ult(c, k8));
    assert_eq!(s.ult(k, wide), s.ult(k8, c));
    let far = s.constant(64, 256);
    assert_eq!(s.ult(wide, far), s.tt());
    let top = s.constant(64, 255);
    assert_eq!(s.ult(top, wide), s.ff());
    // Equality of two zero-extended values: in the wider inner width.
    let d = s.new_var("d", 16);
    let d = s.var(d);
    let d64 = s.zext(d, 64);
    let c16 = s.zext(c, 16);
    assert_eq!(s.eq(wide, d64), s.eq(c16, d));
}
