//! A [`Program`]: a module checked and prepared once, run any number of times.
//!
//! Preparing verifies the IR, finds `main`, lays out and initialises the globals (the
//! addresses are the same in every run), binds each declared function to its library model,
//! and builds for every defined function the initial register file of a frame, with its
//! constants and addresses already in place. A run then clones the initial memory and never
//! has to look at a value's definition again.

use super::config::RunConfig;
use super::memory::Memory;
use super::result::{Outcome, RunResult};
pub use crate::address::LoadError;
use crate::address::{func_addr, Entry, Image, Runtime};
use crate::error::Location;
use crate::libc::bindings::{self, Binding};
use cranelift_entity::EntityRef;
use penumbra_ir::{Module, ValueDef};

/// A module ready to run.
pub struct Program<'m> {
    pub(super) module: &'m Module,
    /// Where the program starts, and its `main`.
    pub(super) entry: Entry,
    /// Memory with the globals and runtime objects initialised.
    pub(super) memory: Memory<'m>,
    pub(super) runtime: Runtime,
    /// Per function: the initial registers of a frame (empty for declared functions).
    pub(super) registers: Vec<Box<[u128]>>,
    /// Per function: the library model of a declared function (its row of the binding table,
    /// if the table has one this interpreter runs).
    pub(super) bindings: Vec<Option<&'static Binding>>,
}

impl<'m> Program<'m> {
    /// Verifies and prepares `module`.
    pub fn new(module: &'m Module) -> Result<Program<'m>, LoadError> {
        let entry = Entry::of(module)?;
        let Image { space, runtime, global_addrs } = Image::lay_out(module, &mut ())?;
        let memory = Memory::new(module, space);
        let registers = module
            .funcs
            .iter()
            .map(|(_, f)| {
                let Some(body) = &f.body else {
                    return Box::default();
                };
                body.values
                    .values()
                    .map(|v| match v.def {
                        ValueDef::Const(c) => u128::from(c),
                        ValueDef::ConstF80 { hi, lo } => u128::from(hi) << 64 | u128::from(lo),
                        ValueDef::GlobalAddr(g) => u128::from(global_addrs[g.index()]),
                        ValueDef::FuncAddr(f) => u128::from(func_addr(f)),
                        ValueDef::Result(_) | ValueDef::Param(..) => 0,
                    })
                    .collect()
            })
            .collect();
        let bindings = module
            .funcs
            .values()
            .map(|f| bindings::bind(&f.name).filter(|b| !f.is_defined() && b.concrete.is_supported()))
            .collect();
        Ok(Program { module, entry, memory, runtime, registers, bindings })
    }

    pub fn module(&self) -> &'m Module {
        self.module
    }
}

/// Prepares and runs `module` once. A module that cannot be prepared (see [`LoadError`])
/// gives an [`Outcome::Unsupported`] naming the problem.
pub fn run(module: &Module, config: &RunConfig) -> RunResult {
    match Program::new(module) {
        Ok(program) => program.run(config),
        Err(e) => RunResult {
            stdout: Vec::new(),
            stderr: Vec::new(),
            outcome: Outcome::Unsupported { message: e.to_string(), location: Location::new("main", 0) },
            steps: 0,
            symbolics: Vec::new(),
            trace: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A prepared program can be shared by threads running it on different inputs.
    #[test]
    fn programs_and_results_are_send_and_sync() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Program<'static>>();
        shareable::<RunResult>();
        shareable::<LoadError>();
    }
}
