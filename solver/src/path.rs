//! How a path condition reaches the solver. A caller passes any [`PathCondition`]: a slice of
//! constraints, or a [`ForkList`] (as the engine's states hold them). A fork list is read
//! incrementally: the solver keeps the last one it saw flattened ([`FlatPath`]), finds by chunk
//! identity how much of the new one is the same ([`ForkList::common_prefix`]), and validates and
//! copies only the rest. Consecutive questions about one path, or about paths forked from one
//! another, thus cost what their new constraints cost, not their whole length.

use crate::error::SolverError;
use crate::fork_list::ForkList;
use crate::term::{TermId, TermStore};

/// A path condition: width-1, shadow-free constraints, oldest first.
pub trait PathCondition {
    fn constraints(&self) -> Constraints<'_>;
}

/// The two shapes a path condition comes in.
pub enum Constraints<'a> {
    Slice(&'a [TermId]),
    List(&'a ForkList<TermId>),
}

impl<P: PathCondition + ?Sized> PathCondition for &P {
    fn constraints(&self) -> Constraints<'_> {
        (**self).constraints()
    }
}

impl PathCondition for [TermId] {
    fn constraints(&self) -> Constraints<'_> {
        Constraints::Slice(self)
    }
}

impl<const N: usize> PathCondition for [TermId; N] {
    fn constraints(&self) -> Constraints<'_> {
        Constraints::Slice(self)
    }
}

impl PathCondition for Vec<TermId> {
    fn constraints(&self) -> Constraints<'_> {
        Constraints::Slice(self)
    }
}

impl PathCondition for ForkList<TermId> {
    fn constraints(&self) -> Constraints<'_> {
        Constraints::List(self)
    }
}

/// A path condition inside the solver: its constraints in one slice, how many leading ones are
/// known valid, and whether it holds constants (`None`: not known yet).
#[derive(Copy, Clone)]
pub(crate) struct Path<'a> {
    pub items: &'a [TermId],
    pub checked: usize,
    pub has_const: Option<bool>,
}

impl<'a> Path<'a> {
    /// A slice nothing is known about.
    pub fn unchecked(items: &'a [TermId]) -> Self {
        Path { items, checked: 0, has_const: None }
    }
}

/// Checks that `c` can be a constraint: in the store, 1 bit, no shadow.
pub(crate) fn check_constraint(store: &TermStore, c: TermId) -> Result<(), SolverError> {
    if !store.contains(c) {
        return Err(SolverError::UnknownTerm(c));
    }
    let w = store.width(c);
    if w != 1 {
        return Err(SolverError::NotBoolean(c, w));
    }
    if store.has_shadow(c) {
        return Err(SolverError::ShadowInConstraint(c));
    }
    Ok(())
}

/// The last fork list the solver saw, flattened and validated.
#[derive(Default)]
pub(crate) struct FlatPath {
    list: ForkList<TermId>,
    items: Vec<TermId>,
    /// The position of the first constant among `items`, if any.
    first_const: Option<usize>,
}

impl FlatPath {
    /// Makes `self` hold `list`: drops what differs from the last list and validates and
    /// appends the rest.
    pub(crate) fn follow(&mut self, store: &TermStore, list: &ForkList<TermId>) -> Result<(), SolverError> {
        let keep = self.list.common_prefix(list);
        self.items.truncate(keep);
        if self.first_const.is_some_and(|i| i >= keep) {
            self.first_const = None;
        }
        for c in list.iter_from(keep) {
            if let Err(e) = check_constraint(store, c) {
                *self = FlatPath::default();
                return Err(e);
            }
            if self.first_const.is_none() && store.as_const(c).is_some() {
                self.first_const = Some(self.items.len());
            }
            self.items.push(c);
        }
        self.list.clone_from(list);
        Ok(())
    }
}

impl FlatPath {
    pub(crate) fn path(&self) -> Path<'_> {
        Path { items: &self.items, checked: self.items.len(), has_const: Some(self.first_const.is_some()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{SatResult, Solver, SolverConfig};

    /// A fork list gets the answers its flattened slice gets, question after question on paths
    /// forked from one another, and a bad constraint appended later is still caught.
    #[test]
    fn fork_lists_answer_as_their_slices_and_are_checked_incrementally() {
        let mut s = TermStore::default();
        let x = s.new_var("x", 8);
        let x = s.var(x);
        let bound = |s: &mut TermStore, k: u64| {
            let k = s.constant(8, k);
            s.ult(x, k)
        };
        let mut by_list = Solver::new(SolverConfig::default()).unwrap();
        let mut by_slice = Solver::new(SolverConfig::default()).unwrap();
        let mut path: ForkList<TermId> = ForkList::new();
        for k in (60..200u64).rev() {
            path.push(bound(&mut s, k));
        }
        let mut fork = path.clone();
        fork.push(bound(&mut s, 10));
        let five = s.constant(8, 5);
        let fifty = s.constant(8, 50);
        let (is_five, is_fifty) = (s.eq(x, five), s.eq(x, fifty));
        for (pc, extra) in [(&path, is_fifty), (&fork, is_fifty), (&fork, is_five), (&path, is_five)] {
            let a = by_list.check(&s, pc, &[extra]).unwrap();
            let b = by_slice.check(&s, &pc.to_vec(), &[extra]).unwrap();
            assert_eq!(a, b);
        }
        assert_eq!(by_list.check(&s, &fork, &[is_fifty]).unwrap(), SatResult::Unsat);
        let wide = s.add(x, x);
        let mut bad = fork.clone();
        bad.push(wide);
        assert!(matches!(by_list.check(&s, &bad, &[]), Err(SolverError::NotBoolean(..))));
        assert_eq!(by_list.check(&s, &fork, &[is_five]).unwrap(), SatResult::Sat);
    }
}
