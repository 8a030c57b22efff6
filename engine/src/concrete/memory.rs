//! Concrete memory: objects with byte contents at deterministic, never-reused addresses.
//!
//! The 64-bit address space is split into fixed regions:
//!
//! | range                            | contents                                     |
//! |----------------------------------|----------------------------------------------|
//! | `0 .. 0x1000`                    | the null page: any access is a null dereference |
//! | `0x1000 .. 0x1000_0000`          | function addresses, 16 apart (no data)        |
//! | `0x1000_0000 .. 0x10_0000_0000`  | globals, then argv and the runtime's objects |
//! | `0x10_0000_0000 .. 0x7f00_0000_0000` | heap (`malloc`, `calloc`, `realloc`)     |
//! | `0x7f00_0000_0000 .. 0x7fff_0000_0000` | stack objects (`alloca`)               |
//!
//! Each region is a bump allocator: bases are 16-aligned (or more, if asked) and consecutive
//! objects are separated by a redzone of at least [`REDZONE`] bytes. Addresses are never
//! reused, so freed heap objects and stack objects of returned functions stay as tombstones
//! and any later access is a use after free. Because allocation only moves upwards, each
//! region's index of `(base, object)` pairs stays sorted by construction and lookups are a
//! binary search.
//!
//! An address inside an object's bytes belongs to it. An address in the gap between two
//! objects belongs to the nearer one (an overflow of the one before, an underflow of the one
//! after), so `buf[4]` and `buf[-1]` both report `buf`. An address farther than the redzone
//! from every object is an invalid pointer. Contents start zeroed, including stack and heap
//! objects C leaves uninitialised, so runs are deterministic.
//!
//! The price of never reusing addresses: a dead object's bytes are released but its record
//! stays (about 90 bytes), so a run that makes ten million allocations holds about 1 GB of
//! tombstones. Budgets keep everything else bounded: 256 MiB of globals, 1 GiB of live heap
//! (beyond it `malloc` returns NULL), 256 MiB of live stack objects.

use super::stop::{bytes, Fault};
use crate::error::ErrorKind;
use cranelift_entity::{entity_impl, PrimaryMap};
use penumbra_ir::{Func, Global, Module};

/// Addresses below this are the null page.
pub const NULL_PAGE_END: u64 = 0x1000;
/// The first function address; function `i` is at `FUNC_BASE + 16 * i`.
pub const FUNC_BASE: u64 = 0x1000;
const FUNC_STRIDE: u64 = 16;
pub const GLOBAL_BASE: u64 = 0x1000_0000;
pub const HEAP_BASE: u64 = 0x10_0000_0000;
pub const STACK_BASE: u64 = 0x7f00_0000_0000;
pub const STACK_END: u64 = 0x7fff_0000_0000;
/// The minimum gap between two objects of a region (and before the first).
pub const REDZONE: u64 = 32;
/// The largest live heap total `malloc` grants; requests beyond it return NULL.
pub const MAX_HEAP_BYTES: u64 = 1 << 30;
/// The most bytes all globals, `argv` and the runtime's objects may take together (each run
/// copies them); a program with more cannot be loaded.
pub const MAX_GLOBAL_BYTES: u64 = 256 << 20;
/// The most live stack bytes (all frames); beyond that an `alloca` is a stack overflow.
pub const MAX_STACK_BYTES: u64 = 256 << 20;

/// The address of function `func`.
pub fn func_addr(func: Func) -> u64 {
    FUNC_BASE + FUNC_STRIDE * cranelift_entity::EntityRef::index(func) as u64
}

/// The function at `addr`, if `addr` is exactly a function address of a module with
/// `num_funcs` functions.
pub fn func_at(addr: u64, num_funcs: usize) -> Option<Func> {
    let rel = addr.checked_sub(FUNC_BASE)?;
    if rel % FUNC_STRIDE != 0 || rel / FUNC_STRIDE >= num_funcs as u64 || addr >= GLOBAL_BASE {
        return None;
    }
    Some(<Func as cranelift_entity::EntityRef>::new((rel / FUNC_STRIDE) as usize))
}

