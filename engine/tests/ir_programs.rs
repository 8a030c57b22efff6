//! Programs built with the IR builder: instruction semantics through the whole interpreter,
//! calls and returns, inputs, versions and budgets. Errors are in `ir_errors`.

use crate::support::*;
use penumbra_engine::concrete::{run, Inputs, Outcome, Program, RunConfig, SymbolicObject};
use penumbra_engine::ErrorKind;
use penumbra_ir::{
    BinaryOp, CastOp, FunctionBuilder, GlobalInit, IntCC, Reloc, RelocTarget, Type, Value, Version, PTR,
};
use std::collections::BTreeMap;

/// `int main(void) { <body computes v>; return v; }` with a `buf[4]` global available.
fn main_returning(build: impl FnOnce(&mut ModuleBuilder, &mut FunctionBuilder) -> Value) -> penumbra_ir::Module {
    let mut mb = ModuleBuilder::new();
    let main = mb.declare("main", &[], Some(Type::I32));
    let mut body = penumbra_ir::Body::default();
    {
        let mut b = FunctionBuilder::new(&mut body);
        let entry = b.create_block();
        b.switch_to_block(entry);
        let v = build(&mut mb, &mut b);
        b.ret(Some(v));
    }
    mb.module.funcs[main].body = Some(body);
    mb.finish()
}

#[test]
fn main_return_value_is_the_exit_status_modulo_256() {
    for (ret, status) in [(0u64, 0), (3, 3), (300, 44), (0xffff_ffff, 255), (256, 0)] {
        let m = main_returning(|_, b| b.iconst(Type::I32, ret));
        assert_eq!(run_default(&m).outcome, Outcome::Exit(status), "return {ret}");
    }
}

#[test]
fn arithmetic_runs_through_the_interpreter() {
    // ((100 - 7) * 3 sdiv -4) srem 7, then zext/sext/trunc round trips.
    let m = main_returning(|_, b| {
        let a = b.iconst(Type::I32, 100);
        let c7 = b.iconst(Type::I32, 7);
        let c3 = b.iconst(Type::I32, 3);
        let m4 = b.iconst(Type::I32, (-4i32) as u32 as u64);
        let x = b.binary(BinaryOp::Sub, a, c7); // 93
        let x = b.binary(BinaryOp::Mul, x, c3); // 279
        let x = b.binary(BinaryOp::SDiv, x, m4); // -69
        let x = b.binary(BinaryOp::SRem, x, c7); // -6
        let wide = b.cast(CastOp::Sext, x, Type::I64);
        let narrow = b.cast(CastOp::Trunc, wide, Type::I8); // 0xfa
        let z = b.cast(CastOp::Zext, narrow, Type::I32); // 250
        z
    });
    assert_eq!(run_default(&m).outcome, Outcome::Exit(250));
}

#[test]
fn select_icmp_and_i1_memory() {
    let m = main_returning(|_, b| {
        let p = b.alloca(1, 1);
        let one = b.iconst(Type::I1, 1);
        b.store(p, one);
        let c = b.load(Type::I1, p);
        let x = b.iconst(Type::I32, 11);
        let y = b.iconst(Type::I32, 22);
        let lt = b.icmp(IntCC::Slt, x, y);
        let both = b.binary(BinaryOp::And, c, lt);
        b.select(both, y, x)
    });
    assert_eq!(run_default(&m).outcome, Outcome::Exit(22));
}

#[test]
fn block_parameters_are_assigned_in_parallel() {
    // a, b = 1, 2; three times: a, b = b, a  ->  a = 2, b = 1; return a * 10 + b.
    let mut mb = ModuleBuilder::new();
    mb.main(|b, _| {
        let head = b.create_block();
        let a = b.append_block_param(head, Type::I32);
        let bb = b.append_block_param(head, Type::I32);
        let n = b.append_block_param(head, Type::I32);
        let exit = b.create_block();
        let (one, two, zero, three, ten) = (
            b.iconst(Type::I32, 1),
            b.iconst(Type::I32, 2),
            b.iconst(Type::I32, 0),
            b.iconst(Type::I32, 3),
            b.iconst(Type::I32, 10),
        );
        b.jump(head, &[one, two, zero]);
        b.switch_to_block(head);
        let done = b.icmp(IntCC::Eq, n, three);
        let n1 = b.binary(BinaryOp::Add, n, one);
        let to_exit = b.dest(exit, &[]);
        let again = b.dest(head, &[bb, a, n1]);
        b.brif(done, to_exit, again);
        b.switch_to_block(exit);
        let t = b.binary(BinaryOp::Mul, a, ten);
        let r = b.binary(BinaryOp::Add, t, bb);
        b.ret(Some(r));
    });
    assert_eq!(run_default(&mb.finish()).outcome, Outcome::Exit(21));
}

