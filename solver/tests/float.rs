//! Floating-point terms: every operator on a table of doubles and floats (NaNs with payloads,
//! signalling NaNs, signed zeros, infinities, subnormals, extremes) must give what the x86-64
//! hardware running this test gives (Rust's `+`, `sqrt`, `as` compile to the very SSE
//! instructions), in constant folding, in the evaluator, in Bitwuzla (on raw nodes, through
//! the encoding of `core/float.rs`) and in z3 (on the SMT-LIB text of `smtlib/float.rs`).
//! Symbolic queries then explore threshold comparisons with NaN and infinities.

use penumbra_solver::float::{Arith, Integral};
use penumbra_solver::{eval, to_smtlib, Model, Op, SatResult, Solver, SolverConfig, TermId, TermStore};
use std::process::Command;

pub(crate) const DOUBLES: [u64; 16] = [
    0x0000_0000_0000_0000, // +0
    0x8000_0000_0000_0000, // -0
    0x3FF0_0000_0000_0000, // 1
    0xC004_0000_0000_0000, // -2.5
    0x3FB9_9999_9999_999A, // 0.1
    0x4008_0000_0000_0000, // 3
    0x0000_0000_0000_0001, // smallest subnormal
    0x000F_FFFF_FFFF_FFFF, // largest subnormal
    0x7FEF_FFFF_FFFF_FFFF, // DBL_MAX
    0x7FF0_0000_0000_0000, // +inf
    0xFFF0_0000_0000_0000, // -inf
    0x7FF8_0000_0000_0123, // quiet NaN, payload
    0xFFF8_0000_0000_0000, // the default NaN
    0x7FF0_0000_0000_0456, // signalling NaN
    0x4330_0000_0000_0001, // 2^52 + 1
    0xC3E0_0000_0000_0000, // -2^63
];

fn d(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// How many cases of an x87 operator z3 checks (Bitwuzla checks them all).
const X87_Z3_CASES: usize = 40;

/// The width-1 term "some raw node differs from its expected value".
fn some_case_differs<'a>(s: &mut TermStore, cases: impl Iterator<Item = &'a (TermId, u128)>) -> TermId {
    let mut any = s.ff();
    for &(raw, expected) in cases {
        let k = s.constant_wide(s.width(raw), expected);
        let eq = s.raw_node(Op::Eq, 1, 0, &[raw, k]).unwrap();
        let ne = s.raw_node(Op::Not, 1, 0, &[eq]).unwrap();
        any = s.raw_node(Op::Or, 1, 0, &[any, ne]).unwrap();
    }
    any
}

/// Asserts to Bitwuzla that some raw node differs from its expected value: must be unsat; and
/// the same of z3 on the query's SMT-LIB text.
pub(crate) fn bitwuzla_agrees(solver: &mut Solver, s: &mut TermStore, cases: &[(TermId, u128)], what: &str) {
    let any = some_case_differs(s, cases.iter());
    assert_eq!(solver.check(s, &[], &[any]).unwrap(), SatResult::Unsat, "Bitwuzla disagrees on {what}");
    // z3 takes a tenth of a second per x87 case (it does not fold arithmetic with 64-bit
    // significands on constants): it sees an evenly spread sample of those.
    let x87 = cases.iter().any(|&(raw, _)| s.width(raw) == 80 || s.children(raw).iter().any(|&c| s.width(c) == 80));
    let stride = if x87 { cases.len().div_ceil(X87_Z3_CASES).max(1) } else { 1 };
    let any = some_case_differs(s, cases.iter().step_by(stride));
    let script = format!("{}(check-sat)\n", to_smtlib(s, &[any]));
    assert!(script.starts_with("(set-logic QF_BVFP)"), "{script}");
    let file = std::env::temp_dir().join(format!("penumbra-float-{}-{what}.smt2", std::process::id()));
    std::fs::write(&file, &script).unwrap();
    let out = Command::new("z3").arg("-smt2").arg(&file).output().expect("z3 must be installed (Debian package z3)");
    let _ = std::fs::remove_file(&file);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "unsat", "z3 disagrees on {what}:\n{script}");
}

/// A node to check: operator, payload, result width and number of operands.
struct Node(Op, u8, u8, usize);

