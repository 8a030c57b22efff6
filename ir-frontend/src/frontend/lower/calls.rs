//! Calls: direct calls of functions of the module (defined or declared: unknown external
//! functions are ordinary calls, the interpreters decide whether they model them), indirect
//! calls through function pointers, and penumbra's annotations, which `penumbra.h` spells as
//! calls of declared functions and which become IR instructions here:
//!
//! | C                                            | IR                         |
//! |----------------------------------------------|----------------------------|
//! | `penumbra_execute(V)` (`__penumbra_execute`) | `execute old` / `execute new` |
//! | `penumbra_make_symbolic`, `klee_make_symbolic` | `make_symbolic`          |
//! | `penumbra_assume`, `klee_assume`             | `assume (cond != 0)`       |
//! | `penumbra_assert`, `klee_assert`             | `assert (cond != 0)`       |
//!
//! `change(old, new)` is a branch on `penumbra_execute(OLD)` (see `penumbra.h`); where its
//! operands are pure, [`super::change`] folds it into an IR `change`. LLVM intrinsics
//! (`llvm.*`) are in [`super::intrinsics`].

use super::describe::callee_name;
use super::function::FnLower;
use super::libc_sig;
use super::types::{ir_type, LResult, Unsup};
use crate::ir::{CastOp, Func, IntCC, Type, Value, Version, PTR};
use llvm_ir::instruction::Call;
use llvm_ir::{Constant, Type as LType};

/// The annotations of `penumbra.h` / `klee/klee.h`, by the name of the declared function.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum PenumbraOp {
    Execute,
    MakeSymbolic,
    Assume,
    Assert,
}

impl PenumbraOp {
    pub(super) fn from_name(name: &str) -> Option<PenumbraOp> {
        Some(match name {
            "__penumbra_execute" => PenumbraOp::Execute,
            "penumbra_make_symbolic" | "klee_make_symbolic" => PenumbraOp::MakeSymbolic,
            "penumbra_assume" | "klee_assume" => PenumbraOp::Assume,
            "penumbra_assert" | "klee_assert" => PenumbraOp::Assert,
            _ => return None,
        })
    }

    fn arity(self) -> usize {
        match self {
            PenumbraOp::MakeSymbolic => 3,
            PenumbraOp::Execute | PenumbraOp::Assume | PenumbraOp::Assert => 1,
        }
    }
}

/// The IR result type of a call (`None` for `void`), or why it is unsupported.
pub(super) fn scalar_result(ty: &LType) -> LResult<Option<Type>> {
    match ty {
        LType::VoidType => Ok(None),
        t => Ok(Some(ir_type(t)?)),
    }
}

impl<'a, 'm> FnLower<'a, 'm> {
    pub(super) fn call(&mut self, c: &'m Call) -> LResult<()> {
        let Some(callee) = c.function.as_ref().right() else {
            return Err(Unsup::msg("inline assembly"));
        };
        let ret_ty = match c.function_ty.as_ref() {
            LType::FuncType { result_type, .. } => result_type,
            other => return Err(Unsup::msg(format!("call through type {other}"))),
        };
        let name = callee_name(c);
        if let Some(name) = name.filter(|n| n.starts_with("llvm.")) {
            return self.intrinsic(name, c, ret_ty);
        }
        // An aggregate result comes back through a buffer passed first (see `aggregates`).
        let buffer = match (self.cx.leaves(ret_ty), &c.dest) {
            (Some(leaves), Some(dest)) => {
                let buffer = self.call_buffers.get(dest).copied();
                Some((leaves, buffer.ok_or_else(|| Unsup::Category("aggregate value".into()))?, dest))
            }
            _ => None,
        };
        let ret = if buffer.is_some() { None } else { scalar_result(ret_ty)? };
        if let Some(name) = name {
            if self.cx.intrinsic_decls.contains_key(name) {
                if let Some(op) = PenumbraOp::from_name(name) {
                    return self.penumbra(op, name, c, ret);
                }
            }
        }
        let variadic = matches!(c.function_ty.as_ref(), LType::FuncType { is_var_arg: true, .. });
        let defined_variadic = name.and_then(|n| self.cx.defined_variadic.get(n).copied());
        let mut args = Vec::with_capacity(c.arguments.len() + 1);
        if let Some((_, buffer, _)) = &buffer {
            args.push(*buffer);
        }
        if let Some(fixed) = defined_variadic {
            let area = self.vararg_buffers.get(&(c as *const Call)).copied();
            args.extend(self.vararg_call_args(c, fixed, area)?);
        } else {
            if variadic && name.and_then(|n| self.cx.func(n)).is_none() {
                return Err(Unsup::msg("indirect call of a function with variable arguments"));
            }
            for (a, _) in &c.arguments {
                args.push(self.operand(a)?);
            }
        }
        let direct = name.and_then(|n| self.cx.func(n)).and_then(|f| {
            if self.matches_signature(f, &args, ret) {
                return Some(f);
            }
            // A call through an unprototyped declaration (`int main();`) passing more
            // arguments than the definition takes: on x86-64 the extra ones go to registers
            // the callee never reads, so the call passes the ones it takes.
            let sig = &self.cx.module.funcs[f].sig;
            let takes = sig.params.len();
            let prefix_fits =
                !sig.varargs && variadic && args.len() > takes && self.matches_signature(f, &args[..takes], ret);
            if prefix_fits {
                args.truncate(takes);
                Some(f)
            } else {
                None
            }
        });
        let result = match direct {
            Some(f) => self.b.call(f, &args, ret).1,
            // Also a direct call whose types differ from the callee's declaration (a call
            // through a K&R-style prototype): the callee's address keeps the IR well-typed.
            None => {
                let target = self.operand(callee)?;
                self.b.call_indirect(target, &args, ret).1
            }
        };
        if let (Some(dest), Some(v)) = (&c.dest, result) {
            self.define(dest, v);
        }
        if let Some((leaves, buffer, dest)) = buffer {
            let values = self.load_leaves(&leaves, buffer);
            self.define_aggregate(dest, values);
        }
        Ok(())
    }

