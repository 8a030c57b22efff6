//! [`AddressSpace`]: the objects of one run (or one path) and every rule about addresses —
//! where a new object goes, which object an address belongs to, whether an access is
//! permitted, and the message of every fault. Both interpreters keep their memory in one, with
//! their own kind of [`Object::contents`] (bytes for the concrete interpreter, byte terms for
//! the symbolic engine), so the same addresses get the same verdict by construction.
//!
//! Each segment is a bump allocator: bases are 16-aligned (or more, if asked) and consecutive
//! objects are separated by a redzone of at least [`REDZONE`] bytes. Addresses are never
//! reused, so freed heap objects and stack objects of returned functions stay as tombstones
//! and any later access is a use after free. Because allocation only moves upwards, each
//! segment's index of `(base, object)` pairs stays sorted by construction and lookups are a
//! binary search.
//!
//! An address inside an object's bytes belongs to it. An address in the gap between two
//! objects belongs to the nearer one (an overflow of the one before, an underflow of the one
//! after), so `buf[4]` and `buf[-1]` both report `buf`. An address farther than the redzone
//! from every object is an invalid pointer.
//!
//! The price of never reusing addresses: a dead object's contents are released but its record
//! stays (about 60 bytes), so a run that makes ten million allocations holds about 600 MB of
//! tombstones. The segment budgets ([`MAX_GLOBAL_BYTES`] and friends) bound the rest.

use super::chunked::Chunked;
#[cfg(doc)]
use super::layout::MAX_GLOBAL_BYTES;
use super::layout::{bytes_text, Segment, GLOBAL_BASE, MAX_ALIGN, NULL_PAGE_END, REDZONE};
use crate::error::ErrorKind;
use cranelift_entity::entity_impl;
use penumbra_ir::{Func, Global, Module};
use std::sync::Arc;

/// A memory object (a global, a stack object, a heap block, ...).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(u32);
entity_impl!(ObjectId, "obj");

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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ObjState {
    Live,
    /// Live but writes are refused (string literals, `const` globals).
    ReadOnly,
    /// Touching it ends the path as unsupported with message number `0` of the address
    /// space's list ([`AddressSpace::set_unsupported`]).
    Unsupported(u32),
    /// A heap block freed at the given source line.
    Freed {
        line: u32,
    },
    /// A stack object whose function returned.
    Dead,
}

/// One object: where it is, what it is, and its contents.
#[derive(Clone, Debug)]
pub struct Object<C> {
    pub base: u64,
    pub size: u64,
    pub origin: Origin,
    pub state: ObjState,
    /// `size` bytes while the object is live; released when it dies.
    pub contents: C,
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

/// What a concrete address means for an access of some length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// A permitted access at `offset` of a live object.
    InBounds { obj: ObjectId, offset: u64 },
    /// An error; `obj` is the object the address was attributed to, if any.
    Fault { kind: ErrorKind, obj: Option<ObjectId>, message: String },
    /// The object is one penumbra does not model.
    Unsupported(Arc<str>),
}

/// The contents an interpreter keeps per object: what a new object starts as and how its
/// initial bytes (globals' initialisers, `argv` strings, pointers) are written.
pub trait Contents: Clone {
    /// What making contents takes (nothing for bytes; the term store for byte terms).
    type Maker: ?Sized;
    /// `size` zero bytes.
    fn zeroed(maker: &mut Self::Maker, size: usize) -> Self;
    /// Overwrites bytes from `offset` (in bounds) with concrete values.
    fn write_concrete(&mut self, maker: &mut Self::Maker, offset: usize, bytes: &[u8]);
    /// The contents of a dead object (nothing is kept).
    fn released() -> Self;
}

/// All objects of one run or path (see the module documentation).
#[derive(Clone, Debug)]
pub struct AddressSpace<C> {
    /// Shared with the forks of a state chunk by chunk ([`Chunked`]).
    objects: Chunked<ObjectId, Object<C>>,
    /// Per segment, `(base, object)` in increasing address order; shared between forks of a
    /// symbolic state until one of them allocates.
    index: Arc<[Vec<(u64, ObjectId)>; 3]>,
    /// Per segment, the lowest address the next object may start at.
    next: [u64; 3],
    /// Per segment, the bytes of its live objects.
    live: [u64; 3],
    /// The messages of objects penumbra does not model.
    unsupported: Arc<Vec<Arc<str>>>,
}

