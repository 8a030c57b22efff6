//! Forking: the one place where a path meets a symbolic condition.
//!
//! Every decision that depends on a term goes through here — branches and switch cases
//! ([`Executor::branch`]), the implicit checks whose failing side is an error
//! ([`Executor::check`]), and values the engine must fix ([`Executor::concretize`]). Issue 5
//! turns these into four-way questions when a condition holds a shadow term, without touching
//! the instructions that call them.
//!
//! **Feasibility with a model in hand.** Each state carries a model of its path condition. A
//! condition's value under that model says, with no solver call, which side is feasible; only
//! the *other* side is asked about (`pc ∧ ¬side`), and the solver's model for it becomes the
//! model of the state that takes it. Constant conditions never reach the solver. A test at the
//! end of a path is the state's model: no further query.

use crate::executor::Executor;
use crate::run_error::RunError;
use crate::state::{Decision, Ending, ExecutionState};
use penumbra_ir::Inst;
use penumbra_solver::{eval, eval_version, mask, satisfies, Model, Outcome, SatResult, TermId, Version as TermVersion};
use std::rc::Rc;

/// Which sides of a branch a state may take.
#[derive(Debug)]
pub enum Branch {
    /// Only this side is feasible; the state takes it (its path condition already implies it).
    Only(bool),
    /// Both are: the state took the true side, the returned state the false side.
    Both(Box<ExecutionState>),
    /// Both are, but the state reached the depth budget: it ends early.
    Early,
    /// Shadow execution: the state takes `side` (its new version's side); each other state
    /// takes its own side. Some of them may have diverged.
    Split { side: bool, others: Vec<(bool, ExecutionState)> },
}

/// What kind of decision a fork is, for describing a divergence.
#[derive(Copy, Clone, Debug)]
pub enum Site {
    /// A conditional branch: `true` / `false`.
    Branch,
    /// One case group of a switch on this selector: the divergence names each version's case.
    Switch(TermId, penumbra_ir::JumpTable),
}

