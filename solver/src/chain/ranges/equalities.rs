//! Constraints that fix a term to a constant, and the query's new constraints they contradict
//! (KLEE rewrites a path's constraints with its equalities; this is that rewriting's cheap
//! half). The engine pins what it concretizes (a pointer's offset, an allocation's size) with
//! `t == c`, and the check that follows asks about `t` again: cut's bitmap index
//! `(n - 48) / 8 == 0xbebbda` on the path, then `index + 1 < 1008` as the query's branch,
//! cost Bitwuzla 5 ms over the eight digits of `n`. Evaluated with the known terms, the branch
//! is false whatever the digits: unsat in microseconds.
//!
//! Known are the path's facts about whole terms: `t == c` (either side constant), a width-1
//! constraint `t` (`t` is 1) and `not t` (`t` is 0). A constraint that evaluates to 0 from known
//! terms and constants alone contradicts them, and the query is unsat; anything else is left to
//! the rest of the chain. The evaluation of one query stops after [`MAX_NODES`] nodes.

use rustc_hash::FxHashMap;

use crate::eval::apply;
use crate::query::Query;
use crate::term::{Op, TermId, TermStore};

/// The nodes one query's evaluation walks at most: a long path or a long chain of arithmetic is
/// left to the rest of the chain rather than walked.
const MAX_NODES: usize = 4096;

/// Whether what `q`'s constraints fix (equalities with constants, the constraints themselves)
/// contradicts one of them; `false` when undecided (and for a query without extra constraints,
/// whose path was satisfiable when it was built).
pub(super) fn contradicted(store: &TermStore, q: &Query<'_>) -> bool {
    if q.extra.is_empty() {
        return false;
    }
    let mut known: FxHashMap<TermId, u128> = FxHashMap::default();
    let mut learn = |term: TermId, value: u128| known.insert(term, value).is_some_and(|before| before != value);
    for &c in q.pc.iter().chain(q.extra) {
        let fact = match store.op(c) {
            Op::Eq => {
                let [a, b] = [store.children(c)[0], store.children(c)[1]];
                match (store.as_const_wide(a), store.as_const_wide(b)) {
                    (None, Some(v)) => Some((a, v)),
                    (Some(v), None) => Some((b, v)),
                    _ => None,
                }
            }
            Op::Not if store.width(c) == 1 => Some((store.children(c)[0], 0)),
            _ => None,
        };
        if learn(c, 1) || fact.is_some_and(|(t, v)| learn(t, v)) {
            return true;
        }
    }
    // Every known entry holds in every model of the query, so a constraint whose operands they
    // evaluate to a 0 has none (its own entry, that it is 1, is not read for it). The extras
    // first, then the path, newest first: what the extras fix is most often what the latest
    // constraints were about.
    let mut partial = Partial { store, known, nodes: 0 };
    q.extra.iter().chain(q.pc.iter().rev()).any(|&c| partial.computed(c) == Some(0))
}

/// A partial evaluation: the value of a term whose leaves are constants or known terms.
struct Partial<'a> {
    store: &'a TermStore,
    known: FxHashMap<TermId, u128>,
    nodes: usize,
}

