//! The term store: hash-consed bitvector terms as a DAG of 16-byte nodes.
//!
//! Every term is a [`TermId`] (a `u32` index into the store's node vector).
//! Nodes are interned *shallowly*: a node is its operator, width, a small
//! payload byte and up to three child ids, so hashing and comparing a node is
//! O(1) and two terms are structurally equal exactly when their ids are equal.
//!
//! This file holds the data types ([`TermId`], [`VarId`], [`Op`],
//! [`TermData`]), interning, variables and the accessors. The constructors
//! that fold constants and rewrite live in `construct.rs`; the shadow
//! projections in `shadow.rs`.
//!
//! Invariants (checked by the constructors, relied on everywhere else):
//! - widths are 1..=64, except *wide* terms of 65..=[`WIDE_MAX`] bits, which hold x87
//!   `long double`s (80 bits): only constants, `Extract` (of), `Concat`, `Ite`, `Eq`,
//!   `Shadow` and the floating-point operators take or make them;
//! - constants are stored masked to their width;
//! - children always have smaller ids than their parent (the vector is a
//!   topological order of the DAG), which lets passes iterate without recursion;
//! - a `Shadow` node's two children contain no shadow themselves and differ.

use std::fmt;
use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};

/// A term: an index into a [`TermStore`]. Equal ids mean structurally equal terms.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd)]
#[repr(transparent)]
pub struct TermId(u32);

impl TermId {
    /// The raw index (dense, starting at 0, in creation order).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The raw `u32`.
    pub fn as_u32(self) -> u32 {
        self.0
    }

    pub(crate) fn from_index(i: usize) -> TermId {
        TermId(u32::try_from(i).expect("term store overflow: more than 2^32 terms"))
    }
}

impl fmt::Debug for TermId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

impl fmt::Display for TermId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

/// A symbolic variable (for the engine: one byte of a symbolic object).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd)]
#[repr(transparent)]
pub struct VarId(u32);

impl VarId {
    /// The raw index (dense, starting at 0, in creation order).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The raw `u32`.
    pub fn as_u32(self) -> u32 {
        self.0
    }

    /// A variable id from its raw index (only meaningful for the store that made it).
    pub fn from_u32(raw: u32) -> VarId {
        VarId(raw)
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}

/// The operator of a term node.
///
/// Only canonical operators exist as nodes: `ne`, `ugt`, `uge`, `sgt`, `sge`
/// are built from `not`, `ult`, `ule`, `slt`, `sle` by the constructors.
/// Comparisons produce width-1 terms (1 = true). Boolean connectives are the
/// bitwise operators on width 1.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
#[repr(u8)]
pub enum Op {
    /// A constant; value in the payload.
    Const,
    /// A variable; [`VarId`] in the payload.
    Var,
    Add,
    Sub,
    Mul,
    /// Unsigned division; `x / 0` is all ones (SMT-LIB `bvudiv`).
    UDiv,
    /// Signed division; SMT-LIB `bvsdiv` (`x / 0` is -1 for x >= 0, 1 otherwise).
    SDiv,
    /// Unsigned remainder; `x % 0 = x` (SMT-LIB `bvurem`).
    URem,
    /// Signed remainder, sign of the dividend; `x % 0 = x` (SMT-LIB `bvsrem`).
    SRem,
    /// Shift left; shifting by the width or more gives 0.
    Shl,
    /// Logical shift right; shifting by the width or more gives 0.
    LShr,
    /// Arithmetic shift right; shifting by the width or more fills with the sign bit.
    AShr,
    And,
    Or,
    Xor,
    Not,
    Neg,
    /// Equality (width 1 result).
    Eq,
    Ult,
    Ule,
    Slt,
    Sle,
    /// `extract(t, hi, lo)`: `lo` in the payload byte, `hi = lo + width - 1`.
    Extract,
    /// `concat(hi, lo)`: children are `[hi, lo]`.
    Concat,
    /// Zero extension to the node's width.
    ZExt,
    /// Sign extension to the node's width.
    SExt,
    /// `ite(c, a, b)` with a width-1 condition.
    Ite,
    /// `Shadow(old, new)`: the value of the old and of the new version.
    Shadow,
    /// IEEE arithmetic on the bits of floats (width 32: binary32, 64: binary64) as x86-64
    /// computes it ([`crate::float`]); the operation in the payload ([`crate::float::Arith`],
    /// `Add` to `Div`).
    FArith,
    /// The square root of a float.
    FSqrt,
    /// `a * b + c` on floats, rounded once (children `[a, b, c]`; binary32 and binary64).
    FFma,
    /// A float rounded to an integral value; the direction in the payload
    /// ([`crate::float::Integral`]).
    FRound,
    /// `a < b`, `a <= b`, `a == b` on floats: false when either is NaN, `-0 == +0` (width 1).
    FLt,
    FLe,
    FEq,
    /// Whether a float is NaN (width 1).
    FIsNan,
    /// A float converted to the other format (the node's width), rounded.
    FConvert,
    /// A float truncated toward zero to a signed / unsigned integer of the node's width: only
    /// meaningful when the result fits (the engine checks that first; outside, 0).
    FToSInt,
    FToUInt,
    /// A signed / unsigned integer converted to a float of the node's width, rounded.
    SIntToF,
    UIntToF,
}

impl Op {
    /// Number of children of a node with this operator.
    pub fn arity(self) -> usize {
        match self {
            Op::Const | Op::Var => 0,
            Op::Not | Op::Neg | Op::Extract | Op::ZExt | Op::SExt => 1,
            Op::FSqrt | Op::FRound | Op::FIsNan | Op::FConvert => 1,
            Op::FToSInt | Op::FToUInt | Op::SIntToF | Op::UIntToF => 1,
            Op::Ite | Op::FFma => 3,
            _ => 2,
        }
    }

