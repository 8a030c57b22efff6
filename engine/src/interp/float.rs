//! Floating-point instructions in the symbolic interpreter. Operations on concrete values
//! compute with the concrete interpreter's semantics ([`crate::concrete::float`], bit-exact
//! with x86-64) and stay unboxed constants (a `long double`, 80 bits, is always a term,
//! [`Val::wide`], which the float constructors fold). On symbolic `float`s, `double`s and
//! `long double`s they build the solver's float terms (`penumbra_solver`'s `fp_*`
//! constructors, Bitwuzla's floating-point theory underneath): arithmetic, fused multiply-add,
//! square root, rounding, every `fcmp` predicate, `minnum`/`maxnum`, conversions between the
//! formats and to and from integers (a conversion to an integer that may not fit forks an
//! error path first, `float-cast-overflow`); negation, absolute value and `copysign` are bit
//! operations. Not modelled symbolically, each ending its path as unsupported with its name:
//! `frem` (C's `fmod`, which clang calls rather than inlines) and `fma` of `long double`s.

use super::step::val;
use super::Interp;
use crate::concrete::float;
use crate::concrete::stop::Fault;
use crate::error::ErrorKind;
use crate::run_error::RunError;
use crate::symbolic::context::Flow;
use crate::symbolic::state::{Ending, ExecutionState};
use crate::symbolic::value::Val;
use penumbra_ir::{Body, FCastOp, FUnaryOp, FloatCC, FloatOp, Inst, InstData, Type, Value};
use penumbra_solver::float::{int_conversion_bounds, Arith, Integral};
use penumbra_solver::TermId;

