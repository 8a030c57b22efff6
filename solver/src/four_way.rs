//! Four-way feasibility: at a branch on a condition `c` that may hold a
//! shadow, which of the four outcomes can happen under the path condition?
//!
//! | outcome      | old(c) | new(c) |
//! |--------------|--------|--------|
//! | `SameTrue`   | 1      | 1      |
//! | `SameFalse`  | 0      | 0      |
//! | `DiffTrue`   | 0      | 1      |
//! | `DiffFalse`  | 1      | 0      |
//!
//! Every feasible outcome comes with a model. The number of queries is kept
//! low:
//! - when `old(c)` and `new(c)` are the same term it is a two-way question
//!   and the diff outcomes are infeasible without asking;
//! - otherwise the *same* pair is asked first as one query, `old = new`: unsat
//!   settles both same outcomes at once; a model settles the outcome it
//!   satisfies (evaluated), and only the other one is asked on its own. The
//!   *diff* pair likewise with `old != new` — typically unsat in one query
//!   when a change does not affect the branch;
//! - with the caller's model of the path ([`Solver::four_way_from`]) the
//!   outcome that model takes is feasible without asking: its pair needs only
//!   the other outcome's query, so a branch costs at most three queries;
//! - every query goes through the chain, so cached models are tried by
//!   evaluation before Bitwuzla is asked.

use crate::error::SolverError;
use crate::eval::Evaluator;
use crate::model::Model;
use crate::path::{Path, PathCondition};
use crate::query::{micros, Answer};
use crate::solver::Solver;
use crate::term::{TermId, TermStore};

/// One of the four outcomes of a branch in shadow execution.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Ord, PartialOrd)]
pub enum Outcome {
    /// Both versions take the true side.
    SameTrue,
    /// Both versions take the false side.
    SameFalse,
    /// Old takes the false side, new the true side (`¬old(c) ∧ new(c)`).
    DiffTrue,
    /// Old takes the true side, new the false side (`old(c) ∧ ¬new(c)`).
    DiffFalse,
}

impl Outcome {
    /// All four, in a fixed order.
    pub const ALL: [Outcome; 4] = [Outcome::SameTrue, Outcome::SameFalse, Outcome::DiffTrue, Outcome::DiffFalse];

    /// The value of `old(c)` in this outcome.
    pub fn old_value(self) -> bool {
        matches!(self, Outcome::SameTrue | Outcome::DiffFalse)
    }

    /// The value of `new(c)` in this outcome.
    pub fn new_value(self) -> bool {
        matches!(self, Outcome::SameTrue | Outcome::DiffTrue)
    }

    /// The outcome with these values of `old(c)` and `new(c)`.
    pub fn from_values(old: bool, new: bool) -> Outcome {
        match (old, new) {
            (true, true) => Outcome::SameTrue,
            (false, false) => Outcome::SameFalse,
            (false, true) => Outcome::DiffTrue,
            (true, false) => Outcome::DiffFalse,
        }
    }

    /// Whether old and new agree.
    pub fn is_same(self) -> bool {
        self.old_value() == self.new_value()
    }
}

/// The answer of [`Solver::four_way`]: a model for each feasible outcome.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FourWay {
    pub same_true: Option<Model>,
    pub same_false: Option<Model>,
    pub diff_true: Option<Model>,
    pub diff_false: Option<Model>,
    /// Outcomes whose feasibility is unknown (a query timed out); their
    /// entry is `None`.
    pub unknown: Vec<Outcome>,
    /// `old(c)` and `new(c)` were the same term (no diff outcome possible).
    pub two_way: bool,
    /// Queries this call issued (each may still be answered by a cache).
    pub queries: u32,
}

impl FourWay {
    /// The model of `o`, if feasible.
    pub fn get(&self, o: Outcome) -> Option<&Model> {
        match o {
            Outcome::SameTrue => self.same_true.as_ref(),
            Outcome::SameFalse => self.same_false.as_ref(),
            Outcome::DiffTrue => self.diff_true.as_ref(),
            Outcome::DiffFalse => self.diff_false.as_ref(),
        }
    }

    fn slot(&mut self, o: Outcome) -> &mut Option<Model> {
        match o {
            Outcome::SameTrue => &mut self.same_true,
            Outcome::SameFalse => &mut self.same_false,
            Outcome::DiffTrue => &mut self.diff_true,
            Outcome::DiffFalse => &mut self.diff_false,
        }
    }

