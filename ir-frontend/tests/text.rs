//! Exact IR text for small functions: the shape other components code against.

use crate::common::{func_text, lower, text};

#[test]
/// `change(old, new)` is a `penumbra_execute` block in the header; with pure operands the
/// frontend folds it back into one `change`, its sides' blocks and the execute gone (the
/// numbers skip what was folded away).
fn change_in_a_branch_condition_becomes_a_change_of_the_two_comparisons() {
    let m = lower(
        "classify.c",
        r#"#include "penumbra.h"
int classify(int x) {
  if (change(x > 5, x > 10))
    return 1;
  return 0;
}
"#,
    );
    let expected = "\
fn @classify(i32) -> i32 {  ; line 2
block0(v0: i32):
    v8 = icmp.sgt v0, 5                      ; line 3
    v9 = zext.i32 v8                         ; line 3
    v11 = icmp.sgt v0, 10                    ; line 3
    v12 = zext.i32 v11                       ; line 3
    v13 = change.i32 v9, v12                 ; line 3
    v14 = icmp.ne v13, 0                     ; line 3
    brif v14, block4, block5                 ; line 3
block4:
    jump block6(1)                           ; line 4
block5:
    jump block6(0)                           ; line 5
block6(v2: i32):
    ret v2                                   ; line 6
}
";
    assert_eq!(func_text(&m, "classify"), expected);
}

#[test]
fn struct_field_and_array_element_accesses_are_offset_arithmetic() {
    let m = lower(
        "field.c",
        "struct rec { char tag; int count; long total; short hist[3]; };
int field(struct rec *r, int i) {
  return r->count + r->hist[i];
}
",
    );
    // count is at 4, hist at 16 (after the 8-aligned long at 8); hist[i] is 16 + 2 * i.
    let expected = "\
fn @field(i64, i32) -> i32 {  ; line 2
block0(v0: i64, v1: i32):
    v3 = add.i64 v0, 4                       ; line 3
    v4 = load.i32 [v3]                       ; line 3
    v6 = add.i64 v0, 16                      ; line 3
    v7 = sext.i64 v1                         ; line 3
    v9 = mul.i64 v7, 2                       ; line 3
    v10 = add.i64 v6, v9                     ; line 3
    v11 = load.i16 [v10]                     ; line 3
    v12 = sext.i32 v11                       ; line 3
    v13 = add.i32 v4, v12                    ; line 3
    ret v13                                  ; line 3
}
";
    assert_eq!(func_text(&m, "field"), expected);
}

#[test]
fn switch_cases_sharing_a_block_and_negative_cases() {
    let m = lower(
        "grade.c",
        "int grade(int score) {
  switch (score) {
  case 1: case 2: return 10;
  case 5: return 3;
  case -1: return 7;
  default: return 0;
  }
}
",
    );
    let expected = "\
fn @grade(i32) -> i32 {  ; line 1
block0(v0: i32):
    switch.i32 v0, block4 [1: block1, 2: block1, 5: block2, -1: block3] ; line 2
block1:
    jump block5(10)                          ; line 3
block2:
    jump block5(3)                           ; line 4
block3:
    jump block5(7)                           ; line 5
block4:
    jump block5(0)                           ; line 6
block5(v1: i32):
    ret v1                                   ; line 8
}
";
    assert_eq!(func_text(&m, "grade"), expected);
}

#[test]
fn loop_phis_become_block_parameters_passed_by_each_predecessor() {
    let m = lower(
        "loop.c",
        "int sum_below(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}
",
    );
    let expected = "\
fn @sum_below(i32) -> i32 {  ; line 1
block0(v0: i32):
    jump block1(0, 0)                        ; line 3
block1(v1: i32, v2: i32):
    v4 = icmp.slt v2, v0                     ; line 3
    brif v4, block2, block4                  ; line 3
block2:
    v5 = add.i32 v1, v2                      ; line 4
    jump block3                              ; line 4
block3:
    v7 = add.i32 v2, 1                       ; line 3
    jump block1(v5, v7)                      ; line 3
block4:
    ret v1                                   ; line 5
}
";
    assert_eq!(func_text(&m, "sum_below"), expected);
}

