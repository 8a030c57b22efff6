//! Process start-up: laying out and initialising the globals (once per program), and building
//! `main`'s `argc`, `argv` and `envp` (once per run).
//!
//! Globals are allocated in module order, then the runtime's objects: the three `FILE`
//! objects the `stdin`, `stdout` and `stderr` globals point to, `errno`, and glibc's
//! `<ctype.h>` tables (its `isalpha` and friends are macros reading them). Initial contents
//! come from each global's [`GlobalInit`]: bytes with relocations (8-byte little-endian
//! addresses), zeros, the known external globals, or a marker that makes any access end the
//! run as unsupported. Read-only globals are sealed last, so writing to a string literal is an
//! `invalid-pointer` error.

use super::machine::Runtime;
use super::memory::{func_addr, Memory, Origin, Region};
use super::program::LoadError;
use crate::libc::ctype;
use penumbra_ir::{GlobalInit, Module, RelocTarget};

/// glibc's `sizeof(FILE)` on x86-64; the objects' contents are never looked at.
const FILE_SIZE: u64 = 216;

/// Lays out and initialises the globals; returns the memory, the runtime's object addresses
/// and each global's address (indexed by global).
pub fn layout_globals(module: &Module) -> Result<(Memory<'_>, Runtime, Vec<u64>), LoadError> {
    let mut mem = Memory::new(module);
    let mut ids = Vec::with_capacity(module.globals.len());
    for (g, data) in module.globals.iter() {
        // An external global's size may be unknown to the frontend: give it at least a pointer.
        let size = if data.init == GlobalInit::External { data.size.max(8) } else { data.size };
        let id = mem.allocate(Region::Global, size, u64::from(data.align), Origin::Global(g)).ok_or_else(|| {
            LoadError::Global { name: data.name.clone(), reason: format!("{size} bytes do not fit in memory") }
        })?;
        ids.push(id);
    }
    let no_room = |what: &str| LoadError::NoRoom(what.to_string());
    let mut runtime_object = |size: u64, what: &'static str| {
        let id = mem.allocate(Region::Global, size, 16, Origin::Runtime(what)).ok_or_else(|| no_room(what))?;
        Ok::<u64, LoadError>(mem.object(id).base)
    };
    let mut runtime = Runtime {
        stdin: runtime_object(FILE_SIZE, "stdin's FILE object")?,
        stdout: runtime_object(FILE_SIZE, "stdout's FILE object")?,
        stderr: runtime_object(FILE_SIZE, "stderr's FILE object")?,
        errno: runtime_object(4, "errno")?,
        ..Runtime::default()
    };
    runtime.ctype_b = ctype_table(&mut mem, 2, |c| u64::from(ctype::class_mask(c)), "the <ctype.h> class table")
        .ok_or_else(|| no_room("the <ctype.h> tables"))?;
    runtime.ctype_toupper =
        ctype_table(&mut mem, 4, |c| ctype::toupper(c) as u32 as u64, "the <ctype.h> toupper table")
            .ok_or_else(|| no_room("the <ctype.h> tables"))?;
    runtime.ctype_tolower =
        ctype_table(&mut mem, 4, |c| ctype::tolower(c) as u32 as u64, "the <ctype.h> tolower table")
            .ok_or_else(|| no_room("the <ctype.h> tables"))?;
    let addrs: Vec<u64> = ids.iter().map(|&id| mem.object(id).base).collect();
    for ((_, data), &id) in module.globals.iter().zip(&ids) {
        let bad = |reason: String| LoadError::Global { name: data.name.clone(), reason };
        match &data.init {
            GlobalInit::Zero => {}
            GlobalInit::Bytes { bytes, relocs } => {
                let dst = mem.init_bytes(id);
                if bytes.len() != dst.len() {
                    return Err(bad(format!("{} initial bytes for {} bytes", bytes.len(), dst.len())));
                }
                dst.copy_from_slice(bytes);
                for r in relocs {
                    let target = match r.target {
                        RelocTarget::Global(g) => addrs.get(g.as_u32() as usize).copied(),
                        RelocTarget::Func(f) => module.funcs.get(f).map(|_| func_addr(f)),
                    }
                    .ok_or_else(|| bad("relocation to an unknown target".to_string()))?;
                    let at = usize::try_from(r.offset).ok().filter(|&o| o <= dst.len().saturating_sub(8));
                    let at = at.ok_or_else(|| bad(format!("relocation at offset {} out of range", r.offset)))?;
                    dst[at..at + 8].copy_from_slice(&target.wrapping_add(r.addend as u64).to_le_bytes());
                }
            }
            GlobalInit::External => {
                let file = match data.name.as_str() {
                    "stdin" => Some(runtime.stdin),
                    "stdout" => Some(runtime.stdout),
                    "stderr" => Some(runtime.stderr),
                    _ => None,
                };
                match file {
                    Some(file) => mem.init_bytes(id)[..8].copy_from_slice(&file.to_le_bytes()),
                    None => mem.set_unsupported(id, format!("external global '{}' is not modelled", data.name)),
                }
                continue;
            }
            GlobalInit::Unsupported(msg) => {
                let message = module.messages.get(*msg).cloned().unwrap_or_else(|| "unsupported initialiser".into());
                mem.set_unsupported(id, message);
                continue;
            }
        }
        if data.constant {
            mem.set_read_only(id);
        }
    }
    Ok((mem, runtime, addrs))
}

