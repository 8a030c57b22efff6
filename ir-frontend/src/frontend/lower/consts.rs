//! Constant operands of instructions. Integers, floats (`x86_fp80` ones through the marker
//! expression of [`x87_marker_bits`]), `null`, `undef`/`poison` (as 0) and the
//! addresses of globals and functions are IR constants; constant expressions (a GEP into a
//! global, `ptrtoint`, arithmetic on those) are materialised as instructions at the use, with
//! constant GEP offsets from [`LlvmInfo`](crate::frontend::llvm_info::LlvmInfo), since
//! `llvm-ir` does not keep their source element type.

use super::function::FnLower;
use super::globals::global_name;
use super::inst::int_cc;
use super::types::{category, ir_type, LResult, Unsup};
use super::widths::int_bits;
use crate::frontend::llvm_info::{gep_key, x87_marker_bits, GepOffset};
use crate::ir::{BinaryOp, CastOp, Type, Value, PTR};
use llvm_ir::constant::Float;
use llvm_ir::{Constant, ConstantRef, Name, Type as LType};

impl<'a, 'm> FnLower<'a, 'm> {
    /// The IR value of a constant, of the IR type of its LLVM type.
    pub(super) fn constant(&mut self, c: &'m Constant) -> LResult<Value> {
        use Constant as C;
        match c {
            C::Int { bits, value } => {
                let ty = ir_type(&LType::IntegerType { bits: *bits })?;
                Ok(self.b.iconst(ty, *value))
            }
            C::Null(_) => Ok(self.b.iconst(PTR, 0)),
            C::Undef(t) | C::Poison(t) | C::AggregateZero(t) => {
                let ty = ir_type(t)?;
                Ok(self.b.iconst(ty, 0))
            }
            C::GlobalReference { name, .. } => self.address_of(name),
            C::GetElementPtr(g) => {
                let offset = match gep_key(c).and_then(|k| self.cx.info.const_gep_offset(&k)) {
                    Some(GepOffset::Known(o)) => o,
                    Some(GepOffset::Ambiguous) => {
                        return Err(Unsup::msg("constant getelementptr whose offset is ambiguous"))
                    }
                    None => return Err(Unsup::msg("constant getelementptr with an unknown offset")),
                };
                let base = self.constant(&g.address)?;
                if offset == 0 {
                    return Ok(base);
                }
                let k = self.b.iconst(PTR, offset as u64);
                Ok(self.b.binary(BinaryOp::Add, base, k))
            }
            C::BitCast(_) if x87_marker_bits(c).is_some() => {
                Ok(self.b.fconst(Type::F80, x87_marker_bits(c).expect("checked")))
            }
            C::BitCast(b) => self.same_width_const(&b.operand, &b.to_type),
            C::AddrSpaceCast(b) => self.same_width_const(&b.operand, &b.to_type),
            C::PtrToInt(p) => self.cast_const(&p.operand, &p.to_type, CastOp::Zext),
            C::IntToPtr(p) => self.cast_const(&p.operand, &p.to_type, CastOp::Zext),
            C::Trunc(t) => self.cast_const(&t.operand, &t.to_type, CastOp::Trunc),
            C::ZExt(t) => self.cast_const(&t.operand, &t.to_type, CastOp::Zext),
            C::SExt(t) => self.cast_const(&t.operand, &t.to_type, CastOp::Sext),
            C::Add(x) => self.binary_const(BinaryOp::Add, &x.operand0, &x.operand1),
            C::Sub(x) => self.binary_const(BinaryOp::Sub, &x.operand0, &x.operand1),
            C::Mul(x) => self.binary_const(BinaryOp::Mul, &x.operand0, &x.operand1),
            C::And(x) => self.binary_const(BinaryOp::And, &x.operand0, &x.operand1),
            C::Or(x) => self.binary_const(BinaryOp::Or, &x.operand0, &x.operand1),
            C::Xor(x) => self.binary_const(BinaryOp::Xor, &x.operand0, &x.operand1),
            C::Shl(x) => self.binary_const(BinaryOp::Shl, &x.operand0, &x.operand1),
            C::LShr(x) => self.binary_const(BinaryOp::LShr, &x.operand0, &x.operand1),
            C::AShr(x) => self.binary_const(BinaryOp::AShr, &x.operand0, &x.operand1),
            C::ICmp(i) => {
                let a = self.constant(&i.operand0)?;
                let b = self.constant(&i.operand1)?;
                let bits = self.const_bits(&i.operand0)?;
                Ok(self.int_icmp(int_cc(i.predicate), a, b, bits))
            }
            C::Select(s) => {
                let cond = self.constant(&s.condition)?;
                let a = self.constant(&s.true_value)?;
                let b = self.constant(&s.false_value)?;
                Ok(self.b.select(cond, a, b))
            }
            C::Float(Float::Single(x)) => Ok(self.b.fconst(Type::F32, u128::from(x.to_bits()))),
            C::Float(Float::Double(x)) => Ok(self.b.fconst(Type::F64, u128::from(x.to_bits()))),
            C::Float(other) => Err(Unsup::msg(format!("floating-point constant of type {other}"))),
            C::Struct { .. } | C::Array { .. } => Err(Unsup::Category("aggregate value".into())),
            C::Vector(_) | C::ExtractElement(_) | C::InsertElement(_) | C::ShuffleVector(_) => {
                Err(Unsup::Category("vector type".into()))
            }
            C::BlockAddress => Err(Unsup::msg("block address (computed goto)")),
            C::TokenNone => Err(Unsup::msg("token value")),
            other => Err(Unsup::msg(format!("constant expression {other}"))),
        }
    }

    /// The address of a global variable or function.
    fn address_of(&mut self, name: &Name) -> LResult<Value> {
        if let Some(g) = self.cx.global(name) {
            return Ok(self.b.global_addr(g));
        }
        if let Name::Name(s) = name {
            if let Some(f) = self.cx.func(s) {
                return Ok(self.b.func_addr(f));
            }
            if s.starts_with("llvm.") {
                return Err(Unsup::msg(format!("address of LLVM intrinsic {s}")));
            }
        }
        Err(Unsup::msg(format!("reference to @{}, which is not a global variable or function", global_name(name))))
    }

    fn same_width_const(&mut self, operand: &'m ConstantRef, to: &LType) -> LResult<Value> {
        let to = ir_type(to)?;
        let x = self.constant(operand)?;
        let from = self.b.body().value_type(x);
        if from == to {
            Ok(x)
        } else if from.bits() == to.bits() && from.is_float() != to.is_float() {
            Ok(self.b.fcast(crate::ir::FCastOp::Bitcast, x, to))
        } else {
            Err(Unsup::msg("bitcast between types of different widths"))
        }
    }

    fn cast_const(&mut self, operand: &'m ConstantRef, to: &LType, widen: CastOp) -> LResult<Value> {
        ir_type(to)?;
        let x = self.constant(operand)?;
        let from = self.const_bits(operand)?;
        let to = int_bits(to).ok_or_else(|| Unsup::Category(category(to)))?;
        Ok(self.int_cast(x, from, to, widen))
    }

    fn binary_const(&mut self, op: BinaryOp, a: &'m ConstantRef, b: &'m ConstantRef) -> LResult<Value> {
        let x = self.constant(a)?;
        let y = self.constant(b)?;
        let bits = self.const_bits(a)?;
        Ok(self.int_binary(op, x, y, bits))
    }

    fn const_bits(&self, c: &Constant) -> LResult<u32> {
        let ty = self.cx.llvm.types.type_of(c);
        int_bits(&ty).ok_or_else(|| Unsup::Category(category(&ty)))
    }
}
