//! Random well-typed IR programs: a loop of arithmetic (integer and `float`/`double`),
//! memory accesses at random offsets, library calls with random pointers, casts and
//! conversions, selects, checks, `change` operations and symbolic objects. Every program verifies (the builder checks it) and terminates (the loop
//! runs at most 20 times and nothing else jumps backwards).
//!
//! Each `make_symbolic` site names its object `symK` (K = the site's number) and the generator
//! picks the bytes it holds ([`Generated::inputs`]), so a concrete run and a symbolic run can be
//! given the same inputs. With `pin_inputs`, every byte of a symbolic object is confined right
//! after its creation to that value by an `assume`, so the symbolic engine has exactly one
//! feasible path: the concrete one (the `fixed_inputs` target).
//!
//! Used by the engine's determinism test (`engine/tests/random_programs.rs`, on a fixed-seed
//! stream) and by the fuzz target (on the fuzzer's bytes).

use crate::build::{line, ModuleBuilder};
use crate::source::Source;
use penumbra_ir::{
    BinaryOp, CastOp, FCastOp, FUnaryOp, FloatCC, FloatOp, Func, FunctionBuilder, Global, IntCC, Module, Type, Value,
    PTR,
};
use std::collections::BTreeMap;

/// A generated program and the bytes of each of its symbolic objects, by name.
pub struct Generated {
    pub module: Module,
    pub inputs: BTreeMap<String, Vec<u8>>,
}

/// Mostly small values, sometimes edge values.
fn constant(rng: &mut impl Source, ty: Type) -> u64 {
    let edges = [0, 1, ty.mask(), ty.mask() >> 1, (ty.mask() >> 1) + 1, 2, 7, 31, 32, 63, 64];
    if rng.below(3) == 0 {
        rng.next_u64() & ty.mask()
    } else {
        *rng.pick(&edges) & ty.mask()
    }
}

const TYPES: [Type; 5] = [Type::I1, Type::I8, Type::I16, Type::I32, Type::I64];

/// The floating-point types (`F80`: the x87's `long double`).
const FLOATS: [Type; 3] = [Type::F32, Type::F64, Type::F80];

/// Floats where arithmetic and conversions go wrong: zeros, NaNs (with a payload, signalling),
/// infinities, the smallest subnormal, integers at the edges of `int`, halves, 0.1.
const FLOAT_EDGES: [f64; 14] = [
    0.0,
    -0.0,
    1.0,
    -1.5,
    0.1,
    2.5,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    5e-324,
    2147483647.0,
    -2147483648.5,
    1e300,
    255.75,
];

/// The values of each type defined so far (in the loop body, so all dominate what follows).
struct Pools {
    by_type: [Vec<Value>; 8],
}

impl Pools {
    fn of(&mut self, ty: Type) -> &mut Vec<Value> {
        let i = TYPES.iter().chain(&FLOATS).position(|&t| t == ty).unwrap();
        &mut self.by_type[i]
    }

    fn pick(&mut self, rng: &mut impl Source, ty: Type) -> Value {
        *rng.pick(self.of(ty))
    }
}

struct Libc {
    strlen: Func,
    malloc: Func,
    free: Func,
    memset: Func,
    printf: Func,
}

/// What a random instruction may refer to.
struct Ctx<'a> {
    libc: Libc,
    fmt: Global,
    stack: Value,
    gaddr: Value,
    pin_inputs: bool,
    inputs: &'a mut BTreeMap<String, Vec<u8>>,
}

