//! The bytes of one memory object, copy-on-write in chunks.
//!
//! An object's bytes are width-8 terms. Forked states share them; the first write after a fork
//! must copy. Copying the whole object (KLEE copies an `ObjectState`'s byte store) makes every
//! fork that later writes a large buffer pay for all of it: 4,096 paths each writing one slot
//! of a 1 MiB array copied 4 GiB of terms. Here the bytes are cut into chunks of [`CHUNK`]
//! terms, each behind its own `Rc`, under one more `Rc` for the chunk list: a write copies the
//! list (a pointer per chunk) and the one chunk it touches. A fresh object shares one chunk of
//! its fill value in every slot, so allocating a large zeroed buffer costs a pointer per chunk,
//! not a term per byte.
//!
//! An object whose size is a term (`malloc(n)` with a symbolic `n`, or a size that differs
//! between the versions) keeps that term beside its bytes ([`ObjectBytes::size_term`]); its
//! bytes are then its *capacity*, the largest size the path allows (`symbolic::sizes`).
//!
//! A write at a symbolic offset rewrites every byte as `ite(offset == i, value, old)`, which
//! a concrete read wants; a read at a symbolic offset would then be a chain over all of them
//! (a 256-byte table after one write is 256 `ite`s per read). So the bytes also remember the
//! writes that made them from the bytes before the first symbolic one ([`WriteLog`]), until a
//! fill, a copy or more than [`MAX_LOGGED_WRITES`] writes: a symbolic read is then the earlier
//! bytes' chain under one `ite` per byte written, as an SMT array's `select(store(a, x, v), j)`
//! would be (`memory::select_byte`).

use penumbra_solver::TermId;
use std::rc::Rc;

/// Terms per chunk: a write after a fork copies 1 KiB of terms and `len / CHUNK` pointers.
/// (1,024 made tr's 6,000 live states of random-path take 447 MiB, 256 takes 326 MiB, at the
/// same speed on cut's depth-first paths.)
pub const CHUNK: usize = 256;

/// The bytes of an object (see the module documentation). Indices are byte offsets.
#[derive(Clone, Debug, Default)]
pub struct ObjectBytes {
    len: usize,
    chunks: Rc<Vec<Rc<[TermId]>>>,
    /// The object's size when it is not `len`: a 64-bit term, symbolic or holding a shadow,
    /// never above `len` on the path.
    size_term: Option<TermId>,
    /// The writes that made these bytes since a symbolic-offset one (see the module
    /// documentation).
    log: Option<Rc<WriteLog>>,
}

/// The most writes a [`WriteLog`] holds (past them, reads use the bytes).
pub const MAX_LOGGED_WRITES: usize = 16;

/// Bytes made from `base` by writes, in order, the first at a symbolic offset: each the offset
/// and the bytes written there.
#[derive(Clone, Debug)]
pub struct WriteLog {
    pub base: ObjectBytes,
    pub writes: Vec<(WriteAt, Rc<[TermId]>)>,
}

impl WriteLog {
    /// The log with one more write, if it has room for it.
    fn and(mut self, at: WriteAt, data: &[TermId]) -> Option<Rc<WriteLog>> {
        (self.writes.len() < MAX_LOGGED_WRITES).then(|| {
            self.writes.push((at, Rc::from(data)));
            Rc::new(self)
        })
    }
}

/// Where a logged write went.
#[derive(Copy, Clone, Debug)]
pub enum WriteAt {
    Const(usize),
    /// A 64-bit term.
    Sym(TermId),
}

impl ObjectBytes {
    /// `len` bytes, all `fill`.
    pub fn filled(len: usize, fill: TermId) -> Self {
        let mut chunks = Vec::with_capacity(len.div_ceil(CHUNK));
        if len >= CHUNK {
            let full: Rc<[TermId]> = Rc::from(vec![fill; CHUNK]);
            chunks.resize(len / CHUNK, full);
        }
        if len % CHUNK != 0 {
            chunks.push(Rc::from(vec![fill; len % CHUNK]));
        }
        ObjectBytes { len, chunks: Rc::new(chunks), size_term: None, log: None }
    }

