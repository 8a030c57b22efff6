//! The range solver: decides, without Bitwuzla, queries whose constraints compare *input
//! values* with constants, and queries over inputs with small sets of values.
//!
//! An input value (an "atom") is a variable, or a concatenation of distinct
//! variables: the bytes of a `make_symbolic` int load as
//! `concat(n[3], n[2], n[1], n[0])`, so `0 <= n && n <= 150 && n != 7` is such
//! a query. Each comparison denotes a set of atom values, kept exactly as a
//! sorted list of disjoint intervals; `not`, `and`, `or`, `xor` and equality of
//! truth values are set operations, and the atom may be wrapped in additions or
//! subtractions of constants, bitwise or arithmetic negation and zero or sign
//! extension (each is a bijection or an injection on intervals, so the set of
//! atom values stays exact). A query whose every constraint is over one atom is
//! sat exactly when each atom's set is non-empty.
//!
//! Most four-way checks of a change to a bound (`n <= k` becomes `n < k`) are
//! such queries once independence has cut away the other inputs, and they are
//! decided here in microseconds. The constraints outside the fragment (two
//! atoms, multiplication, memory) are decided by trying every combination of
//! their inputs' values when the single-input constraints leave few of them
//! ([`domains`]); otherwise the query passes down the chain untouched.
//!
//! The model is the value of each set closest to zero as a signed number (the
//! non-negative one on a tie), so that generated inputs read naturally.
//!
//! First of all, a query whose new constraints contradict what its constraints fix a term to
//! (`t == c`) is unsat ([`equalities`]): the engine pins what it concretizes that way.

use std::time::Instant;

use super::{Layer, Next};
use crate::error::SolverError;
use crate::model::Model;
use crate::query::{Answer, Ctx, Query};
use crate::term::{mask, Op, TermId, TermStore, VarId};

/// A set of `width`-bit values: sorted, disjoint, non-adjacent inclusive intervals.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Ranges {
    width: u8,
    spans: Vec<(u64, u64)>,
}

impl Ranges {
    fn empty(width: u8) -> Self {
        Ranges { width, spans: Vec::new() }
    }

    fn full(width: u8) -> Self {
        Ranges { width, spans: vec![(0, mask(width))] }
    }

    /// `[lo, hi]`, empty when `lo > hi`.
    fn span(width: u8, lo: u64, hi: u64) -> Self {
        let spans = if lo <= hi { vec![(lo, hi)] } else { Vec::new() };
        Ranges { width, spans }
    }

