//! Floating-point instructions and intrinsics: `fadd`..`frem`, `fneg`, `fcmp`, the conversions
//! (`fpext`, `fptrunc`, `fptosi`, `fptoui`, `sitofp`, `uitofp`, bitcasts between a float and
//! an integer of its width) and the `llvm.*` intrinsics clang emits for C at `-O0` (`fabs`,
//! `copysign`, `fmuladd`, `fma`, `minnum`/`maxnum`, `sqrt`, the rounding functions).
//!
//! `llvm.fmuladd` may be fused or not at the compiler's choice; the native x86-64 build (no
//! FMA unit in the baseline target) computes a multiplication then an addition, each rounded,
//! and so does penumbra.

use super::function::FnLower;
use super::intrinsics::intrinsic_arg;
use super::types::{container, ir_type, LResult, Unsup};
use super::widths::int_bits;
use crate::ir::{CastOp, FCastOp, FUnaryOp, FloatCC, FloatOp, Func, Type};
use llvm_ir::instruction::Call;
use llvm_ir::{FPPredicate, Name, Operand, Type as LType};

pub(super) fn float_cc(p: FPPredicate) -> FloatCC {
    match p {
        FPPredicate::False => FloatCC::False,
        FPPredicate::OEQ => FloatCC::Oeq,
        FPPredicate::OGT => FloatCC::Ogt,
        FPPredicate::OGE => FloatCC::Oge,
        FPPredicate::OLT => FloatCC::Olt,
        FPPredicate::OLE => FloatCC::Ole,
        FPPredicate::ONE => FloatCC::One,
        FPPredicate::ORD => FloatCC::Ord,
        FPPredicate::UNO => FloatCC::Uno,
        FPPredicate::UEQ => FloatCC::Ueq,
        FPPredicate::UGT => FloatCC::Ugt,
        FPPredicate::UGE => FloatCC::Uge,
        FPPredicate::ULT => FloatCC::Ult,
        FPPredicate::ULE => FloatCC::Ule,
        FPPredicate::UNE => FloatCC::Une,
        FPPredicate::True => FloatCC::True,
    }
}

/// Unary intrinsics by name prefix.
const UNARY: &[(&str, FUnaryOp)] = &[
    ("llvm.fabs.", FUnaryOp::Abs),
    ("llvm.sqrt.", FUnaryOp::Sqrt),
    ("llvm.floor.", FUnaryOp::Floor),
    ("llvm.ceil.", FUnaryOp::Ceil),
    ("llvm.trunc.", FUnaryOp::Trunc),
    ("llvm.round.", FUnaryOp::Round),
    ("llvm.roundeven.", FUnaryOp::RoundEven),
    ("llvm.rint.", FUnaryOp::RoundEven),
    ("llvm.nearbyint.", FUnaryOp::RoundEven),
];

/// Binary intrinsics by name prefix.
const BINARY: &[(&str, FloatOp)] =
    &[("llvm.copysign.", FloatOp::Copysign), ("llvm.minnum.", FloatOp::Minnum), ("llvm.maxnum.", FloatOp::Maxnum)];

impl<'a, 'm> FnLower<'a, 'm> {
    pub(super) fn float_binary(&mut self, op: FloatOp, a: &'m Operand, b: &'m Operand, dest: &'m Name) -> LResult<()> {
        let x = self.float_operand(a)?;
        let y = self.float_operand(b)?;
        let v = self.b.fbinary(op, x, y);
        self.define(dest, v);
        Ok(())
    }

    pub(super) fn float_unary(&mut self, op: FUnaryOp, a: &'m Operand, dest: &'m Name) -> LResult<()> {
        let x = self.float_operand(a)?;
        let v = self.b.funary(op, x);
        self.define(dest, v);
        Ok(())
    }

    pub(super) fn float_compare(
        &mut self,
        p: FPPredicate,
        a: &'m Operand,
        b: &'m Operand,
        dest: &'m Name,
    ) -> LResult<()> {
        let x = self.float_operand(a)?;
        let y = self.float_operand(b)?;
        let v = self.b.fcmp(float_cc(p), x, y);
        self.define(dest, v);
        Ok(())
    }

    /// A conversion with a floating-point side. Integers of odd widths (an `i1` or `i24`
    /// container) go through `i64`, extended as the conversion's signedness says, first.
    pub(super) fn float_cast(&mut self, op: FCastOp, operand: &'m Operand, to: &LType, dest: &'m Name) -> LResult<()> {
        let to_ty = ir_type(to)?;
        let x = self.operand(operand)?;
        let v = match op {
            FCastOp::FromSi | FCastOp::FromUi => {
                let bits = self.bits_of(operand)?;
                let widen = if op == FCastOp::FromSi { CastOp::Sext } else { CastOp::Zext };
                let x = if container(bits).is_some_and(|t| t.bits() == bits) {
                    x
                } else {
                    self.int_cast(x, bits, 64, widen)
                };
                self.b.fcast(op, x, to_ty)
            }
            FCastOp::ToSi | FCastOp::ToUi => {
                let bits = int_bits(to).ok_or_else(|| Unsup::msg(format!("{} to {to}", op.name())))?;
                if to_ty.bits() != bits {
                    return Err(Unsup::msg(format!("{} to a {bits}-bit integer", op.name())));
                }
                self.b.fcast(op, x, to_ty)
            }
            _ => self.b.fcast(op, x, to_ty),
        };
        self.define(dest, v);
        Ok(())
    }

