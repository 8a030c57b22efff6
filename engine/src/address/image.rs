//! The process image at start-up, the same for both interpreters: checking that a module can
//! run at all ([`Entry`]), laying out and initialising its globals and the runtime's objects
//! ([`Image`], once per program), and `main`'s `argc`, `argv` and `envp` ([`lay_out_argv`], once
//! per run or initial state).
//!
//! Globals are allocated in module order, then the runtime's objects: the three `FILE`
//! objects the `stdin`, `stdout` and `stderr` globals point to, `errno`, and glibc's
//! `<ctype.h>` tables (its `isalpha` and friends are macros reading them). Initial contents
//! come from each global's [`GlobalInit`]: bytes with relocations (8-byte little-endian
//! addresses), zeros, the known external globals, or a marker that makes any access end the
//! path as unsupported. Read-only globals are sealed last, so writing to a string literal is an
//! `invalid-pointer` error.

use super::layout::{func_addr, Segment};
use super::space::{AddressSpace, Contents, ObjState, ObjectId, Origin};
use crate::libc::ctype;
use crate::libc::stdio::Stream;
use cranelift_entity::EntityRef;
use penumbra_ir::{verify_module, Func, GlobalInit, Module, RelocTarget, Type, VerifierError};

/// glibc's `sizeof(FILE)` on x86-64; the objects' contents are never looked at.
const FILE_SIZE: u64 = 216;

/// Why a module cannot be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    #[error("invalid IR: {}", first_error(.0))]
    InvalidIr(Vec<VerifierError>),
    #[error("the program defines no 'main' function")]
    NoMain,
    #[error(
        "'main' has an unsupported signature ({0}); expected int main(void), \
         int main(int, char **) or int main(int, char **, char **)"
    )]
    MainSignature(String),
    #[error("global '{name}' cannot be laid out: {reason}")]
    Global { name: String, reason: String },
    /// The globals use up the memory budget the runtime's own objects need too.
    #[error("the globals leave no room for {0}")]
    NoRoom(String),
}

fn first_error(errors: &[VerifierError]) -> String {
    match errors {
        [] => "no details".to_string(),
        [one] => one.to_string(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}

/// The start of a program linked with musl, entered in place of `main`.
pub const LIBC_START: &str = "__penumbra_libc_start";

/// Where a verified module starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `main`, or the C library's start where the program has one ([`LIBC_START`]).
    pub main: Func,
    /// How many of `argc, argv, envp` `main` takes (0, 2 or 3).
    pub main_params: usize,
    /// The program's own `main` (the same as `main` without a C library's start).
    pub program_main: Func,
}

impl Entry {
    /// Verifies `module` and finds its `main`.
    pub fn of(module: &Module) -> Result<Entry, LoadError> {
        verify_module(module).map_err(LoadError::InvalidIr)?;
        let main = module.func_by_name("main").filter(|&f| module.funcs[f].is_defined()).ok_or(LoadError::NoMain)?;
        let main_params = match module.funcs[main].sig.params.as_slice() {
            [] => 0,
            [Type::I32, Type::I64] => 2,
            [Type::I32, Type::I64, Type::I64] => 3,
            other => {
                let types: Vec<String> = other.iter().map(|t| t.to_string()).collect();
                return Err(LoadError::MainSignature(types.join(", ")));
            }
        };
        // A program linked with musl starts in its start glue (runtime/musl/penumbra_start.c),
        // which sets up the library, calls main and exits through `exit`.
        let libc_start = module.func_by_name(LIBC_START).filter(|&f| module.funcs[f].is_defined());
        if let Some(start) = libc_start {
            if module.funcs[start].sig.params != [Type::I32, Type::I64, Type::I64] {
                return Err(LoadError::MainSignature(format!("{LIBC_START} must take argc, argv and envp")));
            }
            return Ok(Entry { main: start, main_params: 3, program_main: main });
        }
        Ok(Entry { main, main_params, program_main: main })
    }

    /// Whether a return from `func` running in the `depth`-th frame (while the program runs
    /// `main`, not a constructor or an exit handler) is the program's `main` returning its
    /// exit status: the bottom frame, or under a C library's start the frame it calls `main`
    /// in. The status is output there, whatever the C library then does with it.
    pub fn returns_from_main(&self, depth: usize, func: Func) -> bool {
        let main_depth = if self.main == self.program_main { 1 } else { 2 };
        depth == main_depth && func == self.program_main
    }
}

/// Addresses of the runtime's objects, the same in every run of a program.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Runtime {
    /// The `FILE` objects `stdin`, `stdout` and `stderr` point to.
    pub stdin: u64,
    pub stdout: u64,
    pub stderr: u64,
    /// The `int` `__errno_location()` returns.
    pub errno: u64,
    /// What `__ctype_b_loc()`, `__ctype_toupper_loc()` and `__ctype_tolower_loc()` return:
    /// read-only cells pointing at entry 0 of glibc's tables (indexable from -128 to 255).
    pub ctype_b: u64,
    pub ctype_toupper: u64,
    pub ctype_tolower: u64,
}

