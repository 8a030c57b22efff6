//! [`Program`]: a module prepared once for symbolic execution.
//!
//! Preparing links penumbra's symbolic C library into the module ([`crate::symlibc`]), finds
//! `main`, lays out the globals and the runtime's objects exactly as the concrete interpreter
//! does (same order, sizes and alignments, hence the same addresses), binds every remaining
//! declared function to a native model, and builds for each defined function the *template* of
//! a frame: one [`TermId`] per SSA value with constants, global addresses and function
//! addresses already in place, so the hot loop never looks at a value's definition.

use crate::libc::ctype;
use crate::memory::{func_addr, Memory, ObjState, Origin, Region};
use crate::run_error::RunError;
use crate::symlibc::{self, Native};
use cranelift_entity::EntityRef;
use penumbra_ir::{verify_module, Func, GlobalInit, Module, RelocTarget, Type, ValueDef};
use penumbra_solver::{TermId, TermStore};
use std::rc::Rc;

/// glibc's `sizeof(FILE)` on x86-64, as the concrete interpreter allocates it.
const FILE_SIZE: u64 = 216;

/// Addresses of the runtime's objects.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Runtime {
    pub stdin: u64,
    pub stdout: u64,
    pub stderr: u64,
    pub errno: u64,
    /// What `__ctype_b_loc()`, `__ctype_toupper_loc()` and `__ctype_tolower_loc()` return.
    pub ctype_b: u64,
    pub ctype_toupper: u64,
    pub ctype_tolower: u64,
}

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
        verify_module(&module).map_err(|errors| {
            RunError::Load(format!("invalid IR: {}", errors.first().map(|e| e.to_string()).unwrap_or_default()))
        })?;
        let main = module
            .func_by_name("main")
            .filter(|&f| module.funcs[f].is_defined())
            .ok_or_else(|| RunError::Load("the program defines no 'main' function".into()))?;
        let main_params = match module.funcs[main].sig.params.as_slice() {
            [] => 0,
            [Type::I32, Type::I64] => 2,
            [Type::I32, Type::I64, Type::I64] => 3,
            other => {
                let types: Vec<String> = other.iter().map(|t| t.to_string()).collect();
                return Err(RunError::Load(format!(
                    "'main' has an unsupported signature ({}); expected int main(void), int main(int, char **) \
                     or int main(int, char **, char **)",
                    types.join(", ")
                )));
            }
        };
        let zero_byte = store.constant(8, 0);
        let (memory, runtime, global_addrs) = layout_globals(&module, store, zero_byte)?;
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

