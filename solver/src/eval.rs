//! The concrete evaluator: the value of a term under an assignment of its
//! variables. It is the oracle for tests and what the counterexample cache
//! uses to try old models on new queries.
//!
//! Evaluation is memoised over the DAG for the lifetime of one [`Evaluator`]
//! (so shared subterms are computed once, and several roots can share the
//! work) and uses an explicit stack (terms of any depth are fine). A
//! `Shadow(old, new)` evaluates to its old or new child according to the
//! evaluator's [`Version`] (new by default).
//!
//! Values are `u128`s inside, so that wide terms (x87 `long double`s, 80 bits) evaluate like
//! any other; [`eval`] and [`Evaluator::eval`] return the low 64 bits, which is the whole
//! value of every term of 64 bits or fewer, and [`eval_wide`] / [`Evaluator::eval_wide`] the
//! whole value of any term.

use rustc_hash::FxHashMap;

use crate::model::Model;
use crate::semantics as sem;
use crate::shadow::Version;
use crate::term::{mask, Op, TermId, TermStore, VarId};

/// Values for variables.
pub trait Assignment {
    /// The value of `v` (masked to the variable's width by the evaluator).
    fn value(&self, v: VarId) -> u64;
}

impl Assignment for Model {
    fn value(&self, v: VarId) -> u64 {
        self.get(v)
    }
}

impl<F: Fn(VarId) -> u64> Assignment for F {
    fn value(&self, v: VarId) -> u64 {
        self(v)
    }
}

/// The value of `t` under `assignment` (shadows follow the new version); the low 64 bits of
/// a wide term.
pub fn eval(store: &TermStore, t: TermId, assignment: &impl Assignment) -> u64 {
    eval_version(store, t, assignment, Version::New)
}

/// The value of `t` under `assignment`, shadows following `version` (the low 64 bits of a
/// wide term).
pub fn eval_version(store: &TermStore, t: TermId, assignment: &impl Assignment, version: Version) -> u64 {
    eval_wide(store, t, assignment, version) as u64
}

/// The value of a term of any width under `assignment`, shadows following `version`.
pub fn eval_wide(store: &TermStore, t: TermId, assignment: &impl Assignment, version: Version) -> u128 {
    let mut budget = SMALL_TERM_NODES;
    match eval_small(store, t, assignment, version, &mut budget) {
        Some(v) => v,
        None => Evaluator::new(store, assignment).with_version(version).eval_wide(t),
    }
}

/// Node visits [`eval_small`] may make before giving up.
const SMALL_TERM_NODES: u32 = 64;

/// The value of a small term by plain recursion, without the memo's allocation: the engine
/// evaluates a branch condition of a few nodes under the state's model at every branch.
/// `None` once `budget` node visits are spent (a large term, or one sharing many subterms),
/// which also bounds the recursion depth.
fn eval_small<A: Assignment + ?Sized>(
    store: &TermStore,
    t: TermId,
    assignment: &A,
    version: Version,
    budget: &mut u32,
) -> Option<u128> {
    *budget = budget.checked_sub(1)?;
    let d = store.data(t);
    let w = d.width();
    Some(match d.op() {
        Op::Const => d.const_wide().unwrap_or(0),
        Op::Var => u128::from(assignment.value(d.var().unwrap_or(VarId::from_u32(0))) & mask(w)),
        Op::Shadow => {
            let pick = usize::from(version == Version::New);
            eval_small(store, d.children()[pick], assignment, version, budget)?
        }
        op => {
            let mut args = [0u128; 3];
            for (slot, &c) in args.iter_mut().zip(d.children()) {
                *slot = eval_small(store, c, assignment, version, budget)?;
            }
            apply(store, op, t, w, args)
        }
    })
}

/// Whether every width-1 term in `constraints` evaluates to 1.
pub fn satisfies(store: &TermStore, constraints: &[TermId], assignment: &impl Assignment) -> bool {
    let mut e = Evaluator::new(store, assignment);
    constraints.iter().all(|&c| e.eval(c) == 1)
}

/// An evaluator with a memo shared by all the terms it evaluates.
pub struct Evaluator<'a, A: Assignment + ?Sized> {
    store: &'a TermStore,
    assignment: &'a A,
    version: Version,
    memo: FxHashMap<TermId, u128>,
    stack: Vec<TermId>,
}

impl<'a, A: Assignment + ?Sized> Evaluator<'a, A> {
    /// An evaluator following the new version through shadows.
    pub fn new(store: &'a TermStore, assignment: &'a A) -> Self {
        Evaluator {
            store,
            assignment,
            version: Version::New,
            // Room for a typical branch condition, so evaluating one does not rehash.
            memo: FxHashMap::with_capacity_and_hasher(32, Default::default()),
            stack: Vec::new(),
        }
    }

    /// Follow `version` through shadows.
    pub fn with_version(mut self, version: Version) -> Self {
        self.version = version;
        self
    }

