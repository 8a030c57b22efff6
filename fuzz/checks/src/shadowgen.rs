//! Random unified IR programs for the `shadow` target: `main` reads one to three small integer
//! inputs (`make_symbolic`, confined to a small domain by `assume`s), then runs a random
//! structured body over four `int` variables held in stack slots (as C at `-O0` keeps them,
//! so shadow values go through memory; only the loop counter is a block parameter): assignments
//! whose expressions contain `change(old, new)`, `if`/`else`, `switch` with shared targets,
//! bounded loops, early returns, divisions and shifts by variables, `assert`s, reads and
//! writes of an 8-byte array at computed indices (which may be far out of bounds), buffers of a
//! computed and often changed size (`malloc`, `calloc`, `realloc`, variable-length arrays: the
//! size is a symbolic term that may differ between the versions) read or written at computed
//! indices, `printf` of numbers and the exit status
//! (output, where the versions' values may differ), a constructor and a destructor around
//! `main` (a global set before it, printed after it), and `penumbra_execute` blocks: code in one
//! version only, and `change` operands that are whole statements with effects, errors and
//! returns of their own version (as `penumbra.h` lowers `change(old, new)` with calls).
//!
//! The programs stay inside what the brute-force oracle ([`crate::oracle`]) can judge: no C
//! library but `printf` of integers and the heap functions (native in both interpreters; sizes
//! of at most 15 bytes and never 0 for `realloc`, so no allocation forks on its own), no calls through pointers, no execute block inside
//! another, array indices confined to `-24..=39` (out of bounds only into the gaps around the
//! array they miss, never into another object's bytes), assumptions only on the inputs (so never
//! version-dependent), and every loop runs at most three times (every run exits or fails).

use crate::build::{line, ModuleBuilder};
use crate::oracle::Var;
use crate::source::Source;
use penumbra_ir::{BinaryOp, CastOp, Func, FunctionBuilder, Global, IntCC, Module, Type, Value, Version, PTR};

/// A generated program and its input domain.
pub struct ShadowProgram {
    pub module: Module,
    pub vars: Vec<Var>,
}

const NAMES: [&str; 3] = ["a", "b", "c"];

/// Program variables (stack slots of 4 bytes); the inputs are copied into the first ones.
const SLOTS: usize = 4;

struct Gen<'r, R: Source> {
    rng: &'r mut R,
    slots: Vec<Value>,
    arr: Value,
    /// Statements still to generate (bounds the program's size).
    budget: u32,
    line: u32,
    in_loop: bool,
    /// Inside one version's side of an execute block.
    in_block: bool,
    printf: Func,
    format: Global,
    /// `malloc`, `calloc`, `realloc`.
    heap: [Func; 3],
}