impl<C: Clone> Default for AddressSpace<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C: Clone> AddressSpace<C> {
    pub fn new() -> Self {
        let first = |s: Segment| s.start() + REDZONE;
        AddressSpace {
            objects: Chunked::default(),
            index: Arc::new([Vec::new(), Vec::new(), Vec::new()]),
            next: [first(Segment::Global), first(Segment::Heap), first(Segment::Stack)],
            live: [0; 3],
            unsupported: Arc::default(),
        }
    }

    pub fn object(&self, id: ObjectId) -> &Object<C> {
        &self.objects[id]
    }

    pub fn object_mut(&mut self, id: ObjectId) -> &mut Object<C> {
        &mut self.objects[id]
    }

    /// Two distinct objects for writing.
    pub fn two_objects_mut(&mut self, a: ObjectId, b: ObjectId) -> Option<[&mut Object<C>; 2]> {
        self.objects.two_mut(a, b)
    }

    pub fn num_objects(&self) -> usize {
        self.objects.len()
    }

    /// Every object ever allocated (dead ones included), in allocation order.
    pub fn objects(&self) -> impl Iterator<Item = &Object<C>> {
        self.objects.values()
    }

    /// The bytes of the live objects of a segment.
    pub fn live_bytes(&self, segment: Segment) -> u64 {
        self.live[segment.index()]
    }

    /// Per data segment (globals, heap, stack), every object as `(base, id)` in increasing
    /// address order.
    pub fn address_order(&self) -> [&[(u64, ObjectId)]; 3] {
        [&self.index[0], &self.index[1], &self.index[2]]
    }

    /// Allocates an object of `size` bytes with the contents `make(size)`; `None` when the
    /// segment (or its budget) is exhausted, or when `align` exceeds [`MAX_ALIGN`]. `align` is
    /// rounded up to a power of two, at least 16.
    pub fn allocate(
        &mut self,
        segment: Segment,
        size: u64,
        align: u64,
        origin: Origin,
        make: impl FnOnce(usize) -> C,
    ) -> Option<ObjectId> {
        let s = segment.index();
        if size > segment.budget() - self.live[s] {
            return None;
        }
        if align > MAX_ALIGN {
            return None;
        }
        let align = align.max(16).next_power_of_two();
        let base = self.next[s].checked_add(align - 1)? & !(align - 1);
        let end = base.checked_add(size)?;
        if end.checked_add(REDZONE)? > segment.end() {
            return None;
        }
        let contents = make(usize::try_from(size).ok()?);
        self.next[s] = end + REDZONE;
        self.live[s] += size;
        let id = self.objects.push(Object { base, size, origin, state: ObjState::Live, contents });
        Arc::make_mut(&mut self.index)[s].push((base, id));
        Some(id)
    }

    /// Sets an object's state (read-only globals).
    pub fn set_state(&mut self, id: ObjectId, state: ObjState) {
        self.objects[id].state = state;
    }

    /// Makes every access to `id` end the path as unsupported with `message`.
    pub fn set_unsupported(&mut self, id: ObjectId, message: &str) {
        let messages = Arc::make_mut(&mut self.unsupported);
        messages.push(message.into());
        self.objects[id].state = ObjState::Unsupported(messages.len() as u32 - 1);
    }

    /// The object an address belongs to (inside it or in the redzone nearer to it than to any
    /// other) and the signed offset from its base.
    pub fn resolve(&self, addr: u64) -> Option<(ObjectId, i64)> {
        let segment = Segment::of(addr)?;
        let index = &self.index[segment.index()];
        let i = index.partition_point(|&(base, _)| base <= addr);
        let before = i.checked_sub(1).map(|j| index[j].1);
        let after = index.get(i).map(|&(_, id)| id);
        if let Some(id) = before {
            let o = &self.objects[id];
            if addr - o.base < o.size {
                return Some((id, (addr - o.base) as i64));
            }
        }
        // In a gap: the nearer neighbour within the redzone (ties go to the one before).
        let past_before = before.map(|id| (id, addr - (self.objects[id].base + self.objects[id].size)));
        let short_of_after = after.map(|id| (id, self.objects[id].base - addr));
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
        // Redzones are at least REDZONE bytes, so one of the neighbours is always near enough
        // for an address between two objects; beyond the last object, only REDZONE bytes count.
        let (id, distance) = pick?;
        (distance < REDZONE).then(|| (id, addr.wrapping_sub(self.objects[id].base) as i64))
    }