/// Lays out and initialises the globals in module order, then the runtime's objects (the
/// three `FILE` objects, `errno` and glibc's `<ctype.h>` tables), as the concrete
/// interpreter's start-up does.
fn layout_globals(
    module: &Module,
    store: &mut TermStore,
    zero: TermId,
) -> Result<(Memory, Runtime, Vec<u64>), RunError> {
    let mut mem = Memory::new();
    let mut ids = Vec::with_capacity(module.globals.len());
    for (g, data) in module.globals.iter() {
        let size = if data.init == GlobalInit::External { data.size.max(8) } else { data.size };
        let id = mem
            .allocate(Region::Global, size, u64::from(data.align), Origin::Global(g), zero)
            .ok_or_else(|| RunError::Load(format!("global '{}': {size} bytes do not fit in memory", data.name)))?;
        ids.push(id);
    }
    let mut runtime_object = |size: u64, what: &'static str| -> Result<u64, RunError> {
        let id = mem
            .allocate(Region::Global, size, 16, Origin::Runtime(what), zero)
            .ok_or_else(|| RunError::Load("the runtime's objects do not fit in memory".into()))?;
        Ok(mem.object(id).base)
    };
    let mut runtime = Runtime {
        stdin: runtime_object(FILE_SIZE, "stdin's FILE object")?,
        stdout: runtime_object(FILE_SIZE, "stdout's FILE object")?,
        stderr: runtime_object(FILE_SIZE, "stderr's FILE object")?,
        errno: runtime_object(4, "errno")?,
        ..Runtime::default()
    };
    runtime.ctype_b =
        ctype_table(&mut mem, store, 2, |c| u64::from(ctype::class_mask(c)), "the <ctype.h> class table")?;
    runtime.ctype_toupper =
        ctype_table(&mut mem, store, 4, |c| ctype::toupper(c) as u32 as u64, "the <ctype.h> toupper table")?;
    runtime.ctype_tolower =
        ctype_table(&mut mem, store, 4, |c| ctype::tolower(c) as u32 as u64, "the <ctype.h> tolower table")?;
    let addrs: Vec<u64> = ids.iter().map(|&id| mem.object(id).base).collect();
    let const_bytes = |store: &mut TermStore, bytes: &[u8]| -> Vec<TermId> {
        bytes.iter().map(|&b| store.constant(8, u64::from(b))).collect()
    };
    for ((_, data), &id) in module.globals.iter().zip(&ids) {
        let bad = |reason: String| RunError::Load(format!("global '{}' cannot be laid out: {reason}", data.name));
        match &data.init {
            GlobalInit::Zero => {}
            GlobalInit::Bytes { bytes, relocs } => {
                let size = mem.object(id).size as usize;
                if bytes.len() != size {
                    return Err(bad(format!("{} initial bytes for {size} bytes", bytes.len())));
                }
                let mut init = bytes.clone();
                for r in relocs {
                    let target = match r.target {
                        RelocTarget::Global(g) => addrs.get(g.index()).copied(),
                        RelocTarget::Func(f) => module.funcs.get(f).map(|_| func_addr(f)),
                    }
                    .ok_or_else(|| bad("relocation to an unknown target".to_string()))?;
                    let at = usize::try_from(r.offset).ok().filter(|&o| o <= size.saturating_sub(8));
                    let at = at.ok_or_else(|| bad(format!("relocation at offset {} out of range", r.offset)))?;
                    init[at..at + 8].copy_from_slice(&target.wrapping_add(r.addend as u64).to_le_bytes());
                }
                let terms = const_bytes(store, &init);
                mem.write_bytes(id, 0, &terms);
            }
            GlobalInit::External => {
                let file = match data.name.as_str() {
                    "stdin" => Some(runtime.stdin),
                    "stdout" => Some(runtime.stdout),
                    "stderr" => Some(runtime.stderr),
                    _ => None,
                };
                match file {
                    Some(file) => {
                        let terms = const_bytes(store, &file.to_le_bytes());
                        mem.write_bytes(id, 0, &terms);
                    }
                    None => mem.set_state(
                        id,
                        ObjState::Unsupported(Rc::from(format!("external global '{}' is not modelled", data.name))),
                    ),
                }
                continue;
            }
            GlobalInit::Unsupported(msg) => {
                let message = module.messages.get(*msg).cloned().unwrap_or_else(|| "unsupported initialiser".into());
                mem.set_state(id, ObjState::Unsupported(Rc::from(message)));
                continue;
            }
        }
        if data.constant {
            mem.set_state(id, ObjState::ReadOnly);
        }
    }
    Ok((mem, runtime, addrs))
}

/// One of glibc's `<ctype.h>` tables: `entry(c)` for `c` in `-128..=255`, `size`-byte entries,
/// read-only, and the read-only cell holding the address of entry 0 that `__ctype_*_loc()`
/// returns (the concrete interpreter's layout). Returns the cell's address.
fn ctype_table(
    mem: &mut Memory,
    store: &mut TermStore,
    size: usize,
    entry: impl Fn(i32) -> u64,
    what: &'static str,
) -> Result<u64, RunError> {
    let zero = store.constant(8, 0);
    let no_room = || RunError::Load("the runtime's objects do not fit in memory".into());
    let table = mem.allocate(Region::Global, 384 * size as u64, 16, Origin::Runtime(what), zero).ok_or_else(no_room)?;
    let bytes: Vec<TermId> = (-128..256)
        .flat_map(|c| entry(c).to_le_bytes().into_iter().take(size))
        .map(|b| store.constant(8, u64::from(b)))
        .collect();
    mem.write_bytes(table, 0, &bytes);
    mem.set_state(table, ObjState::ReadOnly);
    let entry0 = mem.object(table).base + 128 * size as u64;
    let cell = mem.allocate(Region::Global, 8, 16, Origin::Runtime(what), zero).ok_or_else(no_room)?;
    let bytes: Vec<TermId> = entry0.to_le_bytes().iter().map(|&b| store.constant(8, u64::from(b))).collect();
    mem.write_bytes(cell, 0, &bytes);
    mem.set_state(cell, ObjState::ReadOnly);
    Ok(mem.object(cell).base)
}
