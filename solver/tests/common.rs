//! Shared helpers: the fixed-seed PRNG and the random term generator (both from
//! penumbra-fuzz-checks, whose rewrite fuzz target uses them too), and a simulated exploration.

use penumbra_solver::{TermId, TermStore};

pub use penumbra_fuzz_checks::terms::{edge_values, mask, TermGen, WIDTHS};
pub use penumbra_fuzz_checks::{Rng, Source};

/// The answers and models of one simulated exploration.
pub struct Run {
    pub answers: Vec<String>,
    pub models: Vec<penumbra_solver::Model>,
    pub stats: penumbra_solver::SolverStats,
}

/// Simulates an engine exploring a program depth-first: two 4-byte symbolic
/// objects `x` and `y`, random branch conditions (some holding shadows),
/// plain branches asked as two checks, shadow branches as four-way checks,
/// and now and then a model of the path condition or an equality proof.
/// Every model is checked against its query with the evaluator. Everything
/// depends only on `seed` and on the solver's answers.
pub fn explore(config: penumbra_solver::SolverConfig, seed: u64, max_nodes: usize) -> Run {
    use penumbra_solver::{satisfies, SatResult, Solver};
    let mut s = TermStore::default();
    let mut solver = Solver::new(config).unwrap();
    let mut rng = Rng::new(seed);
    let xs: Vec<TermId> = (0..4)
        .map(|i| {
            let v = s.new_var(&format!("x[{i}]"), 8);
            s.var(v)
        })
        .collect();
    let ys: Vec<TermId> = (0..4)
        .map(|i| {
            let v = s.new_var(&format!("y[{i}]"), 8);
            s.var(v)
        })
        .collect();
    let word = |s: &mut TermStore, b: &[TermId]| {
        let lo = s.concat(b[1], b[0]);
        let hi = s.concat(b[3], b[2]);
        s.concat(hi, lo)
    };
    let x = word(&mut s, &xs);
    let y = word(&mut s, &ys);
    let mut run = Run { answers: Vec::new(), models: Vec::new(), stats: Default::default() };
    // DFS over (pc, depth)
    let mut stack: Vec<(Vec<TermId>, u32)> = vec![(Vec::new(), 0)];
    let mut nodes = 0;
    while let Some((pc, depth)) = stack.pop() {
        if nodes >= max_nodes || depth >= 12 {
            continue;
        }
        nodes += 1;
        let cond = random_condition(&mut s, &mut rng, x, y, &xs, &ys);
        if s.has_shadow(cond) {
            let fw = solver.four_way(&mut s, &pc, cond).unwrap();
            run.answers.push(format!("four_way {:?} unknown {:?}", fw.feasible(), fw.unknown));
            let (o, n) = s.projections(cond);
            for out in fw.feasible().into_iter().rev() {
                let m = fw.get(out).unwrap().clone();
                let lo = if out.old_value() { o } else { s.not(o) };
                let ln = if out.new_value() { n } else { s.not(n) };
                let mut child = pc.clone();
                child.push(lo);
                if ln != lo {
                    child.push(ln);
                }
                assert!(satisfies(&s, &child, &m), "four-way model of {out:?} does not satisfy its outcome");
                run.models.push(m);
                stack.push((child, depth + 1));
            }
        } else {
            let neg = s.not(cond);
            let rt = solver.check(&s, &pc, &[cond]).unwrap();
            let rf = solver.check(&s, &pc, &[neg]).unwrap();
            run.answers.push(format!("check {rt:?} {rf:?}"));
            for (r, lit) in [(rf, neg), (rt, cond)] {
                if r == SatResult::Sat {
                    let mut child = pc.clone();
                    child.push(lit);
                    stack.push((child, depth + 1));
                }
            }
        }
        if rng.chance(30) {
            let (r, m) = solver.check_model(&s, &pc, &[]).unwrap();
            run.answers.push(format!("model {r:?}"));
            if let Some(m) = m {
                assert!(satisfies(&s, &pc, &m), "model does not satisfy the path condition");
                run.models.push(m);
            }
        }
        if rng.chance(20) {
            let k = s.constant(32, rng.below(4));
            let a = s.add(x, k);
            let b = s.or(x, k);
            let proven = solver.prove_equal(&mut s, &pc, a, b).unwrap();
            run.answers.push(format!("prove {proven}"));
        }
    }
    run.stats = solver.stats().clone();
    run
}

fn random_condition(s: &mut TermStore, rng: &mut Rng, x: TermId, y: TermId, xs: &[TermId], ys: &[TermId]) -> TermId {
    let byte = |rng: &mut Rng| {
        if rng.chance(50) {
            *rng.pick(xs)
        } else {
            *rng.pick(ys)
        }
    };
    let c32 = |s: &mut TermStore, rng: &mut Rng| {
        let bits = rng.below(31);
        s.constant(32, rng.below(1 << bits) + 1)
    };
    let c8 = |s: &mut TermStore, rng: &mut Rng| s.constant(8, rng.below(256));
    // conditions mixing x and y are rare, so that independence has work
    let kind = if rng.chance(6) { 3 + rng.below(2) } else { *rng.pick(&[0, 1, 2, 5, 6, 7, 8]) };
    match kind {
        0 => {
            let b = byte(rng);
            let k = c8(s, rng);
            s.ult(b, k)
        }
        1 => {
            let b = byte(rng);
            let k = c8(s, rng);
            s.eq(b, k)
        }
        2 => {
            let v = if rng.chance(50) { x } else { y };
            let (k1, k2) = (c32(s, rng), c32(s, rng));
            let sum = s.add(v, k1);
            s.ult(sum, k2)
        }
        3 => s.slt(x, y),
        4 => {
            let three = s.constant(32, 3);
            let m = s.mul(x, three);
            s.ule(m, y)
        }
        5 => {
            let v = if rng.chance(50) { x } else { y };
            let k = s.constant(32, 2 + rng.below(7));
            let r = s.urem(v, k);
            let z = s.zero(32);
            s.eq(r, z)
        }
        6 => {
            // changed threshold: v > change(k1, k2)
            let v = if rng.chance(50) { x } else { y };
            let (k1, k2) = (c32(s, rng), c32(s, rng));
            let th = s.shadow(k1, k2);
            s.ugt(v, th)
        }
        7 => {
            // refactoring: change(v + v, v << 1) < k — never diverges
            let v = if rng.chance(50) { x } else { y };
            let one = s.constant(32, 1);
            let (a, b) = (s.add(v, v), s.shl(v, one));
            let sh = s.shadow(a, b);
            let k = c32(s, rng);
            s.ult(sh, k)
        }
        _ => {
            // changed operator on a byte: change(b & m, b | m) == k
            let b = byte(rng);
            let (m, k) = (c8(s, rng), c8(s, rng));
            let (o, n) = (s.and(b, m), s.or(b, m));
            let sh = s.shadow(o, n);
            s.eq(sh, k)
        }
    }
}
