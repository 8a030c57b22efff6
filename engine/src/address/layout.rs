//! The fixed layout of the 64-bit address space, the same for both interpreters:
//!
//! | range                                  | contents                                        |
//! |----------------------------------------|-------------------------------------------------|
//! | `0 .. 0x1000`                          | the null page: any access is a null dereference |
//! | `0x1000 .. 0x1000_0000`                | function addresses, 16 apart (no data)          |
//! | `0x1000_0000 .. 0x10_0000_0000`        | globals, then argv and the runtime's objects    |
//! | `0x10_0000_0000 .. 0x7f00_0000_0000`   | heap (`malloc`, `calloc`, `realloc`)            |
//! | `0x7f00_0000_0000 .. 0x7fff_0000_0000` | stack objects (`alloca`)                        |
//!
//! Each data [`Segment`] is a bump allocator; the budgets below bound what a run may hold.

use cranelift_entity::EntityRef;
use penumbra_ir::Func;

/// Addresses below this are the null page.
pub const NULL_PAGE_END: u64 = 0x1000;
/// The first function address; function `i` is at `FUNC_BASE + 16 * i`.
pub const FUNC_BASE: u64 = 0x1000;
const FUNC_STRIDE: u64 = 16;
pub const GLOBAL_BASE: u64 = 0x1000_0000;
pub const HEAP_BASE: u64 = 0x10_0000_0000;
pub const STACK_BASE: u64 = 0x7f00_0000_0000;
pub const STACK_END: u64 = 0x7fff_0000_0000;
/// The minimum gap between two objects of a segment (and before the first).
pub const REDZONE: u64 = 32;
/// The largest alignment an object may ask for (`aligned_alloc` beyond it returns NULL).
pub const MAX_ALIGN: u64 = 1 << 16;
/// The largest live heap total `malloc` grants; requests beyond it return NULL.
pub const MAX_HEAP_BYTES: u64 = 1 << 30;
/// The most bytes all globals, `argv` and the runtime's objects may take together (each run
/// copies them); a program with more cannot be loaded.
pub const MAX_GLOBAL_BYTES: u64 = 256 << 20;
/// The most live stack bytes (all frames); beyond that an `alloca` is a stack overflow.
pub const MAX_STACK_BYTES: u64 = 256 << 20;

/// The stack a program may use: the native default (`ulimit -s`, 8 MiB).
pub const STACK_LIMIT: u64 = 8 << 20;
/// What a frame costs on the stack besides its stack objects: a return address and a saved
/// frame pointer, as on x86-64.
pub const FRAME_BYTES: u64 = 16;

/// The stack check both interpreters make before a call (`adding` is [`FRAME_BYTES`]) or a
/// stack object (`adding` is its size), with `frames` frames whose live stack objects hold
/// `locals` bytes: `Err` is the stack-overflow message, about `what` is added.
pub fn check_stack(
    frames: usize,
    locals: u64,
    adding: u64,
    limit: u64,
    what: impl FnOnce() -> String,
) -> Result<(), String> {
    let used = frames as u64 * FRAME_BYTES + locals;
    if used.saturating_add(adding) <= limit {
        return Ok(());
    }
    let s = if frames == 1 { "" } else { "s" };
    Err(format!(
        "{} exceeds the stack limit of {} ({frames} frame{s} use {})",
        what(),
        bytes_text(limit),
        bytes_text(used)
    ))
}

/// The bytes a new stack object may still take: what [`check_stack`] allows.
pub fn stack_room(frames: usize, locals: u64, limit: u64) -> u64 {
    limit.saturating_sub(frames as u64 * FRAME_BYTES + locals)
}

/// `memcpy(dst, src, n)`'s overlap check, as AddressSanitizer makes it: the ranges may not
/// overlap unless they are the same. `Some` is the error message.
pub fn memcpy_overlap(dst: u64, src: u64, n: u64) -> Option<String> {
    let overlaps = dst != src && (dst.wrapping_sub(src) < n || src.wrapping_sub(dst) < n);
    overlaps.then(|| memcpy_overlap_message(n))
}

/// The message of an overlapping `memcpy` of `n` bytes.
pub fn memcpy_overlap_message(n: u64) -> String {
    format!("memcpy of {} between overlapping ranges", bytes_text(n))
}

/// The address of function `func`.
pub fn func_addr(func: Func) -> u64 {
    FUNC_BASE + FUNC_STRIDE * func.index() as u64
}

/// The function at `addr`, if `addr` is exactly a function address of a module with
/// `num_funcs` functions.
pub fn func_at(addr: u64, num_funcs: usize) -> Option<Func> {
    let rel = addr.checked_sub(FUNC_BASE)?;
    if rel % FUNC_STRIDE != 0 || rel / FUNC_STRIDE >= num_funcs as u64 || addr >= GLOBAL_BASE {
        return None;
    }
    Some(Func::new((rel / FUNC_STRIDE) as usize))
}

/// Which bump allocator an object comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Global,
    Heap,
    Stack,
}

impl Segment {
    pub(super) fn index(self) -> usize {
        self as usize
    }

    pub(super) fn start(self) -> u64 {
        match self {
            Segment::Global => GLOBAL_BASE,
            Segment::Heap => HEAP_BASE,
            Segment::Stack => STACK_BASE,
        }
    }

    pub(super) fn end(self) -> u64 {
        match self {
            Segment::Global => HEAP_BASE,
            Segment::Heap => STACK_BASE,
            Segment::Stack => STACK_END,
        }
    }

    /// The most bytes the segment's live objects may hold together.
    pub(super) fn budget(self) -> u64 {
        match self {
            Segment::Global => MAX_GLOBAL_BYTES,
            Segment::Heap => MAX_HEAP_BYTES,
            Segment::Stack => MAX_STACK_BYTES,
        }
    }

    pub(super) fn of(addr: u64) -> Option<Segment> {
        match addr {
            GLOBAL_BASE..HEAP_BASE => Some(Segment::Global),
            HEAP_BASE..STACK_BASE => Some(Segment::Heap),
            STACK_BASE..STACK_END => Some(Segment::Stack),
            _ => None,
        }
    }
}

/// "1 byte", "4 bytes".
pub fn bytes_text(n: u64) -> String {
    if n == 1 {
        "1 byte".to_string()
    } else {
        format!("{n} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_addresses_round_trip() {
        let f = Func::from_u32(5);
        assert_eq!(func_at(func_addr(f), 6), Some(f));
        assert_eq!(func_at(func_addr(f), 5), None);
        assert_eq!(func_at(func_addr(f) + 1, 6), None);
        assert_eq!(func_at(0, 6), None);
        assert_eq!(func_at(GLOBAL_BASE, usize::MAX), None);
    }
}
