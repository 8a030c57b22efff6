//! `penumbra_execute(OLD|NEW)` blocks in shadow execution (ShadowJPF+): code that exists in one
//! version only runs against that version's state alone, and only what the versions then do
//! differently is a divergence — not reaching the block itself, as with `change(0, 1)`.
//!
//! At a branch on `penumbra_execute(V)` in a state running both versions, the old version
//! runs its side up to the branch's immediate post-dominator over the paths that return (the
//! `join`, where both sides meet; a path that ends the program, as a usage error, does not keep
//! them apart: [`penumbra_ir::returning_post_dominators`]), then the new version runs its side
//! from the branch to the join, and the two frames merge into shadows ([`ExecuteBlock`]). Each
//! side writes memory keeping the other version's bytes (see
//! [`Resolver::write_target`](crate::symbolic::access::Resolver::write_target)), and the old
//! side's frees wait for the new side, so memory needs no merge. A side that leaves the
//! block another way is a divergence: the old version returning or ending early (then the new
//! version's side runs on alone), or the new version doing so (the path follows it).
//!
//! Except where both sides exit: a function kept whole for each version (`change(main_old(),
//! main_new())`, which unify writes where it cannot merge finer) ends the program inside its
//! block on every path. The old version's exit is then held, the new version's side runs, and
//! where it exits too the two exits are compared as the program's user sees them: the exit
//! statuses, then what each side printed (as at a join). Where they agree the path ends as one
//! exit, without a divergence; where they can differ, that is the divergence, at the block's
//! branch. So a program merged whole diverges where its versions behave differently, not on
//! every path.
//!
//! What each side prints is recorded and compared where the sides merge
//! ([`block_output`](super::block_output)).
//!
//! Control flow is what the block changes, so every jump goes through [`Shadow::jump`] here,
//! which hands over between the sides at the join.

use super::Shadow;
use crate::run_error::RunError;
use crate::symbolic::context::{EndedPath, Flow};
use crate::symbolic::state::{Ending, ExecMode, ExecuteBlock, ExecutionState, Frame, Phase, Side, Written};
use crate::symbolic::value::Val;
use penumbra_ir::{can_return, execute_join, Body, Dest, Inst, Version};
use penumbra_solver::TermId;

/// What a path ending inside a `penumbra_execute` block becomes.
pub enum BlockEnd {
    /// The old version ended alone: this state runs the new version's side on.
    Continue(ExecutionState),
    /// The path ends as it is (outside a block, or the new version ended alone: a divergence).
    Ended(EndedPath),
}

