//! A small safe wrapper over Bitwuzla's C API (`bitwuzla-sys`). This is the
//! only module of the crate with `unsafe` code.
//!
//! Bitwuzla aborts the process on misuse (an ill-sorted term, popping more
//! levels than were pushed, asking for a value after an unsat answer), so
//! every operation here checks its preconditions on the Rust side first and
//! returns a [`BzError`] instead. Sorts are tracked in [`BzTerm`] itself
//! (`width == 0` means Boolean).
//!
//! Ownership: a [`Bitwuzla`] owns one term manager and one solver instance
//! built on it; [`Bitwuzla::reset_solver`] replaces the instance (keeping
//! the terms) for non-incremental use. Terms live as long as the term
//! manager; value terms returned by `get_value` are released right after
//! their string is read.

use std::ffi::{CStr, CString};
use std::ptr::NonNull;
use std::time::Instant;

use crate::term::WIDE_MAX;
use bitwuzla_sys as sys;
use thiserror::Error;

mod fp;
mod limits;

pub use limits::resident_mb;
use limits::CheckLimits;

pub use fp::{FpBinary, FpCompare, FpRound};

/// A misuse the wrapper refused (a bug in the caller), or an unexpected
/// answer from Bitwuzla.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct BzError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, BzError> {
    Err(BzError(msg.into()))
}

/// A Bitwuzla term together with its sort: a bitvector of `width` bits, Boolean when
/// `width == 0`, or with `float` the IEEE floating-point sort of `width` bits (32 or 64).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct BzTerm {
    raw: sys::BitwuzlaTerm,
    width: u8,
    float: bool,
}

impl BzTerm {
    pub fn width(self) -> u8 {
        self.width
    }

    pub fn is_bool(self) -> bool {
        self.width == 0
    }
}

/// Bitvector operators with two operands of equal width.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BvBinary {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    /// Equality as a 1-bit vector (SMT-LIB `bvcomp`).
    Comp,
}

/// Comparisons of two bitvectors of equal width, Boolean result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BvCompare {
    Eq,
    Ult,
    Ule,
    Slt,
    Sle,
}

/// The answer of a satisfiability check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BzResult {
    Sat,
    Unsat,
    Unknown,
}

/// One term manager and one solver instance.
pub struct Bitwuzla {
    tm: NonNull<sys::BitwuzlaTermManager>,
    options: NonNull<sys::BitwuzlaOptions>,
    solver: NonNull<sys::Bitwuzla>,
    /// Pushed context levels of the current instance.
    levels: u64,
    /// Whether the last check was sat and nothing changed since (values may be read).
    model_ready: bool,
    bv_sorts: [sys::BitwuzlaSort; WIDE_MAX as usize + 1],
    /// When a check must give up (answering unknown); read by [`must_stop`] through the
    /// termination callback, so it lives on the heap at an address that never moves.
    limits: Box<CheckLimits>,
}

/// Bitwuzla's termination callback: whether the limits `state` points to stop the check.
unsafe extern "C" fn must_stop(state: *mut std::os::raw::c_void) -> i32 {
    // SAFETY: `state` is the `limits` box of the `Bitwuzla` whose solver instance calls this;
    // the box outlives every instance it is registered with (see `register_limits`).
    let limits = unsafe { &*(state as *const CheckLimits) };
    i32::from(limits.must_stop())
}

// SAFETY: a `Bitwuzla` exclusively owns its term manager, options and solver
// instance; nothing else holds their pointers. Bitwuzla's C API keeps no
// per-thread state tied to them: its `thread_local` variables are only
// scratch buffers for returned strings and arrays, which this wrapper copies
// out before returning. Moving the whole bundle to another thread between
// calls is therefore sound. It is not `Sync`.
unsafe impl Send for Bitwuzla {}

