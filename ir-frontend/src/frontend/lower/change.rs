//! Folding `change(old, new)` with pure operands into one IR `change`.
//!
//! `penumbra.h` spells `change(old, new)` as `penumbra_execute(OLD) ? (old) : (new)`, so that
//! each operand runs in its own version only (an `execute` block in shadow execution): the
//! operands' side effects and errors then belong to their version, as in the native builds.
//! Most operands have neither: a constant, a register, a comparison of registers. For those,
//! clang's diamond
//!
//! ```text
//! B:  %c = call i32 @__penumbra_execute(i32 0)     T:  <pure code>     J:  %r = phi [%a, T], [%b, E]
//!     %t = icmp ne i32 %c, 0                           br J
//!     br i1 %t, label T, label E                   E:  <pure code>
//!                                                      br J
//! ```
//!
//! (or, for the cheapest operands, a `select` on `%t`, lowered as `change` too) lowers as both
//! sides' code in `B` and a jump to `J` passing `change(%a, %b)`: evaluating a
//! pure operand in the other version too has no effect, and the shadow engine then needs no
//! block (one instruction instead of two runs of the sides and a merge). Pure means no memory
//! access, call, division or shift by a non-constant amount (those can fail), no floating
//! point.

use super::function::{is_debug_intrinsic, FnLower};
use super::types::{ir_type, LResult};
use crate::ir::{InstData, Version};
use llvm_ir::instruction::{Call, ICmp};
use llvm_ir::terminator::CondBr;
use llvm_ir::{Constant, Instruction, IntPredicate, Name, Operand, Terminator};

impl<'a, 'm> FnLower<'a, 'm> {
    /// Lowers `br` as a folded `change` if it is the branch of one with pure operands (see the
    /// module documentation); `false`: an ordinary branch, nothing emitted.
    pub(super) fn fold_change(&mut self, br: &'m CondBr) -> LResult<bool> {
        let Some(version) = self.execute_condition(&br.condition) else { return Ok(false) };
        let Some((then_block, else_block, join)) = self.pure_diamond(br) else { return Ok(false) };
        let f = self.f;
        let (then_bb, else_bb, join_bb) =
            (&f.basic_blocks[then_block], &f.basic_blocks[else_block], &f.basic_blocks[join]);
        for inst in then_bb.instrs.iter().chain(&else_bb.instrs) {
            if !is_debug_intrinsic(inst) {
                self.lower_inst(inst)?;
            }
        }
        let mut args = Vec::new();
        let mut phi_names = Vec::new();
        for inst in &join_bb.instrs {
            let Instruction::Phi(phi) = inst else { break };
            phi_names.push(&phi.dest);
            let incoming = |from: &Name| phi.incoming_values.iter().find(|(_, b)| b == from).map(|(op, _)| op);
            let (Some(on_then), Some(on_else)) = (incoming(&then_bb.name), incoming(&else_bb.name)) else {
                unreachable!("checked by pure_diamond");
            };
            let (t, e) = (self.operand(on_then)?, self.operand(on_else)?);
            // The true side is the one `penumbra_execute(version)` selects.
            let (old, new) = if version == Version::Old { (t, e) } else { (e, t) };
            args.push(if old == new { old } else { self.b.change(old, new) });
        }
        if self.predecessors(join) == 2 {
            // Only the sides enter the join: it goes on in this block, its phis are the changes.
            for (name, v) in phi_names.into_iter().zip(args) {
                self.define(name, v);
            }
            self.continue_block_as(join);
        } else {
            let dest = self.b.dest(self.ir_block(join), &args);
            self.b.ins(InstData::Jump { dest }, None);
        }
        self.folded_sides.extend([then_block, else_block]);
        let condition = self.operand(&br.condition)?;
        self.folded_conditions.push(condition);
        Ok(true)
    }

    /// Lowers `select` as a `change` if its condition is `penumbra_execute(V) != 0`: clang
    /// spells `change(old, new)` with cheap operands (constants, registers) that way, both
    /// already evaluated. So `if (change(0, 1))` stays the Shadow paper's annotation of added
    /// code, a branch whose versions differ, not an execute block. `false`: not one.
    pub(super) fn fold_select(&mut self, s: &'m llvm_ir::instruction::Select) -> LResult<bool> {
        let Some(version) = self.execute_condition(&s.condition) else { return Ok(false) };
        let (t, e) = (self.operand(&s.true_value)?, self.operand(&s.false_value)?);
        let (old, new) = if version == Version::Old { (t, e) } else { (e, t) };
        let v = if old == new { old } else { self.b.change(old, new) };
        self.define(&s.dest, v);
        Ok(true)
    }