    /// Whether this is a floating-point operator (its float operands and result are the bits
    /// of IEEE binary32 or binary64 values).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            Op::FArith
                | Op::FSqrt
                | Op::FFma
                | Op::FRound
                | Op::FLt
                | Op::FLe
                | Op::FEq
                | Op::FIsNan
                | Op::FConvert
                | Op::FToSInt
                | Op::FToUInt
                | Op::SIntToF
                | Op::UIntToF
        )
    }

    /// Whether `op(a, b) == op(b, a)`.
    pub fn is_commutative(self) -> bool {
        matches!(self, Op::Add | Op::Mul | Op::And | Op::Or | Op::Xor | Op::Eq)
    }
}

const HAS_SHADOW: u8 = 1;
const HAS_FLOAT: u8 = 2;

/// One node of the DAG: 16 bytes (pinned by a test).
///
/// Layout: `op: u8`, `width: u8`, `flags: u8` (bit 0: the term contains a
/// shadow; bit 1: a floating-point operator), `aux: u8` (the low bit index of an `Extract`,
/// the operation of an `FArith` or `FRound`), and `args: [TermId; 3]`.
/// `args` holds the children; a `Const` keeps its value's 32-bit limbs in `args[0..3]`
/// (low first: 96 bits, enough for wide terms); a `Var` keeps its [`VarId`] in `args[0]`.
/// Unused slots are 0. A larger payload would have to live in a side table.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct TermData {
    op: Op,
    width: u8,
    flags: u8,
    aux: u8,
    args: [TermId; 3],
}

impl TermData {
    /// The operator.
    pub fn op(&self) -> Op {
        self.op
    }

    /// The bit width (1..=64, or up to [`WIDE_MAX`] for a wide term).
    pub fn width(&self) -> u8 {
        self.width
    }

    /// The children (empty for constants and variables).
    pub fn children(&self) -> &[TermId] {
        &self.args[..self.op.arity()]
    }

    /// The constant's value, if this is a constant of at most 64 bits (a wide constant's is
    /// [`TermData::const_wide`]).
    pub fn const_value(&self) -> Option<u64> {
        (self.op == Op::Const && self.width <= 64)
            .then(|| u64::from(self.args[0].0) | (u64::from(self.args[1].0) << 32))
    }

    /// The constant's value, of any width, if this is a constant.
    pub fn const_wide(&self) -> Option<u128> {
        (self.op == Op::Const).then(|| {
            u128::from(self.args[0].0) | (u128::from(self.args[1].0) << 32) | (u128::from(self.args[2].0) << 64)
        })
    }

