//! Every error kind, unsupported construct and unloadable program, each from a program built
//! with the IR builder, asserting the kind, the message and the exact function and line.

use crate::support::*;
use penumbra_engine::concrete::{run, Outcome, Program, RunConfig};
use penumbra_engine::ErrorKind;
use penumbra_ir::{BinaryOp, FunctionBuilder, GlobalInit, Type, Value, PTR};

/// `int main(void)`: what `build` appends (at line 1 unless it sets lines), then `return 0`
/// at line 99.
fn error_program(build: impl FnOnce(&mut ModuleBuilder, &mut FunctionBuilder)) -> penumbra_ir::Module {
    let mut mb = ModuleBuilder::new();
    let main = mb.declare("main", &[], Some(Type::I32));
    let mut body = penumbra_ir::Body::default();
    {
        let mut b = FunctionBuilder::new(&mut body);
        let entry = b.create_block();
        b.switch_to_block(entry);
        line(&mut b, 1);
        build(&mut mb, &mut b);
        line(&mut b, 99);
        let z = b.iconst(Type::I32, 0);
        b.ret(Some(z));
    }
    mb.module.funcs[main].body = Some(body);
    mb.finish()
}

#[test]
fn out_of_bounds_read_and_write_of_a_global() {
    let m = error_program(|mb, b| {
        let buf = mb.global("buf", &[0; 4], false);
        let p = b.global_addr(buf);
        let four = b.iconst(PTR, 4);
        let q = b.binary(BinaryOp::Add, p, four);
        let one = b.iconst(Type::I8, 1);
        line(b, 12);
        b.store(q, one);
    });
    let r = run_default(&m);
    let msg = assert_error(&r, ErrorKind::OutOfBoundsWrite, "main", 12);
    assert_eq!(msg, "out-of-bounds write of 1 byte at offset 4 of global 'buf' (4 bytes)");
    assert_eq!(
        r.diagnostic(&m),
        "penumbra: error: out-of-bounds-write: out-of-bounds write of 1 byte at offset 4 of global 'buf' (4 bytes) \
         at test.c:12"
    );

    let m = error_program(|mb, b| {
        let buf = mb.global("buf", &[0; 4], false);
        let p = b.global_addr(buf);
        let one = b.iconst(PTR, 1);
        let q = b.binary(BinaryOp::Add, p, one);
        line(b, 13);
        b.load(Type::I32, q);
    });
    let msg = assert_error(&run_default(&m), ErrorKind::OutOfBoundsRead, "main", 13);
    assert_eq!(msg, "out-of-bounds read of 4 bytes at offset 1 of global 'buf' (4 bytes)");
}

#[test]
fn negative_index_underflows_the_object() {
    let m = error_program(|mb, b| {
        let buf = mb.global("buf", &[0; 4], false);
        let p = b.global_addr(buf);
        let minus1 = b.iconst(PTR, u64::MAX);
        let q = b.binary(BinaryOp::Add, p, minus1);
        let one = b.iconst(Type::I8, 1);
        line(b, 5);
        b.store(q, one);
    });
    let msg = assert_error(&run_default(&m), ErrorKind::OutOfBoundsWrite, "main", 5);
    assert_eq!(msg, "out-of-bounds write of 1 byte at offset -1 of global 'buf' (4 bytes)");
}

#[test]
fn null_dereference() {
    let m = error_program(|_, b| {
        let null = b.iconst(PTR, 0);
        line(b, 7);
        b.load(Type::I64, null);
    });
    let msg = assert_error(&run_default(&m), ErrorKind::NullDereference, "main", 7);
    assert_eq!(msg, "read of 8 bytes at address 0x0");
    let m = error_program(|_, b| {
        let near_null = b.iconst(PTR, 0x10);
        let v = b.iconst(Type::I32, 1);
        line(b, 8);
        b.store(near_null, v);
    });
    assert_error(&run_default(&m), ErrorKind::NullDereference, "main", 8);
}

