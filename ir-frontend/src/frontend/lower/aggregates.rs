//! First-class aggregate values (LLVM struct and array values), which C code produces for
//! small structs returned in registers (`{ i64, i32 } @make(...)`) and for the
//! `llvm.*.with.overflow` intrinsics (`{ i32, i1 }`).
//!
//! The IR has only scalar values, so an aggregate value is held as its list of scalar
//! *leaves* (every integer, float or pointer field, flattened in order, each with its byte offset in
//! memory). `load`/`store` of an aggregate access each leaf, `extractvalue`/`insertvalue`
//! pick or replace a range of leaves, `select` and phis work leaf by leaf.
//!
//! Functions that return an aggregate get a hidden first parameter, the address of a buffer
//! the callee stores the leaves into, and return nothing; each call site passes a buffer
//! allocated in its function's entry block and reads the leaves back after the call. This
//! applies to declared functions too (an interpreter modelling, say, `ldiv` sees the buffer
//! first). Aggregates with vector, half or quadruple float leaves, or more than
//! [`MAX_LEAVES`] leaves, stay unsupported.

use super::function::FnLower;
use super::types::{ir_type, struct_fields, LResult, Unsup};
use super::ModuleCx;
use crate::ir::{BinaryOp, Type, Value, PTR};
use llvm_ir::instruction::{ExtractValue, InsertValue};
use llvm_ir::{Constant, Name, Operand, Type as LType, TypeRef};

/// Aggregates with more scalar fields than this are not split into leaves.
pub(super) const MAX_LEAVES: usize = 64;

/// A scalar field of an aggregate type: its byte offset and IR type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Leaf {
    pub offset: u64,
    pub ty: Type,
}

/// Whether a type is an aggregate (struct or array).
pub(super) fn is_aggregate(ty: &LType) -> bool {
    matches!(ty, LType::StructType { .. } | LType::NamedStructType { .. } | LType::ArrayType { .. })
}

impl ModuleCx<'_> {
    /// The leaves of an aggregate type made of integers, floats and pointers only; `None` otherwise.
    pub(super) fn leaves(&self, ty: &LType) -> Option<Vec<Leaf>> {
        if !is_aggregate(ty) {
            return None;
        }
        let mut out = Vec::new();
        self.collect_leaves(ty, 0, &mut out)?;
        Some(out)
    }

    fn collect_leaves(&self, ty: &LType, base: u64, out: &mut Vec<Leaf>) -> Option<()> {
        match ty {
            // Odd-width integers (bit-field storage) are left out: their accesses are
            // assembled from pieces (see `widths`), which leaves do not do.
            LType::IntegerType { bits } if super::widths::is_odd(*bits) => return None,
            LType::IntegerType { .. } | LType::PointerType { .. } | LType::FPType(_) => {
                if out.len() >= MAX_LEAVES {
                    return None;
                }
                out.push(Leaf { offset: base, ty: ir_type(ty).ok()? });
            }
            LType::ArrayType { element_type, num_elements } => {
                let stride = self.info.layout(element_type)?.size;
                for i in 0..*num_elements as u64 {
                    self.collect_leaves(element_type, base + i * stride, out)?;
                }
            }
            _ => {
                let fields = struct_fields(&self.llvm.types, ty)?;
                for (i, field) in fields.iter().enumerate() {
                    let offset = self.info.field_offset(ty, i as u32)?;
                    self.collect_leaves(field, base + offset, out)?;
                }
            }
        }
        Some(())
    }

    /// The number of leaves of a type: 1 for a scalar.
    fn leaf_count(&self, ty: &LType) -> Option<usize> {
        if is_aggregate(ty) {
            self.leaves(ty).map(|l| l.len())
        } else {
            Some(1)
        }
    }

    /// Where the value at `indices` lies among the leaves of `ty`: first leaf, number of
    /// leaves, and its type.
    fn leaf_range(&self, ty: &TypeRef, indices: &[u32]) -> Option<(usize, usize, TypeRef)> {
        let mut ty = ty.clone();
        let mut start = 0;
        for &index in indices {
            let index = index as usize;
            let next = match ty.as_ref() {
                LType::ArrayType { element_type, .. } => {
                    start += index * self.leaf_count(element_type)?;
                    element_type.clone()
                }
                other => {
                    let fields = struct_fields(&self.llvm.types, other)?;
                    for f in fields.get(..index)? {
                        start += self.leaf_count(f)?;
                    }
                    fields.get(index)?.clone()
                }
            };
            ty = next;
        }
        Some((start, self.leaf_count(&ty)?, ty))
    }
}

impl<'a, 'm> FnLower<'a, 'm> {
    /// The leaves of an aggregate type, or why it is unsupported.
    pub(super) fn leaves_of(&self, ty: &LType) -> LResult<Vec<Leaf>> {
        self.cx.leaves(ty).ok_or_else(|| Unsup::Category("aggregate value".into()))
    }