    /// The variable, if this is a variable.
    pub fn var(&self) -> Option<VarId> {
        (self.op == Op::Var).then_some(VarId(self.args[0].0))
    }

    /// For `Extract`: the low bit index (the high one is `lo + width - 1`).
    pub fn extract_lo(&self) -> u8 {
        self.aux
    }

    /// Whether the term contains a `Shadow` node.
    pub fn has_shadow(&self) -> bool {
        self.flags & HAS_SHADOW != 0
    }

    /// Whether the term contains a floating-point operator.
    pub fn has_float(&self) -> bool {
        self.flags & HAS_FLOAT != 0
    }

    /// The payload byte (`Extract`'s low bit, `FArith`'s and `FRound`'s operation).
    pub fn aux(&self) -> u8 {
        self.aux
    }
}

/// The bit mask of a width (`width` in 1..=64).
pub fn mask(width: u8) -> u64 {
    debug_assert!((1..=64).contains(&width));
    u64::MAX >> (64 - u32::from(width))
}

/// The widest term: wide terms (65..=`WIDE_MAX` bits) carry x87 `long double`s, 80 bits.
pub const WIDE_MAX: u8 = 96;

/// The bit mask of any width (1..=[`WIDE_MAX`]).
pub fn mask_wide(width: u8) -> u128 {
    debug_assert!((1..=WIDE_MAX).contains(&width));
    u128::MAX >> (128 - u32::from(width))
}

struct VarInfo {
    name: Box<str>,
    symbol: Box<str>,
    width: u8,
    term: TermId,
}

/// The hash-consed term DAG, the variables, and the memoised shadow projections.
///
/// Create one per run with [`TermStore::default`]; every [`crate::Solver`]
/// is used with one store only. (There is no `TermStore::new()`: `new(t)` is
/// the new-version projection.)
pub struct TermStore {
    nodes: Vec<TermData>,
    /// Per node, its weight ([`TermStore::weight`]), saturating.
    weights: Vec<u16>,
    table: HashTable<TermId>,
    hasher: FxBuildHasher,
    vars: Vec<VarInfo>,
    symbols: FxHashMap<Box<str>, VarId>,
    pub(crate) old_memo: FxHashMap<TermId, TermId>,
    pub(crate) new_memo: FxHashMap<TermId, TermId>,
    /// The recently interned constants, direct-mapped: the interpreter makes a constant for
    /// almost every concrete value it computes, and this answers most of them without
    /// hashing a node and probing the table.
    recent_consts: Box<[ConstSlot; CONST_SLOTS]>,
    store_id: u64,
}

const CONST_SLOTS: usize = 1024;

/// One slot of [`TermStore::recent_consts`]; width 0 marks an empty slot.
#[derive(Copy, Clone)]
struct ConstSlot {
    value: u64,
    width: u8,
    id: TermId,
}

impl Default for TermStore {
    fn default() -> Self {
        Self::with_capacity(1024)
    }
}

impl fmt::Debug for TermStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TermStore").field("terms", &self.nodes.len()).field("vars", &self.vars.len()).finish()
    }
}

