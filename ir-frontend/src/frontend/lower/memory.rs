//! Memory instructions: `alloca` (constant-size, or `dyn_alloca` for VLAs), `load`/`store`
//! of integers, floats and pointers (atomic ones too: penumbra runs one thread), `atomicrmw` and
//! `cmpxchg` as load-compute-store, and `getelementptr` lowered to `i64` offset arithmetic with the
//! element sizes and struct field offsets of the module's data layout (from LLVM itself).
//! Indices are sign-extended (or truncated) to 64 bits as LLVM specifies; constant indices
//! fold into one constant offset added last.

use super::aggregates::is_aggregate;
use super::function::FnLower;
use super::types::{ir_type, struct_fields, LResult, Unsup};
use super::widths::int_bits;
use crate::ir::{BinaryOp, CastOp, IntCC, Type, Value, PTR};
use llvm_ir::instruction::{Alloca, AtomicRMW, CmpXchg, GetElementPtr, Load, RMWBinOp, Store};
use llvm_ir::{Constant, Operand, Type as LType};

impl<'a, 'm> FnLower<'a, 'm> {
    pub(super) fn alloca(&mut self, a: &'m Alloca) -> LResult<()> {
        let layout = self
            .cx
            .info
            .layout(&a.allocated_type)
            .ok_or_else(|| Unsup::msg(format!("alloca of unsized type {}", a.allocated_type)))?;
        let align = if a.alignment != 0 { a.alignment } else { layout.align };
        let v = match a.num_elements.as_constant() {
            Some(Constant::Int { value, bits }) if *bits <= 64 => {
                let size = layout
                    .size
                    .checked_mul(*value)
                    .and_then(|s| u32::try_from(s).ok())
                    .ok_or_else(|| Unsup::msg("stack object larger than 4 GiB"))?;
                self.b.alloca(size, align)
            }
            _ => {
                let n = self.operand(&a.num_elements)?;
                let n = self.resize(n, Type::I64, CastOp::Zext);
                let bytes = self.scale(n, layout.size);
                self.b.dyn_alloca(bytes)
            }
        };
        self.define(&a.dest, v);
        Ok(())
    }

    pub(super) fn load(&mut self, l: &'m Load) -> LResult<()> {
        if is_aggregate(&l.loaded_ty) {
            return self.load_aggregate(&l.loaded_ty, &l.address, &l.dest);
        }
        let ty = ir_type(&l.loaded_ty)?;
        let addr = self.operand(&l.address)?;
        let v = match int_bits(&l.loaded_ty) {
            Some(bits) => self.load_int(addr, bits),
            None if ty.is_float() => self.b.load(ty, addr),
            None => return Err(Unsup::msg(format!("load of {}", l.loaded_ty))),
        };
        self.define(&l.dest, v);
        Ok(())
    }

    pub(super) fn store(&mut self, s: &'m Store) -> LResult<()> {
        if is_aggregate(&self.cx.llvm.types.type_of(&s.value)) {
            return self.store_aggregate(&s.value, &s.address);
        }
        let value = self.operand(&s.value)?;
        let addr = self.operand(&s.address)?;
        if self.b.body().value_type(value).is_float() {
            self.b.store(addr, value);
            return Ok(());
        }
        let bits = self.bits_of(&s.value)?;
        self.store_int(addr, value, bits);
        Ok(())
    }

    /// `atomicrmw op [addr], v`: penumbra runs one thread, so it is a load, the operation and
    /// a store; the result is the old value.
    pub(super) fn atomic_rmw(&mut self, a: &'m AtomicRMW) -> LResult<()> {
        let addr = self.operand(&a.address)?;
        let v = self.operand(&a.value)?;
        let ty = self.b.body().value_type(v);
        let old = self.b.load(ty, addr);
        let new = match a.operation {
            RMWBinOp::Xchg => v,
            RMWBinOp::Add => self.b.binary(BinaryOp::Add, old, v),
            RMWBinOp::Sub => self.b.binary(BinaryOp::Sub, old, v),
            RMWBinOp::And => self.b.binary(BinaryOp::And, old, v),
            RMWBinOp::Or => self.b.binary(BinaryOp::Or, old, v),
            RMWBinOp::Xor => self.b.binary(BinaryOp::Xor, old, v),
            RMWBinOp::Nand => {
                let and = self.b.binary(BinaryOp::And, old, v);
                let ones = self.b.iconst(ty, u64::MAX);
                self.b.binary(BinaryOp::Xor, and, ones)
            }
            RMWBinOp::Max | RMWBinOp::Min | RMWBinOp::UMax | RMWBinOp::UMin => {
                let cc = match a.operation {
                    RMWBinOp::Max => IntCC::Sgt,
                    RMWBinOp::Min => IntCC::Slt,
                    RMWBinOp::UMax => IntCC::Ugt,
                    _ => IntCC::Ult,
                };
                let keep = self.b.icmp(cc, old, v);
                self.b.select(keep, old, v)
            }
            RMWBinOp::FAdd | RMWBinOp::FSub | RMWBinOp::FMax | RMWBinOp::FMin => {
                return Err(Unsup::Category("floating point".into()))
            }
        };
        self.b.store(addr, new);
        self.define(&a.dest, old);
        Ok(())
    }

