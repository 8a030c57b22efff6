//! Whole-DAG rebuilding: the iterative driver behind [`TermStore::simplify`]
//! and the shadow projections, plus [`TermStore::raw_node`], which interns a
//! node *without* rewriting (for tests and fuzzers that need terms the
//! constructors would have simplified).
//!
//! The driver walks the DAG with an explicit stack, so terms of any depth
//! (a 100,000-long chain of additions) are fine.

use rustc_hash::FxHashMap;
use thiserror::Error;

use crate::term::{Op, TermData, TermId, TermStore, WIDE_MAX};

/// Why [`TermStore::raw_node`] refused a node.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("ill-sorted {op:?} node of width {width}: {reason}")]
pub struct SortError {
    pub op: Op,
    pub width: u8,
    pub reason: &'static str,
}

impl TermStore {
    /// Rebuilds one node through the simplifying constructors, given its
    /// (already rebuilt) children. `d` supplies the operator, width and payload.
    pub(crate) fn rebuild(&mut self, d: &TermData, ch: &[TermId]) -> TermId {
        let w = d.width();
        match d.op() {
            Op::Const | Op::Var => unreachable!("leaves are never rebuilt"),
            Op::Add => self.add(ch[0], ch[1]),
            Op::Sub => self.sub(ch[0], ch[1]),
            Op::Mul => self.mul(ch[0], ch[1]),
            Op::UDiv => self.udiv(ch[0], ch[1]),
            Op::SDiv => self.sdiv(ch[0], ch[1]),
            Op::URem => self.urem(ch[0], ch[1]),
            Op::SRem => self.srem(ch[0], ch[1]),
            Op::Shl => self.shl(ch[0], ch[1]),
            Op::LShr => self.lshr(ch[0], ch[1]),
            Op::AShr => self.ashr(ch[0], ch[1]),
            Op::And => self.and(ch[0], ch[1]),
            Op::Or => self.or(ch[0], ch[1]),
            Op::Xor => self.xor(ch[0], ch[1]),
            Op::Not => self.not(ch[0]),
            Op::Neg => self.neg(ch[0]),
            Op::Eq => self.eq(ch[0], ch[1]),
            Op::Ult => self.ult(ch[0], ch[1]),
            Op::Ule => self.ule(ch[0], ch[1]),
            Op::Slt => self.slt(ch[0], ch[1]),
            Op::Sle => self.sle(ch[0], ch[1]),
            Op::Extract => {
                let lo = d.extract_lo();
                self.extract(ch[0], lo + w - 1, lo)
            }
            Op::Concat => self.concat(ch[0], ch[1]),
            Op::ZExt => self.zext(ch[0], w),
            Op::SExt => self.sext(ch[0], w),
            Op::Ite => self.ite(ch[0], ch[1], ch[2]),
            Op::Shadow => self.shadow(ch[0], ch[1]),
            op => self.float_node(op, w, d.aux(), ch),
        }
    }

    /// Maps the DAG below `root` bottom-up without recursion. `special` may
    /// resolve a node directly (its children are then not visited); other
    /// nodes are rebuilt from their mapped children with [`Self::rebuild`].
    /// Results are recorded in `memo`, which may persist across calls; nodes
    /// `special` maps to themselves are not recorded (it is asked again).
    pub(crate) fn map_dag(
        &mut self,
        root: TermId,
        memo: &mut FxHashMap<TermId, TermId>,
        mut special: impl FnMut(&TermStore, TermId) -> Option<TermId>,
    ) -> TermId {
        let mut stack = vec![(root, false)];
        let mut kids: Vec<TermId> = Vec::with_capacity(3);
        while let Some((t, expanded)) = stack.pop() {
            if memo.contains_key(&t) {
                continue;
            }
            if !expanded {
                if let Some(r) = special(self, t) {
                    if r != t {
                        memo.insert(t, r);
                    }
                    continue;
                }
                stack.push((t, true));
                for &c in self.children(t) {
                    if !memo.contains_key(&c) {
                        stack.push((c, false));
                    }
                }
            } else {
                let d = *self.data(t);
                kids.clear();
                // Every child has been visited: absent from the memo means
                // `special` mapped it to itself.
                kids.extend(d.children().iter().map(|c| memo.get(c).copied().unwrap_or(*c)));
                let r = self.rebuild(&d, &kids);
                memo.insert(t, r);
            }
        }
        memo.get(&root).copied().unwrap_or(root)
    }

    /// `t` rebuilt bottom-up through the simplifying constructors. Terms made
    /// by the constructors are already simplified (this returns them
    /// unchanged up to further rewrites that became possible); it matters for
    /// terms from [`TermStore::raw_node`].
    pub fn simplify(&mut self, t: TermId) -> TermId {
        let mut memo = FxHashMap::default();
        self.map_dag(t, &mut memo, |s, x| matches!(s.op(x), Op::Const | Op::Var).then_some(x))
    }