impl<'p> Shadow<'_, 'p> {
    /// Moves `st` to `dest` (see [`ExecutionState::goto`]); inside a block, at the join the old
    /// version hands over to the new one, or the new one merges with the old one.
    pub fn jump(&mut self, st: &mut ExecutionState, body: &Body, dest: Dest) -> Result<(), RunError> {
        st.goto(body, dest, &mut self.cx.vals);
        if st.execute.is_some() {
            self.after_jump_in_block(st, body)?;
        }
        Ok(())
    }

    /// A branch on `cond` right after `penumbra_execute` in a state running both versions, computed
    /// from executes and constants alone (`penumbra_ir::tests_execute`): starts the block if the
    /// versions' conditions differ and the sides meet again in this function. `None`: an
    /// ordinary branch.
    pub fn enter_execute_block(
        &mut self,
        st: &mut ExecutionState,
        body: &Body,
        cond: TermId,
        then_dest: Dest,
        else_dest: Dest,
    ) -> Result<Option<Flow>, RunError> {
        if st.mode != ExecMode::Both {
            return Ok(None);
        }
        let (o, n) = self.cx.store.projections(cond);
        let (Some(o), Some(n)) = (self.cx.store.as_const(o), self.cx.store.as_const(n)) else { return Ok(None) };
        if o == n {
            return Ok(None);
        }
        let frame = st.frame();
        let pick = |taken: u64| if taken & 1 == 1 { then_dest } else { else_dest };
        let (old_dest, new_dest) = (pick(o), pick(n));
        let (old_block, new_block) = (body.dests[old_dest].block, body.dests[new_dest].block);
        let prog = self.cx.prog;
        let join = execute_join(body, frame.block, old_block, new_block, || {
            prog.post_dominators(frame.func).and_then(|p| p[frame.block].expand())
        });
        // Sides that never meet again: a block only if neither can return (then each ends
        // the program, and the exits are compared); otherwise an ordinary branch.
        if join.is_none() && (can_return(body, old_block, frame.block) || can_return(body, new_block, frame.block)) {
            return Ok(None);
        }
        let at_branch = frame.clone();
        // Code only the new version has: its side runs something, the old version's nothing.
        if Some(old_block) == join && Some(new_block) != join {
            st.in_new_code = Some(std::rc::Rc::new(self.cx.location(st)));
        }
        st.execute = Some(Box::new(ExecuteBlock {
            depth: st.stack.len(),
            join,
            new_dest: Some(new_dest),
            at_branch,
            old_at_join: None,
            written: Written::default(),
            old_written: None,
            old_exit: None,
            old_frees: Vec::new(),
        }));
        st.mode = ExecMode::Block(Version::Old);
        self.jump(st, body, old_dest)?;
        Ok(Some(Flow::Jumped))
    }

    /// After a jump inside a block's frame: at the join, the old version hands over to the new
    /// one, or the new one merges with the old one.
    fn after_jump_in_block(&mut self, st: &mut ExecutionState, body: &Body) -> Result<(), RunError> {
        let Some(block) = st.execute.as_deref() else { return Ok(()) };
        if st.stack.len() != block.depth || Some(st.frame().block) != block.join || st.frame().idx != 0 {
            return Ok(());
        }
        let mut block = st.execute.take().expect("checked above");
        match block.new_dest.take() {
            Some(new_dest) => {
                block.old_at_join = Some(st.frame().clone());
                block.old_written = Some(std::mem::take(&mut block.written));
                *st.frame_mut() = block.at_branch.clone();
                st.mode = ExecMode::Block(Version::New);
                st.execute = Some(block);
                self.jump(st, body, new_dest)?;
            }
            None if block.old_exit.is_some() => {
                // The old version exited, the new one goes on past the block.
                st.mode = ExecMode::Both;
                self.diverge_at(st, Some(&block.at_branch), (Side::Exits, Side::Continues));
            }
            None => {
                let old = block.old_at_join.expect("the old side reached the join first");
                // What the block computed leaves it through the join's parameters (the sides
                // dominate nothing after the join): where the versions provably agree there,
                // the pair collapses (refactoring elimination, as for `change`).
                // (Only a block with a join gets here: `after_jump_in_block` matched it.)
                let params = body.block_params(st.frame().block);
                let mut values = st.frame().values.to_vec();
                for (i, (value, &o)) in values.iter_mut().zip(old.values.iter()).enumerate() {
                    if *value == o {
                        continue;
                    }
                    let (o, n) = (o.term(&mut self.cx.store), value.term(&mut self.cx.store));
                    let (po, pn) = (self.cx.store.old(o), self.cx.store.new(n));
                    *value = Val::Term(if params.iter().any(|p| p.as_u32() as usize == i) {
                        let merged = self.cx.solver.shadow_under(&mut self.cx.store, &st.pc, po, pn);
                        merged.unwrap_or_else(|_| self.cx.store.shadow(po, pn))
                    } else {
                        self.cx.store.shadow(po, pn)
                    });
                }
                let frame = st.frame_mut();
                frame.values = values.into();
                for id in old.allocas {
                    if !frame.allocas.contains(&id) {
                        frame.allocas.push(id);
                    }
                }
                st.mode = ExecMode::Both;
                // What the sides printed, compared where they merge (at the branch's place).
                let old_written = block.old_written.unwrap_or_default();
                if let Some(inst) = self.branch_inst(&block.at_branch) {
                    self.compare_block_output(st, inst, &old_written, &block.written, &block.at_branch)?;
                }
                // Past the block without a divergence: what follows is both versions' code.
                st.in_new_code = None;
            }
        }
        Ok(())
    }

    /// A `return` from a block's frame (`true`: handled here, the state goes on without
    /// returning). The old version returning inside its block is a divergence after which the
    /// new version's side runs alone; the new version returning is a divergence the path
    /// follows (the caller performs the return).
    pub fn return_in_execute_block(&mut self, st: &mut ExecutionState) -> bool {
        let Some(block) = st.execute.as_deref() else { return false };
        if st.stack.len() != block.depth {
            return false;
        }
        match st.mode {
            ExecMode::Block(Version::Old) => {
                let prog = self.cx.prog;
                let Some(body) = prog.module.funcs[st.frame().func].body.as_ref() else { return false };
                self.leave_for_new(st, body, Side::Returns);
                true
            }
            _ => {
                // Reported at the `penumbra_execute` branch, as for the old version.
                let block = st.execute.take().expect("in a block");
                st.mode = ExecMode::Both;
                let old = if block.old_exit.is_some() { Side::Exits } else { Side::Continues };
                self.diverge_at(st, Some(&block.at_branch), (old, Side::Returns));
                false
            }
        }
    }

    /// What a path that ended becomes. Outside a block it ends as it is. In the old version's
    /// side, the old version alone ends (an error in old code): a divergence, and the new
    /// version's side runs on as a new state; an exit is held for the new version's (see the
    /// module documentation). In the new version's side: a divergence that ends the path, or,
    /// where both exit, the two exits compared.
    pub fn end_in_execute_block(&mut self, path: EndedPath) -> Result<BlockEnd, RunError> {
        if path.st.execute.is_none() {
            return Ok(BlockEnd::Ended(path));
        }
        let what = match &path.ending {
            Ending::Error(_) => Side::Fails,
            Ending::Exit(_) => Side::Exits,
            Ending::Unsupported { .. } => Side::Unsupported,
            Ending::AssumeFalse(_) | Ending::Early(_) => return Ok(BlockEnd::Ended(path)),
        };
        let EndedPath { mut st, ending } = path;
        match st.mode {
            ExecMode::Block(Version::Old) => {
                let depth = st.execute.as_ref().map_or(0, |b| b.depth);
                let prog = self.cx.prog;
                let Some(body) = st.stack.get(depth - 1).and_then(|f| prog.module.funcs[f.func].body.as_ref()) else {
                    return Ok(BlockEnd::Ended(EndedPath { st, ending }));
                };
                // An exit the engine's own exit sequence ran (`atexit` handlers as the only
                // frames, not musl's `exit`) left no block frame to come back to.
                let exiting = st.life.as_ref().is_some_and(|l| matches!(l.phase, Phase::Exiting { .. }));
                match ending {
                    Ending::Exit(status) if !exiting && st.stack.len() >= depth => {
                        self.hold_exit_for_new(&mut st, body, status)
                    }
                    _ => self.leave_for_new(&mut st, body, what),
                }
                Ok(BlockEnd::Continue(st))
            }
            _ => {
                let block = st.execute.take().expect("checked above");
                st.mode = ExecMode::Both;
                match (block.old_exit, &ending) {
                    (Some(old), Ending::Exit(new)) => {
                        let (old_written, at) = (block.old_written.unwrap_or_default(), &block.at_branch);
                        self.compare_exits((old, &old_written), (*new, &block.written), &mut st, at)?;
                    }
                    (Some(_), _) => self.diverge_at(&mut st, Some(&block.at_branch), (Side::Exits, what)),
                    (None, _) => self.cx.diverge(&mut st, Side::Continues, what),
                }
                Ok(BlockEnd::Ended(EndedPath { st, ending }))
            }
        }
    }

    /// The old version exited with `status` in its side: its output is kept, and the new
    /// version's side runs from the branch (no divergence yet). `body` is the block's
    /// function's.
    fn hold_exit_for_new(&mut self, st: &mut ExecutionState, body: &Body, status: i32) {
        let block = st.execute.as_deref_mut().expect("in a block");
        let new_dest = block.new_dest.take().expect("the old side runs first");
        block.old_exit = Some(status);
        block.old_written = Some(std::mem::take(&mut block.written));
        let (depth, at_branch) = (block.depth, block.at_branch.clone());
        st.stack.truncate(depth);
        *st.stack.last_mut().expect("the block's frame") = at_branch;
        st.mode = ExecMode::Block(Version::New);
        st.goto(body, new_dest, &mut self.cx.vals);
    }

    /// Both versions exited in their sides (`st` running both again, at the new version's
    /// exit): different statuses are a divergence; equal ones leave the output, compared as
    /// at a join (where it can differ, a copy of the state diverges and runs the exit again).
    fn compare_exits(
        &mut self,
        (old, old_written): (i32, &Written),
        (new, new_written): (i32, &Written),
        st: &mut ExecutionState,
        at: &Frame,
    ) -> Result<(), RunError> {
        if old != new {
            let (o, n) = (self.cx.store.constant(8, old as u64 & 0xff), self.cx.store.constant(8, new as u64 & 0xff));
            self.diverge_at(st, Some(at), (Side::Shows(o), Side::Shows(n)));
            return Ok(());
        }
        // Decided at the block's branch, as a join's comparison is.
        match self.branch_inst(at) {
            Some(inst) => self.compare_block_output(st, inst, old_written, new_written, at),
            None => Ok(()),
        }
    }

    /// The `penumbra_execute` branch of a block whose branch frame is `at`: the last
    /// instruction of its block.
    fn branch_inst(&self, at: &Frame) -> Option<Inst> {
        let body = self.cx.prog.module.funcs[at.func].body.as_ref()?;
        body.layout.block_insts(at.block).last().copied()
    }

    /// The old version left its side early (`old` says how): record the divergence and run the
    /// new version's side from the branch, alone. `body` is the block's function's.
    fn leave_for_new(&mut self, st: &mut ExecutionState, body: &Body, old: Side) {
        let mut block = st.execute.take().expect("in a block");
        let new_dest = block.new_dest.take().expect("the old side runs first");
        // An ending diverges where it happens (maybe in a call made by the old side); a return
        // (through the function's one return block, whose line says little) at the
        // `penumbra_execute` branch.
        st.mode = ExecMode::Both;
        let returned = old == Side::Returns;
        if !returned {
            self.cx.diverge(st, old, Side::Continues);
        }
        st.stack.truncate(block.depth);
        *st.stack.last_mut().expect("the block's frame") = block.at_branch;
        if returned {
            self.cx.diverge(st, old, Side::Continues);
        }
        // Out of the block now: no join to hand over at.
        st.goto(body, new_dest, &mut self.cx.vals);
    }
}
