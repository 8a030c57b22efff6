//! Variable arguments of functions defined in the program (`int sum(int n, ...)` with
//! `va_start`/`va_arg`).
//!
//! Clang expands `va_arg` inline for the x86-64 System V ABI: it reads the `va_list`
//! (`{ i32 gp_offset, i32 fp_offset, ptr overflow_arg_area, ptr reg_save_area }`) and takes
//! an argument from the register save area while `gp_offset <= 40`, else from the overflow
//! area, advancing 8 bytes per argument. penumbra passes every variable argument in memory:
//! - a defined variadic function gets one hidden last parameter, the address of its
//!   variable-argument area, and is not variadic in the IR;
//! - each call site builds that area (allocated on entry of the caller): each argument in its
//!   own 8-byte slot (a `long double` in a 16-aligned 16-byte one), `byval` structs copied
//!   in, rounded up to 8 bytes; a call without
//!   variable arguments gets one slot holding 0;
//! - `llvm.va_start(ap)` writes `gp_offset = 48` and `fp_offset = 176` (the register areas
//!   are used up), `overflow_arg_area = ` the hidden parameter, `reg_save_area = 0`, so clang's
//!   own `va_arg` code reads the slots in order; `va_copy` copies the 24 bytes; `va_end` is
//!   nothing.
//!
//! Calls of declared variadic functions (`printf`) pass their arguments as values, and an
//! indirect call through a variadic function type is unsupported (the callee could be
//! either kind).

use super::function::FnLower;
use super::types::{LResult, Unsup};
use crate::ir::{Type, Value, PTR};
use llvm_ir::function::ParameterAttribute;
use llvm_ir::instruction::Call;
use llvm_ir::Operand;

/// `gp_offset` once the six integer argument registers are used up.
const GP_OFFSET_EXHAUSTED: u64 = 48;
/// `fp_offset` once the eight vector argument registers are used up (48 + 8 * 16).
const FP_OFFSET_EXHAUSTED: u64 = 176;

/// The size of a variable argument's slot(s): 8 bytes, 16 for a `long double` (the ABI's
/// memory class: 16 bytes, 16-aligned), or a `byval` object rounded up to 8.
fn slot_size(lower: &FnLower<'_, '_>, arg: &Operand, attrs: &[ParameterAttribute]) -> Option<u64> {
    match attrs.iter().find_map(|a| match a {
        ParameterAttribute::ByVal(t) => Some(t),
        _ => None,
    }) {
        Some(t) => lower.cx.info.layout(t).map(|l| l.size.div_ceil(8) * 8),
        None if is_x87(lower, arg) => Some(16),
        None => Some(8),
    }
}

/// Whether a variable argument is a `long double`, which `va_arg` reads 16-aligned.
fn is_x87(lower: &FnLower<'_, '_>, arg: &Operand) -> bool {
    matches!(lower.cx.llvm.types.type_of(arg).as_ref(), llvm_ir::Type::FPType(llvm_ir::types::FPType::X86_FP80))
}

impl<'a, 'm> FnLower<'a, 'm> {
    /// The variable-argument area a call to a defined variadic function needs, in bytes: at
    /// least one slot, which a call without variable arguments fills with 0 (C libraries read
    /// an argument that may not be there: musl's `fcntl(fd, F_GETFL)` takes its third argument
    /// whatever the command, where the hardware gives it a register's leftover).
    pub(super) fn vararg_area_size(&self, c: &Call, fixed: usize) -> Option<u64> {
        let mut size = 0u64;
        for (a, attrs) in c.arguments.iter().skip(fixed) {
            if is_x87(self, a) {
                size = size.next_multiple_of(16);
            }
            size += slot_size(self, a, attrs)?;
        }
        Some(size.max(8))
    }

    /// The arguments of a call to a defined variadic function with `fixed` fixed
    /// parameters: the fixed ones, then the address of the area holding the others.
    pub(super) fn vararg_call_args(&mut self, c: &'m Call, fixed: usize, area: Option<Value>) -> LResult<Vec<Value>> {
        let mut args = Vec::with_capacity(fixed + 1);
        for (a, _) in c.arguments.iter().take(fixed) {
            args.push(self.operand(a)?);
        }
        let extra = &c.arguments[fixed.min(c.arguments.len())..];
        let Some(area) = area else {
            return Err(Unsup::msg("variable arguments of an unsized type"));
        };
        if extra.is_empty() {
            let zero = self.b.iconst(Type::I64, 0);
            self.b.store(area, zero);
        }
        let mut offset = 0u64;
        for (a, attrs) in extra {
            let size = slot_size(self, a, attrs).ok_or_else(|| Unsup::msg("variable argument of an unsized type"))?;
            if is_x87(self, a) {
                offset = offset.next_multiple_of(16);
            }
            let value = self.operand(a)?;
            let slot = self.offset_addr(area, offset);
            if attrs.iter().any(|at| matches!(at, ParameterAttribute::ByVal(_))) {
                let len = self.b.iconst(Type::I64, size);
                self.libc_memcpy("memcpy", slot, value, len)?;
            } else {
                self.b.store(slot, value);
            }
            offset += size;
        }
        args.push(area);
        Ok(args)
    }

    /// `llvm.va_start(ap)`.
    pub(super) fn va_start(&mut self, ap: &'m Operand) -> LResult<()> {
        let area = self.vararg_area.ok_or_else(|| Unsup::msg("va_start outside a function with variable arguments"))?;
        let ap = self.operand(ap)?;
        let gp = self.b.iconst(Type::I32, GP_OFFSET_EXHAUSTED);
        self.b.store(ap, gp);
        let fp_addr = self.offset_addr(ap, 4);
        let fp = self.b.iconst(Type::I32, FP_OFFSET_EXHAUSTED);
        self.b.store(fp_addr, fp);
        let overflow = self.offset_addr(ap, 8);
        self.b.store(overflow, area);
        let save = self.offset_addr(ap, 16);
        let null = self.b.iconst(PTR, 0);
        self.b.store(save, null);
        Ok(())
    }

    /// `llvm.va_copy(dst, src)`: the 24 bytes of a `va_list`.
    pub(super) fn va_copy(&mut self, dst: &'m Operand, src: &'m Operand) -> LResult<()> {
        let dst = self.operand(dst)?;
        let src = self.operand(src)?;
        for offset in [0, 8, 16] {
            let from = self.offset_addr(src, offset);
            let word = self.b.load(Type::I64, from);
            let to = self.offset_addr(dst, offset);
            self.b.store(to, word);
        }
        Ok(())
    }
}
