//! Integers of widths other than 1, 8, 16, 32 and 64 bits (at most 64), which clang emits
//! for bit-fields (`load i24`) and `_BitInt(N)`.
//!
//! An LLVM `iN` lives in the smallest IR type that holds it (its *container*: `i24` in
//! `i32`), always zero-extended: the bits above `N` are 0. Operations whose result could
//! set them (add, sub, mul, shl, truncation, sign extension) mask them off; operations that
//! read the sign (ashr, sdiv, srem, signed comparisons, sext) first sign-extend the value
//! within its container. Memory accesses touch exactly the `ceil(N / 8)` bytes LLVM does,
//! assembled from 1-, 2- and 4-byte pieces. For the standard widths every helper here is the
//! plain IR operation.

use super::function::FnLower;
use super::types::container;
use crate::ir::{BinaryOp, CastOp, IntCC, Type, Value};
use llvm_ir::Type as LType;

/// The bit width of an integer or pointer type as LLVM sees it.
pub(super) fn int_bits(ty: &LType) -> Option<u32> {
    match ty {
        LType::IntegerType { bits } => Some(*bits),
        LType::PointerType { .. } => Some(64),
        _ => None,
    }
}

/// Whether an integer of `bits` bits lives in a wider container.
pub(super) fn is_odd(bits: u32) -> bool {
    Type::from_bits(bits).is_none()
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl<'a, 'm> FnLower<'a, 'm> {
    /// Clears the bits of `x` above `bits` (nothing for a standard width).
    fn clear_high(&mut self, x: Value, bits: u32) -> Value {
        if !is_odd(bits) {
            return x;
        }
        let ty = self.b.body().value_type(x);
        let k = self.b.iconst(ty, mask(bits));
        self.b.binary(BinaryOp::And, x, k)
    }

    /// Sign-extends an odd-width value to its whole container.
    fn sign_fill(&mut self, x: Value, bits: u32) -> Value {
        if !is_odd(bits) {
            return x;
        }
        let ty = self.b.body().value_type(x);
        let k = self.b.iconst(ty, u64::from(ty.bits() - bits));
        let up = self.b.binary(BinaryOp::Shl, x, k);
        self.b.binary(BinaryOp::AShr, up, k)
    }

    /// `op x, y` on `iN` values.
    pub(super) fn int_binary(&mut self, op: BinaryOp, x: Value, y: Value, bits: u32) -> Value {
        if !is_odd(bits) {
            return self.b.binary(op, x, y);
        }
        match op {
            BinaryOp::And | BinaryOp::Or | BinaryOp::Xor | BinaryOp::LShr | BinaryOp::UDiv | BinaryOp::URem => {
                self.b.binary(op, x, y)
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Shl => {
                let r = self.b.binary(op, x, y);
                self.clear_high(r, bits)
            }
            BinaryOp::AShr => {
                let sx = self.sign_fill(x, bits);
                let r = self.b.binary(op, sx, y);
                self.clear_high(r, bits)
            }
            BinaryOp::SDiv | BinaryOp::SRem => {
                let sx = self.sign_fill(x, bits);
                let sy = self.sign_fill(y, bits);
                let r = self.b.binary(op, sx, sy);
                self.clear_high(r, bits)
            }
        }
    }

    /// `icmp cc x, y` on `iN` values.
    pub(super) fn int_icmp(&mut self, cc: IntCC, x: Value, y: Value, bits: u32) -> Value {
        let signed = matches!(cc, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge);
        if signed && is_odd(bits) {
            let sx = self.sign_fill(x, bits);
            let sy = self.sign_fill(y, bits);
            return self.b.icmp(cc, sx, sy);
        }
        self.b.icmp(cc, x, y)
    }

    /// Converts an `i{from}` value to `i{to}`: `widen` (zext or sext) when `to` is wider,
    /// truncation otherwise.
    pub(super) fn int_cast(&mut self, x: Value, from: u32, to: u32, widen: CastOp) -> Value {
        let Some(to_ty) = container(to) else { return x };
        let x = if widen == CastOp::Sext && to > from { self.sign_fill(x, from) } else { x };
        let r = self.resize(x, to_ty, widen);
        // Truncation, and sign extension into an odd width, may leave bits above `to` set.
        if to < from || widen == CastOp::Sext {
            self.clear_high(r, to)
        } else {
            r
        }
    }

    /// Loads an `iN`: exactly its `ceil(N / 8)` bytes, little-endian.
    pub(super) fn load_int(&mut self, addr: Value, bits: u32) -> Value {
        let Some(ty) = container(bits) else { return addr };
        if !is_odd(bits) {
            return self.b.load(ty, addr);
        }
        let mut acc: Option<Value> = None;
        for (offset, piece) in pieces(bits.div_ceil(8)) {
            let a = self.offset_addr(addr, offset);
            let part = self.b.load(piece, a);
            let mut part = self.resize(part, ty, CastOp::Zext);
            if offset != 0 {
                let shift = self.b.iconst(ty, 8 * offset);
                part = self.b.binary(BinaryOp::Shl, part, shift);
            }
            acc = Some(match acc {
                None => part,
                Some(sum) => self.b.binary(BinaryOp::Or, sum, part),
            });
        }
        let value = acc.unwrap_or(addr);
        // Whole bytes were read: only a width that is not a multiple of 8 has bits to clear.
        if bits % 8 == 0 {
            value
        } else {
            self.clear_high(value, bits)
        }
    }

    /// Stores an `iN`: exactly its `ceil(N / 8)` bytes, little-endian.
    pub(super) fn store_int(&mut self, addr: Value, value: Value, bits: u32) {
        if !is_odd(bits) {
            self.b.store(addr, value);
            return;
        }
        let ty = self.b.body().value_type(value);
        for (offset, piece) in pieces(bits.div_ceil(8)) {
            let mut part = value;
            if offset != 0 {
                let shift = self.b.iconst(ty, 8 * offset);
                part = self.b.binary(BinaryOp::LShr, part, shift);
            }
            let part = self.resize(part, piece, CastOp::Trunc);
            let a = self.offset_addr(addr, offset);
            self.b.store(a, part);
        }
    }
}

/// `n` bytes (1..=8) as little-endian pieces of 4, 2 and 1 bytes: (offset, type).
fn pieces(n: u32) -> Vec<(u64, Type)> {
    let mut out = Vec::new();
    let mut offset = 0u32;
    for (size, ty) in [(4, Type::I32), (2, Type::I16), (1, Type::I8)] {
        while n - offset >= size {
            out.push((u64::from(offset), ty));
            offset += size;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containers_and_pieces() {
        assert_eq!(container(1), Some(Type::I1));
        assert_eq!(container(24), Some(Type::I32));
        assert_eq!(container(33), Some(Type::I64));
        assert_eq!(container(65), None);
        assert!(is_odd(24) && !is_odd(32));
        assert_eq!(pieces(3), vec![(0, Type::I16), (2, Type::I8)]);
        assert_eq!(pieces(7), vec![(0, Type::I32), (4, Type::I16), (6, Type::I8)]);
    }
}
