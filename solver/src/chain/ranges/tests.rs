//! The range solver against brute force: random queries in its fragment over one 8-bit input
//! (a variable, or two 4-bit variables concatenated) must get exactly the answer that trying
//! all 256 values gives, and so must random queries over two 6-bit inputs mixing single-input
//! constraints with constraints over both (decided by enumeration); every model must satisfy
//! its query.

use super::*;
use crate::eval::satisfies;
use crate::query::{Answer, Query};
use crate::vars::VarIndex;

fn decide(s: &TermStore, q: &Query<'_>) -> Option<Answer> {
    domains::decide(s, &mut VarIndex::new(1 << 10), &mut solutions::SolutionSets::default(), q)
}

/// xorshift64: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A value term over `atom` (8 bits): the atom wrapped in a few of the supported maps, possibly
/// widened to 16 bits. Returns the term.
fn value(s: &mut TermStore, rng: &mut Rng, atom: TermId) -> TermId {
    let mut t = atom;
    for _ in 0..rng.below(3) {
        let w = s.width(t);
        let k = s.constant(w, rng.below(256));
        t = match rng.below(6) {
            0 => s.add(t, k),
            1 => s.sub(t, k),
            2 => s.sub(k, t),
            3 => s.neg(t),
            4 if w == 8 => s.zext(t, 16),
            5 if w == 8 => s.sext(t, 16),
            _ => s.add(k, t),
        };
    }
    t
}

/// A random width-1 constraint in the fragment.
fn constraint(s: &mut TermStore, rng: &mut Rng, atom: TermId, depth: u32) -> TermId {
    if depth > 0 && rng.below(3) == 0 {
        let a = constraint(s, rng, atom, depth - 1);
        let b = constraint(s, rng, atom, depth - 1);
        return match rng.below(5) {
            0 => s.and(a, b),
            1 => s.or(a, b),
            2 => s.xor(a, b),
            3 => s.not(a),
            _ => {
                // equality of two zero-extended truth values, as C's `(a) == (b)` lowers
                let (za, zb) = (s.zext(a, 32), s.zext(b, 32));
                s.eq(za, zb)
            }
        };
    }
    let v = value(s, rng, atom);
    let w = s.width(v);
    // constants near the interesting points: 0, the sign boundary, the top
    let c = match rng.below(4) {
        0 => rng.below(8),
        1 => (1u64 << (w - 1)).wrapping_add(rng.below(8)).wrapping_sub(4),
        2 => mask(w) - rng.below(8),
        _ => rng.next(),
    } & mask(w);
    let k = s.constant(w, c);
    let (l, r) = if rng.below(2) == 0 { (v, k) } else { (k, v) };
    match rng.below(8) {
        0 => s.eq(l, r),
        1 => s.ne(l, r),
        2 => s.ult(l, r),
        3 => s.ule(l, r),
        4 => s.slt(l, r),
        5 => s.sle(l, r),
        6 => s.ugt(l, r),
        _ => s.sge(l, r),
    }
}

/// The atom's 256 values as models.
fn all_models(s: &TermStore, atom: TermId) -> Vec<Model> {
    (0..256u64)
        .map(|v| {
            let mut m = Model::new();
            assign(s, atom, v, &mut m);
            m
        })
        .collect()
}

#[test]
fn agrees_with_brute_force_on_random_queries() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut decided, mut sat) = (0, 0);
    for round in 0..3000 {
        let mut s = TermStore::default();
        let atom = if round % 2 == 0 {
            let x = s.new_var("x", 8);
            s.var(x)
        } else {
            let (hi, lo) = (s.new_var("hi", 4), s.new_var("lo", 4));
            let (hi, lo) = (s.var(hi), s.var(lo));
            s.concat(hi, lo)
        };
        let n = 1 + rng.below(4) as usize;
        let cs: Vec<TermId> = (0..n).map(|_| constraint(&mut s, &mut rng, atom, 2)).collect();
        let cs: Vec<TermId> = cs.into_iter().filter(|&c| s.as_const(c).is_none()).collect();
        if cs.is_empty() {
            continue;
        }
        let (pc, extra) = cs.split_at(cs.len() / 2);
        let q = Query::new(pc, extra, true);
        let Some(answer) = decide(&s, &q) else {
            // only when the rewriter folded the atom away into something else
            continue;
        };
        decided += 1;
        let feasible = all_models(&s, atom).into_iter().any(|m| satisfies(&s, &cs, &m));
        match answer {
            Answer::Sat(Some(m)) => {
                sat += 1;
                assert!(satisfies(&s, &cs, &m), "round {round}: the model {m:?} does not satisfy the query");
            }
            Answer::Unsat => assert!(!feasible, "round {round}: unsat, but some value satisfies the query"),
            other => panic!("round {round}: unexpected answer {other:?}"),
        }
    }
    // the generator stays in the fragment, and both answers occur
    assert!(decided > 2900, "decided {decided} of 3000");
    assert!(sat > 500 && decided - sat > 500, "sat {sat} of {decided}");
}

