//! [`Chunked`]: an entity map whose clones share their entries in chunks, copied on write.
//!
//! A path's address space is copied when a forked state first writes to memory, and with it
//! the table of every object the run allocated (dead ones stay as tombstones, so the table only
//! grows). As one vector, that copy cost each state the whole table: on fold, 30,000 live
//! states held a copy each, and the tables were most of the run's memory. Here a clone copies
//! one pointer per [`CHUNK`] entries, and a write copies the one chunk it touches (KLEE keeps
//! its objects in an immutable tree for the same reason).

use cranelift_entity::EntityRef;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};
use std::sync::Arc;

/// Entries per shared chunk.
pub const CHUNK: usize = 32;

#[derive(Debug)]
pub struct Chunked<K, V> {
    chunks: Vec<Arc<Vec<V>>>,
    len: usize,
    key: PhantomData<K>,
}

impl<K, V> Clone for Chunked<K, V> {
    fn clone(&self) -> Self {
        Chunked { chunks: self.chunks.clone(), len: self.len, key: PhantomData }
    }
}

impl<K, V> Default for Chunked<K, V> {
    fn default() -> Self {
        Chunked { chunks: Vec::new(), len: 0, key: PhantomData }
    }
}

impl<K: EntityRef, V: Clone> Chunked<K, V> {
    pub fn len(&self) -> usize {
        self.len
    }

    /// Appends `v`; its key.
    pub fn push(&mut self, v: V) -> K {
        if self.len % CHUNK == 0 {
            self.chunks.push(Arc::new(Vec::with_capacity(CHUNK)));
        }
        let last = self.chunks.last_mut().expect("a chunk with room");
        Arc::make_mut(last).push(v);
        self.len += 1;
        K::new(self.len - 1)
    }

    /// The entries in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.chunks.iter().flat_map(|c| c.iter())
    }

    /// Two distinct entries for writing (`None` for one key twice).
    pub fn two_mut(&mut self, a: K, b: K) -> Option<[&mut V; 2]> {
        let (a, b) = (a.index(), b.index());
        if a == b || a >= self.len || b >= self.len {
            return None;
        }
        let (ca, cb) = (a / CHUNK, b / CHUNK);
        if ca == cb {
            let chunk = Arc::make_mut(&mut self.chunks[ca]);
            let (lo, hi) = (a.min(b) % CHUNK, a.max(b) % CHUNK);
            let (left, right) = chunk.split_at_mut(hi);
            let (x, y) = (&mut left[lo], &mut right[0]);
            return Some(if a < b { [x, y] } else { [y, x] });
        }
        let (left, right) = self.chunks.split_at_mut(ca.max(cb));
        let (lo, hi) = (Arc::make_mut(&mut left[ca.min(cb)]), Arc::make_mut(&mut right[0]));
        let (x, y) = (&mut lo[a.min(b) % CHUNK], &mut hi[a.max(b) % CHUNK]);
        Some(if a < b { [x, y] } else { [y, x] })
    }
}

impl<K: EntityRef, V> Index<K> for Chunked<K, V> {
    type Output = V;

    fn index(&self, k: K) -> &V {
        let i = k.index();
        &self.chunks[i / CHUNK][i % CHUNK]
    }
}

impl<K: EntityRef, V: Clone> IndexMut<K> for Chunked<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        let i = k.index();
        &mut Arc::make_mut(&mut self.chunks[i / CHUNK])[i % CHUNK]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    struct Id(u32);
    cranelift_entity::entity_impl!(Id);

    /// A clone shares every chunk; a write copies the chunk it touches only, and the original
    /// keeps its value.
    #[test]
    fn clones_share_chunks_until_a_write() {
        let mut a: Chunked<Id, u64> = Chunked::default();
        for i in 0..100 {
            assert_eq!(a.push(i), Id(i as u32));
        }
        let mut b = a.clone();
        assert!(a.chunks.iter().zip(&b.chunks).all(|(x, y)| Arc::ptr_eq(x, y)));
        b[Id(40)] = 7;
        assert_eq!((a[Id(40)], b[Id(40)]), (40, 7));
        let shared = a.chunks.iter().zip(&b.chunks).filter(|(x, y)| Arc::ptr_eq(x, y)).count();
        assert_eq!(shared, a.chunks.len() - 1);
        let [x, y] = b.two_mut(Id(3), Id(99)).unwrap();
        std::mem::swap(x, y);
        assert_eq!((b[Id(3)], b[Id(99)], a[Id(3)]), (99, 3, 3));
        assert!(b.two_mut(Id(5), Id(5)).is_none());
        let [x, y] = b.two_mut(Id(1), Id(2)).unwrap();
        *x += *y;
        assert_eq!(b[Id(1)], 3);
        let [x, y] = b.two_mut(Id(70), Id(2)).unwrap();
        assert_eq!((*x, *y), (70, 2));
        assert_eq!(b.values().count(), 100);
        assert_eq!(b.values().nth(99), Some(&3));
    }
}