#[test]
fn switch_takes_the_matching_case_or_the_default() {
    for (input, want) in [(0u64, 10), (1, 20), (0xff, 30), (7, 99)] {
        let mut mb = ModuleBuilder::new();
        mb.main(|b, _| {
            let x = b.iconst(Type::I8, input);
            let blocks: Vec<_> = (0..4).map(|_| b.create_block()).collect();
            let d: Vec<_> = blocks.iter().map(|&blk| b.dest(blk, &[])).collect();
            let jt = b.jump_table(d[3], vec![(0, d[0]), (1, d[1]), (0xff, d[2])]);
            b.switch(x, jt);
            for (blk, v) in blocks.into_iter().zip([10, 20, 30, 99]) {
                b.switch_to_block(blk);
                let c = b.iconst(Type::I32, v);
                b.ret(Some(c));
            }
        });
        assert_eq!(run_default(&mb.finish()).outcome, Outcome::Exit(want), "switch on {input}");
    }
}

#[test]
fn change_and_execute_follow_the_version() {
    let m = main_returning(|_, b| {
        let old = b.iconst(Type::I32, 1);
        let new = b.iconst(Type::I32, 2);
        let c = b.change(old, new);
        let e = b.execute(Version::Old);
        let e = b.cast(CastOp::Zext, e, Type::I32);
        let hundred = b.iconst(Type::I32, 100);
        let e = b.binary(BinaryOp::Mul, e, hundred);
        b.binary(BinaryOp::Add, c, e)
    });
    let config = |version| RunConfig { version, ..RunConfig::default() };
    assert_eq!(run(&m, &config(Version::Old)).outcome, Outcome::Exit(101));
    assert_eq!(run(&m, &config(Version::New)).outcome, Outcome::Exit(2));
}

/// `int x; make_symbolic(&x, 4, "x"); int y; make_symbolic(&y, 4, "y"); return x - y;`
fn two_symbolics() -> penumbra_ir::Module {
    main_returning(|mb, b| {
        let gx = mb.string("name_x", "x");
        let gy = mb.string("name_y", "y");
        let px = b.alloca(4, 4);
        let py = b.alloca(4, 4);
        let four = b.iconst(Type::I64, 4);
        let nx = b.global_addr(gx);
        let ny = b.global_addr(gy);
        b.make_symbolic(px, four, nx, None);
        b.make_symbolic(py, four, ny, None);
        let x = b.load(Type::I32, px);
        let y = b.load(Type::I32, py);
        b.binary(BinaryOp::Sub, x, y)
    })
}

#[test]
fn make_symbolic_takes_named_inputs_padded_and_truncated() {
    let m = two_symbolics();
    let mut named = BTreeMap::new();
    named.insert("x".to_string(), vec![50]);
    named.insert("y".to_string(), vec![8, 0, 0, 0, 0xff, 0xff]);
    let r = run(&m, &RunConfig { inputs: Inputs::Named(named), ..RunConfig::default() });
    assert_eq!(r.outcome, Outcome::Exit(42));
    assert_eq!(
        r.symbolics,
        vec![
            SymbolicObject { name: "x".into(), bytes: vec![50, 0, 0, 0] },
            SymbolicObject { name: "y".into(), bytes: vec![8, 0, 0, 0] },
        ]
    );
    // Missing names are zeros.
    let r = run_default(&m);
    assert_eq!(r.outcome, Outcome::Exit(0));
    assert_eq!(r.symbolics[1].bytes, vec![0; 4]);
}

