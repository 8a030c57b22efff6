//! LLVM types as the IR sees them: integers of up to 64 bits (odd widths in a wider
//! [`container`], see [`super::widths`]), pointers (as `i64`), `float`, `double` and `x86_fp80`
//! are values; everything else (half and quadruple floats, vectors, wider integers, aggregates
//! as values) is a construct the IR does not model, described by a category that becomes the
//! start of an `unsupported` message ("vector type: shufflevector").

use crate::ir::{Type, PTR};
use llvm_ir::types::{FPType, NamedStructDef};
use llvm_ir::{Type as LType, TypeRef};

/// Why an instruction cannot be lowered. `Category` is completed by the instruction lowering
/// with what the instruction is ("floating point" + "fadd"); `Message` is complete.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Unsup {
    Category(String),
    Message(String),
}

impl Unsup {
    pub(super) fn msg(text: impl Into<String>) -> Unsup {
        Unsup::Message(text.into())
    }

    /// The final message for an instruction described by `what`.
    pub(super) fn describe(self, what: &str) -> String {
        match self {
            Unsup::Category(c) => format!("{c}: {what}"),
            Unsup::Message(m) => m,
        }
    }
}

pub(super) type LResult<T> = Result<T, Unsup>;

/// The IR type of an LLVM first-class type, or the category that makes it unsupported.
pub(super) fn ir_type(ty: &LType) -> LResult<Type> {
    match ty {
        LType::IntegerType { bits } => container(*bits).ok_or_else(|| Unsup::Category(format!("{bits}-bit integer"))),
        LType::PointerType { .. } => Ok(PTR),
        LType::FPType(FPType::Single) => Ok(Type::F32),
        LType::FPType(FPType::Double) => Ok(Type::F64),
        LType::FPType(FPType::X86_FP80) => Ok(Type::F80),
        other => Err(Unsup::Category(category(other))),
    }
}

/// The type an IR value stands in with for an LLVM value the IR cannot represent (a float,
/// an aggregate): its uses are unsupported anyway, the stand-in only keeps the IR well-typed.
pub(super) fn stand_in(ty: &LType) -> Type {
    ir_type(ty).unwrap_or(Type::I64)
}

/// `None` for `void`, else the IR type or its stand-in (for signatures).
pub(super) fn sig_type(ty: &LType) -> Option<Type> {
    match ty {
        LType::VoidType => None,
        other => Some(stand_in(other)),
    }
}

/// The first words of an `unsupported` message for a value of this type.
pub(super) fn category(ty: &LType) -> String {
    match ty {
        LType::FPType(fp) => format!("floating point of type {fp:?}"),
        LType::IntegerType { bits } => format!("{bits}-bit integer"),
        LType::VectorType { .. } => "vector type".to_string(),
        LType::ArrayType { .. } | LType::StructType { .. } | LType::NamedStructType { .. } => {
            "aggregate value".to_string()
        }
        LType::X86_MMXType | LType::X86_AMXType => "x86 MMX/AMX type".to_string(),
        other => format!("type {other}"),
    }
}

/// The field types of a struct type (literal or named with a definition).
pub(super) fn struct_fields<'m>(types: &'m llvm_ir::types::Types, ty: &'m LType) -> Option<&'m [TypeRef]> {
    match ty {
        LType::StructType { element_types, .. } => Some(element_types),
        LType::NamedStructType { name } => match types.named_struct_def(name)? {
            NamedStructDef::Defined(def) => match def.as_ref() {
                LType::StructType { element_types, .. } => Some(element_types),
                _ => None,
            },
            NamedStructDef::Opaque => None,
        },
        _ => None,
    }
}

/// The IR type holding an integer of `bits` bits (at most 64).
pub(super) fn container(bits: u32) -> Option<Type> {
    [Type::I1, Type::I8, Type::I16, Type::I32, Type::I64].into_iter().find(|t| t.bits() >= bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_widths_and_pointers_are_values_the_rest_has_a_category() {
        assert_eq!(ir_type(&LType::IntegerType { bits: 1 }), Ok(Type::I1));
        assert_eq!(ir_type(&LType::IntegerType { bits: 64 }), Ok(Type::I64));
        assert_eq!(ir_type(&LType::PointerType { addr_space: 0 }), Ok(Type::I64));
        assert_eq!(ir_type(&LType::IntegerType { bits: 24 }), Ok(Type::I32));
        assert_eq!(ir_type(&LType::IntegerType { bits: 128 }), Err(Unsup::Category("128-bit integer".into())));
        assert_eq!(ir_type(&LType::FPType(FPType::Double)), Ok(Type::F64));
        assert_eq!(ir_type(&LType::FPType(FPType::X86_FP80)), Ok(Type::F80));
        let quad = LType::FPType(FPType::FP128);
        assert_eq!(
            ir_type(&quad).map_err(|e| e.describe("fadd")),
            Err("floating point of type FP128: fadd".to_string())
        );
        assert_eq!(stand_in(&quad), Type::I64);
        assert_eq!(sig_type(&LType::VoidType), None);
    }
}
