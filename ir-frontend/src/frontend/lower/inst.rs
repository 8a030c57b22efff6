//! Non-terminator instructions: integer arithmetic, comparisons, casts, `select`, `freeze`,
//! and the dispatch to floating point ([`super::float`]), memory ([`super::memory`]) and
//! calls ([`super::calls`]). Vectors and `va_arg` are unsupported.

use super::aggregates::is_aggregate;
use super::function::FnLower;
use super::types::{ir_type, LResult, Unsup};
use super::widths::int_bits;
use crate::ir::{BinaryOp, CastOp, FCastOp, FUnaryOp, FloatOp, IntCC, Type, Value, ValueDef};
use llvm_ir::{Instruction, IntPredicate, Operand, Type as LType};

pub(super) fn int_cc(p: IntPredicate) -> IntCC {
    match p {
        IntPredicate::EQ => IntCC::Eq,
        IntPredicate::NE => IntCC::Ne,
        IntPredicate::UGT => IntCC::Ugt,
        IntPredicate::UGE => IntCC::Uge,
        IntPredicate::ULT => IntCC::Ult,
        IntPredicate::ULE => IntCC::Ule,
        IntPredicate::SGT => IntCC::Sgt,
        IntPredicate::SGE => IntCC::Sge,
        IntPredicate::SLT => IntCC::Slt,
        IntPredicate::SLE => IntCC::Sle,
    }
}