#[test]
fn make_symbolic_takes_ordered_inputs() {
    let m = two_symbolics();
    let r = run(&m, &RunConfig { inputs: Inputs::Ordered(vec![vec![9], vec![2]]), ..RunConfig::default() });
    assert_eq!(r.outcome, Outcome::Exit(7));
    assert_eq!(r.symbolics.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["x", "y"]);
}

#[test]
fn make_symbolic_past_the_object_is_an_out_of_bounds_write() {
    let mut mb = ModuleBuilder::new();
    let name = mb.string("name", "buf");
    mb.main(|b, _| {
        let p = b.alloca(4, 4);
        let n = b.iconst(Type::I64, 8);
        let s = b.global_addr(name);
        line(b, 9);
        b.make_symbolic(p, n, s, None);
        let z = b.iconst(Type::I32, 0);
        b.ret(Some(z));
    });
    let r = run_default(&mb.finish());
    let msg = assert_error(&r, ErrorKind::OutOfBoundsWrite, "main", 9);
    assert_eq!(msg, "out-of-bounds write of 8 bytes at offset 0 of stack object of 'main' (4 bytes)");
}

#[test]
fn assume_false_ends_the_run_without_an_error() {
    let mut mb = ModuleBuilder::new();
    mb.main(|b, _| {
        let f = b.iconst(Type::I1, 0);
        line(b, 4);
        b.assume(f);
        let z = b.iconst(Type::I32, 0);
        b.ret(Some(z));
    });
    let r = run_default(&mb.finish());
    match r.outcome {
        Outcome::AssumptionViolated(loc) => assert_eq!((loc.func.as_str(), loc.line), ("main", 4)),
        other => panic!("{other}"),
    }
}

#[test]
fn step_limit_stops_an_infinite_loop_after_exactly_that_many_steps() {
    let mut mb = ModuleBuilder::new();
    mb.main(|b, _| {
        let l = b.create_block();
        b.jump(l, &[]);
        b.switch_to_block(l);
        b.jump(l, &[]);
    });
    let m = mb.finish();
    let r = run(&m, &RunConfig { max_steps: Some(1000), ..RunConfig::default() });
    assert_eq!(r.outcome, Outcome::StepLimit);
    assert_eq!(r.steps, 1000);
    assert_eq!(r.diagnostic(&m), "penumbra: step limit reached after 1000 steps");
    // A budget the program fits in exactly is not hit.
    let m = main_returning(|_, b| b.iconst(Type::I32, 0));
    let r = run(&m, &RunConfig { max_steps: Some(1), ..RunConfig::default() });
    assert_eq!((r.outcome, r.steps), (Outcome::Exit(0), 1));
}

// ---------------------------------------------------------------------------------------
// Calls, function pointers, globals with relocations, streams.

#[test]
fn function_pointers_in_a_global_table() {
    // int (*ops[2])(int, int) = { add, sub }; return ops[1](50, 8) + ops[0](0, 0);
    let mut mb = ModuleBuilder::new();
    let add = mb.declare("add", &[Type::I32, Type::I32], Some(Type::I32));
    let sub = mb.declare("sub", &[Type::I32, Type::I32], Some(Type::I32));
    for (f, op) in [(add, BinaryOp::Add), (sub, BinaryOp::Sub)] {
        mb.define(f, |b, p| {
            let r = b.binary(op, p[0], p[1]);
            b.ret(Some(r));
        });
    }
    let relocs = vec![
        Reloc { offset: 0, target: RelocTarget::Func(add), addend: 0 },
        Reloc { offset: 8, target: RelocTarget::Func(sub), addend: 0 },
    ];
    let table = mb.global_init("ops", 16, GlobalInit::Bytes { bytes: vec![0; 16], relocs });
    mb.main(|b, _| {
        let t = b.global_addr(table);
        let eight = b.iconst(PTR, 8);
        let slot1 = b.binary(BinaryOp::Add, t, eight);
        let f1 = b.load(PTR, slot1);
        let f0 = b.load(PTR, t);
        let (a, c) = (b.iconst(Type::I32, 50), b.iconst(Type::I32, 8));
        let (_, r1) = b.call_indirect(f1, &[a, c], Some(Type::I32));
        let z = b.iconst(Type::I32, 0);
        let (_, r0) = b.call_indirect(f0, &[z, z], Some(Type::I32));
        let r = b.binary(BinaryOp::Add, r1.unwrap(), r0.unwrap());
        b.ret(Some(r));
    });
    assert_eq!(run_default(&mb.finish()).outcome, Outcome::Exit(42));
}

