//! Terms 100,000 operations deep go through every pass without recursion:
//! construction, projections, evaluation, variable collection, printing,
//! translation to Bitwuzla, the caches and four-way checks.

use penumbra_solver::{
    collect_vars, eval, eval_version, to_smtlib, Model, Outcome, SatResult, Solver, SolverConfig, TermStore, Version,
};

const DEPTH: u64 = 100_000;

#[test]
fn a_100k_chain_goes_through_every_pass() {
    let mut s = TermStore::default();
    let xv = s.new_var("x", 8);
    let yv = s.new_var("y", 8);
    let (x, y) = (s.var(xv), s.var(yv));
    let (x32, y32) = (s.zext(x, 32), s.zext(y, 32));
    // t = x + change(1, 2) + y + y + ... (DEPTH times), alternating with xor 0x55 to defeat folding
    let (one, two) = (s.constant(32, 1), s.constant(32, 2));
    let sh = s.shadow(one, two);
    let mut t = s.add(x32, sh);
    let k55 = s.constant(32, 0x55);
    for i in 0..DEPTH {
        t = if i % 2 == 0 { s.add(t, y32) } else { s.xor(t, k55) };
    }
    assert!(s.has_shadow(t));
    let (o, n) = s.projections(t);
    assert!(!s.has_shadow(o) && !s.has_shadow(n));
    assert_eq!(collect_vars(&s, o), vec![xv, yv]);

    // evaluator: reference computed directly
    let m = Model::from_pairs([(xv, 3), (yv, 5)]);
    let reference = |start: u64| {
        let mut v = start;
        for i in 0..DEPTH {
            v = if i % 2 == 0 { v.wrapping_add(5) & 0xffff_ffff } else { v ^ 0x55 };
        }
        v
    };
    assert_eq!(eval(&s, o, &m), reference(4));
    assert_eq!(eval(&s, n, &m), reference(5));
    assert_eq!(eval_version(&s, t, &m, Version::Old), reference(4));

    // printing stays flat
    let limit = s.constant(32, 1000);
    let c_old = s.ult(o, limit);
    let text = to_smtlib(&s, &[c_old]);
    assert!(text.lines().count() > 1000);

    // solver: translation, independence, cex evaluation, four-way. The
    // inputs are pinned by the path condition so that Bitwuzla's work is
    // propagation, not search (a free 100k-operation chain is a hard SAT
    // problem, which is not what this test is about).
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    let (k3, k5) = (s.constant(8, 3), s.constant(8, 5));
    let pc = [s.eq(x, k3), s.eq(y, k5)];
    let (r, model) = solver.check_model(&s, &pc, &[c_old]).unwrap();
    let expect_old = reference(4) < 1000;
    assert_eq!(r == SatResult::Sat, expect_old);
    if let Some(model) = model {
        assert_eq!(model, m);
    }
    let cond = s.ult(t, limit);
    let fw = solver.four_way(&mut s, &pc, cond).unwrap();
    let expected = Outcome::from_values(expect_old, reference(5) < 1000);
    assert_eq!(fw.feasible(), vec![expected]);
    assert_eq!(fw.get(expected), Some(&m));
    // the pinned path condition is on Bitwuzla's assertion stack
    assert!(solver.asserted_depth() <= pc.len());
}
