//! Every operator at edge values (0, 1, -1, INT_MIN, INT_MAX, shift amounts
//! around the width, division by zero) on widths 1, 8, 16, 32 and 64:
//! an independent reference written here with 128-bit arithmetic must agree
//! with constant folding in the constructors, with the evaluator on
//! variables, and with Bitwuzla on unsimplified nodes.

use penumbra_solver::{eval, Model, Op, SatResult, Solver, SolverConfig, TermId, TermStore};

use crate::common::{edge_values, mask};

const TEST_WIDTHS: [u8; 5] = [1, 8, 16, 32, 64];

fn signed(v: u64, w: u8) -> i128 {
    let v = i128::from(v);
    if v >= 1i128 << (w - 1) {
        v - (1i128 << w)
    } else {
        v
    }
}

fn wrap(v: i128, w: u8) -> u64 {
    (v.rem_euclid(1i128 << w)) as u64
}

/// The reference: SMT-LIB QF_BV, written independently of the crate.
fn reference(op: Op, w: u8, a: u64, b: u64) -> u64 {
    let (ua, ub) = (u128::from(a), u128::from(b));
    let (sa, sb) = (signed(a, w), signed(b, w));
    let m = mask(w);
    let bool_ = |x: bool| u64::from(x);
    match op {
        Op::Add => wrap(i128::from(a) + i128::from(b), w),
        Op::Sub => wrap(i128::from(a) - i128::from(b), w),
        Op::Mul => ((ua * ub) % (1u128 << w)) as u64,
        Op::UDiv => a.checked_div(b).unwrap_or(m),
        Op::URem => a.checked_rem(b).unwrap_or(a),
        Op::SDiv => {
            if b == 0 {
                if sa < 0 {
                    1
                } else {
                    m
                }
            } else {
                wrap(sa / sb, w) // i128 division truncates towards zero
            }
        }
        Op::SRem => {
            if b == 0 {
                a
            } else {
                wrap(sa % sb, w)
            }
        }
        Op::Shl => {
            if ub >= u128::from(w) {
                0
            } else {
                ((ua << ub) % (1u128 << w)) as u64
            }
        }
        Op::LShr => {
            if ub >= u128::from(w) {
                0
            } else {
                a >> b
            }
        }
        Op::AShr => {
            if ub >= u128::from(w) {
                if sa < 0 {
                    m
                } else {
                    0
                }
            } else {
                wrap(sa >> b, w)
            }
        }
        Op::And => a & b,
        Op::Or => a | b,
        Op::Xor => a ^ b,
        Op::Eq => bool_(a == b),
        Op::Ult => bool_(a < b),
        Op::Ule => bool_(a <= b),
        Op::Slt => bool_(sa < sb),
        Op::Sle => bool_(sa <= sb),
        Op::Not => !a & m,
        Op::Neg => wrap(-i128::from(a), w),
        _ => unreachable!(),
    }
}

const BINARY: [Op; 18] = [
    Op::Add,
    Op::Sub,
    Op::Mul,
    Op::UDiv,
    Op::SDiv,
    Op::URem,
    Op::SRem,
    Op::Shl,
    Op::LShr,
    Op::AShr,
    Op::And,
    Op::Or,
    Op::Xor,
    Op::Eq,
    Op::Ult,
    Op::Ule,
    Op::Slt,
    Op::Sle,
];

/// The constructor for `op`.
fn build(s: &mut TermStore, op: Op, a: TermId, b: TermId) -> TermId {
    match op {
        Op::Add => s.add(a, b),
        Op::Sub => s.sub(a, b),
        Op::Mul => s.mul(a, b),
        Op::UDiv => s.udiv(a, b),
        Op::SDiv => s.sdiv(a, b),
        Op::URem => s.urem(a, b),
        Op::SRem => s.srem(a, b),
        Op::Shl => s.shl(a, b),
        Op::LShr => s.lshr(a, b),
        Op::AShr => s.ashr(a, b),
        Op::And => s.and(a, b),
        Op::Or => s.or(a, b),
        Op::Xor => s.xor(a, b),
        Op::Eq => s.eq(a, b),
        Op::Ult => s.ult(a, b),
        Op::Ule => s.ule(a, b),
        Op::Slt => s.slt(a, b),
        Op::Sle => s.sle(a, b),
        _ => unreachable!(),
    }
}

fn result_width(op: Op, w: u8) -> u8 {
    if matches!(op, Op::Eq | Op::Ult | Op::Ule | Op::Slt | Op::Sle) {
        1
    } else {
        w
    }
}