    /// The value of `t` (the low 64 bits of a wide term).
    pub fn eval(&mut self, t: TermId) -> u64 {
        self.eval_wide(t) as u64
    }

    /// The value of `t`, of any width.
    pub fn eval_wide(&mut self, t: TermId) -> u128 {
        if let Some(&v) = self.memo.get(&t) {
            return v;
        }
        let store = self.store;
        self.stack.clear();
        self.stack.push(t);
        while let Some(&n) = self.stack.last() {
            if self.memo.contains_key(&n) {
                self.stack.pop();
                continue;
            }
            let d = store.data(n);
            let w = d.width();
            let value = match d.op() {
                Op::Const => d.const_wide().unwrap_or(0),
                Op::Var => {
                    let v = d.var().unwrap_or(VarId::from_u32(0));
                    u128::from(self.assignment.value(v) & mask(w))
                }
                _ => {
                    let children: &[TermId] = if d.op() == Op::Shadow {
                        let pick = usize::from(self.version == Version::New);
                        std::slice::from_ref(&d.children()[pick])
                    } else {
                        d.children()
                    };
                    let before = self.stack.len();
                    for &c in children {
                        if !self.memo.contains_key(&c) {
                            self.stack.push(c);
                        }
                    }
                    if self.stack.len() != before {
                        continue;
                    }
                    let mut args = [0u128; 3];
                    for (slot, c) in args.iter_mut().zip(children) {
                        *slot = self.memo[c];
                    }
                    apply(store, d.op(), n, w, args)
                }
            };
            self.memo.insert(n, value);
            self.stack.pop();
        }
        self.memo[&t]
    }
}

/// One operator on concrete (masked) arguments; `n` is the node (for the
/// widths of its children and the extract payload). Only the wide-capable operators see
/// values above 64 bits; the others compute on `u64`s.
pub(crate) fn apply(store: &TermStore, op: Op, n: TermId, w: u8, wide: [u128; 3]) -> u128 {
    let d = store.data(n);
    let cw = |i: usize| store.width(d.children()[i]);
    match op {
        Op::Eq => return u128::from(wide[0] == wide[1]),
        Op::Extract => return sem::extract(wide[0], d.extract_lo(), w),
        Op::Concat => return sem::concat(wide[0], wide[1], cw(1)),
        Op::Ite => return if wide[0] == 1 { wide[1] } else { wide[2] },
        Op::Shadow => return wide[0],
        op if op.is_float() => return crate::float::apply_node(op, d.aux(), w, cw(0), wide),
        _ => {}
    }
    let a = wide.map(|x| x as u64);
    u128::from(match op {
        Op::Const | Op::Var => unreachable!("leaves are handled by the caller"),
        Op::Add => sem::add(a[0], a[1], w),
        Op::Sub => sem::sub(a[0], a[1], w),
        Op::Mul => sem::mul(a[0], a[1], w),
        Op::UDiv => sem::udiv(a[0], a[1], w),
        Op::SDiv => sem::sdiv(a[0], a[1], w),
        Op::URem => sem::urem(a[0], a[1], w),
        Op::SRem => sem::srem(a[0], a[1], w),
        Op::Shl => sem::shl(a[0], a[1], w),
        Op::LShr => sem::lshr(a[0], a[1], w),
        Op::AShr => sem::ashr(a[0], a[1], w),
        Op::And => a[0] & a[1],
        Op::Or => a[0] | a[1],
        Op::Xor => a[0] ^ a[1],
        Op::Not => sem::not(a[0], w),
        Op::Neg => sem::neg(a[0], w),
        Op::Ult => sem::ult(a[0], a[1]),
        Op::Ule => sem::ule(a[0], a[1]),
        Op::Slt => sem::slt(a[0], a[1], cw(0)),
        Op::Sle => sem::sle(a[0], a[1], cw(0)),
        Op::ZExt => a[0],
        Op::SExt => sem::sext(a[0], cw(0), w),
        op => unreachable!("{op:?} is handled above"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluates_shared_dag_and_shadows() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 8);
        let xt = s.var(x);
        let one = s.constant(8, 1);
        let two = s.constant(8, 2);
        let sh = s.shadow(one, two);
        let sum = s.add(xt, sh);
        let sq = s.mul(sum, sum);
        let m = Model::from_pairs([(x, 3)]);
        assert_eq!(eval(&s, sq, &m), 25);
        assert_eq!(eval_version(&s, sq, &m, Version::Old), 16);
        assert_eq!(eval(&s, sq, &|_| 0x1ff), 1); // (0xff + 2)^2 = 1 mod 256
    }

    #[test]
    fn deep_chain_evaluates_without_overflow() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 64);
        let y = s.new_var("y", 64);
        let (x, yt) = (s.var(x), s.var(y));
        let mut t = x;
        for _ in 0..100_000 {
            t = s.add(t, yt);
        }
        assert_eq!(eval(&s, t, &|v: VarId| if v == y { 2 } else { 1 }), 200_001);
    }
}
