//! [`ForkList`]: an append-only list whose clones share their prefix, so that forking a path (its
//! path condition, its trail of decisions) costs the same whatever the path's length.
//!
//! The list is a chain of immutable chunks of [`CHUNK`] elements, newest last, each pointing at
//! the one before it, plus a short mutable tail. Appending writes the tail; a full tail becomes
//! a new chunk. Cloning copies the tail (fewer than `CHUNK` elements) and one pointer. Two lists
//! that came from one by forking share every chunk made before the fork, so their common prefix
//! is found by comparing chunk pointers ([`ForkList::common_prefix`]): the solver uses it to find
//! what changed since its last query, and seeded shadow execution to test whether one path
//! extends another.

use std::sync::Arc;

/// Elements per chunk.
pub const CHUNK: usize = 32;

struct Chunk<T> {
    items: [T; CHUNK],
    prev: Option<Arc<Chunk<T>>>,
    /// Elements up to and including this chunk.
    len: usize,
}

/// An append-only list (see the module documentation).
pub struct ForkList<T> {
    /// The newest full chunk.
    last: Option<Arc<Chunk<T>>>,
    /// The elements after it (fewer than `CHUNK`).
    tail: Vec<T>,
}

impl<T> Drop for ForkList<T> {
    /// Releases the chunks only this list holds one by one: a long chain dropped recursively
    /// would overflow the stack.
    fn drop(&mut self) {
        let mut next = self.last.take();
        while let Some(chunk) = next {
            match Arc::try_unwrap(chunk) {
                Ok(mut c) => next = c.prev.take(),
                Err(_) => break,
            }
        }
    }
}

impl<T: Copy> Clone for ForkList<T> {
    fn clone(&self) -> Self {
        // Room for a whole tail: a fork appends to its copy at once, and growing a vector of
        // exactly the copied length would reallocate it on the first push.
        let mut tail = Vec::with_capacity(CHUNK);
        tail.extend_from_slice(&self.tail);
        ForkList { last: self.last.clone(), tail }
    }

    fn clone_from(&mut self, source: &Self) {
        self.last.clone_from(&source.last);
        self.tail.clone_from(&source.tail);
    }
}

impl<T> Default for ForkList<T> {
    fn default() -> Self {
        ForkList { last: None, tail: Vec::new() }
    }
}

impl<T: Copy> ForkList<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.chunked() + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Elements in full chunks.
    fn chunked(&self) -> usize {
        self.last.as_ref().map_or(0, |c| c.len)
    }

    pub fn push(&mut self, x: T) {
        self.tail.push(x);
        if self.tail.len() == CHUNK {
            let items: [T; CHUNK] = std::array::from_fn(|i| self.tail[i]);
            let len = self.chunked() + CHUNK;
            self.last = Some(Arc::new(Chunk { items, prev: self.last.take(), len }));
            self.tail.clear();
        }
    }

    /// The newest element.
    pub fn last(&self) -> Option<T> {
        self.tail.last().copied().or_else(|| self.last.as_ref().map(|c| c.items[CHUNK - 1]))
    }

    /// The full chunks, oldest first.
    fn chunks(&self) -> Vec<&Chunk<T>> {
        let mut out = Vec::with_capacity(self.chunked() / CHUNK);
        let mut at = self.last.as_deref();
        while let Some(c) = at {
            out.push(c);
            at = c.prev.as_deref();
        }
        out.reverse();
        out
    }

    /// Every element, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.chunks().into_iter().flat_map(|c| c.items.iter().copied()).chain(self.tail.iter().copied())
    }

    /// The elements from index `from` on, oldest first.
    pub fn iter_from(&self, from: usize) -> impl Iterator<Item = T> + '_ {
        // Only the chunks that hold elements from `from` on.
        let mut chunks = Vec::new();
        let mut at = self.last.as_deref();
        while let Some(c) = at.filter(|c| c.len > from) {
            chunks.push(c);
            at = c.prev.as_deref();
        }
        chunks.reverse();
        let skip = from.saturating_sub(chunks.first().map_or(self.chunked(), |c| c.len - CHUNK));
        chunks.into_iter().flat_map(|c| c.items.iter().copied()).chain(self.tail.iter().copied()).skip(skip)
    }

    /// Every element, oldest first, in a vector.
    pub fn to_vec(&self) -> Vec<T> {
        let mut out = Vec::with_capacity(self.len());
        out.extend(self.iter());
        out
    }

    /// Appends the elements of `items`.
    pub fn extend(&mut self, items: impl IntoIterator<Item = T>) {
        for x in items {
            self.push(x);
        }
    }
}

