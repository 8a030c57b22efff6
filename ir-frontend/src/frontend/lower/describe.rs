//! What an LLVM instruction is, as the `unsupported` path says it: its opcode, with the
//! callee or the accessed type (`describe`), the type of its result for the placeholder that
//! stands in for it (`result_type`), and the callee of a direct call (`callee_name`), which
//! the call lowering dispatches on too.

use super::types::struct_fields;
use llvm_ir::instruction::Call;
use llvm_ir::{Constant, Instruction, Name, Operand, Type as LType, TypeRef};

/// The name of a directly called function (`None` for indirect calls and inline assembly).
pub(super) fn callee_name(c: &Call) -> Option<&str> {
    match c.function.as_ref().right()? {
        Operand::ConstantOperand(cr) => match cr.as_ref() {
            Constant::GlobalReference { name: Name::Name(s), .. } => Some(s.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// What an instruction is, for `unsupported` messages: its LLVM opcode, with the callee for
/// calls and the type for memory accesses.
pub(super) fn describe(llvm: &llvm_ir::Module, inst: &Instruction) -> String {
    use Instruction as I;
    match inst {
        I::Call(c) => match callee_name(c) {
            Some(name) => format!("call to {name}"),
            None if c.function.is_left() => "inline assembly".to_string(),
            None => "indirect call".to_string(),
        },
        I::Load(l) => format!("load of {}", l.loaded_ty),
        I::Store(s) => format!("store of {}", llvm.types.type_of(&s.value)),
        other => opcode(other).to_string(),
    }
}

/// LLVM's spelling of an instruction's opcode.
fn opcode(inst: &Instruction) -> &'static str {
    use Instruction as I;
    match inst {
        I::Add(_) => "add",
        I::Sub(_) => "sub",
        I::Mul(_) => "mul",
        I::UDiv(_) => "udiv",
        I::SDiv(_) => "sdiv",
        I::URem(_) => "urem",
        I::SRem(_) => "srem",
        I::And(_) => "and",
        I::Or(_) => "or",
        I::Xor(_) => "xor",
        I::Shl(_) => "shl",
        I::LShr(_) => "lshr",
        I::AShr(_) => "ashr",
        I::FAdd(_) => "fadd",
        I::FSub(_) => "fsub",
        I::FMul(_) => "fmul",
        I::FDiv(_) => "fdiv",
        I::FRem(_) => "frem",
        I::FNeg(_) => "fneg",
        I::ExtractElement(_) => "extractelement",
        I::InsertElement(_) => "insertelement",
        I::ShuffleVector(_) => "shufflevector",
        I::ExtractValue(_) => "extractvalue",
        I::InsertValue(_) => "insertvalue",
        I::Alloca(_) => "alloca",
        I::Load(_) => "load",
        I::Store(_) => "store",
        I::Fence(_) => "fence",
        I::CmpXchg(_) => "cmpxchg",
        I::AtomicRMW(_) => "atomicrmw",
        I::GetElementPtr(_) => "getelementptr",
        I::Trunc(_) => "trunc",
        I::ZExt(_) => "zext",
        I::SExt(_) => "sext",
        I::FPTrunc(_) => "fptrunc",
        I::FPExt(_) => "fpext",
        I::FPToUI(_) => "fptoui",
        I::FPToSI(_) => "fptosi",
        I::UIToFP(_) => "uitofp",
        I::SIToFP(_) => "sitofp",
        I::PtrToInt(_) => "ptrtoint",
        I::IntToPtr(_) => "inttoptr",
        I::BitCast(_) => "bitcast",
        I::AddrSpaceCast(_) => "addrspacecast",
        I::ICmp(_) => "icmp",
        I::FCmp(_) => "fcmp",
        I::Phi(_) => "phi",
        I::Select(_) => "select",
        I::Freeze(_) => "freeze",
        I::Call(_) => "call",
        I::VAArg(_) => "va_arg",
        I::LandingPad(_) => "landingpad",
        I::CatchPad(_) => "catchpad",
        I::CleanupPad(_) => "cleanuppad",
    }
}

/// The LLVM type of an instruction's result (`None` if there is none or it is unknown), for
/// the placeholder that replaces the result of an unsupported instruction.
pub(super) fn result_type(llvm: &llvm_ir::Module, inst: &Instruction) -> Option<TypeRef> {
    use Instruction as I;
    let types = &llvm.types;
    inst.try_get_result()?;
    Some(match inst {
        I::ICmp(i) => match types.type_of(&i.operand0).as_ref() {
            LType::VectorType { .. } => return None,
            _ => types.bool(),
        },
        I::FCmp(_) => types.bool(),
        I::Alloca(_) | I::GetElementPtr(_) => types.pointer(),
        I::Load(l) => l.loaded_ty.clone(),
        I::Call(c) => match c.function_ty.as_ref() {
            LType::FuncType { result_type, .. } => result_type.clone(),
            _ => return None,
        },
        I::ExtractValue(e) => {
            let mut ty = types.type_of(&e.aggregate);
            for &index in &e.indices {
                ty = match ty.as_ref() {
                    LType::ArrayType { element_type, .. } => element_type.clone(),
                    other => struct_fields(types, other)?.get(index as usize)?.clone(),
                };
            }
            ty
        }
        I::InsertValue(i) => types.type_of(&i.aggregate),
        I::ExtractElement(e) => match types.type_of(&e.vector).as_ref() {
            LType::VectorType { element_type, .. } => element_type.clone(),
            _ => return None,
        },
        I::VAArg(v) => v.cur_type.clone(),
        I::CmpXchg(c) => {
            let ty = types.type_of(&c.expected);
            types.struct_of(vec![ty, types.bool()], false)
        }
        I::InsertElement(_) | I::ShuffleVector(_) | I::LandingPad(_) | I::CatchPad(_) | I::CleanupPad(_) => {
            return None
        }
        // Everything else is typed by LLVM without surprises (arithmetic, casts, select,
        // freeze, atomicrmw, phi).
        other => types.type_of(other),
    })
}