    /// Interns an operator node exactly as given, without folding or
    /// rewriting, after checking it is well sorted. For tests and fuzzers;
    /// engines should use the constructors. `extract_lo` is only used by
    /// `Extract` (and must be 0 otherwise); constants and variables are made
    /// with [`TermStore::constant`] and [`TermStore::new_var`].
    pub fn raw_node(&mut self, op: Op, width: u8, extract_lo: u8, children: &[TermId]) -> Result<TermId, SortError> {
        let err = |reason| Err(SortError { op, width, reason });
        if !(1..=WIDE_MAX).contains(&width) {
            return err("width not in 1..=96");
        }
        if matches!(op, Op::Const | Op::Var) {
            return err("leaves are made with constant() and new_var()");
        }
        if children.len() != op.arity() {
            return err("wrong number of children");
        }
        if children.iter().any(|&c| !self.contains(c)) {
            return err("child not in this store");
        }
        let payloads = match op {
            Op::Extract => u8::MAX,
            Op::FArith => 3,
            Op::FRound => 4,
            _ => 0,
        };
        if extract_lo > payloads {
            return err("payload out of range for the operator");
        }
        let cw: Vec<u8> = children.iter().map(|&c| self.width(c)).collect();
        let wide_capable = matches!(op, Op::Eq | Op::Extract | Op::Concat | Op::Ite | Op::Shadow) || op.is_float();
        if !wide_capable && (width > 64 || cw.iter().any(|&w| w > 64)) {
            return err("only constants, eq, extract, concat, ite, shadow and floats are wider than 64 bits");
        }
        let float = |w: u8| matches!(w, 32 | 64 | 80);
        let ok = match op {
            Op::Const | Op::Var => false,
            Op::Not | Op::Neg => cw[0] == width,
            Op::Eq | Op::Ult | Op::Ule | Op::Slt | Op::Sle => width == 1 && cw[0] == cw[1],
            Op::Extract => u16::from(extract_lo) + u16::from(width) <= u16::from(cw[0]),
            Op::Concat => u16::from(cw[0]) + u16::from(cw[1]) == u16::from(width),
            Op::ZExt | Op::SExt => cw[0] <= width,
            Op::Ite => cw[0] == 1 && cw[1] == width && cw[2] == width,
            Op::FArith => float(width) && cw[0] == width && cw[1] == width,
            Op::FSqrt | Op::FRound => float(width) && cw[0] == width,
            Op::FFma => matches!(width, 32 | 64) && cw.iter().all(|&c| c == width),
            Op::FLt | Op::FLe | Op::FEq => width == 1 && float(cw[0]) && cw[1] == cw[0],
            Op::FIsNan => width == 1 && float(cw[0]),
            Op::FConvert => float(width) && float(cw[0]) && cw[0] != width,
            Op::FToSInt | Op::FToUInt => float(cw[0]) && width <= 64,
            Op::SIntToF | Op::UIntToF => float(width) && cw[0] <= 64,
            Op::Shadow => {
                if cw[0] != width || cw[1] != width {
                    false
                } else if children.iter().any(|&c| self.has_shadow(c)) {
                    return err("shadow children must be shadow-free");
                } else {
                    children[0] != children[1]
                }
            }
            _ => cw[0] == width && cw[1] == width,
        };
        if !ok {
            return err("child widths do not fit the operator");
        }
        Ok(self.mk_node(op, width, extract_lo, children))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplify_folds_raw_terms() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 8);
        let x = s.var(x);
        let zero = s.zero(8);
        let raw = s.raw_node(Op::Add, 8, 0, &[x, zero]).unwrap();
        assert_ne!(raw, x);
        assert_eq!(s.simplify(raw), x);
        let c2 = s.constant(8, 2);
        let c3 = s.constant(8, 3);
        let raw = s.raw_node(Op::Mul, 8, 0, &[c2, c3]).unwrap();
        let folded = s.simplify(raw);
        assert_eq!(s.as_const(folded), Some(6));
    }

    #[test]
    fn raw_node_rejects_ill_sorted_nodes() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 8);
        let x = s.var(x);
        let y = s.new_var("y", 16);
        let y = s.var(y);
        assert!(s.raw_node(Op::Add, 8, 0, &[x, y]).is_err());
        assert!(s.raw_node(Op::Eq, 8, 0, &[x, x]).is_err());
        assert!(s.raw_node(Op::Extract, 4, 5, &[x]).is_err());
        assert!(s.raw_node(Op::Extract, 4, 4, &[x]).is_ok());
        assert!(s.raw_node(Op::Concat, 24, 0, &[y, x]).is_ok());
        assert!(s.raw_node(Op::Ite, 8, 0, &[x, x, x]).is_err());
    }

    #[test]
    fn simplify_handles_deep_chains() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 32);
        let x = s.var(x);
        let one = s.constant(32, 1);
        let mut t = x;
        for _ in 0..100_000 {
            t = s.raw_node(Op::Add, 32, 0, &[t, one]).unwrap();
        }
        let simple = s.simplify(t);
        let k = s.constant(32, 100_000);
        assert_eq!(simple, s.add(x, k));
    }
}