    /// The bytes of a slice.
    pub fn from_slice(bytes: &[TermId]) -> Self {
        let chunks = bytes.chunks(CHUNK).map(Rc::from).collect();
        ObjectBytes { len: bytes.len(), chunks: Rc::new(chunks), size_term: None, log: None }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The object's size as a term, when it is not the number of bytes (see the module
    /// documentation).
    pub fn size_term(&self) -> Option<TermId> {
        self.size_term
    }

    pub fn set_size_term(&mut self, size: Option<TermId>) {
        self.size_term = size;
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The byte at `i` (`i < len`).
    pub fn get(&self, i: usize) -> TermId {
        self.chunks[i / CHUNK][i % CHUNK]
    }

    /// Copies the bytes from `offset` into `out` (in bounds, checked by the caller).
    pub fn read(&self, offset: usize, out: &mut [TermId]) {
        let mut at = offset;
        let mut done = 0;
        while done < out.len() {
            let chunk = &self.chunks[at / CHUNK];
            let from = at % CHUNK;
            let n = (chunk.len() - from).min(out.len() - done);
            out[done..done + n].copy_from_slice(&chunk[from..from + n]);
            done += n;
            at += n;
        }
    }

    /// The bytes `offset .. offset + len`, copied.
    pub fn to_vec(&self, offset: usize, len: usize) -> Vec<TermId> {
        self.range(offset, offset + len).collect()
    }

    /// Every byte, in order.
    pub fn iter(&self) -> impl Iterator<Item = TermId> + '_ {
        self.chunks.iter().flat_map(|c| c.iter().copied())
    }

    /// The bytes `from .. to`, in order.
    pub fn range(&self, from: usize, to: usize) -> impl Iterator<Item = TermId> + '_ {
        let first = from / CHUNK;
        let last = to.div_ceil(CHUNK).min(self.chunks.len());
        self.chunks[first..last.max(first)]
            .iter()
            .flat_map(|c| c.iter().copied())
            .skip(from - first * CHUNK)
            .take(to.saturating_sub(from))
    }

    /// Overwrites the bytes from `offset` with `data` (in bounds, checked by the caller),
    /// copying only the chunks written that other states share.
    pub fn write(&mut self, offset: usize, data: &[TermId]) {
        if let Some(log) = self.log.take() {
            self.log = Rc::unwrap_or_clone(log).and(WriteAt::Const(offset), data);
        }
        let chunks = Rc::make_mut(&mut self.chunks);
        let mut at = offset;
        let mut done = 0;
        while done < data.len() {
            let chunk = Rc::make_mut(&mut chunks[at / CHUNK]);
            let from = at % CHUNK;
            let n = (chunk.len() - from).min(data.len() - done);
            chunk[from..from + n].copy_from_slice(&data[done..done + n]);
            done += n;
            at += n;
        }
    }

    /// Sets the bytes `offset .. offset + len` to `byte` (in bounds, checked by the caller). A
    /// chunk covered whole becomes one shared chunk of `byte`, so `memset` of a large buffer
    /// costs a pointer per chunk.
    pub fn fill(&mut self, offset: usize, len: usize, byte: TermId) {
        self.log = None;
        let chunks = Rc::make_mut(&mut self.chunks);
        let mut full: Option<Rc<[TermId]>> = None;
        let (mut at, end) = (offset, offset + len);
        while at < end {
            let c = at / CHUNK;
            let from = at % CHUNK;
            let n = (chunks[c].len() - from).min(end - at);
            if n == CHUNK {
                chunks[c] = full.get_or_insert_with(|| Rc::from(vec![byte; CHUNK])).clone();
            } else {
                Rc::make_mut(&mut chunks[c])[from..from + n].fill(byte);
            }
            at += n;
        }
    }