    /// The common case without building messages: the live object that holds the whole access
    /// of `len` bytes at `addr`, if the access is permitted.
    #[inline]
    pub fn permitted(&self, addr: u64, len: u64, access: Access) -> Option<(ObjectId, u64)> {
        let (id, off) = self.resolve(addr)?;
        self.permits(id, addr, len, access).then_some((id, off as u64))
    }

    /// Whether the access of `len` bytes at `addr` is a permitted access to `id`.
    #[inline]
    pub fn permits(&self, id: ObjectId, addr: u64, len: u64, access: Access) -> bool {
        let o = &self.objects[id];
        let offset = addr.wrapping_sub(o.base);
        let ok_state = o.state == ObjState::Live || (o.state == ObjState::ReadOnly && access == Access::Read);
        ok_state && offset < o.size && len <= o.size - offset
    }

    /// The verdict for an access of `len > 0` bytes at `addr`.
    pub fn classify(&self, module: &Module, addr: u64, len: u64, access: Access) -> Resolution {
        let what = format!("{} of {}", access.name(), bytes_text(len));
        let fault = |kind, obj, message| Resolution::Fault { kind, obj, message };
        if addr < NULL_PAGE_END {
            return fault(ErrorKind::NullDereference, None, format!("{what} at address {addr:#x}"));
        }
        if addr < GLOBAL_BASE {
            return fault(
                ErrorKind::InvalidPointer,
                None,
                format!("{what} at {addr:#x}, in the range of function addresses"),
            );
        }
        let Some((id, offset)) = self.resolve(addr) else {
            return fault(
                ErrorKind::InvalidPointer,
                None,
                format!("{what} at address {addr:#x}, which is in no object"),
            );
        };
        let o = &self.objects[id];
        match o.state {
            ObjState::Freed { .. } | ObjState::Dead => {
                return fault(
                    ErrorKind::UseAfterFree,
                    Some(id),
                    format!("{what} at offset {offset} of {} ({})", self.describe(module, id), bytes_text(o.size)),
                )
            }
            ObjState::Unsupported(n) => return Resolution::Unsupported(self.unsupported[n as usize].clone()),
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
            let message = self.out_of_bounds_message(module, id, access, len, offset, o.size);
            return fault(access.out_of_bounds(), Some(id), message);
        }
        Resolution::InBounds { obj: id, offset: offset as u64 }
    }

    /// The message of an access of `len` bytes at `offset` past the bounds of object `id` of
    /// `size` bytes (its size on the path, for an object of symbolic size).
    pub fn out_of_bounds_message(
        &self,
        module: &Module,
        id: ObjectId,
        access: Access,
        len: u64,
        offset: i64,
        size: u64,
    ) -> String {
        format!(
            "out-of-bounds {} of {} at offset {offset} of {} ({})",
            access.name(),
            bytes_text(len),
            self.describe(module, id),
            bytes_text(size)
        )
    }

    /// Describes an object for messages: `global 'buf'`, `heap object allocated at line 7`.
    /// Unknown lines (0) are left out.
    pub fn describe(&self, module: &Module, id: ObjectId) -> String {
        let o = &self.objects[id];
        let func_name = |f: Func| module.funcs.get(f).map_or("?", |f| f.name.as_str());
        let at = |what: &str, line: u32| match line {
            0 => String::new(),
            _ => format!(" {what} at line {line}"),
        };
        match (o.origin, o.state) {
            (Origin::Global(g), _) => {
                format!("global '{}'", module.globals.get(g).map_or("?", |g| g.name.as_str()))
            }
            (Origin::Stack { func, line }, ObjState::Dead) => {
                let allocated = match line {
                    0 => String::new(),
                    _ => format!(" (allocated at line {line})"),
                };
                format!("stack object of returned function '{}'{allocated}", func_name(func))
            }
            (Origin::Stack { func, line }, _) => {
                format!("stack object of '{}'{}", func_name(func), at("allocated", line))
            }
            (Origin::Heap { line }, ObjState::Freed { line: freed }) => {
                let and = if line != 0 && freed != 0 { " and" } else { "" };
                format!("freed heap object{}{and}{}", at("allocated", line), at("freed", freed))
            }
            (Origin::Heap { line }, _) => format!("heap object{}", at("allocated", line)),
            (Origin::Arg(i), _) => format!("string argv[{i}]"),
            (Origin::Runtime(what), _) => what.to_string(),
        }
    }

