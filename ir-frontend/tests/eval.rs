//! A tiny evaluator for IR functions (integer arithmetic, comparisons, casts, selects,
//! branches, block parameters, `change`, stack memory, direct calls and `memcpy`): enough to
//! check that the frontend's expansions (bit-counting intrinsics, overflow checks, odd-width
//! integers, struct returns, variable arguments) compute what C computes, without the
//! engine. Globals, other external calls and everything else make it give up (`None`).

use penumbra_ir::{BinaryOp, Body, CastOp, InstData, IntCC, Module, Type, Value, ValueDef};
use std::collections::BTreeMap;

/// Byte-addressed memory for stack objects, allocated upwards from a fixed base.
#[derive(Default)]
struct Memory {
    bytes: BTreeMap<u64, u8>,
    next: u64,
}

impl Memory {
    fn alloc(&mut self, size: u64) -> u64 {
        if self.next == 0 {
            self.next = 0x1000;
        }
        let addr = self.next;
        self.next += size.div_ceil(16) * 16 + 16;
        // Fresh stack memory reads as zero here (C leaves it indeterminate).
        self.store_bytes(addr, size, 0);
        addr
    }

    fn load(&self, addr: u64, n: u32) -> Option<u64> {
        let mut v = 0u64;
        for i in (0..u64::from(n)).rev() {
            v = (v << 8) | u64::from(*self.bytes.get(&(addr + i))?);
        }
        Some(v)
    }

    fn store_bytes(&mut self, addr: u64, n: u64, byte: u8) {
        for i in 0..n {
            self.bytes.insert(addr + i, byte);
        }
    }

    fn store(&mut self, addr: u64, n: u32, v: u64) {
        for i in 0..u64::from(n) {
            self.bytes.insert(addr + i, (v >> (8 * i)) as u8);
        }
    }
}

/// Which side `change(old, new)` takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    Old,
    New,
}

/// Runs the function `name` on `args` (raw bits, masked to each parameter's width); returns
/// its result, or `None` if it does something this evaluator does not model or a checked
/// error (division by zero, shift too far).
pub fn run(module: &Module, name: &str, args: &[u64], side: Side) -> Option<u64> {
    call(module, name, args, side, &mut Memory::default(), 0)
}

