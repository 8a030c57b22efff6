//! x87 `long double` terms (80 bits: sign, 15-bit exponent, explicit integer bit, 63-bit
//! fraction) against the x87 unit of the machine running the test: arithmetic, square root
//! and the conversions run as `fld`/`fadd`../`fsqrt`/`fstp`/`fild` in inline assembly (Linux
//! sets the x87 to 64-bit precision, round to nearest, exceptions masked: what C programs
//! get). Each operator must give the hardware's bits in constant folding, in the evaluator,
//! in Bitwuzla (through the 79-bit IEEE layout of `bitwuzla/fp.rs`) and in z3 (on the SMT-LIB
//! text), on a table with the encodings only the x87 has: pseudo-denormals, unnormals,
//! pseudo-NaNs. Then a symbolic query: a `long double` assembled from bytes, compared.

use super::float::{bitwuzla_agrees, DOUBLES};
use penumbra_solver::float::{compare, to_int, Arith, Format, Integral};
use penumbra_solver::{eval_wide, Model, Op, SatResult, Solver, SolverConfig, TermId, TermStore, Version};

const LONG_DOUBLES: [u128; 19] = [
    0x0000_0000_0000_0000_0000, // +0
    0x8000_0000_0000_0000_0000, // -0
    0x3FFF_8000_0000_0000_0000, // 1
    0xC000_A000_0000_0000_0000, // -2.5
    0x3FFD_AAAA_AAAA_AAAA_AAAB, // 1/3
    0x3FFB_CCCC_CCCC_CCCC_CCCD, // 0.1L
    0x403E_FFFF_FFFF_FFFF_FFFF, // 2^64 - 1
    0x0000_0000_0000_0000_0001, // smallest denormal
    0x0000_7FFF_FFFF_FFFF_FFFF, // largest denormal
    0x7FFE_FFFF_FFFF_FFFF_FFFF, // LDBL_MAX
    0x7FFF_8000_0000_0000_0000, // +inf
    0xFFFF_8000_0000_0000_0000, // -inf
    0x7FFF_C000_0000_0000_0123, // quiet NaN, payload
    0xFFFF_C000_0000_0000_0000, // the default NaN ("real indefinite")
    0x7FFF_8000_0000_0000_0456, // signalling NaN
    0xFFFF_C000_0000_0000_0789, // negative quiet NaN, smaller significand than the first
    0x0000_8000_0000_0000_0001, // pseudo-denormal
    0x3FFF_4000_0000_0000_0000, // unnormal
    0x7FFF_0000_0000_0000_0001, // pseudo-NaN
];

fn bytes(x: u128) -> [u8; 16] {
    x.to_le_bytes()
}

const MASK80: u128 = (1 << 80) - 1;

/// `a op b` on the x87 (`op` one of `fadd`, `fsub`, `fmul`, `fdiv`), with `a` in `st(0)`.
macro_rules! x87_binary {
    ($insn:literal, $a:expr, $b:expr) => {{
        let (a, b) = (bytes($a), bytes($b));
        let mut r = [0u8; 16];
        // SAFETY: loads two 10-byte values, stores one, leaves the x87 stack as it found it.
        unsafe {
            std::arch::asm!(
                "fld tbyte ptr [{b}]",
                "fld tbyte ptr [{a}]",
                concat!($insn, " st, st(1)"),
                "fstp tbyte ptr [{r}]",
                "fstp st(0)",
                a = in(reg) a.as_ptr(),
                b = in(reg) b.as_ptr(),
                r = in(reg) r.as_mut_ptr(),
                out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
            );
        }
        u128::from_le_bytes(r) & MASK80
    }};
}

/// One x87 instruction sequence from memory operand `a` to memory result (`$load` and
/// `$store` choose the formats).
macro_rules! x87_unary {
    ($load:literal, $op:literal, $store:literal, $a:expr) => {{
        let a = bytes($a);
        let mut r = [0u8; 16];
        // SAFETY: loads one value, stores one, leaves the x87 stack as it found it.
        unsafe {
            std::arch::asm!(
                concat!($load, " [{a}]"),
                $op,
                concat!($store, " [{r}]"),
                a = in(reg) a.as_ptr(),
                r = in(reg) r.as_mut_ptr(),
                out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
            );
        }
        u128::from_le_bytes(r)
    }};
}