    /// The live heap block starting exactly at `addr`, else the error `free` or `realloc`
    /// (`op`) reports.
    pub fn heap_block(&self, module: &Module, addr: u64, op: &str) -> Result<ObjectId, (ErrorKind, String)> {
        let not_malloced =
            || (ErrorKind::InvalidFree, format!("{op} of address {addr:#x}, which malloc did not return"));
        let (id, offset) = self.resolve(addr).ok_or_else(not_malloced)?;
        let o = &self.objects[id];
        // An address in a redzone is no pointer into the object.
        if offset < 0 || (offset != 0 && offset as u64 >= o.size) {
            return Err(not_malloced());
        }
        let what = || self.describe(module, id);
        if !matches!(o.origin, Origin::Heap { .. }) {
            return Err((
                ErrorKind::InvalidFree,
                format!("{op} of {} at offset {offset}, which is not on the heap", what()),
            ));
        }
        if offset != 0 {
            let message = format!("{op} of a pointer {offset} bytes into {} ({})", what(), bytes_text(o.size));
            return Err((ErrorKind::InvalidFree, message));
        }
        if let ObjState::Freed { .. } = o.state {
            let message = format!("{op} of {} ({}), which was already freed", what(), bytes_text(o.size));
            return Err((ErrorKind::DoubleFree, message));
        }
        Ok(id)
    }
}

impl<C: Contents> AddressSpace<C> {
    /// Frees a live heap block (the caller checked it is one, with [`AddressSpace::heap_block`])
    /// at source line `line`.
    pub fn free_heap_object(&mut self, id: ObjectId, line: u32) {
        self.release(id, Segment::Heap, ObjState::Freed { line });
    }

    /// A stack object's function returned.
    pub fn kill_stack_object(&mut self, id: ObjectId) {
        self.release(id, Segment::Stack, ObjState::Dead);
    }

