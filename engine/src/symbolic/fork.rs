//! Forking: the one place where a path meets a symbolic condition.
//!
//! Every decision that depends on a term goes through here — branches and switch cases
//! ([`Context::branch`]), the implicit checks whose failing side is an error
//! ([`Context::check`]), and values the engine must fix ([`Context::concretize`], in
//! `concretize.rs`). A condition
//! holding a shadow term (shadow execution, before the path diverged) becomes a four-way
//! question ([`four_way`](super::four_way)) without the instructions that ask knowing it.
//! Every fork has one result shape, [`Branch`].
//!
//! **Feasibility with a model in hand.** Each state carries a model of its path condition. A
//! condition's value under that model says, with no solver call, which side is feasible; only
//! the *other* side is asked about (`pc ∧ ¬side`), and the solver's model for it becomes the
//! model of the state that takes it. Constant conditions never reach the solver. A test at the
//! end of a path is the state's model: no further query.

use super::context::{Context, EndedPath, Flow};
use super::state::{Decision, EarlyReason, Ending, ExecutionState};
use crate::run_error::RunError;
use penumbra_ir::Inst;
use penumbra_solver::{eval, satisfies, Op, SatResult, TermId, TermStore};
use std::rc::Rc;

/// Which sides of a decision a state goes on with.
#[derive(Debug)]
pub enum Branch {
    /// The state takes `side`; each of `others` is a new state that takes its own side (none
    /// when only one side is feasible). In shadow execution some of them may have diverged.
    Sides { side: bool, others: Vec<(bool, ExecutionState)> },
    /// The state ends early, for this reason: more than one side is feasible but the state
    /// reached the depth budget, or the solver could not say whether the other side is (a
    /// timed-out query: ending the whole state, as KLEE does, keeps its test honest, since the
    /// state's model takes the known side and no other state covers the undecided one).
    Early(EarlyReason),
}

impl Branch {
    /// Only `side` is feasible (or followed).
    pub fn only(side: bool) -> Branch {
        Branch::Sides { side, others: Vec::new() }
    }
}

/// What kind of decision a fork is, for describing a divergence.
#[derive(Copy, Clone, Debug)]
pub enum Site {
    /// A conditional branch: `true` / `false`.
    Branch,
    /// One case group of a switch on this selector: the divergence names each version's case.
    Switch(TermId, penumbra_ir::JumpTable),
}