    /// Sorts and merges overlapping or adjacent spans.
    fn normalized(width: u8, mut spans: Vec<(u64, u64)>) -> Self {
        spans.sort_unstable();
        let mut out: Vec<(u64, u64)> = Vec::with_capacity(spans.len());
        for (lo, hi) in spans {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        Ranges { width, spans: out }
    }

    fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    fn complement(&self) -> Self {
        let mut spans = Vec::with_capacity(self.spans.len() + 1);
        let mut next = 0u64;
        for &(lo, hi) in &self.spans {
            if lo > next {
                spans.push((next, lo - 1));
            }
            next = hi.wrapping_add(1);
            if hi == mask(self.width) {
                return Ranges { width: self.width, spans };
            }
        }
        spans.push((next, mask(self.width)));
        Ranges { width: self.width, spans }
    }

    fn intersect(&self, other: &Self) -> Self {
        let (mut i, mut j, mut spans) = (0, 0, Vec::new());
        while i < self.spans.len() && j < other.spans.len() {
            let (a, b) = (self.spans[i], other.spans[j]);
            let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
            if lo <= hi {
                spans.push((lo, hi));
            }
            if a.1 < b.1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        Ranges { width: self.width, spans }
    }

    fn union(&self, other: &Self) -> Self {
        Self::normalized(self.width, self.spans.iter().chain(&other.spans).copied().collect())
    }

    /// Every value `v` of `self` mapped to `v + k` (mod 2^width).
    fn shifted(&self, k: u64) -> Self {
        let m = mask(self.width);
        let k = k & m;
        let mut spans = Vec::with_capacity(self.spans.len() + 1);
        for &(lo, hi) in &self.spans {
            let (nlo, nhi) = (lo.wrapping_add(k) & m, hi.wrapping_add(k) & m);
            if nlo <= nhi {
                spans.push((nlo, nhi));
            } else {
                spans.push((nlo, m));
                spans.push((0, nhi));
            }
        }
        Self::normalized(self.width, spans)
    }

    /// Every value `v` mapped to `!v` (reverses the order).
    fn bit_negated(&self) -> Self {
        let m = mask(self.width);
        Self::normalized(self.width, self.spans.iter().map(|&(lo, hi)| (m - hi, m - lo)).collect())
    }

    /// Every value mapped to its bits with the sign bit flipped: signed order becomes
    /// unsigned order.
    fn sign_flipped(&self) -> Self {
        self.shifted(1u64 << (self.width - 1))
    }

    /// The values of a narrower `width` whose zero extension is in `self`.
    fn zext_preimage(&self, width: u8) -> Self {
        let narrow = Self::span(self.width, 0, mask(width));
        Ranges { width, spans: self.intersect(&narrow).spans }
    }

    /// The values of a narrower `width` whose sign extension is in `self`: the non-negative
    /// half maps to itself, the negative half to the top of the wide range.
    fn sext_preimage(&self, width: u8) -> Self {
        let half = 1u64 << (width - 1);
        let positive = self.intersect(&Self::span(self.width, 0, half - 1));
        let top = mask(self.width) - (half - 1);
        let negative = self.intersect(&Self::span(self.width, top, mask(self.width)));
        let lowered = negative.spans.iter().map(|&(lo, hi)| (lo - top + half, hi - top + half));
        Self::normalized(width, positive.spans.iter().copied().chain(lowered).collect())
    }

    /// How far `v` is from zero as a signed number, with the non-negative value first on a
    /// tie: the order in which values are picked.
    fn distance(&self, v: u64) -> (u64, u8) {
        let half = 1u64 << (self.width - 1);
        if v < half {
            (v, 0)
        } else {
            (mask(self.width) - v + 1, 1)
        }
    }

    /// The value closest to zero as a signed number (non-negative on a tie).
    fn pick(&self) -> Option<u64> {
        let mut best: Option<u64> = None;
        // |v| grows from 0 up to the sign boundary and shrinks after it, so within a span
        // the closest value is one of its ends.
        for &(lo, hi) in &self.spans {
            for v in [lo, hi] {
                if best.is_none_or(|b| self.distance(v) < self.distance(b)) {
                    best = Some(v);
                }
            }
        }
        best
    }

    /// How many values the set holds (saturating at `u64::MAX`).
    fn count(&self) -> u64 {
        self.spans.iter().fold(0u64, |n, &(lo, hi)| n.saturating_add((hi - lo).saturating_add(1)))
    }

    /// Whether `v` is in the set.
    fn contains(&self, v: u64) -> bool {
        let i = self.spans.partition_point(|&(_, hi)| hi < v);
        self.spans.get(i).is_some_and(|&(lo, _)| lo <= v)
    }

    /// Whether every value of `other` is in `self`.
    fn includes(&self, other: &Self) -> bool {
        self.width == other.width && other.intersect(self) == *other
    }

    /// Every value, closest to zero first (see [`Ranges::pick`]); for small sets only.
    fn closest_to_zero_first(&self) -> Vec<u64> {
        let mut values: Vec<u64> = self.spans.iter().flat_map(|&(lo, hi)| lo..=hi).collect();
        values.sort_by_key(|&v| self.distance(v));
        values
    }
}

/// Decides one query (see the module comment); `None` when it is outside the fragment.
struct RangeQuery<'s> {
    store: &'s TermStore,
    atom: Option<TermId>,
}

impl<'s> RangeQuery<'s> {
    /// The set of atom values making the width-1 term `t` true.
    fn truth(&mut self, t: TermId) -> Option<Ranges> {
        let s = self.store;
        let kids = s.children(t);
        match s.op(t) {
            Op::Const => {
                let w = self.atom_width()?;
                Some(if s.as_const(t)? & 1 == 1 { Ranges::full(w) } else { Ranges::empty(w) })
            }
            Op::Not => Some(self.truth(kids[0])?.complement()),
            Op::And => Some(self.truth(kids[0])?.intersect(&self.truth(kids[1])?)),
            Op::Or => Some(self.truth(kids[0])?.union(&self.truth(kids[1])?)),
            Op::Xor => {
                let (a, b) = (self.truth(kids[0])?, self.truth(kids[1])?);
                Some(a.intersect(&b.complement()).union(&b.intersect(&a.complement())))
            }
            Op::Ite => {
                let (c, a, b) = (self.truth(kids[0])?, self.truth(kids[1])?, self.truth(kids[2])?);
                Some(c.intersect(&a).union(&c.complement().intersect(&b)))
            }
            Op::Eq => {
                let (a, b) = (kids[0], kids[1]);
                if let (Some(x), Some(c)) = (truth_value(s, a), s.as_const(b)) {
                    return self.truth_equals(x, c);
                }
                if let (Some(c), Some(y)) = (s.as_const(a), truth_value(s, b)) {
                    return self.truth_equals(y, c);
                }
                if let (Some(x), Some(y)) = (truth_value(s, a), truth_value(s, b)) {
                    let (x, y) = (self.truth(x)?, self.truth(y)?);
                    return Some(x.intersect(&y).union(&x.complement().intersect(&y.complement())));
                }
                self.compare(t, |w, c| Ranges::span(w, c, c))
            }
            Op::Ult => self.compare(t, |w, c| if c == 0 { Ranges::empty(w) } else { Ranges::span(w, 0, c - 1) }),
            Op::Ule => self.compare(t, |w, c| Ranges::span(w, 0, c)),
            Op::Slt | Op::Sle => self.compare(t, |w, c| {
                let flipped = c ^ (1u64 << (w - 1));
                let below = if s.op(t) == Op::Slt {
                    if flipped == 0 {
                        Ranges::empty(w)
                    } else {
                        Ranges::span(w, 0, flipped - 1)
                    }
                } else {
                    Ranges::span(w, 0, flipped)
                };
                below.sign_flipped()
            }),
            _ => None,
        }
    }

