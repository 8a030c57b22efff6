//! The instruction dispatcher: one `match` on [`InstData`] per executed instruction, with the
//! pure operations (arithmetic, comparisons, casts, `select`, `change`) and control flow
//! (jumps, branches, switches) inline. Operands are read from the frame's values by index. Pure
//! operations on constants compute with the concrete interpreter's semantics and leave
//! constants unboxed ([`Val`]); anything else builds terms with the store's constructors (a
//! division or shift the concrete semantics refuses also takes that path, to its check).
//! Memory, calls, checks and intrinsics live in their own
//! files; jumps go through [`Shadow::jump`](crate::shadow::execute), which knows about
//! `penumbra_execute` blocks.

use super::Interp;
use crate::concrete::exec;
use crate::error::ErrorKind;
use crate::run_error::RunError;
use crate::shadow::Shadow;
use crate::symbolic::context::{Flow, StepResult};
use crate::symbolic::fork::{Branch, Site};
use crate::symbolic::state::{EarlyReason, Ending, ExecutionState};
use crate::symbolic::value::Val;
use penumbra_ir::{tests_execute, BinaryOp, Body, CastOp, Dest, Inst, InstData, IntCC, Value, Version};
use penumbra_solver::TermId;

/// The value of `v` in the top frame.
#[inline]
pub fn val(st: &ExecutionState, v: Value) -> Val {
    st.frame().value(v)
}

/// Sets the result of `inst`, if it has one.
#[inline]
pub fn set_result(st: &mut ExecutionState, body: &Body, inst: Inst, t: impl Into<Val>) {
    if let Some(r) = body.results[inst] {
        st.frame_mut().set(r, t);
    }
}