/// Checks `op` (payload `aux`, result width `width`) on every operand (pair) of `table` (of
/// `from` bits) against `expected`: the evaluator, folding, Bitwuzla and z3.
fn check(
    s: &mut TermStore,
    solver: &mut Solver,
    what: &str,
    node: (Op, u8, u8, usize),
    table: (&[u128], u8),
    expected: impl Fn(u128, u128) -> Option<u128>,
) {
    let (op, aux, width, arity) = node;
    let (values, from) = table;
    let mut cases = Vec::new();
    for &a in values {
        for &b in values.iter().take(if arity == 2 { values.len() } else { 1 }) {
            let Some(want) = expected(a, b) else { continue };
            let (ca, cb) = (s.constant_wide(from, a), s.constant_wide(from, b));
            let children: Vec<TermId> = [ca, cb].into_iter().take(arity).collect();
            let raw = s.raw_node(op, width, aux, &children).unwrap();
            let got = eval_wide(s, raw, &Model::new(), Version::New);
            assert_eq!(got, want, "eval {what} {a:#x} {b:#x}: {got:#x}, the x87 says {want:#x}");
            cases.push((raw, want));
        }
    }
    bitwuzla_agrees(solver, s, &cases, what);
}

#[test]
fn x87_arithmetic_agrees_with_the_x87_everywhere() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::no_caches()).unwrap();
    let table = (&LONG_DOUBLES[..], 80);
    type Hardware = fn(u128, u128) -> u128;
    let hardware: [(Arith, Hardware); 4] = [
        (Arith::Add, |a, b| x87_binary!("fadd", a, b)),
        (Arith::Sub, |a, b| x87_binary!("fsub", a, b)),
        (Arith::Mul, |a, b| x87_binary!("fmul", a, b)),
        (Arith::Div, |a, b| x87_binary!("fdiv", a, b)),
    ];
    for (i, (op, f)) in hardware.into_iter().enumerate() {
        check(&mut s, &mut solver, &format!("x87 {op:?}"), (Op::FArith, i as u8, 80, 2), table, |a, b| Some(f(a, b)));
    }
    check(&mut s, &mut solver, "x87 sqrt", (Op::FSqrt, 0, 80, 1), table, |a, _| {
        Some(x87_unary!("fld tbyte ptr", "fsqrt", "fstp tbyte ptr", a) & MASK80)
    });
}

#[test]
fn x87_conversions_agree_with_the_x87() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::no_caches()).unwrap();
    let table = (&LONG_DOUBLES[..], 80);
    check(&mut s, &mut solver, "x87 to double", (Op::FConvert, 0, 64, 1), table, |a, _| {
        Some(x87_unary!("fld tbyte ptr", "", "fstp qword ptr", a) & u128::from(u64::MAX))
    });
    check(&mut s, &mut solver, "x87 to float", (Op::FConvert, 0, 32, 1), table, |a, _| {
        Some(x87_unary!("fld tbyte ptr", "", "fstp dword ptr", a) & u128::from(u32::MAX))
    });
    let doubles: Vec<u128> = DOUBLES.iter().map(|&d| u128::from(d)).collect();
    check(&mut s, &mut solver, "double to x87", (Op::FConvert, 0, 80, 1), (&doubles, 64), |a, _| {
        Some(x87_unary!("fld qword ptr", "", "fstp tbyte ptr", a) & MASK80)
    });
    check(&mut s, &mut solver, "i64 to x87", (Op::SIntToF, 0, 80, 1), (&doubles, 64), |a, _| {
        Some(x87_unary!("fild qword ptr", "", "fstp tbyte ptr", a) & MASK80)
    });
    check(&mut s, &mut solver, "u64 to x87", (Op::UIntToF, 0, 80, 1), (&doubles, 64), |a, _| {
        Some(penumbra_solver::float::from_int(Format::F80, a as u64, 64, false))
    });
    // Truncation to integers, where the result fits (the engine checks that first).
    for (what, op, width) in [("x87 to i64", Op::FToSInt, 64u8), ("x87 to u32", Op::FToUInt, 32)] {
        check(&mut s, &mut solver, what, (op, 0, width, 1), table, |a, _| {
            to_int(Format::F80, a, u32::from(width), op == Op::FToSInt).map(u128::from)
        });
    }
    // `fisttp` truncates whatever the rounding mode: the hardware's answer where it fits.
    check(&mut s, &mut solver, "x87 fisttp", (Op::FToSInt, 0, 64, 1), table, |a, _| {
        let fits = to_int(Format::F80, a, 64, true).is_some();
        fits.then(|| x87_unary!("fld tbyte ptr", "", "fisttp qword ptr", a) & u128::from(u64::MAX))
    });
}

