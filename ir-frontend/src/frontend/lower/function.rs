//! Lowering one function body: blocks, phis as block parameters, terminators, source
//! locations, and the handling of unsupported constructs.
//!
//! Every LLVM block gets an IR block up front (so the layout follows LLVM's order) with one
//! parameter per phi (one per leaf for an aggregate phi); each predecessor's branch passes
//! the phi's incoming value for that edge. The entry block's parameters are the hidden result
//! buffer (for an aggregate result), the LLVM parameters, and the hidden variable-argument
//! area (for a variadic function); its prologue copies `byval` parameters and allocates the
//! result buffers and argument areas of the calls in the body.
//! Blocks are lowered in reverse postorder, so a value is always lowered before its uses
//! (phi operands included: an incoming value dominates the end of its predecessor), then the
//! blocks unreachable from the entry, in LLVM's order.
//!
//! An unsupported construct ends the current IR block with `unsupported`; the rest of the LLVM
//! block continues in a fresh IR block without predecessors, so every LLVM value still gets an
//! IR value (a constant 0 placeholder for the unsupported instruction's result).

use super::describe::{callee_name, describe, result_type};
use super::types::{ir_type, stand_in, LResult, Unsup};
use super::ModuleCx;
use crate::frontend::FrontendError;
use crate::ir::{Block, Body, Dest, FunctionBuilder, SrcLoc, Type, Value, PTR};
use llvm_ir::function::ParameterAttribute;
use llvm_ir::instruction::{Call, Phi};
use llvm_ir::{BasicBlock, DebugLoc, HasDebugLoc, Instruction, Name, Operand, Terminator, Type as LType};
use rustc_hash::FxHashMap;

/// Lowers `f`; returns its body, its line and its source file (as its debug information names
/// it; empty when it has none).
pub(super) fn lower_function<'m>(
    cx: &mut ModuleCx<'m>,
    f: &'m llvm_ir::Function,
) -> Result<(Body, u32, String), FrontendError> {
    let mut body = Body::default();
    let own = OwnFile::of(f, &cx.llvm.source_file_name);
    let line = function_line(f, own);
    // The whole path: the compile step gives back the user's spelling for their files.
    let file = match own {
        OwnFile::Of(d) => debug_path(d).display().to_string(),
        OwnFile::Named(_) => String::new(),
    };
    {
        let mut lower = FnLower::new(cx, f, &mut body);
        lower.run(line);
        if !lower.missing.is_empty() {
            return Err(FrontendError::Internal(format!(
                "@{}: values used before their definition: {}",
                f.name,
                lower.missing.join(", ")
            )));
        }
    }
    Ok((body, line, file))
}