/// Asserts to Bitwuzla that some raw node on constants differs from its
/// reference value: must be unsat.
fn bitwuzla_agrees(solver: &mut Solver, s: &mut TermStore, cases: &[(TermId, u64)], what: &str) {
    let mut any_differs = s.ff();
    for &(raw, expected) in cases {
        let k = s.constant(s.width(raw), expected);
        let eq = s.raw_node(Op::Eq, 1, 0, &[raw, k]).unwrap();
        let ne = s.raw_node(Op::Not, 1, 0, &[eq]).unwrap();
        any_differs = s.raw_node(Op::Or, 1, 0, &[any_differs, ne]).unwrap();
    }
    assert_eq!(solver.check(s, &[], &[any_differs]).unwrap(), SatResult::Unsat, "Bitwuzla disagrees on {what}");
}

#[test]
fn binary_operators_at_edge_values() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::no_caches()).unwrap();
    for w in TEST_WIDTHS {
        let x = s.new_var(&format!("x{w}"), w);
        let y = s.new_var(&format!("y{w}"), w);
        let (xt, yt) = (s.var(x), s.var(y));
        let vals = edge_values(w);
        for op in BINARY {
            let sym = build(&mut s, op, xt, yt);
            let mut cases = Vec::new();
            for &a in &vals {
                for &b in &vals {
                    let expected = reference(op, w, a, b);
                    let (ca, cb) = (s.constant(w, a), s.constant(w, b));
                    // constant folding
                    let folded = build(&mut s, op, ca, cb);
                    assert_eq!(s.as_const(folded), Some(expected), "fold {op:?} w{w} {a:#x} {b:#x}");
                    // evaluator on variables
                    let m = Model::from_pairs([(x, a), (y, b)]);
                    assert_eq!(eval(&s, sym, &m), expected, "eval {op:?} w{w} {a:#x} {b:#x}");
                    // evaluator and Bitwuzla on the unsimplified node
                    let raw = s.raw_node(op, result_width(op, w), 0, &[ca, cb]).unwrap();
                    assert_eq!(eval(&s, raw, &Model::new()), expected, "eval raw {op:?} w{w} {a:#x} {b:#x}");
                    cases.push((raw, expected));
                }
            }
            bitwuzla_agrees(&mut solver, &mut s, &cases, &format!("{op:?} on width {w}"));
        }
    }
}

#[test]
fn derived_comparisons_at_edge_values() {
    let mut s = TermStore::default();
    for w in TEST_WIDTHS {
        for &a in &edge_values(w) {
            for &b in &edge_values(w) {
                let (ca, cb) = (s.constant(w, a), s.constant(w, b));
                let (sa, sb) = (signed(a, w), signed(b, w));
                let checks = [
                    (s.ne(ca, cb), a != b),
                    (s.ugt(ca, cb), a > b),
                    (s.uge(ca, cb), a >= b),
                    (s.sgt(ca, cb), sa > sb),
                    (s.sge(ca, cb), sa >= sb),
                ];
                for (i, (t, expected)) in checks.into_iter().enumerate() {
                    assert_eq!(s.as_const(t), Some(u64::from(expected)), "check {i} w{w} {a:#x} {b:#x}");
                }
            }
        }
    }
}

#[test]
fn unary_operators_at_edge_values() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::no_caches()).unwrap();
    for w in TEST_WIDTHS {
        let x = s.new_var(&format!("x{w}"), w);
        let xt = s.var(x);
        for op in [Op::Not, Op::Neg] {
            let sym = if op == Op::Not { s.not(xt) } else { s.neg(xt) };
            let mut cases = Vec::new();
            for &a in &edge_values(w) {
                let expected = reference(op, w, a, 0);
                let ca = s.constant(w, a);
                let folded = if op == Op::Not { s.not(ca) } else { s.neg(ca) };
                assert_eq!(s.as_const(folded), Some(expected));
                assert_eq!(eval(&s, sym, &Model::from_pairs([(x, a)])), expected);
                cases.push((s.raw_node(op, w, 0, &[ca]).unwrap(), expected));
            }
            bitwuzla_agrees(&mut solver, &mut s, &cases, &format!("{op:?} on width {w}"));
        }
    }
}