/// A random program from `rng`'s choices (see the module documentation).
pub fn random_shadow_program(rng: &mut impl Source) -> ShadowProgram {
    let vars = domain(rng);
    let mut mb = ModuleBuilder::new();
    let names: Vec<_> = vars.iter().map(|v| mb.string(&format!("name_{}", v.name), v.name)).collect();
    let printf = mb.declare_varargs("printf", &[PTR], Some(Type::I32));
    let format = mb.string("format", "%d\n");
    let heap = [
        mb.declare("malloc", &[Type::I64], Some(PTR)),
        mb.declare("calloc", &[Type::I64, Type::I64], Some(PTR)),
        mb.declare("realloc", &[PTR, Type::I64], Some(PTR)),
    ];
    let limit = lifecycle(&mut mb, rng, printf, format);
    mb.main(|b, _| {
        line(b, 1);
        let slots: Vec<Value> = (0..SLOTS).map(|_| b.alloca(4, 4)).collect();
        let arr = b.alloca(8, 8);
        // The inputs, each confined to its domain.
        for (k, v) in vars.iter().enumerate() {
            let p = b.alloca(v.bytes as u32, v.bytes as u32);
            let n = b.iconst(Type::I64, v.bytes as u64);
            let name = b.global_addr(names[k]);
            b.make_symbolic(p, n, name, None);
            let ty = if v.bytes == 1 { Type::I8 } else { Type::I32 };
            let raw = b.load(ty, p);
            let x = if ty == Type::I32 { raw } else { b.cast(CastOp::Sext, raw, Type::I32) };
            let lo = b.iconst(Type::I32, v.lo as u64);
            let hi = b.iconst(Type::I32, v.hi as u64);
            let above = b.icmp(IntCC::Sge, x, lo);
            b.assume(above);
            let below = b.icmp(IntCC::Sle, x, hi);
            b.assume(below);
            b.store(slots[k], x);
        }
        let mut g = Gen {
            rng: &mut *rng,
            slots,
            arr,
            budget: 0,
            line: 1,
            in_loop: false,
            in_block: false,
            printf,
            format,
            heap,
        };
        for k in vars.len()..SLOTS {
            let c = match limit {
                // The last slot starts as what the constructor computed.
                Some(limit) if k == SLOTS - 1 => {
                    let at = b.global_addr(limit);
                    b.load(Type::I32, at)
                }
                _ => g.small(b),
            };
            b.store(g.slots[k], c);
        }
        for i in 0..8u64 {
            let at = b.iconst(PTR, i);
            let p = b.binary(BinaryOp::Add, arr, at);
            let c = b.iconst(Type::I8, g.rng.below(8));
            b.store(p, c);
        }
        g.budget = 4 + g.rng.below(9) as u32;
        while g.budget > 0 {
            g.statement(b, 0);
        }
        g.next_line(b);
        let r = g.expr(b, 1);
        b.ret(Some(r));
    });
    ShadowProgram { module: mb.finish(), vars }
}

/// Sometimes a constructor that sets a global `limit` (to a changed constant) before `main`
/// reads it, and a destructor that prints a value computed from it after `main` (equal in the
/// versions except where `limit` is 3): returns the global.
fn lifecycle(mb: &mut ModuleBuilder, rng: &mut impl Source, printf: Func, format: Global) -> Option<Global> {
    if !rng.chance(25) {
        return None;
    }
    let limit = mb.global("limit", &[0; 4], false);
    let (a, b) = (rng.below(6), rng.below(6));
    let init = mb.declare("init_limit", &[], None);
    mb.define(init, |fb, _| {
        line(fb, 1);
        let (a, b) = (fb.iconst(Type::I32, a), fb.iconst(Type::I32, b));
        let v = fb.change(a, b);
        let at = fb.global_addr(limit);
        fb.store(at, v);
        fb.ret(None);
    });
    mb.module.ctors.push(init);
    if rng.chance(50) {
        let fini = mb.declare("fini", &[], None);
        mb.define(fini, |fb, _| {
            line(fb, 1);
            let at = fb.global_addr(limit);
            let v = fb.load(Type::I32, at);
            let three = fb.iconst(Type::I32, 3);
            let is_three = fb.icmp(IntCC::Eq, v, three);
            let bump = fb.cast(CastOp::Zext, is_three, Type::I32);
            let zero = fb.iconst(Type::I32, 0);
            let delta = fb.change(zero, bump);
            let shown = fb.binary(BinaryOp::Add, v, delta);
            let f = fb.global_addr(format);
            fb.call(printf, &[f, shown], Some(Type::I32));
            fb.ret(None);
        });
        mb.module.dtors.push(fini);
    }
    Some(limit)
}

/// One to three inputs over at most 125 points (17, 9 * 9 or 5 * 5 * 5 values).
fn domain(rng: &mut impl Source) -> Vec<Var> {
    let count = 1 + rng.below(3) as usize;
    let width = [17, 9, 5][count - 1];
    (0..count)
        .map(|k| {
            let lo = rng.below(6) as i64 - 5;
            let hi = lo + rng.below(width) as i64;
            let bytes = if rng.chance(25) { 1 } else { 4 };
            Var { name: NAMES[k], bytes, lo, hi }
        })
        .collect()
}

