//! Constructs penumbra does not model lower to `unsupported` instructions that name the
//! construct and the C line, and the rest of the program still lowers (and verifies).

use crate::common::{body, func_text, lower, unsupported};
use penumbra_ir::{GlobalInit, InstData};

#[test]
fn quadruple_float_arithmetic_is_unsupported_at_its_line_and_the_other_path_survives() {
    let m = lower(
        "float.c",
        "int f(int x) {
  if (x > 3) {
    __float128 y = x * (__float128)1.5;
    x = (int)y;
  }
  return x + 1;
}
",
    );
    let found = unsupported(&m, "f");
    assert_eq!(found[0], ("floating point of type FP128: sitofp".to_string(), 3), "{found:?}");
    assert!(found.contains(&("floating point of type FP128: fptosi".to_string(), 4)), "{found:?}");
    // The x <= 3 path is ordinary code: the entry branches to the return block directly.
    let t = func_text(&m, "f");
    assert!(t.contains("brif v3, block1, block2(v0)"), "{t}");
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
fn wide_integers_vectors_and_quadruple_float_phis_are_unsupported() {
    let m = lower(
        "types.c",
        "__int128 big(__int128 a) { return a * 3; }
__float128 pick(int c, __float128 a, __float128 b) { return c ? a : b; }
typedef int v4 __attribute__((vector_size(16)));
int vsum(v4 a, v4 b) { v4 c = a + b; return c[0]; }
",
    );
    let msgs = |f: &str| unsupported(&m, f).into_iter().map(|(m, _)| m).collect::<Vec<_>>();
    assert!(msgs("big").contains(&"128-bit integer: mul".to_string()), "{:?}", msgs("big"));
    assert_eq!(msgs("pick")[0], "floating point of type FP128: phi");
    // The placeholder block parameter keeps the float phi's incoming branches well-typed.
    assert!(func_text(&m, "pick").contains("jump block3(0)"), "{}", func_text(&m, "pick"));
    assert!(msgs("vsum").iter().any(|m| m.starts_with("vector type")), "{:?}", msgs("vsum"));
}

#[test]
fn unsupported_global_initialisers_are_marked_on_the_global() {
    let m = lower("q.c", "__float128 q = 1.5;\ndouble d = 0.5;\nint main(void) { return 0; }\n");
    let q = &m.globals[m.global_by_name("q").unwrap()];
    match q.init {
        GlobalInit::Unsupported(msg) => {
            assert!(m.messages[msg].contains("floating-point constant Quadruple"), "{}", m.messages[msg])
        }
        ref other => panic!("{other:?}"),
    }
    let d = &m.globals[m.global_by_name("d").unwrap()];
    assert_eq!(d.init, GlobalInit::Bytes { bytes: 0.5f64.to_bits().to_le_bytes().to_vec(), relocs: vec![] });
}

#[test]
fn code_after_an_unsupported_instruction_continues_in_a_block_without_predecessors() {
    let m = lower("dead.c", "int h(int x) {\n  __float128 d = x;\n  int y = x + 2;\n  return y + (int)d;\n}\n");
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