    /// The leaf values of an aggregate operand.
    pub(super) fn aggregate(&mut self, op: &'m Operand) -> LResult<Vec<Value>> {
        match op {
            Operand::LocalOperand { name, ty } => {
                let leaves = self.leaves_of(ty)?;
                let found = self.aggregates.get(name).filter(|vs| {
                    vs.len() == leaves.len()
                        && vs.iter().zip(&leaves).all(|(&v, l)| self.b.body().value_type(v) == l.ty)
                });
                match found {
                    Some(vs) => Ok(vs.clone()),
                    None => {
                        self.note_missing(name);
                        Ok(self.zero_leaves(&leaves))
                    }
                }
            }
            Operand::ConstantOperand(c) => {
                let ty = self.cx.llvm.types.type_of(c);
                let leaves = self.leaves_of(&ty)?;
                let mut out = Vec::with_capacity(leaves.len());
                self.constant_leaves(c, &mut out)?;
                if out.len() != leaves.len() {
                    return Err(Unsup::msg("aggregate constant of an unexpected shape"));
                }
                Ok(out)
            }
            Operand::MetadataOperand => Err(Unsup::msg("metadata operand")),
        }
    }

    fn constant_leaves(&mut self, c: &'m Constant, out: &mut Vec<Value>) -> LResult<()> {
        match c {
            Constant::Struct { values, .. } => {
                for v in values {
                    self.constant_leaves(v, out)?;
                }
            }
            Constant::Array { elements, .. } => {
                for e in elements {
                    self.constant_leaves(e, out)?;
                }
            }
            Constant::AggregateZero(t) | Constant::Undef(t) | Constant::Poison(t) if is_aggregate(t) => {
                let leaves = self.leaves_of(t)?;
                out.extend(self.zero_leaves(&leaves));
            }
            scalar => out.push(self.constant(scalar)?),
        }
        Ok(())
    }

    pub(super) fn zero_leaves(&mut self, leaves: &[Leaf]) -> Vec<Value> {
        leaves.iter().map(|l| self.b.iconst(l.ty, 0)).collect()
    }

    pub(super) fn define_aggregate(&mut self, name: &'m Name, leaves: Vec<Value>) {
        self.aggregates.insert(name, leaves);
    }

    /// `addr + offset` (no instruction for offset 0).
    pub(super) fn offset_addr(&mut self, addr: Value, offset: u64) -> Value {
        if offset == 0 {
            return addr;
        }
        let k = self.b.iconst(PTR, offset);
        self.b.binary(BinaryOp::Add, addr, k)
    }

    /// Loads each leaf of an aggregate of type `ty` at `addr`.
    pub(super) fn load_leaves(&mut self, leaves: &[Leaf], addr: Value) -> Vec<Value> {
        leaves
            .iter()
            .map(|l| {
                let a = self.offset_addr(addr, l.offset);
                self.b.load(l.ty, a)
            })
            .collect()
    }

    /// Stores each leaf at `addr`.
    pub(super) fn store_leaves(&mut self, leaves: &[Leaf], values: &[Value], addr: Value) {
        for (l, &v) in leaves.iter().zip(values) {
            let a = self.offset_addr(addr, l.offset);
            self.b.store(a, v);
        }
    }

    pub(super) fn load_aggregate(&mut self, ty: &LType, addr: &'m Operand, dest: &'m Name) -> LResult<()> {
        let leaves = self.leaves_of(ty)?;
        let addr = self.operand(addr)?;
        let values = self.load_leaves(&leaves, addr);
        self.define_aggregate(dest, values);
        Ok(())
    }

    pub(super) fn store_aggregate(&mut self, value: &'m Operand, addr: &'m Operand) -> LResult<()> {
        let ty = self.cx.llvm.types.type_of(value);
        let leaves = self.leaves_of(&ty)?;
        let values = self.aggregate(value)?;
        let addr = self.operand(addr)?;
        self.store_leaves(&leaves, &values, addr);
        Ok(())
    }

    pub(super) fn extract_value(&mut self, e: &'m ExtractValue) -> LResult<()> {
        let ty = self.cx.llvm.types.type_of(&e.aggregate);
        let (start, count, elem) =
            self.cx.leaf_range(&ty, &e.indices).ok_or_else(|| Unsup::Category("aggregate value".into()))?;
        let values = self.aggregate(&e.aggregate)?;
        let part = values.get(start..start + count).ok_or_else(|| Unsup::msg("extractvalue out of range"))?;
        if is_aggregate(&elem) {
            let part = part.to_vec();
            self.define_aggregate(&e.dest, part);
        } else {
            let v = *part.first().ok_or_else(|| Unsup::msg("extractvalue out of range"))?;
            self.define(&e.dest, v);
        }
        Ok(())
    }

    pub(super) fn insert_value(&mut self, i: &'m InsertValue) -> LResult<()> {
        let ty = self.cx.llvm.types.type_of(&i.aggregate);
        let (start, count, elem) =
            self.cx.leaf_range(&ty, &i.indices).ok_or_else(|| Unsup::Category("aggregate value".into()))?;
        let mut values = self.aggregate(&i.aggregate)?;
        let new = if is_aggregate(&elem) { self.aggregate(&i.element)? } else { vec![self.operand(&i.element)?] };
        if new.len() != count || start + count > values.len() {
            return Err(Unsup::msg("insertvalue of an unexpected shape"));
        }
        values[start..start + count].copy_from_slice(&new);
        self.define_aggregate(&i.dest, values);
        Ok(())
    }

    /// `select` of two aggregates, leaf by leaf.
    pub(super) fn select_aggregate(
        &mut self,
        cond: &'m Operand,
        a: &'m Operand,
        b: &'m Operand,
        dest: &'m Name,
    ) -> LResult<()> {
        let c = self.operand(cond)?;
        let xs = self.aggregate(a)?;
        let ys = self.aggregate(b)?;
        let vs = xs.iter().zip(&ys).map(|(&x, &y)| self.b.select(c, x, y)).collect();
        self.define_aggregate(dest, vs);
        Ok(())
    }
}
