//! Random well-typed IR programs (a bounded fuzz loop from a fixed seed): loops of arithmetic,
//! memory accesses at random offsets, library calls with random pointers, casts, selects and
//! checks. Every program must verify, run without panicking within the step budget, and give
//! the same result twice. 400 programs by default; `PENUMBRA_RANDOM_SEEDS=N` runs N (30,000
//! pass in about a second in release mode).

use crate::support::*;
use penumbra_engine::concrete::{Inputs, Outcome, Program, RunConfig};
use penumbra_ir::{BinaryOp, CastOp, Func, FunctionBuilder, IntCC, Module, Type, Value, PTR};

/// xorshift64*: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Mostly small values, sometimes edge values.
    fn constant(&mut self, ty: Type) -> u64 {
        let edges = [
            0,
            1,
            ty.mask(),
            ty.mask() >> 1,
            (ty.mask() >> 1) + 1,
            2,
            7,
            31,
            32,
            63,
            64,
        ];
        if self.below(3) == 0 {
            self.next() & ty.mask()
        } else {
            self.pick(&edges) & ty.mask()
        }
    }
}

const TYPES: [Type; 5] = [Type::I1, Type::I8, Type::I16, Type::I32, Type::I64];

struct Pools {
    by_type: [Vec<Value>; 5],
}

impl Pools {
    fn of(&mut self, ty: Type) -> &mut Vec<Value> {
        &mut self.by_type[TYPES.iter().position(|&t| t == ty).unwrap()]
    }
}

struct Libc {
    strlen: Func,
    malloc: Func,
    free: Func,
    memset: Func,
    printf: Func,
}

fn random_program(seed: u64) -> Module {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut mb = ModuleBuilder::new();
    let g = mb.global("g", &[1, 2, 3, 0, 5, 6, 7, 0], false);
    let s = mb.string("s", "%d %x %s\n");
    let name = mb.string("name", "sym");
    let libc = Libc {
        strlen: mb.declare("strlen", &[PTR], Some(Type::I64)),
        malloc: mb.declare("malloc", &[Type::I64], Some(PTR)),
        free: mb.declare("free", &[PTR], None),
        memset: mb.declare("memset", &[PTR, Type::I32, Type::I64], Some(PTR)),
        printf: mb.declare_varargs("printf", &[PTR], Some(Type::I32)),
    };
    mb.main(|b, _| {
        let body = b.create_block();
        let counter = b.append_block_param(body, Type::I32);
        let carried = b.append_block_param(body, Type::I64);
        let exit = b.create_block();
        let result = b.append_block_param(exit, Type::I32);
        let stack = b.alloca(16, 8);
        let zero = b.iconst(Type::I32, 0);
        let seed_value = b.iconst(Type::I64, rng.constant(Type::I64));
        b.jump(body, &[zero, seed_value]);

        b.switch_to_block(body);
        let mut pools = Pools {
            by_type: Default::default(),
        };
        pools.of(Type::I32).push(counter);
        pools.of(PTR).extend([carried, stack]);
        let gaddr = b.global_addr(g);
        pools.of(PTR).push(gaddr);
        for ty in TYPES {
            let c = b.iconst(ty, rng.constant(ty));
            pools.of(ty).push(c);
        }
        for i in 0..rng.below(24) + 2 {
            line(b, i as u32 + 2);
            random_instruction(b, &mut rng, &mut pools, &libc, (s, name), stack, gaddr);
        }
        let one = b.iconst(Type::I32, 1);
        let next = b.binary(BinaryOp::Add, counter, one);
        let limit = b.iconst(Type::I32, rng.below(20) as u64 + 1);
        let done = b.icmp(IntCC::Sge, next, limit);
        let out = rng.pick(pools.of(Type::I32));
        let carry = rng.pick(pools.of(PTR));
        let to_exit = b.dest(exit, &[out]);
        let again = b.dest(body, &[next, carry]);
        b.brif(done, to_exit, again);

        b.switch_to_block(exit);
        b.ret(Some(result));
    });
    mb.finish()
}

