//! [`FunctionBuilder`]: the one way to add blocks, values and instructions to a [`Body`].
//! Constants and addresses are interned per body, so `iconst(I32, 7)` twice is one value.

use super::entities::{Block, Dest, Func, Global, Inst, JumpTable, Msg, Value};
use super::function::{Body, SrcLoc, ValueData, ValueDef};
use super::instructions::{
    BinaryOp, CastOp, DestData, FCastOp, FUnaryOp, FloatCC, FloatOp, InstData, IntCC, JumpTableData, ValueList, Version,
};
use super::types::{Type, PTR};
use rustc_hash::FxHashMap;

/// Appends to a body, at the end of the current block, with the current source location.
pub struct FunctionBuilder<'a> {
    body: &'a mut Body,
    current: Option<Block>,
    srcloc: SrcLoc,
    interned: FxHashMap<ValueData, Value>,
}

impl<'a> FunctionBuilder<'a> {
    pub fn new(body: &'a mut Body) -> Self {
        let interned = body
            .values
            .iter()
            .filter(|(_, d)| !matches!(d.def, ValueDef::Result(_) | ValueDef::Param(..)))
            .map(|(v, d)| (*d, v))
            .collect();
        FunctionBuilder { body, current: None, srcloc: SrcLoc::default(), interned }
    }

    pub fn body(&self) -> &Body {
        self.body
    }

