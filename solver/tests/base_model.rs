//! Queries with a model of the path condition in hand (`check_model_from`, `four_way_from`,
//! what the engine asks): on a random depth-first exploration over variables in independent
//! groups, they give the same answers as the plain calls, every model they return satisfies its
//! query, and variables the query does not reach keep the given model's values.

use crate::common::{Rng, Source};
use penumbra_solver::{satisfies, Model, SatResult, Solver, SolverConfig, TermId, TermStore, VarId};

/// Four 8-bit variables; conditions join at most two of them, so path conditions split into
/// independent groups.
struct Vars {
    ids: Vec<VarId>,
    terms: Vec<TermId>,
}

/// A random condition and the variables it mentions.
fn condition(s: &mut TermStore, rng: &mut Rng, v: &Vars, shadow: bool) -> (TermId, [usize; 2]) {
    let (i, j) = (rng.below(4) as usize, rng.below(4) as usize);
    let (a, b) = (v.terms[i], v.terms[j]);
    let k = s.constant(8, rng.below(256));
    let k2 = s.constant(8, rng.below(256));
    let k = if shadow { s.shadow(k, k2) } else { k };
    match rng.below(3) {
        0 => (s.ult(a, k), [i, i]),
        1 => {
            let sum = s.add(a, k);
            (s.ult(sum, b), [i, j])
        }
        _ => {
            let sum = s.add(a, b);
            (s.eq(sum, k), [i, j])
        }
    }
}

fn explore(config: SolverConfig, seed: u64) -> usize {
    let mut s = TermStore::default();
    let mut solver = Solver::new(config).expect("solver");
    let mut rng = Rng::new(seed);
    let ids: Vec<VarId> = (0..4).map(|i| s.new_var(&format!("v{i}"), 8)).collect();
    let terms = ids.iter().map(|&id| s.var(id)).collect();
    let v = Vars { ids, terms };
    let mut checked = 0;
    // (path condition, the variables it mentions, a model of it, depth)
    let mut stack: Vec<(Vec<TermId>, Vec<bool>, Model, u32)> = vec![(Vec::new(), vec![false; 4], Model::new(), 0)];
    while let Some((pc, used, base, depth)) = stack.pop() {
        if depth >= 7 || checked > 400 {
            continue;
        }
        assert!(satisfies(&s, &pc, &base), "the exploration keeps a model of each path");
        let shadow = rng.below(3) == 0;
        let (cond, cond_vars) = condition(&mut s, &mut rng, &v, shadow);
        let mut child_used = used.clone();
        for i in cond_vars {
            child_used[i] = true;
        }
        if shadow {
            let plain = solver.four_way(&mut s, &pc, cond).expect("four_way");
            let from = solver.four_way_from(&mut s, &pc, cond, &base).expect("four_way_from");
            assert_eq!(from.feasible(), plain.feasible(), "seed {seed}: four-way answers differ");
            let (o, n) = s.projections(cond);
            for out in from.feasible() {
                let m = from.get(out).expect("a feasible outcome has a model").clone();
                let lo = if out.old_value() { o } else { s.not(o) };
                let ln = if out.new_value() { n } else { s.not(n) };
                let mut child = pc.clone();
                child.extend([lo, ln]);
                assert!(satisfies(&s, &child, &m), "seed {seed}: the model of {out:?} misses its query");
                checked += 1;
                stack.push((child, child_used.clone(), m, depth + 1));
            }
        } else {
            for lit in [cond, s.not(cond)] {
                let (plain, _) = solver.check_model(&s, &pc, &[lit]).expect("check_model");
                let (res, model) = solver.check_model_from(&s, &pc, &[lit], &base).expect("check_model_from");
                assert_eq!(res, plain, "seed {seed}: answers differ");
                checked += 1;
                if res != SatResult::Sat {
                    continue;
                }
                let m = model.expect("sat comes with a model");
                let mut child = pc.clone();
                child.push(lit);
                assert!(satisfies(&s, &child, &m), "seed {seed}: the model misses its query");
                // A variable no constraint mentions keeps the base model's value.
                for (i, &id) in v.ids.iter().enumerate() {
                    if !child_used[i] {
                        assert_eq!(m.get(id), base.get(id), "seed {seed}: v{i} changed without a reason");
                    }
                }
                stack.push((child, child_used.clone(), m, depth + 1));
            }
        }
    }
    checked
}

#[test]
fn queries_from_a_base_model_answer_as_the_plain_ones() {
    for seed in [3, 17, 2024] {
        for config in [SolverConfig::default(), SolverConfig::no_caches()] {
            let checked = explore(config, seed);
            assert!(checked > 100, "seed {seed}: too small an exploration ({checked} checks)");
        }
    }
}
