//! One test per C construct the frontend covers: what the lowered code contains.

use crate::common::{body, func, func_text, insts, lower, text, unsupported};
use penumbra_ir::{GlobalInit, InstData, RelocTarget, Signature, Type, Version};

#[test]
fn variable_length_arrays_are_dynamic_allocas_scaled_by_the_element_size() {
    let m = lower("vla.c", "int f(int n) { long a[n]; a[0] = n; return (int)a[0]; }");
    let t = func_text(&m, "f");
    assert!(t.contains("= mul.i64 v") && t.contains(", 8 "), "{t}");
    assert!(t.contains("dyn_alloca"), "{t}");
    assert!(!t.contains("stacksave") && !t.contains("llvm."), "{t}");
}

#[test]
fn constant_size_allocas_use_the_type_layout() {
    let m = lower(
        "alloca.c",
        "struct s { char c; long l; }; int g(struct s *); int f(void) { struct s x[3]; char b[5]; return g(x) + b[0]; }",
    );
    let allocas: Vec<(u32, u32)> = insts(&m, "f")
        .into_iter()
        .filter_map(|i| match i {
            InstData::Alloca { size, align } => Some((*size, *align)),
            _ => None,
        })
        .collect();
    assert_eq!(allocas, vec![(48, 16), (5, 1)]);
}

#[test]
fn function_pointers_are_addresses_and_calls_through_them_are_indirect() {
    let m = lower(
        "fp.c",
        "static int sq(int x) { return x * x; }
int (*fp)(int);
int apply(int (*f)(int), int x) { return f(x); }
int main(void) { fp = sq; return apply(fp, 3); }",
    );
    assert!(func_text(&m, "apply").contains("v2 = call_indirect.i32 v0(v1)"), "{}", func_text(&m, "apply"));
    assert!(func_text(&m, "main").contains("store.i64 @sq, [@fp]"), "{}", func_text(&m, "main"));
}

#[test]
fn memcpy_memmove_and_memset_intrinsics_call_the_c_library() {
    let m = lower(
        "mem.c",
        "#include <string.h>
struct big { int a[10]; };
void f(struct big *d, struct big *s, char *p) { *d = *s; memmove(p, p + 1, 3); memset(p, 'x', 4); }",
    );
    let t = text(&m);
    assert!(t.contains("declare @memcpy(i64, i64, i64) -> i64"), "{t}");
    assert!(t.contains("declare @memmove(i64, i64, i64) -> i64"), "{t}");
    assert!(t.contains("declare @memset(i64, i32, i64) -> i64"), "{t}");
    assert!(t.contains("call.i64 @memcpy(v0, v1, 40)"), "{t}");
    assert!(t.contains("call.i64 @memset(v2, 120, 4)"), "{t}");
    assert!(!t.contains("@llvm."), "{t}");
}