#[test]
fn globals_with_relocations_and_a_constant_gep_into_a_global_array() {
    let m = lower(
        "globals.c",
        "int table[4] = {1, 2, 3, 4};
int *third = &table[2];
const char *names[] = {\"ab\", 0};
int (*hook)(int) = 0;
int second(void) { return table[1]; }
",
    );
    let expected = "\
; module globals.c
global @table: 16 bytes, align 16 = c\"\\01\\00\\00\\00\\02\\00\\00\\00\\03\\00\\00\\00\\04\\00\\00\\00\"
global @third: 8 bytes, align 8 = c\"\\00\\00\\00\\00\\00\\00\\00\\00\" relocs [0: @table+8]
const @.str: 3 bytes, align 1 = c\"ab\\00\"
global @names: 16 bytes, align 16 = c\"\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\" relocs [0: @.str]
global @hook: 8 bytes, align 8 = zeroed

fn @second() -> i32 {  ; line 5
block0:
    v2 = add.i64 @table, 4                   ; line 5
    v3 = load.i32 [v2]                       ; line 5
    ret v3                                   ; line 5
}
";
    assert_eq!(text(&m), expected);
}

#[test]
fn function_pointers_in_globals_are_relocations_to_functions() {
    let m = lower(
        "hooks.c",
        "static int twice(int x) { return 2 * x; }
struct ops { int id; int (*run)(int); } ops = { 7, twice };
int call(int x) { return ops.run(x); }
",
    );
    let expected = "\
; module hooks.c
global @ops: 16 bytes, align 8 = c\"\\07\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\\00\" relocs [8: @twice]

fn @twice(i32) -> i32 {  ; line 1
block0(v0: i32):
    v2 = mul.i32 2, v0                       ; line 1
    ret v2                                   ; line 1
}

fn @call(i32) -> i32 {  ; line 3
block0(v0: i32):
    v3 = add.i64 @ops, 8                     ; line 3
    v4 = load.i64 [v3]                       ; line 3
    v5 = call_indirect.i32 v4(v0)            ; line 3
    ret v5                                   ; line 3
}
";
    assert_eq!(text(&m), expected);
}

#[test]
fn constant_geps_into_a_struct_array_are_told_apart_by_their_types() {
    // `table[0].fn` is `gep (%struct.entry, @table, 0, 1)`, `table[1].key` is
    // `gep ([2 x %struct.entry], @table, 0, 1)`: same indices, offsets 8 and 16.
    let m = lower(
        "table.c",
        "static int inc(int x) { return x + 1; }
struct entry { const char *key; int (*fn)(int); };
static struct entry table[] = { { \"inc\", inc }, { 0, 0 } };
int main(void) {
  return table[0].fn(1) + (table[1].key == 0);
}
",
    );
    let expected = "\
fn @main() -> i32 {  ; line 4
block0:
    v2 = add.i64 @table, 8                   ; line 5
    v3 = load.i64 [v2]                       ; line 5
    v5 = call_indirect.i32 v3(1)             ; line 5
    v7 = add.i64 @table, 16                  ; line 5
    v8 = load.i64 [v7]                       ; line 5
    v10 = icmp.eq v8, 0                      ; line 5
    v11 = zext.i32 v10                       ; line 5
    v12 = add.i32 v5, v11                    ; line 5
    ret v12                                  ; line 5
}
";
    assert_eq!(func_text(&m, "main"), expected);
}

#[test]
fn constructors_and_destructors_are_listed_in_run_order() {
    let m = lower(
        "ctors.c",
        r#"__attribute__((constructor)) static void a(void) {}
__attribute__((constructor(101))) static void b(void) {}
__attribute__((destructor)) static void c(void) {}
__attribute__((destructor)) static void d(void) {}
__attribute__((destructor(101))) static void e(void) {}
int main(void) { return 0; }
"#,
    );
    let names = |fs: &[penumbra_ir::Func]| fs.iter().map(|&f| m.funcs[f].name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&m.ctors), ["b", "a"]);
    assert_eq!(names(&m.dtors), ["d", "c", "e"]);
    let listing = text(&m);
    assert!(
        listing.contains("; constructors (in run order): @b @a\n; destructors (in run order): @d @c @e\n"),
        "{listing}"
    );
    assert!(!listing.contains("llvm.global"), "the tables are not program data: {listing}");
}
