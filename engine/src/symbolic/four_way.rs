//! Four-way forking (Shadow, ICSE 2016; ShadowJPF+): a condition that holds a shadow term has
//! an old and a new projection, and a state may go four ways — both true, both false, and the
//! two divergent cases — each feasible outcome with its own model. A diff outcome is a
//! *divergence*: the state records where and what each version did ([`Context::diverge`]) and
//! follows the new version from then on.
//!
//! Branches and switch cases fork once per feasible outcome ([`Context::branch`] sends them
//! here); a check whose failing condition holds a shadow is an error in both versions, a
//! regression (new fails: the path ends), or a fix (old fails: the new version goes on); a
//! value both versions need as one number ([`Context::concretize`]) is fixed to a common value
//! when the versions can agree on one, and otherwise diverges.

use super::context::{Context, EndedPath};
use super::fork::{Branch, Site};
use super::state::{Decision, Divergence, EarlyReason, Ending, ExecMode, ExecutionState, Side};
use crate::run_error::RunError;
use penumbra_ir::{Inst, InstData};
use penumbra_solver::{eval_version, mask, satisfies, Model, Outcome, TermId, Version as TermVersion};
use std::rc::Rc;

/// Feasible outcomes of a four-way fork, each with its model.
type Outcomes = Vec<(Outcome, Rc<Model>)>;

