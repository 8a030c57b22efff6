//! Symbolic memory: the shared [`AddressSpace`](crate::address) whose objects' bytes are
//! terms ([`ObjectBytes`]).
//!
//! Every rule about addresses is the address space's, the same code the concrete interpreter
//! runs: a program sees the same addresses symbolically and on replay, and an address gets the
//! same verdict and message ([`AddressSpace::classify`]).
//!
//! **Copy-on-write.** A [`Memory`] is one `Rc` to its address space. Forking a state clones the
//! pointer; the first write after a fork copies the object table (one `Rc` per object's bytes,
//! never bytes; the address index stays shared until an allocation), and the object written
//! copies only the chunk of its bytes that the write touches ([`ObjectBytes`]). Each byte is a
//! [`TermId`] of width 8.
//!
//! **Symbolic offsets.** [`select_byte`] reads a byte at a symbolic offset as an `ite` chain
//! over the *runs* of equal bytes of the object (a large zeroed buffer with a few writes is a
//! short chain) or of constants counting up with the offset (an identity table is one run);
//! [`Memory::write_symbolic`] writes with one `ite` per byte of the object. The
//! interpreter concretises an offset instead when the chain would exceed [`MAX_ITE_RUNS`] runs
//! or the object [`MAX_SYMBOLIC_WRITE_BYTES`] bytes (counted in the run summary).

use super::object_bytes::{ObjectBytes, WriteAt};
use crate::address::{lay_out_argv, AddressSpace, Argv, Contents, ObjState, ObjectId, Origin, Segment};
use penumbra_solver::{TermId, TermStore};
use std::ops::Deref;
use std::rc::Rc;

/// Symbolic-offset reads build an `ite` chain over at most this many runs of equal bytes.
pub const MAX_ITE_RUNS: usize = 4096;
/// Symbolic-offset writes rewrite every byte of objects up to this size.
pub const MAX_SYMBOLIC_WRITE_BYTES: u64 = 4096;

/// A symbolic object's contents: a term per byte.
impl Contents for ObjectBytes {
    type Maker = TermStore;

    fn zeroed(store: &mut TermStore, size: usize) -> Self {
        ObjectBytes::filled(size, store.constant(8, 0))
    }

    fn write_concrete(&mut self, store: &mut TermStore, offset: usize, bytes: &[u8]) {
        let terms: Vec<TermId> = bytes.iter().map(|&b| store.constant(8, u64::from(b))).collect();
        self.write(offset, &terms);
    }

    fn released() -> Self {
        ObjectBytes::default()
    }
}

/// All objects of one state, shared copy-on-write with its forks. Reading goes through
/// [`Deref`] to the address space.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    space: Rc<AddressSpace<ObjectBytes>>,
}

impl Deref for Memory {
    type Target = AddressSpace<ObjectBytes>;

    fn deref(&self) -> &Self::Target {
        &self.space
    }
}

impl Memory {
    pub fn new(space: AddressSpace<ObjectBytes>) -> Self {
        Memory { space: Rc::new(space) }
    }

    fn space_mut(&mut self) -> &mut AddressSpace<ObjectBytes> {
        Rc::make_mut(&mut self.space)
    }

    /// Allocates an object whose bytes are all `fill` (a width-8 term); `None` when the
    /// segment (or its budget) is exhausted.
    pub fn allocate(
        &mut self,
        segment: Segment,
        size: u64,
        align: u64,
        origin: Origin,
        fill: TermId,
    ) -> Option<ObjectId> {
        self.space_mut().allocate(segment, size, align, origin, |n| ObjectBytes::filled(n, fill))
    }

    /// Lays out `main`'s argument strings (of `sizes` bytes each, zeroed), `argv` and `envp`.
    pub fn lay_out_argv(
        &mut self,
        store: &mut TermStore,
        sizes: &[u64],
        env: &[String],
        params: usize,
    ) -> Option<Argv> {
        lay_out_argv(self.space_mut(), store, sizes, env, params)
    }