#[test]
fn heap_use_after_free_double_free_and_invalid_free() {
    let heap = |tail: fn(&mut FunctionBuilder, penumbra_ir::Func, Value)| {
        error_program(|mb, b| {
            let malloc = mb.declare("malloc", &[Type::I64], Some(PTR));
            let free = mb.declare("free", &[PTR], None);
            let n = b.iconst(Type::I64, 8);
            line(b, 3);
            let (_, p) = b.call(malloc, &[n], Some(PTR));
            let p = p.unwrap();
            line(b, 4);
            b.call(free, &[p], None);
            tail(b, free, p);
        })
    };
    let m = heap(|b, _, p| {
        line(b, 20);
        b.load(Type::I32, p);
    });
    let msg = assert_error(&run_default(&m), ErrorKind::UseAfterFree, "main", 20);
    assert_eq!(
        msg,
        "read of 4 bytes at offset 0 of freed heap object allocated at line 3 and freed at line 4 (8 bytes)"
    );

    let m = heap(|b, free, p| {
        line(b, 21);
        b.call(free, &[p], None);
    });
    assert_error(&run_default(&m), ErrorKind::DoubleFree, "main", 21);

    let m = error_program(|mb, b| {
        let free = mb.declare("free", &[PTR], None);
        let g = mb.global("g", &[0; 8], false);
        let p = b.global_addr(g);
        line(b, 22);
        b.call(free, &[p], None);
    });
    let msg = assert_error(&run_default(&m), ErrorKind::InvalidFree, "main", 22);
    assert_eq!(msg, "free of global 'g' at offset 0, which is not on the heap");
}

#[test]
fn stack_object_of_a_returned_function_is_dead() {
    let mut mb = ModuleBuilder::new();
    let leak = mb.declare("leak", &[], Some(PTR));
    mb.define(leak, |b, _| {
        line(b, 2);
        let p = b.alloca(4, 4);
        b.ret(Some(p));
    });
    mb.main(|b, _| {
        let (_, p) = b.call(leak, &[], Some(PTR));
        line(b, 8);
        let v = b.load(Type::I32, p.unwrap());
        b.ret(Some(v));
    });
    let msg = assert_error(&run_default(&mb.finish()), ErrorKind::UseAfterFree, "main", 8);
    assert_eq!(
        msg,
        "read of 4 bytes at offset 0 of stack object of returned function 'leak' (allocated at line 2) (4 bytes)"
    );
}

#[test]
fn invalid_pointers_and_read_only_globals() {
    let m = error_program(|_, b| {
        let wild = b.iconst(PTR, 0x40_0000_0000);
        line(b, 6);
        b.load(Type::I8, wild);
    });
    let msg = assert_error(&run_default(&m), ErrorKind::InvalidPointer, "main", 6);
    assert_eq!(msg, "read of 1 byte at address 0x4000000000, which is in no object");

    let m = error_program(|mb, b| {
        let s = mb.string("str", "abc");
        let p = b.global_addr(s);
        let v = b.iconst(Type::I8, u64::from(b'x'));
        line(b, 10);
        b.store(p, v);
    });
    let msg = assert_error(&run_default(&m), ErrorKind::InvalidPointer, "main", 10);
    assert_eq!(msg, "write to read-only global 'str' at offset 0");
}

#[test]
fn invalid_calls_through_pointers() {
    let m = error_program(|_, b| {
        let not_fn = b.iconst(PTR, 0x1000_0040);
        line(b, 14);
        b.call_indirect(not_fn, &[], None);
    });
    let msg = assert_error(&run_default(&m), ErrorKind::InvalidCall, "main", 14);
    assert_eq!(msg, "call through 0x10000040, which is not a function address");

    let m = error_program(|_, b| {
        let null = b.iconst(PTR, 0);
        line(b, 15);
        b.call_indirect(null, &[], Some(Type::I32));
    });
    assert_eq!(
        assert_error(&run_default(&m), ErrorKind::InvalidCall, "main", 15),
        "call through a null function pointer"
    );

    let m = error_program(|mb, b| {
        let f = mb.declare("two", &[Type::I32, Type::I32], Some(Type::I32));
        mb.define(f, |b, p| {
            let s = b.binary(BinaryOp::Add, p[0], p[1]);
            b.ret(Some(s));
        });
        let fp = b.func_addr(f);
        let one = b.iconst(Type::I32, 1);
        line(b, 16);
        b.call_indirect(fp, &[one], Some(Type::I32));
    });
    let msg = assert_error(&run_default(&m), ErrorKind::InvalidCall, "main", 16);
    assert_eq!(msg, "call of 'two' through a pointer with 1 arguments; it takes 2");
}