impl Bitwuzla {
    /// A new term manager and solver, producing models, with an optional
    /// time limit per satisfiability check and an optional limit on the process's resident
    /// memory (MiB) above which a check gives up.
    pub fn new(time_limit_ms: Option<u64>, memory_limit_mb: Option<u64>) -> Result<Self, BzError> {
        // SAFETY: plain constructors; null results are checked below.
        unsafe {
            let tm = NonNull::new(sys::bitwuzla_term_manager_new())
                .ok_or_else(|| BzError("bitwuzla_term_manager_new returned null".into()))?;
            let options = match NonNull::new(sys::bitwuzla_options_new()) {
                Some(o) => o,
                None => {
                    sys::bitwuzla_term_manager_delete(tm.as_ptr());
                    return err("bitwuzla_options_new returned null");
                }
            };
            sys::bitwuzla_set_option(options.as_ptr(), sys::BITWUZLA_OPT_PRODUCE_MODELS, 1);
            // Bitwuzla 0.8's normalisation pass can loop forever, allocating, on tiny
            // queries (`a != (4 - a) & 1` over a bounded `a`, found by the shadow fuzz target;
            // upstream: bitwuzla/bitwuzla#219, a fixed point that does not converge). The time
            // limit does not interrupt it, so the pass is off.
            sys::bitwuzla_set_option(options.as_ptr(), sys::BITWUZLA_OPT_PP_NORMALIZE, 0);
            if let Some(ms) = time_limit_ms {
                sys::bitwuzla_set_option(options.as_ptr(), sys::BITWUZLA_OPT_TIME_LIMIT_PER, ms.max(1));
            }
            let solver = match NonNull::new(sys::bitwuzla_new(tm.as_ptr(), options.as_ptr())) {
                Some(s) => s,
                None => {
                    sys::bitwuzla_options_delete(options.as_ptr());
                    sys::bitwuzla_term_manager_delete(tm.as_ptr());
                    return err("bitwuzla_new returned null");
                }
            };
            let mut bv_sorts = [0; WIDE_MAX as usize + 1];
            for (w, slot) in bv_sorts.iter_mut().enumerate().skip(1) {
                *slot = sys::bitwuzla_mk_bv_sort(tm.as_ptr(), w as u64);
            }
            bv_sorts[0] = sys::bitwuzla_mk_bool_sort(tm.as_ptr());
            let limits = Box::new(CheckLimits::new(memory_limit_mb));
            let mut bz = Bitwuzla { tm, options, solver, levels: 0, model_ready: false, bv_sorts, limits };
            bz.register_limits();
            Ok(bz)
        }
    }

    /// Replaces the solver instance by a fresh one (no assertions, no
    /// learned clauses); terms stay valid.
    pub fn reset_solver(&mut self) -> Result<(), BzError> {
        // SAFETY: the old instance is deleted exactly once and replaced;
        // the term manager and options outlive both instances.
        unsafe {
            let fresh = NonNull::new(sys::bitwuzla_new(self.tm.as_ptr(), self.options.as_ptr()))
                .ok_or_else(|| BzError("bitwuzla_new returned null".into()))?;
            sys::bitwuzla_delete(self.solver.as_ptr());
            self.solver = fresh;
        }
        self.register_limits();
        self.levels = 0;
        self.model_ready = false;
        Ok(())
    }

    fn bv_sort(&self, width: u8) -> Result<sys::BitwuzlaSort, BzError> {
        if !(1..=WIDE_MAX).contains(&width) {
            return err(format!("bitvector width {width} not in 1..={WIDE_MAX}"));
        }
        Ok(self.bv_sorts[usize::from(width)])
    }

    /// The bitvector constant `value` (masked to `width`) of any width up to [`WIDE_MAX`].
    pub fn bv_value_wide(&mut self, width: u8, value: u128) -> Result<BzTerm, BzError> {
        if width <= 64 {
            return self.bv_value(width, value as u64);
        }
        let hi = self.bv_value(width - 64, (value >> 64) as u64)?;
        let lo = self.bv_value(64, value as u64)?;
        self.concat(hi, lo)
    }