impl<'p> Interp<'_, 'p> {
    /// Executes the floating-point instruction `inst`.
    pub(crate) fn float_step(&mut self, st: &mut ExecutionState, body: &'p Body, inst: Inst) -> Result<Flow, RunError> {
        let data = &body.insts[inst];
        let Some(r) = body.results[inst] else { return Ok(Flow::Next) };
        let result_ty = body.values[r].ty;
        let (args, n) = float_args(data);
        let operands = &args[..n];
        let ty = |v: Value| body.values[v].ty;
        if let Some(x) = self.float_operands(st, operands) {
            let bits = match data {
                InstData::FBinary { op, args: [a, _] } => float::binary(*op, ty(*a), x[0], x[1]),
                InstData::FUnary { op, arg } => float::unary(*op, ty(*arg), x[0]),
                InstData::Fma { args: [a, ..] } => float::fma(ty(*a), x[0], x[1], x[2]),
                InstData::Fcmp { cc, args: [a, _] } => u128::from(float::compare(*cc, ty(*a), x[0], x[1])),
                InstData::FCast { op, arg } => match float::cast(*op, ty(*arg), result_ty, x[0]) {
                    Ok(bits) => bits,
                    Err(Fault::Error(kind, message)) => {
                        return Ok(Flow::End(Box::new(self.cx.error(st, kind, message))))
                    }
                    Err(Fault::Unsupported(message)) => {
                        return Ok(Flow::End(Box::new(self.cx.unsupported(st, message))))
                    }
                },
                _ => unreachable!("float_step on {}", data.mnemonic()),
            };
            let v = Val::wide(&mut self.cx.store, result_ty.bits() as u8, bits);
            st.frame_mut().set(r, v);
            return Ok(Flow::Next);
        }
        let first = self.term(st, operands[0]);
        let mut t = [first; 3];
        for (slot, &v) in t.iter_mut().zip(operands).skip(1) {
            *slot = self.term(st, v);
        }
        let result = match data {
            InstData::FBinary { op, .. } => match op {
                FloatOp::Add => Some(self.cx.store.fp_arith(Arith::Add, t[0], t[1])),
                FloatOp::Sub => Some(self.cx.store.fp_arith(Arith::Sub, t[0], t[1])),
                FloatOp::Mul => Some(self.cx.store.fp_arith(Arith::Mul, t[0], t[1])),
                FloatOp::Div => Some(self.cx.store.fp_arith(Arith::Div, t[0], t[1])),
                FloatOp::Copysign => {
                    let sign = self.sign_of(t[1]);
                    Some(self.with_sign(t[0], sign))
                }
                FloatOp::Minnum | FloatOp::Maxnum => Some(self.min_max(*op == FloatOp::Maxnum, t[0], t[1])),
                FloatOp::Rem => None,
            },
            InstData::FUnary { op, .. } => Some(match op {
                FUnaryOp::Neg => {
                    let sign = self.sign_of(t[0]);
                    let flipped = self.cx.store.not(sign);
                    self.with_sign(t[0], flipped)
                }
                FUnaryOp::Abs => {
                    let plus = self.cx.store.constant(1, 0);
                    self.with_sign(t[0], plus)
                }
                FUnaryOp::Sqrt => self.cx.store.fp_sqrt(t[0]),
                FUnaryOp::Floor => self.cx.store.fp_round(Integral::Floor, t[0]),
                FUnaryOp::Ceil => self.cx.store.fp_round(Integral::Ceil, t[0]),
                FUnaryOp::Trunc => self.cx.store.fp_round(Integral::Trunc, t[0]),
                FUnaryOp::Round => self.cx.store.fp_round(Integral::HalfAway, t[0]),
                FUnaryOp::RoundEven => self.cx.store.fp_round(Integral::HalfEven, t[0]),
            }),
            InstData::Fcmp { cc, .. } => Some(self.fcmp(*cc, t[0], t[1])),
            InstData::FCast { op, arg } => {
                let to = result_ty.bits() as u8;
                match op {
                    FCastOp::Ext | FCastOp::Trunc => Some(self.cx.store.fp_convert(t[0], to)),
                    FCastOp::FromSi | FCastOp::FromUi => {
                        Some(self.cx.store.int_to_fp(t[0], to, *op == FCastOp::FromSi))
                    }
                    FCastOp::Bitcast => Some(t[0]),
                    FCastOp::ToSi | FCastOp::ToUi => {
                        let signed = *op == FCastOp::ToSi;
                        if let Some(ending) = self.check_float_cast(st, t[0], ty(*arg), to, signed)? {
                            return Ok(Flow::End(Box::new(ending)));
                        }
                        Some(self.cx.store.fp_to_int(t[0], to, signed))
                    }
                }
            }
            InstData::Fma { .. } if result_ty != Type::F80 => Some(self.cx.store.fp_fma(t[0], t[1], t[2])),
            InstData::Fma { .. } => None,
            _ => unreachable!("float_step on {}", data.mnemonic()),
        };
        match result {
            Some(v) => {
                st.frame_mut().set(r, v);
                Ok(Flow::Next)
            }
            None => {
                let what = format!("{} on a symbolic floating-point value", data.mnemonic());
                Ok(Flow::End(Box::new(self.cx.unsupported(st, what))))
            }
        }
    }

    /// The concrete bits of every operand, or `None` if one is symbolic.
    fn float_operands(&self, st: &ExecutionState, operands: &[Value]) -> Option<[u128; 3]> {
        let mut out = [0u128; 3];
        for (slot, &v) in out.iter_mut().zip(operands) {
            *slot = val(st, v).as_const_wide(&self.cx.store)?;
        }
        Some(out)
    }

    /// `llvm.minnum`/`maxnum` exactly as [`penumbra_solver::float::min_max`] computes them
    /// (LLVM's x86 lowering for `float`/`double`, glibc's `fminl`/`fmaxl` for `long double`).
    fn min_max(&mut self, max: bool, a: TermId, b: TermId) -> TermId {
        let s = &mut self.cx.store;
        let (nan_a, nan_b) = (s.fp_is_nan(a), s.fp_is_nan(b));
        let b_before_a = s.fp_lt(b, a);
        if s.width(a) != 80 {
            let a_before_b = s.fp_lt(a, b);
            let ordered = if max { s.ite(a_before_b, b, a) } else { s.ite(b_before_a, b, a) };
            return s.ite(nan_a, b, ordered);
        }
        let ordered = if max { s.ite(b_before_a, a, b) } else { s.ite(b_before_a, b, a) };
        let (signalling_a, signalling_b) = (x87_signalling(s, a), x87_signalling(s, b));
        let both_nan = s.and(nan_a, nan_b);
        let signalling = s.or(signalling_a, signalling_b);
        let add = s.or(signalling, both_nan);
        let sum = s.fp_arith(Arith::Add, a, b);
        let other = s.ite(nan_a, b, a);
        let unordered_result = s.ite(add, sum, other);
        let unordered = s.or(nan_a, nan_b);
        s.ite(unordered, unordered_result, ordered)
    }

    /// `t` with the 1-bit `sign` in place of its sign bit: negation, absolute value and
    /// `copysign` touch nothing else, NaN payloads included.
    fn with_sign(&mut self, t: TermId, sign: TermId) -> TermId {
        let w = self.cx.store.width(t);
        let rest = self.cx.store.extract(t, w - 2, 0);
        self.cx.store.concat(sign, rest)
    }

    /// The sign bit of `t` (1 bit).
    fn sign_of(&mut self, t: TermId) -> TermId {
        let w = self.cx.store.width(t);
        self.cx.store.extract(t, w - 1, w - 1)
    }

    /// `fcmp cc a, b` from the ordered comparisons and NaN tests.
    fn fcmp(&mut self, cc: FloatCC, a: TermId, b: TermId) -> TermId {
        let s = &mut self.cx.store;
        let unordered = |s: &mut penumbra_solver::TermStore| {
            let (na, nb) = (s.fp_is_nan(a), s.fp_is_nan(b));
            s.or(na, nb)
        };
        match cc {
            FloatCC::False => s.ff(),
            FloatCC::True => s.tt(),
            FloatCC::Oeq => s.fp_eq(a, b),
            FloatCC::Ogt => s.fp_lt(b, a),
            FloatCC::Oge => s.fp_le(b, a),
            FloatCC::Olt => s.fp_lt(a, b),
            FloatCC::Ole => s.fp_le(a, b),
            FloatCC::One => {
                let (lt, gt) = (s.fp_lt(a, b), s.fp_lt(b, a));
                s.or(lt, gt)
            }
            FloatCC::Ord => {
                let u = unordered(s);
                s.not(u)
            }
            FloatCC::Uno => unordered(s),
            FloatCC::Ueq => {
                let (u, eq) = (unordered(s), s.fp_eq(a, b));
                s.or(u, eq)
            }
            FloatCC::Ugt => {
                let le = s.fp_le(a, b);
                s.not(le)
            }
            FloatCC::Uge => {
                let lt = s.fp_lt(a, b);
                s.not(lt)
            }
            FloatCC::Ult => {
                let ge = s.fp_le(b, a);
                s.not(ge)
            }
            FloatCC::Ule => {
                let gt = s.fp_lt(b, a);
                s.not(gt)
            }
            FloatCC::Une => {
                let eq = s.fp_eq(a, b);
                s.not(eq)
            }
        }
    }

    /// Forks the error path of a conversion of the float `x` (type `from`) to a `width`-bit
    /// integer whose truncation may not fit (or `x` a NaN): C leaves it undefined. The value
    /// fits iff `lo - 1 < x < hi` (`[lo, hi)` the integer range); when `lo - 1` is no float of
    /// the format, `lo <= x` is the same test.
    fn check_float_cast(
        &mut self,
        st: &mut ExecutionState,
        x: TermId,
        from: Type,
        width: u8,
        signed: bool,
    ) -> Result<Option<Ending>, RunError> {
        let fw = from.bits() as u8;
        let (lower, upper, strict) = int_conversion_bounds(float::format(from), u32::from(width), signed);
        let upper = self.cx.store.constant_wide(fw, upper);
        let lower = self.cx.store.constant_wide(fw, lower);
        let below_upper = self.cx.store.fp_lt(x, upper);
        let above_lower = if strict { self.cx.store.fp_lt(lower, x) } else { self.cx.store.fp_le(lower, x) };
        let fits = self.cx.store.and(above_lower, below_upper);
        let fails = self.cx.store.not(fits);
        let kind = if signed { "a signed" } else { "an unsigned" };
        self.cx.check(st, fails, |ex, st| {
            ex.error(
                st,
                ErrorKind::FloatCastOverflow,
                format!("a value of type {from} outside the range of {kind} {width}-bit integer"),
            )
        })
    }
}

