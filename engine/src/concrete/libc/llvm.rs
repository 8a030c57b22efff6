//! LLVM intrinsics that may reach the IR as calls of declared functions named `llvm.*`: the
//! memory ones (`llvm.memcpy`, `llvm.memmove`, `llvm.memset`) share the C models, the markers
//! (`llvm.lifetime.*`, `llvm.dbg.*`, `llvm.assume`, `llvm.stackrestore`) do nothing, and the
//! integer ones (`llvm.abs.i32`, `llvm.ctpop.i64`, ...) are evaluated here at the width their
//! name ends in.

use super::{Args, LibcFn};
use super::super::stop::Fault;
use penumbra_ir::Type;

/// An integer intrinsic at a width.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IntOp {
    pub kind: IntKind,
    pub ty: Type,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IntKind {
    Abs,
    Smax,
    Smin,
    Umax,
    Umin,
    Ctpop,
    Ctlz,
    Cttz,
    Bswap,
    Bitreverse,
    Fshl,
    Fshr,
    Expect,
}

/// Binds `llvm.<rest>`.
pub fn bind(rest: &str) -> Option<LibcFn> {
    let (base, _) = rest.split_once('.').unwrap_or((rest, ""));
    match base {
        "memcpy" | "memmove" => return Some(LibcFn::Memmove),
        "memset" => return Some(LibcFn::Memset),
        "lifetime" | "dbg" | "assume" | "stackrestore" | "donothing" => {
            return Some(LibcFn::Nop)
        }
        "stacksave" => return Some(LibcFn::StackSave),
        "trap" | "debugtrap" => return Some(LibcFn::Trap),
        _ => {}
    }
    let kind = match base {
        "abs" => IntKind::Abs,
        "smax" => IntKind::Smax,
        "smin" => IntKind::Smin,
        "umax" => IntKind::Umax,
        "umin" => IntKind::Umin,
        "ctpop" => IntKind::Ctpop,
        "ctlz" => IntKind::Ctlz,
        "cttz" => IntKind::Cttz,
        "bswap" => IntKind::Bswap,
        "bitreverse" => IntKind::Bitreverse,
        "fshl" => IntKind::Fshl,
        "fshr" => IntKind::Fshr,
        "expect" => IntKind::Expect,
        _ => return None,
    };
    // The overloaded type is the last name component: `llvm.ctpop.i32`.
    let bits = rest.rsplit('.').next()?.strip_prefix('i')?.parse().ok()?;
    let ty = Type::from_bits(bits)?;
    if kind == IntKind::Bswap && ty.bits() < 16 {
        return None;
    }
    Some(LibcFn::Int(IntOp { kind, ty }))
}

impl IntOp {
    pub(crate) fn eval(self, a: &Args<'_>) -> Result<u64, Fault> {
        let ty = self.ty;
        let w = ty.bits();
        let x = a.get(0)? & ty.mask();
        let signed = |v: u64| ty.sign_extend(v);
        let r = match self.kind {
            IntKind::Abs => signed(x).wrapping_abs() as u64,
            IntKind::Ctpop => u64::from(x.count_ones()),
            IntKind::Ctlz => u64::from(x.leading_zeros() - (64 - w)),
            IntKind::Cttz => u64::from(x.trailing_zeros().min(w)),
            IntKind::Bswap => x.swap_bytes() >> (64 - w),
            IntKind::Bitreverse => x.reverse_bits() >> (64 - w),
            IntKind::Expect => x,
            IntKind::Smax | IntKind::Smin | IntKind::Umax | IntKind::Umin | IntKind::Fshl | IntKind::Fshr => {
                let y = a.get(1)? & ty.mask();
                match self.kind {
                    IntKind::Smax => if signed(x) >= signed(y) { x } else { y },
                    IntKind::Smin => if signed(x) <= signed(y) { x } else { y },
                    IntKind::Umax => x.max(y),
                    IntKind::Umin => x.min(y),
                    _ => {
                        let s = (a.get(2)? & ty.mask()) % u64::from(w);
                        let (hi, lo) = (x, y);
                        match (self.kind, s) {
                            (IntKind::Fshl, 0) => hi,
                            (IntKind::Fshr, 0) => lo,
                            (IntKind::Fshl, s) => (hi << s) | (lo >> (u64::from(w) - s)),
                            (_, s) => (lo >> s) | (hi << (u64::from(w) - s)),
                        }
                    }
                }
            }
        };
        Ok(r & ty.mask())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(name: &str, args: &[u64]) -> u64 {
        let Some(LibcFn::Int(op)) = LibcFn::bind(name) else { panic!("{name} not bound") };
        op.eval(&Args { name, values: args }).unwrap()
    }

    #[test]
    fn integer_intrinsics_at_their_width() {
        assert_eq!(eval("llvm.abs.i32", &[0xffff_fffb, 0]), 5);
        assert_eq!(eval("llvm.abs.i32", &[0x8000_0000, 0]), 0x8000_0000);
        assert_eq!(eval("llvm.smax.i8", &[0x80, 0x7f]), 0x7f);
        assert_eq!(eval("llvm.umax.i8", &[0x80, 0x7f]), 0x80);
        assert_eq!(eval("llvm.smin.i64", &[u64::MAX, 3]), u64::MAX);
        assert_eq!(eval("llvm.ctpop.i32", &[0xf0f0]), 8);
        assert_eq!(eval("llvm.ctlz.i16", &[1, 0]), 15);
        assert_eq!(eval("llvm.ctlz.i32", &[0, 0]), 32);
        assert_eq!(eval("llvm.cttz.i8", &[0, 0]), 8);
        assert_eq!(eval("llvm.bswap.i32", &[0x1122_3344]), 0x4433_2211);
        assert_eq!(eval("llvm.bswap.i16", &[0x1122]), 0x2211);
        assert_eq!(eval("llvm.bitreverse.i8", &[1]), 0x80);
        assert_eq!(eval("llvm.fshl.i32", &[0x8000_0001, 0x8000_0000, 1]), 3);
        assert_eq!(eval("llvm.fshr.i32", &[1, 2, 1]), 0x8000_0001);
        assert_eq!(eval("llvm.fshl.i8", &[0xab, 0xcd, 8]), 0xab);
        assert_eq!(eval("llvm.expect.i64", &[42, 1]), 42);
    }

    #[test]
    fn memory_and_marker_intrinsics_bind_to_shared_models() {
        assert_eq!(LibcFn::bind("llvm.memcpy.p0.p0.i64"), Some(LibcFn::Memmove));
        assert_eq!(LibcFn::bind("llvm.memset.p0.i64"), Some(LibcFn::Memset));
        assert_eq!(LibcFn::bind("llvm.lifetime.start.p0"), Some(LibcFn::Nop));
        assert_eq!(LibcFn::bind("llvm.stacksave.p0"), Some(LibcFn::StackSave));
        assert_eq!(LibcFn::bind("llvm.va_start"), None);
        assert_eq!(LibcFn::bind("llvm.bswap.i8"), None);
        assert_eq!(LibcFn::bind("llvm.sadd.with.overflow.i32"), None);
    }
}