#[test]
fn x87_comparisons_and_rounding_agree_with_the_reference() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::no_caches()).unwrap();
    let table = (&LONG_DOUBLES[..], 80);
    use std::cmp::Ordering::{Equal, Less};
    let lt = |a, b| Some(u128::from(compare(Format::F80, a, b) == Some(Less)));
    let le = |a, b| Some(u128::from(matches!(compare(Format::F80, a, b), Some(Less | Equal))));
    let eq = |a, b| Some(u128::from(compare(Format::F80, a, b) == Some(Equal)));
    check(&mut s, &mut solver, "x87 lt", (Op::FLt, 0, 1, 2), table, lt);
    check(&mut s, &mut solver, "x87 le", (Op::FLe, 0, 1, 2), table, le);
    check(&mut s, &mut solver, "x87 eq", (Op::FEq, 0, 1, 2), table, eq);
    // The comparisons are the x87's own: `fucomip` sets ZF/CF as unordered/equal/less.
    for &a in &LONG_DOUBLES {
        for &b in &LONG_DOUBLES {
            let (ab, bb) = (bytes(a), bytes(b));
            let flags: u64;
            // SAFETY: loads two values, compares, pops both.
            unsafe {
                std::arch::asm!(
                    "fld tbyte ptr [{b}]",
                    "fld tbyte ptr [{a}]",
                    "fucomip st, st(1)",
                    "fstp st(0)",
                    "pushfq",
                    "pop {f}",
                    a = in(reg) ab.as_ptr(),
                    b = in(reg) bb.as_ptr(),
                    f = out(reg) flags,
                    out("st(0)") _, out("st(1)") _, out("st(2)") _, out("st(3)") _,
                    out("st(4)") _, out("st(5)") _, out("st(6)") _, out("st(7)") _,
                );
            }
            let (cf, pf, zf) = (flags & 1 != 0, flags & 4 != 0, flags & 0x40 != 0);
            let hardware = if pf {
                None
            } else if zf {
                Some(Equal)
            } else if cf {
                Some(Less)
            } else {
                Some(std::cmp::Ordering::Greater)
            };
            assert_eq!(compare(Format::F80, a, b), hardware, "fucomip {a:#x} {b:#x}");
        }
    }
    check(&mut s, &mut solver, "x87 isnan", (Op::FIsNan, 0, 1, 1), table, |a, _| {
        Some(u128::from(penumbra_solver::float::is_nan(Format::F80, a)))
    });
    for (i, mode) in Integral::NODES.into_iter().enumerate() {
        check(&mut s, &mut solver, &format!("x87 {mode:?}"), (Op::FRound, i as u8, 80, 1), table, |a, _| {
            Some(penumbra_solver::float::round_integral(Format::F80, mode, a))
        });
    }
    // `frndint` rounds to nearest even in the default mode.
    check(&mut s, &mut solver, "x87 frndint", (Op::FRound, 4, 80, 1), table, |a, _| {
        Some(x87_unary!("fld tbyte ptr", "frndint", "fstp tbyte ptr", a) & MASK80)
    });
}

