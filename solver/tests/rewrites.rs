//! No rewrite changes meaning, and the evaluator agrees with Bitwuzla.
//!
//! For many random unsimplified terms `t` (fixed seed): Bitwuzla proves
//! `t == simplify(t)` valid; the evaluator's value of `t` at a random point
//! is the only value Bitwuzla allows there; and evaluating `t` in a model
//! Bitwuzla returns gives the value Bitwuzla was asked for. The check is the
//! rewrite fuzz target's ([`penumbra_fuzz_checks::terms::check_term`]); here it
//! runs on one long fixed-seed stream.

use penumbra_fuzz_checks::terms::check_term;
use penumbra_solver::{Solver, SolverConfig, TermStore};

use crate::common::{Rng, Source, TermGen, WIDTHS};

const TERMS: usize = 1000;

#[test]
fn simplification_preserves_meaning_and_evaluator_matches_bitwuzla() {
    let mut s = TermStore::default();
    let mut rng = Rng::new(0x5eed_0001);
    let mut gen = TermGen::new(&mut s);
    let config = SolverConfig { timeout_ms: Some(20_000), ..SolverConfig::no_caches() };
    let mut solver = Solver::new(config).unwrap();
    let mut changed = 0;
    for i in 0..TERMS {
        let w = *rng.pick(&WIDTHS);
        let t = gen.term(&mut s, &mut rng, w, 5);
        let checked = check_term(&mut s, &mut solver, &mut rng, t).unwrap_or_else(|e| panic!("term {i}: {e}"));
        assert!(!checked.unknown, "term {i}: a query timed out");
        changed += usize::from(checked.rewritten);
    }
    // the generator must actually exercise the rewriter
    assert!(changed > TERMS / 3, "only {changed} terms were rewritten");
    assert_eq!(solver.stats().core_unknown, 0);
}

/// The same with floating-point operators among the bitvector ones: folding, the evaluator
/// and Bitwuzla's floating-point theory (through the encoding of `core/float.rs`) agree on
/// random nested terms, NaNs and conversions included. Proving a rewritten term equal to its
/// original means proving two float circuits over free inputs equal, which Bitwuzla may not do
/// in 5 s: such a check is skipped (and counted), never a disagreement.
#[test]
fn float_terms_preserve_meaning_and_evaluator_matches_bitwuzla() {
    let mut s = TermStore::default();
    let mut rng = Rng::new(0x5eed_f10a);
    let mut gen = TermGen::with_widths(&mut s, &[1, 8, 32, 64]);
    gen.floats = true;
    // binary32 only (binary64 products and quotients take Bitwuzla seconds to bit-blast), but
    // conversions from 64-bit integers and between the formats through the first test above.
    gen.float_widths = vec![32];
    let config = SolverConfig { timeout_ms: Some(5_000), ..SolverConfig::no_caches() };
    let mut solver = Solver::new(config).unwrap();
    let (mut with_floats, mut unknown) = (0, 0);
    for i in 0..FLOAT_TERMS {
        let w = *rng.pick(&[1u8, 32]);
        let t = gen.term(&mut s, &mut rng, w, 3);
        with_floats += usize::from(s.has_float(t));
        let checked = check_term(&mut s, &mut solver, &mut rng, t).unwrap_or_else(|e| panic!("term {i}: {e}"));
        unknown += usize::from(checked.unknown);
    }
    assert!(with_floats > FLOAT_TERMS / 2, "only {with_floats} terms had floating point");
    assert!(unknown <= FLOAT_TERMS / 10, "{unknown} of {FLOAT_TERMS} terms were not checked in time");
}

const FLOAT_TERMS: usize = 120;
