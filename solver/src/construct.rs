//! Term constructors: every way to make a term goes through here, and every
//! constructor folds constants and applies cheap local rewrites before
//! interning, so that `x + 0`, `x & x`, `ite(true, a, b)`, `extract` of a
//! `concat`, re-assembled byte extracts and the like never become nodes.
//!
//! Rewrites are local (they look at most two levels down, and the bound on a
//! value's magnitude in `bounds.rs` four) and never recurse on term depth.
//! Each rewrite is checked against Bitwuzla by the random rewrite test
//! (`tests/rewrites.rs`): no rewrite may change meaning.
//!
//! Canonical forms: commutative operators keep a constant operand on the
//! right and otherwise order operands by id; `x - c` becomes `x + (-c)`;
//! `ne`, `ugt`, `uge`, `sgt`, `sge` are `not(eq)`, and swapped `ult`, `ule`,
//! `slt`, `sle`; `not` of an ordering comparison flips it.
//!
//! # Panics
//! Constructors panic on ill-sorted arguments (mismatched widths, widths
//! outside 1..=64, or a wide operand where only the wide-capable constructors take one: see
//! the invariants in `term.rs`; bad extract indices): those are bugs in the caller, which
//! owns the types of its values, never a consequence of program input.

mod bounds;

use crate::semantics as sem;
use crate::term::{check_wide_width, check_width, mask, Op, TermId, TermStore};

impl TermStore {
    /// The constant `value` (masked to `width`).
    pub fn constant(&mut self, width: u8, value: u64) -> TermId {
        self.mk_const(width, value)
    }

    /// The constant `value` (masked to `width`) of any width up to [`crate::WIDE_MAX`].
    pub fn constant_wide(&mut self, width: u8, value: u128) -> TermId {
        self.mk_const_wide(width, value)
    }

    /// The width-1 constant 1.
    pub fn tt(&mut self) -> TermId {
        self.mk_const(1, 1)
    }

    /// The width-1 constant 0.
    pub fn ff(&mut self) -> TermId {
        self.mk_const(1, 0)
    }

    /// A width-1 constant.
    pub fn bool_const(&mut self, b: bool) -> TermId {
        self.mk_const(1, u64::from(b))
    }

    /// Zero of `width` bits.
    pub fn zero(&mut self, width: u8) -> TermId {
        self.mk_const(width, 0)
    }

    /// All ones of `width` bits.
    pub fn ones(&mut self, width: u8) -> TermId {
        self.mk_const(width, u64::MAX)
    }

    fn same_width(&self, what: &str, a: TermId, b: TermId) -> u8 {
        let (wa, wb) = (self.width(a), self.width(b));
        assert_eq!(wa, wb, "{what}: operand widths differ ({a:?}: {wa}, {b:?}: {wb})");
        wa
    }

    /// Whether `a` is `not(b)` or `b` is `not(a)`.
    fn complementary(&self, a: TermId, b: TermId) -> bool {
        let is_not_of = |x: TermId, y: TermId| self.op(x) == Op::Not && self.children(x)[0] == y;
        is_not_of(a, b) || is_not_of(b, a)
    }

    /// Both constants, or canonically ordered operands of a commutative op.
    fn order(&self, a: TermId, b: TermId) -> (TermId, TermId) {
        let (ca, cb) = (self.is_const(a), self.is_const(b));
        if (ca && !cb) || (ca == cb && a > b) {
            (b, a)
        } else {
            (a, b)
        }
    }

    /// If `t` is `op(x, c)` with a constant `c`, returns `(x, c)`.
    fn op_with_const(&self, t: TermId, op: Op) -> Option<(TermId, u64)> {
        if self.op(t) != op {
            return None;
        }
        let ch = self.children(t);
        self.as_const(ch[1]).map(|c| (ch[0], c))
    }

    fn binary(&mut self, op: Op, a: TermId, b: TermId) -> TermId {
        let w = self.width(a);
        assert!(w <= 64 || op == Op::Eq, "{op:?} of {w}-bit operands: only 64 bits or fewer");
        let width = match op {
            Op::Eq | Op::Ult | Op::Ule | Op::Slt | Op::Sle => 1,
            _ => w,
        };
        if w <= 64 {
            // A constant with a choice between constants: decided in the arms.
            if let Some(k) = self.as_const(b) {
                if let Some(t) = self.through_const_ite(a, |s, x| s.fold(op, w, width, s.const_of(x), k)) {
                    return t;
                }
            } else if let Some(k) = self.as_const(a) {
                if let Some(t) = self.through_const_ite(b, |s, y| s.fold(op, w, width, k, s.const_of(y))) {
                    return t;
                }
            }
        }
        self.mk_node(op, width, 0, &[a, b])
    }

