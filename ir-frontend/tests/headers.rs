//! `penumbra.h` and `klee/klee.h`: usable with no flags in the symbolic build, and as plain C
//! in native old/new builds where `change(a, b)` is `a` resp. `b`.

use crate::common::lower;
use penumbra_ir::frontend::write_headers;
use penumbra_ir::{KLEE_H, PENUMBRA_H};
use std::path::Path;
use std::process::Command;

#[test]
fn both_headers_are_found_without_flags() {
    let m = lower(
        "both.c",
        "#include \"penumbra.h\"\n#include <klee/klee.h>\nint main(void) { int x = klee_int(\"x\"); return change(x, x + 1) + OLD + NEW + PENUMBRA_NEW; }\n",
    );
    assert!(m.func_by_name("klee_int").is_some());
}

#[test]
fn short_names_can_be_switched_off() {
    let m = lower(
        "noshort.c",
        "#define PENUMBRA_NO_SHORT_NAMES\n#include \"penumbra.h\"\nenum version { OLD = 7, NEW = 9 };\nint f(void) { return OLD + NEW + penumbra_execute(PENUMBRA_OLD); }\n",
    );
    assert!(m.func_by_name("f").is_some());
}

#[test]
fn the_embedded_headers_are_the_shipped_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    assert_eq!(std::fs::read_to_string(dir.join("penumbra.h")).unwrap(), PENUMBRA_H);
    assert_eq!(std::fs::read_to_string(dir.join("klee/klee.h")).unwrap(), KLEE_H);
}

/// Builds `source` natively with the given defines and returns (exit code, stdout).
fn run_native(dir: &Path, name: &str, source: &str, defines: &[&str]) -> Result<(i32, String), String> {
    let include = dir.join("include");
    write_headers(&include).map_err(|e| e.to_string())?;
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, source).map_err(|e| e.to_string())?;
    let exe = dir.join(name);
    let mut cmd = Command::new("clang-15");
    cmd.args(["-O0", "-g", "-fwrapv", "-I"]).arg(&include);
    for d in defines {
        cmd.arg(format!("-D{d}"));
    }
    let out = cmd.arg(&c).arg("-o").arg(&exe).output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let run = Command::new(&exe).output().map_err(|e| e.to_string())?;
    Ok((run.status.code().unwrap_or(-1), String::from_utf8_lossy(&run.stdout).into_owned()))
}

const NATIVE: &str = r#"#include <stdio.h>
#include <klee/klee.h>
struct s { int v; };
int main(void) {
  int x = 7;
  struct s a = { 1 }, b = { 2 };
  int branch = change(x > 5, x > 10);
  int value = klee_change(x, x * 2);
  struct s *p = change(&a, &b);
  char c = change('o', 'n');
  int only = 0;
  if (penumbra_execute(OLD)) only += 1;
  if (penumbra_execute(NEW)) only += 2;
  printf("%d %d %d %c %d\n", branch, value, p->v, c, only);
  return value;
}
"#;

#[test]
fn native_builds_pick_the_old_or_the_new_side() {
    let dir = tempfile::tempdir().expect("tempdir");
    let old = run_native(dir.path(), "old", NATIVE, &["PENUMBRA_VERSION_OLD"]).expect("old build");
    assert_eq!(old, (7, "1 7 1 o 1\n".to_string()));
    let new = run_native(dir.path(), "new", NATIVE, &["PENUMBRA_VERSION_NEW"]).expect("new build");
    assert_eq!(new, (14, "0 14 2 n 2\n".to_string()));
}

#[test]
fn native_builds_declare_the_runtime_functions() {
    // make_symbolic and friends are declarations the replay runtime defines: here, the
    // program defines them itself.
    let src = r#"#include <stdio.h>
#include "penumbra.h"
void penumbra_make_symbolic(void *p, size_t n, const char *name) { (void)name; for (size_t i = 0; i < n; i++) ((char *)p)[i] = 3; }
void penumbra_assume(int c) { (void)c; }
void penumbra_assert(int c) { if (!c) printf("assert\n"); }
int main(void) { int x; penumbra_make_symbolic(&x, sizeof x, "x"); penumbra_assume(x > 0); penumbra_assert(x == 0); printf("%d\n", x); return 0; }
"#;
    let dir = tempfile::tempdir().expect("tempdir");
    let out = run_native(dir.path(), "rt", src, &["PENUMBRA_VERSION_NEW"]).expect("builds");
    assert_eq!(out, (0, "assert\n50529027\n".to_string()));
}

#[test]
fn defining_both_versions_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = run_native(dir.path(), "both", NATIVE, &["PENUMBRA_VERSION_OLD", "PENUMBRA_VERSION_NEW"]).unwrap_err();
    assert!(err.contains("define at most one of"), "{err}");
}

#[test]
fn the_symbolic_build_is_warning_free_c11() {
    let dir = tempfile::tempdir().expect("tempdir");
    let include = dir.path().join("include");
    write_headers(&include).expect("headers");
    let c = dir.path().join("s.c");
    std::fs::write(&c, NATIVE).expect("write");
    let out = Command::new("clang-15")
        .args(["-std=c11", "-pedantic", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-I"])
        .arg(&include)
        .arg(&c)
        .output()
        .expect("clang-15 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