    /// The bitvector constant `value` (masked to `width`).
    pub fn bv_value(&mut self, width: u8, value: u64) -> Result<BzTerm, BzError> {
        let sort = self.bv_sort(width)?;
        if width > 64 {
            return err(format!("bv_value of {width} bits: use bv_value_wide"));
        }
        let v = value & (u64::MAX >> (64 - u32::from(width)));
        // SAFETY: the sort belongs to this term manager and `v` fits it.
        let raw = unsafe { sys::bitwuzla_mk_bv_value_uint64(self.tm.as_ptr(), sort, v) };
        Ok(BzTerm { raw, width, float: false })
    }

    /// A fresh bitvector constant (an SMT-LIB `declare-fun` of arity 0).
    pub fn bv_const(&mut self, width: u8, symbol: &str) -> Result<BzTerm, BzError> {
        let sort = self.bv_sort(width)?;
        let sym = CString::new(symbol.replace('\0', "_")).map_err(|e| BzError(e.to_string()))?;
        // SAFETY: valid sort; the symbol is copied by Bitwuzla.
        let raw = unsafe { sys::bitwuzla_mk_const(self.tm.as_ptr(), sort, sym.as_ptr()) };
        Ok(BzTerm { raw, width, float: false })
    }

    fn need_bv(what: &str, t: BzTerm) -> Result<(), BzError> {
        if t.is_bool() || t.float {
            return err(format!("{what}: Boolean or floating-point operand where a bitvector is required"));
        }
        Ok(())
    }

    fn need_same(what: &str, a: BzTerm, b: BzTerm) -> Result<(), BzError> {
        Self::need_bv(what, a)?;
        if a.width != b.width {
            return err(format!("{what}: widths {} and {} differ", a.width, b.width));
        }
        Ok(())
    }

    fn mk1(&mut self, kind: sys::BitwuzlaKind, a: BzTerm, width: u8) -> BzTerm {
        // SAFETY: callers checked the operand sort for `kind`.
        let raw = unsafe { sys::bitwuzla_mk_term1(self.tm.as_ptr(), kind, a.raw) };
        BzTerm { raw, width, float: false }
    }

    fn mk2(&mut self, kind: sys::BitwuzlaKind, a: BzTerm, b: BzTerm, width: u8) -> BzTerm {
        // SAFETY: callers checked the operand sorts for `kind`.
        let raw = unsafe { sys::bitwuzla_mk_term2(self.tm.as_ptr(), kind, a.raw, b.raw) };
        BzTerm { raw, width, float: false }
    }

    /// A binary bitvector operator.
    pub fn binary(&mut self, op: BvBinary, a: BzTerm, b: BzTerm) -> Result<BzTerm, BzError> {
        Self::need_same("binary operator", a, b)?;
        let kind = match op {
            BvBinary::Add => sys::BITWUZLA_KIND_BV_ADD,
            BvBinary::Sub => sys::BITWUZLA_KIND_BV_SUB,
            BvBinary::Mul => sys::BITWUZLA_KIND_BV_MUL,
            BvBinary::UDiv => sys::BITWUZLA_KIND_BV_UDIV,
            BvBinary::SDiv => sys::BITWUZLA_KIND_BV_SDIV,
            BvBinary::URem => sys::BITWUZLA_KIND_BV_UREM,
            BvBinary::SRem => sys::BITWUZLA_KIND_BV_SREM,
            BvBinary::Shl => sys::BITWUZLA_KIND_BV_SHL,
            BvBinary::LShr => sys::BITWUZLA_KIND_BV_SHR,
            BvBinary::AShr => sys::BITWUZLA_KIND_BV_ASHR,
            BvBinary::And => sys::BITWUZLA_KIND_BV_AND,
            BvBinary::Or => sys::BITWUZLA_KIND_BV_OR,
            BvBinary::Xor => sys::BITWUZLA_KIND_BV_XOR,
            BvBinary::Comp => sys::BITWUZLA_KIND_BV_COMP,
        };
        let width = if op == BvBinary::Comp { 1 } else { a.width };
        Ok(self.mk2(kind, a, b, width))
    }