impl Runtime {
    /// The standard stream the `FILE *` `file` designates; other streams (from `fopen`, say)
    /// are not modelled: the unsupported-construct message.
    pub fn stream(&self, file: u64) -> Result<Stream, String> {
        match file {
            f if f == self.stdout => Ok(Stream::Stdout),
            f if f == self.stderr => Ok(Stream::Stderr),
            f if f == self.stdin => Ok(Stream::Stdin),
            _ => Err(format!("I/O on a stream other than stdin, stdout or stderr ({file:#x})")),
        }
    }
}

/// Memory with the globals and the runtime's objects laid out and initialised.
#[derive(Clone, Debug)]
pub struct Image<C> {
    pub space: AddressSpace<C>,
    pub runtime: Runtime,
    /// Each global's address, indexed by global.
    pub global_addrs: Vec<u64>,
}

impl<C: Contents> Image<C> {
    /// Lays out and initialises the globals of `module`, then the runtime's objects.
    pub fn lay_out(module: &Module, maker: &mut C::Maker) -> Result<Image<C>, LoadError> {
        let mut space = AddressSpace::new();
        let mut ids = Vec::with_capacity(module.globals.len());
        for (g, data) in module.globals.iter() {
            // An external global's size may be unknown to the frontend: give it at least a pointer.
            let size = if data.init == GlobalInit::External { data.size.max(8) } else { data.size };
            let id = space
                .allocate(Segment::Global, size, u64::from(data.align), Origin::Global(g), |n| C::zeroed(maker, n))
                .ok_or_else(|| LoadError::Global {
                    name: data.name.clone(),
                    reason: format!("{size} bytes do not fit in memory"),
                })?;
            ids.push(id);
        }
        let no_room = |what: &str| LoadError::NoRoom(what.to_string());
        let runtime_object = |space: &mut AddressSpace<C>, maker: &mut C::Maker, size: u64, what: &'static str| {
            let id = space
                .allocate(Segment::Global, size, 16, Origin::Runtime(what), |n| C::zeroed(maker, n))
                .ok_or_else(|| no_room(what))?;
            Ok::<u64, LoadError>(space.object(id).base)
        };
        let mut runtime = Runtime {
            stdin: runtime_object(&mut space, maker, FILE_SIZE, "stdin's FILE object")?,
            stdout: runtime_object(&mut space, maker, FILE_SIZE, "stdout's FILE object")?,
            stderr: runtime_object(&mut space, maker, FILE_SIZE, "stderr's FILE object")?,
            errno: runtime_object(&mut space, maker, 4, "errno")?,
            ..Runtime::default()
        };
        let tables = || no_room("the <ctype.h> tables");
        let class = |c| u64::from(ctype::class_mask(c));
        runtime.ctype_b = ctype_table(&mut space, maker, 2, class, "the <ctype.h> class table").ok_or_else(tables)?;
        let upper = |c| ctype::toupper(c) as u32 as u64;
        runtime.ctype_toupper =
            ctype_table(&mut space, maker, 4, upper, "the <ctype.h> toupper table").ok_or_else(tables)?;
        let lower = |c| ctype::tolower(c) as u32 as u64;
        runtime.ctype_tolower =
            ctype_table(&mut space, maker, 4, lower, "the <ctype.h> tolower table").ok_or_else(tables)?;
        let global_addrs: Vec<u64> = ids.iter().map(|&id| space.object(id).base).collect();
        for ((_, data), &id) in module.globals.iter().zip(&ids) {
            let bad = |reason: String| LoadError::Global { name: data.name.clone(), reason };
            match &data.init {
                GlobalInit::Zero => {}
                GlobalInit::Bytes { bytes, relocs } => {
                    let size = space.object(id).size as usize;
                    if bytes.len() != size {
                        return Err(bad(format!("{} initial bytes for {size} bytes", bytes.len())));
                    }
                    let mut init = bytes.clone();
                    for r in relocs {
                        let target = match r.target {
                            RelocTarget::Global(g) => global_addrs.get(g.index()).copied(),
                            RelocTarget::Func(f) => module.funcs.get(f).map(|_| func_addr(f)),
                        }
                        .ok_or_else(|| bad("relocation to an unknown target".to_string()))?;
                        let at = usize::try_from(r.offset).ok().filter(|&o| o <= size.saturating_sub(8));
                        let at = at.ok_or_else(|| bad(format!("relocation at offset {} out of range", r.offset)))?;
                        init[at..at + 8].copy_from_slice(&target.wrapping_add(r.addend as u64).to_le_bytes());
                    }
                    write(&mut space, maker, id, &init);
                }
                GlobalInit::External => {
                    let file = match data.name.as_str() {
                        "stdin" => Some(runtime.stdin),
                        "stdout" => Some(runtime.stdout),
                        "stderr" => Some(runtime.stderr),
                        _ => None,
                    };
                    match file {
                        Some(file) => write(&mut space, maker, id, &file.to_le_bytes()),
                        None => {
                            let message = format!("external global '{}' is not modelled", data.name);
                            space.set_unsupported(id, &message);
                        }
                    }
                    continue;
                }
                GlobalInit::Unsupported(msg) => {
                    let message = module.messages.get(*msg).map_or("unsupported initialiser", String::as_str);
                    space.set_unsupported(id, message);
                    continue;
                }
            }
            if data.constant {
                space.set_state(id, ObjState::ReadOnly);
            }
        }
        Ok(Image { space, runtime, global_addrs })
    }
}

