//! Value types: fixed-width bitvectors and IEEE floating point. Pointers are `i64` (the address
//! space is flat and 64-bit), so pointer arithmetic is ordinary integer arithmetic after lowering.
//!
//! A floating-point value is held as its bits, exactly as memory holds it: `f32` and `f64` in the
//! IEEE binary32/binary64 encodings, `f80` in the x87 80-bit extended encoding (C's `long double`
//! on x86-64: sign, 15-bit exponent, 64-bit significand with an explicit integer bit), which
//! occupies 10 bytes when loaded or stored (16 with padding in arrays and structs).

use std::fmt;

/// The type of an SSA value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    I1,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
    F80,
}

/// The type of addresses.
pub const PTR: Type = Type::I64;

impl Type {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            Type::I1 => 1,
            Type::I8 => 8,
            Type::I16 => 16,
            Type::I32 => 32,
            Type::I64 | Type::F64 => 64,
            Type::F32 => 32,
            Type::F80 => 80,
        }
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Type::F32 | Type::F64 | Type::F80)
    }

    /// Whether this is an integer (or pointer) type.
    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    /// Size in memory, in bytes (`i1` occupies one byte, as in LLVM).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// The integer type of the given width, if it is one of ours.
    pub fn from_bits(bits: u32) -> Option<Type> {
        Some(match bits {
            1 => Type::I1,
            8 => Type::I8,
            16 => Type::I16,
            32 => Type::I32,
            64 => Type::I64,
            _ => return None,
        })
    }

    /// All-ones mask of this width (of the low 64 bits for `f80`: see [`Type::mask128`]).
    pub fn mask(self) -> u64 {
        u64::MAX >> (64 - self.bits().min(64))
    }

    /// All-ones mask of this width, for every type.
    pub fn mask128(self) -> u128 {
        u128::MAX >> (128 - self.bits())
    }

    /// Sign-extends a value of this width (held in the low bits) to 64 bits.
    pub fn sign_extend(self, value: u64) -> i64 {
        let shift = 64 - self.bits();
        ((value << shift) as i64) >> shift
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::F32 => f.write_str("f32"),
            Type::F64 => f.write_str("f64"),
            Type::F80 => f.write_str("f80"),
            _ => write!(f, "i{}", self.bits()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_masks_and_sign_extension() {
        assert_eq!(Type::I1.bytes(), 1);
        assert_eq!(Type::I16.bytes(), 2);
        assert_eq!(Type::I32.mask(), 0xffff_ffff);
        assert_eq!(Type::I64.mask(), u64::MAX);
        assert_eq!(Type::I8.sign_extend(0x80), -128);
        assert_eq!(Type::I8.sign_extend(0x7f), 127);
        assert_eq!(Type::I1.sign_extend(1), -1);
        assert_eq!(Type::from_bits(16), Some(Type::I16));
        assert_eq!(Type::from_bits(128), None);
        assert_eq!(Type::F80.bytes(), 10);
        assert_eq!(Type::F80.mask128(), (1 << 80) - 1);
        assert_eq!(Type::F80.mask(), u64::MAX);
        assert_eq!(Type::F32.to_string(), "f32");
        assert!(Type::F64.is_float() && !Type::I64.is_float());
    }
}