impl Executor<'_> {
    /// Decides the width-1 condition `cond` at `inst` for `st`.
    pub fn branch(&mut self, st: &mut ExecutionState, cond: TermId, inst: Inst) -> Result<Branch, RunError> {
        self.branch_at(st, cond, inst, Site::Branch)
    }

    /// [`Executor::branch`], saying what kind of decision it is.
    pub fn branch_at(
        &mut self,
        st: &mut ExecutionState,
        cond: TermId,
        inst: Inst,
        site: Site,
    ) -> Result<Branch, RunError> {
        let cond = self.view(st, cond);
        if let Some(c) = self.store.as_const(cond) {
            return Ok(Branch::Only(c & 1 == 1));
        }
        if self.store.has_shadow(cond) {
            return self.branch_four_way(st, cond, inst, site);
        }
        let model_side = eval(&self.store, cond, &*st.model) & 1 == 1;
        let not_cond = self.store.not(cond);
        let (taken, other_cond) = if model_side { (cond, not_cond) } else { (not_cond, cond) };
        if st.concolic {
            // Follow the seed: no question, the seed's side joins the path condition.
            st.pc.push(taken);
            return Ok(Branch::Only(model_side));
        }
        let (res, model) = self.solver.check_model_from(&self.store, &st.pc, &[other_cond], &st.model)?;
        match res {
            SatResult::Sat => {}
            SatResult::Unsat => return Ok(Branch::Only(model_side)),
            SatResult::Unknown => {
                self.stats.solver_unknown += 1;
                return Ok(Branch::Only(model_side));
            }
        }
        if self.config.budgets.max_depth.is_some_and(|max| st.depth >= max) {
            return Ok(Branch::Early);
        }
        if self.config.budgets.max_states.is_some_and(|max| self.live_states + self.new_states.len() >= max) {
            self.stats.dropped += 1;
            return Ok(Branch::Only(model_side));
        }
        let mut other = st.clone();
        st.pc.push(taken);
        other.pc.push(other_cond);
        other.model = Rc::new(model.unwrap_or_default());
        debug_assert!(satisfies(&self.store, &other.pc, &*other.model), "the solver's model satisfies the path");
        st.depth += 1;
        other.depth += 1;
        st.trail.push(Decision { inst, side: u32::from(model_side) });
        other.trail.push(Decision { inst, side: u32::from(!model_side) });
        if !model_side {
            std::mem::swap(st, &mut other);
        }
        self.stats.forks += 1;
        self.stats.states += 1;
        Ok(Branch::Both(Box::new(other)))
    }

    /// The feasible outcomes of a condition holding a shadow, each with its model, in
    /// [`Outcome::ALL`] order. A concolic state gets its seed's outcome first, then only the
    /// diff outcomes off it (divergences to queue); the same outcome off the seed is not
    /// explored.
    fn outcomes(&mut self, st: &ExecutionState, cond: TermId) -> Result<Vec<(Outcome, Rc<Model>)>, RunError> {
        let (o, n) = self.store.projections(cond);
        let here = |ex: &Self, t: TermId, v: TermVersion| eval_version(&ex.store, t, &*st.model, v) & 1 == 1;
        let model_outcome = Outcome::from_values(here(self, o, TermVersion::Old), here(self, n, TermVersion::New));
        let core_before = self.solver.stats().core_queries;
        let fw = self.solver.four_way_from(&mut self.store, &st.pc, cond, &st.model)?;
        self.stats.four_way_checks += 1;
        if self.solver.stats().core_queries == core_before {
            self.stats.four_way_without_core += 1;
        }
        self.stats.solver_unknown += fw.unknown.len() as u64;
        let mut out: Vec<(Outcome, Rc<Model>)> = Vec::with_capacity(4);
        if st.concolic {
            out.push((model_outcome, st.model.clone()));
            for outcome in [Outcome::DiffTrue, Outcome::DiffFalse] {
                if outcome != model_outcome {
                    if let Some(m) = fw.get(outcome) {
                        out.push((outcome, Rc::new(m.clone())));
                    }
                }
            }
            return Ok(out);
        }
        for outcome in Outcome::ALL {
            if outcome == model_outcome {
                out.push((outcome, st.model.clone()));
            } else if let Some(m) = fw.get(outcome) {
                out.push((outcome, Rc::new(m.clone())));
            }
        }
        // The model's outcome is always among them (the model satisfies the path), so the list
        // is never empty, even when every query timed out.
        Ok(out)
    }

    /// The constraints of `outcome` of `cond` (its two projections' values) on `st`.
    fn constrain_outcome(&mut self, st: &mut ExecutionState, cond: TermId, outcome: Outcome) {
        let (o, n) = self.store.projections(cond);
        let lit = |ex: &mut Self, t: TermId, v: bool| if v { t } else { ex.store.not(t) };
        let lo = lit(self, o, outcome.old_value());
        let ln = lit(self, n, outcome.new_value());
        st.pc.push(lo);
        if ln != lo {
            st.pc.push(ln);
        }
    }

    /// Describes what each version does at a divergence of `site`.
    fn describe(&mut self, st: &ExecutionState, site: Site, outcome: Outcome) -> (String, String) {
        match site {
            Site::Branch => (outcome.old_value().to_string(), outcome.new_value().to_string()),
            Site::Switch(selector, table) => {
                let body = self.prog.module.funcs[st.frame().func].body.as_ref();
                let (o, n) = self.store.projections(selector);
                let label = |ex: &Self, t: TermId, v: TermVersion| {
                    let value = eval_version(&ex.store, t, &*st.model, v) & mask(ex.store.width(t));
                    let is_case = body.is_some_and(|b| b.jump_tables[table].cases.iter().any(|&(k, _)| k == value));
                    if is_case {
                        format!("case {}", penumbra_solver::semantics::to_signed(value, ex.store.width(t)))
                    } else {
                        "default".to_string()
                    }
                };
                (label(self, o, TermVersion::Old), label(self, n, TermVersion::New))
            }
        }
    }

    /// The four-way fork of a branch whose condition holds a shadow.
    fn branch_four_way(
        &mut self,
        st: &mut ExecutionState,
        cond: TermId,
        inst: Inst,
        site: Site,
    ) -> Result<Branch, RunError> {
        let mut outcomes = self.outcomes(st, cond)?;
        if outcomes.len() > 1 && self.config.budgets.max_depth.is_some_and(|max| st.depth >= max) {
            return Ok(Branch::Early);
        }
        if let Some(max) = self.config.budgets.max_states {
            let room = max.saturating_sub(self.live_states + self.new_states.len()) + 1;
            if outcomes.len() > room {
                self.stats.dropped += (outcomes.len() - room) as u64;
                outcomes.truncate(room.max(1));
            }
        }
        let forked = outcomes.len() > 1;
        let mut states: Vec<(bool, ExecutionState)> = Vec::with_capacity(outcomes.len());
        let last = outcomes.len() - 1;
        for (i, (outcome, model)) in outcomes.into_iter().enumerate() {
            let mut s = if i == last {
                std::mem::replace(st, ExecutionState::new(st.mem.clone(), st.mode))
            } else {
                st.clone()
            };
            self.constrain_outcome(&mut s, cond, outcome);
            s.model = model;
            debug_assert!(satisfies(&self.store, &s.pc, &*s.model), "the solver's model satisfies the path");
            if forked {
                s.depth += 1;
                s.trail.push(Decision { inst, side: outcome as u32 });
            }
            if !outcome.is_same() {
                let (old, new) = self.describe(&s, site, outcome);
                self.diverge(&mut s, old, new);
            }
            states.push((outcome.new_value(), s));
        }
        let (side, first) = states.remove(0);
        *st = first;
        if states.is_empty() {
            return Ok(Branch::Only(side));
        }
        self.stats.forks += 1;
        self.stats.states += states.len() as u64;
        Ok(Branch::Split { side, others: states })
    }

    /// An implicit check: `fail` (width 1) is the condition under which the operation is an
    /// error. If failing is feasible, an error test is written for it (with `error`'s ending);
    /// if passing is feasible too, `st` continues constrained to pass and `None` is returned;
    /// otherwise the whole path fails and its ending is returned.
    ///
    /// In shadow execution a check whose condition holds a shadow is a four-way question: an
    /// error in both versions is an ordinary error; an error in the new version only is a
    /// divergence that ends the path with the error (a regression); an error in the old
    /// version only is a divergence after which the new version goes on (a fix).
    pub fn check(
        &mut self,
        st: &mut ExecutionState,
        fail: TermId,
        error: impl FnOnce(&Self, &ExecutionState) -> Ending,
    ) -> Result<Option<Ending>, RunError> {
        let fail = self.view(st, fail);
        if let Some(c) = self.store.as_const(fail) {
            return Ok((c & 1 == 1).then(|| error(self, st)));
        }
        if self.store.has_shadow(fail) {
            return self.check_four_way(st, fail, error);
        }
        let pass = self.store.not(fail);
        if st.concolic {
            // Follow the seed: an error off its path is not a divergence, so not explored.
            return Ok(if eval(&self.store, fail, &*st.model) & 1 == 1 {
                st.pc.push(fail);
                Some(error(self, st))
            } else {
                st.pc.push(pass);
                None
            });
        }
        if eval(&self.store, fail, &*st.model) & 1 == 1 {
            // The current model fails: is passing possible?
            let (res, model) = self.solver.check_model_from(&self.store, &st.pc, &[pass], &st.model)?;
            if res == SatResult::Unknown {
                self.stats.solver_unknown += 1;
            }
            if res != SatResult::Sat {
                return Ok(Some(error(self, st)));
            }
            let ending = error(self, st);
            let failing_model = st.model.clone();
            self.end_path(st, Some(fail), &failing_model, ending)?;
            st.pc.push(pass);
            st.model = Rc::new(model.unwrap_or_default());
            debug_assert!(satisfies(&self.store, &st.pc, &*st.model), "the solver's model satisfies the path");
        } else {
            let (res, model) = self.solver.check_model_from(&self.store, &st.pc, &[fail], &st.model)?;
            match res {
                SatResult::Sat => {
                    let ending = error(self, st);
                    self.end_path(st, Some(fail), &model.unwrap_or_default(), ending)?;
                    st.pc.push(pass);
                }
                SatResult::Unsat => {}
                SatResult::Unknown => self.stats.solver_unknown += 1,
            }
        }
        Ok(None)
    }

    /// The four-way form of [`Executor::check`] (see there).
    fn check_four_way(
        &mut self,
        st: &mut ExecutionState,
        fail: TermId,
        error: impl FnOnce(&Self, &ExecutionState) -> Ending,
    ) -> Result<Option<Ending>, RunError> {
        let outcomes = self.outcomes(st, fail)?;
        let ending = error(self, st);
        let (failing, passing): (Vec<_>, Vec<_>) = outcomes.into_iter().partition(|(o, _)| o.new_value());
        // Passing outcomes go on: the first as `st`, the others re-execute the instruction.
        let mut continuing: Vec<ExecutionState> = Vec::new();
        for (outcome, model) in &passing {
            let mut s = st.clone();
            self.constrain_outcome(&mut s, fail, *outcome);
            s.model = model.clone();
            if !outcome.is_same() {
                self.diverge(&mut s, "fails".into(), "passes".into());
            }
            continuing.push(s);
        }
        let mut ended: Option<ExecutionState> = None;
        for (outcome, model) in failing {
            let mut s = st.clone();
            self.constrain_outcome(&mut s, fail, outcome);
            s.model = model;
            if !outcome.is_same() {
                self.diverge(&mut s, "passes".into(), "fails".into());
            }
            if continuing.is_empty() && ended.is_none() {
                ended = Some(s);
            } else {
                let m = s.model.clone();
                self.end_path(&s, None, &m, ending.clone())?;
            }
        }
        if let Some(s) = ended {
            *st = s;
            return Ok(Some(ending));
        }
        let mut rest = continuing.into_iter();
        *st = rest.next().expect("some outcome is feasible");
        for s in rest {
            self.stats.states += 1;
            self.new_states.push(s);
        }
        Ok(None)
    }

    /// Fixes the term `t` to its value under the state's model, adding the equality to the path
    /// condition (sound, not complete: other values are not explored). No solver call.
    pub fn concretize(&mut self, st: &mut ExecutionState, t: TermId) -> u64 {
        let t = self.view(st, t);
        if let Some(c) = self.store.as_const(t) {
            return c;
        }
        if self.store.has_shadow(t) {
            return self.concretize_shadow(st, t);
        }
        let w = self.store.width(t);
        let v = eval(&self.store, t, &*st.model) & mask(w);
        let k = self.store.constant(w, v);
        let eq = self.store.eq(t, k);
        st.pc.push(eq);
        v
    }

    /// The value of `t` under the state's model, without constraining it (for output only;
    /// a shadow gives its new version's value).
    pub fn model_value(&self, st: &ExecutionState, t: TermId) -> u64 {
        match self.store.as_const(t) {
            Some(c) => c,
            None => eval_version(&self.store, t, &*st.model, TermVersion::New) & mask(self.store.width(t)),
        }
    }
}