fn random_instruction(
    b: &mut FunctionBuilder,
    rng: &mut Rng,
    pools: &mut Pools,
    libc: &Libc,
    (fmt, name): (penumbra_ir::Global, penumbra_ir::Global),
    stack: Value,
    gaddr: Value,
) {
    let ty = rng.pick(&TYPES);
    let operand = |rng: &mut Rng, pools: &mut Pools, ty: Type| rng.pick(pools.of(ty));
    // A pointer near one of the objects (in bounds, in a redzone, or wild), or a pool value.
    let pointer = |b: &mut FunctionBuilder, rng: &mut Rng, pools: &mut Pools| -> Value {
        let base = match rng.below(4) {
            0 => stack,
            1 => gaddr,
            _ => rng.pick(pools.of(PTR)),
        };
        // Mostly inside the 8 bytes every base object has, sometimes around them.
        let off = if rng.below(4) == 0 {
            rng.below(48) as i64 - 24
        } else {
            rng.below(8) as i64
        };
        let off = b.iconst(PTR, off as u64);
        b.binary(BinaryOp::Add, base, off)
    };
    match rng.below(14) {
        0..=4 => {
            let op = rng.pick(&BinaryOp::ALL);
            let x = operand(rng, pools, ty);
            // Divisors and shift amounts are mostly safe constants, so more programs finish.
            let y = match (op.is_division(), op.is_shift(), rng.below(4)) {
                (true, _, 0..=2) => b.iconst(ty, rng.below(5) as u64 + 2),
                (_, true, 0..=2) => b.iconst(ty, rng.below(ty.bits() as usize) as u64),
                _ => operand(rng, pools, ty),
            };
            let v = b.binary(op, x, y);
            pools.of(ty).push(v);
        }
        5 => {
            let cc = rng.pick(&IntCC::ALL);
            let (x, y) = (operand(rng, pools, ty), operand(rng, pools, ty));
            let v = b.icmp(cc, x, y);
            pools.of(Type::I1).push(v);
        }
        6 => {
            let to = rng.pick(&TYPES);
            let x = operand(rng, pools, ty);
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
            let c = operand(rng, pools, Type::I1);
            let (x, y) = (operand(rng, pools, ty), operand(rng, pools, ty));
            let v = b.select(c, x, y);
            pools.of(ty).push(v);
        }
        8 => {
            let p = pointer(b, rng, pools);
            let v = b.load(ty, p);
            pools.of(ty).push(v);
        }
        9 => {
            let p = pointer(b, rng, pools);
            let v = operand(rng, pools, ty);
            b.store(p, v);
        }
        10 => {
            let p = pointer(b, rng, pools);
            let call = rng.below(5);
            match call {
                0 => {
                    let (_, v) = b.call(libc.strlen, &[p], Some(Type::I64));
                    pools.of(Type::I64).push(v.unwrap());
                }
                1 => {
                    let n = b.iconst(Type::I64, rng.below(32) as u64);
                    let (_, v) = b.call(libc.malloc, &[n], Some(PTR));
                    pools.of(PTR).push(v.unwrap());
                }
                2 => {
                    let q = rng.pick(pools.of(PTR));
                    b.call(libc.free, &[q], None);
                }
                3 => {
                    let c = operand(rng, pools, Type::I32);
                    let n = b.iconst(Type::I64, rng.below(24) as u64);
                    b.call(libc.memset, &[p, c, n], Some(PTR));
                }
                _ => {
                    let f = b.global_addr(fmt);
                    let (x, y) = (
                        operand(rng, pools, Type::I32),
                        operand(rng, pools, Type::I32),
                    );
                    b.call(libc.printf, &[f, x, y, p], Some(Type::I32));
                }
            }
        }
        11 => {
            let p = pointer(b, rng, pools);
            let n = b.iconst(Type::I64, rng.below(12) as u64);
            let nm = b.global_addr(name);
            b.make_symbolic(p, n, nm);
        }
        12 => {
            let c = operand(rng, pools, Type::I1);
            if rng.below(2) == 0 {
                b.assert(c);
            } else {
                b.assume(c);
            }
        }
        _ => {
            let old = operand(rng, pools, ty);
            let new = operand(rng, pools, ty);
            let v = b.change(old, new);
            pools.of(ty).push(v);
        }
    }
}

#[test]
fn random_programs_run_deterministically_without_panicking() {
    let mut kinds = std::collections::BTreeMap::new();
    for seed in 0..std::env::var("PENUMBRA_RANDOM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400u64)
    {
        let module = random_program(seed);
        let program = Program::new(&module).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let config = RunConfig {
            max_steps: Some(5_000),
            inputs: Inputs::Ordered(vec![vec![0x41; 12], vec![0xff; 3]]),
            ..RunConfig::default()
        };
        let first = program.run(&config);
        let second = program.run(&config);
        assert_eq!(first, second, "seed {seed} is not deterministic");
        let kind = match &first.outcome {
            Outcome::Exit(_) => "exit".to_string(),
            Outcome::Error(e) => e.kind.as_str().to_string(),
            Outcome::Unsupported { .. } => "unsupported".to_string(),
            Outcome::AssumptionViolated(_) => "assume".to_string(),
            Outcome::StepLimit => "step-limit".to_string(),
        };
        *kinds.entry(kind).or_insert(0) += 1;
    }
    eprintln!("outcomes: {kinds:?}");
    // The generator reaches normal exits and a good spread of errors.
    assert!(kinds.len() >= 8, "outcomes: {kinds:?}");
    assert!(
        kinds.get("exit").copied().unwrap_or(0) > 10,
        "outcomes: {kinds:?}"
    );
}