#[test]
fn int_input_bounds_and_a_changed_threshold() {
    // 0 <= n <= 150 with n the bytes of an int, and old(n <= 25) != new(n < 25): only n = 25
    let mut s = TermStore::default();
    let bytes: Vec<TermId> = (0..4)
        .map(|i| {
            let v = s.new_var(&format!("n[{i}]"), 8);
            s.var(v)
        })
        .collect();
    let hi = s.concat(bytes[3], bytes[2]);
    let hi = s.concat(hi, bytes[1]);
    let n = s.concat(hi, bytes[0]);
    let (zero, max, k) = (s.constant(32, 0), s.constant(32, 150), s.constant(32, 25));
    let pc = [s.sle(zero, n), s.sle(n, max)];
    let (old, new) = (s.sle(n, k), s.slt(n, k));
    let (zo, zn) = (s.zext(old, 32), s.zext(new, 32));
    let differ = s.ne(zo, zn);
    let q = Query::new(&pc, std::slice::from_ref(&differ), true);
    let Some(Answer::Sat(Some(m))) = decide(&s, &q) else { panic!("decided sat") };
    let value: Vec<u64> = (0..4).map(|i| m.get(s.as_var(bytes[i]).unwrap())).collect();
    assert_eq!(value, vec![25, 0, 0, 0]);
    // and both versions false at once is n > 25: the value closest to zero is 26
    let (no, nn) = (s.not(old), s.not(new));
    let both_false = [no, nn];
    let q = Query::new(&pc, &both_false, true);
    let Some(Answer::Sat(Some(m))) = decide(&s, &q) else { panic!("decided sat") };
    assert_eq!(m.get(s.as_var(bytes[0]).unwrap()), 26);
    // old false, new true is impossible
    let diff_true = [no, new];
    let q = Query::new(&pc, &diff_true, true);
    assert_eq!(decide(&s, &q), Some(Answer::Unsat));
}

#[test]
fn outside_the_fragment_passes_unless_the_domain_is_small_or_the_rest_contradictory() {
    let mut s = TermStore::default();
    let (xv, yv) = (s.new_var("x", 16), s.new_var("y", 16));
    let (x, y) = (s.var(xv), s.var(yv));
    let (three, ten) = (s.constant(16, 3), s.constant(16, 10));
    let product = s.mul(x, y);
    let nonlinear = s.ult(product, ten);
    let small = s.ult(x, three);
    let big = s.ugt(x, ten);
    // x * y < 10 with y free over 16 bits: 3 * 65,536 combinations, decided by trying them
    let Some(Answer::Sat(Some(m))) = decide(&s, &Query::new(&[small], &[nonlinear], true)) else { panic!("sat") };
    assert_eq!((m.get(xv), m.get(yv)), (0, 0));
    // with x free too, 2^32 combinations: undecided
    assert_eq!(decide(&s, &Query::new(&[], &[nonlinear], true)), None);
    // but x < 3 and x > 10 contradict each other whatever the rest says
    assert_eq!(decide(&s, &Query::new(&[small, nonlinear], &[big], true)), Some(Answer::Unsat));
    // two inputs each compared with constants: each takes its value closest to zero as a
    // signed number (y >u 10 allows -1)
    let y_big = s.ugt(y, ten);
    let Some(Answer::Sat(Some(m))) = decide(&s, &Query::new(&[small], &[y_big], true)) else { panic!("sat") };
    assert_eq!((m.get(xv), m.get(yv)), (0, 0xffff));
    // with y bounded too, x * y < 10 is decided by trying the 3 * 5 combinations
    let sixteen = s.constant(16, 16);
    let y_low = s.ult(y, sixteen);
    let pc = [small, y_big, y_low];
    let Some(Answer::Sat(Some(m))) = decide(&s, &Query::new(&pc, &[nonlinear], true)) else { panic!("sat") };
    assert_eq!((m.get(xv), m.get(yv)), (0, 11));
    let zero = s.constant(16, 0);
    let x_pos = s.ugt(x, zero);
    assert_eq!(decide(&s, &Query::new(&pc, &[nonlinear, x_pos], true)), Some(Answer::Unsat));
    // an int and one of its own bytes are not independent inputs: undecided
    let (lo, hi) = (s.new_var("n[0]", 8), s.new_var("n[1]", 8));
    let (lo_t, hi_t) = (s.var(lo), s.var(hi));
    let n = s.concat(hi_t, lo_t);
    let five = s.constant(8, 5);
    let (n_small, byte_big) = (s.ult(n, ten), s.ugt(lo_t, five));
    assert_eq!(decide(&s, &Query::new(&[n_small], &[byte_big], true)), None);
}

