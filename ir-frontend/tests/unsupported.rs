//! Constructs penumbra does not model lower to `unsupported` instructions that name the
//! construct and the C line, and the rest of the program still lowers (and verifies).

use crate::common::{body, func, func_text, lower, unsupported};
use penumbra_ir::{GlobalInit, InstData};

#[test]
fn double_arithmetic_is_unsupported_at_its_line_and_the_other_path_survives() {
    let m = lower(
        "float.c",
        "int f(int x) {
  if (x > 3) {
    double y = x * 1.5;
    x = (int)y;
  }
  return x + 1;
}
",
    );
    let found = unsupported(&m, "f");
    assert_eq!(found[0], ("floating point: sitofp".to_string(), 3), "{found:?}");
    assert!(found.contains(&("floating point: fmul".to_string(), 3)), "{found:?}");
    assert!(found.contains(&("floating point: fptosi".to_string(), 4)), "{found:?}");
    // The x <= 3 path is ordinary code: the entry branches to the return block directly.
    let t = func_text(&m, "f");
    assert!(t.contains("brif v3, block1, block2(v0)"), "{t}");
    assert!(t.contains("v7 = add.i32 v1, 1"), "{t}");
}

#[test]
fn inline_assembly_is_unsupported_at_its_line() {
    let m = lower(
        "asm.c",
        "int g(int x) {
  int r;
  __asm__(\"movl %1, %0\" : \"=r\"(r) : \"r\"(x));
  return r;
}
",
    );
    assert_eq!(unsupported(&m, "g"), vec![("inline assembly".to_string(), 3)]);
}

#[test]
fn wide_integers_vectors_and_float_phis_are_unsupported() {
    let m = lower(
        "types.c",
        "__int128 big(__int128 a) { return a * 3; }
float pick(int c, float a, float b) { return c ? a : b; }
typedef int v4 __attribute__((vector_size(16)));
int vsum(v4 a, v4 b) { v4 c = a + b; return c[0]; }
",
    );
    let msgs = |f: &str| unsupported(&m, f).into_iter().map(|(m, _)| m).collect::<Vec<_>>();
    assert!(msgs("big").contains(&"128-bit integer: mul".to_string()), "{:?}", msgs("big"));
    assert_eq!(msgs("pick")[0], "floating point: phi");
    // The placeholder block parameter keeps the float phi's incoming branches well-typed.
    assert!(func_text(&m, "pick").contains("jump block3(0)"), "{}", func_text(&m, "pick"));
    assert!(msgs("vsum").iter().any(|m| m.starts_with("vector type")), "{:?}", msgs("vsum"));
}

#[test]
fn calls_with_floating_point_arguments_or_results_are_unsupported_but_declared() {
    let m = lower(
        "math.c",
        "#include <math.h>\n#include <stdio.h>\nint main(void) {\n  printf(\"%f\\n\", sqrt(2.0));\n  return 0;\n}\n",
    );
    assert_eq!(unsupported(&m, "main")[0], ("floating point: call to sqrt".to_string(), 4));
    assert!(func(&m, "sqrt").body.is_none());
}

#[test]
fn unsupported_global_initialisers_are_marked_on_the_global() {
    let m = lower("ld.c", "long double x = 1.5L;\ndouble d = 0.5;\nint main(void) { return 0; }\n");
    let x = &m.globals[m.global_by_name("x").unwrap()];
    match x.init {
        GlobalInit::Unsupported(msg) => {
            assert!(m.messages[msg].contains("floating-point constant"), "{}", m.messages[msg])
        }
        ref other => panic!("{other:?}"),
    }
    let d = &m.globals[m.global_by_name("d").unwrap()];
    assert_eq!(d.init, GlobalInit::Bytes { bytes: 0.5f64.to_bits().to_le_bytes().to_vec(), relocs: vec![] });
}

#[test]
fn code_after_an_unsupported_instruction_continues_in_a_block_without_predecessors() {
    let m = lower("dead.c", "int h(int x) {\n  double d = x;\n  int y = x + 2;\n  return y + (int)d;\n}\n");
    let b = body(&m, "h");
    let blocks = b.layout.blocks();
    // Entry: unsupported sitofp; then the remaining code in fresh blocks no branch reaches.
    let entry_term = b.layout.terminator(blocks[0]).unwrap();
    assert!(matches!(b.insts[entry_term], InstData::Unsupported { .. }));
    let targets: Vec<_> = blocks
        .iter()
        .filter_map(|&bl| b.layout.terminator(bl))
        .flat_map(|t| b.successors(t))
        .map(|d| b.dests[d].block)
        .collect();
    assert!(blocks[1..].iter().all(|bl| !targets.contains(bl)));
    assert!(func_text(&m, "h").contains("add.i32 v0, 2"), "{}", func_text(&m, "h"));
}
