//! Floating-point instructions in the symbolic interpreter. Operations on concrete `float`
//! and `double` values compute with the concrete interpreter's semantics
//! ([`crate::concrete::float`], bit-exact with x86-64) and stay unboxed constants, so a program
//! whose floating point does not depend on symbolic input runs normally. A floating-point
//! operation on a symbolic value, and any `long double` arithmetic, ends the path as
//! unsupported, naming the operation: penumbra does not yet reason symbolically about
//! floating point, and says so rather than guess.

use crate::concrete::float;
use crate::concrete::stop::Fault;
use crate::run_error::RunError;
use crate::symbolic::context::{Context, Flow};
use crate::symbolic::state::{Ending, ExecutionState};
use crate::symbolic::value::Val;
use penumbra_ir::{Body, Inst, InstData, Type, Value};

impl<'p> Context<'p> {
    /// Executes the floating-point instruction `inst`.
    pub(crate) fn float_step(&mut self, st: &mut ExecutionState, body: &'p Body, inst: Inst) -> Result<Flow, RunError> {
        let data = &body.insts[inst];
        let Some(r) = body.results[inst] else { return Ok(Flow::Next) };
        let result_ty = body.values[r].ty;
        let operands = body.inst_args(inst);
        if result_ty == Type::F80 || operands.iter().any(|&v| body.values[v].ty == Type::F80) {
            let what = format!("{} on a long double (symbolic execution of x87 floating point)", data.mnemonic());
            return Ok(Flow::End(self.unsupported(st, what)));
        }
        let Some(x) = self.float_operands(st, &operands) else {
            let what = format!("{} on a symbolic floating-point value", data.mnemonic());
            return Ok(Flow::End(self.unsupported(st, what)));
        };
        let ty = |v: Value| body.values[v].ty;
        let bits = match data {
            InstData::FBinary { op, args: [a, _] } => float::binary(*op, ty(*a), x[0], x[1]),
            InstData::FUnary { op, arg } => float::unary(*op, ty(*arg), x[0]),
            InstData::Fma { args: [a, ..] } => float::fma(ty(*a), x[0], x[1], x[2]),
            InstData::Fcmp { cc, args: [a, _] } => u128::from(float::compare(*cc, ty(*a), x[0], x[1])),
            InstData::FCast { op, arg } => match float::cast(*op, ty(*arg), result_ty, x[0]) {
                Ok(bits) => bits,
                Err(Fault::Error(kind, message)) => return Ok(Flow::End(self.error(st, kind, message))),
                Err(Fault::Unsupported(message)) => return Ok(Flow::End(self.unsupported(st, message))),
            },
            _ => unreachable!("float_step on {}", data.mnemonic()),
        };
        st.frame_mut().set(r, Val::konst(result_ty.bits() as u8, bits as u64));
        Ok(Flow::Next)
    }

    /// The concrete bits of every operand, or `None` if one is symbolic.
    fn float_operands(&self, st: &ExecutionState, operands: &[Value]) -> Option<[u128; 3]> {
        let mut out = [0u128; 3];
        for (slot, &v) in out.iter_mut().zip(operands) {
            *slot = u128::from(self.concrete(st, v)?);
        }
        Some(out)
    }

    /// The message for a path that reaches `long double` data the symbolic interpreter cannot
    /// hold (a load or store of one).
    pub(crate) fn x87_unsupported(&self, st: &ExecutionState, what: &str) -> Ending {
        self.unsupported(st, format!("{what} of a long double (symbolic execution of x87 floating point)"))
    }
}
