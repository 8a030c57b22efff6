//! Instruction definitions. [`InstData`] says *what* an instruction is; where it sits is the
//! [`Layout`](super::Layout)'s business. Operands are [`Value`]s; variable-length operand lists
//! live in the body's [`ValueList`] pool, so an instruction is 16 bytes and holds no `Vec`.
//!
//! Semantics follow LLVM with `-fwrapv`: arithmetic wraps; division, remainder and shifts have
//! the SMT-LIB meaning on the IR level, and the interpreters check the cases C leaves undefined
//! (division by zero, `INT_MIN / -1`, shift by the width or more) *before* computing.

use super::entities::{Block, Dest, Func, JumpTable, Msg, Value};
use super::types::Type;
use cranelift_entity::EntityList;
use std::fmt;

/// A pooled list of values (call arguments, branch arguments, block parameters).
pub type ValueList = EntityList<Value>;

/// Two-operand integer operations. Both operands and the result have the same type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
}

impl BinaryOp {
    pub const ALL: [BinaryOp; 13] = [
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::UDiv,
        BinaryOp::SDiv,
        BinaryOp::URem,
        BinaryOp::SRem,
        BinaryOp::And,
        BinaryOp::Or,
        BinaryOp::Xor,
        BinaryOp::Shl,
        BinaryOp::LShr,
        BinaryOp::AShr,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::UDiv => "udiv",
            BinaryOp::SDiv => "sdiv",
            BinaryOp::URem => "urem",
            BinaryOp::SRem => "srem",
            BinaryOp::And => "and",
            BinaryOp::Or => "or",
            BinaryOp::Xor => "xor",
            BinaryOp::Shl => "shl",
            BinaryOp::LShr => "lshr",
            BinaryOp::AShr => "ashr",
        }
    }

    /// Division and remainder: the divisor must be checked for zero (and for `sdiv`/`srem`,
    /// the pair `INT_MIN, -1`) before the operation.
    pub fn is_division(self) -> bool {
        matches!(self, BinaryOp::UDiv | BinaryOp::SDiv | BinaryOp::URem | BinaryOp::SRem)
    }

    /// Shifts: the amount must be checked to be below the width before the operation.
    pub fn is_shift(self) -> bool {
        matches!(self, BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr)
    }
}

/// Integer comparison conditions (LLVM's `icmp` predicates).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntCC {
    Eq,
    Ne,
    Ult,
    Ule,
    Ugt,
    Uge,
    Slt,
    Sle,
    Sgt,
    Sge,
}

impl IntCC {
    pub const ALL: [IntCC; 10] = [
        IntCC::Eq,
        IntCC::Ne,
        IntCC::Ult,
        IntCC::Ule,
        IntCC::Ugt,
        IntCC::Uge,
        IntCC::Slt,
        IntCC::Sle,
        IntCC::Sgt,
        IntCC::Sge,
    ];

    pub fn name(self) -> &'static str {
        match self {
            IntCC::Eq => "eq",
            IntCC::Ne => "ne",
            IntCC::Ult => "ult",
            IntCC::Ule => "ule",
            IntCC::Ugt => "ugt",
            IntCC::Uge => "uge",
            IntCC::Slt => "slt",
            IntCC::Sle => "sle",
            IntCC::Sgt => "sgt",
            IntCC::Sge => "sge",
        }
    }
}

/// Width conversions. The target type is the result value's type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastOp {
    Zext,
    Sext,
    Trunc,
}

impl CastOp {
    pub fn name(self) -> &'static str {
        match self {
            CastOp::Zext => "zext",
            CastOp::Sext => "sext",
            CastOp::Trunc => "trunc",
        }
    }
}

/// Two-operand floating-point operations (IEEE, round to nearest even). Both operands and the
/// result have the same floating-point type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    /// C's `fmod` (LLVM `frem`): the remainder of the quotient truncated toward zero.
    Rem,
    /// The magnitude of the first operand with the sign of the second.
    Copysign,
    /// IEEE `minNum`/`maxNum` (`llvm.minnum`): a NaN operand yields the other one.
    Minnum,
    Maxnum,
}

impl FloatOp {
    pub fn name(self) -> &'static str {
        match self {
            FloatOp::Add => "fadd",
            FloatOp::Sub => "fsub",
            FloatOp::Mul => "fmul",
            FloatOp::Div => "fdiv",
            FloatOp::Rem => "frem",
            FloatOp::Copysign => "copysign",
            FloatOp::Minnum => "minnum",
            FloatOp::Maxnum => "maxnum",
        }
    }
}

/// One-operand floating-point operations, result of the operand's type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FUnaryOp {
    Neg,
    Abs,
    Sqrt,
    /// Rounding to an integral value: toward -inf, +inf, zero, half away from zero, and to
    /// nearest even (`rint`/`nearbyint` in the default rounding mode).
    Floor,
    Ceil,
    Trunc,
    Round,
    RoundEven,
}

