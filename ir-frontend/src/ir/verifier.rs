//! The IR verifier. For every defined function it checks:
//! 1. Layout: the body has an entry block; every block ends in exactly one terminator and has
//!    no terminator before it; every instruction in the layout appears once.
//! 2. Signature: the entry block's parameters have the signature's parameter types; every
//!    `ret` returns a value of the result type (or none for `void`).
//! 3. Types: binary operands and result share one type (integer for `add`.., floating point
//!    for `fadd`..); `icmp`/`fcmp` operands share a type and the result is `i1`; float
//!    conversions go between the kinds their name says; `zext`/`sext` widen and `trunc` narrows; conditions (`brif`, `select`,
//!    `assume`, `assert`) are `i1`; addresses and `alloca` results are `i64`; `change` sides and
//!    result share a type; branch arguments match the target's parameters in number and type;
//!    direct calls pass the declared parameter types (at least that many for varargs) and
//!    their result type is the callee's.
//! 4. SSA: every value used is defined in this body (or is a constant or address), and every
//!    definition dominates each of its uses in blocks reachable from the entry. Uses inside
//!    unreachable blocks are not checked, as in LLVM.

use super::entities::{Block, Inst, Value};
use super::function::{Body, Function, ValueDef};
use super::instructions::{CastOp, FCastOp, InstData};
use super::module::Module;
use super::types::{Type, PTR};
use cranelift_entity::{EntityRef, EntitySet, SecondaryMap};
use std::fmt;

/// One verifier finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifierError {
    pub func: String,
    pub inst: Option<Inst>,
    pub message: String,
}

impl fmt::Display for VerifierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.inst {
            Some(inst) => write!(f, "@{}: {inst}: {}", self.func, self.message),
            None => write!(f, "@{}: {}", self.func, self.message),
        }
    }
}