    fn matches_signature(&self, f: Func, args: &[Value], ret: Option<Type>) -> bool {
        let sig = &self.cx.module.funcs[f].sig;
        let count_ok = if sig.varargs { args.len() >= sig.params.len() } else { args.len() == sig.params.len() };
        count_ok && sig.ret == ret && args.iter().zip(&sig.params).all(|(&a, &t)| self.b.body().value_type(a) == t)
    }

    /// Defines the result of a call that produces nothing meaningful (a non-void declaration
    /// of an annotation, an ignored intrinsic) as 0.
    pub(super) fn define_zero_result(&mut self, c: &'m Call, ret: Option<Type>) {
        if let (Some(dest), Some(ty)) = (&c.dest, ret) {
            let zero = self.b.iconst(ty, 0);
            self.define(dest, zero);
        }
    }

    fn penumbra(&mut self, op: PenumbraOp, name: &str, c: &'m Call, ret: Option<Type>) -> LResult<()> {
        let args = &c.arguments;
        if args.len() != op.arity() {
            return Err(Unsup::msg(format!("{name} takes {} arguments, given {}", op.arity(), args.len())));
        }
        match op {
            PenumbraOp::Execute => {
                let version = match args[0].0.as_constant() {
                    Some(Constant::Int { value: 0, .. }) => Version::Old,
                    Some(Constant::Int { value: 1, .. }) => Version::New,
                    Some(Constant::Int { value, .. }) => {
                        return Err(Unsup::msg(format!(
                            "penumbra_execute({value}): the version must be PENUMBRA_OLD or PENUMBRA_NEW"
                        )))
                    }
                    _ => return Err(Unsup::msg("penumbra_execute with a version that is not a constant")),
                };
                let e = self.b.execute(version);
                if let (Some(dest), Some(ty)) = (&c.dest, ret) {
                    let v = self.resize(e, ty, CastOp::Zext);
                    self.define(dest, v);
                }
                return Ok(());
            }
            PenumbraOp::MakeSymbolic => {
                let addr = self.operand(&args[0].0)?;
                let size = self.operand(&args[1].0)?;
                let label = self.operand(&args[2].0)?;
                let addr = self.resize(addr, PTR, CastOp::Zext);
                let size = self.resize(size, Type::I64, CastOp::Zext);
                let label = self.resize(label, PTR, CastOp::Zext);
                let float = self.float_object(&args[0].0);
                self.b.make_symbolic(addr, size, label, float);
            }
            PenumbraOp::Assume | PenumbraOp::Assert => {
                let x = self.operand(&args[0].0)?;
                let cond = self.nonzero(x);
                if op == PenumbraOp::Assume {
                    self.b.assume(cond);
                } else {
                    self.b.assert(cond);
                }
            }
        }
        self.define_zero_result(c, ret);
        Ok(())
    }

    /// `x != 0` as an `i1` (`x` itself if it is one).
    fn nonzero(&mut self, x: Value) -> Value {
        let ty = self.b.body().value_type(x);
        if ty == Type::I1 {
            return x;
        }
        let zero = self.b.iconst(ty, 0);
        self.b.icmp(IntCC::Ne, x, zero)
    }

    /// `memcpy`/`memmove(dst, src, len)` of the C library (`len` is converted to 64 bits).
    pub(super) fn libc_memcpy(&mut self, name: &'static str, dst: Value, src: Value, len: Value) -> LResult<()> {
        let f = self.cx.libc_func(name, libc_sig(&[PTR, PTR, Type::I64], Some(PTR)))?;
        let len = self.resize(len, Type::I64, CastOp::Zext);
        self.b.call(f, &[dst, src, len], Some(PTR));
        Ok(())
    }

    /// `memset(dst, value, len)` of the C library (`value` zero-extended to an `int`).
    pub(super) fn libc_memset(&mut self, dst: Value, value: Value, len: Value) -> LResult<()> {
        let f = self.cx.libc_func("memset", libc_sig(&[PTR, Type::I32, Type::I64], Some(PTR)))?;
        let value = self.resize(value, Type::I32, CastOp::Zext);
        let len = self.resize(len, Type::I64, CastOp::Zext);
        self.b.call(f, &[dst, value, len], Some(PTR));
        Ok(())
    }
}
