//! Divergences that show only in output (issue 14): a value the user sees — the exit status, a
//! number or character written to stdout or stderr — whose old and new values can differ is a
//! divergence where it is output, even if no branch ever tests it (`return change(0, x == 42)`,
//! `printf("%d", change(x * 2, (x << 1) | (x == 7)))`). Shadow and ShadowJPF+ see only branches;
//! penumbra sees what users see.
//!
//! [`Shadow::observe`] asks whether the versions' values can differ under the path condition.
//! Where they can, a copy of the state diverges there (it runs the output instruction again,
//! following the new version); where they can also agree, the state goes on constrained to
//! agree. Under a full state budget the state itself takes the divergence: divergences are what
//! the run is for, so they are the last thing dropped. A state following a seed (seeded mode)
//! keeps the seed's side, and a divergence the seed does not take is a copy, as at a four-way
//! fork.

use super::Shadow;
use crate::run_error::RunError;
use crate::symbolic::state::{Decision, ExecMode, ExecutionState, Frame, Side};
use penumbra_ir::Inst;
use penumbra_solver::{eval, SatResult, TermId};
use std::rc::Rc;

impl<'p> Shadow<'_, 'p> {
    /// `t` (at instruction `inst`) reaches the program's output: see the module documentation.
    pub fn observe(&mut self, st: &mut ExecutionState, inst: Inst, t: TermId) -> Result<(), RunError> {
        if st.mode != ExecMode::Both {
            return Ok(());
        }
        let t = self.cx.view(st, t);
        if !self.cx.store.has_shadow(t) {
            return Ok(());
        }
        let (o, n) = self.cx.store.projections(t);
        let same = self.cx.store.eq(o, n);
        self.observe_agreement(st, inst, same, (Side::Shows(o), Side::Shows(n)), None)
    }

    /// A text (at instruction `inst`) reaches the program's output: the bytes of a C string up
    /// to and including a byte that ends it in both versions (`terminated`), or a block of
    /// bytes. The versions print the same text when, at each byte, they agree or the text has
    /// already ended: so bytes after a common end never make a divergence.
    pub fn observe_text(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        bytes: &[TermId],
        terminated: bool,
    ) -> Result<(), RunError> {
        if st.mode != ExecMode::Both {
            return Ok(());
        }
        let bytes: Vec<TermId> = bytes.iter().map(|&b| self.cx.view(st, b)).collect();
        if !bytes.iter().any(|&b| self.cx.store.has_shadow(b)) {
            return Ok(());
        }
        let pairs: Vec<(TermId, TermId)> = bytes.iter().map(|&b| self.cx.store.projections(b)).collect();
        let same = self.text_agreement(&pairs, terminated);
        self.observe_agreement(st, inst, same, (Side::ShowsText, Side::ShowsText), None)
    }

    /// When two texts, given as pairs of (old, new) bytes, print the same: at each byte they
    /// agree or the text has already ended. With `terminated` they are C strings, which end
    /// at a byte that ends them in both versions; otherwise every byte is printed.
    pub(super) fn text_agreement(&mut self, pairs: &[(TermId, TermId)], terminated: bool) -> TermId {
        let (mut same, mut ended) = (self.cx.store.tt(), self.cx.store.ff());
        let zero = self.cx.store.zero(8);
        for &(o, n) in pairs {
            let agree = self.cx.store.eq(o, n);
            let fine = self.cx.store.or(ended, agree);
            same = self.cx.store.and(same, fine);
            if terminated {
                // Agreeing so far and old ends here: both ended.
                let ends = self.cx.store.eq(o, zero);
                ended = self.cx.store.or(ended, ends);
            }
        }
        same
    }

    /// The versions' output at `inst` is the same exactly when `same` holds: when it may not,
    /// that is a divergence whose sides are `sides` (see the module documentation), reported
    /// where the state is or, for an execute block's output, at the block's branch (`at`).
    pub(super) fn observe_agreement(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        same: TermId,
        sides: (Side, Side),
        at: Option<&Frame>,
    ) -> Result<(), RunError> {
        match self.cx.store.as_const(same) {
            Some(1) => return Ok(()),
            Some(_) => {
                self.diverge_at(st, at, sides);
                return Ok(());
            }
            None => {}
        }
        let differ = self.cx.store.not(same);
        let model_differs = eval(&self.cx.store, differ, &*st.model) & 1 == 1;
        let other = if model_differs { same } else { differ };
        let (res, model) = self.cx.solver.check_model_from(&self.cx.store, &st.pc, &[other], &st.model)?;
        let budget_full = self.cx.fork_room() == Some(0);
        // A state following a seed keeps the seed's side; only a divergence is worth a copy
        // (as at a four-way fork).
        let keep_one = budget_full || (st.follows_seed() && model_differs);
        match res {
            SatResult::Sat if !keep_one => {
                let model = Rc::new(model.unwrap_or_default());
                let mut diverged = st.clone();
                diverged.pc.push(differ);
                st.pc.push(same);
                if model_differs {
                    st.model = model;
                } else {
                    diverged.model = model;
                }
                st.depth += 1;
                diverged.depth += 1;
                st.trail.push(Decision { inst, side: 0 });
                diverged.trail.push(Decision { inst, side: 1 });
                self.diverge_at(&mut diverged, at, sides);
                self.cx.stats.forks += 1;
                self.cx.stats.states += 1;
                self.cx.events.fork(diverged);
            }
            SatResult::Sat => {
                // Keep the divergence, drop the agreeing side.
                if !model_differs {
                    st.model = Rc::new(model.unwrap_or_default());
                }
                if budget_full {
                    self.cx.stats.dropped += 1;
                }
                st.pc.push(differ);
                self.diverge_at(st, at, sides);
            }
            SatResult::Unsat | SatResult::Unknown => {
                if res == SatResult::Unknown {
                    self.cx.stats.solver_unknown += 1;
                }
                // The side the model takes (the only one, or the only one known).
                if model_differs {
                    st.pc.push(differ);
                    self.diverge_at(st, at, sides);
                } else {
                    st.pc.push(same);
                }
            }
        }
        Ok(())
    }

    /// Diverges `st` with `sides`, at the frame `at` if given (then restored).
    pub(super) fn diverge_at(&mut self, st: &mut ExecutionState, at: Option<&Frame>, sides: (Side, Side)) {
        let here = at.map(|frame| std::mem::replace(st.frame_mut(), frame.clone()));
        self.cx.diverge(st, sides.0, sides.1);
        if let Some(here) = here {
            *st.frame_mut() = here;
        }
    }
}