/// A memory object (a global, a stack object, a heap block, ...).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(u32);
entity_impl!(ObjectId, "obj");

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
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum State {
    Live,
    /// Live but writes are refused (string literals, `const` globals).
    ReadOnly,
    /// Touching it ends the run as unsupported, with message number `0` of the memory's list.
    Unsupported(u32),
    /// A heap block freed at the given source line.
    Freed {
        line: u32,
    },
    /// A stack object whose function returned.
    Dead,
}

#[derive(Clone, Debug)]
pub struct Object {
    pub base: u64,
    pub size: u64,
    pub origin: Origin,
    pub state: State,
    /// `size` bytes while the object is live; emptied when it dies.
    pub data: Vec<u8>,
}

/// Read or write, for messages and the out-of-bounds kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

impl Access {
    fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
        }
    }

    fn out_of_bounds(self) -> ErrorKind {
        match self {
            Access::Read => ErrorKind::OutOfBoundsRead,
            Access::Write => ErrorKind::OutOfBoundsWrite,
        }
    }
}

/// All objects of one run.
#[derive(Clone)]
pub struct Memory<'m> {
    module: &'m Module,
    objects: PrimaryMap<ObjectId, Object>,
    /// Per region, `(base, object)` in increasing address order.
    index: [Vec<(u64, ObjectId)>; 3],
    /// Per region, the lowest address the next object may start at.
    next: [u64; 3],
    unsupported_messages: Vec<String>,
    live_heap_bytes: u64,
    live_stack_bytes: u64,
    global_bytes: u64,
    /// The objects of the last two successful accesses, most recent first: most accesses hit
    /// one of them again (a loop copying between two arrays alternates).
    recent: [Option<ObjectId>; 2],
}

impl<'m> Memory<'m> {
    pub fn new(module: &'m Module) -> Self {
        let first = |r: Region| r.start() + REDZONE;
        Memory {
            module,
            objects: PrimaryMap::new(),
            index: [Vec::new(), Vec::new(), Vec::new()],
            next: [first(Region::Global), first(Region::Heap), first(Region::Stack)],
            unsupported_messages: Vec::new(),
            live_heap_bytes: 0,
            global_bytes: 0,
            live_stack_bytes: 0,
            recent: [None, None],
        }
    }

    pub fn object(&self, id: ObjectId) -> &Object {
        &self.objects[id]
    }

    /// Allocates a zeroed object; `None` when the region (or the heap or stack budget) is
    /// exhausted. `align` is rounded up to a power of two, at least 16.
    pub fn allocate(&mut self, region: Region, size: u64, align: u64, origin: Origin) -> Option<ObjectId> {
        match region {
            Region::Heap if size > MAX_HEAP_BYTES - self.live_heap_bytes => return None,
            Region::Stack if size > MAX_STACK_BYTES - self.live_stack_bytes => return None,
            Region::Global if size > MAX_GLOBAL_BYTES - self.global_bytes => return None,
            _ => {}
        }
        let align = align.clamp(16, 1 << 12).next_power_of_two();
        let r = region.index();
        let base = self.next[r].checked_add(align - 1)? & !(align - 1);
        let end = base.checked_add(size)?;
        if end.checked_add(REDZONE)? > region.end() {
            return None;
        }
        let data = vec![0u8; usize::try_from(size).ok()?];
        self.next[r] = end + REDZONE;
        match region {
            Region::Heap => self.live_heap_bytes += size,
            Region::Stack => self.live_stack_bytes += size,
            Region::Global => self.global_bytes += size,
        }
        let id = self.objects.push(Object { base, size, origin, state: State::Live, data });
        self.index[r].push((base, id));
        Some(id)
    }