    /// Creates a block and appends it to the layout (the first block created is the entry).
    pub fn create_block(&mut self) -> Block {
        let block = self.body.blocks.push(Default::default());
        self.body.layout.append_block(block);
        block
    }

    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        let index = self.body.blocks[block].params.len(&self.body.value_lists) as u32;
        let value = self.body.values.push(ValueData { ty, def: ValueDef::Param(block, index) });
        self.body.blocks[block].params.push(value, &mut self.body.value_lists);
        value
    }

    /// Takes `block`, which nothing branches to, out of the function.
    pub fn remove_block(&mut self, block: Block) {
        self.body.layout.remove_block(block);
    }

    /// Removes the instructions defining `values` if nothing uses them and they can neither
    /// fail nor have an effect (comparisons, casts, `execute`, arithmetic that cannot trap),
    /// then the instructions that made their operands, and so on.
    pub fn remove_if_unused(&mut self, values: &[Value]) {
        let body = &mut *self.body;
        let mut uses: FxHashMap<Value, u32> = FxHashMap::default();
        for &b in body.layout.blocks() {
            for &i in body.layout.block_insts(b) {
                for v in body.inst_args(i) {
                    *uses.entry(v).or_default() += 1;
                }
            }
        }
        let mut work = values.to_vec();
        while let Some(v) = work.pop() {
            let ValueDef::Result(inst) = body.values[v].def else { continue };
            if uses.get(&v).copied().unwrap_or(0) > 0 {
                continue;
            }
            let removable = match &body.insts[inst] {
                InstData::Icmp { .. } | InstData::Cast { .. } | InstData::Execute { .. } => true,
                InstData::Binary { op, .. } => !op.is_division() && !op.is_shift(),
                _ => false,
            };
            let Some(&block) = body.layout.blocks().iter().find(|&&b| body.layout.block_insts(b).contains(&inst))
            else {
                continue;
            };
            if !removable {
                continue;
            }
            for a in body.inst_args(inst) {
                if let Some(n) = uses.get_mut(&a) {
                    *n -= 1;
                }
                work.push(a);
            }
            body.layout.remove_inst(block, inst);
        }
    }

    pub fn switch_to_block(&mut self, block: Block) {
        self.current = Some(block);
    }

    pub fn current_block(&self) -> Option<Block> {
        self.current
    }

    /// The source location given to the instructions appended from now on.
    pub fn set_srcloc(&mut self, srcloc: SrcLoc) {
        self.srcloc = srcloc;
    }

    fn intern(&mut self, data: ValueData) -> Value {
        if let Some(&v) = self.interned.get(&data) {
            return v;
        }
        let v = self.body.values.push(data);
        self.interned.insert(data, v);
        v
    }

    /// An integer constant; `value` is masked to the type. (For a floating-point type, the
    /// constant with these bits: 0 is +0.0.)
    pub fn iconst(&mut self, ty: Type, value: u64) -> Value {
        if ty.is_float() {
            return self.fconst(ty, u128::from(value));
        }
        self.intern(ValueData { ty, def: ValueDef::Const(value & ty.mask()) })
    }

    /// A floating-point constant of type `ty` from its bits (the low 32, 64 or 80 of `bits`).
    pub fn fconst(&mut self, ty: Type, bits: u128) -> Value {
        debug_assert!(ty.is_float());
        let def = match ty {
            Type::F80 => ValueDef::ConstF80 { hi: (bits >> 64) as u16, lo: bits as u64 },
            _ => ValueDef::Const(bits as u64 & ty.mask()),
        };
        self.intern(ValueData { ty, def })
    }

    pub fn global_addr(&mut self, global: Global) -> Value {
        self.intern(ValueData { ty: PTR, def: ValueDef::GlobalAddr(global) })
    }

    pub fn func_addr(&mut self, func: Func) -> Value {
        self.intern(ValueData { ty: PTR, def: ValueDef::FuncAddr(func) })
    }

    pub fn value_list(&mut self, values: &[Value]) -> ValueList {
        ValueList::from_slice(values, &mut self.body.value_lists)
    }

    pub fn dest(&mut self, block: Block, args: &[Value]) -> Dest {
        let args = self.value_list(args);
        self.body.dests.push(DestData { block, args })
    }

    pub fn jump_table(&mut self, default: Dest, cases: Vec<(u64, Dest)>) -> JumpTable {
        self.body.jump_tables.push(JumpTableData { default, cases })
    }

    /// Appends `data` to the current block, with a result of type `result` if given.
    ///
    /// # Panics
    /// If no block is current: a builder bug, never input-dependent.
    pub fn ins(&mut self, data: InstData, result: Option<Type>) -> (Inst, Option<Value>) {
        let block = self.current.expect("FunctionBuilder::ins without a current block");
        let inst = self.body.insts.push(data);
        self.body.srclocs[inst] = self.srcloc;
        self.body.layout.append_inst(block, inst);
        let value = result.map(|ty| {
            let v = self.body.values.push(ValueData { ty, def: ValueDef::Result(inst) });
            self.body.results[inst] = Some(v);
            v
        });
        (inst, value)
    }

    fn ins_value(&mut self, data: InstData, ty: Type) -> Value {
        let (_, v) = self.ins(data, Some(ty));
        v.expect("result requested")
    }

    pub fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        let ty = self.body.value_type(a);
        self.ins_value(InstData::Binary { op, args: [a, b] }, ty)
    }

    pub fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.ins_value(InstData::Icmp { cc, args: [a, b] }, Type::I1)
    }

    /// A width conversion; returns `arg` itself when it already has type `to`.
    pub fn cast(&mut self, op: CastOp, arg: Value, to: Type) -> Value {
        if self.body.value_type(arg) == to {
            return arg;
        }
        self.ins_value(InstData::Cast { op, arg }, to)
    }

    pub fn fbinary(&mut self, op: FloatOp, a: Value, b: Value) -> Value {
        let ty = self.body.value_type(a);
        self.ins_value(InstData::FBinary { op, args: [a, b] }, ty)
    }

    pub fn funary(&mut self, op: FUnaryOp, arg: Value) -> Value {
        let ty = self.body.value_type(arg);
        self.ins_value(InstData::FUnary { op, arg }, ty)
    }

    pub fn fma(&mut self, a: Value, b: Value, c: Value) -> Value {
        let ty = self.body.value_type(a);
        self.ins_value(InstData::Fma { args: [a, b, c] }, ty)
    }

    pub fn fcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        self.ins_value(InstData::Fcmp { cc, args: [a, b] }, Type::I1)
    }

    /// A conversion involving floating point; returns `arg` itself when it already has type `to`.
    pub fn fcast(&mut self, op: FCastOp, arg: Value, to: Type) -> Value {
        if self.body.value_type(arg) == to {
            return arg;
        }
        self.ins_value(InstData::FCast { op, arg }, to)
    }

    pub fn select(&mut self, cond: Value, a: Value, b: Value) -> Value {
        let ty = self.body.value_type(a);
        self.ins_value(InstData::Select { args: [cond, a, b] }, ty)
    }

    pub fn load(&mut self, ty: Type, addr: Value) -> Value {
        self.ins_value(InstData::Load { addr }, ty)
    }

    pub fn store(&mut self, addr: Value, value: Value) -> Inst {
        self.ins(InstData::Store { addr, value }, None).0
    }

    pub fn alloca(&mut self, size: u32, align: u32) -> Value {
        self.ins_value(InstData::Alloca { size, align }, PTR)
    }

    pub fn dyn_alloca(&mut self, bytes: Value) -> Value {
        self.ins_value(InstData::DynAlloca { bytes }, PTR)
    }

    pub fn call(&mut self, func: Func, args: &[Value], ret: Option<Type>) -> (Inst, Option<Value>) {
        let args = self.value_list(args);
        self.ins(InstData::Call { func, args }, ret)
    }

    /// Calls the function whose address is `callee`.
    pub fn call_indirect(&mut self, callee: Value, args: &[Value], ret: Option<Type>) -> (Inst, Option<Value>) {
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(callee);
        all.extend_from_slice(args);
        let args = self.value_list(&all);
        self.ins(InstData::CallIndirect { args }, ret)
    }

    pub fn change(&mut self, old: Value, new: Value) -> Value {
        let ty = self.body.value_type(old);
        self.ins_value(InstData::Change { args: [old, new] }, ty)
    }

    pub fn execute(&mut self, version: Version) -> Value {
        self.ins_value(InstData::Execute { version }, Type::I1)
    }

    pub fn make_symbolic(&mut self, addr: Value, size: Value, name: Value, float: Option<Type>) -> Inst {
        self.ins(InstData::MakeSymbolic { args: [addr, size, name], float }, None).0
    }

    pub fn assume(&mut self, cond: Value) -> Inst {
        self.ins(InstData::Assume { cond }, None).0
    }

    pub fn assert(&mut self, cond: Value) -> Inst {
        self.ins(InstData::Assert { cond }, None).0
    }

    pub fn jump(&mut self, block: Block, args: &[Value]) -> Inst {
        let dest = self.dest(block, args);
        self.ins(InstData::Jump { dest }, None).0
    }

    pub fn brif(&mut self, cond: Value, then_dest: Dest, else_dest: Dest) -> Inst {
        self.ins(InstData::Brif { cond, then_dest, else_dest }, None).0
    }

    pub fn switch(&mut self, arg: Value, table: JumpTable) -> Inst {
        self.ins(InstData::Switch { arg, table }, None).0
    }

    pub fn ret(&mut self, value: Option<Value>) -> Inst {
        self.ins(InstData::Return { value }, None).0
    }

    pub fn unreachable(&mut self) -> Inst {
        self.ins(InstData::Unreachable, None).0
    }

    pub fn unsupported(&mut self, msg: Msg) -> Inst {
        self.ins(InstData::Unsupported { msg }, None).0
    }
}