    /// The size of object `id` as a term, when it is not its number of bytes (an object of
    /// symbolic size, or of a size that differs between the versions: `symbolic::sizes`).
    pub fn size_term(&self, id: ObjectId) -> Option<TermId> {
        self.object(id).contents.size_term()
    }

    /// Gives object `id` the size `size` (a 64-bit term at most its number of bytes on the path).
    pub fn set_size_term(&mut self, id: ObjectId, size: TermId) {
        self.space_mut().object_mut(id).contents.set_size_term(Some(size))
    }

    /// Sets an object's state.
    pub fn set_state(&mut self, id: ObjectId, state: ObjState) {
        self.space_mut().set_state(id, state);
    }

    /// A stack object's function returned.
    pub fn kill_stack_object(&mut self, id: ObjectId) {
        self.space_mut().kill_stack_object(id);
    }

    /// Frees a live heap block (the caller checked it is one).
    pub fn free_heap_object(&mut self, id: ObjectId, line: u32) {
        self.space_mut().free_heap_object(id, line);
    }

    /// Copies the bytes of a live object from `offset` into `out` (in bounds, checked by the
    /// caller).
    pub fn read_bytes(&self, id: ObjectId, offset: u64, out: &mut [TermId]) {
        self.object(id).contents.read(offset as usize, out)
    }

    /// The bytes `offset .. offset + len` of a live object, copied (in bounds, checked by the
    /// caller).
    pub fn bytes(&self, id: ObjectId, offset: u64, len: u64) -> Vec<TermId> {
        self.object(id).contents.to_vec(offset as usize, len as usize)
    }

    /// The byte at `offset` of a live object (in bounds, checked by the caller).
    pub fn byte(&self, id: ObjectId, offset: u64) -> TermId {
        self.object(id).contents.get(offset as usize)
    }

    /// Overwrites bytes from `offset` (in bounds, checked by the caller).
    pub fn write_bytes(&mut self, id: ObjectId, offset: u64, data: &[TermId]) {
        self.space_mut().object_mut(id).contents.write(offset as usize, data)
    }

    /// Copies `len` bytes from object `src` at `src_off` to object `dst` at `dst_off` (both in
    /// bounds), as `memmove`: overlapping ranges copy what the source held before.
    pub fn copy_bytes(&mut self, dst: ObjectId, dst_off: u64, src: ObjectId, src_off: u64, len: u64) {
        let from = self.object(src).contents.clone();
        self.space_mut().object_mut(dst).contents.copy_from(dst_off as usize, &from, src_off as usize, len as usize)
    }

    /// Sets `len` bytes from `offset` of object `id` to `byte` (in bounds).
    pub fn fill_bytes(&mut self, id: ObjectId, offset: u64, len: u64, byte: TermId) {
        self.space_mut().object_mut(id).contents.fill(offset as usize, len as usize, byte)
    }