    /// Copies `len` bytes of `src` from `src_off` to `dst_off` (in bounds, checked by the
    /// caller), reading `src` as it was before (so `src` may be a clone of `self`: `memmove`).
    /// A chunk covered whole at the same place in both is shared, not copied.
    pub fn copy_from(&mut self, dst_off: usize, src: &ObjectBytes, src_off: usize, len: usize) {
        self.log = None;
        let chunks = Rc::make_mut(&mut self.chunks);
        let mut done = 0;
        while done < len {
            let (d, s) = (dst_off + done, src_off + done);
            let (dc, df, sc, sf) = (d / CHUNK, d % CHUNK, s / CHUNK, s % CHUNK);
            let room = (chunks[dc].len() - df).min(src.chunks[sc].len() - sf).min(len - done);
            if df == 0 && sf == 0 && room == CHUNK {
                chunks[dc] = src.chunks[sc].clone();
            } else {
                Rc::make_mut(&mut chunks[dc])[df..df + room].copy_from_slice(&src.chunks[sc][sf..sf + room]);
            }
            done += room;
        }
    }

    /// The writes that made these bytes from earlier ones, the first at a symbolic offset (none
    /// after a fill, a copy, or more than [`MAX_LOGGED_WRITES`] writes).
    pub fn write_log(&self) -> Option<&WriteLog> {
        self.log.as_deref()
    }

    /// Records that these bytes were just made from `before` by writing `data` at the
    /// symbolic `offset`.
    pub fn log_symbolic_write(&mut self, mut before: ObjectBytes, offset: TermId, data: &[TermId]) {
        let log = match before.log.take() {
            Some(log) => Rc::unwrap_or_clone(log),
            None => WriteLog { base: before, writes: Vec::new() },
        };
        self.log = log.and(WriteAt::Sym(offset), data);
    }