impl Context<'_> {
    /// The feasible outcomes of a condition holding a shadow, each with its model, in
    /// [`Outcome::ALL`] order. A concolic state gets its seed's outcome first, then only the
    /// diff outcomes off it (divergences to queue); the same outcome off the seed is not
    /// explored. `None` when a query timed out off a seed: the state ends early (see
    /// [`Branch::Early`]); a concolic state goes on along its seed without the undecided outcome.
    fn outcomes(&mut self, st: &ExecutionState, cond: TermId) -> Result<Option<Outcomes>, RunError> {
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
        let mut out: Outcomes = Vec::with_capacity(4);
        if st.follows_seed() {
            out.push((model_outcome, st.model.clone()));
            for outcome in [Outcome::DiffTrue, Outcome::DiffFalse] {
                if outcome != model_outcome {
                    if let Some(m) = fw.get(outcome) {
                        out.push((outcome, Rc::new(m.clone())));
                    }
                }
            }
            return Ok(Some(out));
        }
        if !fw.unknown.is_empty() {
            return Ok(None);
        }
        for outcome in Outcome::ALL {
            if outcome == model_outcome {
                out.push((outcome, st.model.clone()));
            } else if let Some(m) = fw.get(outcome) {
                out.push((outcome, Rc::new(m.clone())));
            }
        }
        // The model's outcome is always among them (the model satisfies the path), so the list
        // is never empty.
        Ok(Some(out))
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
    fn describe(&mut self, st: &ExecutionState, site: Site, outcome: Outcome) -> (Side, Side) {
        match site {
            Site::Branch => (Side::Branch(outcome.old_value()), Side::Branch(outcome.new_value())),
            Site::Switch(selector, table) => {
                let body = self.prog.module.funcs[st.frame().func].body.as_ref();
                let (o, n) = self.store.projections(selector);
                let label = |ex: &Self, t: TermId, v: TermVersion| {
                    let value = eval_version(&ex.store, t, &*st.model, v) & mask(ex.store.width(t));
                    let is_case = body.is_some_and(|b| b.jump_tables[table].cases.iter().any(|&(k, _)| k == value));
                    if is_case {
                        Side::Case(penumbra_solver::semantics::to_signed(value, ex.store.width(t)))
                    } else {
                        Side::Default
                    }
                };
                (label(self, o, TermVersion::Old), label(self, n, TermVersion::New))
            }
        }
    }

    /// The four-way fork of a branch whose condition holds a shadow.
    pub(super) fn branch_four_way(
        &mut self,
        st: &mut ExecutionState,
        cond: TermId,
        inst: Inst,
        site: Site,
    ) -> Result<Branch, RunError> {
        let Some(mut outcomes) = self.outcomes(st, cond)? else {
            return Ok(Branch::Early(EarlyReason::SolverUnknown));
        };
        if outcomes.len() > 1 && self.config.budgets.max_depth.is_some_and(|max| st.depth >= max) {
            return Ok(Branch::Early(EarlyReason::MaxDepth));
        }
        if let Some(room) = self.fork_room() {
            let room = room + 1;
            if outcomes.len() > room {
                // Divergences are what the run is for: the same-outcomes go first.
                outcomes.sort_by_key(|(outcome, _)| outcome.is_same());
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
            debug_assert!(satisfies(&self.store, &s.pc.to_vec(), &*s.model), "the solver's model satisfies the path");
            if forked {
                s.depth += 1;
                s.trail.push(Decision { inst, side: outcome as u32 });
            }
            if !outcome.is_same() {
                // `if (change(0, c))`: the old version never takes the branch, so where the new
                // one does it runs code only it has (statements the patch adds, as Shadow
                // annotates them). Asked only here: the test may look through the function.
                if outcome.new_value() && matches!(site, Site::Branch) && self.guards_added_code(&s, inst) {
                    s.in_new_code = Some(Rc::new(self.location(&s)));
                }
                let (old, new) = self.describe(&s, site, outcome);
                self.diverge(&mut s, old, new);
            }
            states.push((outcome.new_value(), s));
        }
        let (side, first) = states.remove(0);
        *st = first;
        if states.is_empty() {
            return Ok(Branch::only(side));
        }
        self.stats.forks += 1;
        self.stats.states += states.len() as u64;
        Ok(Branch::Sides { side, others: states })
    }

    /// The four-way form of [`Context::check`] (see there).
    pub(super) fn check_four_way(
        &mut self,
        st: &mut ExecutionState,
        fail: TermId,
        error: impl Fn(&Self, &ExecutionState) -> Ending,
    ) -> Result<Option<Ending>, RunError> {
        let Some(outcomes) = self.outcomes(st, fail)? else {
            return Ok(Some(Ending::Early(EarlyReason::SolverUnknown)));
        };
        let (failing, passing): (Vec<_>, Vec<_>) = outcomes.into_iter().partition(|(o, _)| o.new_value());
        // Passing outcomes go on: the first as `st`, the others re-execute the instruction.
        let mut continuing: Vec<ExecutionState> = Vec::new();
        for (outcome, model) in &passing {
            let mut s = st.clone();
            self.constrain_outcome(&mut s, fail, *outcome);
            s.model = model.clone();
            if !outcome.is_same() {
                self.diverge(&mut s, Side::Fails, Side::Passes);
            }
            continuing.push(s);
        }
        let mut ended: Option<(ExecutionState, Ending)> = None;
        for (outcome, model) in failing {
            let mut s = st.clone();
            self.constrain_outcome(&mut s, fail, outcome);
            s.model = model;
            if !outcome.is_same() {
                self.diverge(&mut s, Side::Passes, Side::Fails);
            }
            let ending = error(self, &s);
            if continuing.is_empty() && ended.is_none() {
                ended = Some((s, ending));
            } else {
                self.events.end(EndedPath { st: s, ending });
            }
        }
        if let Some((s, ending)) = ended {
            *st = s;
            return Ok(Some(ending));
        }
        let mut rest = continuing.into_iter();
        *st = rest.next().expect("some outcome is feasible");
        for s in rest {
            self.stats.states += 1;
            self.events.fork(s);
        }
        Ok(None)
    }

    /// Whether `inst`, in `st`'s current function, is a branch into code only the new version
    /// has (`penumbra_ir::guards_added_code`).
    fn guards_added_code(&self, st: &ExecutionState, inst: Inst) -> bool {
        let Some(body) = self.prog.module.funcs[st.frame().func].body.as_ref() else { return false };
        match body.insts[inst] {
            InstData::Brif { cond, .. } => penumbra_ir::guards_added_code(body, cond),
            _ => false,
        }
    }

    /// Marks `st` as diverged at its current instruction: from now on it follows the new
    /// version. `old` and `new` say what each version did there.
    pub fn diverge(&mut self, st: &mut ExecutionState, old: Side, new: Side) {
        debug_assert_eq!(st.mode, ExecMode::Both, "only a state running both versions diverges");
        let loc = self.location(st);
        let new_code = st.in_new_code.take();
        st.divergence =
            Some(Rc::new(Divergence { func: loc.func, line: loc.line, file: loc.file, old, new, new_code }));
        st.mode = ExecMode::Diverged;
        self.stats.divergences += 1;
    }
}