    /// Writes the `data.len()` bytes of a value at the symbolic `offset` (a 64-bit term known
    /// to satisfy `offset <= size - data.len()`): every byte `i` of the object becomes
    /// `ite(offset == i - j, data[j], old)` over the `j` that can land on it.
    pub fn write_symbolic(&mut self, store: &mut TermStore, id: ObjectId, offset: TermId, data: &[TermId]) {
        let o = self.space_mut().object_mut(id);
        let size = o.size as usize;
        let w = data.len();
        let before = o.contents.clone();
        o.contents.update_all(|i, mut t| {
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
        o.contents.log_symbolic_write(before, offset, data);
    }
}

/// The byte at `offset + j` of `bytes`, where the symbolic `offset` satisfies
/// `offset <= bytes.len() - width`: an `ite` chain over the runs among the candidates (`None`
/// when there are more than [`MAX_ITE_RUNS`] runs). A run is either equal bytes or constants
/// that count up by one with the offset (`offset + c` in 8 bits): a table that maps most bytes
/// to themselves (tr's translation table, a case map) is a few runs, not 256. Bytes made by
/// symbolic-offset writes are read as the bytes before them under an `ite` per byte written
/// ([`ObjectBytes::write_log`]).
pub fn select_byte(
    store: &mut TermStore,
    bytes: &ObjectBytes,
    offset: TermId,
    j: usize,
    width: usize,
) -> Option<TermId> {
    let Some(log) = bytes.write_log() else {
        return select_from_runs(store, bytes, offset, j, width);
    };
    let mut acc = select_from_runs(store, &log.base, offset, j, width)?;
    let jt = store.constant(64, j as u64);
    let at = store.add(offset, jt);
    for &(x, ref data) in &log.writes {
        for (m, &d) in data.iter().enumerate() {
            let written = match x {
                WriteAt::Const(k) => store.constant(64, (k + m) as u64),
                WriteAt::Sym(x) => {
                    let mt = store.constant(64, m as u64);
                    store.add(x, mt)
                }
            };
            let hit = store.eq(written, at);
            acc = store.ite(hit, d, acc);
        }
    }
    Some(acc)
}

fn select_from_runs(
    store: &mut TermStore,
    bytes: &ObjectBytes,
    offset: TermId,
    j: usize,
    width: usize,
) -> Option<TermId> {
    let candidates = bytes.range(j, bytes.len() - width + j + 1);
    // (first candidate index, run), in increasing offset order
    let mut runs: Vec<(usize, Run)> = Vec::new();
    for (k, b) in candidates.enumerate() {
        if let Some((start, run)) = runs.last_mut() {
            if run.extends(store, *start, k, b) {
                continue;
            }
        }
        runs.push((k, Run::Same(b)));
        if runs.len() > MAX_ITE_RUNS {
            return None;
        }
    }
    // Build from the last run backwards: ite(offset <u end_of_run, value, rest).
    let mut acc = runs.last()?.1.value(store, offset);
    for w in (0..runs.len() - 1).rev() {
        let end = runs[w + 1].0 as u64;
        let k = store.constant(64, end);
        let below = store.ult(offset, k);
        let v = runs[w].1.value(store, offset);
        acc = store.ite(below, v, acc);
    }
    Some(acc)
}

/// A run of [`select_byte`]'s candidates.
#[derive(Copy, Clone)]
enum Run {
    /// Every byte is this term.
    Same(TermId),
    /// The byte at offset `k` is the constant `k + c` (mod 256).
    Counting(u64),
}

impl Run {
    /// Whether the run, which starts at candidate `start`, takes in byte `b` at candidate `k`
    /// (the next one), becoming a counting run where a one-byte constant is followed by the
    /// constant one above it.
    fn extends(&mut self, store: &TermStore, start: usize, k: usize, b: TermId) -> bool {
        let value = store.as_const(b);
        match *self {
            Run::Same(v) if v == b => true,
            Run::Same(v) => match (store.as_const(v), value) {
                (Some(first), Some(next)) if start + 1 == k && next == (first + 1) & 0xff => {
                    *self = Run::Counting(next.wrapping_sub(k as u64) & 0xff);
                    true
                }
                _ => false,
            },
            Run::Counting(c) => value == Some((k as u64).wrapping_add(c) & 0xff),
        }
    }

    /// The run's byte at the symbolic `offset` (within the run).
    fn value(self, store: &mut TermStore, offset: TermId) -> TermId {
        match self {
            Run::Same(v) => v,
            Run::Counting(c) => {
                let low_byte = store.extract(offset, 7, 0);
                let c = store.constant(8, c);
                store.add(low_byte, c)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use penumbra_solver::eval;

    #[test]
    fn forks_share_bytes_until_written() {
        let mut s = TermStore::default();
        let z = s.constant(8, 0);
        let one = s.constant(8, 1);
        let mut m = Memory::default();
        let a = m.allocate(Segment::Heap, 8, 16, Origin::Heap { line: 1 }, z).unwrap();
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
    fn select_byte_reads_counting_runs_as_the_offset() {
        let mut s = TermStore::default();
        let off = s.new_var("o", 64);
        let ot = s.var(off);
        // An identity table is one counting run: the read is the offset's low byte.
        let identity: Vec<TermId> = (0..256).map(|i| s.constant(8, i)).collect();
        let t = select_byte(&mut s, &ObjectBytes::from_slice(&identity), ot, 0, 1).unwrap();
        assert_eq!(t, s.extract(ot, 7, 0));
        // A case map: identity but 'a'..='z' to upper case, and a symbolic byte at 0.
        let x = s.new_var("x", 8);
        let xt = s.var(x);
        let mut table: Vec<TermId> =
            (0..256u64).map(|i| s.constant(8, if (97..=122).contains(&i) { i - 32 } else { i })).collect();
        table[0] = xt;
        let bytes = ObjectBytes::from_slice(&table);
        for j in [0, 1] {
            let t = select_byte(&mut s, &bytes, ot, j, 2).unwrap();
            for o in 0..255u64 {
                let assign = |v: penumbra_solver::VarId| if v == off { o } else { 200 };
                let i = o + j as u64;
                let expect = match i {
                    0 => 200,
                    97..=122 => i - 32,
                    _ => i,
                };
                assert_eq!(eval(&s, t, &assign), expect, "offset {o}, byte {j}");
            }
        }
    }

    #[test]
    fn a_symbolic_read_after_symbolic_writes_is_the_earlier_read_under_the_writes() {
        let mut s = TermStore::default();
        let (x, o, v) = (s.new_var("x", 64), s.new_var("o", 64), s.new_var("v", 8));
        let (xt, ot, vt) = (s.var(x), s.var(o), s.var(v));
        let mut m = Memory::default();
        let z = s.constant(8, 0);
        let a = m.allocate(Segment::Heap, 256, 16, Origin::Heap { line: 1 }, z).unwrap();
        let identity: Vec<TermId> = (0..256).map(|i| s.constant(8, i)).collect();
        m.write_bytes(a, 0, &identity);
        m.write_symbolic(&mut s, a, xt, &[vt]);
        // One write into an identity table: table[o] is `o == x ? v : o`, not 256 `ite`s.
        let t = select_byte(&mut s, &m.object(a).contents, ot, 0, 1).unwrap();
        let hit = s.eq(xt, ot);
        let low = s.extract(ot, 7, 0);
        assert_eq!(t, s.ite(hit, vt, low));
        // Two more writes, the second of two bytes at x + 1: the reads agree with the bytes the
        // writes left, at every offset pair tried.
        let one = s.constant(64, 1);
        let x1 = s.add(xt, one);
        let (b1, b2) = (s.constant(8, 0xb1), s.constant(8, 0xb2));
        m.write_symbolic(&mut s, a, x1, &[b1, b2]);
        for j in 0..2 {
            let t = select_byte(&mut s, &m.object(a).contents, ot, j, 2).unwrap();
            for (xv, ov) in [(3u64, 3u64), (3, 4), (3, 5), (7, 2), (0, 0), (254, 253), (10, 11)] {
                let assign = |var: penumbra_solver::VarId| match var {
                    _ if var == x => xv,
                    _ if var == o => ov,
                    _ => 0x77,
                };
                let byte = (ov + j as u64) as usize;
                let want = eval(&s, m.bytes(a, 0, 256)[byte], &assign);
                assert_eq!(eval(&s, t, &assign), want, "x {xv}, o {ov}, byte {j}");
            }
        }
        // A concrete write goes into the log; a fill ends it: reads go back to the bytes.
        let c = s.constant(8, 0xcc);
        m.write_bytes(a, 5, &[c]);
        let t = select_byte(&mut s, &m.object(a).contents, ot, 0, 1).unwrap();
        let assign = |var: penumbra_solver::VarId| if var == o { 5 } else { 9 };
        assert_eq!(eval(&s, t, &assign), 0xcc);
        assert_eq!(m.object(a).contents.write_log().map(|l| l.writes.len()), Some(3));
        m.fill_bytes(a, 0, 1, z);
        assert!(m.object(a).contents.write_log().is_none());
    }

    #[test]
    fn symbolic_write_updates_the_selected_byte_only() {
        let mut s = TermStore::default();
        let z = s.constant(8, 0);
        let off = s.new_var("o", 64);
        let ot = s.var(off);
        let mut m = Memory::default();
        let a = m.allocate(Segment::Stack, 4, 16, Origin::Heap { line: 1 }, z).unwrap();
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
