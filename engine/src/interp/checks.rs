//! The implicit checks of arithmetic, inserted before the term is built (the term store keeps
//! SMT-LIB semantics, where `x / 0` is defined): a zero divisor, `INT_MIN / -1` (and `% -1`)
//! at the operand width, and a shift by the width or more. Each is one [`Context::check`]:
//! when failing is feasible an error test is written for it, and the path goes on constrained
//! to pass. The order of the checks is the concrete interpreter's.

use super::Interp;
use crate::error::ErrorKind;
use crate::run_error::RunError;
use crate::symbolic::state::{Ending, ExecutionState};
use penumbra_ir::BinaryOp;
use penumbra_solver::{mask, TermId};

impl<'p> Interp<'_, 'p> {
    /// Checks the operands of a division, remainder or shift; `Some` when the whole path fails.
    pub fn check_binary(
        &mut self,
        st: &mut ExecutionState,
        op: BinaryOp,
        a: TermId,
        b: TermId,
    ) -> Result<Option<Ending>, RunError> {
        let w = self.cx.store.width(b);
        if op.is_division() {
            let zero = self.cx.store.zero(w);
            let is_zero = self.cx.store.eq(b, zero);
            let what = if matches!(op, BinaryOp::UDiv | BinaryOp::SDiv) { "division" } else { "remainder" };
            let failed = self.cx.check(st, is_zero, |ex, st| {
                ex.error(st, ErrorKind::DivisionByZero, format!("{what} by zero ({} i{w})", op.name()))
            })?;
            if failed.is_some() || !matches!(op, BinaryOp::SDiv | BinaryOp::SRem) {
                return Ok(failed);
            }
            let min = self.cx.store.constant(w, 1u64 << (w - 1));
            let minus_one = self.cx.store.constant(w, mask(w));
            let a_min = self.cx.store.eq(a, min);
            let b_m1 = self.cx.store.eq(b, minus_one);
            let overflow = self.cx.store.and(a_min, b_m1);
            let sym = if op == BinaryOp::SDiv { '/' } else { '%' };
            return self.cx.check(st, overflow, |ex, st| {
                ex.error(
                    st,
                    ErrorKind::SignedDivisionOverflow,
                    format!("{} {sym} -1 overflows i{w} ({})", -(1i128 << (w - 1)), op.name()),
                )
            });
        }
        if op.is_shift() {
            let width = self.cx.store.constant(w, u64::from(w));
            let too_far = self.cx.store.uge(b, width);
            return self.cx.check(st, too_far, |ex, st| {
                ex.error(
                    st,
                    ErrorKind::ShiftOutOfRange,
                    format!("{} by the width or more of a {w}-bit value", op.name()),
                )
            });
        }
        Ok(None)
    }
}
