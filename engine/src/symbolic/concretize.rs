//! Fixing a symbolic value to one number, which the engine does only where it must (a length
//! handed to a system call, a symbolic offset into an object too large for an `ite` chain, a
//! pointer the C library needs as an address), and never silently.
//!
//! KLEE adds `t = v` to the path and loses every other value. Here the state goes on with the
//! model's value `v`, and the other values are another state (`t != v`) that executes the
//! instruction again and so fixes the value it finds; after [`MAX_CONCRETE_VALUES`] values of
//! one instruction, what is left ends early (`concretized`). Each site (file, line, what was
//! fixed) is counted in the summary with the paths it cost. The caller fixes values before
//! the instruction has any effect, so executing it again is safe.
//!
//! In shadow execution a value holding a shadow is fixed in both versions: to one number when
//! the versions can agree on one, else each version to its own and the path diverges there
//! (the versions compute different values that penumbra cannot use together).

use super::context::Context;
use super::state::{EarlyReason, Ending, ExecutionState, Side};
pub use super::stats::{Fixed, SiteCount};
use crate::run_error::RunError;
use penumbra_solver::{eval, eval_version, mask, SatResult, TermId, Version as TermVersion};
use std::rc::Rc;

/// The values one instruction of a path runs with after fixing a symbolic value, before the
/// rest end early.
pub const MAX_CONCRETE_VALUES: u32 = 8;

impl Context<'_> {
    /// Fixes `t` to one value for `st` (see the module documentation); `what` says what it is.
    pub fn concretize(&mut self, st: &mut ExecutionState, t: TermId, what: Fixed) -> Result<u64, RunError> {
        let t = self.view(st, t);
        if let Some(c) = self.store.as_const(t) {
            return Ok(c);
        }
        let w = self.store.width(t);
        if !self.store.has_shadow(t) {
            let v = eval(&self.store, t, &*st.model) & mask(w);
            let k = self.store.constant(w, v);
            let pin = self.store.eq(t, k);
            self.fork_other_values(st, pin, what)?;
            st.pc.push(pin);
            return Ok(v);
        }
        let (o, n) = self.store.projections(t);
        let value_of = |ex: &Self, st: &ExecutionState, x: TermId, v: TermVersion| {
            eval_version(&ex.store, x, &*st.model, v) & mask(w)
        };
        let mut vo = value_of(self, st, o, TermVersion::Old);
        let mut vn = value_of(self, st, n, TermVersion::New);
        if vo != vn && !st.follows_seed() {
            // Prefer a value both versions can take.
            let same = self.store.eq(o, n);
            match self.solver.check_model_from(&self.store, &st.pc, &[same], &st.model)? {
                (SatResult::Sat, Some(model)) => {
                    st.model = Rc::new(model);
                    vn = value_of(self, st, n, TermVersion::New);
                    vo = vn;
                }
                (SatResult::Unknown, _) => self.stats.solver_unknown += 1,
                _ => {}
            }
        }
        let (ko, kn) = (self.store.constant(w, vo), self.store.constant(w, vn));
        let (eq_old, eq_new) = (self.store.eq(o, ko), self.store.eq(n, kn));
        let pin = self.store.and(eq_old, eq_new);
        self.fork_other_values(st, pin, what)?;
        st.pc.push(eq_old);
        st.pc.push(eq_new);
        if vo != vn {
            self.stats.value_divergences += 1;
            self.diverge(st, Side::Value(vo), Side::Value(vn));
        }
        Ok(vn)
    }

    /// The one value the path allows `t` (a term without shadows), if it allows only one: the
    /// model's value, when no other satisfies the path condition (an unknown answer is `None`).
    /// Nothing is added to the path: the value was already the only one.
    pub fn fixed_value(&mut self, st: &ExecutionState, t: TermId) -> Result<Option<u64>, RunError> {
        let w = self.store.width(t);
        let v = eval(&self.store, t, &*st.model) & mask(w);
        let k = self.store.constant(w, v);
        let other = self.store.ne(t, k);
        Ok((self.solver.check(&self.store, &st.pc, &[other])? == SatResult::Unsat).then_some(v))
    }

    /// The values `pin` leaves out, when the path allows any: a state executing the
    /// instruction again with them, or, past [`MAX_CONCRETE_VALUES`], a path ended early.
    fn fork_other_values(&mut self, st: &mut ExecutionState, pin: TermId, what: Fixed) -> Result<(), RunError> {
        let others = self.store.not(pin);
        // A state following a seed keeps the seed's value: seeded mode explores off the seed
        // only where the versions diverge.
        if st.follows_seed() || self.store.as_const(others) == Some(0) {
            return Ok(());
        }
        let (res, model) = self.solver.check_model_from(&self.store, &st.pc, &[others], &st.model)?;
        match res {
            SatResult::Unsat => return Ok(()),
            SatResult::Unknown => {
                self.stats.solver_unknown += 1;
                return Ok(());
            }
            SatResult::Sat => {}
        }
        let model = Rc::new(model.unwrap_or_default());
        let loc = self.location(st);
        let site = self.stats.concretized_sites.entry((loc.file, loc.line, loc.func, what)).or_default();
        site.fixed += 1;
        if st.value_attempts + 1 >= MAX_CONCRETE_VALUES {
            site.ended += 1;
            self.end_path(st, Some(others), model, Ending::Early(EarlyReason::Concretized));
            return Ok(());
        }
        site.forked += 1;
        let mut other = st.clone();
        other.pc.push(others);
        other.model = model;
        other.value_attempts += 1;
        self.stats.states += 1;
        self.events.fork(other);
        Ok(())
    }
}
