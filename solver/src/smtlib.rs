//! SMT-LIB2 (`QF_BV`) printing of constraint sets, for the query log and for
//! the engine's test sidecars.
//!
//! Every term is a bitvector (width-1 terms are `(_ BitVec 1)`): comparisons
//! print as `(ite (bvult a b) #b1 #b0)`, equality as `(bvcomp a b)`, an `ite`
//! condition as `(= c #b1)`, and each constraint as `(assert (= c #b1))`.
//! This is exactly how the Bitwuzla backend translates terms, so a logged
//! query means the same to another solver.
//!
//! Shared subterms and deep chains must not blow up: a node used more than
//! once, or whose inline expression would nest more than [`MAX_INLINE_DEPTH`]
//! levels, becomes a `(define-fun tN () (_ BitVec w) ...)`, printed in
//! topological order. The printer never recurses on term depth.
//!
//! A `Shadow(old, new)` node prints as its new child (the solver never sends
//! shadows; project first to choose a version).
//!
//! Floating-point operators print in `QF_BVFP` exactly as the backend encodes them (see
//! `core/float.rs`): each float result `tN` declares its fresh bits `|fp!N|` and asserts their
//! definition ([`float`]).

use std::fmt::Write;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::term::{Op, TermId, TermStore};

mod float;

/// Inline expressions nest at most this deep before a `define-fun` is used.
pub const MAX_INLINE_DEPTH: u32 = 16;

/// A self-contained script: `(set-logic QF_BV)`, declarations, definitions
/// and one `assert` per constraint (no `check-sat`).
pub fn to_smtlib(store: &TermStore, constraints: &[TermId]) -> String {
    let mut out = format!("(set-logic {})\n", logic_of(store, constraints));
    write_constraints(store, constraints, &mut out);
    out
}

/// The logic of a constraint set: `QF_BVFP` when a floating-point operator occurs, else `QF_BV`.
pub fn logic_of(store: &TermStore, constraints: &[TermId]) -> &'static str {
    if constraints.iter().any(|&c| store.has_float(c)) {
        "QF_BVFP"
    } else {
        "QF_BV"
    }
}

/// Appends declarations, definitions and assertions for `constraints` to `out`.
pub fn write_constraints(store: &TermStore, constraints: &[TermId], out: &mut String) {
    // 1. Reachable nodes; sorted ids are a topological order (children are older).
    let mut seen: FxHashSet<TermId> = FxHashSet::default();
    let mut stack: Vec<TermId> = constraints.to_vec();
    while let Some(t) = stack.pop() {
        if seen.insert(t) {
            stack.extend(printed_children(store, t).iter().filter(|c| !seen.contains(c)));
        }
    }
    let mut order: Vec<TermId> = seen.into_iter().collect();
    order.sort_unstable();

    // 2. Uses per node (as a child of a reachable node, or as a constraint).
    let mut uses: FxHashMap<TermId, u32> = FxHashMap::default();
    for &t in &order {
        // A float operator's text names each operand several times: name them.
        let each = if store.op(t).is_float() { 2 } else { 1 };
        for &c in printed_children(store, t) {
            *uses.entry(c).or_insert(0) += each;
        }
    }
    for &c in constraints {
        *uses.entry(c).or_insert(0) += 1;
    }

    // 3. Declarations, sorted by variable.
    let mut vars: Vec<_> = order.iter().filter_map(|&t| store.as_var(t)).collect();
    vars.sort_unstable();
    for v in vars {
        let _ = writeln!(out, "(declare-fun |{}| () (_ BitVec {}))", store.var_symbol(v), store.var_width(v));
    }

    // 4. Definitions and inline texts, bottom-up.
    let mut float_definitions = Vec::new();
    let mut text: FxHashMap<TermId, String> = FxHashMap::default();
    let mut depth: FxHashMap<TermId, u32> = FxHashMap::default();
    for &t in &order {
        let d = store.data(t);
        match d.op() {
            Op::Const => {
                text.insert(t, constant_text(d.width(), d.const_wide().unwrap_or(0)));
                continue;
            }
            Op::Var => {
                if let Some(v) = d.var() {
                    text.insert(t, format!("|{}|", store.var_symbol(v)));
                }
                continue;
            }
            _ => {}
        }
        let kids = printed_children(store, t);
        let dep = 1 + kids.iter().map(|c| depth.get(c).copied().unwrap_or(0)).max().unwrap_or(0);
        let args: Vec<&str> = kids.iter().map(|c| text.get(c).map_or("?", |s| s.as_str())).collect();
        let expr = if d.op().is_float() {
            let (expr, fresh) = float::node_text(store, t, &args);
            if let Some((declaration, definition)) = fresh {
                let _ = writeln!(out, "{declaration}");
                float_definitions.push(definition);
            }
            expr
        } else {
            node_text(store, t, &args)
        };
        let named = uses.get(&t).copied().unwrap_or(0) > 1 || dep > MAX_INLINE_DEPTH;
        if named {
            let _ = writeln!(out, "(define-fun t{} () (_ BitVec {}) {})", t.as_u32(), d.width(), expr);
            text.insert(t, format!("t{}", t.as_u32()));
            depth.insert(t, 0);
        } else {
            text.insert(t, expr);
            depth.insert(t, dep);
        }
        // Inlined children are used exactly once: free their text.
        for &c in kids {
            if depth.get(&c).is_some_and(|&x| x > 0) {
                text.remove(&c);
            }
        }
    }

    // 5. Assertions.
    for definition in float_definitions {
        let _ = writeln!(out, "(assert {definition})");
    }
    for &c in constraints {
        let _ = writeln!(out, "(assert (= {} #b1))", text.get(&c).map_or("?", |s| s.as_str()));
    }
}

