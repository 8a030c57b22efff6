//! Floating point lowers to the IR's `f32`/`f64`/`f80` values: arithmetic, comparisons,
//! conversions, the intrinsics clang emits, `long double` constants (which `llvm-ir` cannot
//! read: see `llvm_info::expose_x87_constants`) in code and in initialisers, and `long double`
//! variable arguments in 16-aligned slots.

use crate::common::{func_text, lower};
use penumbra_ir::GlobalInit;

fn lines(text: &str) -> Vec<String> {
    text.lines().map(|l| l.split(';').next().unwrap_or("").trim_end().to_string()).collect()
}

#[test]
fn double_arithmetic_comparisons_and_conversions() {
    let m = lower(
        "f.c",
        "int f(int x) {
  if (x > 3) {
    double y = x * 1.5;
    x = (int)y;
  }
  return x + 1;
}
double cvt(unsigned long u, float f) { return (double)u + f; }
int cmp(double a, double b) { return a < b || a != a; }
",
    );
    assert_eq!(
        lines(&func_text(&m, "f"))[1..8],
        [
            "block0(v0: i32):",
            "    v3 = icmp.sgt v0, 3",
            "    brif v3, block1, block2(v0)",
            "block1:",
            "    v4 = sitofp.f64 v0",
            "    v6 = fmul.f64 v4, 1.5f64",
            "    v7 = fptosi.i32 v6",
        ]
    );
    let cvt = func_text(&m, "cvt");
    for line in ["v2 = uitofp.f64 v0", "v3 = fpext.f64 v1", "v4 = fadd.f64 v2, v3"] {
        assert!(cvt.contains(line), "{line} in {cvt}");
    }
    let cmp = func_text(&m, "cmp");
    assert!(cmp.contains("v3 = fcmp.olt v0, v1") && cmp.contains("v5 = fcmp.une v0, v0"), "{cmp}");
}

#[test]
fn long_double_constants_in_code_and_initialisers_keep_all_80_bits() {
    let m = lower("ld.c", "long double x = 1.5L;\nlong double half(long double v) { return v / 2 + 0.1L; }\n");
    let t = func_text(&m, "half");
    assert!(t.contains("v2 = fdiv.f80 v0, 0xK40008000000000000000"), "{t}");
    // 0.1L is 0x3FFB_CCCCCCCCCCCCCCCD: not a double's 0x3FB999999999999A widened.
    assert!(t.contains("v4 = fadd.f80 v2, 0xK3FFBCCCCCCCCCCCCCCCD"), "{t}");
    let x = &m.globals[m.global_by_name("x").unwrap()];
    let mut bytes = (0x3FFF_C000_0000_0000_0000u128).to_le_bytes()[..10].to_vec();
    bytes.resize(16, 0);
    assert_eq!(x.init, GlobalInit::Bytes { bytes, relocs: vec![] });
    // The marker globals that carry the constants through `llvm-ir` are not program globals.
    assert!(m.globals.values().all(|g| !g.name.contains("penumbra_x87")));
}

#[test]
fn intrinsics_and_type_punning() {
    let m = lower(
        "i.c",
        "double mag(double a, double b) { return __builtin_fabs(a) + __builtin_copysign(a, b); }
unsigned char top(float f) { union { float f; unsigned u; } v = {f}; return v.u >> 24; }
long long back(long double l) { return (long long)l; }
",
    );
    let mag = func_text(&m, "mag");
    for line in ["v2 = fabs.f64 v0", "v3 = copysign.f64 v0, v1", "v4 = fadd.f64 v2, v3"] {
        assert!(mag.contains(line), "{line} in {mag}");
    }
    let top = func_text(&m, "top");
    assert!(top.contains("store.f32 v0, [v1]") && top.contains("v2 = load.i32 [v1]"), "{top}");
    assert!(func_text(&m, "back").contains("v1 = fptosi.i64 v0"));
}

#[test]
fn long_double_variable_arguments_get_16_aligned_slots() {
    let m = lower(
        "va.c",
        "long double first(int n, ...);
long double call(void) { return first(3, 1, 1.0L, 2.5); }
long double first(int n, ...) { return 0; }
",
    );
    assert_eq!(
        lines(&func_text(&m, "call"))[2..10],
        [
            "    v0 = alloca 40, align 16",
            "    store.i32 1, [v0]",
            "    v5 = add.i64 v0, 16",
            "    store.f80 0xK3FFF8000000000000000, [v5]",
            "    v8 = add.i64 v0, 32",
            "    store.f64 2.5f64, [v8]",
            "    v9 = call.f80 @first(3, v0)",
            "    ret v9",
        ]
    );
}