impl<R: Source> Gen<'_, R> {
    fn next_line(&mut self, b: &mut FunctionBuilder) {
        self.line += 1;
        line(b, self.line);
    }

    /// A small constant, mostly near zero (where the inputs are).
    fn small(&mut self, b: &mut FunctionBuilder) -> Value {
        let k = if self.rng.chance(90) { self.rng.below(13) as i64 - 4 } else { self.rng.next_u64() as i32 as i64 };
        b.iconst(Type::I32, k as u64)
    }

    fn leaf(&mut self, b: &mut FunctionBuilder) -> Value {
        if self.rng.chance(65) {
            let slot = self.slots[self.rng.index(SLOTS)];
            b.load(Type::I32, slot)
        } else {
            self.small(b)
        }
    }

    /// A random `int` expression of depth at most `depth`, sometimes changed.
    fn expr(&mut self, b: &mut FunctionBuilder, depth: u32) -> Value {
        let v = if depth == 0 || self.rng.chance(35) {
            self.leaf(b)
        } else {
            let op = *self.rng.pick(&[
                BinaryOp::Add,
                BinaryOp::Sub,
                BinaryOp::Mul,
                BinaryOp::And,
                BinaryOp::Or,
                BinaryOp::Xor,
            ]);
            let x = self.expr(b, depth - 1);
            let y = self.expr(b, depth - 1);
            b.binary(op, x, y)
        };
        if self.rng.chance(20) {
            self.changed(b, v)
        } else {
            v
        }
    }

    /// `change(v, w)` with `w` a small edit of `v` (as a patch makes) or another expression.
    fn changed(&mut self, b: &mut FunctionBuilder, v: Value) -> Value {
        let w = match self.rng.below(4) {
            0 => self.leaf(b),
            _ => {
                let op = *self.rng.pick(&[BinaryOp::Add, BinaryOp::Sub, BinaryOp::Xor]);
                let k = b.iconst(Type::I32, 1 + self.rng.below(3));
                b.binary(op, v, k)
            }
        };
        if self.rng.chance(50) {
            b.change(v, w)
        } else {
            b.change(w, v)
        }
    }

    /// A condition: a comparison of two expressions, sometimes a changed one.
    fn cond(&mut self, b: &mut FunctionBuilder) -> Value {
        let cc = *self.rng.pick(&IntCC::ALL);
        let x = self.expr(b, 1);
        let y = self.expr(b, 1);
        let c = b.icmp(cc, x, y);
        if self.rng.chance(20) {
            // A changed operator on the same operands (`<` to `<=` and the like).
            let cc2 = *self.rng.pick(&IntCC::ALL);
            let c2 = b.icmp(cc2, x, y);
            b.change(c, c2)
        } else {
            c
        }
    }

    fn assign(&mut self, b: &mut FunctionBuilder, v: Value) {
        let slot = self.slots[self.rng.index(SLOTS)];
        b.store(slot, v);
    }

    /// The array element at an index computed from an expression `e`: `arr + ((e & 15) - 4)`,
    /// mostly in bounds, or `arr + ((e & 63) - 24)`, mostly not: an index that may be far
    /// below or above the array, into the gaps around it (never into another object).
    fn element(&mut self, b: &mut FunctionBuilder) -> Value {
        let e = self.expr(b, 1);
        let (mask, shift) = if self.rng.chance(70) { (15, 4) } else { (63, 24) };
        let mask = b.iconst(Type::I32, mask);
        let masked = b.binary(BinaryOp::And, e, mask);
        let shift = b.iconst(Type::I32, shift);
        let index = b.binary(BinaryOp::Sub, masked, shift);
        let wide = b.cast(CastOp::Sext, index, Type::I64);
        b.binary(BinaryOp::Add, self.arr, wide)
    }

    /// Generates statements until `count` are made or the budget is spent.
    fn block(&mut self, b: &mut FunctionBuilder, depth: u32, count: u64) {
        for _ in 0..count {
            if self.budget == 0 {
                return;
            }
            self.statement(b, depth);
        }
    }

    /// One statement at nesting depth `depth`.
    fn statement(&mut self, b: &mut FunctionBuilder, depth: u32) {
        self.budget -= 1;
        self.next_line(b);
        let nest = depth < 2;
        match self.rng.below(19) {
            0..=3 => {
                let v = self.expr(b, 2);
                self.assign(b, v);
            }
            4 => {
                let v = self.expr(b, 1);
                let v = self.changed(b, v);
                self.assign(b, v);
            }
            5 | 6 if nest => self.if_else(b, depth),
            7 if nest => self.switch(b, depth),
            8 if nest && !self.in_loop => self.counted_loop(b, depth),
            9 => {
                let p = self.element(b);
                let v = self.expr(b, 1);
                let byte = b.cast(CastOp::Trunc, v, Type::I8);
                b.store(p, byte);
            }
            10 => {
                let p = self.element(b);
                let byte = b.load(Type::I8, p);
                let v = b.cast(CastOp::Sext, byte, Type::I32);
                self.assign(b, v);
            }
            11 => {
                let c = self.cond(b);
                b.assert(c);
            }
            12 => {
                let op = *self.rng.pick(&[BinaryOp::SDiv, BinaryOp::UDiv, BinaryOp::SRem, BinaryOp::URem]);
                let x = self.expr(b, 1);
                let y = self.expr(b, 1);
                let v = b.binary(op, x, y);
                self.assign(b, v);
            }
            13 => {
                let op = *self.rng.pick(&[BinaryOp::Shl, BinaryOp::LShr, BinaryOp::AShr]);
                let x = self.expr(b, 1);
                let y = self.expr(b, 0);
                let v = b.binary(op, x, y);
                self.assign(b, v);
            }
            14 => self.early_return(b),
            15 => {
                let v = self.expr(b, 1);
                let format = b.global_addr(self.format);
                b.call(self.printf, &[format, v], Some(Type::I32));
            }
            16 | 17 if nest && !self.in_block => self.execute_block(b, depth),
            18 => self.sized_buffer(b),
            _ => {
                let v = self.expr(b, 1);
                self.assign(b, v);
            }
        }
    }

    fn if_else(&mut self, b: &mut FunctionBuilder, depth: u32) {
        let c = self.cond(b);
        let (then, other, join) = (b.create_block(), b.create_block(), b.create_block());
        let (t, e) = (b.dest(then, &[]), b.dest(other, &[]));
        b.brif(c, t, e);
        for (block, most) in [(then, 3), (other, 2)] {
            b.switch_to_block(block);
            let n = self.rng.below(most);
            self.block(b, depth + 1, n);
            b.jump(join, &[]);
        }
        b.switch_to_block(join);
    }

    /// `switch (e & 3)` (sometimes `e` itself) over cases 0..=2, some sharing a target.
    fn switch(&mut self, b: &mut FunctionBuilder, depth: u32) {
        let e = self.expr(b, 1);
        let arg = if self.rng.chance(70) {
            let three = b.iconst(Type::I32, 3);
            b.binary(BinaryOp::And, e, three)
        } else {
            e
        };
        let targets: Vec<_> = (0..3).map(|_| b.create_block()).collect();
        let join = b.create_block();
        let default = b.dest(targets[2], &[]);
        let cases = (0..3u64)
            .map(|k| {
                let to = targets[self.rng.index(3)];
                (k, b.dest(to, &[]))
            })
            .collect();
        let table = b.jump_table(default, cases);
        b.switch(arg, table);
        for block in targets {
            b.switch_to_block(block);
            let n = self.rng.below(3);
            self.block(b, depth + 1, n);
            b.jump(join, &[]);
        }
        b.switch_to_block(join);
    }

    /// `for (i = 0; i < (e & 3); i++) { ... }`, the bound fixed before the loop.
    fn counted_loop(&mut self, b: &mut FunctionBuilder, depth: u32) {
        let e = self.expr(b, 1);
        let three = b.iconst(Type::I32, 3);
        let bound = b.binary(BinaryOp::And, e, three);
        let zero = b.iconst(Type::I32, 0);
        let (head, body, exit) = (b.create_block(), b.create_block(), b.create_block());
        let i = b.append_block_param(head, Type::I32);
        b.jump(head, &[zero]);
        b.switch_to_block(head);
        let more = b.icmp(IntCC::Slt, i, bound);
        let (into, out) = (b.dest(body, &[]), b.dest(exit, &[]));
        b.brif(more, into, out);
        b.switch_to_block(body);
        self.in_loop = true;
        let n = 1 + self.rng.below(3);
        self.block(b, depth + 1, n);
        self.in_loop = false;
        let one = b.iconst(Type::I32, 1);
        let next = b.binary(BinaryOp::Add, i, one);
        b.jump(head, &[next]);
        b.switch_to_block(exit);
    }

    /// A `penumbra_execute(V)` block: `v = change({stmts; e1}, {stmts; e2})` with each side's
    /// statements run in its version only, or `if (penumbra_execute(V)) { stmts }` (code one
    /// version has and the other does not).
    fn execute_block(&mut self, b: &mut FunctionBuilder, depth: u32) {
        let version = if self.rng.chance(50) { Version::Old } else { Version::New };
        let x = b.execute(version);
        let (then, join) = (b.create_block(), b.create_block());
        self.in_block = true;
        if self.rng.chance(60) {
            let other = b.create_block();
            let v = b.append_block_param(join, Type::I32);
            let (t, e) = (b.dest(then, &[]), b.dest(other, &[]));
            b.brif(x, t, e);
            for block in [then, other] {
                b.switch_to_block(block);
                let n = self.rng.below(3);
                self.block(b, depth + 1, n);
                let value = self.expr(b, 1);
                b.jump(join, &[value]);
            }
            b.switch_to_block(join);
            self.in_block = false;
            self.assign(b, v);
        } else {
            let (t, e) = (b.dest(then, &[]), b.dest(join, &[]));
            b.brif(x, t, e);
            b.switch_to_block(then);
            let n = 1 + self.rng.below(3);
            self.block(b, depth + 1, n);
            b.jump(join, &[]);
            b.switch_to_block(join);
            self.in_block = false;
        }
    }

    /// A buffer of `n = e & 15` bytes, `e` often changed, from `malloc(n)`, `calloc(n, 1)`,
    /// `realloc(malloc(4), n | 1)` (never 0: `realloc(p, 0)` frees, a fork of its own) or a
    /// variable-length array, then one byte read or written at `(e' & 15) - 4`: in bounds, past
    /// the size in one version or both, or before the buffer (into its redzone, never into
    /// another object's bytes).
    fn sized_buffer(&mut self, b: &mut FunctionBuilder) {
        let e = self.expr(b, 1);
        let e = if self.rng.chance(60) { self.changed(b, e) } else { e };
        let fifteen = b.iconst(Type::I32, 15);
        let n = b.binary(BinaryOp::And, e, fifteen);
        let n = b.cast(CastOp::Zext, n, Type::I64);
        let p = match self.rng.below(4) {
            0 => b.call(self.heap[0], &[n], Some(PTR)).1,
            1 => {
                let one = b.iconst(Type::I64, 1);
                b.call(self.heap[1], &[n, one], Some(PTR)).1
            }
            2 => {
                let four = b.iconst(Type::I64, 4);
                let q = b.call(self.heap[0], &[four], Some(PTR)).1.expect("malloc returns");
                let one = b.iconst(Type::I64, 1);
                let odd = b.binary(BinaryOp::Or, n, one);
                b.call(self.heap[2], &[q, odd], Some(PTR)).1
            }
            _ => Some(b.dyn_alloca(n)),
        };
        let p = p.expect("an allocation returns its address");
        let at = self.expr(b, 1);
        let index = b.binary(BinaryOp::And, at, fifteen);
        let four = b.iconst(Type::I32, 4);
        let index = b.binary(BinaryOp::Sub, index, four);
        let wide = b.cast(CastOp::Sext, index, Type::I64);
        let q = b.binary(BinaryOp::Add, p, wide);
        if self.rng.chance(50) {
            let v = self.expr(b, 1);
            let byte = b.cast(CastOp::Trunc, v, Type::I8);
            b.store(q, byte);
        } else {
            let byte = b.load(Type::I8, q);
            let v = b.cast(CastOp::Sext, byte, Type::I32);
            self.assign(b, v);
        }
    }

    /// `if (c) return e;`
    fn early_return(&mut self, b: &mut FunctionBuilder) {
        let c = self.cond(b);
        let (leave, stay) = (b.create_block(), b.create_block());
        let (l, s) = (b.dest(leave, &[]), b.dest(stay, &[]));
        b.brif(c, l, s);
        b.switch_to_block(leave);
        let v = self.expr(b, 1);
        b.ret(Some(v));
        b.switch_to_block(stay);
    }
}