#[test]
fn slicing_and_extension_at_edge_values() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::no_caches()).unwrap();
    let mut cases = Vec::new();
    for w in TEST_WIDTHS {
        let x = s.new_var(&format!("x{w}"), w);
        let xt = s.var(x);
        for &a in &edge_values(w) {
            let ca = s.constant(w, a);
            let m = Model::from_pairs([(x, a)]);
            // every extract of the low, middle and high parts
            for (hi, lo) in [(w - 1, 0), (w - 1, w - 1), (0, 0), ((w - 1) / 2, 0), (w - 1, w / 2)] {
                if lo > hi {
                    continue;
                }
                let ew = hi - lo + 1;
                let expected = (a >> lo) & mask(ew);
                let folded = s.extract(ca, hi, lo);
                assert_eq!(s.as_const(folded), Some(expected));
                let sym = s.extract(xt, hi, lo);
                assert_eq!(eval(&s, sym, &m), expected);
                cases.push((s.raw_node(Op::Extract, ew, lo, &[ca]).unwrap(), expected));
            }
            for to in TEST_WIDTHS.into_iter().filter(|&t| t >= w) {
                let z_expected = a;
                let s_expected = wrap(signed(a, w), to);
                let (z, sx) = (s.zext(ca, to), s.sext(ca, to));
                assert_eq!(s.as_const(z), Some(z_expected));
                assert_eq!(s.as_const(sx), Some(s_expected), "sext {a:#x} w{w} -> {to}");
                let (zs, ss) = (s.zext(xt, to), s.sext(xt, to));
                assert_eq!(eval(&s, zs, &m), z_expected);
                assert_eq!(eval(&s, ss, &m), s_expected);
                if to > w {
                    cases.push((s.raw_node(Op::ZExt, to, 0, &[ca]).unwrap(), z_expected));
                    cases.push((s.raw_node(Op::SExt, to, 0, &[ca]).unwrap(), s_expected));
                }
            }
            for hw in TEST_WIDTHS.into_iter().filter(|&h| h + w <= 64) {
                for &b in &edge_values(hw) {
                    let cb = s.constant(hw, b);
                    let expected = (b << w) | a;
                    let folded = s.concat(cb, ca);
                    assert_eq!(s.as_const(folded), Some(expected));
                    cases.push((s.raw_node(Op::Concat, hw + w, 0, &[cb, ca]).unwrap(), expected));
                }
            }
            // ite both ways
            let (t, f) = (s.tt(), s.ff());
            let other = s.constant(w, !a);
            for (c, expected) in [(t, a), (f, !a & mask(w))] {
                let folded = s.ite(c, ca, other);
                assert_eq!(s.as_const(folded), Some(expected));
                cases.push((s.raw_node(Op::Ite, w, 0, &[c, ca, other]).unwrap(), expected));
            }
        }
    }
    for &(raw, expected) in &cases {
        assert_eq!(eval(&s, raw, &Model::new()), expected, "eval of raw {:?}", s.op(raw));
    }
    bitwuzla_agrees(&mut solver, &mut s, &cases, "extract/extend/concat/ite");
}

#[test]
fn documented_edge_cases_have_exact_values() {
    let mut s = TermStore::default();
    let c = |s: &mut TermStore, v: i64| s.constant(32, v as u64);
    let (int_min, minus1, zero, seven, two) =
        (c(&mut s, i64::from(i32::MIN)), c(&mut s, -1), c(&mut s, 0), c(&mut s, 7), c(&mut s, 2));
    let neg7 = c(&mut s, -7);
    let thirty_two = c(&mut s, 32);
    let cases: Vec<(TermId, u64)> = vec![
        (s.sdiv(int_min, minus1), 0x8000_0000), // INT_MIN / -1 wraps
        (s.srem(int_min, minus1), 0),           // INT_MIN % -1
        (s.udiv(seven, zero), 0xffff_ffff),     // x / 0 = all ones
        (s.urem(seven, zero), 7),               // x % 0 = x
        (s.sdiv(seven, zero), 0xffff_ffff),     // non-negative / 0 = -1
        (s.sdiv(neg7, zero), 1),                // negative / 0 = 1
        (s.srem(neg7, zero), 0xffff_fff9),      // x % 0 = x
        (s.sdiv(neg7, two), 0xffff_fffd),       // -7 / 2 = -3
        (s.srem(neg7, two), 0xffff_ffff),       // -7 % 2 = -1
        (s.shl(seven, thirty_two), 0),          // shift by the width
        (s.lshr(int_min, thirty_two), 0),
        (s.ashr(int_min, thirty_two), 0xffff_ffff),
        (s.ashr(seven, thirty_two), 0),
        (s.neg(int_min), 0x8000_0000),
    ];
    for (i, (t, expected)) in cases.into_iter().enumerate() {
        assert_eq!(s.as_const(t), Some(expected), "case {i}");
    }
}