    /// `cmpxchg [addr], expected, replacement`: `{ old, old == expected }`, storing the
    /// replacement when equal (one thread: no contention, so a weak exchange never fails
    /// spuriously).
    pub(super) fn cmpxchg(&mut self, c: &'m CmpXchg) -> LResult<()> {
        let addr = self.operand(&c.address)?;
        let expected = self.operand(&c.expected)?;
        let replacement = self.operand(&c.replacement)?;
        let ty = self.b.body().value_type(expected);
        let old = self.b.load(ty, addr);
        let equal = self.b.icmp(IntCC::Eq, old, expected);
        let stored = self.b.select(equal, replacement, old);
        self.b.store(addr, stored);
        self.define_aggregate(&c.dest, vec![old, equal]);
        Ok(())
    }

    pub(super) fn gep(&mut self, g: &'m GetElementPtr) -> LResult<()> {
        let mut addr = self.operand(&g.address)?;
        let llvm = self.cx.llvm;
        let types = &llvm.types;
        let mut ty: &'m LType = &g.source_element_type;
        let mut constant: i64 = 0;
        for (i, index) in g.indices.iter().enumerate() {
            let stride = if i == 0 {
                self.size_of(ty)?
            } else if let Some(fields) = struct_fields(types, ty) {
                // Struct field indices are always constants.
                let field = const_index(index)
                    .and_then(|f| u32::try_from(f).ok())
                    .ok_or_else(|| Unsup::msg("getelementptr with a non-constant struct field index"))?;
                let offset = self
                    .cx
                    .info
                    .field_offset(ty, field)
                    .ok_or_else(|| Unsup::msg(format!("getelementptr into struct type {ty} without a layout")))?;
                constant = constant.wrapping_add(offset as i64);
                ty = fields.get(field as usize).ok_or_else(|| Unsup::msg("getelementptr field index out of range"))?;
                continue;
            } else {
                match ty {
                    LType::ArrayType { element_type, .. } => {
                        ty = element_type;
                        self.size_of(ty)?
                    }
                    LType::VectorType { .. } => return Err(Unsup::Category("vector type".into())),
                    other => return Err(Unsup::msg(format!("getelementptr into type {other}"))),
                }
            };
            match const_index(index) {
                Some(k) => constant = constant.wrapping_add(k.wrapping_mul(stride as i64)),
                None => {
                    let x = self.operand(index)?;
                    let bits = self.bits_of(index)?;
                    let x = self.int_cast(x, bits, 64, CastOp::Sext);
                    let term = self.scale(x, stride);
                    addr = self.b.binary(BinaryOp::Add, addr, term);
                }
            }
        }
        if constant != 0 {
            let k = self.b.iconst(PTR, constant as u64);
            addr = self.b.binary(BinaryOp::Add, addr, k);
        }
        self.define(&g.dest, addr);
        Ok(())
    }

    /// `x * size` on i64, without the multiplication when `size` is 1.
    pub(super) fn scale(&mut self, x: Value, size: u64) -> Value {
        if size == 1 {
            return x;
        }
        let k = self.b.iconst(Type::I64, size);
        self.b.binary(BinaryOp::Mul, x, k)
    }

    fn size_of(&self, ty: &LType) -> LResult<u64> {
        self.cx
            .info
            .layout(ty)
            .map(|l| l.size)
            .ok_or_else(|| Unsup::msg(format!("getelementptr over unsized type {ty}")))
    }
}

/// A constant integer index (of at most 64 bits), sign-extended.
fn const_index(op: &Operand) -> Option<i64> {
    match op.as_constant()? {
        Constant::Int { bits, value } if *bits <= 64 => {
            let shift = 64 - bits;
            Some(((*value << shift) as i64) >> shift)
        }
        _ => None,
    }
}