impl FUnaryOp {
    pub fn name(self) -> &'static str {
        match self {
            FUnaryOp::Neg => "fneg",
            FUnaryOp::Abs => "fabs",
            FUnaryOp::Sqrt => "sqrt",
            FUnaryOp::Floor => "floor",
            FUnaryOp::Ceil => "ceil",
            FUnaryOp::Trunc => "ftrunc",
            FUnaryOp::Round => "round",
            FUnaryOp::RoundEven => "roundeven",
        }
    }
}

/// Floating-point comparison conditions (LLVM's `fcmp` predicates): `O*` are false when an
/// operand is NaN, `U*` true.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatCC {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

impl FloatCC {
    pub const ALL: [FloatCC; 16] = [
        FloatCC::False,
        FloatCC::Oeq,
        FloatCC::Ogt,
        FloatCC::Oge,
        FloatCC::Olt,
        FloatCC::Ole,
        FloatCC::One,
        FloatCC::Ord,
        FloatCC::Ueq,
        FloatCC::Ugt,
        FloatCC::Uge,
        FloatCC::Ult,
        FloatCC::Ule,
        FloatCC::Une,
        FloatCC::Uno,
        FloatCC::True,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FloatCC::False => "false",
            FloatCC::Oeq => "oeq",
            FloatCC::Ogt => "ogt",
            FloatCC::Oge => "oge",
            FloatCC::Olt => "olt",
            FloatCC::Ole => "ole",
            FloatCC::One => "one",
            FloatCC::Ord => "ord",
            FloatCC::Ueq => "ueq",
            FloatCC::Ugt => "ugt",
            FloatCC::Uge => "uge",
            FloatCC::Ult => "ult",
            FloatCC::Ule => "ule",
            FloatCC::Une => "une",
            FloatCC::Uno => "uno",
            FloatCC::True => "true",
        }
    }

    /// The truth of the predicate given how the operands compare (`None`: unordered, a NaN).
    pub fn holds(self, order: Option<std::cmp::Ordering>) -> bool {
        use std::cmp::Ordering::*;
        match order {
            None => matches!(
                self,
                FloatCC::Ueq
                    | FloatCC::Ugt
                    | FloatCC::Uge
                    | FloatCC::Ult
                    | FloatCC::Ule
                    | FloatCC::Une
                    | FloatCC::Uno
                    | FloatCC::True
            ),
            Some(o) => match self {
                FloatCC::False | FloatCC::Uno => false,
                FloatCC::True | FloatCC::Ord => true,
                FloatCC::Oeq | FloatCC::Ueq => o == Equal,
                FloatCC::One | FloatCC::Une => o != Equal,
                FloatCC::Ogt | FloatCC::Ugt => o == Greater,
                FloatCC::Oge | FloatCC::Uge => o != Less,
                FloatCC::Olt | FloatCC::Ult => o == Less,
                FloatCC::Ole | FloatCC::Ule => o != Greater,
            },
        }
    }
}

/// Conversions involving floating point. The source type is the operand's, the target the
/// result's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FCastOp {
    /// To a wider floating-point type (exact).
    Ext,
    /// To a narrower floating-point type (rounded).
    Trunc,
    /// To a signed / unsigned integer, truncating toward zero. A value whose truncation does
    /// not fit the integer type (or a NaN) is undefined behaviour in C: the interpreters report
    /// it (`float-cast-overflow`) before converting.
    ToSi,
    ToUi,
    /// From a signed / unsigned integer (rounded).
    FromSi,
    FromUi,
    /// Reinterpreting the bits between a floating-point and an integer type of one width.
    Bitcast,
}

impl FCastOp {
    pub fn name(self) -> &'static str {
        match self {
            FCastOp::Ext => "fpext",
            FCastOp::Trunc => "fptrunc",
            FCastOp::ToSi => "fptosi",
            FCastOp::ToUi => "fptoui",
            FCastOp::FromSi => "sitofp",
            FCastOp::FromUi => "uitofp",
            FCastOp::Bitcast => "bitcast",
        }
    }
}

/// Which version a `penumbra_execute(V)` block belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    Old,
    New,
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Version::Old => "old",
            Version::New => "new",
        })
    }
}

