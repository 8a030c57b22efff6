//! Target 1, term rewrites vs. Bitwuzla: random shadow-free terms built unsimplified
//! ([`TermStore::raw_node`]) are rebuilt through the simplifying constructors
//! ([`TermStore::simplify`]); Bitwuzla must prove the two equal, the evaluator must give both
//! the same value at a random point, that value must be the only one Bitwuzla allows there, and
//! the evaluator must give the asked-for value in a model Bitwuzla returns.
//!
//! [`TermGen`] is also the generator of penumbra-solver's own rewrite test (it re-exports this
//! module), which runs [`check_term`] on a fixed-seed [`Rng`](crate::Rng) stream.

use crate::source::Source;
use penumbra_solver::{collect_vars, eval, Model, Op, SatResult, Solver, SolverConfig, TermId, TermStore, VarId};

pub fn mask(w: u8) -> u64 {
    u64::MAX >> (64 - u32::from(w))
}

/// Values where bitvector operators tend to go wrong, for width `w`.
pub fn edge_values(w: u8) -> Vec<u64> {
    let m = mask(w);
    let min = 1u64 << (w - 1);
    let v = [
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

/// The widths of the solver's fixed-seed test.
pub const WIDTHS: [u8; 6] = [1, 4, 8, 16, 32, 64];

/// The fuzz target's widths: the usual ones and odd ones next to them, where masking and
/// sign-bit rewrites go wrong first.
pub const FUZZ_WIDTHS: [u8; 13] = [1, 2, 3, 4, 7, 8, 13, 16, 31, 32, 33, 63, 64];

/// Random *raw* terms (built with `raw_node`, so nothing is simplified) over a pool of
/// variables, two per width.
pub struct TermGen {
    pub vars: Vec<VarId>,
    /// The widths terms and variables have (64 among them: narrower slices are cut from it).
    pub widths: Vec<u8>,
    /// Previously generated terms, reused to create sharing and `x op x`.
    made: Vec<TermId>,
    /// Whether to use multiplication and division on widths above 16.
    pub heavy_wide: bool,
    /// Whether to build floating-point operators too (on widths 32 and 64, comparisons on 1).
    pub floats: bool,
    /// The float formats (widths) it builds: binary64 arithmetic is slow to bit-blast.
    pub float_widths: Vec<u8>,
}

impl TermGen {
    /// A generator over [`WIDTHS`].
    pub fn new(store: &mut TermStore) -> Self {
        Self::with_widths(store, &WIDTHS)
    }

    pub fn with_widths(store: &mut TermStore, widths: &[u8]) -> Self {
        assert!(widths.contains(&64), "the generator slices narrow leaves out of 64-bit variables");
        let mut vars = Vec::new();
        for &w in widths {
            for i in 0..2 {
                vars.push(store.new_var(&format!("v{w}_{i}"), w));
            }
        }
        let float_widths = widths.iter().copied().filter(|&w| w == 32 || w == 64).collect();
        TermGen { vars, widths: widths.to_vec(), made: Vec::new(), heavy_wide: false, floats: false, float_widths }
    }

    fn leaf(&mut self, s: &mut TermStore, rng: &mut impl Source, w: u8) -> TermId {
        let reuse: Vec<TermId> = self.made.iter().copied().filter(|&t| s.width(t) == w).collect();
        match rng.below(10) {
            0..=3 => {
                let vs: Vec<VarId> = self.vars.iter().copied().filter(|&v| s.var_width(v) == w).collect();
                if vs.is_empty() {
                    // no variable of this width: slice a 64-bit one
                    let wide: Vec<VarId> = self.vars.iter().copied().filter(|&v| s.var_width(v) == 64).collect();
                    let v = *rng.pick(&wide);
                    let lo = rng.below(u64::from(65 - w)) as u8;
                    let vt = s.var(v);
                    s.raw_node(Op::Extract, w, lo, &[vt]).unwrap()
                } else {
                    s.var(*rng.pick(&vs))
                }
            }
            4..=6 => {
                let vals = edge_values(w);
                let v = if rng.chance(70) { *rng.pick(&vals) } else { rng.next_u64() };
                s.constant(w, v)
            }
            _ if !reuse.is_empty() => *rng.pick(&reuse),
            _ => s.constant(w, rng.next_u64()),
        }
    }

    /// A random raw term of width `w` and depth at most `depth`.
    pub fn term(&mut self, s: &mut TermStore, rng: &mut impl Source, w: u8, depth: u32) -> TermId {
        let t = self.term_inner(s, rng, w, depth);
        self.made.push(t);
        if self.made.len() > 64 {
            self.made.remove(0);
        }
        t
    }

    fn term_inner(&mut self, s: &mut TermStore, rng: &mut impl Source, w: u8, depth: u32) -> TermId {
        if depth == 0 || rng.chance(15) {
            return self.leaf(s, rng, w);
        }
        let d = depth - 1;
        if self.floats && rng.chance(35) {
            if let Some(t) = self.float_term(s, rng, w, d) {
                return t;
            }
        }
        let light = [Op::Add, Op::Sub, Op::And, Op::Or, Op::Xor, Op::Shl, Op::LShr, Op::AShr];
        let heavy = [Op::Mul, Op::UDiv, Op::SDiv, Op::URem, Op::SRem];
        match rng.below(12) {
            0..=3 => {
                let op =
                    if (w <= 16 || self.heavy_wide) && rng.chance(35) { *rng.pick(&heavy) } else { *rng.pick(&light) };
                let a = self.term(s, rng, w, d);
                let b = if rng.chance(15) { a } else { self.term(s, rng, w, d) };
                s.raw_node(op, w, 0, &[a, b]).unwrap()
            }
            4 => {
                let op = *rng.pick(&[Op::Not, Op::Neg]);
                let a = self.term(s, rng, w, d);
                s.raw_node(op, w, 0, &[a]).unwrap()
            }
            5 if w == 1 => {
                let op = *rng.pick(&[Op::Eq, Op::Ult, Op::Ule, Op::Slt, Op::Sle]);
                let cw = *rng.pick(&self.widths);
                let a = self.term(s, rng, cw, d);
                let b = if rng.chance(15) { a } else { self.term(s, rng, cw, d) };
                s.raw_node(op, 1, 0, &[a, b]).unwrap()
            }
            6 => {
                // extract from a wider term
                let wider: Vec<u8> = self.widths.iter().copied().filter(|&x| x > w).collect();
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
                let narrower: Vec<u8> = self.widths.iter().copied().filter(|&x| x <= w).collect();
                let cw = *rng.pick(&narrower);
                let a = self.term(s, rng, cw, d);
                let op = *rng.pick(&[Op::ZExt, Op::SExt]);
                s.raw_node(op, w, 0, &[a]).unwrap()
            }
            9 => {
                let c = self.term(s, rng, 1, d);
                let a = self.term(s, rng, w, d);
                let b = if rng.chance(10) { a } else { self.term(s, rng, w, d) };
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

impl TermGen {
    /// A floating-point node of width `w` (an IEEE operation or conversion for 32 and 64, a
    /// comparison or NaN test for 1), if there is one of that width. Conversions to integers
    /// are left out: out of range they are unspecified in SMT-LIB.
    fn float_term(&mut self, s: &mut TermStore, rng: &mut impl Source, w: u8, d: u32) -> Option<TermId> {
        let floats = self.float_widths.clone();
        if floats.is_empty() {
            return None;
        }
        if w == 1 {
            let op = *rng.pick(&[Op::FLt, Op::FLe, Op::FEq, Op::FIsNan]);
            let fw = *rng.pick(&floats);
            let a = self.term(s, rng, fw, d);
            if op == Op::FIsNan {
                return Some(s.raw_node(op, 1, 0, &[a]).unwrap());
            }
            let b = if rng.chance(15) { a } else { self.term(s, rng, fw, d) };
            return Some(s.raw_node(op, 1, 0, &[a, b]).unwrap());
        }
        if !floats.contains(&w) {
            return None;
        }
        Some(match rng.below(6) {
            0..=2 => {
                let a = self.term(s, rng, w, d);
                let b = self.term(s, rng, w, d);
                s.raw_node(Op::FArith, w, rng.below(4) as u8, &[a, b]).unwrap()
            }
            3 => {
                let a = self.term(s, rng, w, d);
                if rng.chance(50) {
                    s.raw_node(Op::FSqrt, w, 0, &[a]).unwrap()
                } else {
                    s.raw_node(Op::FRound, w, rng.below(5) as u8, &[a]).unwrap()
                }
            }
            4 if floats.len() > 1 => {
                let other = if w == 32 { 64 } else { 32 };
                let a = self.term(s, rng, other, d);
                s.raw_node(Op::FConvert, w, 0, &[a]).unwrap()
            }
            _ => {
                let iw = *rng.pick(&self.widths);
                let a = self.term(s, rng, iw, d);
                let op = *rng.pick(&[Op::SIntToF, Op::UIntToF]);
                s.raw_node(op, w, 0, &[a]).unwrap()
            }
        })
    }
}

/// What [`check_term`] found out about one term (beyond "no disagreement").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// `simplify` returned a different term (so Bitwuzla was asked for equivalence).
    pub rewritten: bool,
    /// Some query timed out (`Unknown`), so part of the check was skipped.
    pub unknown: bool,
}

/// Checks one raw term `t` (see the module documentation); `rng` picks the evaluation point.
/// `Err` describes a disagreement, with the terms in SMT-LIB.
pub fn check_term(s: &mut TermStore, solver: &mut Solver, rng: &mut impl Source, t: TermId) -> Result<Checked, String> {
    let w = s.width(t);
    let simple = s.simplify(t);
    // A failing query is reported as its SMT-LIB script, runnable with any solver.
    let show = |s: &mut TermStore, x: TermId| {
        let k = s.zero(s.width(x));
        let probe = s.raw_node(Op::Eq, 1, 0, &[x, k]).unwrap();
        penumbra_solver::to_smtlib(s, &[probe])
    };
    let mut out = Checked::default();
    if s.width(simple) != w {
        let w2 = s.width(simple);
        return Err(format!("simplify changed the width of {} to {w2}", show(s, t)));
    }
    // 1. t == simplify(t) is valid
    if simple != t {
        out.rewritten = true;
        let eq = s.raw_node(Op::Eq, 1, 0, &[t, simple]).unwrap();
        let ne = s.raw_node(Op::Not, 1, 0, &[eq]).unwrap();
        match solver.check(s, &[], &[ne]).map_err(|e| e.to_string())? {
            SatResult::Unsat => {}
            SatResult::Unknown => out.unknown = true,
            SatResult::Sat => {
                return Err(format!("rewriting changed the meaning of {}", penumbra_solver::to_smtlib(s, &[ne])))
            }
        }
    }
    // 2. the evaluator's value at a random point is the same for both, and forced
    let vars = collect_vars(s, t);
    let point = Model::from_pairs(vars.iter().map(|&v| (v, rng.next_u64() & mask(s.var_width(v)))));
    let value = eval(s, t, &point);
    if eval(s, simple, &point) != value {
        let (a, b) = (show(s, t), show(s, simple));
        return Err(format!("the evaluator differs after simplifying {a} to {b} at {point:?}"));
    }
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
    match solver.check(s, &pins, &[ne]).map_err(|e| e.to_string())? {
        SatResult::Unsat => {}
        SatResult::Unknown => out.unknown = true,
        SatResult::Sat => {
            let script = penumbra_solver::to_smtlib(s, &[&pins[..], &[ne]].concat());
            return Err(format!("Bitwuzla allows the term another value than {value:#x} at {point:?}: {script}"));
        }
    }
    // 3. Bitwuzla's model, evaluated, gives the asked-for value
    let (r, m) = solver.check_model(s, &[], &[eq]).map_err(|e| e.to_string())?;
    match (r, m) {
        (SatResult::Sat, Some(m)) => {
            let got = eval(s, t, &m);
            if got != value {
                let shown = show(s, t);
                return Err(format!(
                    "the evaluator gives {got:#x} for {shown} in Bitwuzla's model {m:?} of it being {value:#x}"
                ));
            }
        }
        (SatResult::Unknown, _) => out.unknown = true,
        (r, _) => {
            let script = penumbra_solver::to_smtlib(s, &[eq]);
            return Err(format!("{script} (the term's value at {point:?}) is {r:?}"));
        }
    }
    Ok(out)
}

/// Terms per fuzz input: enough to amortise the solver's start, few enough for libFuzzer to
/// attribute a finding.
const TERMS_PER_INPUT: usize = 6;

/// The fuzz target: a handful of terms from `data`, each through [`check_term`]. `Ok` says
/// whether some term was rewritten (and whether a query timed out).
pub fn check(data: &[u8]) -> Result<&'static str, String> {
    let mut u = arbitrary::Unstructured::new(data);
    let mut s = TermStore::default();
    let mut gen = TermGen::with_widths(&mut s, &FUZZ_WIDTHS);
    gen.heavy_wide = u.chance(20);
    // A query that times out is skipped (hard multiplications are Bitwuzla's business) and the
    // input classed `unknown`, which the fixed-seed test allows none of: the limit is far above
    // what its terms take, so that a busy machine does not make the test fail.
    let config = SolverConfig { timeout_ms: Some(10_000), ..SolverConfig::no_caches() };
    let mut solver = Solver::new(config).map_err(|e| e.to_string())?;
    let mut seen = Checked::default();
    for _ in 0..TERMS_PER_INPUT {
        if u.is_empty() {
            break;
        }
        let w = *u.pick(&FUZZ_WIDTHS);
        let depth = 1 + u.below(5) as u32;
        let t = gen.term(&mut s, &mut u, w, depth);
        let checked = check_term(&mut s, &mut solver, &mut u, t)?;
        seen.rewritten |= checked.rewritten;
        seen.unknown |= checked.unknown;
    }
    Ok(match (seen.unknown, seen.rewritten) {
        (true, _) => "unknown",
        (false, true) => "rewritten",
        (false, false) => "unchanged",
    })
}