    /// Sets the state of a freshly allocated object (read-only or unsupported globals).
    pub fn set_read_only(&mut self, id: ObjectId) {
        self.objects[id].state = State::ReadOnly;
    }

    /// Makes every access to `id` end the run as unsupported with `message`.
    pub fn set_unsupported(&mut self, id: ObjectId, message: String) {
        let n = self.unsupported_messages.len() as u32;
        self.unsupported_messages.push(message);
        self.objects[id].state = State::Unsupported(n);
    }

    /// The object's bytes, bypassing every check (initialisation only).
    pub fn init_bytes(&mut self, id: ObjectId) -> &mut [u8] {
        &mut self.objects[id].data
    }

    /// A stack object's function returned.
    pub fn kill_stack_object(&mut self, id: ObjectId) {
        let o = &mut self.objects[id];
        self.live_stack_bytes -= o.size;
        o.state = State::Dead;
        o.data = Vec::new();
        self.forget(id);
    }

    /// Describes an object for messages: `global 'buf'`, `heap object allocated at line 7`.
    /// Unknown lines (0) are left out.
    pub fn describe(&self, id: ObjectId) -> String {
        let o = &self.objects[id];
        let func_name = |f: Func| self.module.funcs.get(f).map_or("?", |f| f.name.as_str());
        let at = |what: &str, line: u32| match line {
            0 => String::new(),
            _ => format!(" {what} at line {line}"),
        };
        match (o.origin, o.state) {
            (Origin::Global(g), _) => {
                let name = self.module.globals.get(g).map_or("?", |g| g.name.as_str());
                format!("global '{name}'")
            }
            (Origin::Stack { func, line }, State::Dead) => {
                let allocated = match line {
                    0 => String::new(),
                    _ => format!(" (allocated at line {line})"),
                };
                format!("stack object of returned function '{}'{allocated}", func_name(func))
            }
            (Origin::Stack { func, line }, _) => {
                format!("stack object of '{}'{}", func_name(func), at("allocated", line))
            }
            (Origin::Heap { line }, State::Freed { line: freed }) => {
                let and = if line != 0 && freed != 0 { " and" } else { "" };
                format!("freed heap object{}{and}{}", at("allocated", line), at("freed", freed))
            }
            (Origin::Heap { line }, _) => format!("heap object{}", at("allocated", line)),
            (Origin::Arg(i), _) => format!("string argv[{i}]"),
            (Origin::Runtime(what), _) => what.to_string(),
        }
    }

