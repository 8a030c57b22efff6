//! [`Program`]: a module prepared once for symbolic execution.
//!
//! Preparing links penumbra's symbolic C library into the module ([`super::libc`]), finds
//! `main`, lays out the globals and the runtime's objects exactly as the concrete interpreter
//! does (same order, sizes and alignments, hence the same addresses), binds every remaining
//! declared function to a native model, and builds for each defined function the *template* of
//! a frame: one [`TermId`] per SSA value with constants, global addresses and function
//! addresses already in place, so the hot loop never looks at a value's definition. Functions
//! with `penumbra_execute` blocks get their post-dominator tree, where a block's sides meet.

use super::libc;
use super::memory::Memory;
use super::value::Val;
use crate::address::{func_addr, Entry, Image, Runtime};
use crate::libc::bindings::{self, Binding};
use crate::run_error::RunError;
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntityRef, SecondaryMap};
use penumbra_ir::{returning_post_dominators, Block, Func, InstData, Module, ValueDef};
use penumbra_solver::{TermId, TermStore};
use std::rc::Rc;

/// The immediate post-dominator of each block of a function.
pub type PostDoms = SecondaryMap<Block, PackedOption<Block>>;

/// How a call of a function is executed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FuncKind {
    /// A function with a body (the program's or the symbolic C library's).
    Defined,
    /// A native model in the engine: its row of the binding table.
    Native(&'static Binding),
    /// A declared function penumbra does not model: calling it ends the path as unsupported.
    Unknown,
}

/// Per function: how to call it and the template of its frames.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    pub kind: FuncKind,
    /// One term per SSA value (constants and addresses set; results and parameters 0).
    pub template: Rc<[Val]>,
    /// Part of penumbra's C library or of the one linked in as code (musl): errors inside it
    /// are reported at the line of the program's call.
    pub internal: bool,
    /// The post-dominators over the returning paths (where execute blocks join) of a function
    /// with `penumbra_execute` blocks.
    pub post_dominators: Option<PostDoms>,
}

/// A module ready for symbolic execution.
pub struct Program {
    /// The module with the symbolic C library linked in.
    pub module: Module,
    /// Where the program starts, and its `main`.
    pub entry: Entry,
    pub funcs: Vec<FuncInfo>,
    /// Memory with the globals and runtime objects initialised.
    pub memory: Memory,
    pub runtime: Runtime,
    /// The zero byte, shared by fresh objects.
    pub zero_byte: TermId,
    /// The 256 byte constants, by value (a concrete store writes these without hashing).
    pub byte_consts: Box<[TermId]>,
}

impl Program {
    /// Links the symbolic C library into `module` and prepares it.
    pub fn new(module: &Module, store: &mut TermStore) -> Result<Program, RunError> {
        let (module, internal) = libc::link::link(module)?;
        let entry = Entry::of(&module).map_err(|e| RunError::Load(e.to_string()))?;
        let byte_consts: Box<[TermId]> = (0..=255).map(|b| store.constant(8, b)).collect();
        let zero_byte = byte_consts[0];
        let Image { space, runtime, global_addrs } =
            Image::lay_out(&module, store).map_err(|e| RunError::Load(e.to_string()))?;
        let memory = Memory::new(space);
        let funcs = module
            .funcs
            .iter()
            .map(|(f, func)| {
                let kind = match &func.body {
                    Some(_) => FuncKind::Defined,
                    None => bindings::bind(&func.name)
                        .filter(|b| b.symbolic == bindings::Support::Native)
                        .map_or(FuncKind::Unknown, FuncKind::Native),
                };
                let template: Rc<[Val]> = match &func.body {
                    None => Rc::from([]),
                    Some(body) => body
                        .values
                        .values()
                        .map(|v| {
                            let bits = match v.def {
                                ValueDef::Const(c) => u128::from(c),
                                ValueDef::ConstF80 { hi, lo } => u128::from(hi) << 64 | u128::from(lo),
                                ValueDef::GlobalAddr(g) => u128::from(global_addrs[g.index()]),
                                ValueDef::FuncAddr(f) => u128::from(func_addr(f)),
                                ValueDef::Result(_) | ValueDef::Param(..) => 0,
                            };
                            Val::wide(store, v.ty.bits() as u8, bits)
                        })
                        .collect(),
                };
                let has_execute =
                    func.body.as_ref().is_some_and(|b| b.insts.values().any(|i| matches!(i, InstData::Execute { .. })));
                let post_dominators = func.body.as_ref().filter(|_| has_execute).map(returning_post_dominators);
                FuncInfo { kind, template, internal: internal.contains(&f) || module.is_library(f), post_dominators }
            })
            .collect();
        Ok(Program { module, entry, funcs, memory, runtime, zero_byte, byte_consts })
    }

    pub fn info(&self, f: Func) -> &FuncInfo {
        &self.funcs[f.index()]
    }

    /// The post-dominators of `f` over its returning paths (where execute blocks join), if it has
    /// `penumbra_execute` blocks.
    pub fn post_dominators(&self, f: Func) -> Option<&PostDoms> {
        self.info(f).post_dominators.as_ref()
    }
}
