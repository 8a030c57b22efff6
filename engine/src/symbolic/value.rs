//! The value of an SSA value in a frame: a concrete bitvector held unboxed, or a term.
//!
//! Interning every concrete value in the term store made a concrete loop cost a store node and
//! a hash-table slot per iteration (a 30-million-iteration loop took 2 GiB and ran 36 times
//! slower than `penumbra exec`). Frames therefore keep concrete values as [`Val::Const`], and
//! the interpreter computes on them directly (the concrete interpreter's semantics); only a
//! value that meets a symbolic operand, a check or the C library becomes a term
//! ([`Val::term`]). Memory keeps bytes as terms: the 256 byte constants are interned once.
//! Values wider than 64 bits (x87 `long double`s) are always terms ([`Val::wide`]).

use penumbra_solver::{mask, TermId, TermStore};

/// A frame's value of an SSA value (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Val {
    /// A concrete value: its width in bits (1..=64) and its bits, masked to the width.
    Const { width: u8, bits: u64 },
    /// A term (symbolic, a shadow pair, or a constant some other part of the engine built).
    Term(TermId),
}

impl Val {
    /// The constant `bits` (masked) of `width` bits.
    #[inline]
    pub fn konst(width: u8, bits: u64) -> Val {
        Val::Const { width, bits: bits & mask(width) }
    }

    /// The constant `bits` of `width` bits: unboxed up to 64 bits, a wide term above (an x87
    /// `long double`: frames hold few, and the float operators fold them in the store).
    pub fn wide(store: &mut TermStore, width: u8, bits: u128) -> Val {
        if width <= 64 {
            Val::konst(width, bits as u64)
        } else {
            Val::Term(store.constant_wide(width, bits))
        }
    }

    /// The value as a term, interning a constant.
    #[inline]
    pub fn term(self, store: &mut TermStore) -> TermId {
        match self {
            Val::Const { width, bits } => store.constant(width, bits),
            Val::Term(t) => t,
        }
    }

    /// The concrete bits, if the value is a constant of either kind.
    #[inline]
    pub fn as_const(self, store: &TermStore) -> Option<u64> {
        match self {
            Val::Const { bits, .. } => Some(bits),
            Val::Term(t) => store.as_const(t),
        }
    }

    /// The concrete bits of a value of any width, if it is a constant of either kind.
    #[inline]
    pub fn as_const_wide(self, store: &TermStore) -> Option<u128> {
        match self {
            Val::Const { bits, .. } => Some(u128::from(bits)),
            Val::Term(t) => store.as_const_wide(t),
        }
    }

    /// The width in bits.
    #[inline]
    pub fn width(self, store: &TermStore) -> u8 {
        match self {
            Val::Const { width, .. } => width,
            Val::Term(t) => store.width(t),
        }
    }
}

impl From<TermId> for Val {
    fn from(t: TermId) -> Val {
        Val::Term(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_val_is_sixteen_bytes_and_agrees_with_the_store() {
        assert_eq!(std::mem::size_of::<Val>(), 16);
        let mut store = TermStore::default();
        let k = Val::konst(8, 0x1ff);
        assert_eq!(k, Val::Const { width: 8, bits: 0xff });
        let t = k.term(&mut store);
        assert_eq!(store.as_const(t), Some(0xff));
        assert_eq!((Val::Term(t).as_const(&store), Val::Term(t).width(&store)), (Some(0xff), 8));
        let v = store.new_var("x", 32);
        let x = store.var(v);
        assert_eq!((Val::from(x).as_const(&store), Val::from(x).width(&store)), (None, 32));
    }
}