/// `a op b` for two value terms over different inputs, or a product compared with a constant.
fn mixed_constraint(s: &mut TermStore, rng: &mut Rng, x: TermId, y: TermId) -> TermId {
    let (a, b) = (value(s, rng, x), value(s, rng, y));
    let w = s.width(a);
    let b = if s.width(b) == w { b } else { s.zext(y, w) };
    let k = s.constant(w, rng.below(64));
    let (l, r) = match rng.below(4) {
        0 => (s.add(a, b), k),
        1 => (s.mul(a, b), k),
        2 => (s.urem(a, b), k),
        _ => (a, b),
    };
    match rng.below(5) {
        0 => s.eq(l, r),
        1 => s.ne(l, r),
        2 => s.ult(l, r),
        3 => s.sle(l, r),
        _ => s.ugt(l, r),
    }
}

#[test]
fn small_domains_agree_with_brute_force() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let (mut decided, mut sat) = (0, 0);
    for round in 0..1500 {
        let mut s = TermStore::default();
        let (xv, yv) = (s.new_var("x", 6), s.new_var("y", 6));
        let (x, y) = (s.var(xv), s.var(yv));
        let mut cs: Vec<TermId> = Vec::new();
        for _ in 0..rng.below(3) {
            let atom = if rng.below(2) == 0 { x } else { y };
            cs.push(constraint(&mut s, &mut rng, atom, 1));
        }
        for _ in 0..1 + rng.below(2) {
            cs.push(mixed_constraint(&mut s, &mut rng, x, y));
        }
        cs.retain(|&c| s.as_const(c).is_none());
        if cs.is_empty() {
            continue;
        }
        let (pc, extra) = cs.split_at(cs.len() / 2);
        // 64 * 64 combinations at most: always decided.
        let answer = decide(&s, &Query::new(pc, extra, true)).unwrap_or_else(|| panic!("round {round}: undecided"));
        decided += 1;
        let feasible =
            (0..64u64).any(|a| (0..64u64).any(|b| satisfies(&s, &cs, &Model::from_pairs([(xv, a), (yv, b)]))));
        match answer {
            Answer::Sat(Some(m)) => {
                sat += 1;
                assert!(satisfies(&s, &cs, &m), "round {round}: the model {m:?} does not satisfy the query");
            }
            Answer::Unsat => assert!(!feasible, "round {round}: unsat, but some values satisfy the query"),
            other => panic!("round {round}: unexpected answer {other:?}"),
        }
    }
    assert!(decided > 1400, "decided {decided} of 1500");
    assert!(sat > 300 && decided - sat > 150, "sat {sat} of {decided}");
}

