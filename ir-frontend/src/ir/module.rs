//! A module: the functions and globals of one C program, plus the messages describing
//! unsupported constructs and the source file the program came from.

use super::entities::{Func, Global, Msg};
use super::function::Function;
use cranelift_entity::PrimaryMap;
use rustc_hash::FxHashMap;

/// What a pointer-sized slot of a global's initial contents points at.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RelocTarget {
    Global(Global),
    Func(Func),
}

/// An 8-byte little-endian address written into a global's initial bytes at `offset`:
/// the address of `target` plus `addend`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reloc {
    pub offset: u64,
    pub target: RelocTarget,
    pub addend: i64,
}

/// A global's initial contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalInit {
    /// All bytes zero.
    Zero,
    /// `bytes.len() == size`; each reloc overwrites 8 bytes with an address.
    Bytes { bytes: Vec<u8>, relocs: Vec<Reloc> },
    /// Defined outside the program (e.g. `stdout`); the interpreters model the ones they know.
    External,
    /// An initialiser penumbra cannot evaluate; a path that touches the global ends as
    /// unsupported with this message.
    Unsupported(Msg),
}

/// A global variable or constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalData {
    pub name: String,
    pub size: u64,
    pub align: u32,
    /// Read-only (string literals, `const` globals).
    pub constant: bool,
    pub init: GlobalInit,
}

/// One program in IR form.
#[derive(Clone, Debug, Default)]
pub struct Module {
    pub funcs: PrimaryMap<Func, Function>,
    pub globals: PrimaryMap<Global, GlobalData>,
    pub messages: PrimaryMap<Msg, String>,
    /// The main source file name, for diagnostics.
    pub source_file: String,
    /// Constructors, in the order they run before `main`.
    pub ctors: Vec<Func>,
    /// Destructors, in the order they run at exit (after the `atexit` handlers).
    pub dtors: Vec<Func>,
    /// Where the C library linked in as code keeps its sources (`--libc musl`): the functions
    /// defined in files under it are the library's ([`Module::is_library`]).
    pub library_dir: Option<String>,
    func_names: FxHashMap<String, Func>,
    global_names: FxHashMap<String, Global>,
}

impl Module {
    pub fn new(source_file: impl Into<String>) -> Self {
        Module { source_file: source_file.into(), ..Default::default() }
    }

    /// Adds a function; names are unique (the second of two functions with one name replaces
    /// the lookup entry, which the frontend never does).
    pub fn add_func(&mut self, func: Function) -> Func {
        let name = func.name.clone();
        let id = self.funcs.push(func);
        self.func_names.insert(name, id);
        id
    }

    /// Whether `f` is the C library's (see [`Module::library_dir`]): errors and divergences
    /// inside it are reported at the program's call.
    pub fn is_library(&self, f: Func) -> bool {
        self.library_dir.as_deref().is_some_and(|dir| self.funcs[f].file.starts_with(dir))
    }

    pub fn add_global(&mut self, global: GlobalData) -> Global {
        let name = global.name.clone();
        let id = self.globals.push(global);
        self.global_names.insert(name, id);
        id
    }

    pub fn add_message(&mut self, message: impl Into<String>) -> Msg {
        self.messages.push(message.into())
    }

    pub fn func_by_name(&self, name: &str) -> Option<Func> {
        self.func_names.get(name).copied()
    }

    pub fn global_by_name(&self, name: &str) -> Option<Global> {
        self.global_names.get(name).copied()
    }
}