/// The operands of a floating-point instruction (at most three) and their number, without
/// the allocation of [`Body::inst_args`]: this runs for every float operation of a path.
fn float_args(data: &InstData) -> ([Value; 3], usize) {
    match *data {
        InstData::FBinary { args: [a, b], .. } | InstData::Fcmp { args: [a, b], .. } => ([a, b, a], 2),
        InstData::FUnary { arg, .. } | InstData::FCast { arg, .. } => ([arg; 3], 1),
        InstData::Fma { args } => (args, 3),
        _ => unreachable!("float_step on {}", data.mnemonic()),
    }
}

/// Whether the x87 value `x` is a signalling NaN as glibc's `issignaling` says (1 bit): see
/// [`penumbra_solver::float::x87_signalling`].
fn x87_signalling(s: &mut penumbra_solver::TermStore, x: TermId) -> TermId {
    let exponent = s.extract(x, 78, 64);
    let ones = s.constant(15, 0x7fff);
    let top = s.extract(x, 63, 62);
    let integer_not_quiet = s.constant(2, 0b10);
    let payload = s.extract(x, 61, 0);
    let zero = s.constant(62, 0);
    let (nan_exponent, kind) = (s.eq(exponent, ones), s.eq(top, integer_not_quiet));
    let some_payload = s.ne(payload, zero);
    let both = s.and(nan_exponent, kind);
    s.and(both, some_payload)
}
