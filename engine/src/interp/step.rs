//! The instruction dispatcher: one `match` on [`InstData`] per executed instruction, with the
//! pure operations (arithmetic, comparisons, casts, `select`, `change`) and control flow
//! (jumps, branches, switches) inline. Operands are read from the frame's term vector by
//! index; results are built by the term store's constructors, whose constant folding is the
//! whole of the concrete fast path. Memory, calls, checks and intrinsics live in their own
//! files; jumps go through [`Context::jump`](crate::shadow::execute), which knows about
//! `penumbra_execute` blocks.

use crate::error::ErrorKind;
use crate::run_error::RunError;
use crate::symbolic::context::{Context, Flow};
use crate::symbolic::fork::{Branch, Site};
use crate::symbolic::state::{EarlyReason, Ending, ExecutionState};
use penumbra_ir::{tests_execute, BinaryOp, Body, CastOp, Dest, Inst, InstData, IntCC, Value, Version};
use penumbra_solver::TermId;

/// The term of `v` in the top frame.
#[inline]
pub fn val(st: &ExecutionState, v: Value) -> TermId {
    st.frame().value(v)
}

/// Sets the result of `inst`, if it has one.
#[inline]
pub fn set_result(st: &mut ExecutionState, body: &Body, inst: Inst, t: TermId) {
    if let Some(r) = body.results[inst] {
        st.frame_mut().set(r, t);
    }
}

impl<'p> Context<'p> {
    /// Executes `inst` (the instruction at `st`'s position) of `body`.
    pub(crate) fn step(&mut self, st: &mut ExecutionState, body: &'p Body, inst: Inst) -> Result<Flow, RunError> {
        match &body.insts[inst] {
            InstData::Binary { op, args: [a, b] } => {
                let (x, y) = (val(st, *a), val(st, *b));
                if op.is_division() || op.is_shift() {
                    if let Some(ending) = self.check_binary(st, *op, x, y)? {
                        return Ok(Flow::End(ending));
                    }
                }
                let r = self.binary(*op, x, y);
                set_result(st, body, inst, r);
            }
            InstData::Icmp { cc, args: [a, b] } => {
                let r = self.icmp(*cc, val(st, *a), val(st, *b));
                set_result(st, body, inst, r);
            }
            InstData::Cast { op, arg } => {
                if let Some(r) = body.results[inst] {
                    let to = body.values[r].ty.bits() as u8;
                    let x = val(st, *arg);
                    let t = match op {
                        CastOp::Zext => self.store.zext(x, to),
                        CastOp::Sext => self.store.sext(x, to),
                        CastOp::Trunc => self.store.extract(x, to - 1, 0),
                    };
                    st.frame_mut().set(r, t);
                }
            }
            InstData::Select { args: [c, a, b] } => {
                let c = self.truth(val(st, *c));
                let t = self.store.ite(c, val(st, *a), val(st, *b));
                set_result(st, body, inst, t);
            }
            InstData::Load { addr } => return self.load(st, body, inst, *addr),
            InstData::Store { addr, value } => return self.store_inst(st, inst, *addr, *value),
            InstData::Alloca { size, align } => {
                return self.alloca(st, body, inst, u64::from(*size), u64::from(*align))
            }
            InstData::DynAlloca { bytes } => {
                let (old, new) = self.alloc_sizes(st, val(st, *bytes));
                let flow = self.alloca(st, body, inst, old.max(new), 16)?;
                if old != new {
                    if let Some(&obj) = st.frame().allocas.last() {
                        self.record_shadow_size(st, obj, old, new);
                    }
                }
                return Ok(flow);
            }
            InstData::Call { func, args } => return self.call(st, body, inst, *func, body.list(*args)),
            InstData::CallIndirect { args } => return self.call_indirect(st, body, inst, body.list(*args)),
            InstData::Change { args: [old, new] } => {
                let t = match st.mode.single() {
                    Some(Version::Old) => val(st, *old),
                    Some(Version::New) => val(st, *new),
                    None => self.change_value(st, val(st, *old), val(st, *new))?,
                };
                set_result(st, body, inst, t);
            }
            InstData::Execute { version } => {
                // Both versions: the branch on it runs each version's side alone (execute.rs).
                let t = match st.mode.single() {
                    Some(v) => self.store.bool_const(*version == v),
                    None => {
                        st.pending_execute = Some(*version);
                        let (old, new) = (
                            self.store.bool_const(*version == Version::Old),
                            self.store.bool_const(*version == Version::New),
                        );
                        self.store.shadow(old, new)
                    }
                };
                set_result(st, body, inst, t);
            }
            InstData::MakeSymbolic { args: [addr, size, name] } => {
                return self.make_symbolic(st, val(st, *addr), val(st, *size), val(st, *name));
            }
            InstData::Assume { cond } => return self.assume(st, inst, val(st, *cond)),
            InstData::Assert { cond } => return self.assert(st, val(st, *cond)),
            InstData::Jump { dest } => {
                // A `penumbra_execute` folded into a `change` (pure operands) has no branch.
                st.pending_execute = None;
                self.jump(st, body, *dest);
                return Ok(Flow::Jumped);
            }
            InstData::Brif { cond, then_dest, else_dest } => {
                let c = self.truth(val(st, *cond));
                if st.pending_execute.take().is_some() && tests_execute(body, *cond) {
                    if let Some(flow) = self.enter_execute_block(st, body, c, *then_dest, *else_dest) {
                        return Ok(flow);
                    }
                }
                let Branch::Sides { side, others } = self.branch(st, c, inst)? else {
                    return Ok(Flow::End(Ending::Early(EarlyReason::MaxDepth)));
                };
                let dest = |side: bool| if side { *then_dest } else { *else_dest };
                self.jump(st, body, dest(side));
                for (side, mut other) in others {
                    self.jump(&mut other, body, dest(side));
                    self.new_states.push(other);
                }
                return Ok(Flow::Jumped);
            }
            InstData::Switch { arg, table } => return self.switch(st, body, inst, val(st, *arg), *table),
            InstData::Return { value } => {
                let value = value.map(|v| val(st, v));
                if let (Some(v), 1, true) = (value, st.stack.len(), st.in_main()) {
                    // `main` returns: its status is output.
                    let status = self.fit(v, 8);
                    self.observe(st, inst, status)?;
                }
                return Ok(self.ret(st, value));
            }
            InstData::Unreachable => {
                return Ok(Flow::End(self.error(st, ErrorKind::Unreachable, "reached unreachable code")));
            }
            InstData::Unsupported { msg } => {
                let message = self.prog.module.messages.get(*msg).map_or("unsupported construct", String::as_str);
                return Ok(Flow::End(self.unsupported(st, message)));
            }
        }
        Ok(Flow::Next)
    }