    /// The atom values where the truth value `x` (a width-1 term) equals the constant `c`
    /// (which may be outside 0/1 when the truth value was zero-extended).
    fn truth_equals(&mut self, x: TermId, c: u64) -> Option<Ranges> {
        let set = self.truth(x)?;
        Some(match c {
            1 => set,
            0 => set.complement(),
            _ => Ranges::empty(set.width),
        })
    }

    fn atom_width(&self) -> Option<u8> {
        self.atom.map(|a| self.store.width(a))
    }

    /// `t` is `op(lhs, rhs)` with one side constant; `below(w, c)` is the set of `x` with
    /// `op(x, c)` true. With the constant on the left the relation is mirrored.
    fn compare(&mut self, t: TermId, below: impl Fn(u8, u64) -> Ranges) -> Option<Ranges> {
        let s = self.store;
        let (lhs, rhs) = (s.children(t)[0], s.children(t)[1]);
        let w = s.width(lhs);
        let values = if let Some(c) = s.as_const(rhs) {
            below(w, c)
        } else if let Some(c) = s.as_const(lhs) {
            // c op x: for the strict relations it is !(x op' c) with op' the non-strict
            // one, and the reverse; equality is symmetric.
            match s.op(t) {
                Op::Eq => Ranges::span(w, c, c),
                Op::Ult => Ranges::span(w, 0, c).complement(),
                Op::Ule => (if c == 0 { Ranges::empty(w) } else { Ranges::span(w, 0, c - 1) }).complement(),
                Op::Slt => Ranges::span(w, 0, c ^ (1u64 << (w - 1))).sign_flipped().complement(),
                Op::Sle => {
                    let flipped = c ^ (1u64 << (w - 1));
                    let below = if flipped == 0 { Ranges::empty(w) } else { Ranges::span(w, 0, flipped - 1) };
                    below.sign_flipped().complement()
                }
                _ => return None,
            }
        } else {
            return None;
        };
        let term = if s.as_const(rhs).is_some() { lhs } else { rhs };
        self.preimage(term, values)
    }