/// The children the printer follows (a shadow prints as its new child).
fn printed_children(store: &TermStore, t: TermId) -> &[TermId] {
    let ch = store.children(t);
    if store.op(t) == Op::Shadow {
        &ch[1..]
    } else {
        ch
    }
}

/// `#x...` when the width is a multiple of 4, otherwise `#b...`.
pub fn constant_text(width: u8, value: u128) -> String {
    if width % 4 == 0 {
        format!("#x{:0w$x}", value, w = usize::from(width / 4))
    } else {
        format!("#b{:0w$b}", value, w = usize::from(width))
    }
}

fn node_text(store: &TermStore, t: TermId, a: &[&str]) -> String {
    let d = store.data(t);
    let w = d.width();
    let bin = |f: &str| format!("({f} {} {})", a[0], a[1]);
    let cmp = |f: &str| format!("(ite ({f} {} {}) #b1 #b0)", a[0], a[1]);
    match d.op() {
        Op::Const | Op::Var => unreachable!("leaves are printed by the caller"),
        Op::Add => bin("bvadd"),
        Op::Sub => bin("bvsub"),
        Op::Mul => bin("bvmul"),
        Op::UDiv => bin("bvudiv"),
        Op::SDiv => bin("bvsdiv"),
        Op::URem => bin("bvurem"),
        Op::SRem => bin("bvsrem"),
        Op::Shl => bin("bvshl"),
        Op::LShr => bin("bvlshr"),
        Op::AShr => bin("bvashr"),
        Op::And => bin("bvand"),
        Op::Or => bin("bvor"),
        Op::Xor => bin("bvxor"),
        Op::Not => format!("(bvnot {})", a[0]),
        Op::Neg => format!("(bvneg {})", a[0]),
        Op::Eq => bin("bvcomp"),
        Op::Ult => cmp("bvult"),
        Op::Ule => cmp("bvule"),
        Op::Slt => cmp("bvslt"),
        Op::Sle => cmp("bvsle"),
        Op::Extract => {
            let lo = d.extract_lo();
            format!("((_ extract {} {}) {})", lo + w - 1, lo, a[0])
        }
        Op::Concat => bin("concat"),
        Op::ZExt | Op::SExt => {
            let f = if d.op() == Op::ZExt { "zero_extend" } else { "sign_extend" };
            let by = w - store.width(d.children()[0]);
            format!("((_ {f} {by}) {})", a[0])
        }
        Op::Ite => format!("(ite (= {} #b1) {} {})", a[0], a[1], a[2]),
        Op::Shadow => a[0].to_string(),
        other => unreachable!("{other:?} prints in smtlib::float"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_small_terms_inline() {
        let mut s = TermStore::default();
        let x = s.new_var("x[0]", 8);
        let x = s.var(x);
        let c = s.constant(8, 0x2a);
        let sum = s.add(x, c);
        let lt = s.ult(sum, c);
        let text = to_smtlib(&s, &[lt]);
        assert_eq!(
            text,
            "(set-logic QF_BV)\n\
             (declare-fun |x[0]| () (_ BitVec 8))\n\
             (assert (= (ite (bvult (bvadd |x[0]| #x2a) #x2a) #b1 #b0) #b1))\n"
        );
    }

    #[test]
    fn shared_subterms_become_definitions() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 3);
        let x = s.var(x);
        let sq = s.mul(x, x);
        let e = s.eq(sq, x);
        let z = s.zext(sq, 8);
        let k = s.constant(8, 9);
        let f = s.ule(z, k);
        let text = to_smtlib(&s, &[e, f]);
        assert_eq!(
            text,
            format!(
                "(set-logic QF_BV)\n\
                 (declare-fun |x| () (_ BitVec 3))\n\
                 (define-fun t{} () (_ BitVec 3) (bvmul |x| |x|))\n\
                 (assert (= (bvcomp |x| t{}) #b1))\n\
                 (assert (= (ite (bvule ((_ zero_extend 5) t{}) #x09) #b1 #b0) #b1))\n",
                sq.as_u32(),
                sq.as_u32(),
                sq.as_u32()
            )
        );
    }

    #[test]
    fn deep_chains_print_flat() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 32);
        let y = s.new_var("y", 32);
        let (x, y) = (s.var(x), s.var(y));
        let mut t = x;
        for _ in 0..100_000 {
            t = s.mul(t, y);
        }
        let c = s.ult(t, y);
        let text = to_smtlib(&s, &[c]);
        let defs = text.lines().filter(|l| l.starts_with("(define-fun")).count();
        // every 17th multiplication is named (depth 17 > MAX_INLINE_DEPTH)
        assert_eq!(defs, 100_000 / 17);
        let max_parens = text.lines().map(|l| l.chars().filter(|&ch| ch == '(').count()).max().unwrap_or(0);
        assert!(max_parens <= 2 * MAX_INLINE_DEPTH as usize + 4, "{max_parens}");
    }
}