impl<'p> Interp<'_, 'p> {
    /// The term of `v` in the top frame (a constant is interned).
    #[inline]
    pub fn term(&mut self, st: &ExecutionState, v: Value) -> TermId {
        val(st, v).term(&mut self.cx.store)
    }

    /// The concrete bits of `v` in the top frame, if it is a constant.
    #[inline]
    pub(crate) fn concrete(&self, st: &ExecutionState, v: Value) -> Option<u64> {
        val(st, v).as_const(&self.cx.store)
    }

    /// Executes `inst` (the instruction at `st`'s position) of `body`: what it did to `st`, and
    /// the states and paths it made besides.
    #[inline]
    pub(crate) fn step(&mut self, st: &mut ExecutionState, body: &'p Body, inst: Inst) -> Result<StepResult, RunError> {
        let flow = self.execute(st, body, inst)?;
        Ok(self.cx.events.finish(flow))
    }

    /// Executes `inst`; what it makes besides is left in the step's events.
    fn execute(&mut self, st: &mut ExecutionState, body: &'p Body, inst: Inst) -> Result<Flow, RunError> {
        match &body.insts[inst] {
            InstData::Binary { op, args: [a, b] } => {
                let ty = body.values[*a].ty;
                if let (Some(x), Some(y)) = (self.concrete(st, *a), self.concrete(st, *b)) {
                    if let Ok(r) = exec::binary(*op, ty, x, y) {
                        set_result(st, body, inst, Val::Const { width: ty.bits() as u8, bits: r });
                        return Ok(Flow::Next);
                    }
                }
                let (x, y) = (self.term(st, *a), self.term(st, *b));
                if op.is_division() || op.is_shift() {
                    if let Some(ending) = self.check_binary(st, *op, x, y)? {
                        return Ok(Flow::End(Box::new(ending)));
                    }
                }
                let r = self.binary(*op, x, y);
                set_result(st, body, inst, r);
            }
            InstData::Icmp { cc, args: [a, b] } => {
                if let (Some(x), Some(y)) = (self.concrete(st, *a), self.concrete(st, *b)) {
                    let r = exec::icmp(*cc, body.values[*a].ty, x, y);
                    set_result(st, body, inst, Val::Const { width: 1, bits: u64::from(r) });
                } else {
                    let (x, y) = (self.term(st, *a), self.term(st, *b));
                    let r = self.icmp(*cc, x, y);
                    set_result(st, body, inst, r);
                }
            }
            InstData::Cast { op, arg } => {
                if let Some(r) = body.results[inst] {
                    let to_ty = body.values[r].ty;
                    let to = to_ty.bits() as u8;
                    if let Some(x) = self.concrete(st, *arg) {
                        let bits = exec::cast(*op, body.values[*arg].ty, to_ty, x);
                        st.frame_mut().set(r, Val::Const { width: to, bits });
                        return Ok(Flow::Next);
                    }
                    let x = self.term(st, *arg);
                    let t = match op {
                        CastOp::Zext => self.cx.store.zext(x, to),
                        CastOp::Sext => self.cx.store.sext(x, to),
                        CastOp::Trunc => self.cx.store.extract(x, to - 1, 0),
                    };
                    st.frame_mut().set(r, t);
                }
            }
            InstData::FBinary { .. }
            | InstData::FUnary { .. }
            | InstData::Fma { .. }
            | InstData::Fcmp { .. }
            | InstData::FCast { .. } => return self.float_step(st, body, inst),
            InstData::Select { args: [c, a, b] } => {
                if let Some(c) = self.concrete(st, *c) {
                    let chosen = val(st, if c != 0 { *a } else { *b });
                    set_result(st, body, inst, chosen);
                    return Ok(Flow::Next);
                }
                let c = self.term(st, *c);
                let c = self.cx.truth(c);
                let (a, b) = (self.term(st, *a), self.term(st, *b));
                let t = self.cx.store.ite(c, a, b);
                set_result(st, body, inst, t);
            }
            InstData::Load { addr } => return self.load(st, body, inst, *addr),
            InstData::Store { addr, value } => return self.store_inst(st, inst, *addr, *value),
            InstData::Alloca { size, align } => {
                return self.alloca(st, body, inst, u64::from(*size), u64::from(*align))
            }
            InstData::DynAlloca { bytes } => {
                let bytes = self.term(st, *bytes);
                return self.dyn_alloca(st, body, inst, bytes);
            }
            InstData::Call { func, args } => return self.call(st, body, inst, *func, body.list(*args)),
            InstData::CallIndirect { args } => return self.call_indirect(st, body, inst, body.list(*args)),
            InstData::Change { args: [old, new] } => {
                let t = match st.mode.single() {
                    Some(Version::Old) => val(st, *old),
                    Some(Version::New) => val(st, *new),
                    None => {
                        let (old, new) = (self.term(st, *old), self.term(st, *new));
                        Val::Term(Shadow::new(self.cx).change_value(st, old, new)?)
                    }
                };
                set_result(st, body, inst, t);
            }
            InstData::Execute { version } => {
                // Both versions: the branch on it runs each version's side alone (execute.rs).
                let t = match st.mode.single() {
                    Some(v) => self.cx.store.bool_const(*version == v),
                    None => {
                        st.pending_execute = Some(*version);
                        let (old, new) = (
                            self.cx.store.bool_const(*version == Version::Old),
                            self.cx.store.bool_const(*version == Version::New),
                        );
                        self.cx.store.shadow(old, new)
                    }
                };
                set_result(st, body, inst, t);
            }
            InstData::MakeSymbolic { args: [addr, size, name], float } => {
                let (addr, size, name) = (self.term(st, *addr), self.term(st, *size), self.term(st, *name));
                return self.make_symbolic(st, addr, size, name, *float);
            }
            InstData::Assume { cond } => {
                let cond = self.term(st, *cond);
                return self.assume(st, inst, cond);
            }
            InstData::Assert { cond } => {
                let cond = self.term(st, *cond);
                return self.assert(st, cond);
            }
            InstData::Jump { dest } => {
                // A `penumbra_execute` folded into a `change` (pure operands) has no branch.
                st.pending_execute = None;
                Shadow::new(self.cx).jump(st, body, *dest)?;
                return Ok(Flow::Jumped);
            }
            InstData::Brif { cond, then_dest, else_dest } => {
                if st.pending_execute.is_none() {
                    if let Some(c) = self.concrete(st, *cond) {
                        Shadow::new(self.cx).jump(st, body, if c != 0 { *then_dest } else { *else_dest })?;
                        return Ok(Flow::Jumped);
                    }
                }
                let c = self.term(st, *cond);
                let c = self.cx.truth(c);
                if st.pending_execute.take().is_some() && tests_execute(body, *cond) {
                    if let Some(flow) = Shadow::new(self.cx).enter_execute_block(st, body, c, *then_dest, *else_dest)? {
                        return Ok(flow);
                    }
                }
                let (side, others) = match self.cx.branch(st, c, inst)? {
                    Branch::Sides { side, others } => (side, others),
                    Branch::Early(reason) => return Ok(Flow::End(Box::new(Ending::Early(reason)))),
                };
                let dest = |side: bool| if side { *then_dest } else { *else_dest };
                Shadow::new(self.cx).jump(st, body, dest(side))?;
                for (side, mut other) in others {
                    Shadow::new(self.cx).jump(&mut other, body, dest(side))?;
                    self.cx.events.fork(other);
                }
                return Ok(Flow::Jumped);
            }
            InstData::Switch { arg, table } => {
                if let Some(c) = self.concrete(st, *arg) {
                    let jt = &body.jump_tables[*table];
                    let dest = jt.cases.iter().find(|(case, _)| *case == c).map_or(jt.default, |&(_, d)| d);
                    Shadow::new(self.cx).jump(st, body, dest)?;
                    return Ok(Flow::Jumped);
                }
                let arg = self.term(st, *arg);
                return self.switch(st, body, inst, arg, *table);
            }
            InstData::Return { value } => {
                let value = value.map(|v| val(st, v));
                let from_main = st.in_main() && self.cx.prog.entry.returns_from_main(st.stack.len(), st.frame().func);
                if let (Some(v), true) = (value, from_main) {
                    // `main` returns: its status is output.
                    let v = v.term(&mut self.cx.store);
                    let status = self.cx.fit(v, 8);
                    Shadow::new(self.cx).observe(st, inst, status)?;
                }
                return Ok(self.ret(st, value));
            }
            InstData::Unreachable => {
                return Ok(Flow::End(Box::new(self.cx.error(st, ErrorKind::Unreachable, "reached unreachable code"))));
            }
            InstData::Unsupported { msg } => {
                let message = self.cx.prog.module.messages.get(*msg).map_or("unsupported construct", String::as_str);
                return Ok(Flow::End(Box::new(self.cx.unsupported(st, message))));
            }
        }
        // The instructions that build a term from others end here: a value folded into itself
        // by a long loop ends its path before a query on it could take the solver's memory.
        if let Some(Val::Term(t)) = body.results[inst].map(|r| st.frame().value(r)) {
            if self.cx.store.weight(t) > self.cx.config.max_term_weight {
                self.cx.stats.heaviest_term = self.cx.stats.heaviest_term.max(self.cx.store.weight(t));
                return Ok(Flow::End(Box::new(Ending::Early(EarlyReason::TermTooLarge))));
            }
        }
        Ok(Flow::Next)
    }

    /// `op a, b` as a term (the checks for division and shifts came before).
    pub fn binary(&mut self, op: BinaryOp, a: TermId, b: TermId) -> TermId {
        let s = &mut self.cx.store;
        match op {
            BinaryOp::Add => s.add(a, b),
            BinaryOp::Sub => s.sub(a, b),
            BinaryOp::Mul => s.mul(a, b),
            BinaryOp::UDiv => s.udiv(a, b),
            BinaryOp::SDiv => s.sdiv(a, b),
            BinaryOp::URem => s.urem(a, b),
            BinaryOp::SRem => s.srem(a, b),
            BinaryOp::And => s.and(a, b),
            BinaryOp::Or => s.or(a, b),
            BinaryOp::Xor => s.xor(a, b),
            BinaryOp::Shl => s.shl(a, b),
            BinaryOp::LShr => s.lshr(a, b),
            BinaryOp::AShr => s.ashr(a, b),
        }
    }

    /// `icmp cc a, b` as a width-1 term.
    pub fn icmp(&mut self, cc: IntCC, a: TermId, b: TermId) -> TermId {
        let s = &mut self.cx.store;
        match cc {
            IntCC::Eq => s.eq(a, b),
            IntCC::Ne => s.ne(a, b),
            IntCC::Ult => s.ult(a, b),
            IntCC::Ule => s.ule(a, b),
            IntCC::Ugt => s.ugt(a, b),
            IntCC::Uge => s.uge(a, b),
            IntCC::Slt => s.slt(a, b),
            IntCC::Sle => s.sle(a, b),
            IntCC::Sgt => s.sgt(a, b),
            IntCC::Sge => s.sge(a, b),
        }
    }

    /// `switch`: a constant selects its case; a symbolic value forks once per feasible case
    /// (in table order), the remaining state taking the default.
    fn switch(
        &mut self,
        st: &mut ExecutionState,
        body: &Body,
        inst: Inst,
        v: TermId,
        table: penumbra_ir::JumpTable,
    ) -> Result<Flow, RunError> {
        let jt = &body.jump_tables[table];
        let v = self.cx.view(st, v);
        if let Some(c) = self.cx.store.as_const(v) {
            let dest = jt.cases.iter().find(|(case, _)| *case == c).map_or(jt.default, |&(_, d)| d);
            Shadow::new(self.cx).jump(st, body, dest)?;
            return Ok(Flow::Jumped);
        }
        // One fork per distinct destination (cases sharing a target are one path, as in KLEE).
        let w = self.cx.store.width(v);
        let mut groups: Vec<(Dest, TermId)> = Vec::new();
        let same_target = |a: Dest, b: Dest| {
            a == b || (body.dests[a].block == body.dests[b].block && body.dest_args(a) == body.dest_args(b))
        };
        for &(case, dest) in &jt.cases {
            if same_target(dest, jt.default) {
                continue;
            }
            let k = self.cx.store.constant(w, case);
            let hit = self.cx.store.eq(v, k);
            match groups.iter().position(|&(d, _)| same_target(d, dest)) {
                Some(i) => groups[i].1 = self.cx.store.or(groups[i].1, hit),
                None => groups.push((dest, hit)),
            }
        }
        for (dest, hit) in groups {
            let viewed = self.cx.view(st, hit);
            let two_way = !self.cx.store.has_shadow(viewed);
            let (side, others) = match self.cx.branch_at(st, hit, inst, Site::Switch(v, table))? {
                Branch::Sides { side, others } => (side, others),
                Branch::Early(reason) => return Ok(Flow::End(Box::new(Ending::Early(reason)))),
            };
            // States taking this case jump to it. A state that does not goes on with the
            // remaining cases in this step when it is `st`, or the other side of a two-way fork
            // (swapped in); the others of a four-way fork re-execute the switch, whose earlier
            // cases their path conditions now exclude.
            let mut st_takes = side;
            for (other_side, mut other) in others {
                if other_side {
                    Shadow::new(self.cx).jump(&mut other, body, dest)?;
                } else if st_takes && two_way {
                    Shadow::new(self.cx).jump(st, body, dest)?;
                    std::mem::swap(st, &mut other);
                    st_takes = false;
                }
                self.cx.events.fork(other);
            }
            if st_takes {
                Shadow::new(self.cx).jump(st, body, dest)?;
                return Ok(Flow::Jumped);
            }
        }
        Shadow::new(self.cx).jump(st, body, jt.default)?;
        Ok(Flow::Jumped)
    }
}
