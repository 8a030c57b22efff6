//! [`Program`]: a module prepared once for symbolic execution.
//!
//! Preparing links penumbra's symbolic C library into the module ([`crate::symlibc`]), finds
//! `main`, lays out the globals and the runtime's objects exactly as the concrete interpreter
//! does (same order, sizes and alignments, hence the same addresses), binds every remaining
//! declared function to a native model, and builds for each defined function the *template* of
//! a frame: one [`TermId`] per SSA value with constants, global addresses and function
//! addresses already in place, so the hot loop never looks at a value's definition.

use crate::address::{func_addr, Entry, Image};
pub use crate::address::Runtime;
use crate::memory::Memory;
use crate::run_error::RunError;
use crate::symlibc::{self, Native};
use cranelift_entity::EntityRef;
use penumbra_ir::{Func, Module, ValueDef};
use penumbra_solver::{TermId, TermStore};

/// How a call of a function is executed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FuncKind {
    /// A function with a body (the program's or the symbolic C library's).
    Defined,
    /// A native model in the engine.
    Native(Native),
    /// A declared function penumbra does not model: calling it ends the path as unsupported.
    Unknown,
}

/// Per function: how to call it and the template of its frames.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    pub kind: FuncKind,
    /// One term per SSA value (constants and addresses set; results and parameters 0).
    pub template: Vec<TermId>,
    /// Part of penumbra's C library: errors inside it are reported at the caller's line.
    pub internal: bool,
}

/// A module ready for symbolic execution.
pub struct Program {
    /// The module with the symbolic C library linked in.
    pub module: Module,
    pub main: Func,
    /// How many of `argc, argv, envp` `main` takes (0, 2 or 3).
    pub main_params: usize,
    pub funcs: Vec<FuncInfo>,
    /// Memory with the globals and runtime objects initialised.
    pub memory: Memory,
    pub runtime: Runtime,
    /// The zero byte, shared by fresh objects.
    pub zero_byte: TermId,
}

impl Program {
    /// Links the symbolic C library into `module` and prepares it.
    pub fn new(module: &Module, store: &mut TermStore) -> Result<Program, RunError> {
        let (module, internal) = symlibc::link(module)?;
        let Entry { main, main_params } = Entry::of(&module).map_err(|e| RunError::Load(e.to_string()))?;
        let zero_byte = store.constant(8, 0);
        let Image { space, runtime, global_addrs } =
            Image::lay_out(&module, store).map_err(|e| RunError::Load(e.to_string()))?;
        let memory = Memory::new(space);
        let funcs = module
            .funcs
            .iter()
            .map(|(f, func)| {
                let kind = match &func.body {
                    Some(_) => FuncKind::Defined,
                    None => symlibc::bind(&func.name).map_or(FuncKind::Unknown, FuncKind::Native),
                };
                let template = match &func.body {
                    None => Vec::new(),
                    Some(body) => body
                        .values
                        .values()
                        .map(|v| {
                            let w = v.ty.bits() as u8;
                            match v.def {
                                ValueDef::Const(c) => store.constant(w, c),
                                ValueDef::GlobalAddr(g) => store.constant(w, global_addrs[g.index()]),
                                ValueDef::FuncAddr(f) => store.constant(w, func_addr(f)),
                                ValueDef::Result(_) | ValueDef::Param(..) => store.constant(w, 0),
                            }
                        })
                        .collect(),
                };
                FuncInfo { kind, template, internal: internal.contains(&f) }
            })
            .collect();
        Ok(Program { module, main, main_params, funcs, memory, runtime, zero_byte })
    }

    pub fn info(&self, f: Func) -> &FuncInfo {
        &self.funcs[f.index()]
    }
}