    /// Whether `o` is feasible (has a model).
    pub fn is_feasible(&self, o: Outcome) -> bool {
        self.get(o).is_some()
    }

    /// The feasible outcomes, in [`Outcome::ALL`] order.
    pub fn feasible(&self) -> Vec<Outcome> {
        Outcome::ALL.into_iter().filter(|&o| self.is_feasible(o)).collect()
    }

    /// Whether some diff outcome is feasible (the versions can diverge here).
    pub fn diverges(&self) -> bool {
        self.diff_true.is_some() || self.diff_false.is_some()
    }
}

impl Solver {
    /// Which of the four outcomes of branching on `cond` are feasible under
    /// `pc`, with a model each. `cond` is width 1 and may contain shadows;
    /// `pc` may not (it holds projections).
    pub fn four_way(
        &mut self,
        store: &mut TermStore,
        pc: &(impl PathCondition + ?Sized),
        cond: TermId,
    ) -> Result<FourWay, SolverError> {
        let start = std::time::Instant::now();
        let r = self.with_path_mut(store, pc, |s, store, pc| s.four_way_inner(store, pc, cond, None));
        self.stats.total_time_us += micros(start.elapsed());
        r
    }

    /// [`Solver::four_way`] for a caller holding `base`, a model of `pc`: each model
    /// returned is `base` with the variables connected to `cond` re-solved (see
    /// [`Solver::check_model_from`]).
    pub fn four_way_from(
        &mut self,
        store: &mut TermStore,
        pc: &(impl PathCondition + ?Sized),
        cond: TermId,
        base: &Model,
    ) -> Result<FourWay, SolverError> {
        let start = std::time::Instant::now();
        let r = self.with_path_mut(store, pc, |s, store, pc| s.four_way_inner(store, pc, cond, Some(base)));
        self.stats.total_time_us += micros(start.elapsed());
        r
    }

    fn four_way_inner(
        &mut self,
        store: &mut TermStore,
        pc: Path<'_>,
        cond: TermId,
        base: Option<&Model>,
    ) -> Result<FourWay, SolverError> {
        if !store.contains(cond) {
            return Err(SolverError::UnknownTerm(cond));
        }
        if store.width(cond) != 1 {
            return Err(SolverError::NotBoolean(cond, store.width(cond)));
        }
        self.stats.four_way_calls += 1;
        let (o, n) = store.projections(cond);
        let (not_o, not_n) = (store.not(o), store.not(n));
        let mut fw = FourWay::default();

        // The caller's model of `pc` already decides one outcome: it is feasible with that
        // model, and only the others need asking.
        let known = base.map(|m| {
            let mut ev = Evaluator::new(store, m);
            (Outcome::from_values(ev.eval(o) & 1 == 1, ev.eval(n) & 1 == 1), m)
        });

        if o == n {
            fw.two_way = true;
            self.stats.four_way_two_way += 1;
            for (out, lit) in [(Outcome::SameTrue, o), (Outcome::SameFalse, not_o)] {
                match known {
                    Some((hit, m)) if hit == out => *fw.slot(out) = Some(m.clone()),
                    _ => self.settle(store, pc, &[lit], out, &mut fw, base)?,
                }
            }
            return Ok(fw);
        }

        let same = store.eq(o, n);
        let diff = store.not(same);
        let pairs = [(same, [Outcome::SameTrue, Outcome::SameFalse]), (diff, [Outcome::DiffTrue, Outcome::DiffFalse])];
        for (pair_cond, outcomes) in pairs {
            if let Some((hit, m)) = known.filter(|(hit, _)| outcomes.contains(hit)) {
                *fw.slot(hit) = Some(m.clone());
                let other = if hit == outcomes[0] { outcomes[1] } else { outcomes[0] };
                let lits = literals(other, o, n, not_o, not_n);
                self.settle(store, pc, &lits, other, &mut fw, base)?;
                continue;
            }
            fw.queries += 1;
            self.stats.four_way_queries += 1;
            match self.query(store, pc, &[pair_cond], true, base)? {
                Answer::Unsat => {}
                Answer::Sat(m) => {
                    let m = m.unwrap_or_default();
                    let mut ev = Evaluator::new(store, &m);
                    let hit = Outcome::from_values(ev.eval(o) == 1, ev.eval(n) == 1);
                    let other = if hit == outcomes[0] { outcomes[1] } else { outcomes[0] };
                    *fw.slot(hit) = Some(m);
                    let lits = literals(other, o, n, not_o, not_n);
                    self.settle(store, pc, &lits, other, &mut fw, base)?;
                }
                Answer::Unknown => {
                    for out in outcomes {
                        let lits = literals(out, o, n, not_o, not_n);
                        self.settle(store, pc, &lits, out, &mut fw, base)?;
                    }
                }
            }
        }
        Ok(fw)
    }

