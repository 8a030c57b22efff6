//! Shadow values: `change(old, new)` makes `Shadow(old, new)` unless the path condition proves
//! `old = new` (refactoring elimination, Shadow ICSE 2016), and everything computed from it
//! shares structure. Shadows stay inside values; they never enter the path condition, which
//! holds projections. Where a value is *used* — a branch, a check, a concretisation, an address
//! — the machine takes its [`view`](crate::symbolic::context::Context::view) and forks four ways
//! on what still holds a shadow ([`four_way`](crate::symbolic::four_way)).
//!
//! An object whose size differs between the versions (`malloc(change(4, 5))`) is an object
//! whose size is a term holding a shadow (`symbolic::sizes`).

use super::Shadow;
use crate::run_error::RunError;
use crate::symbolic::state::ExecutionState;
use penumbra_solver::TermId;

impl<'p> Shadow<'_, 'p> {
    /// `change(old, new)` in a state of mode `Both`: the shadow of the two, or one term when
    /// the path condition proves them equal.
    pub fn change_value(&mut self, st: &ExecutionState, old: TermId, new: TermId) -> Result<TermId, RunError> {
        Ok(self.cx.solver.shadow_under(&mut self.cx.store, &st.pc, old, new)?)
    }
}