/// Checks one operator over all pairs (or singles) of the table against `hardware`.
fn check(solver: &mut Solver, s: &mut TermStore, what: &str, node: Node, hardware: impl Fn(u64, u64) -> Option<u64>) {
    let Node(op, aux, width, arity) = node;
    let mut cases = Vec::new();
    for &a in &DOUBLES {
        for &b in DOUBLES.iter().take(if arity == 2 { DOUBLES.len() } else { 1 }) {
            let Some(expected) = hardware(a, b) else { continue };
            let (ca, cb) = (s.constant(64, a), s.constant(64, b));
            let children: Vec<TermId> = [ca, cb].into_iter().take(arity).collect();
            let raw = s.raw_node(op, width, aux, &children).unwrap();
            assert_eq!(eval(s, raw, &Model::new()), expected, "eval {what} {:e} {:e}", d(a), d(b));
            cases.push((raw, u128::from(expected)));
        }
    }
    bitwuzla_agrees(solver, s, &cases, what);
}

#[test]
fn double_operators_agree_with_the_hardware_everywhere() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::no_caches()).unwrap();
    type Hardware = fn(f64, f64) -> f64;
    let arith: [(Arith, Hardware); 4] = [
        (Arith::Add, |x, y| x + y),
        (Arith::Sub, |x, y| x - y),
        (Arith::Mul, |x, y| x * y),
        (Arith::Div, |x, y| x / y),
    ];
    for (i, (op, f)) in arith.into_iter().enumerate() {
        let name = format!("{op:?}");
        check(&mut solver, &mut s, &name, Node(Op::FArith, i as u8, 64, 2), |a, b| Some(f(d(a), d(b)).to_bits()));
    }
    check(&mut solver, &mut s, "sqrt", Node(Op::FSqrt, 0, 64, 1), |a, _| Some(d(a).sqrt().to_bits()));
    let rounding: [fn(f64) -> f64; 5] = [f64::floor, f64::ceil, f64::trunc, f64::round, f64::round_ties_even];
    for (i, f) in rounding.into_iter().enumerate() {
        let name = format!("{:?}", Integral::NODES[i]);
        // NaNs: the libm routines do not promise the hardware's payload rule.
        check(&mut solver, &mut s, &name, Node(Op::FRound, i as u8, 64, 1), |a, _| {
            (!d(a).is_nan()).then(|| f(d(a)).to_bits())
        });
    }
    check(&mut solver, &mut s, "lt", Node(Op::FLt, 0, 1, 2), |a, b| Some(u64::from(d(a) < d(b))));
    check(&mut solver, &mut s, "le", Node(Op::FLe, 0, 1, 2), |a, b| Some(u64::from(d(a) <= d(b))));
    check(&mut solver, &mut s, "eq", Node(Op::FEq, 0, 1, 2), |a, b| Some(u64::from(d(a) == d(b))));
    check(&mut solver, &mut s, "isnan", Node(Op::FIsNan, 0, 1, 1), |a, _| Some(u64::from(d(a).is_nan())));
    check(&mut solver, &mut s, "to_f32", Node(Op::FConvert, 0, 32, 1), |a, _| Some(u64::from((d(a) as f32).to_bits())));
    check(&mut solver, &mut s, "to_i32", Node(Op::FToSInt, 0, 32, 1), |a, _| {
        let t = d(a).trunc();
        (-2147483648.0..=2147483647.0).contains(&t).then(|| (d(a) as i32) as u32 as u64)
    });
    check(&mut solver, &mut s, "to_u64", Node(Op::FToUInt, 0, 64, 1), |a, _| {
        let t = d(a).trunc();
        (0.0..18446744073709551616.0).contains(&t).then(|| d(a) as u64)
    });
    check(&mut solver, &mut s, "from_i64", Node(Op::SIntToF, 0, 64, 1), |a, _| Some(((a as i64) as f64).to_bits()));
    check(&mut solver, &mut s, "from_u64", Node(Op::UIntToF, 0, 64, 1), |a, _| Some((a as f64).to_bits()));
}