/// Verifies every defined function; returns all findings.
pub fn verify_module(module: &Module) -> Result<(), Vec<VerifierError>> {
    let mut errors = Vec::new();
    for (_, func) in module.funcs.iter() {
        verify_function_into(module, func, &mut errors);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Verifies one function; returns all findings.
pub fn verify_function(module: &Module, func: &Function) -> Result<(), Vec<VerifierError>> {
    let mut errors = Vec::new();
    verify_function_into(module, func, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn verify_function_into(module: &Module, func: &Function, errors: &mut Vec<VerifierError>) {
    let Some(body) = &func.body else { return };
    let mut v = Verifier { module, func, body, errors };
    v.run();
}

struct Verifier<'a> {
    module: &'a Module,
    func: &'a Function,
    body: &'a Body,
    errors: &'a mut Vec<VerifierError>,
}

impl Verifier<'_> {
    fn error(&mut self, inst: Option<Inst>, message: impl Into<String>) {
        self.errors.push(VerifierError { func: self.func.name.clone(), inst, message: message.into() });
    }

    fn run(&mut self) {
        let body = self.body;
        let Some(entry) = body.layout.entry_block() else {
            self.error(None, "defined function has no blocks");
            return;
        };
        let param_types: Vec<Type> = body.block_params(entry).iter().map(|&p| body.value_type(p)).collect();
        if param_types != self.func.sig.params {
            self.error(None, format!("entry block parameters {param_types:?} differ from the signature"));
        }
        let Some(position) = self.check_layout() else { return };
        for &block in body.layout.blocks() {
            for &inst in body.layout.block_insts(block) {
                self.check_types(inst);
            }
        }
        self.check_dominance(entry, &position);
    }

    /// Checks terminators and uniqueness; returns each instruction's (block, index).
    fn check_layout(&mut self) -> Option<SecondaryMap<Inst, (Option<Block>, u32)>> {
        let body = self.body;
        let mut position: SecondaryMap<Inst, (Option<Block>, u32)> = SecondaryMap::new();
        let mut ok = true;
        for &block in body.layout.blocks() {
            let insts = body.layout.block_insts(block);
            if insts.is_empty() {
                self.error(None, format!("{block} is empty"));
                ok = false;
                continue;
            }
            for (i, &inst) in insts.iter().enumerate() {
                if position[inst].0.is_some() {
                    self.error(Some(inst), "appears twice in the layout");
                    ok = false;
                }
                position[inst] = (Some(block), i as u32);
                let last = i + 1 == insts.len();
                let term = body.insts[inst].is_terminator();
                if term && !last {
                    self.error(Some(inst), format!("terminator in the middle of {block}"));
                    ok = false;
                } else if !term && last {
                    self.error(Some(inst), format!("{block} does not end in a terminator"));
                    ok = false;
                }
            }
        }
        ok.then_some(position)
    }

    fn ty(&self, v: Value) -> Type {
        self.body.value_type(v)
    }

    fn expect_ty(&mut self, inst: Inst, v: Value, want: Type, what: &str) {
        let got = self.ty(v);
        if got != want {
            self.error(Some(inst), format!("{what} {v} has type {got}, expected {want}"));
        }
    }

    fn expect_int(&mut self, inst: Inst, ty: Type) {
        if !ty.is_int() {
            let m = self.body.insts[inst].mnemonic();
            self.error(Some(inst), format!("{m} on {ty}, which is not an integer type"));
        }
    }

    fn expect_float(&mut self, inst: Inst, ty: Type) {
        if !ty.is_float() {
            let m = self.body.insts[inst].mnemonic();
            self.error(Some(inst), format!("{m} on {ty}, which is not a floating-point type"));
        }
    }

    fn check_dest_args(&mut self, inst: Inst) {
        for dest in self.body.successors(inst) {
            let data = &self.body.dests[dest];
            let params = self.body.block_params(data.block).to_vec();
            let args = self.body.dest_args(dest).to_vec();
            if params.len() != args.len() {
                self.error(
                    Some(inst),
                    format!("{} takes {} arguments, given {}", data.block, params.len(), args.len()),
                );
                continue;
            }
            for (&p, &a) in params.iter().zip(&args) {
                let want = self.ty(p);
                self.expect_ty(inst, a, want, "branch argument");
            }
        }
    }

    fn check_types(&mut self, inst: Inst) {
        let body = self.body;
        let result = body.inst_result(inst);
        let rty = result.map(|r| self.ty(r));
        let needs_result = |data: &InstData| {
            matches!(
                data,
                InstData::Binary { .. }
                    | InstData::Icmp { .. }
                    | InstData::Cast { .. }
                    | InstData::FBinary { .. }
                    | InstData::FUnary { .. }
                    | InstData::Fma { .. }
                    | InstData::Fcmp { .. }
                    | InstData::FCast { .. }
                    | InstData::Select { .. }
                    | InstData::Load { .. }
                    | InstData::Alloca { .. }
                    | InstData::DynAlloca { .. }
                    | InstData::Change { .. }
                    | InstData::Execute { .. }
            )
        };
        let data = &body.insts[inst];
        if needs_result(data) && result.is_none() {
            self.error(Some(inst), format!("{} has no result", data.mnemonic()));
            return;
        }
        match data {
            InstData::Binary { args: [a, b], .. } | InstData::Change { args: [a, b] } => {
                let t = rty.expect("checked above");
                if matches!(data, InstData::Binary { .. }) {
                    self.expect_int(inst, t);
                }
                self.expect_ty(inst, *a, t, "operand");
                self.expect_ty(inst, *b, t, "operand");
            }
            InstData::Icmp { args: [a, b], .. } | InstData::Fcmp { args: [a, b], .. } => {
                let t = self.ty(*a);
                if matches!(data, InstData::Icmp { .. }) {
                    self.expect_int(inst, t);
                } else {
                    self.expect_float(inst, t);
                }
                self.expect_ty(inst, *b, t, "operand");
                self.expect_ty(inst, result.expect("checked"), Type::I1, "result");
            }
            InstData::FBinary { args, .. } | InstData::Fma { args: [_, args @ ..] } => {
                let t = rty.expect("checked above");
                self.expect_float(inst, t);
                if let InstData::Fma { args: [a, ..] } = data {
                    self.expect_ty(inst, *a, t, "operand");
                }
                for &a in args {
                    self.expect_ty(inst, a, t, "operand");
                }
            }
            InstData::FUnary { arg, .. } => {
                let t = rty.expect("checked above");
                self.expect_float(inst, t);
                self.expect_ty(inst, *arg, t, "operand");
            }
            InstData::FCast { op, arg } => {
                let (from, to) = (self.ty(*arg), rty.expect("checked"));
                let ok = match op {
                    FCastOp::Ext => from.is_float() && to.is_float() && to.bits() > from.bits(),
                    FCastOp::Trunc => from.is_float() && to.is_float() && to.bits() < from.bits(),
                    FCastOp::ToSi | FCastOp::ToUi => from.is_float() && to.is_int(),
                    FCastOp::FromSi | FCastOp::FromUi => from.is_int() && to.is_float(),
                    FCastOp::Bitcast => from.is_float() != to.is_float() && from.bits() == to.bits(),
                };
                if !ok {
                    self.error(Some(inst), format!("{} from {from} to {to}", op.name()));
                }
            }
            InstData::Cast { op, arg } => {
                self.expect_int(inst, self.ty(*arg));
                self.expect_int(inst, rty.expect("checked"));
                let (from, to) = (self.ty(*arg).bits(), rty.expect("checked").bits());
                let ok = match op {
                    CastOp::Zext | CastOp::Sext => to > from,
                    CastOp::Trunc => to < from,
                };
                if !ok {
                    self.error(Some(inst), format!("{} from i{from} to i{to}", op.name()));
                }
            }
            InstData::Select { args: [c, a, b] } => {
                let t = rty.expect("checked");
                self.expect_ty(inst, *c, Type::I1, "condition");
                self.expect_ty(inst, *a, t, "operand");
                self.expect_ty(inst, *b, t, "operand");
            }
            InstData::Load { addr } => self.expect_ty(inst, *addr, PTR, "address"),
            InstData::Store { addr, .. } => self.expect_ty(inst, *addr, PTR, "address"),
            InstData::Alloca { .. } | InstData::DynAlloca { .. } => {
                if let InstData::DynAlloca { bytes } = data {
                    self.expect_ty(inst, *bytes, Type::I64, "size");
                }
                self.expect_ty(inst, result.expect("checked"), PTR, "result");
            }
            InstData::Call { func, args } => {
                let callee = &self.module.funcs[*func];
                let args = body.list(*args).to_vec();
                let n = callee.sig.params.len();
                if args.len() < n || (!callee.sig.varargs && args.len() != n) {
                    self.error(Some(inst), format!("@{} takes {n} arguments, given {}", callee.name, args.len()));
                } else {
                    for (&a, &t) in args.iter().zip(&callee.sig.params) {
                        self.expect_ty(inst, a, t, "argument");
                    }
                }
                if rty != callee.sig.ret {
                    self.error(Some(inst), format!("result type {rty:?} differs from @{}'s", callee.name));
                }
            }
            InstData::CallIndirect { args } => {
                let callee = body.list(*args)[0];
                self.expect_ty(inst, callee, PTR, "callee");
            }
            InstData::Execute { .. } => self.expect_ty(inst, result.expect("checked"), Type::I1, "result"),
            InstData::MakeSymbolic { args, .. } => {
                let [addr, size, name] = *args;
                self.expect_ty(inst, addr, PTR, "address");
                self.expect_ty(inst, size, Type::I64, "size");
                self.expect_ty(inst, name, PTR, "name");
            }
            InstData::Assume { cond } | InstData::Assert { cond } | InstData::Brif { cond, .. } => {
                self.expect_ty(inst, *cond, Type::I1, "condition")
            }
            InstData::Return { value } => {
                let got = value.map(|v| self.ty(v));
                if got != self.func.sig.ret {
                    self.error(Some(inst), format!("returns {got:?}, signature says {:?}", self.func.sig.ret));
                }
            }
            InstData::Jump { .. } | InstData::Switch { .. } | InstData::Unreachable | InstData::Unsupported { .. } => {}
        }
        if let InstData::Switch { arg, table } = data {
            self.expect_int(inst, self.ty(*arg));
            let width_mask = self.ty(*arg).mask();
            if self.body.jump_tables[*table].cases.iter().any(|(v, _)| v & !width_mask != 0) {
                self.error(Some(inst), "case value wider than the switch operand");
            }
        }
        self.check_dest_args(inst);
    }

    fn check_dominance(&mut self, entry: Block, position: &SecondaryMap<Inst, (Option<Block>, u32)>) {
        let body = self.body;
        let dom = Dominators::compute(body, entry);
        for &block in body.layout.blocks() {
            if !dom.reachable.contains(block) {
                continue;
            }
            for (i, &inst) in body.layout.block_insts(block).iter().enumerate() {
                for arg in body.inst_args(inst) {
                    if arg.index() >= body.values.len() {
                        self.error(Some(inst), format!("uses undefined value {arg}"));
                        continue;
                    }
                    let (def_block, def_index) = match body.value_def(arg) {
                        ValueDef::Result(d) => match position[d] {
                            (Some(b), idx) => (b, Some(idx)),
                            (None, _) => {
                                self.error(Some(inst), format!("uses {arg}, defined outside the layout"));
                                continue;
                            }
                        },
                        ValueDef::Param(b, _) => (b, None),
                        ValueDef::Const(_)
                        | ValueDef::ConstF80 { .. }
                        | ValueDef::GlobalAddr(_)
                        | ValueDef::FuncAddr(_) => continue,
                    };
                    let ok = if def_block == block {
                        def_index.is_none_or(|d| d < i as u32)
                    } else {
                        dom.dominates(def_block, block)
                    };
                    if !ok {
                        self.error(Some(inst), format!("use of {arg} is not dominated by its definition"));
                    }
                }
            }
        }
    }
}

/// Immediate dominators by the Cooper–Harvey–Kennedy iteration over reverse postorder.
struct Dominators {
    idom: SecondaryMap<Block, Option<Block>>,
    reachable: EntitySet<Block>,
}

impl Dominators {
    fn compute(body: &Body, entry: Block) -> Dominators {
        let succs = |b: Block| -> Vec<Block> {
            body.layout
                .terminator(b)
                .map(|t| body.successors(t).into_iter().map(|d| body.dests[d].block).collect())
                .unwrap_or_default()
        };
        // Iterative postorder.
        let mut reachable = EntitySet::new();
        let mut postorder = Vec::new();
        let mut stack = vec![(entry, succs(entry), 0usize)];
        reachable.insert(entry);
        while let Some((b, ss, i)) = stack.last_mut() {
            if *i < ss.len() {
                let s = ss[*i];
                *i += 1;
                if reachable.insert(s) {
                    let next = succs(s);
                    stack.push((s, next, 0));
                }
            } else {
                postorder.push(*b);
                stack.pop();
            }
        }
        let rpo: Vec<Block> = postorder.iter().rev().copied().collect();
        let mut rpo_index = SecondaryMap::new();
        for (i, &b) in rpo.iter().enumerate() {
            rpo_index[b] = i as u32;
        }
        let mut preds: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
        for &b in &rpo {
            for s in succs(b) {
                preds[s].push(b);
            }
        }
        let mut idom: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
        idom[entry] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new_idom: Option<Block> = None;
                for &p in &preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => intersect(&idom, &rpo_index, p, cur),
                    });
                }
                if new_idom.is_some() && idom[b] != new_idom {
                    idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        Dominators { idom, reachable }
    }

    /// Whether `a` dominates `b` (both reachable).
    fn dominates(&self, a: Block, b: Block) -> bool {
        if !self.reachable.contains(a) {
            return false;
        }
        let mut cur = b;
        loop {
            if cur == a {
                return true;
            }
            match self.idom[cur] {
                Some(up) if up != cur => cur = up,
                _ => return false,
            }
        }
    }
}

fn intersect(
    idom: &SecondaryMap<Block, Option<Block>>,
    rpo_index: &SecondaryMap<Block, u32>,
    mut a: Block,
    mut b: Block,
) -> Block {
    while a != b {
        while rpo_index[a] > rpo_index[b] {
            a = idom[a].expect("processed predecessor has an idom");
        }
        while rpo_index[b] > rpo_index[a] {
            b = idom[b].expect("processed predecessor has an idom");
        }
    }
    a
}
