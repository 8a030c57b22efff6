//! Symbolic memory: objects at concrete, deterministic addresses whose bytes are terms.
//!
//! The address layout is the concrete interpreter's ([`crate::concrete`]'s `memory.rs`): a null
//! page, function addresses, then bump-allocated regions for globals, the heap and the stack,
//! each object 16-aligned (or more) and followed by a redzone of at least [`REDZONE`] bytes.
//! Addresses are never reused. Because both interpreters allocate the same objects in the same
//! order, a program sees the same addresses symbolically and on replay, and an address is
//! attributed to an object by the same rule ([`Memory::classify`]): inside its bytes, or in the
//! redzone nearer to it than to any other object.
//!
//! **Copy-on-write.** A [`Memory`] is a few `Rc` pointers: the object table and the per-region
//! address index. Forking a state clones the pointers; the first write after a fork copies the
//! table (one `Rc` per object, never bytes), and the object written copies only the chunk of
//! its bytes that the write touches ([`ObjectBytes`]). Each byte is a [`TermId`] of width 8.
//!
//! **Symbolic offsets.** [`select_byte`] reads a byte at a symbolic offset as an `ite` chain
//! over the *runs* of equal bytes of the object (a large zeroed buffer with a few writes is a
//! short chain); [`Memory::write_symbolic`] writes with one `ite` per byte of the object. The
//! executor concretises an offset instead when the chain would exceed [`MAX_ITE_RUNS`] runs
//! or the object [`MAX_SYMBOLIC_WRITE_BYTES`] bytes (counted in the run summary).

use crate::error::ErrorKind;
pub use crate::object_bytes::ObjectBytes;
use penumbra_ir::{Func, Global, Module};
use penumbra_solver::{TermId, TermStore};
use std::rc::Rc;

// The layout is the concrete interpreter's, shared so that addresses agree.
pub use crate::concrete::memory::{
    func_addr, func_at, FUNC_BASE, GLOBAL_BASE, HEAP_BASE, MAX_HEAP_BYTES, MAX_STACK_BYTES, NULL_PAGE_END, REDZONE,
    STACK_BASE, STACK_END,
};
/// Symbolic-offset reads build an `ite` chain over at most this many runs of equal bytes.
pub const MAX_ITE_RUNS: usize = 4096;
/// Symbolic-offset writes rewrite every byte of objects up to this size.
pub const MAX_SYMBOLIC_WRITE_BYTES: u64 = 4096;

/// An object of one state's memory (an index into its object table).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjId(u32);

impl ObjId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Which bump allocator an object comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Region {
    Global,
    Heap,
    Stack,
}

impl Region {
    fn index(self) -> usize {
        self as usize
    }

    fn start(self) -> u64 {
        match self {
            Region::Global => GLOBAL_BASE,
            Region::Heap => HEAP_BASE,
            Region::Stack => STACK_BASE,
        }
    }

    fn end(self) -> u64 {
        match self {
            Region::Global => HEAP_BASE,
            Region::Heap => STACK_BASE,
            Region::Stack => STACK_END,
        }
    }

    fn of(addr: u64) -> Option<Region> {
        match addr {
            GLOBAL_BASE..HEAP_BASE => Some(Region::Global),
            HEAP_BASE..STACK_BASE => Some(Region::Heap),
            STACK_BASE..STACK_END => Some(Region::Stack),
            _ => None,
        }
    }
}

/// What an object is, for messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Global(Global),
    /// An `alloca` of `func` at source line `line`.
    Stack {
        func: Func,
        line: u32,
    },
    /// A `malloc`/`calloc`/`realloc` at source line `line`.
    Heap {
        line: u32,
    },
    /// The string of `argv[i]`.
    Arg(u32),
    /// An object the runtime provides (`argv` itself, `FILE` objects, `errno`).
    Runtime(&'static str),
}