    /// The version `cond` tests, if it is `penumbra_execute(V) != 0` computed in the block
    /// being lowered.
    fn execute_condition(&self, cond: &Operand) -> Option<Version> {
        let Operand::LocalOperand { name, .. } = cond else { return None };
        let block = &self.f.basic_blocks[self.current];
        let defined = |n: &Name| block.instrs.iter().find(|i| i.try_get_result() == Some(n));
        let Some(Instruction::ICmp(ICmp { predicate: IntPredicate::NE, operand0, operand1, .. })) = defined(name)
        else {
            return None;
        };
        if !is_zero(operand1) {
            return None;
        }
        let Operand::LocalOperand { name: called, .. } = operand0 else { return None };
        let Some(Instruction::Call(call)) = defined(called) else { return None };
        // Only penumbra's declaration, not a function of the program that happens to share the name.
        if !self.cx.intrinsic_decls.contains_key("__penumbra_execute") {
            return None;
        }
        execute_version(call)
    }

    /// `(then, else, join)` block indices if `br` branches to two blocks that only it enters,
    /// hold pure code and no phis, and both go on to one `join` whose phis are all scalars.
    fn pure_diamond(&self, br: &CondBr) -> Option<(usize, usize, usize)> {
        let f = self.f;
        let then_block = self.block_of(&br.true_dest)?;
        let else_block = self.block_of(&br.false_dest)?;
        if then_block == else_block {
            return None;
        }
        let side = |i: usize| -> Option<&'m Name> {
            let bb = &f.basic_blocks[i];
            let Terminator::Br(to) = &bb.term else { return None };
            let only_entered_here = self.predecessors(i) == 1;
            (only_entered_here && bb.instrs.iter().all(|i| self.is_pure(i))).then_some(&to.dest)
        };
        let (to_then, to_else) = (side(then_block)?, side(else_block)?);
        let join = self.block_of(to_then)?;
        if to_then != to_else || join == then_block || join == else_block {
            return None;
        }
        let scalar_phis = f.basic_blocks[join].instrs.iter().all(|i| match i {
            Instruction::Phi(p) => ir_type(&p.to_type).is_ok() && self.cx.leaves(&p.to_type).is_none(),
            _ => true,
        });
        scalar_phis.then_some((then_block, else_block, join))
    }

    /// How many edges enter block `i` (a switch may count twice).
    fn predecessors(&self, i: usize) -> usize {
        (0..self.f.basic_blocks.len()).map(|b| self.successors(b).iter().filter(|&&s| s == i).count()).sum()
    }
}

impl FnLower<'_, '_> {
    /// Whether `inst` can run in either version without an effect or an error of its own.
    fn is_pure(&self, inst: &Instruction) -> bool {
        match inst {
            Instruction::Load(load) => !load.volatile && self.whole_variable(&load.address, &load.loaded_ty),
            _ => is_pure(inst),
        }
    }

    /// Whether `address` is a whole local variable (this function's `alloca`) or global of
    /// type `ty`: reading it cannot fail (`change(x > 7, x > 8)` reads `x` in both operands).
    fn whole_variable(&self, address: &Operand, ty: &llvm_ir::TypeRef) -> bool {
        match address {
            Operand::LocalOperand { name, .. } => self.f.basic_blocks.iter().flat_map(|b| &b.instrs).any(|i| match i {
                Instruction::Alloca(a) => {
                    &a.dest == name
                        && &a.allocated_type == ty
                        && matches!(a.num_elements.as_constant(), Some(Constant::Int { value: 1, .. }))
                }
                _ => false,
            }),
            Operand::ConstantOperand(c) => {
                matches!(c.as_ref(), Constant::GlobalReference { ty: global, .. } if global == ty)
            }
            Operand::MetadataOperand => false,
        }
    }
}

/// Whether `inst`, which does not read memory, can run in either version without an effect or
/// an error of its own.
fn is_pure(inst: &Instruction) -> bool {
    use Instruction as I;
    match inst {
        I::Add(_) | I::Sub(_) | I::Mul(_) | I::And(_) | I::Or(_) | I::Xor(_) | I::ICmp(_) => true,
        I::Trunc(_) | I::ZExt(_) | I::SExt(_) | I::PtrToInt(_) | I::IntToPtr(_) | I::BitCast(_) => true,
        I::Select(_) | I::Freeze(_) | I::GetElementPtr(_) => true,
        // A shift by the width or more is an error: pure only by a constant amount below it.
        I::Shl(s) => constant_shift(&s.operand1),
        I::LShr(s) => constant_shift(&s.operand1),
        I::AShr(s) => constant_shift(&s.operand1),
        _ => is_debug_intrinsic(inst),
    }
}

fn constant_shift(amount: &Operand) -> bool {
    match amount {
        Operand::ConstantOperand(c) => matches!(c.as_ref(), Constant::Int { bits, value } if *value < u64::from(*bits)),
        _ => false,
    }
}

fn is_zero(op: &Operand) -> bool {
    matches!(op, Operand::ConstantOperand(c) if matches!(c.as_ref(), Constant::Int { value: 0, .. }))
}

/// The version of a call of `__penumbra_execute(V)` with a constant `V`.
fn execute_version(call: &Call) -> Option<Version> {
    if super::describe::callee_name(call) != Some("__penumbra_execute") || call.arguments.len() != 1 {
        return None;
    }
    match call.arguments[0].0.as_constant()? {
        Constant::Int { value: 0, .. } => Some(Version::Old),
        Constant::Int { value: 1, .. } => Some(Version::New),
        _ => None,
    }
}