#[test]
fn picks_the_value_closest_to_zero() {
    let r = |spans: Vec<(u64, u64)>| Ranges::normalized(8, spans);
    assert_eq!(r(vec![(0, 255)]).pick(), Some(0));
    assert_eq!(r(vec![(200, 255)]).pick(), Some(255)); // -1
    assert_eq!(r(vec![(3, 9), (250, 252)]).pick(), Some(3)); // 3 beats -4
    assert_eq!(r(vec![(4, 9), (250, 252)]).pick(), Some(4)); // a tie: the non-negative
    assert_eq!(r(vec![(7, 9), (250, 252)]).pick(), Some(252)); // -4 beats 7
    assert_eq!(r(vec![(128, 130)]).pick(), Some(130)); // -126
    assert_eq!(r(vec![]).pick(), None);
    assert_eq!(r(vec![(0, 3), (4, 9)]).spans, vec![(0, 9)]);
    assert_eq!(r(vec![(0, 3), (250, 255)]).complement().spans, vec![(4, 249)]);
}

/// Euclid-style queries over two 32-bit inputs in [-100, 100] (the issue's example among them):
/// each query of a path filters the kept solutions of the one before, and every answer is the
/// one trying all 40,401 combinations gives, with the same model as a fresh solver's.
#[test]
fn a_path_over_two_inputs_in_a_hundred_reuses_its_solutions() {
    let mut s = TermStore::default();
    let (av, bv) = (s.new_var("a", 32), s.new_var("b", 32));
    let (a, b) = (s.var(av), s.var(bv));
    let k = |s: &mut TermStore, v: i64| s.constant(32, v as u64);
    let (lo, hi, zero) = (k(&mut s, -100), k(&mut s, 100), k(&mut s, 0));
    let mut path = vec![s.sle(lo, a), s.sle(a, hi), s.sle(lo, b), s.sle(b, hi)];
    let neg_a = s.neg(a);
    let neg_a_minus_b = s.sub(neg_a, b);
    let b_neg_a = s.mul(b, neg_a);
    let steps = [
        s.slt(a, zero),
        s.ne(b, zero),
        s.slt(b, neg_a),
        s.slt(b, neg_a_minus_b),
        s.slt(b, b_neg_a),
        {
            let d = s.sub(neg_a_minus_b, b);
            s.slt(b, d)
        },
        {
            let p = s.mul(b, b_neg_a);
            s.sle(p, b)
        },
    ];
    let mut sets = solutions::SolutionSets::default();
    let brute = |s: &TermStore, cs: &[TermId]| {
        (-100i64..=100).flat_map(|x| (-100i64..=100).map(move |y| (x, y))).find_map(|(x, y)| {
            let m = Model::from_pairs([(av, x as u64 & 0xffff_ffff), (bv, y as u64 & 0xffff_ffff)]);
            satisfies(s, cs, &m).then_some(m)
        })
    };
    let mut answers = Vec::new();
    for &step in &steps {
        for extra in [step, s.not(step)] {
            let extras = [extra];
            let q = Query::new(&path, &extras, true);
            let kept = domains::decide(&s, &mut VarIndex::new(1 << 10), &mut sets, &q).expect("decided");
            assert_eq!(decide(&s, &q), Some(kept.clone()), "a kept set answers as a fresh enumeration");
            let mut all = path.clone();
            all.push(extra);
            match (&kept, brute(&s, &all)) {
                (Answer::Sat(Some(m)), Some(_)) => assert!(satisfies(&s, &all, m)),
                (Answer::Unsat, None) => {}
                (answer, expected) => panic!("{answer:?}, but brute force finds {expected:?}"),
            }
            answers.push(matches!(kept, Answer::Sat(_)));
        }
        path.push(step);
    }
    // Every step and its negation are feasible on the path, except the issue's last
    // constraint, b * (b * -a) <= b, which no pair in the domain meets there.
    let mut expected = [true; 14];
    expected[12] = false;
    assert_eq!(answers, expected);
}