/// The life-cycle state of an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjState {
    Live,
    /// Live but writes are refused (string literals, `const` globals).
    ReadOnly,
    /// Touching it ends the path as unsupported with this message.
    Unsupported(Rc<str>),
    /// A heap block freed at the given source line.
    Freed {
        line: u32,
    },
    /// A stack object whose function returned.
    Dead,
}

/// One object: where it is, what it is, and its bytes (8-bit terms).
#[derive(Clone, Debug)]
pub struct MemObject {
    pub base: u64,
    pub size: u64,
    pub origin: Origin,
    pub state: ObjState,
    /// `size` bytes while the object is live; emptied when it dies.
    pub bytes: ObjectBytes,
}

/// Read or write, for messages and the out-of-bounds kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
        }
    }

    pub fn out_of_bounds(self) -> ErrorKind {
        match self {
            Access::Read => ErrorKind::OutOfBoundsRead,
            Access::Write => ErrorKind::OutOfBoundsWrite,
        }
    }
}

/// What a concrete address means for an access of some length: the same verdict the concrete
/// interpreter reaches for that address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// A permitted access at `offset` of a live object.
    InBounds { obj: ObjId, offset: u64 },
    /// An error; `obj` is the object the address was attributed to, if any.
    Fault { kind: ErrorKind, obj: Option<ObjId>, message: String },
    /// The object is one penumbra does not model.
    Unsupported(Rc<str>),
}

/// All objects of one state, shared copy-on-write with its forks.
#[derive(Clone, Debug)]
pub struct Memory {
    objects: Rc<Vec<MemObject>>,
    /// Per region, `(base, object)` in increasing address order.
    index: Rc<[Vec<(u64, ObjId)>; 3]>,
    /// Per region, the lowest address the next object may start at.
    next: [u64; 3],
    live_heap_bytes: u64,
    live_stack_bytes: u64,
}

