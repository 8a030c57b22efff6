//! Tests of the builder, text form and verifier together.

use super::*;

/// `fn @clamp(i32) -> i32`: returns `x < 10 ? x : 10` through a block parameter.
fn clamp_module() -> Module {
    let mut module = Module::new("clamp.c");
    let mut body = Body::default();
    {
        let mut b = FunctionBuilder::new(&mut body);
        let entry = b.create_block();
        let x = b.append_block_param(entry, Type::I32);
        let join = b.create_block();
        let r = b.append_block_param(join, Type::I32);
        b.switch_to_block(entry);
        b.set_srcloc(SrcLoc { line: 3, col: 7 });
        let ten = b.iconst(Type::I32, 10);
        let c = b.icmp(IntCC::Slt, x, ten);
        let t = b.dest(join, &[x]);
        let e = b.dest(join, &[ten]);
        b.brif(c, t, e);
        b.switch_to_block(join);
        b.set_srcloc(SrcLoc { line: 4, col: 3 });
        b.ret(Some(r));
    }
    module.add_func(Function {
        name: "clamp".into(),
        sig: Signature { params: vec![Type::I32], ret: Some(Type::I32), varargs: false },
        body: Some(body),
        line: 2,
        file: "clamp.c".into(),
    });
    module
}

#[test]
fn text_form_of_a_small_function() {
    let module = clamp_module();
    assert_eq!(verify_module(&module), Ok(()));
    let text = module_to_string(&module);
    let expected = "\
; module clamp.c

fn @clamp(i32) -> i32 {  ; line 2
block0(v0: i32):
    v3 = icmp.slt v0, 10                     ; line 3
    brif v3, block1(v0), block1(10)          ; line 3
block1(v1: i32):
    ret v1                                   ; line 4
}
";
    assert_eq!(text, expected);
}

#[test]
fn constants_are_interned_per_body() {
    let mut body = Body::default();
    let mut b = FunctionBuilder::new(&mut body);
    let a = b.iconst(Type::I32, 7);
    let c = b.iconst(Type::I32, 7);
    let d = b.iconst(Type::I64, 7);
    let m = b.iconst(Type::I8, 0x1ff);
    assert_eq!(a, c);
    assert_ne!(a, d);
    assert_eq!(body.value_def(m), ValueDef::Const(0xff));
}

#[test]
fn verifier_rejects_a_use_that_does_not_dominate() {
    let mut module = clamp_module();
    // Make the entry branch pass a value defined later in block1: not dominated.
    let func = module.func_by_name("clamp").unwrap();
    let body = module.funcs[func].body.as_mut().unwrap();
    let join = body.layout.blocks()[1];
    let late = {
        let mut b = FunctionBuilder::new(body);
        // Insert a fresh block1 instruction before the ret by rebuilding block1's list.
        b.switch_to_block(join);
        let one = b.iconst(Type::I32, 1);
        let p = b.body().block_params(join)[0];
        b.binary(BinaryOp::Add, p, one)
    };
    let ret = body.layout.block_insts(join)[0];
    // Move the ret to the end so block1 stays well-formed.
    let insts: Vec<Inst> = body.layout.block_insts(join).to_vec();
    let mut layout = Layout::default();
    for &blk in body.layout.blocks().to_vec().iter() {
        layout.append_block(blk);
        let list: Vec<Inst> = if blk == join {
            insts.iter().copied().filter(|&i| i != ret).chain([ret]).collect()
        } else {
            body.layout.block_insts(blk).to_vec()
        };
        for i in list {
            layout.append_inst(blk, i);
        }
    }
    body.layout = layout;
    let entry = body.layout.blocks()[0];
    let brif = body.layout.terminator(entry).unwrap();
    let InstData::Brif { then_dest, .. } = body.insts[brif] else { panic!("not a brif") };
    let mut args = body.dests[then_dest].args;
    args.as_mut_slice(&mut body.value_lists)[0] = late;
    let errors = verify_module(&module).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("not dominated"), "{}", errors[0]);
}

#[test]
fn verifier_reports_type_errors_and_missing_terminators() {
    let mut module = Module::new("bad.c");
    let mut body = Body::default();
    {
        let mut b = FunctionBuilder::new(&mut body);
        let entry = b.create_block();
        b.switch_to_block(entry);
        let x = b.iconst(Type::I32, 1);
        let y = b.iconst(Type::I64, 2);
        b.ins(InstData::Binary { op: BinaryOp::Add, args: [x, y] }, Some(Type::I32));
    }
    module.add_func(Function {
        name: "f".into(),
        sig: Signature::default(),
        body: Some(body),
        line: 0,
        file: String::new(),
    });
    let errors = verify_module(&module).unwrap_err();
    let messages: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(messages, vec!["@f: inst0: block0 does not end in a terminator".to_string()]);
    // With a terminator the type error surfaces.
    let f = module.func_by_name("f").unwrap();
    let body = module.funcs[f].body.as_mut().unwrap();
    let mut b = FunctionBuilder::new(body);
    b.switch_to_block(body_entry(b.body()));
    b.ret(None);
    let errors = verify_module(&module).unwrap_err();
    let messages: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(messages, vec!["@f: inst0: operand v1 has type i64, expected i32".to_string()]);
}