/// The file a function's lines are in: its `DISubprogram`'s, or (without one) the module's
/// source file. Lines in other files (the bodies of `static inline` functions of headers
/// inlined at `-O0` by `always_inline`) would be misread as lines of this one, so they count
/// as unknown.
#[derive(Copy, Clone)]
enum OwnFile<'m> {
    Of(&'m DebugLoc),
    Named(&'m str),
}

impl<'m> OwnFile<'m> {
    fn of(f: &'m llvm_ir::Function, source_file_name: &'m str) -> Self {
        match f.debugloc.as_ref().filter(|d| !d.filename.is_empty()) {
            Some(d) => OwnFile::Of(d),
            None => OwnFile::Named(source_file_name),
        }
    }

    fn holds(self, d: &DebugLoc) -> bool {
        match self {
            OwnFile::Of(own) => d.filename == own.filename && d.directory == own.directory,
            OwnFile::Named(main_file) => in_main_file(d, main_file),
        }
    }
}

/// The line of the function's `DISubprogram`, else of its first located instruction.
fn function_line(f: &llvm_ir::Function, own: OwnFile) -> u32 {
    if let Some(d) = f.debugloc.as_ref().filter(|d| d.line != 0) {
        return if own.holds(d) { d.line } else { 0 };
    }
    f.basic_blocks
        .iter()
        .flat_map(|bb| bb.instrs.iter().map(|i| i.get_debug_loc()).chain([bb.term.get_debug_loc()]))
        .find_map(|d| srcloc(d, own).map(|l| l.line))
        .unwrap_or(0)
}

/// The location of an instruction, if it has one in its function's own file.
fn srcloc(d: &Option<DebugLoc>, own: OwnFile) -> Option<SrcLoc> {
    d.as_ref().filter(|d| d.line != 0 && own.holds(d)).map(|d| SrcLoc { line: d.line, col: d.col.unwrap_or(0) })
}

/// Whether a debug location is in the compiled file. Clang records a file below its working
/// directory relative to it (`examples/foo.c` in directory `/work`), whichever way the path
/// was given, so the location's directory is joined before comparing.
fn in_main_file(d: &DebugLoc, main_file: &str) -> bool {
    d.filename == main_file || debug_path(d) == std::path::Path::new(main_file)
}

/// The whole path of a debug location's file. Clang splits a path between the compile
/// directory and a name relative to some prefix of it (`.tmpX/a.c` in `/tmp` for
/// `/tmp/.tmpX/a.c` compiled in `/tmp/build`): joined, the path is whole.
fn debug_path(d: &DebugLoc) -> std::path::PathBuf {
    match &d.directory {
        Some(dir) if !dir.is_empty() => std::path::Path::new(dir).join(&d.filename),
        _ => std::path::PathBuf::from(&d.filename),
    }
}

/// The phis at the start of a block.
fn phis(bb: &BasicBlock) -> impl Iterator<Item = &Phi> {
    bb.instrs.iter().map_while(|i| match i {
        Instruction::Phi(p) => Some(p),
        _ => None,
    })
}

/// Per-function lowering state.
pub(super) struct FnLower<'a, 'm> {
    pub cx: &'a mut ModuleCx<'m>,
    pub f: &'m llvm_ir::Function,
    pub b: FunctionBuilder<'a>,
    values: FxHashMap<&'m Name, Value>,
    /// The leaves of aggregate values (see [`super::aggregates`]).
    pub(super) aggregates: FxHashMap<&'m Name, Vec<Value>>,
    /// For a function returning an aggregate: the hidden parameter, where results go.
    ret_buffer: Option<Value>,
    /// For each call returning an aggregate: its result buffer, allocated on entry.
    pub(super) call_buffers: FxHashMap<&'m Name, Value>,
    /// For a variadic function: the hidden last parameter, its variable-argument area.
    pub(super) vararg_area: Option<Value>,
    /// For each call of a defined variadic function: its variable-argument area (keyed by
    /// the call's address in the `llvm-ir` module, for lookup only).
    pub(super) vararg_buffers: FxHashMap<*const Call, Value>,
    block_index: FxHashMap<&'m Name, usize>,
    ir_blocks: Vec<Block>,
    /// Where the entry block's code goes after the prologue (byval copies, call buffers):
    /// the entry block, or a fresh block if the prologue hit something unsupported.
    entry_cursor: Option<Block>,
    /// The LLVM block being lowered (its name identifies phi edges even when the code is
    /// being emitted into a fresh block after an `unsupported`).
    pub(super) current: usize,
    /// Whether the LLVM block being lowered is reachable from the entry: there, every value
    /// used must already be lowered, and a miss is a frontend bug.
    reachable: bool,
    missing: Vec<String>,
    /// LLVM blocks folded into their predecessor (the sides of a `change` with pure operands),
    /// not lowered, and the folded branches' conditions, removed if nothing else uses them.
    pub(super) folded_sides: Vec<usize>,
    pub(super) folded_conditions: Vec<Value>,
    /// `bitcast x86_fp80 %x to i80` results (the IR has no 80-bit integers), by name, with the
    /// `f80` value: clang's `__builtin_signbit(long double)` compares one with 0, which
    /// [`super::float`] lowers as a floating-point sign test; any other use is unsupported.
    pub(super) x87_bits: FxHashMap<&'m Name, Value>,
}

impl<'a, 'm> FnLower<'a, 'm> {
    fn new(cx: &'a mut ModuleCx<'m>, f: &'m llvm_ir::Function, body: &'a mut Body) -> Self {
        FnLower {
            cx,
            f,
            b: FunctionBuilder::new(body),
            values: FxHashMap::default(),
            aggregates: FxHashMap::default(),
            ret_buffer: None,
            call_buffers: FxHashMap::default(),
            vararg_area: None,
            vararg_buffers: FxHashMap::default(),
            block_index: FxHashMap::default(),
            ir_blocks: Vec::new(),
            entry_cursor: None,
            current: 0,
            reachable: true,
            missing: Vec::new(),
            x87_bits: FxHashMap::default(),
            folded_sides: Vec::new(),
            folded_conditions: Vec::new(),
        }
    }

    fn run(&mut self, line: u32) {
        let f = self.f;
        for (i, bb) in f.basic_blocks.iter().enumerate() {
            self.block_index.insert(&bb.name, i);
            let block = self.b.create_block();
            self.ir_blocks.push(block);
        }
        if f.basic_blocks.is_empty() {
            // Not produced by clang; keep the body well-formed anyway.
            let entry = self.b.create_block();
            self.ir_blocks.push(entry);
        }
        let entry = self.ir_blocks[0];
        if self.cx.leaves(&f.return_type).is_some() {
            self.ret_buffer = Some(self.b.append_block_param(entry, PTR));
        }
        for p in &f.parameters {
            let v = self.b.append_block_param(entry, stand_in(&p.ty));
            self.values.insert(&p.name, v);
        }
        if f.is_var_arg {
            self.vararg_area = Some(self.b.append_block_param(entry, PTR));
        }
        for (i, bb) in f.basic_blocks.iter().enumerate().skip(1) {
            for phi in phis(bb) {
                let block = self.ir_blocks[i];
                if let Some(leaves) = self.cx.leaves(&phi.to_type) {
                    let vs = leaves.iter().map(|l| self.b.append_block_param(block, l.ty)).collect();
                    self.aggregates.insert(&phi.dest, vs);
                } else {
                    let v = self.b.append_block_param(block, stand_in(&phi.to_type));
                    self.values.insert(&phi.dest, v);
                }
            }
        }
        if f.basic_blocks.is_empty() {
            self.b.switch_to_block(entry);
            self.b.unreachable();
            return;
        }
        self.b.switch_to_block(entry);
        self.b.set_srcloc(SrcLoc { line, col: 0 });
        self.copy_byval_params();
        self.allocate_call_buffers();
        self.entry_cursor = self.b.current_block();
        let (order, reachable) = self.block_order();
        for i in order {
            if self.folded_sides.contains(&i) {
                continue;
            }
            self.reachable = reachable[i];
            self.lower_block(i);
        }
        for &i in &self.folded_sides {
            self.b.remove_block(self.ir_blocks[i]);
        }
        let conditions = std::mem::take(&mut self.folded_conditions);
        self.b.remove_if_unused(&conditions);
    }

    /// `byval` parameters are copies the callee owns: make the copy on entry, so that writes
    /// to the parameter do not reach the caller's object.
    fn copy_byval_params(&mut self) {
        let f = self.f;
        for p in &f.parameters {
            let Some(ty) = p.attributes.iter().find_map(|a| match a {
                ParameterAttribute::ByVal(t) => Some(t),
                _ => None,
            }) else {
                continue;
            };
            let Some(&arg) = self.values.get(&p.name) else { continue };
            let result = self.copy_object(arg, ty);
            match result {
                Ok(copy) => {
                    self.values.insert(&p.name, copy);
                }
                Err(e) => self.unsupported(e.describe("byval parameter")),
            }
        }
    }

    /// Calls returning an aggregate pass a result buffer: one per call site, allocated on
    /// entry so that a call in a loop does not grow the stack.
    fn allocate_call_buffers(&mut self) {
        let f = self.f;
        for inst in f.basic_blocks.iter().flat_map(|bb| &bb.instrs) {
            let Instruction::Call(c) = inst else { continue };
            let fixed = callee_name(c).and_then(|n| self.cx.defined_variadic.get(n).copied());
            if let Some(size) = fixed.and_then(|fixed| self.vararg_area_size(c, fixed)).filter(|&s| s > 0) {
                if let Ok(size) = u32::try_from(size) {
                    let area = self.b.alloca(size, 16);
                    self.vararg_buffers.insert(c as *const Call, area);
                }
            }
            let (Some(dest), LType::FuncType { result_type, .. }) = (&c.dest, c.function_ty.as_ref()) else {
                continue;
            };
            if callee_name(c).is_some_and(|n| n.starts_with("llvm.")) || self.cx.leaves(result_type).is_none() {
                continue;
            }
            if let Some(layout) = self.cx.info.layout(result_type) {
                if let Ok(size) = u32::try_from(layout.size) {
                    let buffer = self.b.alloca(size, layout.align);
                    self.call_buffers.insert(dest, buffer);
                }
            }
        }
    }

    /// A fresh stack copy of the object of type `ty` at `addr`.
    fn copy_object(&mut self, addr: Value, ty: &llvm_ir::Type) -> LResult<Value> {
        let layout = self.cx.info.layout(ty).ok_or_else(|| Unsup::msg("byval parameter of an unsized type"))?;
        let size = u32::try_from(layout.size).map_err(|_| Unsup::msg("byval parameter larger than 4 GiB"))?;
        let copy = self.b.alloca(size, layout.align);
        let len = self.b.iconst(Type::I64, layout.size);
        self.libc_memcpy("memcpy", copy, addr, len)?;
        Ok(copy)
    }

    /// Reverse postorder from the entry, then the unreachable blocks in LLVM order; and which
    /// blocks are reachable.
    fn block_order(&self) -> (Vec<usize>, Vec<bool>) {
        let blocks = &self.f.basic_blocks;
        let n = blocks.len();
        let mut reachable = vec![false; n];
        let mut postorder = Vec::with_capacity(n);
        let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![(0, self.successors(0), 0)];
        reachable[0] = true;
        while let Some((b, succs, i)) = stack.last_mut() {
            if *i < succs.len() {
                let s = succs[*i];
                *i += 1;
                if !reachable[s] {
                    reachable[s] = true;
                    let next = self.successors(s);
                    stack.push((s, next, 0));
                }
            } else {
                postorder.push(*b);
                stack.pop();
            }
        }
        let mut order: Vec<usize> = postorder.into_iter().rev().collect();
        order.extend((0..n).filter(|&i| !reachable[i]));
        (order, reachable)
    }

    /// The blocks block `i` may branch to, by index.
    pub(super) fn successors(&self, i: usize) -> Vec<usize> {
        let names: Vec<&Name> = match &self.f.basic_blocks[i].term {
            Terminator::Br(b) => vec![&b.dest],
            Terminator::CondBr(c) => vec![&c.true_dest, &c.false_dest],
            Terminator::Switch(s) => std::iter::once(&s.default_dest).chain(s.dests.iter().map(|(_, n)| n)).collect(),
            Terminator::IndirectBr(b) => b.possible_dests.iter().collect(),
            Terminator::Invoke(inv) => vec![&inv.return_label, &inv.exception_label],
            Terminator::CallBr(c) => vec![&c.return_label],
            _ => Vec::new(),
        };
        names.into_iter().filter_map(|n| self.block_index.get(n).copied()).collect()
    }

    fn lower_block(&mut self, i: usize) {
        let bb = &self.f.basic_blocks[i];
        let own = OwnFile::of(self.f, &self.cx.llvm.source_file_name);
        let srcloc = |d: &Option<DebugLoc>| srcloc(d, own);
        self.current = i;
        let start = if i == 0 { self.entry_cursor.unwrap_or(self.ir_blocks[0]) } else { self.ir_blocks[i] };
        self.b.switch_to_block(start);
        // Instructions without a location (allocas, phis) take the block's first location.
        // A block without any location keeps the previous one rather than claiming line 0.
        let first = bb
            .instrs
            .iter()
            .filter(|inst| !is_debug_intrinsic(inst))
            .map(|inst| inst.get_debug_loc())
            .chain([bb.term.get_debug_loc()])
            .find_map(&srcloc);
        if let Some(loc) = first {
            self.b.set_srcloc(loc);
        }
        if let Some(phi) = phis(bb).find(|p| ir_type(&p.to_type).is_err() && self.cx.leaves(&p.to_type).is_none()) {
            if let Some(loc) = srcloc(&phi.debugloc) {
                self.b.set_srcloc(loc);
            }
            let why = ir_type(&phi.to_type).err().unwrap_or_else(|| Unsup::msg("phi"));
            self.unsupported(why.describe("phi"));
        }
        for inst in &bb.instrs {
            if matches!(inst, Instruction::Phi(_)) || is_debug_intrinsic(inst) {
                continue;
            }
            if let Some(loc) = srcloc(inst.get_debug_loc()) {
                self.b.set_srcloc(loc);
            }
            if let Err(e) = self.lower_inst(inst) {
                let what = describe(self.cx.llvm, inst);
                self.unsupported(e.describe(&what));
                if let Some(dest) = inst.try_get_result() {
                    let ty = result_type(self.cx.llvm, inst);
                    if let Some(leaves) = ty.as_ref().and_then(|t| self.cx.leaves(t)) {
                        let zeros = self.zero_leaves(&leaves);
                        self.aggregates.insert(dest, zeros);
                    }
                    let placeholder = self.b.iconst(ty.map_or(Type::I64, |t| stand_in(&t)), 0);
                    self.values.insert(dest, placeholder);
                }
            }
        }
        if let Some(loc) = srcloc(bb.term.get_debug_loc()) {
            self.b.set_srcloc(loc);
        }
        if let Err(e) = self.lower_terminator(&bb.term) {
            let msg = self.cx.message(e.describe(&describe_terminator(&bb.term)));
            self.b.unsupported(msg);
        }
    }

    /// Ends the current block with `unsupported` and continues in a fresh, unreachable block.
    pub(super) fn unsupported(&mut self, message: String) {
        let msg = self.cx.message(message);
        self.b.unsupported(msg);
        self.continue_in_fresh_block();
    }

    /// After a terminator in the middle of an LLVM block: the rest goes into a new block.
    pub(super) fn continue_in_fresh_block(&mut self) {
        let dead = self.b.create_block();
        self.b.switch_to_block(dead);
    }

    /// Records the IR value of an LLVM result.
    pub(super) fn define(&mut self, name: &'m Name, value: Value) {
        self.values.insert(name, value);
    }

    /// The IR value of an operand, of exactly the IR type of its LLVM type.
    pub(super) fn operand(&mut self, op: &'m Operand) -> LResult<Value> {
        match op {
            Operand::LocalOperand { name, ty } => {
                let want = ir_type(ty)?;
                match self.values.get(name) {
                    Some(&v) if self.b.body().value_type(v) == want => Ok(v),
                    _ => {
                        self.note_missing(name);
                        Ok(self.b.iconst(want, 0))
                    }
                }
            }
            Operand::ConstantOperand(c) => self.constant(c),
            Operand::MetadataOperand => Err(Unsup::msg("metadata operand")),
        }
    }

    /// A value used before it was lowered (or with another type): fine in code unreachable
    /// from the entry, a frontend bug elsewhere.
    pub(super) fn note_missing(&mut self, name: &Name) {
        if self.reachable {
            self.missing.push(name.to_string());
        }
    }

    fn lower_terminator(&mut self, term: &'m Terminator) -> LResult<()> {
        match term {
            Terminator::Ret(r) => {
                let value = match (&r.return_operand, self.ret_buffer) {
                    (Some(op), Some(buffer)) => {
                        let ty = self.cx.llvm.types.type_of(op);
                        let leaves = self.leaves_of(&ty)?;
                        let values = self.aggregate(op)?;
                        self.store_leaves(&leaves, &values, buffer);
                        None
                    }
                    (Some(op), None) => Some(self.operand(op)?),
                    (None, _) => None,
                };
                self.b.ret(value);
            }
            Terminator::Br(br) => {
                let dest = self.dest(&br.dest)?;
                let inst = crate::ir::InstData::Jump { dest };
                self.b.ins(inst, None);
            }
            Terminator::CondBr(c) => {
                if self.fold_change(c)? {
                    return Ok(());
                }
                let cond = self.operand(&c.condition)?;
                let then_dest = self.dest(&c.true_dest)?;
                let else_dest = self.dest(&c.false_dest)?;
                self.b.brif(cond, then_dest, else_dest);
            }
            Terminator::Switch(s) => {
                let arg = self.operand(&s.operand)?;
                let ty = self.b.body().value_type(arg);
                let default = self.dest(&s.default_dest)?;
                let mut cases = Vec::with_capacity(s.dests.len());
                for (value, target) in &s.dests {
                    let v = match value.as_ref() {
                        llvm_ir::Constant::Int { value, .. } => value & ty.mask(),
                        _ => return Err(Unsup::msg("switch on a non-integer case value")),
                    };
                    let dest = self.dest(target)?;
                    cases.push((v, dest));
                }
                let table = self.b.jump_table(default, cases);
                self.b.switch(arg, table);
            }
            Terminator::Unreachable(_) => {
                self.b.unreachable();
            }
            Terminator::IndirectBr(_) => return Err(Unsup::msg("indirect branch (computed goto)")),
            Terminator::CallBr(_) => return Err(Unsup::msg("inline assembly (asm goto)")),
            Terminator::Invoke(_)
            | Terminator::Resume(_)
            | Terminator::CleanupRet(_)
            | Terminator::CatchRet(_)
            | Terminator::CatchSwitch(_) => return Err(Unsup::msg("exception handling")),
        }
        Ok(())
    }

    /// The index of the LLVM block called `name`.
    pub(super) fn block_of(&self, name: &Name) -> Option<usize> {
        self.block_index.get(name).copied()
    }

    /// The IR block of LLVM block `i`.
    pub(super) fn ir_block(&self, i: usize) -> Block {
        self.ir_blocks[i]
    }

    /// Lowers LLVM block `i`, which only the current block enters, into the current IR block
    /// (after it, instead of behind a jump): `i`'s own IR block leaves the function.
    pub(super) fn continue_block_as(&mut self, i: usize) {
        self.b.remove_block(self.ir_blocks[i]);
        self.ir_blocks[i] = self.b.current_block().expect("lowering a block");
    }

    /// A destination for the edge from the current LLVM block to `target`, passing the
    /// incoming values of `target`'s phis. Phis of a type the IR lacks (vectors) get a 0
    /// stand-in: their block begins with `unsupported`.
    fn dest(&mut self, target: &Name) -> LResult<Dest> {
        let &index = self.block_index.get(target).ok_or_else(|| Unsup::msg("branch to an unknown block"))?;
        let f = self.f;
        let from = &f.basic_blocks[self.current].name;
        let mut args = Vec::new();
        for phi in phis(&f.basic_blocks[index]) {
            let incoming = phi.incoming_values.iter().find(|(_, block)| block == from);
            if let Some(leaves) = self.cx.leaves(&phi.to_type) {
                let values = match incoming {
                    Some((op, _)) => self.aggregate(op)?,
                    None => self.zero_leaves(&leaves),
                };
                args.extend(values);
                continue;
            }
            let arg = match (incoming, ir_type(&phi.to_type)) {
                (Some((op, _)), Ok(_)) => self.operand(op)?,
                (_, ty) => {
                    let ty = ty.unwrap_or(Type::I64);
                    self.b.iconst(ty, 0)
                }
            };
            args.push(arg);
        }
        Ok(self.b.dest(self.ir_blocks[index], &args))
    }
}

/// `llvm.dbg.*` calls: no code, and no meaningful location.
pub(super) fn is_debug_intrinsic(inst: &Instruction) -> bool {
    match inst {
        Instruction::Call(c) => callee_name(c).is_some_and(|n| n.starts_with("llvm.dbg.")),
        _ => false,
    }
}

fn describe_terminator(term: &Terminator) -> String {
    match term {
        Terminator::Ret(_) => "ret",
        Terminator::Br(_) => "br",
        Terminator::CondBr(_) => "br",
        Terminator::Switch(_) => "switch",
        Terminator::Unreachable(_) => "unreachable",
        _ => "terminator",
    }
    .to_string()
}