/// `fma` (`llvm.fma`, what C's `fma()` compiles to) on triples of the table: rounded once, as
/// `f64::mul_add`; with a NaN operand (where libm's choice of payload is its own) folding,
/// the evaluator, Bitwuzla and z3 must still agree with each other (the first NaN, quieted).
#[test]
fn fused_multiply_add_agrees_with_the_hardware() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::no_caches()).unwrap();
    let values: Vec<u64> = [0, 1, 2, 3, 4, 6, 8, 9, 11, 13].iter().map(|&i| DOUBLES[i]).collect();
    let mut cases = Vec::new();
    for &a in &values {
        for &b in &values {
            for &c in &values {
                let k = [a, b, c].map(|x| s.constant(64, x));
                let raw = s.raw_node(Op::FFma, 64, 0, &k).unwrap();
                let got = eval(&s, raw, &Model::new());
                if [a, b, c].iter().all(|&x| !d(x).is_nan()) {
                    let want = d(a).mul_add(d(b), d(c));
                    assert_eq!(got, want.to_bits(), "fma({:e}, {:e}, {:e})", d(a), d(b), d(c));
                } else {
                    let first = [a, b, c].into_iter().find(|&x| d(x).is_nan()).unwrap();
                    assert_eq!(got, first | 1 << 51, "fma with a NaN: the first, quieted");
                }
                assert_eq!(s.fp_fma(k[0], k[1], k[2]), s.constant(64, got), "folding");
                cases.push((raw, u128::from(got)));
            }
        }
    }
    bitwuzla_agrees(&mut solver, &mut s, &cases, "fma");
}

#[test]
fn float_to_double_keeps_nan_payloads_as_cvtss2sd_does() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::no_caches()).unwrap();
    let floats = [0x7FC0_0001u64, 0xFF80_0001, 0x3DCC_CCCD, 0x0000_0001, 0x8000_0000, 0x7F80_0000];
    let mut cases = Vec::new();
    for &f in &floats {
        let c = s.constant(32, f);
        let raw = s.raw_node(Op::FConvert, 64, 0, &[c]).unwrap();
        let expected = (f32::from_bits(f as u32) as f64).to_bits();
        assert_eq!(eval(&s, raw, &Model::new()), expected, "{f:#x}");
        cases.push((raw, u128::from(expected)));
    }
    bitwuzla_agrees(&mut solver, &mut s, &cases, "f32 to f64");
}

/// `x < 0.1`, `!(x >= 0.1)` and `x != x` on a symbolic double: the solver finds the NaN and
/// the values on each side, and shadow refactorings (`x * 0.5` vs `x / 2.0`) are proven.
#[test]
fn symbolic_doubles_against_thresholds() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let x = s.new_var("x", 64);
    let xt = s.var(x);
    let tenth = s.constant(64, 0.1f64.to_bits());
    let lt = s.fp_lt(xt, tenth);
    let ge = s.fp_le(tenth, xt);
    let not_lt = s.not(lt);
    let not_ge = s.not(ge);
    // Neither x < 0.1 nor x >= 0.1: only a NaN.
    let (r, m) = solver.check_model(&s, &[], &[not_lt, not_ge]).unwrap();
    assert_eq!(r, SatResult::Sat);
    assert!(d(m.unwrap().get(x)).is_nan());
    // x < 0.1 and x > 0.0999...: none in between the two neighbours.
    let below = s.constant(64, 0.1f64.to_bits() - 1);
    let above_below = s.fp_lt(below, xt);
    assert_eq!(solver.check(&s, &[], &[lt, above_below]).unwrap(), SatResult::Unsat);
    // x == +inf is x > DBL_MAX.
    let max = s.constant(64, f64::MAX.to_bits());
    let gt_max = s.fp_lt(max, xt);
    let (r, m) = solver.check_model(&s, &[], &[gt_max]).unwrap();
    assert_eq!((r, d(m.unwrap().get(x))), (SatResult::Sat, f64::INFINITY));
    // Refactoring: x * 0.5 and x / 2.0 have the same bits for every x (NaNs included).
    let half = s.constant(64, 0.5f64.to_bits());
    let two = s.constant(64, 2.0f64.to_bits());
    let (a, b) = (s.fp_arith(Arith::Mul, xt, half), s.fp_arith(Arith::Div, xt, two));
    let same = s.eq(a, b);
    let differ = s.not(same);
    assert_eq!(solver.check(&s, &[], &[differ]).unwrap(), SatResult::Unsat);
    // Not one: x < 0.1 and x <= 0.1 differ at x = 0.1 exactly.
    let le = s.fp_le(xt, tenth);
    let changed = s.xor(lt, le);
    let (r, m) = solver.check_model(&s, &[], &[changed]).unwrap();
    assert_eq!((r, d(m.unwrap().get(x))), (SatResult::Sat, 0.1));
}