/// A `long double` read from ten symbolic bytes, as a program loads one: `x > 1` and `x < 2`
/// with `x * 3 == 4.5L` has the one answer 1.5; `x != x` needs a NaN encoding (invalid ones
/// included); and `x + 0.1L` differs from `x` in the old/new sense of a shadow unless `x` is
/// huge, infinite or NaN.
#[test]
fn symbolic_long_doubles_from_bytes() {
    let mut s = TermStore::default();
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let vars: Vec<_> = (0..10).map(|i| s.new_var(&format!("x[{i}]"), 8)).collect();
    let mut x = s.var(vars[0]);
    for &v in &vars[1..] {
        let byte = s.var(v);
        x = s.concat(byte, x);
    }
    assert_eq!(s.width(x), 80);
    let value = |m: &Model| vars.iter().enumerate().fold(0u128, |acc, (i, &v)| acc | u128::from(m.get(v)) << (8 * i));
    let one = s.constant_wide(80, LONG_DOUBLES[2]);
    let two = s.constant_wide(80, 0x4000_8000_0000_0000_0000);
    let three = s.constant_wide(80, 0x4000_C000_0000_0000_0000);
    let four_and_half = s.constant_wide(80, 0x4001_9000_0000_0000_0000);
    let (above, below) = (s.fp_lt(one, x), s.fp_lt(x, two));
    let product = s.fp_arith(Arith::Mul, x, three);
    let is_product = s.fp_eq(product, four_and_half);
    let (r, m) = solver.check_model(&s, &[], &[above, below, is_product]).unwrap();
    assert_eq!(r, SatResult::Sat);
    assert_eq!(value(&m.unwrap()), 0x3FFF_C000_0000_0000_0000, "1.5L");
    let nan = s.fp_is_nan(x);
    let (r, m) = solver.check_model(&s, &[], &[nan]).unwrap();
    assert_eq!(r, SatResult::Sat);
    assert!(penumbra_solver::float::is_nan(Format::F80, value(&m.unwrap())));
    // An unnormal is a NaN to the x87: the solver must know (exponent 1..=0x7ffe, no integer bit).
    let top = s.extract(x, 79, 64);
    let exponent_low = s.constant(16, 0x3fff);
    let integer = s.extract(x, 63, 63);
    let (e_is, j_clear) = (s.eq(top, exponent_low), s.not(integer));
    let unnormal = s.and(e_is, j_clear);
    let not_nan = s.not(nan);
    assert_eq!(solver.check(&s, &[], &[unnormal, not_nan]).unwrap(), SatResult::Unsat);
    // The sum's bits: the evaluator agrees with a model's bits.
    let tenth = s.constant_wide(80, LONG_DOUBLES[5]);
    let sum = s.fp_arith(Arith::Add, x, tenth);
    let changed = s.eq(sum, x);
    let changed = s.not(changed);
    let (r, m) = solver.check_model(&s, &[], &[changed, above, below]).unwrap();
    assert_eq!(r, SatResult::Sat);
    let m = m.unwrap();
    let got = eval_wide(&s, sum, &m, Version::New);
    assert_eq!(got, x87_binary!("fadd", value(&m), LONG_DOUBLES[5]));
}

/// A query with more `long double` multiplications than Bitwuzla can bit-blast within memory
/// (257 in one chain, above the 256 the core allows) is answered unknown without starting a
/// check, and counted; the same chain cut to 2 is solved.
#[test]
fn a_query_with_too_much_long_double_arithmetic_is_not_started() {
    let mut s = TermStore::default();
    let config = SolverConfig { ranges: false, ..SolverConfig::default() };
    let mut solver = Solver::new(config).unwrap();
    let vars: Vec<_> = (0..10).map(|i| s.new_var(&format!("x[{i}]"), 8)).collect();
    let mut x = s.var(vars[0]);
    for &v in &vars[1..] {
        let byte = s.var(v);
        x = s.concat(byte, x);
    }
    let one = s.constant_wide(80, LONG_DOUBLES[2]);
    let chain = |s: &mut TermStore, n: u64| {
        (0..n).fold(x, |y, i| {
            let factor = s.constant_wide(80, 0x3FFF_8000_0000_0000_0000 + (u128::from(i) << 40));
            s.fp_arith(Arith::Mul, y, factor)
        })
    };
    let long = chain(&mut s, 257);
    let above = s.fp_lt(one, long);
    assert_eq!(solver.check(&s, &[], &[above]).unwrap(), SatResult::Unknown);
    assert_eq!(solver.stats().core_float_too_large, 1);
    let short = chain(&mut s, 2);
    let above = s.fp_lt(one, short);
    assert_eq!(solver.check(&s, &[], &[above]).unwrap(), SatResult::Sat);
    assert_eq!((solver.stats().core_float_too_large, solver.stats().core_unknown), (1, 1));
}