#[test]
fn library_functions_can_be_called_through_pointers() {
    let mut mb = ModuleBuilder::new();
    let abs = mb.declare("abs", &[Type::I32], Some(Type::I32));
    mb.main(|b, _| {
        let fp = b.func_addr(abs);
        let v = b.iconst(Type::I32, (-7i32) as u32 as u64);
        let (_, r) = b.call_indirect(fp, &[v], Some(Type::I32));
        b.ret(r);
    });
    assert_eq!(run_default(&mb.finish()).outcome, Outcome::Exit(7));
}

#[test]
fn fprintf_to_stderr_and_stdout_goes_to_the_right_stream() {
    let mut mb = ModuleBuilder::new();
    let fprintf = mb.declare_varargs("fprintf", &[PTR, PTR], Some(Type::I32));
    let stdout = mb.global_init("stdout", 8, GlobalInit::External);
    let stderr = mb.global_init("stderr", 8, GlobalInit::External);
    let fmt = mb.string("fmt", "%s=%d\n");
    let (a, c) = (mb.string("a", "out"), mb.string("c", "err"));
    mb.main(|b, _| {
        let (so, se) = (b.global_addr(stdout), b.global_addr(stderr));
        let (so, se) = (b.load(PTR, so), b.load(PTR, se));
        let f = b.global_addr(fmt);
        let (a, c) = (b.global_addr(a), b.global_addr(c));
        let (one, two) = (b.iconst(Type::I32, 1), b.iconst(Type::I32, 2));
        b.call(fprintf, &[so, f, a, one], Some(Type::I32));
        b.call(fprintf, &[se, f, c, two], Some(Type::I32));
        let z = b.iconst(Type::I32, 0);
        b.ret(Some(z));
    });
    let r = run_default(&mb.finish());
    assert_exit(&r, 0, "out=1\n");
    assert_eq!(r.stderr, b"err=2\n");
}

#[test]
fn argv_is_built_from_the_configured_arguments() {
    // int main(int argc, char **argv) { return argv[argc - 1][1] + argc; }  (plus argv[argc] == NULL)
    let mut mb = ModuleBuilder::new();
    let main = mb.declare("main", &[Type::I32, PTR], Some(Type::I32));
    mb.define(main, |b, p| {
        let (argc, argv) = (p[0], p[1]);
        let wide = b.cast(CastOp::Sext, argc, Type::I64);
        let eight = b.iconst(Type::I64, 8);
        let off = b.binary(BinaryOp::Mul, wide, eight);
        let end = b.binary(BinaryOp::Add, argv, off);
        let null = b.load(PTR, end);
        let minus8 = b.iconst(Type::I64, (-8i64) as u64);
        let last = b.binary(BinaryOp::Add, end, minus8);
        let s = b.load(PTR, last);
        let one = b.iconst(PTR, 1);
        let s1 = b.binary(BinaryOp::Add, s, one);
        let c = b.load(Type::I8, s1);
        let c = b.cast(CastOp::Zext, c, Type::I32);
        let r = b.binary(BinaryOp::Add, c, argc);
        let null32 = b.cast(CastOp::Trunc, null, Type::I32);
        let r = b.binary(BinaryOp::Add, r, null32);
        b.ret(Some(r));
    });
    let m = mb.finish();
    let args = vec![b"prog".to_vec(), b"-x".to_vec(), b"a!".to_vec()];
    let r = run(&m, &RunConfig { args, ..RunConfig::default() });
    assert_eq!(r.outcome, Outcome::Exit(i32::from(b'!') + 3));
}