/// `strtod` of two symbolic digits and a chain of float additions: 100 combinations, but each
/// costs 40 float nodes, so the path's solutions are kept (the next query on the path filters
/// them) and the answers are those of brute force.
#[test]
fn a_costly_enumeration_of_few_combinations_keeps_the_path_solutions() {
    use crate::float::Arith;
    let mut s = TermStore::default();
    let (d0v, d1v) = (s.new_var("d0", 8), s.new_var("d1", 8));
    let (d0, d1) = (s.var(d0v), s.var(d1v));
    let (c0, c9) = (s.constant(8, u64::from(b'0')), s.constant(8, u64::from(b'9')));
    let mut path = vec![s.ule(c0, d0), s.ule(d0, c9), s.ule(c0, d1), s.ule(d1, c9)];
    let digit = |s: &mut TermStore, d: TermId| {
        let v = s.sub(d, c0);
        s.int_to_fp(v, 64, false)
    };
    let (f0, f1) = (digit(&mut s, d0), digit(&mut s, d1));
    let ten = s.constant(64, 10f64.to_bits());
    let tens = s.fp_arith(Arith::Mul, f0, ten);
    let mut x = s.fp_arith(Arith::Add, tens, f1);
    let half = s.constant(64, 0.5f64.to_bits());
    for _ in 0..40 {
        x = s.fp_arith(Arith::Add, x, half);
    }
    let bound = |s: &mut TermStore, v: f64| s.constant(64, v.to_bits());
    let lo = bound(&mut s, 57.5);
    path.push(s.fp_lt(lo, x));
    let mut sets = solutions::SolutionSets::default();
    for (limit, expected) in [(60.0, Some((b'3', b'8'))), (38.0, None)] {
        let hi = bound(&mut s, limit);
        let extras = [s.fp_lt(x, hi)];
        let q = Query::new(&path, &extras, true);
        let answer = domains::decide(&s, &mut VarIndex::new(1 << 10), &mut sets, &q).expect("decided");
        assert_eq!(sets.len(), 1, "the path's solutions are kept");
        match (answer, expected) {
            (Answer::Sat(Some(m)), Some((a, b))) => {
                assert_eq!((m.get(d0v), m.get(d1v)), (u64::from(a), u64::from(b)));
            }
            (Answer::Unsat, None) => {}
            (answer, expected) => panic!("{answer:?}, expected {expected:?}"),
        }
    }
}

/// numfmt's shape: a `long double` computed from one digit, beside three free bytes tied to each
/// other and to the digit. 9 * 256^3 combinations are too many to try, but the float constraint
/// reads only the digit: with the digit changing slowest, it is evaluated once per digit, and the
/// search finds the first solution (or that there is none) without Bitwuzla. Without floats the
/// same shape stays undecided (Bitwuzla is quick there).
#[test]
fn a_float_over_one_digit_beside_free_bytes_is_decided_by_search() {
    use crate::float::Arith;
    let mut s = TermStore::default();
    let vars: Vec<VarId> = ["d", "p", "q", "r"].iter().map(|n| s.new_var(n, 8)).collect();
    let [d, p, q, r] = [0, 1, 2, 3].map(|i| s.var(vars[i]));
    let (c1, c9, one) = (s.constant(8, u64::from(b'1')), s.constant(8, u64::from(b'9')), s.constant(8, 1));
    let c0 = s.constant(8, u64::from(b'0'));
    let p1 = s.add(p, one);
    let path = vec![s.ule(c1, d), s.ule(d, c9), s.eq(p, q), s.ne(q, d), s.eq(r, p1)];
    let digit = s.sub(d, c0);
    let value = s.int_to_fp(digit, 80, false);
    let int = |s: &mut TermStore, v: u64| {
        let k = s.constant(32, v);
        s.int_to_fp(k, 80, true)
    };
    let (ten, three) = (int(&mut s, 10), int(&mut s, 3));
    let tens = s.fp_arith(Arith::Mul, value, ten);
    let x = s.fp_arith(Arith::Div, tens, three);
    for (bound, expected) in [(20, Some(b'7')), (40, None)] {
        let limit = int(&mut s, bound);
        let extras = [s.fp_lt(limit, x)];
        match decide(&s, &Query::new(&path, &extras, true)) {
            Some(Answer::Sat(Some(m))) => {
                let values: Vec<u64> = vars.iter().map(|&v| m.get(v)).collect();
                // p = q = 0 and r = 1 (each as close to zero as the others allow); d the
                // first digit over 6
                assert_eq!(values, vec![u64::from(expected.expect("sat")), 0, 0, 1]);
            }
            Some(Answer::Unsat) => assert_eq!(expected, None),
            other => panic!("x > {bound}: {other:?}"),
        }
    }
    let five = s.constant(8, u64::from(b'5'));
    let integer = [s.ult(five, d)];
    assert_eq!(decide(&s, &Query::new(&path, &integer, true)), None, "no floats: left to Bitwuzla");
}