impl<T: Copy + PartialEq> ForkList<T> {
    /// How many leading elements `self` and `other` have in common. Chunks shared by forking
    /// are recognised by pointer: the cost is one step per chunk of the longer list, plus a
    /// comparison of the elements of the first chunks that differ.
    pub fn common_prefix(&self, other: &ForkList<T>) -> usize {
        // Walk both chains down to chunks of equal length, then in step until they coincide.
        let (mut a, mut b) = (self.last.as_ref(), other.last.as_ref());
        let len = |c: Option<&Arc<Chunk<T>>>| c.map_or(0, |c| c.len);
        while len(a) != len(b) {
            if len(a) > len(b) {
                a = a.and_then(|c| c.prev.as_ref());
            } else {
                b = b.and_then(|c| c.prev.as_ref());
            }
        }
        while let (Some(x), Some(y)) = (a, b) {
            if Arc::ptr_eq(x, y) {
                break;
            }
            a = x.prev.as_ref();
            b = y.prev.as_ref();
        }
        // Everything up to the shared chunk is common; compare element by element after it.
        let shared = len(a);
        if shared == self.chunked() && shared == other.chunked() {
            // The usual case (the same full chunks): only the tails differ.
            return shared + self.tail.iter().zip(&other.tail).take_while(|(x, y)| x == y).count();
        }
        shared + self.iter_from(shared).zip(other.iter_from(shared)).take_while(|(x, y)| x == y).count()
    }

    /// Whether `prefix` is a prefix of (or equal to) `self`.
    pub fn starts_with(&self, prefix: &ForkList<T>) -> bool {
        prefix.len() <= self.len() && self.common_prefix(prefix) == prefix.len()
    }
}

impl<T: Copy> FromIterator<T> for ForkList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = ForkList::new();
        list.extend(iter);
        list
    }
}

impl<T: Copy + PartialEq> PartialEq for ForkList<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.common_prefix(other) == self.len()
    }
}

impl<T: Copy + PartialEq> Eq for ForkList<T> {}

impl<T: Copy + std::fmt::Debug> std::fmt::Debug for ForkList<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forks_share_their_prefix_and_diverge_after_it() {
        let mut a: ForkList<u32> = (0..100).collect();
        let mut b = a.clone();
        a.extend(100..150);
        b.extend([7, 8, 9]);
        assert_eq!(a.to_vec(), (0..150).collect::<Vec<_>>());
        assert_eq!(b.iter().collect::<Vec<_>>(), (0..100).chain([7, 8, 9]).collect::<Vec<_>>());
        assert_eq!(a.common_prefix(&b), 100);
        assert_eq!(b.common_prefix(&a), 100);
        assert_eq!(a.iter_from(95).collect::<Vec<_>>(), (95..150).collect::<Vec<_>>());
        assert_eq!(a.iter_from(150).count(), 0);
        assert_eq!(a.last(), Some(149));
        let c = a.clone();
        assert!(c.starts_with(&a) && a == c);
        a.push(150);
        assert!(a.starts_with(&c) && !c.starts_with(&a));
    }

    #[test]
    fn lists_built_apart_compare_by_value() {
        let a: ForkList<u32> = (0..70).collect();
        let b: ForkList<u32> = (0..40).chain([0]).chain(41..70).collect();
        assert_eq!(a.common_prefix(&b), 40);
        let c: ForkList<u32> = (0..70).collect();
        assert_eq!(a, c);
        assert_eq!(ForkList::<u32>::new().common_prefix(&a), 0);
    }

    #[test]
    fn a_long_list_drops_without_recursion() {
        let a: ForkList<u32> = (0..20_000_000).collect();
        let b = a.clone();
        drop(a);
        assert_eq!(b.len(), 20_000_000);
    }

    #[test]
    fn a_clone_copies_at_most_a_chunk() {
        let a: ForkList<u32> = (0..10_000).collect();
        assert!(a.tail.len() < CHUNK);
        assert!(Arc::ptr_eq(a.last.as_ref().unwrap(), a.clone().last.as_ref().unwrap()));
    }
}