#[test]
fn division_errors_are_checked_before_computing() {
    let div = |op: BinaryOp, ty: Type, a: u64, b_: u64| {
        error_program(move |mb, b| {
            // Through memory, so nothing could fold the operands.
            let g = mb.global("ops", &[0; 16], false);
            let p = b.global_addr(g);
            let eight = b.iconst(PTR, 8);
            let q = b.binary(BinaryOp::Add, p, eight);
            let (va, vb) = (b.iconst(ty, a), b.iconst(ty, b_));
            b.store(p, va);
            b.store(q, vb);
            let x = b.load(ty, p);
            let y = b.load(ty, q);
            line(b, 30);
            b.binary(op, x, y);
        })
    };
    assert_error(&run_default(&div(BinaryOp::SDiv, Type::I32, 5, 0)), ErrorKind::DivisionByZero, "main", 30);
    assert_error(&run_default(&div(BinaryOp::URem, Type::I8, 5, 0)), ErrorKind::DivisionByZero, "main", 30);
    let m = div(BinaryOp::SDiv, Type::I32, 0x8000_0000, 0xffff_ffff);
    assert_error(&run_default(&m), ErrorKind::SignedDivisionOverflow, "main", 30);
    let m = div(BinaryOp::SRem, Type::I64, 1 << 63, u64::MAX);
    assert_error(&run_default(&m), ErrorKind::SignedDivisionOverflow, "main", 30);
    let m = div(BinaryOp::Shl, Type::I32, 1, 32);
    assert_error(&run_default(&m), ErrorKind::ShiftOutOfRange, "main", 30);
    let m = div(BinaryOp::AShr, Type::I8, 1, 200);
    assert_error(&run_default(&m), ErrorKind::ShiftOutOfRange, "main", 30);
    // The same operations in range are fine.
    assert_eq!(run_default(&div(BinaryOp::Shl, Type::I32, 1, 31)).outcome, Outcome::Exit(0));
    assert_eq!(run_default(&div(BinaryOp::SDiv, Type::I32, 0x8000_0000, 1)).outcome, Outcome::Exit(0));
}

#[test]
fn assertions_abort_and_unreachable() {
    let m = error_program(|_, b| {
        let f = b.iconst(Type::I1, 0);
        line(b, 40);
        b.assert(f);
    });
    assert_error(&run_default(&m), ErrorKind::AssertionFailed, "main", 40);

    let m = error_program(|mb, b| {
        let assert_fail = mb.declare("__assert_fail", &[PTR, PTR, Type::I32, PTR], None);
        let (e, file, func) = (mb.string("e", "x > 0"), mb.string("f", "t.c"), mb.string("fn", "main"));
        let (e, file, func) = (b.global_addr(e), b.global_addr(file), b.global_addr(func));
        let l = b.iconst(Type::I32, 41);
        line(b, 41);
        b.call(assert_fail, &[e, file, l, func], None);
    });
    let r = run_default(&m);
    let msg = assert_error(&r, ErrorKind::AssertionFailed, "main", 41);
    assert_eq!(msg, "assertion `x > 0' failed in function 'main'");
    assert_eq!(String::from_utf8_lossy(&r.stderr), "t.c:41: main: Assertion `x > 0' failed.\n");

    let m = error_program(|mb, b| {
        let abort = mb.declare("abort", &[], None);
        line(b, 42);
        b.call(abort, &[], None);
    });
    assert_error(&run_default(&m), ErrorKind::Abort, "main", 42);

    let mut mb = ModuleBuilder::new();
    mb.main(|b, _| {
        line(b, 43);
        b.unreachable();
    });
    assert_error(&run_default(&mb.finish()), ErrorKind::Unreachable, "main", 43);
}

#[test]
fn unbounded_recursion_overflows_the_stack() {
    let mut mb = ModuleBuilder::new();
    let f = mb.declare("f", &[Type::I32], Some(Type::I32));
    mb.define(f, |b, p| {
        let one = b.iconst(Type::I32, 1);
        let n = b.binary(BinaryOp::Add, p[0], one);
        line(b, 3);
        let (_, r) = b.call(f, &[n], Some(Type::I32));
        b.ret(r);
    });
    mb.main(|b, _| {
        let z = b.iconst(Type::I32, 0);
        line(b, 9);
        let (_, r) = b.call(f, &[z], Some(Type::I32));
        b.ret(r);
    });
    let m = mb.finish();
    let r = run(&m, &RunConfig { stack_limit: 1600, ..RunConfig::default() });
    let msg = assert_error(&r, ErrorKind::StackOverflow, "f", 3);
    assert_eq!(msg, "calling 'f' exceeds the stack limit of 1600 bytes (100 frames use 1600 bytes)");
    // The default limit is the native 8 MiB.
    let r = run_default(&m);
    assert_error(&r, ErrorKind::StackOverflow, "f", 3);
}

