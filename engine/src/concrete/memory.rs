//! Concrete memory: the shared [`AddressSpace`](crate::address) with each object's bytes,
//! and the checked accesses the interpreter and its C library make. Contents start zeroed,
//! including stack and heap objects C leaves uninitialised, so runs are deterministic.
//!
//! Every rule about addresses (layout, resolution, verdicts and their messages) is the address
//! space's; this file adds only the bytes and a cache of the last two objects accessed, which
//! most accesses hit again (a loop copying between two arrays alternates).

use super::stop::Fault;
use crate::address::{lay_out_argv, Access, AddressSpace, Contents, Object, ObjectId, Origin, Resolution, Segment};
use penumbra_ir::Module;

/// A concrete object's contents: its bytes.
impl Contents for Vec<u8> {
    type Maker = ();

    fn zeroed(_: &mut (), size: usize) -> Self {
        vec![0; size]
    }

    fn write_concrete(&mut self, _: &mut (), offset: usize, bytes: &[u8]) {
        self[offset..offset + bytes.len()].copy_from_slice(bytes);
    }

    fn released() -> Self {
        Vec::new()
    }
}

/// All objects of one run.
#[derive(Clone)]
pub struct Memory<'m> {
    module: &'m Module,
    space: AddressSpace<Vec<u8>>,
    /// The objects of the last two successful accesses, most recent first.
    recent: [Option<ObjectId>; 2],
}

impl<'m> Memory<'m> {
    /// Memory holding the objects of `space` (a program's image).
    pub fn new(module: &'m Module, space: AddressSpace<Vec<u8>>) -> Self {
        Memory { module, space, recent: [None, None] }
    }

    pub fn object(&self, id: ObjectId) -> &Object<Vec<u8>> {
        self.space.object(id)
    }

    /// The bytes of the live objects of a segment.
    pub fn live_bytes(&self, segment: Segment) -> u64 {
        self.space.live_bytes(segment)
    }

    /// Allocates a zeroed object; `None` when the segment (or its budget) is exhausted.
    pub fn allocate(&mut self, segment: Segment, size: u64, align: u64, origin: Origin) -> Option<ObjectId> {
        self.space.allocate(segment, size, align, origin, |n| vec![0; n])
    }

    /// Lays out `main`'s arguments (the argument strings, `argv` and `envp`) and returns the
    /// values of the `params` of `argc, argv, envp` that `main` takes; `None` if they do not fit.
    pub fn main_args(&mut self, args: &[Vec<u8>], env: &[String], params: usize) -> Option<Vec<u64>> {
        let sizes: Vec<u64> = args.iter().map(|a| a.len() as u64 + 1).collect();
        let argv = lay_out_argv(&mut self.space, &mut (), &sizes, env, params)?;
        for (&id, arg) in argv.strings.iter().zip(args) {
            self.space.object_mut(id).contents[..arg.len()].copy_from_slice(arg);
        }
        Some(argv.values)
    }

    /// A stack object's function returned.
    pub fn kill_stack_object(&mut self, id: ObjectId) {
        self.space.kill_stack_object(id);
        self.forget(id);
    }

    /// Checks an access of `len > 0` bytes at `addr`; returns the object and in-bounds offset.
    #[inline]
    fn check(&mut self, addr: u64, len: u64, access: Access) -> Result<(ObjectId, usize), Fault> {
        for id in self.recent.into_iter().flatten() {
            if self.space.permits(id, addr, len, access) {
                return Ok((id, (addr - self.space.object(id).base) as usize));
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
        match self.space.classify(self.module, addr, len, access) {
            Resolution::InBounds { obj, offset } => {
                self.recent = [Some(obj), self.recent[0]];
                Ok((obj, offset as usize))
            }
            Resolution::Fault { kind, message, .. } => Err(Fault::error(kind, message)),
            Resolution::Unsupported(message) => Err(Fault::unsupported(message.to_string())),
        }
    }

    /// Reads `len` bytes (checked); an empty read touches nothing.
    pub fn read(&mut self, addr: u64, len: u64) -> Result<&[u8], Fault> {
        if len == 0 {
            return Ok(&[]);
        }
        let (id, off) = self.check(addr, len, Access::Read)?;
        Ok(&self.space.object(id).contents[off..off + len as usize])
    }

    /// The `len` bytes at `addr` for writing (checked); an empty write touches nothing.
    pub fn write(&mut self, addr: u64, len: u64) -> Result<&mut [u8], Fault> {
        if len == 0 {
            return Ok(&mut []);
        }
        let (id, off) = self.check(addr, len, Access::Write)?;
        Ok(&mut self.space.object_mut(id).contents[off..off + len as usize])
    }

    /// Loads `size` (1..=16) bytes, little-endian (an `f80`'s ten).
    #[inline]
    pub fn load(&mut self, addr: u64, size: u32) -> Result<u128, Fault> {
        let src = self.read(addr, u64::from(size))?;
        let mut buf = [0u8; 16];
        buf[..src.len()].copy_from_slice(src);
        Ok(u128::from_le_bytes(buf))
    }

    /// Stores the low `size` (1..=16) bytes of `value`, little-endian (an `f80`'s ten).
    #[inline]
    pub fn store(&mut self, addr: u64, size: u32, value: u128) -> Result<(), Fault> {
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
            self.space.object_mut(sid).contents.copy_within(soff..soff + n, doff);
        } else {
            let Some([s, d]) = self.space.two_objects_mut(sid, did) else {
                unreachable!("two distinct objects of the map");
            };
            d.contents[doff..doff + n].copy_from_slice(&s.contents[soff..soff + n]);
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
            let data = &self.space.object(id).contents[off..];
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
        Ok(self.space.object(id).size - off as u64)
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
        self.space.free_heap_object(id, line);
        self.forget(id);
        Ok(())
    }

    /// The live heap block starting exactly at `addr`, else the `free`/`realloc` error.
    pub fn heap_block(&self, addr: u64, op: &str) -> Result<ObjectId, Fault> {
        self.space.heap_block(self.module, addr, op).map_err(|(kind, message)| Fault::error(kind, message))
    }
}

#[cfg(test)]
mod tests;