/// One of glibc's `<ctype.h>` tables: `entry(c)` for `c` in `-128..=255`, `size`-byte entries,
/// read-only, and the read-only cell holding the address of entry 0 that `__ctype_*_loc()`
/// returns. Returns the cell's address, or `None` if there is no room.
fn ctype_table(mem: &mut Memory<'_>, size: usize, entry: impl Fn(i32) -> u64, what: &'static str) -> Option<u64> {
    let table = mem.allocate(Region::Global, 384 * size as u64, 16, Origin::Runtime(what))?;
    for (slot, c) in mem.init_bytes(table).chunks_exact_mut(size).zip(-128..256) {
        slot.copy_from_slice(&entry(c).to_le_bytes()[..size]);
    }
    mem.set_read_only(table);
    let zero = mem.object(table).base + 128 * size as u64;
    let cell = mem.allocate(Region::Global, 8, 16, Origin::Runtime(what))?;
    mem.init_bytes(cell).copy_from_slice(&zero.to_le_bytes());
    mem.set_read_only(cell);
    Some(mem.object(cell).base)
}

/// Builds `main`'s arguments (`params` of `argc, argv, envp`): each argument string and the
/// NULL-terminated `argv` and `envp` arrays are objects after the globals. `None` if they do
/// not fit in memory.
pub fn main_args(mem: &mut Memory<'_>, args: &[String], params: usize) -> Option<Vec<u64>> {
    if params == 0 {
        return Some(Vec::new());
    }
    let mut pointers = Vec::with_capacity(args.len() + 1);
    for (i, arg) in args.iter().enumerate() {
        let id = mem.allocate(Region::Global, arg.len() as u64 + 1, 16, Origin::Arg(i as u32))?;
        mem.init_bytes(id)[..arg.len()].copy_from_slice(arg.as_bytes());
        pointers.push(mem.object(id).base);
    }
    pointers.push(0);
    let argv = mem.allocate(Region::Global, 8 * pointers.len() as u64, 16, Origin::Runtime("the argv array"))?;
    for (slot, p) in mem.init_bytes(argv).chunks_exact_mut(8).zip(&pointers) {
        slot.copy_from_slice(&p.to_le_bytes());
    }
    let mut values = vec![args.len() as u64 & 0xffff_ffff, mem.object(argv).base];
    if params == 3 {
        let envp = mem.allocate(Region::Global, 8, 16, Origin::Runtime("the envp array"))?;
        values.push(mem.object(envp).base);
    }
    Some(values)
}