impl Partial<'_> {
    /// The value of `t` if the known terms and constants decide it.
    fn value(&mut self, t: TermId) -> Option<u128> {
        match self.known.get(&t) {
            Some(&v) => Some(v),
            None => self.computed(t),
        }
    }

    /// The value of `t` from its operands' values (not from what is known of `t` itself).
    fn computed(&mut self, t: TermId) -> Option<u128> {
        let store = self.store;
        let d = store.data(t);
        match d.op() {
            Op::Const => return d.const_wide(),
            Op::Var | Op::Shadow => return None,
            _ => {}
        }
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return None;
        }
        let children = d.children();
        // `ite` needs only its condition and the side it picks.
        if d.op() == Op::Ite {
            let pick = if self.value(children[0])? == 1 { children[1] } else { children[2] };
            return self.value(pick);
        }
        let mut args = [0u128; 3];
        for (slot, &c) in args.iter_mut().zip(children) {
            *slot = self.value(c)?;
        }
        let v = apply(store, d.op(), t, d.width(), args);
        // Remembered for the other constraints, unless it is a fact already (whose own value
        // stays: a difference is the contradiction the caller reads from the value returned).
        self.known.entry(t).or_insert(v);
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::satisfies;
    use crate::model::Model;

    /// cut's query: the path fixes the bitmap index `(n - 48) / 8` of a two-digit `n` to 0x1234;
    /// the branch asks whether `index + 1 < 1008`.
    #[test]
    fn a_branch_on_a_term_the_path_fixes_is_decided() {
        let mut s = TermStore::default();
        let (a, b) = (s.new_var("d0", 8), s.new_var("d1", 8));
        let (a, b) = (s.var(a), s.var(b));
        let (wa, wb) = (s.zext(a, 64), s.zext(b, 64));
        let ten = s.constant(64, 10);
        let tens = s.mul(wa, ten);
        let n = s.add(tens, wb);
        let k48 = s.constant(64, 48);
        let shifted = s.sub(n, k48);
        let eight = s.constant(64, 8);
        let index = s.udiv(shifted, eight);
        let pinned = s.constant(64, 0x1234);
        let pin = s.eq(index, pinned);
        let one = s.constant(64, 1);
        let next = s.add(index, one);
        let size = s.constant(64, 1008);
        let inside = s.ult(next, size);
        assert!(contradicted(&s, &Query::new(&[pin], &[inside], false)));
        // The other side is what the path allows.
        let outside = s.not(inside);
        assert!(!contradicted(&s, &Query::new(&[pin], &[outside], false)));
        // The branch first, the pin as the query's new constraint: decided the same.
        assert!(contradicted(&s, &Query::new(&[inside], &[pin], false)));
        // Without the pin nothing is known.
        assert!(!contradicted(&s, &Query::new(&[], &[inside], false)));
    }

    #[test]
    fn two_values_for_one_term_or_a_negated_fact_contradict() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 8);
        let x = s.var(x);
        let (five, six) = (s.constant(8, 5), s.constant(8, 6));
        let (is5, is6) = (s.eq(x, five), s.eq(five, x));
        let is6b = s.eq(x, six);
        assert!(!contradicted(&s, &Query::new(&[is5], &[is6], false)), "the same fact twice");
        assert!(contradicted(&s, &Query::new(&[is5], &[is6b], false)));
        let not5 = s.not(is5);
        assert!(contradicted(&s, &Query::new(&[not5], &[is5], false)));
    }

    /// xorshift64.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Random queries over two 4-bit inputs, some constraints pinning a term to a value: every
    /// query called contradicted has no model among the 256 assignments.
    #[test]
    fn a_contradicted_query_has_no_model() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut decided = 0;
        for _ in 0..2000 {
            let mut s = TermStore::default();
            let (vx, vy) = (s.new_var("x", 4), s.new_var("y", 4));
            let (x, y) = (s.var(vx), s.var(vy));
            let term = |s: &mut TermStore, rng: &mut u64| {
                let k = s.constant(4, next(rng) % 16);
                match next(rng) % 5 {
                    0 => s.add(x, y),
                    1 => s.mul(x, k),
                    2 => s.udiv(y, k),
                    3 => s.add(x, k),
                    _ => s.sub(y, x),
                }
            };
            let mut constraints = Vec::new();
            for _ in 0..3 {
                let t = term(&mut s, &mut rng);
                let u = term(&mut s, &mut rng);
                let k = s.constant(4, next(&mut rng) % 16);
                let c = match next(&mut rng) % 4 {
                    0 => s.eq(t, k),
                    1 => s.ult(t, u),
                    2 => s.eq(u, k),
                    _ => {
                        let e = s.eq(t, k);
                        s.not(e)
                    }
                };
                constraints.push(c);
            }
            let (pc, extra) = constraints.split_at(2);
            if !contradicted(&s, &Query::new(pc, extra, false)) {
                continue;
            }
            decided += 1;
            for v in 0..256u64 {
                let mut m = Model::new();
                m.insert(vx, v & 15);
                m.insert(vy, v >> 4);
                assert!(!satisfies(&s, &constraints, &m), "a model: x = {}, y = {}", v & 15, v >> 4);
            }
        }
        assert!(decided > 50, "too few queries decided to test anything: {decided}");
    }
}