/// A random program from `rng`'s choices (see the module documentation).
pub fn random_program(rng: &mut impl Source, pin_inputs: bool) -> Generated {
    let mut mb = ModuleBuilder::new();
    let g = mb.global("g", &[1, 2, 3, 0, 5, 6, 7, 0], false);
    let fmt = mb.string("s", "%d %x %s\n");
    // Symbolic-object names, made up front: globals cannot be added inside `main`'s builder.
    let names: Vec<Global> = (0..8).map(|k| mb.string(&format!("name{k}"), &format!("sym{k}"))).collect();
    let libc = Libc {
        strlen: mb.declare("strlen", &[PTR], Some(Type::I64)),
        malloc: mb.declare("malloc", &[Type::I64], Some(PTR)),
        free: mb.declare("free", &[PTR], None),
        memset: mb.declare("memset", &[PTR, Type::I32, Type::I64], Some(PTR)),
        printf: mb.declare_varargs("printf", &[PTR], Some(Type::I32)),
    };
    let mut inputs = BTreeMap::new();
    mb.main(|b, _| {
        let body = b.create_block();
        let counter = b.append_block_param(body, Type::I32);
        let carried = b.append_block_param(body, Type::I64);
        let exit = b.create_block();
        let result = b.append_block_param(exit, Type::I32);
        let stack = b.alloca(16, 8);
        let zero = b.iconst(Type::I32, 0);
        let seed_value = b.iconst(Type::I64, constant(rng, Type::I64));
        b.jump(body, &[zero, seed_value]);

        b.switch_to_block(body);
        let mut pools = Pools { by_type: Default::default() };
        pools.of(Type::I32).push(counter);
        pools.of(PTR).extend([carried, stack]);
        let gaddr = b.global_addr(g);
        pools.of(PTR).push(gaddr);
        for ty in TYPES {
            let c = b.iconst(ty, constant(rng, ty));
            pools.of(ty).push(c);
        }
        for ty in FLOATS {
            let x = *rng.pick(&FLOAT_EDGES);
            let bits = float_bits(ty, x);
            let c = b.fconst(ty, bits);
            pools.of(ty).push(c);
        }
        let mut ctx = Ctx { libc, fmt, stack, gaddr, pin_inputs, inputs: &mut inputs };
        for i in 0..rng.below(24) + 2 {
            line(b, i as u32 + 2);
            random_instruction(b, rng, &mut pools, &mut ctx, &names);
        }
        let one = b.iconst(Type::I32, 1);
        let next = b.binary(BinaryOp::Add, counter, one);
        let limit = b.iconst(Type::I32, rng.below(20) + 1);
        let done = b.icmp(IntCC::Sge, next, limit);
        let out = pools.pick(rng, Type::I32);
        let carry = pools.pick(rng, PTR);
        let to_exit = b.dest(exit, &[out]);
        let again = b.dest(body, &[next, carry]);
        b.brif(done, to_exit, again);

        b.switch_to_block(exit);
        b.ret(Some(result));
    });
    Generated { module: mb.finish(), inputs }
}

/// A pointer near one of the objects (in bounds, in a redzone, or wild), or a pool value.
fn pointer(b: &mut FunctionBuilder, rng: &mut impl Source, pools: &mut Pools, ctx: &Ctx) -> Value {
    let base = match rng.below(4) {
        0 => ctx.stack,
        1 => ctx.gaddr,
        _ => pools.pick(rng, PTR),
    };
    // Mostly inside the 8 bytes every base object has, sometimes around them.
    let off = if rng.below(4) == 0 { rng.below(48) as i64 - 24 } else { rng.below(8) as i64 };
    let off = b.iconst(PTR, off as u64);
    b.binary(BinaryOp::Add, base, off)
}