impl TermStore {
    /// An empty store with room for `terms` nodes.
    pub fn with_capacity(terms: usize) -> Self {
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        TermStore {
            nodes: Vec::with_capacity(terms),
            weights: Vec::with_capacity(terms),
            table: HashTable::with_capacity(terms),
            hasher: FxBuildHasher,
            vars: Vec::new(),
            symbols: FxHashMap::default(),
            old_memo: FxHashMap::default(),
            new_memo: FxHashMap::default(),
            recent_consts: Box::new([ConstSlot { value: 0, width: 0, id: TermId(0) }; CONST_SLOTS]),
            store_id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// A process-unique id of this store (solvers check they see one store only).
    pub fn store_id(&self) -> u64 {
        self.store_id
    }

    /// Number of distinct terms.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The bytes the store is about to allocate: once its arrays are seven-eighths full, what
    /// their next doubling takes (while the old arrays are still alive). A memory budget adds
    /// it to the resident size, so that it stops a run before the doubling, not after it.
    pub fn pending_growth(&self) -> u64 {
        let near = |len: usize, cap: usize| len >= cap - cap / 8;
        let mut bytes = 0;
        if near(self.nodes.len(), self.nodes.capacity()) {
            let cap = self.nodes.capacity() as u64;
            bytes += 2 * cap * (std::mem::size_of::<TermData>() + std::mem::size_of::<u16>()) as u64;
        }
        if near(self.table.len(), self.table.capacity()) {
            // A table of twice the buckets: an id and a control byte each.
            bytes += 2 * self.table.capacity() as u64 * 8 / 7 * 5;
        }
        bytes
    }

    /// Whether the store holds no term.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Whether `t` names a term of this store.
    pub fn contains(&self, t: TermId) -> bool {
        t.index() < self.nodes.len()
    }

    /// The node of `t`.
    ///
    /// # Panics
    /// If `t` is not a term of this store.
    pub fn data(&self, t: TermId) -> &TermData {
        &self.nodes[t.index()]
    }

    /// The operator of `t`.
    pub fn op(&self, t: TermId) -> Op {
        self.data(t).op
    }

    /// The width of `t` in bits.
    pub fn width(&self, t: TermId) -> u8 {
        self.data(t).width
    }

    /// The children of `t`.
    pub fn children(&self, t: TermId) -> &[TermId] {
        self.data(t).children()
    }

    /// The value of `t` if it is a constant of at most 64 bits.
    pub fn as_const(&self, t: TermId) -> Option<u64> {
        self.data(t).const_value()
    }

    /// The value of `t` if it is a constant, of any width.
    pub fn as_const_wide(&self, t: TermId) -> Option<u128> {
        self.data(t).const_wide()
    }

    /// Whether `t` is a constant (of any width).
    pub fn is_const(&self, t: TermId) -> bool {
        self.data(t).op == Op::Const
    }

    /// The variable if `t` is one.
    pub fn as_var(&self, t: TermId) -> Option<VarId> {
        self.data(t).var()
    }

    /// Whether `t` is the width-1 constant 1.
    pub fn is_true(&self, t: TermId) -> bool {
        self.width(t) == 1 && self.as_const(t) == Some(1)
    }

    /// Whether `t` is the width-1 constant 0.
    pub fn is_false(&self, t: TermId) -> bool {
        self.width(t) == 1 && self.as_const(t) == Some(0)
    }

    /// Whether `t` contains a `Shadow` node (O(1): a flag on the node).
    pub fn has_shadow(&self, t: TermId) -> bool {
        self.data(t).has_shadow()
    }

    /// Whether `t` contains a floating-point operator (O(1): a flag on the node).
    pub fn has_float(&self, t: TermId) -> bool {
        self.data(t).has_float()
    }

    /// Ids of all terms, in creation (topological) order.
    pub fn ids(&self) -> impl Iterator<Item = TermId> {
        (0..self.nodes.len()).map(TermId::from_index)
    }

    // ----- variables -------------------------------------------------------

    /// A fresh variable of `width` bits named `name` (names need not be
    /// unique: the SMT-LIB symbol is made unique, see [`TermStore::var_symbol`]).
    ///
    /// # Panics
    /// If `width` is not in 1..=64.
    pub fn new_var(&mut self, name: &str, width: u8) -> VarId {
        check_width(width);
        let v = VarId(u32::try_from(self.vars.len()).expect("too many variables"));
        let base: String =
            name.chars().map(|c| if c == '|' || c == '\\' || c.is_control() { '_' } else { c }).collect();
        let base = if base.is_empty() { String::from("_") } else { base };
        let mut symbol = base.clone();
        let mut n = 0u32;
        while self.symbols.contains_key(symbol.as_str()) {
            n += 1;
            symbol = format!("{base}#{n}");
        }
        let symbol: Box<str> = symbol.into();
        self.symbols.insert(symbol.clone(), v);
        let data = TermData { op: Op::Var, width, flags: 0, aux: 0, args: [TermId(v.0), TermId(0), TermId(0)] };
        let term = self.intern(data);
        self.vars.push(VarInfo { name: name.into(), symbol, width, term });
        v
    }

    /// The term of variable `v`.
    pub fn var(&self, v: VarId) -> TermId {
        self.vars[v.index()].term
    }

    /// The name `v` was created with.
    pub fn var_name(&self, v: VarId) -> &str {
        &self.vars[v.index()].name
    }

    /// The unique symbol used for `v` in SMT-LIB output and in Bitwuzla: the
    /// name with `|` and `\` replaced, and `#1`, `#2`, ... appended to repeats.
    pub fn var_symbol(&self, v: VarId) -> &str {
        &self.vars[v.index()].symbol
    }

    /// The width of `v`.
    pub fn var_width(&self, v: VarId) -> u8 {
        self.vars[v.index()].width
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// All variables in creation order.
    pub fn vars(&self) -> impl Iterator<Item = VarId> {
        (0..self.vars.len() as u32).map(VarId)
    }

    /// The weight of `t`: the heaviest chain of operators from it to a leaf, each operator
    /// counted by roughly what bit-blasting it costs per bit (multiplication and division as
    /// many as the width, by a constant 4, shifts 6, floating point 4 times the width, the
    /// rest 1), up to
    /// `u16::MAX`. A loop that folds a symbolic value into itself makes it grow by the loop's
    /// operators each time around; what no solver could take in one query weighs thousands.
    pub fn weight(&self, t: TermId) -> u32 {
        u32::from(self.weights[t.index()])
    }

    // ----- interning ---------------------------------------------------------

    /// Interns a node, returning the id of an identical existing node if any.
    pub(crate) fn intern(&mut self, data: TermData) -> TermId {
        let hash = self.hasher.hash_one(data);
        let nodes = &self.nodes;
        if let Some(&id) = self.table.find(hash, |&id| nodes[id.index()] == data) {
            return id;
        }
        let id = TermId::from_index(self.nodes.len());
        let weight = data.children().iter().map(|c| self.weights[c.index()]).max().unwrap_or(0);
        let by_constant = data.children().iter().any(|c| self.nodes[c.index()].op == Op::Const);
        self.weights.push(weight.saturating_add(op_cost(data.op, data.width, by_constant)));
        self.nodes.push(data);
        let nodes = &self.nodes;
        let hasher = &self.hasher;
        self.table.insert_unique(hash, id, |&other| hasher.hash_one(nodes[other.index()]));
        id
    }

    /// Interns a constant (value masked to `width`).
    pub(crate) fn mk_const(&mut self, width: u8, value: u64) -> TermId {
        check_width(width);
        let v = value & mask(width);
        let slot = ((v.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) as usize ^ width as usize) % CONST_SLOTS;
        let recent = self.recent_consts[slot];
        if recent.width == width && recent.value == v {
            return recent.id;
        }
        let id = self.intern(TermData {
            op: Op::Const,
            width,
            flags: 0,
            aux: 0,
            args: [TermId(v as u32), TermId((v >> 32) as u32), TermId(0)],
        });
        self.recent_consts[slot] = ConstSlot { value: v, width, id };
        id
    }

    /// Interns a constant of any width up to [`WIDE_MAX`] (value masked to `width`).
    pub(crate) fn mk_const_wide(&mut self, width: u8, value: u128) -> TermId {
        if width <= 64 {
            return self.mk_const(width, value as u64);
        }
        check_wide_width(width);
        let v = value & mask_wide(width);
        let limb = |i: u32| TermId((v >> (32 * i)) as u32);
        self.intern(TermData { op: Op::Const, width, flags: 0, aux: 0, args: [limb(0), limb(1), limb(2)] })
    }

    /// Interns an operator node without any rewriting. Children must exist;
    /// widths are the caller's responsibility (the constructors check them).
    pub(crate) fn mk_node(&mut self, op: Op, width: u8, aux: u8, children: &[TermId]) -> TermId {
        debug_assert_eq!(children.len(), op.arity());
        let mut args = [TermId(0); 3];
        let mut flags = if op == Op::Shadow { HAS_SHADOW } else { 0 };
        if op.is_float() {
            flags |= HAS_FLOAT;
        }
        for (slot, &c) in args.iter_mut().zip(children) {
            *slot = c;
            flags |= self.nodes[c.index()].flags & (HAS_SHADOW | HAS_FLOAT);
        }
        self.intern(TermData { op, width, flags, aux, args })
    }
}

/// What one operator adds to a term's [`TermStore::weight`] (`by_constant`: an operand is a
/// constant, which makes a multiplication a few shifts and additions).
fn op_cost(op: Op, width: u8, by_constant: bool) -> u16 {
    match op {
        Op::Const | Op::Var | Op::Shadow => 0,
        Op::Mul if by_constant => 4,
        Op::Mul | Op::UDiv | Op::SDiv | Op::URem | Op::SRem => u16::from(width),
        Op::Shl | Op::LShr | Op::AShr => 6,
        op if op.is_float() => 4 * u16::from(width),
        _ => 1,
    }
}

/// Panics unless `width` is a supported bitvector width.
pub(crate) fn check_width(width: u8) {
    assert!((1..=64).contains(&width), "bitvector width {width} is not in 1..=64");
}

/// Panics unless `width` is a supported width of a wide-capable operator (1..=[`WIDE_MAX`]).
pub(crate) fn check_wide_width(width: u8) {
    assert!((1..=WIDE_MAX).contains(&width), "bitvector width {width} is not in 1..={WIDE_MAX}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_about_to_double_says_how_much_it_will_take() {
        let mut s = TermStore::with_capacity(1024);
        let quiet = s.pending_growth();
        for i in 0..950 {
            s.new_var(&format!("v{i}"), 8);
        }
        // Over seven eighths of the 1,024 slots: the next doubling's arrays are announced.
        assert!(s.pending_growth() >= quiet + 2 * 1024 * 18, "{} then {}", quiet, s.pending_growth());
    }

    #[test]
    fn term_data_is_16_bytes() {
        // A larger node must move its payload to a side table, not grow the node.
        assert_eq!(std::mem::size_of::<TermData>(), 16);
        assert_eq!(std::mem::size_of::<TermId>(), 4);
        assert_eq!(std::mem::size_of::<Option<TermId>>(), 8);
    }

    #[test]
    fn interning_returns_the_same_id_for_the_same_node() {
        let mut s = TermStore::default();
        let a = s.mk_const(8, 0x1ff);
        let b = s.mk_const(8, 0xff);
        assert_eq!(a, b);
        assert_eq!(s.as_const(a), Some(0xff));
        let c = s.mk_const(64, u64::MAX);
        assert_eq!(s.as_const(c), Some(u64::MAX));
        assert_ne!(a, c);
        assert_eq!(s.len(), 2);
    }

    #[test]
    fn variables_get_unique_symbols() {
        let mut s = TermStore::default();
        let x0 = s.new_var("x[0]", 8);
        let x0b = s.new_var("x[0]", 8);
        let weird = s.new_var("a|b\\c", 16);
        assert_ne!(s.var(x0), s.var(x0b));
        assert_eq!(s.var_name(x0b), "x[0]");
        assert_eq!(s.var_symbol(x0), "x[0]");
        assert_eq!(s.var_symbol(x0b), "x[0]#1");
        assert_eq!(s.var_symbol(weird), "a_b_c");
        assert_eq!(s.width(s.var(weird)), 16);
        assert_eq!(s.as_var(s.var(weird)), Some(weird));
    }

    #[test]
    fn wide_constants_keep_96_bits_and_have_no_narrow_value() {
        let mut s = TermStore::default();
        let x87_one = (0x3FFFu128 << 64) | 1 << 63;
        let k = s.mk_const_wide(80, x87_one | 1 << 90);
        assert_eq!(s.as_const_wide(k), Some(x87_one));
        assert_eq!(s.as_const(k), None);
        assert!(s.is_const(k));
        assert_eq!(s.mk_const_wide(80, x87_one), k);
        let narrow = s.mk_const_wide(16, 0x1_2345);
        assert_eq!((s.as_const(narrow), s.as_const_wide(narrow)), (Some(0x2345), Some(0x2345)));
        assert_eq!(mask_wide(80), (1u128 << 80) - 1);
    }

    #[test]
    fn mask_covers_all_widths() {
        assert_eq!(mask(1), 1);
        assert_eq!(mask(8), 0xff);
        assert_eq!(mask(63), u64::MAX >> 1);
        assert_eq!(mask(64), u64::MAX);
    }
}