    /// The value of a floating-point intrinsic call; `None` when `name` is not one of them.
    pub(super) fn float_intrinsic(&mut self, name: &str, c: &'m Call) -> LResult<Option<crate::ir::Value>> {
        let arg = |i: usize| intrinsic_arg(name, c, i);
        if let Some(&(_, op)) = UNARY.iter().find(|(p, _)| name.starts_with(p)) {
            let x = self.float_operand(arg(0)?)?;
            return Ok(Some(self.b.funary(op, x)));
        }
        if let Some(&(_, op)) = BINARY.iter().find(|(p, _)| name.starts_with(p)) {
            let x = self.float_operand(arg(0)?)?;
            let y = self.float_operand(arg(1)?)?;
            if let Some(f) = self.libm_min_max(name, op) {
                return Ok(self.b.call(f, &[x, y], Some(Type::F80)).1);
            }
            return Ok(Some(self.b.fbinary(op, x, y)));
        }
        let fused = name.starts_with("llvm.fma.");
        if fused || name.starts_with("llvm.fmuladd.") {
            let x = self.float_operand(arg(0)?)?;
            let y = self.float_operand(arg(1)?)?;
            let z = self.float_operand(arg(2)?)?;
            if fused {
                return Ok(Some(self.b.fma(x, y, z)));
            }
            let product = self.b.fbinary(FloatOp::Mul, x, y);
            return Ok(Some(self.b.fbinary(FloatOp::Add, product, z)));
        }
        Ok(None)
    }

    /// The C library's `fminl`/`fmaxl` for `llvm.minnum.f80`/`maxnum.f80`, when the module has
    /// a C library linked as code (`--libc musl`): the native x86-64 build calls them (there is
    /// no x87 instruction), and musl's rules for NaNs and signed zeros differ from glibc's,
    /// which the intrinsic's own semantics follow.
    fn libm_min_max(&mut self, name: &str, op: FloatOp) -> Option<Func> {
        let libm = match op {
            FloatOp::Minnum if name.ends_with(".f80") => "fminl",
            FloatOp::Maxnum if name.ends_with(".f80") => "fmaxl",
            _ => return None,
        };
        self.cx.llvm.functions.iter().any(|f| f.name == libm).then(|| self.cx.func(libm)).flatten()
    }

    /// `bitcast x86_fp80 %x to i80`: remembered for [`FnLower::x87_sign_test`], no code.
    pub(super) fn x87_to_bits(&mut self, operand: &'m Operand, dest: &'m Name) -> LResult<bool> {
        let from = self.cx.llvm.types.type_of(operand);
        if !matches!(from.as_ref(), LType::FPType(llvm_ir::types::FPType::X86_FP80)) {
            return Ok(false);
        }
        let x = self.float_operand(operand)?;
        self.x87_bits.insert(dest, x);
        Ok(true)
    }

    /// `icmp slt (bitcast x86_fp80 %x to i80), 0` (and `sgt .., -1`), clang's
    /// `__builtin_signbit` of a `long double`: the sign bit as `copysign(1, x) < 0`, which is
    /// true for -0.0 and negative NaNs as the bit is. `None` if `i` is not that pattern.
    pub(super) fn x87_sign_test(&mut self, i: &'m llvm_ir::instruction::ICmp) -> Option<crate::ir::Value> {
        let Operand::LocalOperand { name, .. } = &i.operand0 else { return None };
        let &x = self.x87_bits.get(name)?;
        let negated = match (i.predicate, i.operand1.as_constant()) {
            (llvm_ir::IntPredicate::SLT, Some(llvm_ir::Constant::Int { value: 0, .. })) => false,
            (llvm_ir::IntPredicate::SGT, Some(llvm_ir::Constant::Int { bits: 80, value })) if *value == u64::MAX => {
                true
            }
            _ => return None,
        };
        let one = self.b.fconst(Type::F80, 0x3FFF_8000_0000_0000_0000);
        let zero = self.b.fconst(Type::F80, 0);
        let signed_one = self.b.fbinary(FloatOp::Copysign, one, x);
        let cc = if negated { FloatCC::Ogt } else { FloatCC::Olt };
        Some(self.b.fcmp(cc, signed_one, zero))
    }

    /// The floating-point type of the stack object `addr` names, if it is an `alloca` of a
    /// `float`, `double` or `long double` or of an array of them (what `make_symbolic`
    /// records, so that tests can show the object's values).
    pub(super) fn float_object(&self, addr: &Operand) -> Option<Type> {
        let mut addr = addr;
        // Through the GEPs that decay an array to its first element's address.
        let mut ty = loop {
            let Operand::LocalOperand { name, .. } = addr else { return None };
            let def =
                self.f.basic_blocks.iter().flat_map(|bb| &bb.instrs).find(|i| i.try_get_result() == Some(name))?;
            match def {
                llvm_ir::Instruction::Alloca(a) => break a.allocated_type.as_ref(),
                llvm_ir::Instruction::GetElementPtr(g) => addr = &g.address,
                _ => return None,
            }
        };
        while let LType::ArrayType { element_type, .. } = ty {
            ty = element_type.as_ref();
        }
        ir_type(ty).ok().filter(|t| t.is_float())
    }

    /// An operand that must be a floating-point value.
    fn float_operand(&mut self, op: &'m Operand) -> LResult<crate::ir::Value> {
        let v = self.operand(op)?;
        let ty: Type = self.b.body().value_type(v);
        if !ty.is_float() {
            return Err(Unsup::msg(format!("floating-point operation on {ty}")));
        }
        Ok(v)
    }
}