    /// The value of a constant term (of at most 64 bits).
    fn const_of(&self, t: TermId) -> u64 {
        self.as_const(t).expect("a constant")
    }

    /// `op(x, y)` of `w`-bit constants, as a constant of `width` bits (1 for comparisons).
    fn fold(&mut self, op: Op, w: u8, width: u8, x: u64, y: u64) -> TermId {
        let v = match op {
            Op::Add => sem::add(x, y, w),
            Op::Sub => sem::sub(x, y, w),
            Op::Mul => sem::mul(x, y, w),
            Op::UDiv => sem::udiv(x, y, w),
            Op::SDiv => sem::sdiv(x, y, w),
            Op::URem => sem::urem(x, y, w),
            Op::SRem => sem::srem(x, y, w),
            Op::Shl => sem::shl(x, y, w),
            Op::LShr => sem::lshr(x, y, w),
            Op::AShr => sem::ashr(x, y, w),
            Op::And => x & y,
            Op::Or => x | y,
            Op::Xor => x ^ y,
            Op::Eq => sem::eq(x, y),
            Op::Ult => sem::ult(x, y),
            Op::Ule => sem::ule(x, y),
            Op::Slt => sem::slt(x, y, w),
            Op::Sle => sem::sle(x, y, w),
            other => unreachable!("{other:?} is not a binary bitvector operator"),
        };
        self.mk_const(width, v)
    }

    // ----- arithmetic ----------------------------------------------------------

    /// `a + b` (wrapping).
    ///
    /// Besides folding constants, sums are kept short where a loop would otherwise grow them
    /// without bound: a constant moves to the top (`(x + c) + y = (x + y) + c`), like terms
    /// merge (`x * c1 + x * c2 = x * (c1 + c2)`, so `s += x` a million times is one product),
    /// and a constant added to a choice between constants goes into its arms.
    pub fn add(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("add", a, b);
        let (a, b) = self.order(a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => return self.mk_const(w, sem::add(x, y, w)),
            (_, Some(0)) => return a,
            (_, Some(c2)) => {
                if let Some((x, c1)) = self.op_with_const(a, Op::Add) {
                    let c = self.mk_const(w, sem::add(c1, c2, w));
                    return self.add(x, c);
                }
            }
            _ => {
                for (sum, other) in [(a, b), (b, a)] {
                    if let Some((x, c)) = self.op_with_const(sum, Op::Add) {
                        let inner = self.add(x, other);
                        let k = self.mk_const(w, c);
                        return self.add(inner, k);
                    }
                }
                let ((xa, ca), (xb, cb)) = (self.linear(a), self.linear(b));
                if xa == xb {
                    let k = self.mk_const(w, sem::add(ca, cb, w));
                    return self.mul(xa, k);
                }
            }
        }
        self.binary(Op::Add, a, b)
    }

    /// `t` as `x * c`: a product with a constant, or `t * 1`.
    fn linear(&self, t: TermId) -> (TermId, u64) {
        self.op_with_const(t, Op::Mul).unwrap_or((t, 1))
    }

    /// `f(ite(c, k1, k2))` for an `ite` `t` whose arms are constants: `ite(c, f(k1), f(k2))`,
    /// whose arms fold to constants again (a value chosen by a condition stays two numbers
    /// through any arithmetic with constants). `None` when `t` is not such an `ite`.
    fn through_const_ite(&mut self, t: TermId, f: impl Fn(&mut Self, TermId) -> TermId) -> Option<TermId> {
        if self.op(t) != Op::Ite {
            return None;
        }
        let [c, x, y] = [self.children(t)[0], self.children(t)[1], self.children(t)[2]];
        if !self.is_const(x) || !self.is_const(y) {
            return None;
        }
        let (fx, fy) = (f(self, x), f(self, y));
        Some(self.ite(c, fx, fy))
    }

    /// `a - b` (wrapping).
    pub fn sub(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("sub", a, b);
        if a == b {
            return self.mk_const(w, 0);
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(w, sem::sub(x, y, w)),
            (_, Some(y)) => {
                let c = self.mk_const(w, sem::neg(y, w));
                self.add(a, c)
            }
            (Some(0), _) => self.neg(b),
            _ => self.binary(Op::Sub, a, b),
        }
    }