    /// Asks `pc ∧ lits` for outcome `out` and records the answer.
    fn settle(
        &mut self,
        store: &TermStore,
        pc: Path<'_>,
        lits: &[TermId],
        out: Outcome,
        fw: &mut FourWay,
        base: Option<&Model>,
    ) -> Result<(), SolverError> {
        fw.queries += 1;
        self.stats.four_way_queries += 1;
        match self.query(store, pc, lits, true, base)? {
            Answer::Sat(m) => *fw.slot(out) = Some(m.unwrap_or_default()),
            Answer::Unsat => {}
            Answer::Unknown => fw.unknown.push(out),
        }
        Ok(())
    }
}

/// The branch literals of an outcome.
fn literals(out: Outcome, o: TermId, n: TermId, not_o: TermId, not_n: TermId) -> [TermId; 2] {
    [if out.old_value() { o } else { not_o }, if out.new_value() { n } else { not_n }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::eval_version;
    use crate::shadow::Version;
    use crate::solver::SolverConfig;

    #[test]
    fn outcome_values() {
        for o in Outcome::ALL {
            assert_eq!(Outcome::from_values(o.old_value(), o.new_value()), o);
        }
        assert!(Outcome::SameFalse.is_same());
        assert!(!Outcome::DiffTrue.is_same());
    }

    #[test]
    fn changed_threshold_diverges_both_ways_only_where_it_can() {
        // if (x > change(10, 20)): diff-true impossible (old true ⇒ new... no:
        // x in 11..=20 makes old true, new false: DiffFalse).
        let mut s = TermStore::default();
        let xv = s.new_var("x", 8);
        let x = s.var(xv);
        let (ten, twenty) = (s.constant(8, 10), s.constant(8, 20));
        let th = s.shadow(ten, twenty);
        let c = s.ugt(x, th);
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let fw = solver.four_way(&mut s, &[], c).unwrap();
        assert!(!fw.two_way);
        assert_eq!(fw.feasible(), vec![Outcome::SameTrue, Outcome::SameFalse, Outcome::DiffFalse]);
        assert!(fw.unknown.is_empty());
        for o in fw.feasible() {
            let m = fw.get(o).unwrap();
            assert_eq!(eval_version(&s, c, m, Version::Old) == 1, o.old_value());
            assert_eq!(eval_version(&s, c, m, Version::New) == 1, o.new_value());
        }
        let v = fw.diff_false.as_ref().unwrap().get(xv);
        assert!((11..=20).contains(&v));
        // same pair: 1 query + 1 for the other; diff pair: 1 + 1 (DiffTrue unsat)
        assert_eq!(fw.queries, 4);
    }

    #[test]
    fn unchanged_condition_is_two_way() {
        let mut s = TermStore::default();
        let xv = s.new_var("x", 8);
        let x = s.var(xv);
        let k = s.constant(8, 7);
        let c = s.eq(x, k);
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let fw = solver.four_way(&mut s, &[c], c).unwrap();
        assert!(fw.two_way);
        assert_eq!(fw.feasible(), vec![Outcome::SameTrue]);
        assert_eq!(fw.same_true.as_ref().unwrap().get(xv), 7);
        assert_eq!(solver.stats().four_way_two_way, 1);
    }

    #[test]
    fn refactoring_that_changes_nothing_needs_one_diff_query() {
        // old: x * 2, new: x << 1 — equal for all x
        let mut s = TermStore::default();
        let xv = s.new_var("x", 8);
        let x = s.var(xv);
        let (two, one) = (s.constant(8, 2), s.constant(8, 1));
        let (a, b) = (s.mul(x, two), s.shl(x, one));
        let v = s.shadow(a, b);
        let k = s.constant(8, 100);
        let c = s.ult(v, k);
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let fw = solver.four_way(&mut s, &[], c).unwrap();
        assert_eq!(fw.feasible(), vec![Outcome::SameTrue, Outcome::SameFalse]);
        assert_eq!(fw.queries, 3);
    }
}