fn random_instruction(
    b: &mut FunctionBuilder,
    rng: &mut impl Source,
    pools: &mut Pools,
    ctx: &mut Ctx,
    names: &[Global],
) {
    let ty = *rng.pick(&TYPES);
    match rng.below(16) {
        14 | 15 => float_instruction(b, rng, pools),
        0..=4 => {
            let op = *rng.pick(&BinaryOp::ALL);
            let x = pools.pick(rng, ty);
            // Divisors and shift amounts are mostly safe constants, so more programs finish.
            let y = match (op.is_division(), op.is_shift(), rng.below(4)) {
                (true, _, 0..=2) => b.iconst(ty, rng.below(5) + 2),
                (_, true, 0..=2) => b.iconst(ty, rng.below(u64::from(ty.bits()))),
                _ => pools.pick(rng, ty),
            };
            let v = b.binary(op, x, y);
            pools.of(ty).push(v);
        }
        5 => {
            let cc = *rng.pick(&IntCC::ALL);
            let (x, y) = (pools.pick(rng, ty), pools.pick(rng, ty));
            let v = b.icmp(cc, x, y);
            pools.of(Type::I1).push(v);
        }
        6 => {
            let to = *rng.pick(&TYPES);
            let x = pools.pick(rng, ty);
            let op = if to.bits() > ty.bits() {
                if rng.below(2) == 0 {
                    CastOp::Zext
                } else {
                    CastOp::Sext
                }
            } else {
                CastOp::Trunc
            };
            let v = b.cast(op, x, to);
            pools.of(to).push(v);
        }
        7 => {
            let c = pools.pick(rng, Type::I1);
            let (x, y) = (pools.pick(rng, ty), pools.pick(rng, ty));
            let v = b.select(c, x, y);
            pools.of(ty).push(v);
        }
        8 => {
            let p = pointer(b, rng, pools, ctx);
            let v = b.load(ty, p);
            pools.of(ty).push(v);
        }
        9 => {
            let p = pointer(b, rng, pools, ctx);
            let v = pools.pick(rng, ty);
            b.store(p, v);
        }
        10 => {
            let p = pointer(b, rng, pools, ctx);
            match rng.below(5) {
                0 => {
                    let (_, v) = b.call(ctx.libc.strlen, &[p], Some(Type::I64));
                    pools.of(Type::I64).push(v.unwrap());
                }
                1 => {
                    let n = b.iconst(Type::I64, rng.below(32));
                    let (_, v) = b.call(ctx.libc.malloc, &[n], Some(PTR));
                    pools.of(PTR).push(v.unwrap());
                }
                2 => {
                    let q = pools.pick(rng, PTR);
                    b.call(ctx.libc.free, &[q], None);
                }
                3 => {
                    let c = pools.pick(rng, Type::I32);
                    let n = b.iconst(Type::I64, rng.below(24));
                    b.call(ctx.libc.memset, &[p, c, n], Some(PTR));
                }
                _ => {
                    let f = b.global_addr(ctx.fmt);
                    let (x, y) = (pools.pick(rng, Type::I32), pools.pick(rng, Type::I32));
                    b.call(ctx.libc.printf, &[f, x, y, p], Some(Type::I32));
                }
            }
        }
        11 => make_symbolic(b, rng, pools, ctx, names),
        12 => {
            let c = pools.pick(rng, Type::I1);
            if rng.below(2) == 0 {
                b.assert(c);
            } else {
                b.assume(c);
            }
        }
        _ => {
            let old = pools.pick(rng, ty);
            let new = pools.pick(rng, ty);
            let v = b.change(old, new);
            pools.of(ty).push(v);
        }
    }
}

/// The bits of `x` in the format of `ty` (rounded to nearest).
fn float_bits(ty: Type, x: f64) -> u128 {
    use penumbra_solver::float::{convert, Format};
    let to = match ty {
        Type::F32 => Format::F32,
        Type::F64 => Format::F64,
        _ => Format::F80,
    };
    convert(Format::F64, to, u128::from(x.to_bits()))
}