    /// `a * b` (wrapping).
    pub fn mul(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("mul", a, b);
        let (a, b) = self.order(a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => return self.mk_const(w, sem::mul(x, y, w)),
            (_, Some(0)) => return b,
            (_, Some(1)) => return a,
            (_, Some(c2)) => {
                if c2 == mask(w) {
                    return self.neg(a);
                }
                if let Some((x, c1)) = self.op_with_const(a, Op::Mul) {
                    let c = self.mk_const(w, sem::mul(c1, c2, w));
                    return self.mul(x, c);
                }
            }
            _ => {}
        }
        self.binary(Op::Mul, a, b)
    }

    /// Unsigned `a / b`; `a / 0` is all ones.
    pub fn udiv(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("udiv", a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(w, sem::udiv(x, y, w)),
            (_, Some(0)) => self.mk_const(w, u64::MAX),
            (_, Some(1)) => a,
            _ => self.binary(Op::UDiv, a, b),
        }
    }

    /// Unsigned `a % b`; `a % 0 = a`.
    pub fn urem(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("urem", a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(w, sem::urem(x, y, w)),
            (_, Some(0)) => a,
            (_, Some(1)) => self.mk_const(w, 0),
            _ if a == b => self.mk_const(w, 0),
            _ => self.binary(Op::URem, a, b),
        }
    }

    /// Signed `a / b` (SMT-LIB `bvsdiv`; `INT_MIN / -1 = INT_MIN`).
    pub fn sdiv(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("sdiv", a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(w, sem::sdiv(x, y, w)),
            (_, Some(1)) => a,
            (_, Some(y)) if y == mask(w) => self.neg(a),
            _ => self.binary(Op::SDiv, a, b),
        }
    }

    /// Signed `a % b`, sign of the dividend (SMT-LIB `bvsrem`; `a % 0 = a`).
    pub fn srem(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("srem", a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(w, sem::srem(x, y, w)),
            (_, Some(0)) => a,
            (_, Some(y)) if y == 1 || y == mask(w) => self.mk_const(w, 0),
            _ if a == b => self.mk_const(w, 0),
            _ => self.binary(Op::SRem, a, b),
        }
    }

    /// `-a` (wrapping).
    pub fn neg(&mut self, a: TermId) -> TermId {
        let w = self.width(a);
        if let Some(x) = self.as_const(a) {
            return self.mk_const(w, sem::neg(x, w));
        }
        if self.op(a) == Op::Neg {
            return self.children(a)[0];
        }
        if let Some(e) = self.through_const_ite(a, Self::neg) {
            return e;
        }
        self.mk_node(Op::Neg, w, 0, &[a])
    }

    // ----- shifts ----------------------------------------------------------------

    fn shift(&mut self, op: Op, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("shift", a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => {
                let v = match op {
                    Op::Shl => sem::shl(x, y, w),
                    Op::LShr => sem::lshr(x, y, w),
                    _ => sem::ashr(x, y, w),
                };
                self.mk_const(w, v)
            }
            (_, Some(0)) => a,
            (Some(0), _) => a,
            (Some(x), _) if op == Op::AShr && x == mask(w) => a,
            (_, Some(y)) if y >= u64::from(w) => {
                if op == Op::AShr {
                    let top = self.mk_const(w, u64::from(w) - 1);
                    self.binary(Op::AShr, a, top)
                } else {
                    self.mk_const(w, 0)
                }
            }
            _ => self.binary(op, a, b),
        }
    }

    /// `a << b`; 0 when `b >= width`.
    pub fn shl(&mut self, a: TermId, b: TermId) -> TermId {
        self.shift(Op::Shl, a, b)
    }

    /// Logical `a >> b`; 0 when `b >= width`.
    pub fn lshr(&mut self, a: TermId, b: TermId) -> TermId {
        self.shift(Op::LShr, a, b)
    }

    /// Arithmetic `a >> b`; the sign bit everywhere when `b >= width`.
    pub fn ashr(&mut self, a: TermId, b: TermId) -> TermId {
        self.shift(Op::AShr, a, b)
    }

    // ----- bitwise (and boolean connectives on width 1) --------------------------

