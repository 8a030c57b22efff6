//! No rewrite changes meaning, and the evaluator agrees with Bitwuzla.
//!
//! For many random unsimplified terms `t` (fixed seed): Bitwuzla proves
//! `t == simplify(t)` valid; the evaluator's value of `t` at a random point
//! is the only value Bitwuzla allows there; and evaluating `t` in a model
//! Bitwuzla returns gives the value Bitwuzla was asked for.

use penumbra_solver::{collect_vars, eval, Model, Op, SatResult, Solver, SolverConfig, TermStore};

use crate::common::{Rng, TermGen, WIDTHS};

const TERMS: usize = 1000;

#[test]
fn simplification_preserves_meaning_and_evaluator_matches_bitwuzla() {
    let mut s = TermStore::default();
    let mut rng = Rng::new(0x5eed_0001);
    let mut gen = TermGen::new(&mut s);
    let config = SolverConfig {
        timeout_ms: Some(20_000),
        ..SolverConfig::no_caches()
    };
    let mut solver = Solver::new(config).unwrap();
    let mut changed = 0;
    for i in 0..TERMS {
        let w = *rng.pick(&WIDTHS);
        let t = gen.term(&mut s, &mut rng, w, 5);
        let simple = s.simplify(t);
        assert_eq!(s.width(simple), w);
        // 1. t == simplify(t) is valid
        if simple != t {
            changed += 1;
            let eq = s.raw_node(Op::Eq, 1, 0, &[t, simple]).unwrap();
            let ne = s.raw_node(Op::Not, 1, 0, &[eq]).unwrap();
            let r = solver.check(&s, &[], &[ne]).unwrap();
            assert_eq!(
                r,
                SatResult::Unsat,
                "term {i}: rewriting {t:?} to {simple:?} changed its meaning"
            );
        }
        // 2. the evaluator's value at a random point is forced
        let vars = collect_vars(&s, t);
        let point = Model::from_pairs(
            vars.iter()
                .map(|&v| (v, rng.next_u64() & penumbra_solver::mask(s.var_width(v)))),
        );
        let value = eval(&s, t, &point);
        assert_eq!(
            eval(&s, simple, &point),
            value,
            "term {i}: evaluator differs after simplification"
        );
        let pins: Vec<_> = vars
            .iter()
            .map(|&v| {
                let (vt, k) = (s.var(v), s.constant(s.var_width(v), point.get(v)));
                s.eq(vt, k)
            })
            .collect();
        let k = s.constant(w, value);
        let eq = s.raw_node(Op::Eq, 1, 0, &[t, k]).unwrap();
        let ne = s.raw_node(Op::Not, 1, 0, &[eq]).unwrap();
        assert_eq!(
            solver.check(&s, &pins, &[ne]).unwrap(),
            SatResult::Unsat,
            "term {i}: Bitwuzla allows another value"
        );
        // 3. Bitwuzla's model, evaluated, gives the asked-for value
        let (r, m) = solver.check_model(&s, &[], &[eq]).unwrap();
        assert_eq!(r, SatResult::Sat, "term {i}");
        let m = m.unwrap();
        assert_eq!(
            eval(&s, t, &m),
            value,
            "term {i}: evaluator disagrees with Bitwuzla's model {m:?}"
        );
    }
    // the generator must actually exercise the rewriter
    assert!(changed > TERMS / 3, "only {changed} terms were rewritten");
    assert_eq!(solver.stats().core_unknown, 0);
}