/// A floating-point operation, conversion or comparison.
fn float_instruction(b: &mut FunctionBuilder, rng: &mut impl Source, pools: &mut Pools) {
    let ty = *rng.pick(&FLOATS);
    match rng.below(8) {
        5 if rng.below(4) == 0 => {
            // To an integer: out of range (often, from the edge values) an error in both engines,
            // so rarely, or most programs would end there.
            let to = *rng.pick(&[Type::I8, Type::I32, Type::I64]);
            let x = pools.pick(rng, ty);
            let op = if rng.below(2) == 0 { FCastOp::ToSi } else { FCastOp::ToUi };
            let v = b.fcast(op, x, to);
            pools.of(to).push(v);
        }
        0 | 1 | 5 => {
            let ops = [
                FloatOp::Add,
                FloatOp::Sub,
                FloatOp::Mul,
                FloatOp::Div,
                FloatOp::Copysign,
                FloatOp::Minnum,
                FloatOp::Maxnum,
            ];
            let (x, y) = (pools.pick(rng, ty), pools.pick(rng, ty));
            let v = if ty != Type::F80 && rng.below(8) == 0 {
                let z = pools.pick(rng, ty);
                b.fma(x, y, z)
            } else {
                b.fbinary(*rng.pick(&ops), x, y)
            };
            pools.of(ty).push(v);
        }
        2 => {
            let op = *rng.pick(&[FUnaryOp::Neg, FUnaryOp::Abs, FUnaryOp::Sqrt, FUnaryOp::Floor, FUnaryOp::Round]);
            let x = pools.pick(rng, ty);
            let v = b.funary(op, x);
            pools.of(ty).push(v);
        }
        3 => {
            let cc = *rng.pick(&FloatCC::ALL);
            let (x, y) = (pools.pick(rng, ty), pools.pick(rng, ty));
            let v = b.fcmp(cc, x, y);
            pools.of(Type::I1).push(v);
        }
        4 => {
            let from = *rng.pick(&TYPES);
            let x = pools.pick(rng, from);
            let op = if rng.below(2) == 0 { FCastOp::FromSi } else { FCastOp::FromUi };
            let v = b.fcast(op, x, ty);
            pools.of(ty).push(v);
        }
        6 => {
            let others: Vec<Type> = FLOATS.into_iter().filter(|&t| t != ty).collect();
            let other = *rng.pick(&others);
            let x = pools.pick(rng, other);
            let op = if other.bits() < ty.bits() { FCastOp::Ext } else { FCastOp::Trunc };
            let v = b.fcast(op, x, ty);
            pools.of(ty).push(v);
        }
        _ if ty == Type::F80 => {
            // No integer type of 80 bits here: the sign of a long double instead.
            let x = pools.pick(rng, ty);
            let v = b.funary(FUnaryOp::Neg, x);
            pools.of(ty).push(v);
        }
        _ => {
            // The bits of a float as an integer, or an integer's bits as a float.
            let int = if ty == Type::F32 { Type::I32 } else { Type::I64 };
            if rng.below(2) == 0 {
                let x = pools.pick(rng, ty);
                let v = b.fcast(FCastOp::Bitcast, x, int);
                pools.of(int).push(v);
            } else {
                let x = pools.pick(rng, int);
                let v = b.fcast(FCastOp::Bitcast, x, ty);
                pools.of(ty).push(v);
            }
        }
    }
}

/// A `make_symbolic` of up to 11 bytes at a random pointer, as the next `symK`, with its bytes
/// chosen now (every run of the site creates an object with these bytes); with `pin_inputs`,
/// one `assume(p[i] == byte)` per byte follows. Beyond eight sites, a load instead.
fn make_symbolic(b: &mut FunctionBuilder, rng: &mut impl Source, pools: &mut Pools, ctx: &mut Ctx, names: &[Global]) {
    let p = pointer(b, rng, pools, ctx);
    let k = ctx.inputs.len();
    if k == names.len() {
        let v = b.load(Type::I8, p);
        pools.of(Type::I8).push(v);
        return;
    }
    let len = rng.below(12) as usize;
    let bytes: Vec<u8> = (0..len).map(|_| constant(rng, Type::I8) as u8).collect();
    ctx.inputs.insert(format!("sym{k}"), bytes.clone());
    let n = b.iconst(Type::I64, len as u64);
    let nm = b.global_addr(names[k]);
    b.make_symbolic(p, n, nm, None);
    if ctx.pin_inputs {
        for (i, &byte) in bytes.iter().enumerate() {
            let off = b.iconst(PTR, i as u64);
            let at = b.binary(BinaryOp::Add, p, off);
            let v = b.load(Type::I8, at);
            let want = b.iconst(Type::I8, u64::from(byte));
            let same = b.icmp(IntCC::Eq, v, want);
            b.assume(same);
        }
    }
}
