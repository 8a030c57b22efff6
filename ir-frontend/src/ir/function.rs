//! Functions: a signature and, when defined, a [`Body`] holding the function's arenas (values,
//! instructions, blocks, branch destinations) apart from their program order ([`Layout`]).

use super::entities::{Block, Dest, Func, Global, Inst, JumpTable, Value};
use super::instructions::{DestData, InstData, JumpTableData, ValueList};
use super::types::Type;
use cranelift_entity::{ListPool, PrimaryMap, SecondaryMap};

/// Parameter and result types. `varargs` functions accept extra arguments after `params`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    pub params: Vec<Type>,
    pub ret: Option<Type>,
    pub varargs: bool,
}

/// A source position taken from debug information (`line == 0` when unknown).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SrcLoc {
    pub line: u32,
    pub col: u32,
}

/// Where a value comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueDef {
    /// The result of an instruction.
    Result(Inst),
    /// The `index`-th parameter of a block (the entry block's parameters are the arguments).
    Param(Block, u32),
    /// A constant of an integer type (masked to the type) or of `f32`/`f64` (its bits).
    Const(u64),
    /// An `f80` constant: the sign and exponent (`hi`) and the significand (`lo`).
    ConstF80 { hi: u16, lo: u64 },
    /// The address of a global.
    GlobalAddr(Global),
    /// The address of a function (for function pointers).
    FuncAddr(Func),
}

/// A value's type and definition.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueData {
    pub ty: Type,
    pub def: ValueDef,
}

/// Block data: the parameters (SSA phis, as in Cranelift).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BlockData {
    pub params: ValueList,
}

/// Program order: the blocks of a body in order (the first is the entry) and the
/// instructions of each block in order.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    blocks: Vec<Block>,
    insts: SecondaryMap<Block, Vec<Inst>>,
}

impl Layout {
    pub fn append_block(&mut self, block: Block) {
        self.blocks.push(block);
    }

    pub fn append_inst(&mut self, block: Block, inst: Inst) {
        self.insts[block].push(inst);
    }

    /// Takes `block` out of the layout (with its instructions): the frontend drops the blocks
    /// it folded into their predecessor.
    pub fn remove_block(&mut self, block: Block) {
        self.blocks.retain(|&b| b != block);
        self.insts[block].clear();
    }

    /// Takes `inst` out of `block`: the frontend drops instructions it made dead.
    pub fn remove_inst(&mut self, block: Block, inst: Inst) {
        self.insts[block].retain(|&i| i != inst);
    }

    /// Blocks in layout order.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    pub fn entry_block(&self) -> Option<Block> {
        self.blocks.first().copied()
    }

    /// Instructions of `block` in order.
    pub fn block_insts(&self, block: Block) -> &[Inst] {
        &self.insts[block]
    }

    /// The last instruction of `block`.
    pub fn terminator(&self, block: Block) -> Option<Inst> {
        self.insts[block].last().copied()
    }
}

/// The definitions of a function body. Values, instructions and blocks are entities in arenas;
/// `layout` gives program order; `srclocs` the C source position of each instruction.
#[derive(Clone, Debug, Default)]
pub struct Body {
    pub insts: PrimaryMap<Inst, InstData>,
    pub results: SecondaryMap<Inst, Option<Value>>,
    pub values: PrimaryMap<Value, ValueData>,
    pub blocks: PrimaryMap<Block, BlockData>,
    pub dests: PrimaryMap<Dest, DestData>,
    pub jump_tables: PrimaryMap<JumpTable, JumpTableData>,
    pub value_lists: ListPool<Value>,
    pub srclocs: SecondaryMap<Inst, SrcLoc>,
    pub layout: Layout,
}

impl Body {
    pub fn value_type(&self, value: Value) -> Type {
        self.values[value].ty
    }

    pub fn value_def(&self, value: Value) -> ValueDef {
        self.values[value].def
    }

    /// The result of `inst`, if it has one.
    pub fn inst_result(&self, inst: Inst) -> Option<Value> {
        self.results[inst]
    }

    /// The parameters of `block`.
    pub fn block_params(&self, block: Block) -> &[Value] {
        self.blocks[block].params.as_slice(&self.value_lists)
    }

    /// The arguments a destination passes to its block's parameters.
    pub fn dest_args(&self, dest: Dest) -> &[Value] {
        self.dests[dest].args.as_slice(&self.value_lists)
    }

    /// The elements of a pooled value list.
    pub fn list(&self, list: ValueList) -> &[Value] {
        list.as_slice(&self.value_lists)
    }

    /// The values an instruction reads, in operand order.
    pub fn inst_args(&self, inst: Inst) -> Vec<Value> {
        match &self.insts[inst] {
            InstData::Binary { args, .. } | InstData::Icmp { args, .. } | InstData::Change { args } => args.to_vec(),
            InstData::FBinary { args, .. } | InstData::Fcmp { args, .. } => args.to_vec(),
            InstData::Select { args } | InstData::MakeSymbolic { args, .. } | InstData::Fma { args } => args.to_vec(),
            InstData::Cast { arg, .. } | InstData::FUnary { arg, .. } | InstData::FCast { arg, .. } => vec![*arg],
            InstData::Load { addr } => vec![*addr],
            InstData::Store { addr, value } => vec![*addr, *value],
            InstData::DynAlloca { bytes } => vec![*bytes],
            InstData::Call { args, .. } | InstData::CallIndirect { args } => self.list(*args).to_vec(),
            InstData::Assume { cond } | InstData::Assert { cond } => vec![*cond],
            InstData::Brif { cond, then_dest, else_dest } => {
                let mut v = vec![*cond];
                v.extend_from_slice(self.dest_args(*then_dest));
                v.extend_from_slice(self.dest_args(*else_dest));
                v
            }
            InstData::Jump { dest } => self.dest_args(*dest).to_vec(),
            InstData::Switch { arg, table } => {
                let jt = &self.jump_tables[*table];
                let mut v = vec![*arg];
                v.extend_from_slice(self.dest_args(jt.default));
                for (_, d) in &jt.cases {
                    v.extend_from_slice(self.dest_args(*d));
                }
                v
            }
            InstData::Return { value } => value.iter().copied().collect(),
            InstData::Alloca { .. }
            | InstData::Execute { .. }
            | InstData::Unreachable
            | InstData::Unsupported { .. } => Vec::new(),
        }
    }

    /// The destinations a terminator may branch to, in operand order.
    pub fn successors(&self, inst: Inst) -> Vec<Dest> {
        match &self.insts[inst] {
            InstData::Jump { dest } => vec![*dest],
            InstData::Brif { then_dest, else_dest, .. } => vec![*then_dest, *else_dest],
            InstData::Switch { table, .. } => {
                let jt = &self.jump_tables[*table];
                let mut v = vec![jt.default];
                v.extend(jt.cases.iter().map(|(_, d)| *d));
                v
            }
            _ => Vec::new(),
        }
    }
}

/// A function: defined when it has a body, otherwise an external declaration (resolved by name
/// to a modelled library function by the interpreters).
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub sig: Signature,
    pub body: Option<Body>,
    /// The line of the definition, 0 if unknown or external.
    pub line: u32,
    /// The source file of the definition as its debug information names it (relative to the
    /// directory it was compiled in, or absolute); empty if unknown or external.
    pub file: String,
}

impl Function {
    pub fn is_defined(&self) -> bool {
        self.body.is_some()
    }
}
