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
use penumbra_solver::{eval, mask, satisfies, SatResult, TermId};
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
}

impl Executor<'_> {
    /// Decides the width-1 condition `cond` at `inst` for `st`.
    pub fn branch(&mut self, st: &mut ExecutionState, cond: TermId, inst: Inst) -> Result<Branch, RunError> {
        if let Some(c) = self.store.as_const(cond) {
            return Ok(Branch::Only(c & 1 == 1));
        }
        let model_side = eval(&self.store, cond, &*st.model) & 1 == 1;
        let not_cond = self.store.not(cond);
        let (taken, other_cond) = if model_side { (cond, not_cond) } else { (not_cond, cond) };
        let (res, model) = self.solver.check_model(&self.store, &st.pc, &[other_cond])?;
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

    /// An implicit check: `fail` (width 1) is the condition under which the operation is an
    /// error. If failing is feasible, an error test is written for it (with `error`'s ending);
    /// if passing is feasible too, `st` continues constrained to pass and `None` is returned;
    /// otherwise the whole path fails and its ending is returned.
    pub fn check(
        &mut self,
        st: &mut ExecutionState,
        fail: TermId,
        error: impl FnOnce(&Self, &ExecutionState) -> Ending,
    ) -> Result<Option<Ending>, RunError> {
        if let Some(c) = self.store.as_const(fail) {
            return Ok((c & 1 == 1).then(|| error(self, st)));
        }
        let pass = self.store.not(fail);
        if eval(&self.store, fail, &*st.model) & 1 == 1 {
            // The current model fails: is passing possible?
            let (res, model) = self.solver.check_model(&self.store, &st.pc, &[pass])?;
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
            let (res, model) = self.solver.check_model(&self.store, &st.pc, &[fail])?;
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

    /// Fixes the term `t` to its value under the state's model, adding the equality to the path
    /// condition (sound, not complete: other values are not explored). No solver call.
    pub fn concretize(&mut self, st: &mut ExecutionState, t: TermId) -> u64 {
        if let Some(c) = self.store.as_const(t) {
            return c;
        }
        let w = self.store.width(t);
        let v = eval(&self.store, t, &*st.model) & mask(w);
        let k = self.store.constant(w, v);
        let eq = self.store.eq(t, k);
        st.pc.push(eq);
        v
    }

    /// The value of `t` under the state's model, without constraining it (for output only).
    pub fn model_value(&self, st: &ExecutionState, t: TermId) -> u64 {
        match self.store.as_const(t) {
            Some(c) => c,
            None => eval(&self.store, t, &*st.model) & mask(self.store.width(t)),
        }
    }
}