    /// Bitwise and (logical and on width 1).
    pub fn and(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("and", a, b);
        let (a, b) = self.order(a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(w, x & y),
            (_, Some(0)) => b,
            (_, Some(y)) if y == mask(w) => a,
            _ if a == b => a,
            _ if self.complementary(a, b) => self.mk_const(w, 0),
            _ => self.binary(Op::And, a, b),
        }
    }

    /// Bitwise or (logical or on width 1).
    pub fn or(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("or", a, b);
        let (a, b) = self.order(a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(w, x | y),
            (_, Some(0)) => a,
            (_, Some(y)) if y == mask(w) => b,
            _ if a == b => a,
            _ if self.complementary(a, b) => self.mk_const(w, u64::MAX),
            _ => self.binary(Op::Or, a, b),
        }
    }

    /// Bitwise exclusive or.
    pub fn xor(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("xor", a, b);
        let (a, b) = self.order(a, b);
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(w, x ^ y),
            (_, Some(0)) => a,
            (_, Some(y)) if y == mask(w) => self.not(a),
            _ if a == b => self.mk_const(w, 0),
            _ if self.complementary(a, b) => self.mk_const(w, u64::MAX),
            _ => self.binary(Op::Xor, a, b),
        }
    }

    /// Bitwise not (logical not on width 1). `not` of an ordering comparison
    /// flips it (`!(a < b)` is `b <= a`).
    pub fn not(&mut self, a: TermId) -> TermId {
        let w = self.width(a);
        if let Some(x) = self.as_const(a) {
            return self.mk_const(w, sem::not(x, w));
        }
        let op = self.op(a);
        if op == Op::Not {
            return self.children(a)[0];
        }
        if matches!(op, Op::Ult | Op::Ule | Op::Slt | Op::Sle) {
            let (x, y) = (self.children(a)[0], self.children(a)[1]);
            return match op {
                Op::Ult => self.ule(y, x),
                Op::Ule => self.ult(y, x),
                Op::Slt => self.sle(y, x),
                _ => self.slt(y, x),
            };
        }
        self.mk_node(Op::Not, w, 0, &[a])
    }

    /// `a ⇒ b` on width 1.
    pub fn implies(&mut self, a: TermId, b: TermId) -> TermId {
        let na = self.not(a);
        self.or(na, b)
    }

    /// The conjunction of width-1 terms (`1` for an empty slice).
    pub fn and_all(&mut self, terms: &[TermId]) -> TermId {
        let mut acc = self.tt();
        for &t in terms {
            acc = self.and(acc, t);
        }
        acc
    }

    // ----- comparisons (width-1 results) -------------------------------------------

    /// `a == b`.
    pub fn eq(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("eq", a, b);
        if a == b {
            return self.tt();
        }
        let (a, b) = self.order(a, b);
        if w > 64 {
            return match (self.as_const_wide(a), self.as_const_wide(b)) {
                (Some(x), Some(y)) => self.bool_const(x == y),
                _ => self.binary(Op::Eq, a, b),
            };
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => return self.mk_const(1, sem::eq(x, y)),
            (_, Some(c)) => {
                if w == 1 {
                    return if c == 1 { a } else { self.not(a) };
                }
                if let Some((x, c1)) = self.op_with_const(a, Op::Add) {
                    let k = self.mk_const(w, sem::sub(c, c1, w));
                    return self.eq(x, k);
                }
                match self.op(a) {
                    Op::Not | Op::Neg => {
                        let x = self.children(a)[0];
                        let k = if self.op(a) == Op::Not { sem::not(c, w) } else { sem::neg(c, w) };
                        let k = self.mk_const(w, k);
                        return self.eq(x, k);
                    }
                    Op::ZExt => {
                        let x = self.children(a)[0];
                        let xw = self.width(x);
                        if c > mask(xw) {
                            return self.ff();
                        }
                        let k = self.mk_const(xw, c);
                        return self.eq(x, k);
                    }
                    _ => {}
                }
            }
            // Two zero-extended values: compared in the wider of their own widths.
            (None, None) if self.op(a) == Op::ZExt && self.op(b) == Op::ZExt => {
                let (x, y) = (self.children(a)[0], self.children(b)[0]);
                let inner = self.width(x).max(self.width(y));
                let (x, y) = (self.zext(x, inner), self.zext(y, inner));
                return self.eq(x, y);
            }
            _ => {}
        }
        self.binary(Op::Eq, a, b)
    }

    /// `a != b`.
    pub fn ne(&mut self, a: TermId, b: TermId) -> TermId {
        let e = self.eq(a, b);
        self.not(e)
    }

    /// Unsigned `a < b`.
    pub fn ult(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("ult", a, b);
        if a == b {
            return self.ff();
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(1, sem::ult(x, y)),
            (_, Some(0)) => self.ff(),
            (Some(x), _) if x == mask(w) => self.ff(),
            (Some(0), _) => {
                let z = self.mk_const(w, 0);
                self.ne(b, z)
            }
            // A zero-extended value against a constant: compared in its own width.
            (None, Some(c)) if self.op(a) == Op::ZExt => {
                let x = self.children(a)[0];
                let xw = self.width(x);
                if c > mask(xw) {
                    return self.tt();
                }
                let k = self.mk_const(xw, c);
                self.ult(x, k)
            }
            (Some(c), None) if self.op(b) == Op::ZExt => {
                let x = self.children(b)[0];
                let xw = self.width(x);
                if c >= mask(xw) {
                    return self.ff();
                }
                let k = self.mk_const(xw, c);
                self.ult(k, x)
            }
            _ => self.binary(Op::Ult, a, b),
        }
    }

    /// Unsigned `a <= b`.
    pub fn ule(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("ule", a, b);
        if a == b {
            return self.tt();
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(1, sem::ule(x, y)),
            (Some(0), _) => self.tt(),
            (_, Some(y)) if y == mask(w) => self.tt(),
            (_, Some(0)) => self.eq(a, b),
            _ => self.binary(Op::Ule, a, b),
        }
    }

    /// Unsigned `a > b`.
    pub fn ugt(&mut self, a: TermId, b: TermId) -> TermId {
        self.ult(b, a)
    }

    /// Unsigned `a >= b`.
    pub fn uge(&mut self, a: TermId, b: TermId) -> TermId {
        self.ule(b, a)
    }

    /// Signed `a < b`.
    pub fn slt(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("slt", a, b);
        if a == b {
            return self.ff();
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(1, sem::slt(x, y, w)),
            _ => self.binary(Op::Slt, a, b),
        }
    }

    /// Signed `a <= b`.
    pub fn sle(&mut self, a: TermId, b: TermId) -> TermId {
        let w = self.same_width("sle", a, b);
        if a == b {
            return self.tt();
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) => self.mk_const(1, sem::sle(x, y, w)),
            _ => self.binary(Op::Sle, a, b),
        }
    }

    /// Signed `a > b`.
    pub fn sgt(&mut self, a: TermId, b: TermId) -> TermId {
        self.slt(b, a)
    }

    /// Signed `a >= b`.
    pub fn sge(&mut self, a: TermId, b: TermId) -> TermId {
        self.sle(b, a)
    }

    // ----- bit slicing and extension ---------------------------------------------------

    /// Bits `hi ..= lo` of `t` (a `hi - lo + 1`-bit term).
    pub fn extract(&mut self, t: TermId, hi: u8, lo: u8) -> TermId {
        let tw = self.width(t);
        assert!(lo <= hi && hi < tw, "extract({t:?}, {hi}, {lo}) of a {tw}-bit term");
        let w = hi - lo + 1;
        if w == tw {
            return t;
        }
        if let Some(x) = self.as_const_wide(t) {
            return self.mk_const_wide(w, x >> lo);
        }
        if let Some(e) = self.through_const_ite(t, |s, k| s.extract(k, hi, lo)) {
            return e;
        }
        let d = *self.data(t);
        match d.op() {
            Op::Extract => {
                let base = d.extract_lo();
                return self.extract(d.children()[0], hi + base, lo + base);
            }
            Op::Concat => {
                let (h, l) = (d.children()[0], d.children()[1]);
                let lw = self.width(l);
                if hi < lw {
                    return self.extract(l, hi, lo);
                }
                if lo >= lw {
                    return self.extract(h, hi - lw, lo - lw);
                }
            }
            Op::ZExt | Op::SExt => {
                let x = d.children()[0];
                let xw = self.width(x);
                if hi < xw {
                    return self.extract(x, hi, lo);
                }
                if d.op() == Op::ZExt && lo >= xw {
                    return self.mk_const(w, 0);
                }
            }
            _ => {}
        }
        self.mk_node(Op::Extract, w, lo, &[t])
    }

    /// `hi` above `lo` (widths add up; at most [`crate::WIDE_MAX`]).
    pub fn concat(&mut self, hi: TermId, lo: TermId) -> TermId {
        let (hw, lw) = (self.width(hi), self.width(lo));
        let w = hw.saturating_add(lw);
        check_wide_width(w);
        match (self.as_const_wide(hi), self.as_const_wide(lo)) {
            (Some(x), Some(y)) => return self.mk_const_wide(w, (x << lw) | y),
            (Some(0), _) if w <= 64 => return self.zext(lo, w),
            _ => {}
        }
        let (dh, dl) = (*self.data(hi), *self.data(lo));
        if dh.op() == Op::Extract
            && dl.op() == Op::Extract
            && dh.children()[0] == dl.children()[0]
            && dh.extract_lo() == dl.extract_lo() + lw
        {
            let top = dh.extract_lo() + hw - 1;
            return self.extract(dh.children()[0], top, dl.extract_lo());
        }
        self.mk_node(Op::Concat, w, 0, &[hi, lo])
    }

    /// `t` zero-extended to `width` bits (`width >= width(t)`).
    pub fn zext(&mut self, t: TermId, width: u8) -> TermId {
        check_width(width);
        let tw = self.width(t);
        assert!(width >= tw, "zext of a {tw}-bit term to {width} bits");
        if width == tw {
            return t;
        }
        if let Some(x) = self.as_const(t) {
            return self.mk_const(width, x);
        }
        if self.op(t) == Op::ZExt {
            let x = self.children(t)[0];
            return self.zext(x, width);
        }
        // The low bits of a value that fits in them, extended back to its width: the value.
        if self.op(t) == Op::Extract && self.data(t).extract_lo() == 0 {
            let x = self.children(t)[0];
            if self.width(x) == width && self.max_unsigned(x) <= mask(tw) {
                return x;
            }
        }
        if let Some(e) = self.through_const_ite(t, |s, k| s.zext(k, width)) {
            return e;
        }
        self.mk_node(Op::ZExt, width, 0, &[t])
    }

    /// `t` sign-extended to `width` bits (`width >= width(t)`).
    pub fn sext(&mut self, t: TermId, width: u8) -> TermId {
        check_width(width);
        let tw = self.width(t);
        assert!(width >= tw, "sext of a {tw}-bit term to {width} bits");
        if width == tw {
            return t;
        }
        if let Some(x) = self.as_const(t) {
            return self.mk_const(width, sem::sext(x, tw, width));
        }
        if let Some(e) = self.through_const_ite(t, |s, k| s.sext(k, width)) {
            return e;
        }
        // A value whose sign bit is 0 extends with zeros.
        if tw > 1 && self.max_unsigned(t) <= mask(tw - 1) {
            return self.zext(t, width);
        }
        match self.op(t) {
            Op::SExt => {
                let x = self.children(t)[0];
                self.sext(x, width)
            }
            // A zero-extended value has sign bit 0.
            Op::ZExt => {
                let x = self.children(t)[0];
                self.zext(x, width)
            }
            _ => self.mk_node(Op::SExt, width, 0, &[t]),
        }
    }

    // ----- choice ------------------------------------------------------------------------

    /// `if c then a else b` (`c` is width 1).
    pub fn ite(&mut self, c: TermId, a: TermId, b: TermId) -> TermId {
        assert_eq!(self.width(c), 1, "ite condition {c:?} is not 1 bit wide");
        let w = self.same_width("ite", a, b);
        if let Some(x) = self.as_const(c) {
            return if x == 1 { a } else { b };
        }
        if a == b {
            return a;
        }
        if self.op(c) == Op::Not {
            let x = self.children(c)[0];
            return self.ite(x, b, a);
        }
        if w == 1 {
            match (self.as_const(a), self.as_const(b)) {
                (Some(1), Some(0)) => return c,
                (Some(0), Some(1)) => return self.not(c),
                (Some(1), _) => return self.or(c, b),
                (Some(0), _) => {
                    let nc = self.not(c);
                    return self.and(nc, b);
                }
                (_, Some(0)) => return self.and(c, a),
                (_, Some(1)) => {
                    let nc = self.not(c);
                    return self.or(nc, a);
                }
                _ => {}
            }
        }
        self.mk_node(Op::Ite, w, 0, &[c, a, b])
    }
}

#[cfg(test)]
mod tests;