/// Writes `bytes` at the start of object `id`.
fn write<C: Contents>(space: &mut AddressSpace<C>, maker: &mut C::Maker, id: ObjectId, bytes: &[u8]) {
    space.object_mut(id).contents.write_concrete(maker, 0, bytes);
}

/// One of glibc's `<ctype.h>` tables: `entry(c)` for `c` in `-128..=255`, `size`-byte entries,
/// read-only, and the read-only cell holding the address of entry 0 that `__ctype_*_loc()`
/// returns. Returns the cell's address, or `None` if there is no room.
fn ctype_table<C: Contents>(
    space: &mut AddressSpace<C>,
    maker: &mut C::Maker,
    size: usize,
    entry: impl Fn(i32) -> u64,
    what: &'static str,
) -> Option<u64> {
    let table =
        space.allocate(Segment::Global, 384 * size as u64, 16, Origin::Runtime(what), |n| C::zeroed(maker, n))?;
    let bytes: Vec<u8> = (-128..256).flat_map(|c| entry(c).to_le_bytes().into_iter().take(size)).collect();
    write(space, maker, table, &bytes);
    space.set_state(table, ObjState::ReadOnly);
    let entry0 = space.object(table).base + 128 * size as u64;
    let cell = space.allocate(Segment::Global, 8, 16, Origin::Runtime(what), |n| C::zeroed(maker, n))?;
    write(space, maker, cell, &entry0.to_le_bytes());
    space.set_state(cell, ObjState::ReadOnly);
    Some(space.object(cell).base)
}

/// `main`'s arguments in memory: one object per argument string (zeroed, for the caller to
/// fill: the symbolic engine's may hold symbolic bytes), the NULL-terminated `argv` array of
/// pointers to them, and an empty `envp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Argv {
    /// The string objects, in order.
    pub strings: Vec<ObjectId>,
    /// `main`'s `argc`, `argv` and `envp` (as many as it takes).
    pub values: Vec<u64>,
}

/// Lays out `main`'s arguments for strings of `sizes` bytes (NUL included) when `main` takes
/// `params` of `argc, argv, envp`; `None` if they do not fit in memory.
pub fn lay_out_argv<C: Contents>(
    space: &mut AddressSpace<C>,
    maker: &mut C::Maker,
    sizes: &[u64],
    env: &[String],
    params: usize,
) -> Option<Argv> {
    if params == 0 {
        return Some(Argv { strings: Vec::new(), values: Vec::new() });
    }
    let mut strings = Vec::with_capacity(sizes.len());
    for (i, &size) in sizes.iter().enumerate() {
        strings.push(space.allocate(Segment::Global, size, 16, Origin::Arg(i as u32), |n| C::zeroed(maker, n))?);
    }
    let mut pointers: Vec<u8> = strings.iter().flat_map(|&id| space.object(id).base.to_le_bytes()).collect();
    pointers.extend(0u64.to_le_bytes());
    let argv = space.allocate(Segment::Global, pointers.len() as u64, 16, Origin::Runtime("the argv array"), |n| {
        C::zeroed(maker, n)
    })?;
    write(space, maker, argv, &pointers);
    let mut values = vec![sizes.len() as u64 & 0xffff_ffff, space.object(argv).base];
    if params == 3 {
        // `NAME=VALUE` strings, then the NULL-terminated array of them.
        let mut pointers = Vec::with_capacity(8 * (env.len() + 1));
        for var in env {
            let mut bytes = var.as_bytes().to_vec();
            bytes.push(0);
            let id = space.allocate(
                Segment::Global,
                bytes.len() as u64,
                16,
                Origin::Runtime("an environment string"),
                |n| C::zeroed(maker, n),
            )?;
            write(space, maker, id, &bytes);
            pointers.extend(space.object(id).base.to_le_bytes());
        }
        pointers.extend(0u64.to_le_bytes());
        let envp =
            space.allocate(Segment::Global, pointers.len() as u64, 16, Origin::Runtime("the envp array"), |n| {
                C::zeroed(maker, n)
            })?;
        write(space, maker, envp, &pointers);
        values.push(space.object(envp).base);
    }
    Some(Argv { strings, values })
}