    /// A comparison (Boolean result).
    pub fn compare(&mut self, op: BvCompare, a: BzTerm, b: BzTerm) -> Result<BzTerm, BzError> {
        if op == BvCompare::Eq && a.is_bool() && b.is_bool() {
            return Ok(self.mk2(sys::BITWUZLA_KIND_EQUAL, a, b, 0));
        }
        Self::need_same("comparison", a, b)?;
        let kind = match op {
            BvCompare::Eq => sys::BITWUZLA_KIND_EQUAL,
            BvCompare::Ult => sys::BITWUZLA_KIND_BV_ULT,
            BvCompare::Ule => sys::BITWUZLA_KIND_BV_ULE,
            BvCompare::Slt => sys::BITWUZLA_KIND_BV_SLT,
            BvCompare::Sle => sys::BITWUZLA_KIND_BV_SLE,
        };
        Ok(self.mk2(kind, a, b, 0))
    }

    /// Bitwise not.
    pub fn bvnot(&mut self, a: BzTerm) -> Result<BzTerm, BzError> {
        Self::need_bv("bvnot", a)?;
        Ok(self.mk1(sys::BITWUZLA_KIND_BV_NOT, a, a.width))
    }

    /// Two's complement negation.
    pub fn bvneg(&mut self, a: BzTerm) -> Result<BzTerm, BzError> {
        Self::need_bv("bvneg", a)?;
        Ok(self.mk1(sys::BITWUZLA_KIND_BV_NEG, a, a.width))
    }

    /// `hi` above `lo`.
    pub fn concat(&mut self, hi: BzTerm, lo: BzTerm) -> Result<BzTerm, BzError> {
        Self::need_bv("concat", hi)?;
        Self::need_bv("concat", lo)?;
        let width = hi.width + lo.width;
        if width > WIDE_MAX {
            return err(format!("concat wider than {WIDE_MAX} bits"));
        }
        Ok(self.mk2(sys::BITWUZLA_KIND_BV_CONCAT, hi, lo, width))
    }

    /// Bits `hi ..= lo`.
    pub fn extract(&mut self, a: BzTerm, hi: u8, lo: u8) -> Result<BzTerm, BzError> {
        Self::need_bv("extract", a)?;
        if lo > hi || hi >= a.width {
            return err(format!("extract {hi}..{lo} of {} bits", a.width));
        }
        // SAFETY: indices checked against the operand's width.
        let raw = unsafe {
            sys::bitwuzla_mk_term1_indexed2(
                self.tm.as_ptr(),
                sys::BITWUZLA_KIND_BV_EXTRACT,
                a.raw,
                u64::from(hi),
                u64::from(lo),
            )
        };
        Ok(BzTerm { raw, width: hi - lo + 1, float: false })
    }

    /// Zero or sign extension to `width` bits.
    pub fn extend(&mut self, a: BzTerm, width: u8, signed: bool) -> Result<BzTerm, BzError> {
        Self::need_bv("extend", a)?;
        if width < a.width || width > 64 {
            return err(format!("extension of {} bits to {width}", a.width));
        }
        if width == a.width {
            return Ok(a);
        }
        let kind = if signed { sys::BITWUZLA_KIND_BV_SIGN_EXTEND } else { sys::BITWUZLA_KIND_BV_ZERO_EXTEND };
        // SAFETY: bitvector operand, non-negative extension amount.
        let raw = unsafe { sys::bitwuzla_mk_term1_indexed1(self.tm.as_ptr(), kind, a.raw, u64::from(width - a.width)) };
        Ok(BzTerm { raw, width, float: false })
    }

