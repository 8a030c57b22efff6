//! The variable partition of a path condition (union-find over variables), kept from one query
//! to the next: the engine asks many queries on one path condition (a four-way check asks up to
//! four) and, exploring depth-first, the next path condition mostly extends the last one. So the
//! partition is extended by the new constraints only, and rebuilt when the path condition is not
//! an extension. A query's extras are joined in temporarily and undone afterwards.
//!
//! Variables get dense slots (`slot_of` is indexed by variable), so the hot loop does no hashing.

use crate::term::{TermId, VarId};

const NONE: u32 = u32::MAX;

#[derive(Default)]
pub(crate) struct Partition {
    /// The path condition the partition is of.
    pc: Vec<TermId>,
    /// Per constraint of `pc`: the slot of its first variable (`NONE` without variables).
    first_slot: Vec<u32>,
    /// Variable index -> slot.
    slot_of: Vec<u32>,
    /// Slot -> variable.
    var_of: Vec<VarId>,
    /// Union-find parents over slots.
    parent: Vec<u32>,
    /// Parent writes of the extras' unions, to undo: (slot, old parent).
    undo: Vec<(u32, u32)>,
}

impl Partition {
    /// How much of `pc` the partition already covers: all of the current path condition when
    /// `pc` extends it, otherwise it is emptied and nothing is covered.
    pub fn covered(&mut self, pc: &[TermId]) -> usize {
        let n = self.pc.len();
        if pc.len() >= n && pc[..n] == self.pc[..] {
            return n;
        }
        for v in self.var_of.drain(..) {
            self.slot_of[v.index()] = NONE;
        }
        self.pc.clear();
        self.first_slot.clear();
        self.parent.clear();
        0
    }

    fn slot(&mut self, v: VarId) -> u32 {
        let i = v.index();
        if i >= self.slot_of.len() {
            self.slot_of.resize(i + 1, NONE);
        }
        if self.slot_of[i] == NONE {
            let s = self.parent.len() as u32;
            self.slot_of[i] = s;
            self.var_of.push(v);
            self.parent.push(s);
        }
        self.slot_of[i]
    }

    /// The root of `s`, without path compression (safe while extras are joined in).
    fn root(&self, mut s: u32) -> u32 {
        while self.parent[s as usize] != s {
            s = self.parent[s as usize];
        }
        s
    }

    /// The root of `s`, compressing the path (only for permanent unions).
    fn root_compress(&mut self, mut s: u32) -> u32 {
        while self.parent[s as usize] != s {
            let p = self.parent[s as usize];
            self.parent[s as usize] = self.parent[p as usize];
            s = p;
        }
        s
    }

    /// Adds a path-condition constraint with its variables.
    pub fn push_pc(&mut self, c: TermId, vars: &[VarId]) {
        let first = vars.first().map_or(NONE, |&v| self.slot(v));
        for &v in vars.iter().skip(1) {
            let s = self.slot(v);
            let (a, b) = (self.root_compress(first), self.root_compress(s));
            if a != b {
                self.parent[b as usize] = a;
            }
        }
        self.pc.push(c);
        self.first_slot.push(first);
    }

    /// Joins an extra constraint's variables in, until [`Partition::undo_extras`]; returns the
    /// slot of its first variable.
    pub fn push_extra(&mut self, vars: &[VarId]) -> u32 {
        let first = vars.first().map_or(NONE, |&v| self.slot(v));
        for &v in vars.iter().skip(1) {
            let s = self.slot(v);
            let (a, b) = (self.root(first), self.root(s));
            if a != b {
                self.undo.push((b, self.parent[b as usize]));
                self.parent[b as usize] = a;
            }
        }
        first
    }

    /// The constraints of the path condition and the variables connected to the given extras'
    /// first slots (extras without variables connect to nothing).
    pub fn connected(&self, extra_slots: &[u32]) -> (Vec<TermId>, Vec<VarId>) {
        let mut roots: Vec<u32> = extra_slots.iter().filter(|&&s| s != NONE).map(|&s| self.root(s)).collect();
        roots.sort_unstable();
        roots.dedup();
        if roots.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let reaches = |s: u32| s != NONE && roots.binary_search(&self.root(s)).is_ok();
        let pc = self.pc.iter().zip(&self.first_slot).filter(|&(_, &s)| reaches(s)).map(|(&c, _)| c).collect();
        let mut vars: Vec<VarId> =
            self.var_of.iter().enumerate().filter(|&(s, _)| reaches(s as u32)).map(|(_, &v)| v).collect();
        vars.sort_unstable();
        (pc, vars)
    }

    /// Undoes the extras: their unions, and the slots of variables only they had.
    pub fn undo_extras(&mut self, slots_before: usize) {
        while let Some((s, p)) = self.undo.pop() {
            self.parent[s as usize] = p;
        }
        for v in self.var_of.drain(slots_before..) {
            self.slot_of[v.index()] = NONE;
        }
        self.parent.truncate(slots_before);
    }

    /// The number of slots (to pass to [`Partition::undo_extras`]).
    pub fn slots(&self) -> usize {
        self.parent.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(i: usize) -> TermId {
        TermId::from_index(i)
    }
    fn v(i: u32) -> VarId {
        VarId::from_u32(i)
    }

    #[test]
    fn extras_connect_temporarily_and_extensions_keep_the_partition() {
        let mut p = Partition::default();
        let pc = [t(10), t(11), t(12)];
        assert_eq!(p.covered(&pc), 0);
        p.push_pc(t(10), &[v(0), v(1)]);
        p.push_pc(t(11), &[v(2)]);
        p.push_pc(t(12), &[v(3), v(4)]);
        // An extra on v1 reaches t10 only.
        let before = p.slots();
        let s = p.push_extra(&[v(1)]);
        assert_eq!(p.connected(&[s]), (vec![t(10)], vec![v(0), v(1)]));
        p.undo_extras(before);
        // An extra joining v0 and v4 (and a new v9) reaches t10 and t12.
        let s = p.push_extra(&[v(0), v(4), v(9)]);
        assert_eq!(p.connected(&[s]), (vec![t(10), t(12)], vec![v(0), v(1), v(3), v(4), v(9)]));
        p.undo_extras(before);
        // The join is gone again, and so is v9.
        let s = p.push_extra(&[v(4)]);
        assert_eq!(p.connected(&[s]), (vec![t(12)], vec![v(3), v(4)]));
        p.undo_extras(before);
        assert_eq!(p.slots(), before);
        // An extension is covered; anything else starts over.
        assert_eq!(p.covered(&[t(10), t(11), t(12), t(13)]), 3);
        assert_eq!(p.covered(&[t(10), t(12)]), 0);
        assert_eq!(p.slots(), 0);
    }
}