fn call(module: &Module, name: &str, args: &[u64], side: Side, mem: &mut Memory, depth: u32) -> Option<u64> {
    if depth > 100 {
        return None;
    }
    if name == "memcpy" || name == "memmove" {
        let bytes: Vec<u64> = (0..args[2]).map(|i| mem.load(args[1] + i, 1)).collect::<Option<_>>()?;
        for (i, b) in bytes.into_iter().enumerate() {
            mem.store(args[0] + i as u64, 1, b);
        }
        return Some(args[0]);
    }
    if name == "memset" {
        mem.store_bytes(args[0], args[2], args[1] as u8);
        return Some(args[0]);
    }
    let f = &module.funcs[module.func_by_name(name)?];
    let body = f.body.as_ref()?;
    let mut env: Vec<Option<u64>> = vec![None; body.values.len()];
    let mut block = body.layout.entry_block()?;
    for (&p, &a) in body.block_params(block).iter().zip(args) {
        env[index(p)] = Some(a & body.value_type(p).mask());
    }
    for _step in 0..1_000_000 {
        let mut next = None;
        for &inst in body.layout.block_insts(block) {
            let get = |v: Value, env: &[Option<u64>]| value(body, env, v);
            let result = match &body.insts[inst] {
                InstData::Binary { op, args: [a, b] } => {
                    let ty = body.value_type(*a);
                    binary(*op, ty, get(*a, &env)?, get(*b, &env)?)?
                }
                InstData::Icmp { cc, args: [a, b] } => {
                    let ty = body.value_type(*a);
                    u64::from(compare(*cc, ty, get(*a, &env)?, get(*b, &env)?))
                }
                InstData::Cast { op, arg } => {
                    let from = body.value_type(*arg);
                    let x = get(*arg, &env)?;
                    match op {
                        CastOp::Sext => from.sign_extend(x) as u64,
                        CastOp::Zext | CastOp::Trunc => x,
                    }
                }
                InstData::Select { args: [c, a, b] } => {
                    if get(*c, &env)? != 0 {
                        get(*a, &env)?
                    } else {
                        get(*b, &env)?
                    }
                }
                InstData::Change { args: [old, new] } => match side {
                    Side::Old => get(*old, &env)?,
                    Side::New => get(*new, &env)?,
                },
                InstData::Jump { dest } => {
                    next = Some(*dest);
                    break;
                }
                InstData::Brif { cond, then_dest, else_dest } => {
                    next = Some(if get(*cond, &env)? != 0 { *then_dest } else { *else_dest });
                    break;
                }
                InstData::Switch { arg, table } => {
                    let x = get(*arg, &env)?;
                    let jt = &body.jump_tables[*table];
                    next = Some(jt.cases.iter().find(|(v, _)| *v == x).map_or(jt.default, |(_, d)| *d));
                    break;
                }
                InstData::Alloca { size, .. } => mem.alloc(u64::from(*size)),
                InstData::DynAlloca { bytes } => mem.alloc(get(*bytes, &env)?),
                InstData::Load { addr } => {
                    let ty = body.value_type(body.inst_result(inst)?);
                    mem.load(get(*addr, &env)?, ty.bytes())?
                }
                InstData::Store { addr, value } => {
                    let ty = body.value_type(*value);
                    mem.store(get(*addr, &env)?, ty.bytes(), get(*value, &env)?);
                    continue;
                }
                InstData::Call { func, args } => {
                    let values: Vec<u64> = body.list(*args).iter().map(|&a| get(a, &env)).collect::<Option<_>>()?;
                    let callee = &module.funcs[*func].name;
                    let r = call(module, callee, &values, side, mem, depth + 1)?;
                    match body.inst_result(inst) {
                        Some(_) => r,
                        None => continue,
                    }
                }
                InstData::Return { value } => return value.map_or(Some(0), |v| get(v, &env)),
                _ => return None,
            };
            let r = body.inst_result(inst)?;
            env[index(r)] = Some(result & body.value_type(r).mask());
        }
        let dest = next?;
        let args: Vec<u64> = body.dest_args(dest).iter().map(|&v| value(body, &env, v)).collect::<Option<_>>()?;
        block = body.dests[dest].block;
        for (&p, a) in body.block_params(block).iter().zip(args) {
            env[index(p)] = Some(a);
        }
    }
    None
}

fn index(v: Value) -> usize {
    use cranelift_entity::EntityRef;
    v.index()
}

fn value(body: &Body, env: &[Option<u64>], v: Value) -> Option<u64> {
    match body.value_def(v) {
        ValueDef::Const(c) => Some(c),
        ValueDef::Result(_) | ValueDef::Param(..) => env[index(v)],
        ValueDef::ConstF80 { .. } | ValueDef::GlobalAddr(_) | ValueDef::FuncAddr(_) => None,
    }
}

fn binary(op: BinaryOp, ty: Type, a: u64, b: u64) -> Option<u64> {
    let (sa, sb) = (ty.sign_extend(a), ty.sign_extend(b));
    let bits = u64::from(ty.bits());
    let min = ty.sign_extend(1 << (ty.bits() - 1));
    Some(match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::UDiv | BinaryOp::URem | BinaryOp::SDiv | BinaryOp::SRem if b == 0 => return None,
        BinaryOp::SDiv | BinaryOp::SRem if sa == min && sb == -1 => return None,
        BinaryOp::UDiv => a / b,
        BinaryOp::URem => a % b,
        BinaryOp::SDiv => (sa / sb) as u64,
        BinaryOp::SRem => (sa % sb) as u64,
        BinaryOp::And => a & b,
        BinaryOp::Or => a | b,
        BinaryOp::Xor => a ^ b,
        BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr if b >= bits => return None,
        BinaryOp::Shl => a << b,
        BinaryOp::LShr => a >> b,
        BinaryOp::AShr => (sa >> b) as u64,
    })
}

fn compare(cc: IntCC, ty: Type, a: u64, b: u64) -> bool {
    let (sa, sb) = (ty.sign_extend(a), ty.sign_extend(b));
    match cc {
        IntCC::Eq => a == b,
        IntCC::Ne => a != b,
        IntCC::Ult => a < b,
        IntCC::Ule => a <= b,
        IntCC::Ugt => a > b,
        IntCC::Uge => a >= b,
        IntCC::Slt => sa < sb,
        IntCC::Sle => sa <= sb,
        IntCC::Sgt => sa > sb,
        IntCC::Sge => sa >= sb,
    }
}