    /// `if c then a else b` with a Boolean `c`.
    pub fn ite(&mut self, c: BzTerm, a: BzTerm, b: BzTerm) -> Result<BzTerm, BzError> {
        if !c.is_bool() {
            return err("ite condition is not Boolean");
        }
        if a.width != b.width || a.float != b.float {
            return err("ite branches have different sorts");
        }
        // SAFETY: sorts checked above.
        let raw = unsafe { sys::bitwuzla_mk_term3(self.tm.as_ptr(), sys::BITWUZLA_KIND_ITE, c.raw, a.raw, b.raw) };
        Ok(BzTerm { raw, width: a.width, float: a.float })
    }

    /// A Boolean as a 1-bit vector (`ite(b, #b1, #b0)`).
    pub fn bool_to_bv(&mut self, b: BzTerm) -> Result<BzTerm, BzError> {
        let one = self.bv_value(1, 1)?;
        let zero = self.bv_value(1, 0)?;
        self.ite(b, one, zero)
    }

    /// A 1-bit vector as a Boolean (`t = #b1`).
    pub fn bv_to_bool(&mut self, t: BzTerm) -> Result<BzTerm, BzError> {
        if t.width != 1 {
            return err(format!("a {}-bit term used as a Boolean", t.width));
        }
        let one = self.bv_value(1, 1)?;
        self.compare(BvCompare::Eq, t, one)
    }

    /// Number of pushed context levels.
    pub fn levels(&self) -> u64 {
        self.levels
    }

    /// Opens a context level.
    pub fn push(&mut self) {
        // SAFETY: valid instance.
        unsafe { sys::bitwuzla_push(self.solver.as_ptr(), 1) };
        self.levels += 1;
        self.model_ready = false;
    }

    /// Closes `n` context levels (at most the number pushed).
    pub fn pop(&mut self, n: u64) -> Result<(), BzError> {
        if n > self.levels {
            return err(format!("pop {n} of {} levels", self.levels));
        }
        if n > 0 {
            // SAFETY: `n` does not exceed the pushed levels.
            unsafe { sys::bitwuzla_pop(self.solver.as_ptr(), n) };
            self.levels -= n;
            self.model_ready = false;
        }
        Ok(())
    }

    /// Asserts a Boolean term at the current level.
    pub fn assert(&mut self, t: BzTerm) -> Result<(), BzError> {
        if !t.is_bool() {
            return err("assertion is not Boolean");
        }
        // SAFETY: Boolean term of this term manager.
        unsafe { sys::bitwuzla_assert(self.solver.as_ptr(), t.raw) };
        self.model_ready = false;
        Ok(())
    }