impl Default for Memory {
    fn default() -> Self {
        Self::new()
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

impl Memory {
    pub fn new() -> Self {
        let first = |r: Region| r.start() + REDZONE;
        Memory {
            objects: Rc::new(Vec::new()),
            index: Rc::new([Vec::new(), Vec::new(), Vec::new()]),
            next: [first(Region::Global), first(Region::Heap), first(Region::Stack)],
            live_heap_bytes: 0,
            live_stack_bytes: 0,
        }
    }

    pub fn object(&self, id: ObjId) -> &MemObject {
        &self.objects[id.index()]
    }

    pub fn num_objects(&self) -> usize {
        self.objects.len()
    }

    /// Every object ever allocated (dead ones included), in allocation order.
    pub fn objects(&self) -> impl Iterator<Item = &MemObject> {
        self.objects.iter()
    }

    /// The object for writing (copies the table if it is shared).
    pub fn object_mut(&mut self, id: ObjId) -> &mut MemObject {
        &mut Rc::make_mut(&mut self.objects)[id.index()]
    }

    /// Allocates an object whose bytes are all `fill` (a width-8 term); `None` when the region
    /// (or the heap or stack budget) is exhausted. `align` is rounded up to a power of two, at
    /// least 16 — the concrete interpreter's rule, so addresses agree.
    pub fn allocate(&mut self, region: Region, size: u64, align: u64, origin: Origin, fill: TermId) -> Option<ObjId> {
        match region {
            Region::Heap if size > MAX_HEAP_BYTES - self.live_heap_bytes => return None,
            Region::Stack if size > MAX_STACK_BYTES - self.live_stack_bytes => return None,
            _ => {}
        }
        let align = align.clamp(16, 1 << 12).next_power_of_two();
        let r = region.index();
        let base = self.next[r].checked_add(align - 1)? & !(align - 1);
        let end = base.checked_add(size)?;
        if end.checked_add(REDZONE)? > region.end() {
            return None;
        }
        let bytes = ObjectBytes::filled(usize::try_from(size).ok()?, fill);
        self.next[r] = end + REDZONE;
        match region {
            Region::Heap => self.live_heap_bytes += size,
            Region::Stack => self.live_stack_bytes += size,
            Region::Global => {}
        }
        let objects = Rc::make_mut(&mut self.objects);
        let id = ObjId(u32::try_from(objects.len()).ok()?);
        objects.push(MemObject { base, size, origin, state: ObjState::Live, bytes });
        Rc::make_mut(&mut self.index)[r].push((base, id));
        Some(id)
    }

    /// Sets an object's state (read-only and unsupported globals, freeing, killing).
    pub fn set_state(&mut self, id: ObjId, state: ObjState) {
        self.object_mut(id).state = state;
    }

    /// A stack object's function returned.
    pub fn kill_stack_object(&mut self, id: ObjId) {
        let size = self.object(id).size;
        self.live_stack_bytes -= size.min(self.live_stack_bytes);
        let o = self.object_mut(id);
        o.state = ObjState::Dead;
        o.bytes = ObjectBytes::default();
    }

    /// Frees a live heap block (the caller checked it is one).
    pub fn free_heap_object(&mut self, id: ObjId, line: u32) {
        let size = self.object(id).size;
        self.live_heap_bytes -= size.min(self.live_heap_bytes);
        let o = self.object_mut(id);
        o.state = ObjState::Freed { line };
        o.bytes = ObjectBytes::default();
    }

    /// Describes an object for messages: `global 'buf'`, `heap object allocated at line 7`.
    pub fn describe(&self, module: &Module, id: ObjId) -> String {
        let o = self.object(id);
        let func_name = |f: Func| module.funcs.get(f).map_or("?", |f| f.name.as_str());
        match o.origin {
            Origin::Global(g) => format!("global '{}'", module.globals.get(g).map_or("?", |g| g.name.as_str())),
            Origin::Stack { func, line } if o.state == ObjState::Dead => {
                format!("stack object of returned function '{}' (allocated at line {line})", func_name(func))
            }
            Origin::Stack { func, line } => format!("stack object of '{}' allocated at line {line}", func_name(func)),
            Origin::Heap { line } => match o.state {
                ObjState::Freed { line: freed } => {
                    format!("heap object allocated at line {line} and freed at line {freed}")
                }
                _ => format!("heap object allocated at line {line}"),
            },
            Origin::Arg(i) => format!("string argv[{i}]"),
            Origin::Runtime(what) => what.to_string(),
        }
    }

    /// The object an address belongs to (inside it or in the redzone nearer to it than to any
    /// other) and the signed offset from its base: the concrete interpreter's rule.
    pub fn resolve(&self, addr: u64) -> Option<(ObjId, i64)> {
        let region = Region::of(addr)?;
        let index = &self.index[region.index()];
        let i = index.partition_point(|&(base, _)| base <= addr);
        let before = i.checked_sub(1).map(|j| index[j].1);
        let after = index.get(i).map(|&(_, id)| id);
        if let Some(id) = before {
            let o = self.object(id);
            if addr - o.base < o.size {
                return Some((id, (addr - o.base) as i64));
            }
        }
        let past_before = before.map(|id| (id, addr - (self.object(id).base + self.object(id).size)));
        let short_of_after = after.map(|id| (id, self.object(id).base - addr));
        let pick = match (past_before, short_of_after) {
            (Some((b, db)), Some((a, da))) => {
                if db <= da {
                    Some((b, db))
                } else {
                    Some((a, da))
                }
            }
            (one, None) | (None, one) => one,
        };
        let (id, distance) = pick?;
        (distance < REDZONE).then(|| (id, addr.wrapping_sub(self.object(id).base) as i64))
    }

    /// The verdict for an access of `len > 0` bytes at the concrete address `addr`.
    pub fn classify(&self, module: &Module, addr: u64, len: u64, access: Access) -> Resolution {
        let what = format!("{} of {}", access.name(), bytes_text(len));
        let fault = |kind, obj, message| Resolution::Fault { kind, obj, message };
        if addr < NULL_PAGE_END {
            return fault(ErrorKind::NullDereference, None, format!("{what} at address {addr:#x}"));
        }
        if addr < GLOBAL_BASE {
            return fault(ErrorKind::InvalidPointer, None, format!("{what} at function address {addr:#x}"));
        }
        let Some((id, offset)) = self.resolve(addr) else {
            return fault(
                ErrorKind::InvalidPointer,
                None,
                format!("{what} at address {addr:#x}, which is in no object"),
            );
        };
        let o = self.object(id);
        match &o.state {
            ObjState::Freed { .. } | ObjState::Dead => {
                return fault(
                    ErrorKind::UseAfterFree,
                    Some(id),
                    format!("{what} at offset {offset} of {} ({})", self.describe(module, id), bytes_text(o.size)),
                )
            }
            ObjState::Unsupported(m) => return Resolution::Unsupported(m.clone()),
            ObjState::ReadOnly if access == Access::Write => {
                return fault(
                    ErrorKind::InvalidPointer,
                    Some(id),
                    format!("write to read-only {} at offset {offset}", self.describe(module, id)),
                )
            }
            ObjState::Live | ObjState::ReadOnly => {}
        }
        let in_bounds = offset >= 0 && (offset as u64) < o.size && len <= o.size - offset as u64;
        if !in_bounds {
            return fault(
                access.out_of_bounds(),
                Some(id),
                format!(
                    "out-of-bounds {what} at offset {offset} of {} ({})",
                    self.describe(module, id),
                    bytes_text(o.size)
                ),
            );
        }
        Resolution::InBounds { obj: id, offset: offset as u64 }
    }

    /// Copies the bytes of a live object from `offset` into `out` (in bounds, checked by the
    /// caller).
    pub fn read_bytes(&self, id: ObjId, offset: u64, out: &mut [TermId]) {
        self.object(id).bytes.read(offset as usize, out)
    }

    /// The bytes `offset .. offset + len` of a live object, copied (in bounds, checked by the
    /// caller).
    pub fn bytes(&self, id: ObjId, offset: u64, len: u64) -> Vec<TermId> {
        self.object(id).bytes.to_vec(offset as usize, len as usize)
    }

    /// The byte at `offset` of a live object (in bounds, checked by the caller).
    pub fn byte(&self, id: ObjId, offset: u64) -> TermId {
        self.object(id).bytes.get(offset as usize)
    }

    /// Overwrites bytes from `offset` (in bounds, checked by the caller).
    pub fn write_bytes(&mut self, id: ObjId, offset: u64, data: &[TermId]) {
        self.object_mut(id).bytes.write(offset as usize, data)
    }

    /// Writes the `data.len()` bytes of a value at the symbolic `offset` (a 64-bit term known
    /// to satisfy `offset <= size - data.len()`): every byte `i` of the object becomes
    /// `ite(offset == i - j, data[j], old)` over the `j` that can land on it.
    pub fn write_symbolic(&mut self, store: &mut TermStore, id: ObjId, offset: TermId, data: &[TermId]) {
        let o = self.object_mut(id);
        let size = o.size as usize;
        let w = data.len();
        o.bytes.update_all(|i, mut t| {
            for (j, &d) in data.iter().enumerate() {
                if i < j || i - j + w > size {
                    continue;
                }
                let k = store.constant(64, (i - j) as u64);
                let hit = store.eq(offset, k);
                t = store.ite(hit, d, t);
            }
            t
        });
    }
}

/// The byte at `offset + j` of `bytes`, where the symbolic `offset` satisfies
/// `offset <= bytes.len() - width`: an `ite` chain over the runs of equal bytes among the
/// candidates (`None` when there are more than [`MAX_ITE_RUNS`] runs).
pub fn select_byte(
    store: &mut TermStore,
    bytes: &ObjectBytes,
    offset: TermId,
    j: usize,
    width: usize,
) -> Option<TermId> {
    let candidates = bytes.range(j, bytes.len() - width + j + 1);
    // runs: (first candidate index, value), in increasing offset order
    let mut runs: Vec<(usize, TermId)> = Vec::new();
    for (k, b) in candidates.enumerate() {
        if runs.last().is_none_or(|&(_, v)| v != b) {
            runs.push((k, b));
            if runs.len() > MAX_ITE_RUNS {
                return None;
            }
        }
    }
    // Build from the last run backwards: ite(offset <u end_of_run, value, rest).
    let mut acc = runs.last().map(|&(_, v)| v)?;
    for w in (0..runs.len().saturating_sub(1)).rev() {
        let end = runs[w + 1].0 as u64;
        let k = store.constant(64, end);
        let below = store.ult(offset, k);
        acc = store.ite(below, runs[w].1, acc);
    }
    Some(acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use penumbra_solver::eval;

    #[test]
    fn allocation_is_aligned_with_redzones() {
        let mut s = TermStore::default();
        let z = s.constant(8, 0);
        let mut m = Memory::new();
        let a = m.allocate(Region::Global, 4, 1, Origin::Runtime("a"), z).unwrap();
        let b = m.allocate(Region::Global, 10, 1, Origin::Runtime("b"), z).unwrap();
        assert_eq!(m.object(a).base, GLOBAL_BASE + 32);
        assert_eq!(m.object(b).base, GLOBAL_BASE + 32 + 4 + 32 + 12);
        assert_eq!(m.resolve(GLOBAL_BASE + 32 + 5), Some((a, 5)));
        // nearer to b than to a
        assert_eq!(m.resolve(m.object(b).base - 3), Some((b, -3)));
        assert_eq!(m.resolve(m.object(b).base + 10 + 40), None);
    }

    #[test]
    fn forks_share_bytes_until_written() {
        let mut s = TermStore::default();
        let z = s.constant(8, 0);
        let one = s.constant(8, 1);
        let mut m = Memory::new();
        let a = m.allocate(Region::Heap, 8, 16, Origin::Heap { line: 1 }, z).unwrap();
        let fork = m.clone();
        m.write_bytes(a, 3, &[one]);
        assert_eq!(m.bytes(a, 3, 1), &[one]);
        assert_eq!(fork.bytes(a, 3, 1), &[z]);
    }

    #[test]
    fn select_byte_follows_runs() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 8);
        let xt = s.var(x);
        let off = s.new_var("o", 64);
        let ot = s.var(off);
        let (z, one) = (s.constant(8, 0), s.constant(8, 1));
        let bytes = ObjectBytes::from_slice(&[z, z, z, xt, one, one, z, z]);
        for o in 0..8u64 {
            let t = select_byte(&mut s, &bytes, ot, 0, 1).unwrap();
            let assign = |v: penumbra_solver::VarId| if v == off { o } else { 77 };
            let expect = [0, 0, 0, 77, 1, 1, 0, 0][o as usize];
            assert_eq!(eval(&s, t, &assign), expect, "offset {o}");
        }
        // a 2-byte read: offsets 0..=6, byte 1 reads bytes[o + 1]
        let t = select_byte(&mut s, &bytes, ot, 1, 2).unwrap();
        let assign = |v: penumbra_solver::VarId| if v == off { 2 } else { 77 };
        assert_eq!(eval(&s, t, &assign), 77);
    }

    #[test]
    fn symbolic_write_updates_the_selected_byte_only() {
        let mut s = TermStore::default();
        let z = s.constant(8, 0);
        let off = s.new_var("o", 64);
        let ot = s.var(off);
        let mut m = Memory::new();
        let a = m.allocate(Region::Stack, 4, 16, Origin::Heap { line: 1 }, z).unwrap();
        let (v0, v1) = (s.constant(8, 0xaa), s.constant(8, 0xbb));
        m.write_symbolic(&mut s, a, ot, &[v0, v1]);
        for o in 0..3u64 {
            let assign = |v: penumbra_solver::VarId| if v == off { o } else { 0 };
            let got: Vec<u64> = m.bytes(a, 0, 4).iter().map(|&b| eval(&s, b, &assign)).collect();
            let mut want = vec![0u64; 4];
            want[o as usize] = 0xaa;
            want[o as usize + 1] = 0xbb;
            assert_eq!(got, want, "offset {o}");
        }
    }
}
