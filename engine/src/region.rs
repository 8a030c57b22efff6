//! `penumbra_execute(OLD|NEW)` blocks in shadow execution (ShadowJPF+): code that exists in one
//! version only runs against that version's state alone, and only what the versions then do
//! differently is a divergence — not reaching the block itself, as with `change(0, 1)`.
//!
//! At a branch on `penumbra_execute(V)` in a state running both versions, the old version
//! runs its side up to the branch's immediate post-dominator (the `join`, where both sides
//! meet), then the new version runs its side from the branch to the join, and the two frames
//! merge into shadows ([`Region`]). Each side writes memory keeping the other version's bytes
//! ([`Executor::region_bytes`]), so memory needs no merge. A side that leaves the block
//! another way is a divergence: the old version returning or ending early (then the new
//! version's side runs on alone), or the new version doing so (the path follows it).

use crate::executor::{Executor, Flow};
use crate::state::{Ending, ExecMode, ExecutionState, Region};
use penumbra_ir::{Body, Dest, Func, Version};
use penumbra_solver::TermId;
use std::rc::Rc;

/// What a path ending inside a region becomes.
pub(crate) enum RegionEnd {
    /// The old version ended alone: this state runs the new version's side on.
    Continue(ExecutionState),
    /// The new version ended alone: this (diverged) state's path ends.
    Ended(ExecutionState),
}

