//! Value types: fixed-width bitvectors. Pointers are `i64` (the address space is flat and 64-bit),
//! so pointer arithmetic is ordinary integer arithmetic after lowering.

use std::fmt;

/// The type of an SSA value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    I1,
    I8,
    I16,
    I32,
    I64,
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
            Type::I64 => 64,
        }
    }

    /// Size in memory, in bytes (`i1` occupies one byte, as in LLVM).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// The type of the given width, if it is one of ours.
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

    /// All-ones mask of this width.
    pub fn mask(self) -> u64 {
        u64::MAX >> (64 - self.bits())
    }

    /// Sign-extends a value of this width (held in the low bits) to 64 bits.
    pub fn sign_extend(self, value: u64) -> i64 {
        let shift = 64 - self.bits();
        ((value << shift) as i64) >> shift
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "i{}", self.bits())
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
    }
}