#[test]
fn a_global_too_large_to_hold_is_a_load_error() {
    let mut mb = ModuleBuilder::new();
    mb.global_init("huge", 1 << 40, GlobalInit::Zero);
    mb.main(|b, _| {
        let z = b.iconst(Type::I32, 0);
        b.ret(Some(z));
    });
    let m = mb.finish();
    let err = Program::new(&m).err().expect("rejected");
    assert_eq!(err.to_string(), "global 'huge' cannot be laid out: 1099511627776 bytes do not fit in memory");
    // Globals filling the whole 256 MiB budget leave no room for the runtime's objects.
    let mut mb = ModuleBuilder::new();
    mb.global_init("big", 256 << 20, GlobalInit::Zero);
    mb.main(|b, _| {
        let z = b.iconst(Type::I32, 0);
        b.ret(Some(z));
    });
    let m = mb.finish();
    let err = Program::new(&m).err().expect("rejected");
    assert_eq!(err.to_string(), "the globals leave no room for stdin's FILE object");
}

#[test]
fn loads_and_stores_of_every_width_are_little_endian() {
    // Store 0x8877665544332211 as i64, read it back at every width at offset 1, then store an
    // i1 (one byte) and an i16 over it and print everything.
    let mut mb = ModuleBuilder::new();
    let printf = mb.declare_varargs("printf", &[PTR], Some(Type::I32));
    let fmt = mb.string("fmt", "%llx %x %x %x %x %llx\n");
    mb.main(|b, _| {
        let p = b.alloca(8, 8);
        let v = b.iconst(Type::I64, 0x8877_6655_4433_2211);
        b.store(p, v);
        let one = b.iconst(PTR, 1);
        let p1 = b.binary(BinaryOp::Add, p, one);
        let l64 = b.load(Type::I64, p);
        let l32 = b.load(Type::I32, p1);
        let l16 = b.load(Type::I16, p1);
        let l8 = b.load(Type::I8, p1);
        let l1 = b.load(Type::I1, p1); // 0x22: only the low bit counts
        let t = b.iconst(Type::I1, 1);
        b.store(p, t);
        let h = b.iconst(Type::I16, 0xbeef);
        b.store(p1, h);
        let after = b.load(Type::I64, p);
        let f = b.global_addr(fmt);
        let (l32, l16, l8, l1) = (
            b.cast(CastOp::Zext, l32, Type::I32),
            b.cast(CastOp::Zext, l16, Type::I32),
            b.cast(CastOp::Zext, l8, Type::I32),
            b.cast(CastOp::Zext, l1, Type::I32),
        );
        b.call(printf, &[f, l64, l32, l16, l8, l1, after], Some(Type::I32));
        let z = b.iconst(Type::I32, 0);
        b.ret(Some(z));
    });
    let r = run_default(&mb.finish());
    assert_exit(&r, 0, "8877665544332211 55443322 3322 22 0 8877665544beef01\n");
}

#[test]
fn repeated_symbolic_names_take_unique_names_first() {
    // Three objects named "x": x, x#1, x#2. Inputs give x and x#2; x#1 falls back to x.
    let m = main_returning(|mb, b| {
        let name = mb.string("name", "x");
        let n = b.global_addr(name);
        let one = b.iconst(Type::I64, 1);
        let p = b.alloca(3, 1);
        let sum = b.iconst(Type::I32, 0);
        let mut acc = sum;
        for i in 0..3u64 {
            let off = b.iconst(PTR, i);
            let q = b.binary(BinaryOp::Add, p, off);
            b.make_symbolic(q, one, n, None);
            let v = b.load(Type::I8, q);
            let v = b.cast(CastOp::Zext, v, Type::I32);
            let scale = b.iconst(Type::I32, [1, 10, 100][i as usize]);
            let v = b.binary(BinaryOp::Mul, v, scale);
            acc = b.binary(BinaryOp::Add, acc, v);
        }
        acc
    });
    let mut named = BTreeMap::new();
    named.insert("x".to_string(), vec![1]);
    named.insert("x#2".to_string(), vec![2]);
    let r = run(&m, &RunConfig { inputs: Inputs::Named(named), ..RunConfig::default() });
    assert_eq!(r.outcome, Outcome::Exit(211));
    let names: Vec<&str> = r.symbolics.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["x", "x", "x"], "recorded under the names the program gave");
}
