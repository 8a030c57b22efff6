//! Shared helpers: a fixed-seed PRNG and a random term generator.

use penumbra_solver::{Op, TermId, TermStore, VarId};

/// SplitMix64: small, fast, deterministic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

pub fn mask(w: u8) -> u64 {
    u64::MAX >> (64 - u32::from(w))
}

/// Values where bitvector operators tend to go wrong, for width `w`.
pub fn edge_values(w: u8) -> Vec<u64> {
    let m = mask(w);
    let min = 1u64 << (w - 1);
    let v = vec![
        0,
        1,
        2,
        m,
        m - 1,
        min,
        min.wrapping_sub(1) & m,
        u64::from(w) & m,
        u64::from(w - 1) & m,
        (u64::from(w) + 1) & m,
        0x5a5a_5a5a_5a5a_5a5a & m,
    ];
    let mut v: Vec<u64> = v.into_iter().map(|x| x & m).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Random *raw* terms (built with `raw_node`, so nothing is simplified)
/// over a pool of variables.
pub struct TermGen {
    pub vars: Vec<VarId>,
    /// Previously generated terms, reused to create sharing and `x op x`.
    made: Vec<TermId>,
    /// Whether to use multiplication and division on widths above 16.
    pub heavy_wide: bool,
}

pub const WIDTHS: [u8; 6] = [1, 4, 8, 16, 32, 64];

impl TermGen {
    pub fn new(store: &mut TermStore) -> Self {
        let mut vars = Vec::new();
        for w in WIDTHS {
            for i in 0..2 {
                vars.push(store.new_var(&format!("v{w}_{i}"), w));
            }
        }
        TermGen {
            vars,
            made: Vec::new(),
            heavy_wide: false,
        }
    }

    fn leaf(&mut self, s: &mut TermStore, rng: &mut Rng, w: u8) -> TermId {
        let reuse: Vec<TermId> = self
            .made
            .iter()
            .copied()
            .filter(|&t| s.width(t) == w)
            .collect();
        match rng.below(10) {
            0..=3 => {
                let vs: Vec<VarId> = self
                    .vars
                    .iter()
                    .copied()
                    .filter(|&v| s.var_width(v) == w)
                    .collect();
                if vs.is_empty() {
                    // no variable of this width: slice a 64-bit one
                    let v = *rng.pick(
                        &self
                            .vars
                            .iter()
                            .copied()
                            .filter(|&v| s.var_width(v) == 64)
                            .collect::<Vec<_>>(),
                    );
                    let lo = rng.below(u64::from(65 - w)) as u8;
                    let vt = s.var(v);
                    s.raw_node(Op::Extract, w, lo, &[vt]).unwrap()
                } else {
                    s.var(*rng.pick(&vs))
                }
            }
            4..=6 => {
                let vals = edge_values(w);
                let v = if rng.chance(70) {
                    *rng.pick(&vals)
                } else {
                    rng.next_u64()
                };
                s.constant(w, v)
            }
            _ if !reuse.is_empty() => *rng.pick(&reuse),
            _ => s.constant(w, rng.next_u64()),
        }
    }

    /// A random raw term of width `w` and depth at most `depth`.
    pub fn term(&mut self, s: &mut TermStore, rng: &mut Rng, w: u8, depth: u32) -> TermId {
        let t = self.term_inner(s, rng, w, depth);
        self.made.push(t);
        if self.made.len() > 64 {
            self.made.remove(0);
        }
        t
    }

    fn term_inner(&mut self, s: &mut TermStore, rng: &mut Rng, w: u8, depth: u32) -> TermId {
        if depth == 0 || rng.chance(15) {
            return self.leaf(s, rng, w);
        }
        let d = depth - 1;
        let light = [
            Op::Add,
            Op::Sub,
            Op::And,
            Op::Or,
            Op::Xor,
            Op::Shl,
            Op::LShr,
            Op::AShr,
        ];
        let heavy = [Op::Mul, Op::UDiv, Op::SDiv, Op::URem, Op::SRem];
        match rng.below(12) {
            0..=3 => {
                let op = if (w <= 16 || self.heavy_wide) && rng.chance(35) {
                    *rng.pick(&heavy)
                } else {
                    *rng.pick(&light)
                };
                let a = self.term(s, rng, w, d);
                let b = if rng.chance(15) {
                    a
                } else {
                    self.term(s, rng, w, d)
                };
                s.raw_node(op, w, 0, &[a, b]).unwrap()
            }
            4 => {
                let op = *rng.pick(&[Op::Not, Op::Neg]);
                let a = self.term(s, rng, w, d);
                s.raw_node(op, w, 0, &[a]).unwrap()
            }
            5 if w == 1 => {
                let op = *rng.pick(&[Op::Eq, Op::Ult, Op::Ule, Op::Slt, Op::Sle]);
                let cw = *rng.pick(&WIDTHS);
                let a = self.term(s, rng, cw, d);
                let b = if rng.chance(15) {
                    a
                } else {
                    self.term(s, rng, cw, d)
                };
                s.raw_node(op, 1, 0, &[a, b]).unwrap()
            }
            6 => {
                // extract from a wider term
                let wider: Vec<u8> = WIDTHS.iter().copied().filter(|&x| x > w).collect();
                if wider.is_empty() {
                    return self.leaf(s, rng, w);
                }
                let cw = *rng.pick(&wider);
                let a = self.term(s, rng, cw, d);
                let lo = rng.below(u64::from(cw - w + 1)) as u8;
                s.raw_node(Op::Extract, w, lo, &[a]).unwrap()
            }
            7 if w > 1 => {
                let hw = 1 + rng.below(u64::from(w - 1)) as u8;
                // concat of two extracts of the same term sometimes (re-assembly)
                if rng.chance(30) && w < 64 {
                    let a = self.term(s, rng, 64, d);
                    let lo = rng.below(u64::from(65 - w)) as u8;
                    let l = s.raw_node(Op::Extract, w - hw, lo, &[a]).unwrap();
                    let h = s.raw_node(Op::Extract, hw, lo + w - hw, &[a]).unwrap();
                    return s.raw_node(Op::Concat, w, 0, &[h, l]).unwrap();
                }
                let h = self.leaf(s, rng, hw);
                let l = self.leaf(s, rng, w - hw);
                s.raw_node(Op::Concat, w, 0, &[h, l]).unwrap()
            }
            8 if w > 1 => {
                let narrower: Vec<u8> = WIDTHS.iter().copied().filter(|&x| x <= w).collect();
                let cw = *rng.pick(&narrower);
                let a = self.term(s, rng, cw, d);
                let op = *rng.pick(&[Op::ZExt, Op::SExt]);
                s.raw_node(op, w, 0, &[a]).unwrap()
            }
            9 => {
                let c = self.term(s, rng, 1, d);
                let a = self.term(s, rng, w, d);
                let b = if rng.chance(10) {
                    a
                } else {
                    self.term(s, rng, w, d)
                };
                s.raw_node(Op::Ite, w, 0, &[c, a, b]).unwrap()
            }
            _ => {
                let op = *rng.pick(&light);
                let a = self.term(s, rng, w, d);
                let b = self.leaf(s, rng, w);
                s.raw_node(op, w, 0, &[a, b]).unwrap()
            }
        }
    }
}

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
    let mut run = Run {
        answers: Vec::new(),
        models: Vec::new(),
        stats: Default::default(),
    };
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
            run.answers.push(format!(
                "four_way {:?} unknown {:?}",
                fw.feasible(),
                fw.unknown
            ));
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
                assert!(
                    satisfies(&s, &child, &m),
                    "four-way model of {out:?} does not satisfy its outcome"
                );
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
                assert!(
                    satisfies(&s, &pc, &m),
                    "model does not satisfy the path condition"
                );
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

fn random_condition(
    s: &mut TermStore,
    rng: &mut Rng,
    x: TermId,
    y: TermId,
    xs: &[TermId],
    ys: &[TermId],
) -> TermId {
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
    let kind = if rng.chance(6) {
        3 + rng.below(2)
    } else {
        *rng.pick(&[0, 1, 2, 5, 6, 7, 8])
    };
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