    /// `op a, b` as a term (the checks for division and shifts came before).
    pub fn binary(&mut self, op: BinaryOp, a: TermId, b: TermId) -> TermId {
        let s = &mut self.store;
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
        let s = &mut self.store;
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
        let v = self.view(st, v);
        if let Some(c) = self.store.as_const(v) {
            let dest = jt.cases.iter().find(|(case, _)| *case == c).map_or(jt.default, |&(_, d)| d);
            self.jump(st, body, dest);
            return Ok(Flow::Jumped);
        }
        // One fork per distinct destination (cases sharing a target are one path, as in KLEE).
        let w = self.store.width(v);
        let mut groups: Vec<(Dest, TermId)> = Vec::new();
        let same_target = |a: Dest, b: Dest| {
            a == b || (body.dests[a].block == body.dests[b].block && body.dest_args(a) == body.dest_args(b))
        };
        for &(case, dest) in &jt.cases {
            if same_target(dest, jt.default) {
                continue;
            }
            let k = self.store.constant(w, case);
            let hit = self.store.eq(v, k);
            match groups.iter().position(|&(d, _)| same_target(d, dest)) {
                Some(i) => groups[i].1 = self.store.or(groups[i].1, hit),
                None => groups.push((dest, hit)),
            }
        }
        for (dest, hit) in groups {
            let viewed = self.view(st, hit);
            let two_way = !self.store.has_shadow(viewed);
            let Branch::Sides { side, others } = self.branch_at(st, hit, inst, Site::Switch(v, table))? else {
                return Ok(Flow::End(Ending::Early(EarlyReason::MaxDepth)));
            };
            // States taking this case jump to it. A state that does not goes on with the
            // remaining cases in this step when it is `st`, or the other side of a two-way fork
            // (swapped in); the others of a four-way fork re-execute the switch, whose earlier
            // cases their path conditions now exclude.
            let mut st_takes = side;
            for (other_side, mut other) in others {
                if other_side {
                    self.jump(&mut other, body, dest);
                } else if st_takes && two_way {
                    self.jump(st, body, dest);
                    std::mem::swap(st, &mut other);
                    st_takes = false;
                }
                self.new_states.push(other);
            }
            if st_takes {
                self.jump(st, body, dest);
                return Ok(Flow::Jumped);
            }
        }
        self.jump(st, body, jt.default);
        Ok(Flow::Jumped)
    }
}