impl Executor<'_> {
    /// The immediate post-dominators of `func`'s blocks (computed once per run).
    fn post_dominators(&mut self, func: Func) -> Rc<crate::executor::PostDoms> {
        if let Some(p) = self.postdoms.get(&func) {
            return p.clone();
        }
        let p = Rc::new(match self.prog.module.funcs[func].body.as_ref() {
            Some(body) => penumbra_ir::immediate_post_dominators(body),
            None => Default::default(),
        });
        self.postdoms.insert(func, p.clone());
        p
    }

    /// A branch on `cond` right after `penumbra_execute` in a state running both versions:
    /// starts the region if the condition is the execute's (constant and different in the two
    /// versions) and the sides meet again in this function. `None`: an ordinary branch.
    pub(crate) fn enter_region(
        &mut self,
        st: &mut ExecutionState,
        body: &Body,
        cond: TermId,
        then_dest: Dest,
        else_dest: Dest,
    ) -> Option<Flow> {
        if st.mode != ExecMode::Both {
            return None;
        }
        let (o, n) = self.store.projections(cond);
        let (Some(o), Some(n)) = (self.store.as_const(o), self.store.as_const(n)) else { return None };
        if o == n {
            return None;
        }
        let frame = st.frame();
        let pick = |taken: u64| if taken & 1 == 1 { then_dest } else { else_dest };
        let (old_dest, new_dest) = (pick(o), pick(n));
        let (old_block, new_block) = (body.dests[old_dest].block, body.dests[new_dest].block);
        // `if (penumbra_execute(V)) {...}` without `else`: the other version's destination is
        // the code after the block, where V's side arrives unless it returns early. With an
        // `else`, the sides meet where every path from the branch meets.
        let join = if reaches(body, old_block, new_block, frame.block) {
            new_block
        } else if reaches(body, new_block, old_block, frame.block) {
            old_block
        } else {
            self.post_dominators(frame.func)[frame.block].expand()?
        };
        st.region = Some(Box::new(Region {
            depth: st.stack.len(),
            join,
            new_dest: Some(new_dest),
            at_branch: frame.clone(),
            old_at_join: None,
        }));
        st.mode = ExecMode::Region(Version::Old);
        self.jump(st, body, old_dest);
        Some(Flow::Jumped)
    }

    /// After a jump inside a region's frame: at the join, the old version hands over to the new
    /// one, or the new one merges with the old one.
    pub(crate) fn region_after_jump(&mut self, st: &mut ExecutionState, body: &Body) {
        let Some(region) = st.region.as_deref() else { return };
        if st.stack.len() != region.depth || st.frame().block != region.join || st.frame().idx != 0 {
            return;
        }
        let mut region = st.region.take().expect("checked above");
        match region.new_dest.take() {
            Some(new_dest) => {
                region.old_at_join = Some(st.frame().clone());
                *st.frame_mut() = region.at_branch.clone();
                st.mode = ExecMode::Region(Version::New);
                st.region = Some(region);
                self.jump(st, body, new_dest);
            }
            None => {
                let old = region.old_at_join.expect("the old side reached the join first");
                let frame = st.frame_mut();
                for (value, &o) in frame.values.iter_mut().zip(&old.values) {
                    *value = self.store.shadow(o, *value);
                }
                for id in old.allocas {
                    if !frame.allocas.contains(&id) {
                        frame.allocas.push(id);
                    }
                }
                st.mode = ExecMode::Both;
            }
        }
    }

    /// A `return` from a region's frame (`true`: handled here, the state goes on without
    /// returning). The old version returning inside its block is a divergence after which the
    /// new version's side runs alone; the new version returning is a divergence the path
    /// follows (the caller performs the return).
    pub(crate) fn region_return(&mut self, st: &mut ExecutionState) -> bool {
        let Some(region) = st.region.as_deref() else { return false };
        if st.stack.len() != region.depth {
            return false;
        }
        match st.mode {
            ExecMode::Region(Version::Old) => {
                let prog = self.prog;
                let Some(body) = prog.module.funcs[st.frame().func].body.as_ref() else { return false };
                self.leave_for_new(st, body, "returns", "continues");
                true
            }
            _ => {
                // Reported at the `penumbra_execute` branch, as for the old version.
                let region = st.region.take().expect("in a region");
                st.mode = ExecMode::Both;
                let returning = std::mem::replace(st.frame_mut(), region.at_branch);
                self.diverge(st, "continues".into(), "returns".into());
                *st.frame_mut() = returning;
                false
            }
        }
    }

    /// A path ending inside a region. In the old version's side, the old version alone ends
    /// (an error or exit in old code): a divergence, and the new version's side runs on as a
    /// new state. In the new version's side: a divergence that ends the path (`st` is marked).
    /// Returns whether the ending was turned into a continuing state.
    pub(crate) fn region_ending(
        &mut self,
        st: &ExecutionState,
        extra: Option<TermId>,
        model: &penumbra_solver::Model,
        ending: &Ending,
    ) -> Option<RegionEnd> {
        st.region.as_ref()?;
        let what = match ending {
            Ending::Error(_) => "fails",
            Ending::Exit(_) => "exits",
            Ending::Unsupported { .. } => "unsupported",
            Ending::AssumeFalse(_) | Ending::Early(_) => return None,
        };
        let mut s = st.clone();
        s.pc.extend(extra);
        s.model = Rc::new(model.clone());
        match st.mode {
            ExecMode::Region(Version::Old) => {
                // Unwind to the region's frame (the old side may end inside a call).
                let depth = s.region.as_ref()?.depth;
                s.stack.truncate(depth);
                let prog = self.prog;
                let body = prog.module.funcs[s.frame().func].body.as_ref()?;
                self.leave_for_new(&mut s, body, what, "continues");
                Some(RegionEnd::Continue(s))
            }
            _ => {
                s.region = None;
                s.mode = ExecMode::Both;
                self.diverge(&mut s, "continues".into(), what.into());
                Some(RegionEnd::Ended(s))
            }
        }
    }

    /// The old version left its side early: record the divergence and run the new version's
    /// side from the branch, alone.
    fn leave_for_new(&mut self, st: &mut ExecutionState, body: &Body, old: &str, new: &str) {
        let mut region = st.region.take().expect("in a region");
        let new_dest = region.new_dest.take().expect("the old side runs first");
        // An ending diverges where it happens; a return (through the function's one return
        // block, whose line says little) at the `penumbra_execute` branch.
        st.mode = ExecMode::Both;
        let returned = old == "returns";
        if !returned {
            self.diverge(st, old.into(), new.into());
        }
        *st.stack.last_mut().expect("the region's frame") = region.at_branch;
        if returned {
            self.diverge(st, old.into(), new.into());
        }
        self.jump(st, body, new_dest);
    }

    /// The bytes to store when `data` is written over `current` in a state of `mode`: inside a
    /// region, only the running version's projection changes.
    pub(crate) fn region_bytes(&mut self, mode: ExecMode, current: &[TermId], data: &mut [TermId]) {
        let ExecMode::Region(v) = mode else { return };
        for (d, &c) in data.iter_mut().zip(current) {
            *d = match v {
                Version::Old => self.store.shadow(*d, c),
                Version::New => self.store.shadow(c, *d),
            };
        }
    }
}

/// Whether `to` is reachable from `from` without passing through `avoid`.
fn reaches(body: &Body, from: penumbra_ir::Block, to: penumbra_ir::Block, avoid: penumbra_ir::Block) -> bool {
    let mut seen = vec![from];
    let mut work = vec![from];
    while let Some(b) = work.pop() {
        if b == to {
            return true;
        }
        let Some(term) = body.layout.terminator(b) else { continue };
        for d in body.successors(term) {
            let next = body.dests[d].block;
            if next != avoid && !seen.contains(&next) {
                seen.push(next);
                work.push(next);
            }
        }
    }
    false
}