    fn release(&mut self, id: ObjectId, segment: Segment, state: ObjState) {
        let o = &mut self.objects[id];
        let live = &mut self.live[segment.index()];
        *live -= o.size.min(*live);
        o.state = state;
        o.contents = C::released();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::layout::{FUNC_BASE, HEAP_BASE, MAX_GLOBAL_BYTES, MAX_HEAP_BYTES, MAX_STACK_BYTES, STACK_BASE};
    use penumbra_ir::{GlobalData, GlobalInit};

    type Space = AddressSpace<()>;

    impl Contents for () {
        type Maker = ();
        fn zeroed(_: &mut (), _: usize) {}
        fn write_concrete(&mut self, _: &mut (), _: usize, _: &[u8]) {}
        fn released() {}
    }

    fn module() -> Module {
        let mut m = Module::new("mem.c");
        m.add_global(GlobalData { name: "buf".into(), size: 4, align: 1, constant: false, init: GlobalInit::Zero });
        m
    }

    fn alloc(s: &mut Space, segment: Segment, size: u64, align: u64, origin: Origin) -> ObjectId {
        s.allocate(segment, size, align, origin, |_| ()).expect("fits")
    }

    fn message(r: Resolution) -> String {
        match r {
            Resolution::Fault { message, .. } => message,
            other => panic!("expected a fault, got {other:?}"),
        }
    }

    #[test]
    fn bases_are_aligned_separated_by_redzones_and_deterministic() {
        let layout = || {
            let mut s = Space::new();
            [1u64, 0, 17, 100, 3]
                .iter()
                .map(|&n| {
                    let id = alloc(&mut s, Segment::Heap, n, 1, Origin::Heap { line: 1 });
                    s.object(id).base
                })
                .collect::<Vec<_>>()
        };
        let bases = layout();
        assert_eq!(bases, layout());
        assert_eq!(bases[0], HEAP_BASE + REDZONE);
        for (w, size) in bases.windows(2).zip([1u64, 0, 17, 100]) {
            assert_eq!(w[0] % 16, 0);
            assert!(w[1] >= w[0] + size + REDZONE, "{w:?}");
        }
        let mut s = Space::new();
        let big = alloc(&mut s, Segment::Stack, 8, 64, Origin::Stack { func: Func::from_u32(0), line: 1 });
        assert_eq!(s.object(big).base % 64, 0);
        assert!(s.object(big).base >= STACK_BASE);
    }

    #[test]
    fn addresses_in_gaps_go_to_the_nearer_object() {
        let mut s = Space::new();
        let a = alloc(&mut s, Segment::Global, 4, 1, Origin::Runtime("a"));
        let b = alloc(&mut s, Segment::Global, 10, 1, Origin::Runtime("b"));
        assert_eq!(s.object(a).base, GLOBAL_BASE + 32);
        assert_eq!(s.object(b).base, GLOBAL_BASE + 32 + 4 + 32 + 12);
        assert_eq!(s.resolve(GLOBAL_BASE + 32 + 5), Some((a, 5)));
        assert_eq!(s.resolve(s.object(b).base - 3), Some((b, -3)));
        assert_eq!(s.resolve(s.object(b).base + 10 + 40), None);
    }

    #[test]
    fn verdicts_and_their_messages() {
        let module = module();
        let mut s = Space::new();
        let g = alloc(&mut s, Segment::Global, 4, 1, Origin::Global(Global::from_u32(0)));
        let h = alloc(&mut s, Segment::Heap, 10, 1, Origin::Heap { line: 7 });
        let (pg, ph) = (s.object(g).base, s.object(h).base);
        assert_eq!(s.classify(&module, pg + 3, 1, Access::Write), Resolution::InBounds { obj: g, offset: 3 });
        assert_eq!(
            message(s.classify(&module, pg + 4, 1, Access::Write)),
            "out-of-bounds write of 1 byte at offset 4 of global 'buf' (4 bytes)"
        );
        assert_eq!(message(s.classify(&module, 0, 4, Access::Read)), "read of 4 bytes at address 0x0");
        assert_eq!(
            message(s.classify(&module, FUNC_BASE, 1, Access::Read)),
            "read of 1 byte at 0x1000, in the range of function addresses"
        );
        assert_eq!(
            message(s.classify(&module, ph + 10 + REDZONE, 1, Access::Read)),
            format!("read of 1 byte at address {:#x}, which is in no object", ph + 10 + REDZONE)
        );
        assert_eq!(s.heap_block(&module, ph, "free"), Ok(h));
        s.free_heap_object(h, 9);
        assert_eq!(
            message(s.classify(&module, ph, 4, Access::Read)),
            "read of 4 bytes at offset 0 of freed heap object allocated at line 7 and freed at line 9 (10 bytes)"
        );
        assert_eq!(s.heap_block(&module, ph, "free").unwrap_err().0, ErrorKind::DoubleFree);
        assert_eq!(
            s.heap_block(&module, pg, "free"),
            Err((ErrorKind::InvalidFree, "free of global 'buf' at offset 0, which is not on the heap".into()))
        );
    }

    /// Tombstones are the memory cost of never reusing addresses: keep object records small.
    #[test]
    fn object_records_stay_small() {
        assert_eq!(std::mem::size_of::<Object<Vec<u8>>>(), 72);
    }

    #[test]
    fn segment_budgets_refuse_allocations() {
        let mut s = Space::new();
        let heap = Origin::Heap { line: 1 };
        assert!(s.allocate(Segment::Heap, MAX_HEAP_BYTES + 1, 16, heap, |_| ()).is_none());
        assert!(s.allocate(Segment::Heap, u64::MAX, 16, heap, |_| ()).is_none());
        assert!(s.allocate(Segment::Stack, MAX_STACK_BYTES + 1, 16, heap, |_| ()).is_none());
        assert!(s.allocate(Segment::Global, MAX_GLOBAL_BYTES + 1, 16, heap, |_| ()).is_none());
    }
}