#[test]
fn calls_of_external_variadic_functions_pass_every_argument() {
    let m = lower(
        "printf.c",
        "#include <stdio.h>
int main(void) { long l = 5; printf(\"%d %ld %s\\n\", 1, l, \"x\"); puts(\"hi\"); return 0; }",
    );
    let t = text(&m);
    assert!(t.contains("declare @printf(i64, ...) -> i32"), "{t}");
    assert!(t.contains("call.i32 @printf(@.str, 1, 5, @.str.1)"), "{t}");
    assert!(t.contains("declare @puts(i64) -> i32"), "{t}");
}

#[test]
fn extern_globals_are_external_with_their_size() {
    let m = lower(
        "ext.c",
        "#include <stdio.h>
extern int counter; extern char buffer[100]; extern struct opaque o;
void *addr(void) { return &o; }
int main(void) { fprintf(stderr, \"%d\", counter + buffer[1]); return 0; }",
    );
    let g = |name: &str| m.globals[m.global_by_name(name).unwrap_or_else(|| panic!("no @{name}"))].clone();
    assert_eq!((g("counter").size, g("counter").init), (4, GlobalInit::External));
    assert_eq!((g("buffer").size, g("buffer").init), (100, GlobalInit::External));
    assert_eq!((g("stderr").size, g("stderr").align, g("stderr").init), (8, 8, GlobalInit::External));
    // An incomplete type has no size: 0 bytes, still external.
    assert_eq!((g("o").size, g("o").init), (0, GlobalInit::External));
}

#[test]
fn global_initialisers_hold_padding_nested_arrays_and_strings() {
    let m = lower(
        "init.c",
        "struct item { char tag; short n; long v; char name[4]; };
struct item items[2] = { { 'a', 1, -2, \"xy\" }, { 'b', 300, 1L << 40, \"wxyz\" } };
char msg[] = \"hi\";
const int zeros[100];
static int counter = 0;
int bump(void) { static int calls = 7; return ++calls + ++counter + items[1].n + msg[0] + zeros[3]; }",
    );
    let g = |name: &str| m.globals[m.global_by_name(name).unwrap_or_else(|| panic!("no @{name}"))].clone();
    let items = g("items");
    assert_eq!((items.size, items.align), (48, 16));
    let GlobalInit::Bytes { bytes, relocs } = items.init else { panic!("items: {:?}", items.init) };
    assert!(relocs.is_empty());
    let mut want = vec![0u8; 48];
    want[0] = b'a';
    want[2..4].copy_from_slice(&1u16.to_le_bytes());
    want[8..16].copy_from_slice(&(-2i64).to_le_bytes());
    want[16..18].copy_from_slice(b"xy");
    want[24] = b'b';
    want[26..28].copy_from_slice(&300u16.to_le_bytes());
    want[32..40].copy_from_slice(&(1i64 << 40).to_le_bytes());
    want[40..44].copy_from_slice(b"wxyz");
    assert_eq!(bytes, want);
    assert_eq!(g("msg").init, GlobalInit::Bytes { bytes: b"hi\0".to_vec(), relocs: vec![] });
    assert_eq!((g("zeros").size, g("zeros").constant, g("zeros").init), (400, true, GlobalInit::Zero));
    assert_eq!(g("counter").init, GlobalInit::Zero);
    assert_eq!(g("bump.calls").init, GlobalInit::Bytes { bytes: 7i32.to_le_bytes().to_vec(), relocs: vec![] });
}

#[test]
fn pointer_initialisers_are_relocations_with_addends() {
    let m = lower(
        "relocs.c",
        "struct node { int v; struct node *next; };
struct node b = { 2, 0 };
struct node a = { 1, &b };
int arr[10];
int *mid = &arr[5];
char *str = \"hello\" + 2;
int f(int x) { return x; }
int (*table[2])(int) = { f, 0 };
long addr = (long)&arr[3];
long diff = (char *)&arr[4] - (char *)&arr[1];
",
    );
    let g = |name: &str| m.globals[m.global_by_name(name).unwrap_or_else(|| panic!("no @{name}"))].clone();
    let relocs = |name: &str| match g(name).init {
        GlobalInit::Bytes { relocs, .. } => relocs,
        other => panic!("{name}: {other:?}"),
    };
    let gid = |name: &str| RelocTarget::Global(m.global_by_name(name).unwrap());
    let r = relocs("a");
    assert_eq!((r.len(), r[0].offset, r[0].target, r[0].addend), (1, 8, gid("b"), 0));
    let r = relocs("mid");
    assert_eq!((r[0].target, r[0].addend), (gid("arr"), 20));
    let r = relocs("str");
    assert_eq!(r[0].addend, 2);
    let r = relocs("table");
    assert_eq!(r[0].target, RelocTarget::Func(m.func_by_name("f").unwrap()));
    let r = relocs("addr");
    assert_eq!((r[0].offset, r[0].target, r[0].addend), (0, gid("arr"), 12));
    assert_eq!(g("diff").init, GlobalInit::Bytes { bytes: 12i64.to_le_bytes().to_vec(), relocs: vec![] });
}

#[test]
fn unions_are_bytes_read_at_several_widths() {
    let m = lower(
        "union.c",
        "union u { unsigned int i; unsigned char b[4]; unsigned short h[2]; };
int f(union u *p) { p->i = 0x01020304; return p->b[1] + p->h[1]; }",
    );
    let t = func_text(&m, "f");
    assert!(t.contains("store.i32 16909060, [v0]"), "{t}");
    assert!(t.contains("v3 = add.i64 v0, 1") && t.contains("load.i8 [v3]"), "{t}");
    assert!(t.contains("load.i16"), "{t}");
}

#[test]
fn two_dimensional_arrays_scale_each_index() {
    let m = lower("grid.c", "int grid[3][5]; int at(int r, int c) { return grid[r][c]; }");
    let t = func_text(&m, "at");
    assert!(t.contains("mul.i64") && t.contains(", 20"), "row stride 20: {t}");
    assert!(t.contains(", 4 "), "column stride 4: {t}");
}

#[test]
fn small_structs_returned_in_registers_use_a_hidden_result_buffer() {
    let m = lower(
        "ret.c",
        "struct pair { long a; int b; };
struct pair make(long a, int b) { struct pair p = { a, b }; return p; }
int use(void) { struct pair p = make(3, 4); return p.b; }",
    );
    // (buffer, a, b) and no result.
    assert_eq!(
        func(&m, "make").sig,
        Signature { params: vec![Type::I64, Type::I64, Type::I32], ret: None, varargs: false }
    );
    let t = func_text(&m, "make");
    assert!(t.contains("store.i64 v") && t.contains(", [v0]"), "{t}");
    let t = func_text(&m, "use");
    assert!(t.contains("call @make(v0, 3, 4)"), "{t}");
    assert!(unsupported(&m, "use").is_empty());
}

#[test]
fn byval_struct_parameters_are_copied_on_entry() {
    let m = lower(
        "byval.c",
        "struct big { long x[8]; };
long first(struct big b) { b.x[0] = 9; return b.x[1]; }",
    );
    let t = func_text(&m, "first");
    let copy = t.find("v1 = alloca 64, align 8").unwrap_or_else(|| panic!("{t}"));
    let memcpy = t.find("call.i64 @memcpy(v1, v0, 64)").unwrap_or_else(|| panic!("{t}"));
    assert!(copy < memcpy, "{t}");
    assert!(t.contains("store.i64 9, [v1]"), "writes go to the copy: {t}");
}

#[test]
fn user_variadic_functions_read_their_arguments_from_an_area_the_caller_fills() {
    let m = lower(
        "va.c",
        "#include <stdarg.h>
int sum(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
int main(void) { return sum(2, 40, 2); }",
    );
    assert_eq!(
        func(&m, "sum").sig,
        Signature { params: vec![Type::I32, Type::I64], ret: Some(Type::I32), varargs: false }
    );
    let t = func_text(&m, "sum");
    assert!(t.contains("store.i32 48, [") && t.contains("store.i32 176, ["), "{t}");
    let t = func_text(&m, "main");
    assert!(t.contains("v0 = alloca 16, align 16"), "{t}");
    assert!(t.contains("store.i32 40, [v0]") && t.contains("store.i32 2, [v"), "{t}");
    assert!(t.contains("call.i32 @sum(2, v0)"), "{t}");
    assert!(unsupported(&m, "sum").is_empty() && unsupported(&m, "main").is_empty());
}

#[test]
fn annotations_become_ir_instructions() {
    let m = lower(
        "ann.c",
        r#"#include "penumbra.h"
int f(int *p, int *q) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  penumbra_assume(x > 0);
  int *r = change(p, q);
  if (penumbra_execute(OLD)) x++;
  if (penumbra_execute(NEW)) x--;
  penumbra_assert(x != 3);
  return *r + change((short)x, (short)1);
}"#,
    );
    let ops = insts(&m, "f");
    assert!(ops.iter().any(|i| matches!(i, InstData::MakeSymbolic { .. })));
    assert!(ops.iter().any(|i| matches!(i, InstData::Assume { .. })));
    assert!(ops.iter().any(|i| matches!(i, InstData::Assert { .. })));
    assert!(ops.iter().any(|i| matches!(i, InstData::Execute { version: Version::Old })));
    assert!(ops.iter().any(|i| matches!(i, InstData::Execute { version: Version::New })));
    let t = func_text(&m, "f");
    assert!(t.contains("change.i64 v0, v1"), "pointer change: {t}");
    assert!(t.contains("change.i32"), "short change is promoted to int: {t}");
    // The annotation functions are instructions, not declarations.
    assert!(!text(&m).contains("declare"), "{}", text(&m));
}

#[test]
fn klee_spellings_are_the_same_instructions() {
    let m = lower(
        "klee.c",
        "#include <klee/klee.h>
int main(void) { int a; klee_make_symbolic(&a, sizeof a, \"a\"); klee_assume(a < 10); klee_assert(a != 5); return klee_change(a, a + 1); }",
    );
    let ops = insts(&m, "main");
    assert!(ops.iter().any(|i| matches!(i, InstData::MakeSymbolic { .. })));
    assert!(ops.iter().any(|i| matches!(i, InstData::Assume { .. })));
    assert!(ops.iter().any(|i| matches!(i, InstData::Assert { .. })));
    assert!(ops.iter().any(|i| matches!(i, InstData::Change { .. })));
}

#[test]
fn a_non_constant_execute_version_is_unsupported() {
    let m = lower(
        "exec.c",
        "#include \"penumbra.h\"\nint f(int v) {\n  return penumbra_execute(v);\n}\nint g(void) { return penumbra_execute(2); }",
    );
    assert_eq!(unsupported(&m, "f"), vec![("penumbra_execute with a version that is not a constant".to_string(), 3)]);
    assert_eq!(unsupported(&m, "g")[0].0, "penumbra_execute(2): the version must be PENUMBRA_OLD or PENUMBRA_NEW");
}

#[test]
fn trap_is_unreachable_and_abort_is_an_ordinary_call() {
    let m = lower(
        "trap.c",
        "#include <stdlib.h>\n#include <assert.h>\nint f(int x) { if (x) __builtin_trap(); assert(x < 5); if (x > 7) abort(); return x; }",
    );
    let t = text(&m);
    assert!(t.contains("unreachable"), "{t}");
    assert!(t.contains("declare @abort()"), "{t}");
    assert!(t.contains("declare @__assert_fail(i64, i64, i32, i64)"), "{t}");
}

#[test]
fn pointer_integer_conversions_are_width_changes() {
    let m = lower(
        "ptrint.c",
        "#include <stdint.h>\nint low(int *p) { return (int)(intptr_t)p; }\nint *back(unsigned x) { return (int *)(uintptr_t)x; }\nint same(int *p, int *q) { return p == q; }",
    );
    assert!(func_text(&m, "low").contains("trunc.i32 v0"), "{}", func_text(&m, "low"));
    assert!(func_text(&m, "back").contains("zext.i64 v0"), "{}", func_text(&m, "back"));
    assert!(func_text(&m, "same").contains("icmp.eq v0, v1"), "{}", func_text(&m, "same"));
}

#[test]
fn switch_on_a_64_bit_value_keeps_its_cases_and_on_a_char_masks_them() {
    let m = lower(
        "sw.c",
        "int big(long x) { switch (x) { case 1L << 40: return 1; case -5: return 2; } return 0; }
int ch(unsigned char c) { switch (c) { case 200: return 1; case 'a': return 2; } return 0; }",
    );
    let b = body(&m, "big");
    let InstData::Switch { table, .. } = b.insts[b.layout.terminator(b.layout.entry_block().unwrap()).unwrap()] else {
        panic!("{}", func_text(&m, "big"))
    };
    let cases: Vec<u64> = b.jump_tables[table].cases.iter().map(|(v, _)| *v).collect();
    assert_eq!(cases, vec![1 << 40, (-5i64) as u64]);
    assert!(func_text(&m, "ch").contains("200: block"), "{}", func_text(&m, "ch"));
}

#[test]
fn source_lines_come_from_debug_information() {
    let m = lower("lines.c", "\nint f(int x)\n{\n  int y = x * 2;\n\n  return y + 1;\n}\n");
    assert_eq!(func(&m, "f").line, 2);
    let b = body(&m, "f");
    let lines: Vec<u32> =
        b.layout.blocks().iter().flat_map(|&bl| b.layout.block_insts(bl)).map(|&i| b.srclocs[i].line).collect();
    assert_eq!(lines, vec![4, 6, 6]);
}

/// A `static inline` function of a header keeps the header's lines, and its file says so: its
/// lines are never taken for lines of the program.
#[test]
fn static_inline_functions_of_headers_have_the_header_lines() {
    let m = lower("klee_int.c", "#include <klee/klee.h>\nint main(void) {\n  return klee_int(\"n\");\n}\n");
    let header = penumbra_ir::KLEE_H;
    let def = header.lines().position(|l| l.contains("klee_int(const char")).expect("klee_int in klee.h") as u32 + 1;
    let klee_int = func(&m, "klee_int");
    assert!(klee_int.file.ends_with("klee/klee.h"), "{}", klee_int.file);
    assert_eq!(klee_int.line, def);
    let b = body(&m, "klee_int");
    let lines = header.lines().count() as u32;
    assert!(b.layout.blocks().iter().flat_map(|&bl| b.layout.block_insts(bl)).all(|&i| {
        let line = b.srclocs[i].line;
        line >= def && line <= lines
    }));
    assert_eq!((func(&m, "main").line, func(&m, "main").file.as_str()), (2, "klee_int.c"));
}

#[test]
fn the_same_program_lowers_to_the_same_text() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/kitchen_sink.c"))
        .expect("kitchen_sink.c");
    let a = text(&lower("kitchen_sink.c", &src));
    let b = text(&lower("kitchen_sink.c", &src));
    assert_eq!(a, b);
}

#[test]
fn atomics_are_load_compute_store_in_one_thread() {
    let m = lower(
        "atomic.c",
        "#include <stdatomic.h>
atomic_int counter;
int bump(int k) { atomic_fetch_add(&counter, k); int e = 5; atomic_compare_exchange_strong(&counter, &e, 9); return e; }",
    );
    assert!(unsupported(&m, "bump").is_empty());
    let t = func_text(&m, "bump");
    assert!(
        t.contains("v3 = load.i32 [@counter]")
            && t.contains("v4 = add.i32 v3, v0")
            && t.contains("store.i32 v4, [@counter]"),
        "{t}"
    );
    assert!(t.contains("icmp.eq v7, 5") && t.contains("select.i32 v8, 9, v7"), "{t}");
}