impl Context<'_> {
    /// Decides the width-1 condition `cond` at `inst` for `st`.
    pub fn branch(&mut self, st: &mut ExecutionState, cond: TermId, inst: Inst) -> Result<Branch, RunError> {
        self.branch_at(st, cond, inst, Site::Branch)
    }

    /// [`Context::branch`], saying what kind of decision it is.
    pub fn branch_at(
        &mut self,
        st: &mut ExecutionState,
        cond: TermId,
        inst: Inst,
        site: Site,
    ) -> Result<Branch, RunError> {
        let cond = self.view(st, cond);
        if let Some(c) = self.store.as_const(cond) {
            return Ok(Branch::only(c & 1 == 1));
        }
        if self.store.has_shadow(cond) {
            return self.branch_four_way(st, cond, inst, site);
        }
        let model_side = eval(&self.store, cond, &*st.model) & 1 == 1;
        let not_cond = self.store.not(cond);
        let (taken, other_cond) = if model_side { (cond, not_cond) } else { (not_cond, cond) };
        if st.follows_seed() {
            // Follow the seed: no question, the seed's side joins the path condition.
            st.pc.push(taken);
            return Ok(Branch::only(model_side));
        }
        let (res, model) = self.solver.check_model_from(&self.store, &st.pc, &[other_cond], &st.model)?;
        match res {
            SatResult::Sat => {}
            SatResult::Unsat => return Ok(Branch::only(model_side)),
            SatResult::Unknown => {
                self.stats.solver_unknown += 1;
                return Ok(Branch::Early(EarlyReason::SolverUnknown));
            }
        }
        if self.config.budgets.max_depth.is_some_and(|max| st.depth >= max) {
            return Ok(Branch::Early(EarlyReason::MaxDepth));
        }
        if self.fork_room() == Some(0) && !self.lookup_may_fork(st, cond) {
            // Not forked, still decided, on a side drawn at random (KLEE's memory inhibit): had
            // the model's side always gone on, every path under memory pressure would follow
            // the first values found for the inputs (often all zeros: the shortest arguments).
            self.stats.dropped += 1;
            if let (true, Some(model)) = (self.coin(), model) {
                st.pc.push(other_cond);
                st.model = Rc::new(model);
                debug_assert!(
                    satisfies(&self.store, &st.pc.to_vec(), &*st.model),
                    "the solver's model satisfies the path"
                );
                return Ok(Branch::only(!model_side));
            }
            st.pc.push(taken);
            return Ok(Branch::only(model_side));
        }
        let mut other = st.clone();
        st.pc.push(taken);
        other.pc.push(other_cond);
        other.model = Rc::new(model.unwrap_or_default());
        debug_assert!(
            satisfies(&self.store, &other.pc.to_vec(), &*other.model),
            "the solver's model satisfies the path"
        );
        st.depth += 1;
        other.depth += 1;
        st.trail.push(Decision { inst, side: u32::from(model_side) });
        other.trail.push(Decision { inst, side: u32::from(!model_side) });
        // The state goes on with the true side and the new one takes the false side, whatever
        // the model took: depth-first search explores the false side first.
        if !model_side {
            std::mem::swap(st, &mut other);
        }
        self.stats.forks += 1;
        self.stats.states += 1;
        Ok(Branch::Sides { side: true, others: vec![(false, other)] })
    }

    /// Whether `cond` goes on testing the value the path's last fork tested against a
    /// constant, against another (a lookup in a list: getopt's option letters, a keyword
    /// table), and the states held are fewer than a quarter above the limit. Memory pressure
    /// does not stop such a fork before that: deciding each test of the list by a coin gives
    /// its k-th constant 2^-k of the paths (`pr -dl`: `l` is the 37th letter of pr's option
    /// string, and no path had it), where forking each gives random-path one choice among
    /// the values.
    fn lookup_may_fork(&self, st: &ExecutionState, cond: TermId) -> bool {
        let Some(limit) = self.fork_limit() else { return true };
        if self.states_held() >= limit + limit / 4 {
            return false;
        }
        let Some(subject) = fork_subject(&self.store, cond) else { return false };
        st.pc.last().is_some_and(|last| fork_subject(&self.store, last) == Some(subject))
    }

    /// Decides the width-1 `cond` at `inst` inside an instruction that has had no effect yet
    /// (a model's branch on a symbolic argument): the state goes on with one feasible side,
    /// returned, and the states taking the others execute the instruction again. `Err` is how
    /// the instruction ends instead (the depth budget, an undecided query).
    pub fn decide(
        &mut self,
        st: &mut ExecutionState,
        cond: TermId,
        inst: Inst,
    ) -> Result<Result<bool, Flow>, RunError> {
        match self.branch(st, cond, inst)? {
            Branch::Sides { side, others } => {
                for (_, other) in others {
                    self.events.fork(other);
                }
                Ok(Ok(side))
            }
            Branch::Early(reason) => Ok(Err(Flow::End(Box::new(Ending::Early(reason))))),
        }
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
    ///
    /// `error` gets the failing state (its model is one in which the check fails), so a message
    /// may name the values of that test.
    pub fn check(
        &mut self,
        st: &mut ExecutionState,
        fail: TermId,
        error: impl Fn(&Self, &ExecutionState) -> Ending,
    ) -> Result<Option<Ending>, RunError> {
        let fail = self.view(st, fail);
        if let Some(c) = self.store.as_const(fail) {
            return Ok((c & 1 == 1).then(|| error(self, st)));
        }
        if self.store.has_shadow(fail) {
            return self.check_four_way(st, fail, error);
        }
        let pass = self.store.not(fail);
        if st.follows_seed() {
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
            self.end_path(st, Some(fail), st.model.clone(), ending);
            st.pc.push(pass);
            st.model = Rc::new(model.unwrap_or_default());
            debug_assert!(satisfies(&self.store, &st.pc.to_vec(), &*st.model), "the solver's model satisfies the path");
        } else {
            let (res, model) = self.solver.check_model_from(&self.store, &st.pc, &[fail], &st.model)?;
            match res {
                SatResult::Sat => {
                    let mut failing = st.clone();
                    failing.pc.push(fail);
                    failing.model = Rc::new(model.unwrap_or_default());
                    let ending = error(self, &failing);
                    self.events.end(EndedPath { st: failing, ending });
                    st.pc.push(pass);
                }
                SatResult::Unsat => {}
                SatResult::Unknown => {
                    // Failing may be feasible: the state ends early (see `Branch::Early`).
                    self.stats.solver_unknown += 1;
                    return Ok(Some(Ending::Early(EarlyReason::SolverUnknown)));
                }
            }
        }
        Ok(None)
    }
}

/// The value a fork chose among: the term its condition (as one side's path condition holds
/// it) tests for equality with a constant, `x == K` or `x != K`. A program that looks a value up
/// in a list (an option character in getopt's option string, an argument's bytes against each
/// long option's name, a keyword table) tests it against one constant after another, forking at
/// each; random-path takes such forks in a row as one choice among the values
/// (`search::RandomPath`).
pub fn fork_subject(store: &TermStore, cond: TermId) -> Option<TermId> {
    let cond = if store.op(cond) == Op::Not { store.children(cond)[0] } else { cond };
    if store.op(cond) != Op::Eq || store.has_shadow(cond) {
        return None;
    }
    match *store.children(cond) {
        [a, b] if store.is_const(b) && !store.is_const(a) => Some(a),
        [a, b] if store.is_const(a) && !store.is_const(b) => Some(b),
        _ => None,
    }
}