#[test]
fn huge_stack_objects_overflow_the_stack() {
    let m = error_program(|_, b| {
        let n = b.iconst(Type::I64, 1 << 40);
        line(b, 50);
        b.dyn_alloca(n);
    });
    assert_error(&run_default(&m), ErrorKind::StackOverflow, "main", 50);
}

// ---------------------------------------------------------------------------------------
// Unsupported paths and malformed programs.

#[test]
fn unsupported_instructions_and_unknown_externals_end_the_path() {
    let mut mb = ModuleBuilder::new();
    let msg = mb.module.add_message("floating-point arithmetic (fadd)");
    mb.main(|b, _| {
        line(b, 17);
        b.unsupported(msg);
    });
    let m = mb.finish();
    let r = run_default(&m);
    assert_unsupported(&r, "floating-point arithmetic (fadd)", 17);
    assert_eq!(r.diagnostic(&m), "penumbra: unsupported: floating-point arithmetic (fadd) at test.c:17");

    let m = error_program(|mb, b| {
        let f = mb.declare("frobnicate", &[], Some(Type::I32));
        line(b, 18);
        b.call(f, &[], Some(Type::I32));
    });
    assert_unsupported(&run_default(&m), "unknown external function 'frobnicate'", 18);

    let m = error_program(|mb, b| {
        let g = mb.global_init("environ", 8, GlobalInit::External);
        let p = b.global_addr(g);
        line(b, 19);
        b.load(PTR, p);
    });
    assert_unsupported(&run_default(&m), "external global 'environ' is not modelled", 19);

    let m = error_program(|mb, b| {
        let msg = mb.module.add_message("initialiser with a floating-point constant");
        let g = mb.global_init("weird", 8, GlobalInit::Unsupported(msg));
        let p = b.global_addr(g);
        line(b, 20);
        b.load(PTR, p);
    });
    assert_unsupported(&run_default(&m), "initialiser with a floating-point constant", 20);
}

#[test]
fn programs_that_cannot_run_are_reported_not_panicked_on() {
    let mut mb = ModuleBuilder::new();
    mb.declare("main", &[], Some(Type::I32));
    let m = mb.finish();
    assert_unsupported(&run_default(&m), "the program defines no 'main' function", 0);

    let mut mb = ModuleBuilder::new();
    let main = mb.declare("main", &[Type::I64], Some(Type::I32));
    mb.define(main, |b, _| {
        let z = b.iconst(Type::I32, 0);
        b.ret(Some(z));
    });
    let r = run_default(&mb.finish());
    let Outcome::Unsupported { message, .. } = r.outcome else { panic!() };
    assert!(message.starts_with("'main' has an unsupported signature (i64)"), "{message}");

    // A body without a terminator fails verification.
    let mut mb = ModuleBuilder::new();
    let main = mb.declare("main", &[], Some(Type::I32));
    mb.define(main, |b, _| {
        b.iconst(Type::I32, 0);
        let x = b.iconst(Type::I32, 1);
        b.binary(BinaryOp::Add, x, x);
    });
    let r = run_default(&mb.module);
    let Outcome::Unsupported { message, .. } = r.outcome else { panic!() };
    assert!(message.starts_with("invalid IR: @main"), "{message}");
    assert!(Program::new(&mb.module).is_err());
}

#[test]
fn deep_recursion_of_a_large_function_overflows_the_register_stack() {
    // 300 values per frame: 16M values run out after about 56,000 frames, before the default
    // depth limit of 100,000.
    let mut mb = ModuleBuilder::new();
    let f = mb.declare("big", &[Type::I32], Some(Type::I32));
    mb.define(f, |b, p| {
        let one = b.iconst(Type::I32, 1);
        let mut acc = p[0];
        for _ in 0..300 {
            acc = b.binary(BinaryOp::Add, acc, one);
        }
        line(b, 6);
        let (_, r) = b.call(f, &[acc], Some(Type::I32));
        b.ret(r);
    });
    mb.main(|b, _| {
        let z = b.iconst(Type::I32, 0);
        let (_, r) = b.call(f, &[z], Some(Type::I32));
        b.ret(r);
    });
    let r = run_default(&mb.finish());
    let msg = assert_error(&r, ErrorKind::StackOverflow, "big", 6);
    assert_eq!(msg, "calling 'big' exceeds the stack limit of 16777216 values in all frames");
}