fn body_entry(body: &Body) -> Block {
    body.layout.entry_block().unwrap()
}

/// Fills `entry`, whose parameter is `x`, with `if (x < 0) goto a; else goto b;`: returns `x`,
/// the constant 0 and the condition.
fn diamond_head(fb: &mut FunctionBuilder<'_>, entry: Block, a: Block, b: Block) -> (Value, Value, Value) {
    fb.switch_to_block(entry);
    let x = fb.append_block_param(entry, Type::I32);
    let zero = fb.iconst(Type::I32, 0);
    let c = fb.icmp(IntCC::Slt, x, zero);
    let (da, db) = (fb.dest(a, &[]), fb.dest(b, &[]));
    fb.brif(c, da, db);
    (x, zero, c)
}

#[test]
fn post_dominators_of_a_diamond_a_loop_and_an_early_return() {
    // entry -> (a | b) -> join -> loop header <-> body, header -> exit_block (ret);
    // b also returns early through `early`.
    let mut body = Body::default();
    let (entry, a, b, early, join, header, lbody, exit_block);
    {
        let mut fb = FunctionBuilder::new(&mut body);
        entry = fb.create_block();
        a = fb.create_block();
        b = fb.create_block();
        early = fb.create_block();
        join = fb.create_block();
        header = fb.create_block();
        lbody = fb.create_block();
        exit_block = fb.create_block();
        let (x, zero, c) = diamond_head(&mut fb, entry, a, b);
        fb.switch_to_block(a);
        fb.jump(join, &[]);
        fb.switch_to_block(b);
        let (dj, de) = (fb.dest(join, &[]), fb.dest(early, &[]));
        fb.brif(c, dj, de);
        fb.switch_to_block(early);
        fb.ret(Some(zero));
        fb.switch_to_block(join);
        fb.jump(header, &[]);
        fb.switch_to_block(header);
        let (dl, dx) = (fb.dest(lbody, &[]), fb.dest(exit_block, &[]));
        fb.brif(c, dl, dx);
        fb.switch_to_block(lbody);
        fb.jump(header, &[]);
        fb.switch_to_block(exit_block);
        fb.ret(Some(x));
    }
    let ipdom = immediate_post_dominators(&body);
    let of = |blk: Block| ipdom[blk].expand();
    // The early return means entry's paths meet only at the exit.
    assert_eq!(of(entry), None);
    assert_eq!(of(a), Some(join));
    assert_eq!(of(b), None);
    assert_eq!(of(join), Some(header));
    assert_eq!(of(header), Some(exit_block));
    assert_eq!(of(lbody), Some(header));
    assert_eq!(of(exit_block), None);
    assert_eq!(of(early), None);
}

#[test]
fn returning_post_dominators_leave_out_the_paths_that_end_the_program() {
    // entry -> (a | b) -> join (ret); a may also stop in `dies` (unreachable, after exit).
    let mut body = Body::default();
    let (entry, a, b, dies, join);
    {
        let mut fb = FunctionBuilder::new(&mut body);
        entry = fb.create_block();
        a = fb.create_block();
        b = fb.create_block();
        dies = fb.create_block();
        join = fb.create_block();
        let (x, _, c) = diamond_head(&mut fb, entry, a, b);
        fb.switch_to_block(a);
        let (dj, dd) = (fb.dest(join, &[]), fb.dest(dies, &[]));
        fb.brif(c, dj, dd);
        fb.switch_to_block(dies);
        fb.unreachable();
        fb.switch_to_block(b);
        fb.jump(join, &[]);
        fb.switch_to_block(join);
        fb.ret(Some(x));
    }
    // Over every end, `dies` keeps entry's and a's paths from meeting before the exit.
    let all = immediate_post_dominators(&body);
    assert_eq!((all[entry].expand(), all[a].expand(), all[b].expand()), (None, None, Some(join)));
    // Over the returning paths they meet at `join`; `dies` returns nowhere.
    let returning = returning_post_dominators(&body);
    let of = |blk: Block| returning[blk].expand();
    assert_eq!((of(entry), of(a), of(b), of(dies), of(join)), (Some(join), Some(join), Some(join), None, None));
}

#[test]
fn where_no_path_returns_the_post_dominators_are_over_every_end() {
    // A `main` that ends in `exit`: entry -> (a | b) -> join -> stop (unreachable).
    let mut body = Body::default();
    let (entry, a, b, join, stop);
    {
        let mut fb = FunctionBuilder::new(&mut body);
        entry = fb.create_block();
        a = fb.create_block();
        b = fb.create_block();
        join = fb.create_block();
        stop = fb.create_block();
        diamond_head(&mut fb, entry, a, b);
        fb.switch_to_block(a);
        fb.jump(join, &[]);
        fb.switch_to_block(b);
        fb.jump(join, &[]);
        fb.switch_to_block(join);
        fb.jump(stop, &[]);
        fb.switch_to_block(stop);
        fb.unreachable();
    }
    // The diamond's sides meet at `join`, as over every end.
    let returning = returning_post_dominators(&body);
    let of = |blk: Block| returning[blk].expand();
    assert_eq!((of(entry), of(a), of(b), of(join), of(stop)), (Some(join), Some(join), Some(join), Some(stop), None));
}