    /// Replaces every byte `b` at offset `i` by `f(i, b)`.
    pub fn update_all(&mut self, mut f: impl FnMut(usize, TermId) -> TermId) {
        self.log = None;
        let chunks = Rc::make_mut(&mut self.chunks);
        for (c, chunk) in chunks.iter_mut().enumerate() {
            for (j, byte) in Rc::make_mut(chunk).iter_mut().enumerate() {
                *byte = f(c * CHUNK + j, *byte);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use penumbra_solver::TermStore;

    /// Terms standing for the numbers `0..n` (constants of width 16), and back.
    struct Numbers(TermStore, Vec<TermId>);

    impl Numbers {
        fn new(n: usize) -> Self {
            let mut store = TermStore::default();
            let terms = (0..n).map(|i| store.constant(16, i as u64)).collect();
            Numbers(store, terms)
        }

        fn t(&self, i: usize) -> TermId {
            self.1[i]
        }

        fn num(&self, t: TermId) -> usize {
            self.0.as_const(t).expect("a constant") as usize
        }

        fn all(&self, b: &ObjectBytes) -> Vec<usize> {
            b.iter().map(|x| self.num(x)).collect()
        }
    }

    #[test]
    fn writes_across_chunk_boundaries_read_back() {
        let n = Numbers::new(2 * CHUNK + 16);
        let len = 2 * CHUNK + 5;
        let mut b = ObjectBytes::filled(len, n.t(0));
        assert_eq!(b.len(), len);
        let data: Vec<TermId> = (1..=8).map(|i| n.t(i)).collect();
        b.write(CHUNK - 3, &data);
        let around: Vec<usize> = b.to_vec(CHUNK - 4, 10).into_iter().map(|x| n.num(x)).collect();
        assert_eq!(around, [0, 1, 2, 3, 4, 5, 6, 7, 8, 0]);
        let mut out = [n.t(0); 3];
        b.read(CHUNK - 1, &mut out);
        assert_eq!(out.map(|x| n.num(x)), [3, 4, 5]);
        assert_eq!(n.num(b.get(CHUNK + 4)), 8);
        let expected: Vec<usize> =
            (0..len).map(|i| if (CHUNK - 3..CHUNK + 5).contains(&i) { i + 4 - CHUNK } else { 0 }).collect();
        assert_eq!(n.all(&b), expected);
        let mid: Vec<usize> = b.range(CHUNK - 1, CHUNK + 2).map(|x| n.num(x)).collect();
        assert_eq!(mid, [3, 4, 5]);
        assert_eq!(b.range(len - 2, len).count(), 2);
        assert_eq!(b.range(7, 7).count(), 0);
    }

    #[test]
    fn a_write_after_a_fork_copies_one_chunk_and_leaves_the_fork_alone() {
        let n = Numbers::new(10);
        let mut b = ObjectBytes::filled(4 * CHUNK, n.t(0));
        let fork = b.clone();
        b.write(2 * CHUNK + 1, &[n.t(9)]);
        assert_eq!((n.num(b.get(2 * CHUNK + 1)), n.num(fork.get(2 * CHUNK + 1))), (9, 0));
        // The untouched chunks are still shared with the fork.
        for c in [0, 1, 3] {
            assert!(Rc::ptr_eq(&b.chunks[c], &fork.chunks[c]), "chunk {c}");
        }
        assert!(!Rc::ptr_eq(&b.chunks[2], &fork.chunks[2]));
    }

    #[test]
    fn a_fill_shares_the_chunks_it_covers_whole() {
        let n = Numbers::new(10);
        let len = 4 * CHUNK + 10;
        let mut b = ObjectBytes::filled(len, n.t(0));
        b.fill(CHUNK - 2, 2 * CHUNK + 5, n.t(7));
        let expected: Vec<usize> =
            (0..len).map(|i| if (CHUNK - 2..3 * CHUNK + 3).contains(&i) { 7 } else { 0 }).collect();
        assert_eq!(n.all(&b), expected);
        assert!(Rc::ptr_eq(&b.chunks[1], &b.chunks[2]), "the whole chunks share one fill");
        b.fill(len - 1, 1, n.t(9));
        assert_eq!(n.num(b.get(len - 1)), 9);
    }

    #[test]
    fn a_copy_reads_the_source_as_it_was_and_shares_aligned_chunks() {
        let n = Numbers::new(3 * CHUNK + 8);
        let src: Vec<TermId> = (0..3 * CHUNK + 8).map(|i| n.t(i)).collect();
        let mut b = ObjectBytes::from_slice(&src);
        // Overlapping, forwards by 3 (memmove): every byte moves, none is read after written.
        let before = b.clone();
        b.copy_from(3, &before, 0, 2 * CHUNK);
        let expected: Vec<usize> =
            (0..3 * CHUNK + 8).map(|i| if (3..2 * CHUNK + 3).contains(&i) { i - 3 } else { i }).collect();
        assert_eq!(n.all(&b), expected);
        // Aligned whole chunks are shared with the source.
        let mut d = ObjectBytes::filled(3 * CHUNK, n.t(0));
        d.copy_from(CHUNK, &before, CHUNK, CHUNK + 5);
        assert!(Rc::ptr_eq(&d.chunks[1], &before.chunks[1]));
        assert_eq!(
            (n.num(d.get(CHUNK - 1)), n.num(d.get(2 * CHUNK + 4)), n.num(d.get(2 * CHUNK + 5))),
            (0, 2 * CHUNK + 4, 0)
        );
    }

    #[test]
    fn update_all_sees_every_offset() {
        let n = Numbers::new(2 * (CHUNK + 7));
        let src: Vec<TermId> = (0..CHUNK + 7).map(|i| n.t(i)).collect();
        let mut b = ObjectBytes::from_slice(&src);
        b.update_all(|i, x| {
            assert_eq!(n.num(x), i);
            n.t(2 * i)
        });
        assert_eq!(n.all(&b), (0..CHUNK + 7).map(|i| 2 * i).collect::<Vec<_>>());
        assert!(ObjectBytes::default().is_empty());
    }
}
