//! Shadow values: `change(old, new)` makes `Shadow(old, new)` unless the path condition proves
//! `old = new` (refactoring elimination, Shadow ICSE 2016), and everything computed from it
//! shares structure. Shadows stay inside values; they never enter the path condition, which
//! holds projections. Where a value is *used* — a branch, a check, a concretisation, an address
//! — the machine takes its [`view`](crate::symbolic::context::Context::view) and forks four ways
//! on what still holds a shadow ([`four_way`](crate::symbolic::four_way)).
//!
//! This file also holds what shadow execution adds to allocation: an object whose size differs
//! between the versions (`malloc(change(4, 5))`) gets the larger size and a record of both, which
//! every later access is checked against.

use crate::address::ObjectId;
use crate::run_error::RunError;
use crate::symbolic::context::Context;
use crate::symbolic::state::ExecutionState;
use penumbra_solver::TermId;
use std::rc::Rc;

impl Context<'_> {
    /// `change(old, new)` in a state of mode `Both`: the shadow of the two, or one term when
    /// the path condition proves them equal.
    pub fn change_value(&mut self, st: &ExecutionState, old: TermId, new: TermId) -> Result<TermId, RunError> {
        Ok(self.solver.shadow_under(&mut self.store, &st.pc, old, new)?)
    }

    /// The size of an allocation in each version: `(old, new)`, equal unless `t` holds a
    /// shadow in a state running both versions. Symbolic sizes are fixed to their model values.
    pub(crate) fn alloc_sizes(&mut self, st: &mut ExecutionState, t: TermId) -> (u64, u64) {
        let t = self.view(st, t);
        if !self.store.has_shadow(t) {
            if self.store.as_const(t).is_none() {
                self.stats.concretized_sizes += 1;
            }
            let n = self.concretize(st, t);
            return (n, n);
        }
        let (o, n) = self.store.projections(t);
        if self.store.as_const(o).is_none() || self.store.as_const(n).is_none() {
            self.stats.concretized_sizes += 1;
        }
        (self.concretize(st, o), self.concretize(st, n))
    }

    /// Records that `obj` (allocated with the larger size) has `old` bytes in the old version
    /// and `new` in the new one.
    pub(crate) fn record_shadow_size(&mut self, st: &mut ExecutionState, obj: ObjectId, old: u64, new: u64) {
        if old != new {
            Rc::make_mut(&mut st.shadow_sizes).push((obj, old, new));
        }
    }
}