/// One instruction. Instructions with a result have exactly one, recorded in the body's
/// `results` map; its type is the result value's type (e.g. the width a `load` reads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstData {
    /// `result = op a, b`.
    Binary { op: BinaryOp, args: [Value; 2] },
    /// `result: i1 = icmp cc a, b`.
    Icmp { cc: IntCC, args: [Value; 2] },
    /// `result = cast arg` to the result type.
    Cast { op: CastOp, arg: Value },
    /// `result = op a, b` on floating point.
    FBinary { op: FloatOp, args: [Value; 2] },
    /// `result = op a` on floating point.
    FUnary { op: FUnaryOp, arg: Value },
    /// `result = a * b + c` rounded once (`llvm.fma`).
    Fma { args: [Value; 3] },
    /// `result: i1 = fcmp cc a, b`.
    Fcmp { cc: FloatCC, args: [Value; 2] },
    /// `result = op arg` converted to the result type.
    FCast { op: FCastOp, arg: Value },
    /// `result = cond ? a : b`; `args = [cond, a, b]`.
    Select { args: [Value; 3] },
    /// `result = load [addr]`, reading as many bytes as the result type has.
    Load { addr: Value },
    /// `store value -> [addr]`, writing as many bytes as the value's type has.
    Store { addr: Value, value: Value },
    /// `result: i64 =` the address of a fresh stack object of `size` bytes, freed on return.
    Alloca { size: u32, align: u32 },
    /// `result: i64 =` the address of a fresh stack object of `bytes` (an `i64`) bytes (VLA).
    DynAlloca { bytes: Value },
    /// Direct call of a function defined or declared in the module; result if it returns one.
    Call { func: Func, args: ValueList },
    /// Call through a function pointer; `args[0]` is the callee address. The callee's
    /// signature is given by the argument types and the result type.
    CallIndirect { args: ValueList },
    /// `result = change(old, new)`: the shadow pair of a patch annotation.
    Change { args: [Value; 2] },
    /// `result: i1 =` whether the version `version` is the one executing (`penumbra_execute`).
    Execute { version: Version },
    /// `make_symbolic(addr, size, name)`: the object at `addr` gets `size` fresh symbolic bytes;
    /// `name` is the address of a NUL-terminated string. `float`: the object is a `float`,
    /// `double` or `long double` (or an array of them), for showing its values in tests.
    MakeSymbolic { args: [Value; 3], float: Option<Type> },
    /// Constrain the path: `cond` must hold (`penumbra_assume`, `klee_assume`).
    Assume { cond: Value },
    /// Check: `cond` must hold, else an assertion failure (`penumbra_assert`, `klee_assert`).
    Assert { cond: Value },
    /// Unconditional branch.
    Jump { dest: Dest },
    /// Two-way branch on an `i1`.
    Brif { cond: Value, then_dest: Dest, else_dest: Dest },
    /// Multi-way branch on an integer.
    Switch { arg: Value, table: JumpTable },
    /// Return, with a value when the function has a result type.
    Return { value: Option<Value> },
    /// Reaching this is undefined behaviour in C (LLVM `unreachable`).
    Unreachable,
    /// A construct penumbra does not model; a path reaching it ends as "unsupported".
    Unsupported { msg: Msg },
}

impl InstData {
    /// Whether this instruction ends a block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstData::Jump { .. }
                | InstData::Brif { .. }
                | InstData::Switch { .. }
                | InstData::Return { .. }
                | InstData::Unreachable
                | InstData::Unsupported { .. }
        )
    }

    /// Whether this instruction marks the patch: a `change()` or a `penumbra_execute`.
    pub fn is_patch_annotation(&self) -> bool {
        matches!(self, InstData::Change { .. } | InstData::Execute { .. })
    }

    /// The mnemonic used by the text form.
    pub fn mnemonic(&self) -> &'static str {
        match self {
            InstData::Binary { op, .. } => op.name(),
            InstData::Icmp { .. } => "icmp",
            InstData::Cast { op, .. } => op.name(),
            InstData::FBinary { op, .. } => op.name(),
            InstData::FUnary { op, .. } => op.name(),
            InstData::Fma { .. } => "fma",
            InstData::Fcmp { .. } => "fcmp",
            InstData::FCast { op, .. } => op.name(),
            InstData::Select { .. } => "select",
            InstData::Load { .. } => "load",
            InstData::Store { .. } => "store",
            InstData::Alloca { .. } => "alloca",
            InstData::DynAlloca { .. } => "dyn_alloca",
            InstData::Call { .. } => "call",
            InstData::CallIndirect { .. } => "call_indirect",
            InstData::Change { .. } => "change",
            InstData::Execute { .. } => "execute",
            InstData::MakeSymbolic { .. } => "make_symbolic",
            InstData::Assume { .. } => "assume",
            InstData::Assert { .. } => "assert",
            InstData::Jump { .. } => "jump",
            InstData::Brif { .. } => "brif",
            InstData::Switch { .. } => "switch",
            InstData::Return { .. } => "ret",
            InstData::Unreachable => "unreachable",
            InstData::Unsupported { .. } => "unsupported",
        }
    }
}

/// A branch target with arguments for the block's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DestData {
    pub block: Block,
    pub args: ValueList,
}

/// The cases of a `switch`: values are held zero-extended to 64 bits, in source order,
/// each at most once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpTableData {
    pub default: Dest,
    pub cases: Vec<(u64, Dest)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Instructions are the interpreter's hottest data: keep them at 16 bytes. A payload that
    /// does not fit belongs in a side table (like `JumpTable`) or the value-list pool.
    #[test]
    fn inst_data_is_16_bytes() {
        assert_eq!(std::mem::size_of::<InstData>(), 16);
    }
}