    /// The object an address belongs to (inside it or in the redzone nearer to it than to any
    /// other) and the signed offset from its base.
    pub fn resolve(&self, addr: u64) -> Option<(ObjectId, i64)> {
        let region = Region::of(addr)?;
        let index = &self.index[region.index()];
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

    /// Checks an access of `len > 0` bytes at `addr`; returns the object and in-bounds offset.
    #[inline]
    fn check(&mut self, addr: u64, len: u64, access: Access) -> Result<(ObjectId, usize), Fault> {
        for id in self.recent.into_iter().flatten() {
            let o = &self.objects[id];
            let offset = addr.wrapping_sub(o.base);
            let ok_state = o.state == State::Live || (o.state == State::ReadOnly && access == Access::Read);
            if ok_state && offset < o.size && len <= o.size - offset {
                return Ok((id, offset as usize));
            }
        }
        self.check_slow(addr, len, access)
    }

    /// Drops `id` from the recent-object cache (it died; its state would reject it anyway).
    fn forget(&mut self, id: ObjectId) {
        for slot in &mut self.recent {
            if *slot == Some(id) {
                *slot = None;
            }
        }
    }

    #[cold]
    fn check_slow(&mut self, addr: u64, len: u64, access: Access) -> Result<(ObjectId, usize), Fault> {
        let what = || format!("{} of {}", access.name(), bytes(len));
        if addr < NULL_PAGE_END {
            return Err(Fault::error(ErrorKind::NullDereference, format!("{} at address {addr:#x}", what())));
        }
        if addr < GLOBAL_BASE {
            return Err(Fault::error(
                ErrorKind::InvalidPointer,
                format!("{} at {addr:#x}, in the range of function addresses", what()),
            ));
        }
        let Some((id, offset)) = self.resolve(addr) else {
            return Err(Fault::error(
                ErrorKind::InvalidPointer,
                format!("{} at address {addr:#x}, which is in no object", what()),
            ));
        };
        let o = &self.objects[id];
        match o.state {
            State::Freed { .. } | State::Dead => {
                return Err(Fault::error(
                    ErrorKind::UseAfterFree,
                    format!("{} at offset {offset} of {} ({})", what(), self.describe(id), bytes(o.size)),
                ))
            }
            State::Unsupported(n) => {
                return Err(Fault::Unsupported(self.unsupported_messages[n as usize].clone()));
            }
            State::ReadOnly if access == Access::Write => {
                return Err(Fault::error(
                    ErrorKind::InvalidPointer,
                    format!("write to read-only {} at offset {offset}", self.describe(id)),
                ));
            }
            State::Live | State::ReadOnly => {}
        }
        let in_bounds = offset >= 0 && (offset as u64) < o.size && len <= o.size - offset as u64;
        if !in_bounds {
            return Err(Fault::error(
                access.out_of_bounds(),
                format!("out-of-bounds {} at offset {offset} of {} ({})", what(), self.describe(id), bytes(o.size)),
            ));
        }
        self.recent = [Some(id), self.recent[0]];
        Ok((id, offset as usize))
    }

    /// Reads `len` bytes (checked); an empty read touches nothing.
    pub fn read(&mut self, addr: u64, len: u64) -> Result<&[u8], Fault> {
        if len == 0 {
            return Ok(&[]);
        }
        let (id, off) = self.check(addr, len, Access::Read)?;
        Ok(&self.objects[id].data[off..off + len as usize])
    }

    /// The `len` bytes at `addr` for writing (checked); an empty write touches nothing.
    pub fn write(&mut self, addr: u64, len: u64) -> Result<&mut [u8], Fault> {
        if len == 0 {
            return Ok(&mut []);
        }
        let (id, off) = self.check(addr, len, Access::Write)?;
        Ok(&mut self.objects[id].data[off..off + len as usize])
    }

    /// Loads a little-endian integer of `size` (1..=8) bytes.
    #[inline]
    pub fn load(&mut self, addr: u64, size: u32) -> Result<u64, Fault> {
        let src = self.read(addr, u64::from(size))?;
        let mut buf = [0u8; 8];
        buf[..src.len()].copy_from_slice(src);
        Ok(u64::from_le_bytes(buf))
    }

    /// Stores the low `size` (1..=8) bytes of `value`, little-endian.
    #[inline]
    pub fn store(&mut self, addr: u64, size: u32, value: u64) -> Result<(), Fault> {
        let dst = self.write(addr, u64::from(size))?;
        dst.copy_from_slice(&value.to_le_bytes()[..dst.len()]);
        Ok(())
    }

    /// `memmove`: checks the whole source (read) then the whole destination (write), as
    /// AddressSanitizer's interceptors do, then copies.
    pub fn copy(&mut self, dst: u64, src: u64, len: u64) -> Result<(), Fault> {
        if len == 0 {
            return Ok(());
        }
        let (sid, soff) = self.check(src, len, Access::Read)?;
        let (did, doff) = self.check(dst, len, Access::Write)?;
        let n = len as usize;
        if sid == did {
            self.objects[sid].data.copy_within(soff..soff + n, doff);
        } else {
            let Ok([s, d]) = self.objects.get_disjoint_mut([sid, did]) else {
                unreachable!("two distinct objects of the map");
            };
            d.data[doff..doff + n].copy_from_slice(&s.data[soff..soff + n]);
        }
        Ok(())
    }

    /// The length of the NUL-terminated string at `addr`: a string that runs off its object
    /// is an out-of-bounds read of the first byte past the end.
    pub fn strlen(&mut self, addr: u64) -> Result<u64, Fault> {
        self.strnlen(addr, u64::MAX)
    }

    /// Like [`Memory::strlen`] but reads at most `max` bytes.
    pub fn strnlen(&mut self, addr: u64, max: u64) -> Result<u64, Fault> {
        Ok(self.scan(addr, max, |b| b == 0)?.unwrap_or(max))
    }

    /// Reads bytes from `addr` on, in order, until `stop` holds for one (its index is
    /// returned) or `max` bytes were read (`None`). Exactly the bytes read are checked, so a
    /// scan that runs off its object reports the first byte past the end.
    pub fn scan(&mut self, addr: u64, max: u64, mut stop: impl FnMut(u8) -> bool) -> Result<Option<u64>, Fault> {
        let mut done = 0u64;
        while done < max {
            let at = addr.wrapping_add(done);
            let (id, off) = self.check(at, 1, Access::Read)?;
            let data = &self.objects[id].data[off..];
            let limit = usize::try_from(max - done).unwrap_or(usize::MAX).min(data.len());
            if let Some(i) = data[..limit].iter().position(|&b| stop(b)) {
                return Ok(Some(done + i as u64));
            }
            // Continue at the first byte past what was read: the next check fails if that is
            // past the object.
            done += limit as u64;
        }
        Ok(None)
    }

    /// How many bytes can be read from `addr` to the end of its object (at least 1).
    pub fn readable_len(&mut self, addr: u64) -> Result<u64, Fault> {
        let (id, off) = self.check(addr, 1, Access::Read)?;
        Ok(self.objects[id].size - off as u64)
    }

    /// The bytes of the NUL-terminated string at `addr` (without the NUL).
    pub fn read_cstr(&mut self, addr: u64) -> Result<Vec<u8>, Fault> {
        let n = self.strlen(addr)?;
        Ok(self.read(addr, n)?.to_vec())
    }

    /// `free(addr)` of a heap block at source line `line`. `free(NULL)` is a no-op.
    pub fn free(&mut self, addr: u64, line: u32) -> Result<(), Fault> {
        if addr == 0 {
            return Ok(());
        }
        let id = self.heap_block(addr, "free")?;
        let o = &mut self.objects[id];
        self.live_heap_bytes -= o.size;
        o.state = State::Freed { line };
        o.data = Vec::new();
        self.forget(id);
        Ok(())
    }

    /// The live heap block starting exactly at `addr`, else the `free`/`realloc` error.
    pub fn heap_block(&self, addr: u64, op: &str) -> Result<ObjectId, Fault> {
        let not_malloced =
            || Fault::error(ErrorKind::InvalidFree, format!("{op} of address {addr:#x}, which malloc did not return"));
        let (id, offset) = self.resolve(addr).ok_or_else(not_malloced)?;
        let o = &self.objects[id];
        // An address in a redzone is no pointer into the object.
        if offset < 0 || (offset != 0 && offset as u64 >= o.size) {
            return Err(not_malloced());
        }
        if !matches!(o.origin, Origin::Heap { .. }) {
            return Err(Fault::error(
                ErrorKind::InvalidFree,
                format!("{op} of {} at offset {offset}, which is not on the heap", self.describe(id)),
            ));
        }
        if offset != 0 {
            return Err(Fault::error(
                ErrorKind::InvalidFree,
                format!("{op} of a pointer {offset} bytes into {} ({})", self.describe(id), bytes(o.size)),
            ));
        }
        if let State::Freed { .. } = o.state {
            return Err(Fault::error(
                ErrorKind::DoubleFree,
                format!("{op} of {} ({}), which was already freed", self.describe(id), bytes(o.size)),
            ));
        }
        Ok(id)
    }
}

#[cfg(test)]
mod tests;