    /// The atom values for which `t` takes a value in `values`.
    fn preimage(&mut self, t: TermId, values: Ranges) -> Option<Ranges> {
        let s = self.store;
        if Some(t) == self.atom {
            return Some(values);
        }
        let kids = s.children(t);
        match s.op(t) {
            Op::Add => match (s.as_const(kids[0]), s.as_const(kids[1])) {
                (Some(c), None) => self.preimage(kids[1], values.shifted(c.wrapping_neg())),
                (None, Some(c)) => self.preimage(kids[0], values.shifted(c.wrapping_neg())),
                _ => None,
            },
            Op::Sub => match (s.as_const(kids[0]), s.as_const(kids[1])) {
                // c - x in V  <=>  x in c - V = !(V - c - 1)... computed as -(V - c)
                (Some(c), None) => self.preimage(kids[1], values.shifted(c.wrapping_neg()).bit_negated().shifted(1)),
                (None, Some(c)) => self.preimage(kids[0], values.shifted(c)),
                _ => None,
            },
            // -x = !x + 1
            Op::Neg => self.preimage(kids[0], values.shifted(u64::MAX).bit_negated()),
            Op::Not => self.preimage(kids[0], values.bit_negated()),
            Op::ZExt => {
                let w = s.width(kids[0]);
                self.preimage(kids[0], values.zext_preimage(w))
            }
            Op::SExt => {
                let w = s.width(kids[0]);
                self.preimage(kids[0], values.sext_preimage(w))
            }
            Op::Var | Op::Concat if self.atom.is_none() && is_atom(s, t) => {
                self.atom = Some(t);
                Some(values)
            }
            _ => None,
        }
    }
}

/// The width-1 term whose zero extension `t` is (`t` itself when it has width 1).
fn truth_value(s: &TermStore, t: TermId) -> Option<TermId> {
    match s.op(t) {
        _ if s.width(t) == 1 => Some(t),
        Op::ZExt if s.width(s.children(t)[0]) == 1 => Some(s.children(t)[0]),
        _ => None,
    }
}

/// Whether `t` is a variable or a concatenation of distinct variables.
fn is_atom(s: &TermStore, t: TermId) -> bool {
    let mut vars = Vec::new();
    leaves(s, t, &mut vars) && {
        let n = vars.len();
        vars.sort_unstable();
        vars.dedup();
        vars.len() == n
    }
}

/// Collects the variables of a concatenation tree; false if a leaf is not a variable.
fn leaves(s: &TermStore, t: TermId, out: &mut Vec<VarId>) -> bool {
    match s.op(t) {
        Op::Var => {
            out.push(s.as_var(t).expect("a variable term names its variable"));
            true
        }
        Op::Concat => s.children(t).iter().all(|&k| leaves(s, k, out)),
        _ => false,
    }
}

/// Writes the atom's value `v` into its variables.
fn assign(s: &TermStore, t: TermId, v: u64, model: &mut Model) {
    match s.op(t) {
        Op::Var => model.insert(s.as_var(t).expect("a variable term names its variable"), v & mask(s.width(t))),
        Op::Concat => {
            let (hi, lo) = (s.children(t)[0], s.children(t)[1]);
            assign(s, lo, v, model);
            assign(s, hi, v >> s.width(lo), model);
        }
        _ => unreachable!("atoms are variables and concatenations"),
    }
}

/// The chain layer: decides what it can, passes the rest on.
#[derive(Default)]
pub(crate) struct RangeSolver {
    sets: solutions::SolutionSets,
}

impl Layer for RangeSolver {
    fn solve(&mut self, ctx: &mut Ctx<'_>, q: &Query<'_>, next: &mut Next<'_>) -> Result<Answer, SolverError> {
        let start = Instant::now();
        ctx.stats.range_queries += 1;
        let decided = match equalities::contradicted(ctx.store, q) {
            true => Some(Answer::Unsat),
            false => domains::decide(ctx.store, ctx.vars, &mut self.sets, q),
        };
        let answer = match decided {
            Some(a) => {
                ctx.stats.range_hits += 1;
                a
            }
            None => next.solve(ctx, q)?,
        };
        ctx.stats.range_time_us += ctx.layer_done(start, next.downstream);
        Ok(answer)
    }
}

mod domains;
mod enumerate;
mod equalities;
mod solutions;

#[cfg(test)]
mod tests;