impl<'a, 'm> FnLower<'a, 'm> {
    /// Lowers one instruction; `Err` means it is unsupported (the caller emits that).
    pub(super) fn lower_inst(&mut self, inst: &'m Instruction) -> LResult<()> {
        use Instruction as I;
        match inst {
            I::Add(i) => self.binary(BinaryOp::Add, &i.operand0, &i.operand1, &i.dest),
            I::Sub(i) => self.binary(BinaryOp::Sub, &i.operand0, &i.operand1, &i.dest),
            I::Mul(i) => self.binary(BinaryOp::Mul, &i.operand0, &i.operand1, &i.dest),
            I::UDiv(i) => self.binary(BinaryOp::UDiv, &i.operand0, &i.operand1, &i.dest),
            I::SDiv(i) => self.binary(BinaryOp::SDiv, &i.operand0, &i.operand1, &i.dest),
            I::URem(i) => self.binary(BinaryOp::URem, &i.operand0, &i.operand1, &i.dest),
            I::SRem(i) => self.binary(BinaryOp::SRem, &i.operand0, &i.operand1, &i.dest),
            I::And(i) => self.binary(BinaryOp::And, &i.operand0, &i.operand1, &i.dest),
            I::Or(i) => self.binary(BinaryOp::Or, &i.operand0, &i.operand1, &i.dest),
            I::Xor(i) => self.binary(BinaryOp::Xor, &i.operand0, &i.operand1, &i.dest),
            I::Shl(i) => self.binary(BinaryOp::Shl, &i.operand0, &i.operand1, &i.dest),
            I::LShr(i) => self.binary(BinaryOp::LShr, &i.operand0, &i.operand1, &i.dest),
            I::AShr(i) => self.binary(BinaryOp::AShr, &i.operand0, &i.operand1, &i.dest),
            I::ICmp(i) => {
                if let Some(v) = self.x87_sign_test(i) {
                    self.define(&i.dest, v);
                    return Ok(());
                }
                let a = self.operand(&i.operand0)?;
                let b = self.operand(&i.operand1)?;
                let bits = self.bits_of(&i.operand0)?;
                let v = self.int_icmp(int_cc(i.predicate), a, b, bits);
                self.define(&i.dest, v);
                Ok(())
            }
            I::Trunc(c) => self.cast(&c.operand, &c.to_type, &c.dest, CastOp::Trunc),
            I::ZExt(c) => self.cast(&c.operand, &c.to_type, &c.dest, CastOp::Zext),
            I::SExt(c) => self.cast(&c.operand, &c.to_type, &c.dest, CastOp::Sext),
            // Pointers are i64: ptrtoint/inttoptr are width changes (inttoptr zero-extends).
            I::PtrToInt(c) => self.cast(&c.operand, &c.to_type, &c.dest, CastOp::Zext),
            I::IntToPtr(c) => self.cast(&c.operand, &c.to_type, &c.dest, CastOp::Zext),
            I::BitCast(c) if self.x87_to_bits(&c.operand, &c.dest)? => Ok(()),
            I::BitCast(c) => self.same_width(&c.operand, &c.to_type, &c.dest),
            I::AddrSpaceCast(c) => self.same_width(&c.operand, &c.to_type, &c.dest),
            I::Select(s) if is_aggregate(&self.cx.llvm.types.type_of(&s.true_value)) => {
                self.select_aggregate(&s.condition, &s.true_value, &s.false_value, &s.dest)
            }
            I::Select(s) => {
                if self.fold_select(s)? {
                    return Ok(());
                }
                let cond = self.operand(&s.condition)?;
                let a = self.operand(&s.true_value)?;
                let b = self.operand(&s.false_value)?;
                let v = self.b.select(cond, a, b);
                self.define(&s.dest, v);
                Ok(())
            }
            I::Freeze(f) => {
                let v = self.operand(&f.operand)?;
                self.define(&f.dest, v);
                Ok(())
            }
            I::Alloca(a) => self.alloca(a),
            I::Load(l) => self.load(l),
            I::Store(s) => self.store(s),
            I::GetElementPtr(g) => self.gep(g),
            // Single-threaded programs: a fence orders nothing.
            I::Fence(_) => Ok(()),
            I::Call(c) => self.call(c),
            I::FAdd(i) => self.float_binary(FloatOp::Add, &i.operand0, &i.operand1, &i.dest),
            I::FSub(i) => self.float_binary(FloatOp::Sub, &i.operand0, &i.operand1, &i.dest),
            I::FMul(i) => self.float_binary(FloatOp::Mul, &i.operand0, &i.operand1, &i.dest),
            I::FDiv(i) => self.float_binary(FloatOp::Div, &i.operand0, &i.operand1, &i.dest),
            I::FRem(i) => self.float_binary(FloatOp::Rem, &i.operand0, &i.operand1, &i.dest),
            I::FNeg(i) => self.float_unary(FUnaryOp::Neg, &i.operand, &i.dest),
            I::FCmp(i) => self.float_compare(i.predicate, &i.operand0, &i.operand1, &i.dest),
            I::FPTrunc(c) => self.float_cast(FCastOp::Trunc, &c.operand, &c.to_type, &c.dest),
            I::FPExt(c) => self.float_cast(FCastOp::Ext, &c.operand, &c.to_type, &c.dest),
            I::FPToUI(c) => self.float_cast(FCastOp::ToUi, &c.operand, &c.to_type, &c.dest),
            I::FPToSI(c) => self.float_cast(FCastOp::ToSi, &c.operand, &c.to_type, &c.dest),
            I::UIToFP(c) => self.float_cast(FCastOp::FromUi, &c.operand, &c.to_type, &c.dest),
            I::SIToFP(c) => self.float_cast(FCastOp::FromSi, &c.operand, &c.to_type, &c.dest),
            I::ExtractElement(_) | I::InsertElement(_) | I::ShuffleVector(_) => {
                Err(Unsup::Category("vector type".into()))
            }
            I::ExtractValue(e) => self.extract_value(e),
            I::InsertValue(i) => self.insert_value(i),
            I::AtomicRMW(a) => self.atomic_rmw(a),
            I::CmpXchg(c) => self.cmpxchg(c),
            I::VAArg(_) => Err(Unsup::msg("va_arg in a function with variable arguments")),
            I::LandingPad(_) | I::CatchPad(_) | I::CleanupPad(_) => Err(Unsup::msg("exception handling")),
            I::Phi(_) => Ok(()), // block parameters, lowered with the block
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &'m Operand, b: &'m Operand, dest: &'m llvm_ir::Name) -> LResult<()> {
        let x = self.operand(a)?;
        let y = self.operand(b)?;
        let bits = self.bits_of(a)?;
        let v = self.int_binary(op, x, y, bits);
        self.define(dest, v);
        Ok(())
    }

    /// The LLVM bit width of an integer or pointer operand.
    pub(super) fn bits_of(&self, op: &Operand) -> LResult<u32> {
        let ty = self.cx.llvm.types.type_of(op);
        int_bits(&ty).ok_or_else(|| Unsup::Category(super::types::category(&ty)))
    }

    /// `trunc`, `zext`, `sext`, and pointer/integer conversions (`widen` is used when the
    /// target is wider, `trunc` when narrower, nothing when the IR types agree).
    fn cast(&mut self, operand: &'m Operand, to: &LType, dest: &'m llvm_ir::Name, widen: CastOp) -> LResult<()> {
        ir_type(to)?;
        let x = self.operand(operand)?;
        let from_bits = self.bits_of(operand)?;
        let to_bits = int_bits(to).ok_or_else(|| Unsup::Category(super::types::category(to)))?;
        let v = self.int_cast(x, from_bits, to_bits, widen);
        self.define(dest, v);
        Ok(())
    }

    /// Converts `x` to `to`: `widen` (zext or sext) when wider, trunc when narrower.
    /// Casts of constants fold to constants.
    pub(super) fn resize(&mut self, x: Value, to: Type, widen: CastOp) -> Value {
        let from = self.b.body().value_type(x);
        if let ValueDef::Const(c) = self.b.body().value_def(x) {
            let value = match widen {
                CastOp::Sext if to.bits() > from.bits() => from.sign_extend(c) as u64,
                _ => c,
            };
            return self.b.iconst(to, value);
        }
        if to.bits() > from.bits() {
            self.b.cast(widen, x, to)
        } else if to.bits() < from.bits() {
            self.b.cast(CastOp::Trunc, x, to)
        } else {
            x
        }
    }

    /// `bitcast`/`addrspacecast` between types the IR sees as the same: identity; between a
    /// float and an integer of its width, a reinterpretation of the bits.
    fn same_width(&mut self, operand: &'m Operand, to: &LType, dest: &'m llvm_ir::Name) -> LResult<()> {
        let to = ir_type(to)?;
        let x = self.operand(operand)?;
        let from = self.b.body().value_type(x);
        let v = if from == to {
            x
        } else if from.bits() == to.bits() && from.is_float() != to.is_float() {
            self.b.fcast(FCastOp::Bitcast, x, to)
        } else {
            return Err(Unsup::msg("bitcast between types of different widths"));
        };
        self.define(dest, v);
        Ok(())
    }
}