    /// From now on, checks still running at `deadline` give up and answer unknown (`None`: no
    /// deadline). Bitwuzla polls it while it searches, not during every preprocessing pass.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.limits.deadline = deadline;
    }

    /// The deadline [`Bitwuzla::set_deadline`] set last.
    pub fn deadline(&self) -> Option<Instant> {
        self.limits.deadline
    }

    /// Whether the deadline has passed or the process was interrupted.
    pub fn past_deadline(&self) -> bool {
        self.limits.past_deadline()
    }

    /// Whether a check gave up because resident memory reached the limit, since the last call.
    pub fn take_memory_hit(&self) -> bool {
        self.limits.take_memory_hit()
    }

    /// Registers [`must_stop`] with the current solver instance.
    fn register_limits(&mut self) {
        let state = &*self.limits as *const CheckLimits as *mut std::os::raw::c_void;
        // SAFETY: the instance is live; `state` points into `self.limits`, a box that is
        // neither moved nor freed while the instance (deleted in `reset_solver` or `drop`,
        // before the box) may call the callback.
        unsafe { sys::bitwuzla_set_termination_callback(self.solver.as_ptr(), Some(must_stop), state) };
    }

    /// Checks the assertions together with Boolean `assumptions`.
    pub fn check_sat_assuming(&mut self, assumptions: &[BzTerm]) -> Result<BzResult, BzError> {
        if assumptions.iter().any(|t| !t.is_bool()) {
            return err("assumption is not Boolean");
        }
        let mut raw: Vec<sys::BitwuzlaTerm> = assumptions.iter().map(|t| t.raw).collect();
        let argc = u32::try_from(raw.len()).map_err(|_| BzError("too many assumptions".into()))?;
        // SAFETY: `raw` holds `argc` Boolean terms and outlives the call.
        let r = unsafe {
            if argc == 0 {
                sys::bitwuzla_check_sat(self.solver.as_ptr())
            } else {
                sys::bitwuzla_check_sat_assuming(self.solver.as_ptr(), argc, raw.as_mut_ptr())
            }
        };
        let r = match r {
            sys::BITWUZLA_SAT => BzResult::Sat,
            sys::BITWUZLA_UNSAT => BzResult::Unsat,
            _ => BzResult::Unknown,
        };
        self.model_ready = r == BzResult::Sat;
        Ok(r)
    }

    /// The model value of a bitvector term after a sat answer.
    pub fn value_u64(&mut self, t: BzTerm) -> Result<u64, BzError> {
        Self::need_bv("value", t)?;
        if !self.model_ready {
            return err("value requested without a current sat answer");
        }
        // SAFETY: a sat answer is current, `t` is a bitvector term; the
        // returned string is copied before the value term is released.
        let s = unsafe {
            let v = sys::bitwuzla_get_value(self.solver.as_ptr(), t.raw);
            let p = sys::bitwuzla_term_value_get_str_fmt(v, 16);
            let s = if p.is_null() { None } else { Some(CStr::from_ptr(p).to_string_lossy().into_owned()) };
            sys::bitwuzla_term_release(v);
            s
        };
        let s = s.ok_or_else(|| BzError("null value string".into()))?;
        u64::from_str_radix(&s, 16).map_err(|e| BzError(format!("bad value string {s:?}: {e}")))
    }
}

impl Drop for Bitwuzla {
    fn drop(&mut self) {
        // SAFETY: each pointer is owned and deleted exactly once; the solver
        // instance goes before the term manager it uses.
        unsafe {
            sys::bitwuzla_delete(self.solver.as_ptr());
            sys::bitwuzla_options_delete(self.options.as_ptr());
            sys::bitwuzla_term_manager_delete(self.tm.as_ptr());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_reads_values() {
        let mut b = Bitwuzla::new(None, None).unwrap();
        let x = b.bv_const(64, "x").unwrap();
        let k = b.bv_value(64, 0xdead_beef_cafe_f00d).unwrap();
        let e = b.compare(BvCompare::Eq, x, k).unwrap();
        b.push();
        b.assert(e).unwrap();
        assert_eq!(b.check_sat_assuming(&[]).unwrap(), BzResult::Sat);
        assert_eq!(b.value_u64(x).unwrap(), 0xdead_beef_cafe_f00d);
        let lt = b.compare(BvCompare::Ult, x, k).unwrap();
        assert_eq!(b.check_sat_assuming(&[lt]).unwrap(), BzResult::Unsat);
        assert!(b.value_u64(x).is_err());
        b.pop(1).unwrap();
        assert_eq!(b.check_sat_assuming(&[lt]).unwrap(), BzResult::Sat);
        assert!(b.pop(1).is_err());
    }

    #[test]
    fn misuse_is_an_error_not_an_abort() {
        let mut b = Bitwuzla::new(Some(1000), None).unwrap();
        let x = b.bv_const(8, "x").unwrap();
        let y = b.bv_const(16, "y").unwrap();
        assert!(b.binary(BvBinary::Add, x, y).is_err());
        assert!(b.extract(x, 8, 0).is_err());
        assert!(b.assert(x).is_err());
        assert!(b.bv_to_bool(x).is_err());
        let c = b.concat(x, y).unwrap();
        assert_eq!(c.width(), 24);
        b.reset_solver().unwrap();
        let e = b.compare(BvCompare::Eq, x, x).unwrap();
        assert_eq!(b.check_sat_assuming(&[e]).unwrap(), BzResult::Sat);
    }
}
