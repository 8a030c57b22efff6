//! Programs of several files (issue 16, item 1): C sources, LLVM bitcode and textual IR linked
//! into one module by every command; reports name the file of each place; replay builds all
//! the files natively.

use crate::support::{penumbra, EXIT_PROGRAM_ERROR, EXIT_USAGE};
use serde_json::Value;
use std::path::{Path, PathBuf};

const MAIN: &str = r#"#include "penumbra.h"
int check(int x);
int scale(int x);
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  if (check(x))
    return scale(x);
  return 0;
}
"#;

/// The change: the new version's bound reads past the table (line 4 branches, line 5 reads).
const CHECK: &str = r#"#include "penumbra.h"
int check(int x) {
  int table[4] = {1, 2, 3, 4};
  if (x >= 0 && x <= change(3, 4))
    return table[x];
  return 0;
}
"#;

const SCALE: &str = "int scale(int x) { return x * 10; }\n";

/// A directory with main.c, check.c, scale.c, and scale.bc and scale.ll made from scale.c.
struct Program {
    dir: tempfile::TempDir,
}

impl Program {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [("main.c", MAIN), ("check.c", CHECK), ("scale.c", SCALE)] {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        for (flag, out) in [("-c", "scale.bc"), ("-S", "scale.ll")] {
            let status = std::process::Command::new("clang-15")
                .args([flag, "-emit-llvm", "-g", "-O0", "scale.c", "-o", out])
                .current_dir(dir.path())
                .status()
                .unwrap();
            assert!(status.success(), "clang-15 {flag} scale.c");
        }
        Program { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `penumbra ARGS...` in the program's directory, the files named relatively.
    fn penumbra(&self, args: &[&str]) -> crate::support::Output {
        let mut cmd = std::process::Command::new(crate::support::penumbra_bin());
        cmd.args(args).current_dir(self.dir.path());
        crate::support::run_command(cmd)
    }
}

fn json(out: &crate::support::Output) -> Value {
    out.assert_no_panic();
    out.assert_status(0);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stdout_str()))
}

#[test]
fn shadow_links_sources_and_bitcode_and_names_the_files() {
    let p = Program::new();
    for third in ["scale.bc", "scale.ll", "scale.c"] {
        let s = json(&p.penumbra(&["shadow", "main.c", "check.c", third, "--json", "--output-dir", "out"]));
        assert_eq!(s["diff_paths"], 1, "with {third}");
        let t = &s["tests"][0];
        assert_eq!(t["inputs"]["x"]["int"], 4);
        assert_eq!((t["file"].as_str(), t["line"].as_u64()), (Some("check.c"), Some(4)));
        assert_eq!(t["error"]["kind"], "out-of-bounds-read");
        assert_eq!((t["error"]["file"].as_str(), t["error"]["line"].as_u64()), (Some("check.c"), Some(5)));
        let human = p.penumbra(&["shadow", "main.c", "check.c", third]);
        assert!(
            human
                .stdout_str()
                .contains("check.c:4: old false, new true; x=4; ends with out-of-bounds-read at check.c:5"),
            "{}",
            human.stdout_str()
        );
        // Replay builds the three files natively and finds the regression.
        let replay = p.penumbra(&["replay", "out", "--json"]);
        replay.assert_status(0);
        let tests: Value = serde_json::from_slice(&replay.stdout).unwrap();
        assert_eq!(tests[0]["class"], "regression", "with {third}");
        std::fs::remove_dir_all(p.path("out")).unwrap();
    }
}

#[test]
fn run_exec_and_ir_take_several_files() {
    let p = Program::new();
    let s = json(&p.penumbra(&["run", "main.c", "check.c", "scale.ll", "--version", "old", "--no-tests", "--json"]));
    assert_eq!((s["errors"].as_u64(), s["unsupported"].as_u64()), (Some(0), Some(0)));
    let exec = p.penumbra(&["exec", "main.c", "check.c", "scale.bc", "--input", "x=3"]);
    exec.assert_status(30);
    let exec = p.penumbra(&["exec", "main.c", "check.c", "scale.bc", "--input", "x=4"]);
    exec.assert_status(EXIT_PROGRAM_ERROR);
    assert!(exec.stderr.contains("out-of-bounds-read") && exec.stderr.contains("at check.c:5"), "{}", exec.stderr);
    let ir = p.penumbra(&["ir", "main.c", "check.c", "scale.bc"]);
    ir.assert_status(0);
    let text = ir.stdout_str();
    for f in ["fn @main(", "fn @check(", "fn @scale("] {
        assert!(text.contains(f), "{f} in:\n{text}");
    }
}

#[test]
fn missing_files_and_missing_main_are_usage_errors() {
    let p = Program::new();
    let out = p.penumbra(&["run", "check.c", "scale.c", "--no-tests"]);
    assert_eq!(out.status, Some(EXIT_USAGE), "{}", out.stderr);
    assert!(out.stderr.contains("check.c and scale.c defines no `main` function"), "{}", out.stderr);
    let out = p.penumbra(&["run", "main.c", "nothere.c", "--no-tests"]);
    assert_eq!(out.status, Some(EXIT_USAGE), "{}", out.stderr);
    assert!(out.stderr.contains("cannot read nothere.c: no such file"), "{}", out.stderr);
    // Two definitions of one function: llvm-link's error, verbatim.
    let out = penumbra([
        "run".as_ref(),
        p.path("scale.c").as_os_str(),
        p.path("scale.ll").as_os_str(),
        Path::new("--no-tests").as_os_str(),
    ]);
    assert_ne!(out.status, Some(0));
    assert!(out.stderr.contains("symbol multiply defined"), "{}", out.stderr);
}

/// A build's compilation database gives each file its own flags: check.c needs the build's
/// `-Iinc` (for limits.h of its own) and `-DNEW_LIMIT=4`, compiled in the build's directory;
/// replay builds it natively the same way.
#[test]
fn a_compilation_database_gives_each_file_its_flags() {
    let p = Program::new();
    std::fs::create_dir(p.path("inc")).unwrap();
    std::fs::write(p.path("inc/bounds.h"), "#define OLD_LIMIT 3\n").unwrap();
    let check = CHECK
        .replace("#include \"penumbra.h\"", "#include \"penumbra.h\"\n#include \"bounds.h\"")
        .replace("change(3, 4)", "change(OLD_LIMIT, NEW_LIMIT)");
    std::fs::write(p.path("check.c"), check).unwrap();
    let db = serde_json::json!([
        {"directory": p.dir.path(), "file": "check.c",
         "command": "gcc -O2 -Iinc '-DNEW_LIMIT=4' -MD -MF check.d -c check.c -o check.o"},
        {"directory": p.dir.path(), "file": "main.c", "arguments": ["cc", "-O2", "-c", "main.c", "-o", "main.o"]}
    ]);
    std::fs::write(p.path("compile_commands.json"), db.to_string()).unwrap();
    let without = p.penumbra(&["shadow", "main.c", "check.c", "scale.c", "--no-tests"]);
    assert_ne!(without.status, Some(0));
    assert!(without.stderr.contains("'bounds.h' file not found"), "{}", without.stderr);
    let s = json(&p.penumbra(&[
        "shadow",
        "main.c",
        "check.c",
        "scale.c",
        "--compile-commands",
        "compile_commands.json",
        "--json",
        "--output-dir",
        "out",
    ]));
    assert_eq!(s["diff_paths"], 1);
    assert_eq!(s["tests"][0]["inputs"]["x"]["int"], 4);
    let replay = p.penumbra(&["replay", "out", "--json"]);
    replay.assert_status(0);
    let tests: Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(tests[0]["class"], "regression", "{}", replay.stderr);
}

/// A patched bound, annotated: x = 4 passes the check in the new version only.
const BOUND: &str = r#"#include "penumbra.h"
int check(int x) {
  return x >= 0 && x <= change(3, 4);
}
"#;

/// An annotated file compiled to bitcode for penumbra (as a wllvm build of a patched project
/// makes it: `change` calls the symbolic build's `__penumbra_execute`, declared weak so the
/// native link of that build succeeds): shadow finds the divergence in it, and replay's
/// native builds answer `__penumbra_execute` for their own version (before, both crashed
/// calling the missing function, a "both-error"). Bitcode compiled without sanitizers has no
/// AddressSanitizer checks natively, so the divergence is one of output here.
#[test]
fn an_annotated_file_given_as_bitcode_is_shadowed_and_replayed() {
    let p = Program::new();
    std::fs::write(p.path("bound.c"), BOUND).unwrap();
    let include = crate::support::repo_root().join("ir-frontend/include");
    let status = std::process::Command::new("clang-15")
        .args(["-c", "-emit-llvm", "-g", "-O0", "-Xclang", "-disable-O0-optnone", "-I"])
        .arg(&include)
        .args(["bound.c", "-o", "bound.bc"])
        .current_dir(p.dir.path())
        .status()
        .unwrap();
    assert!(status.success(), "clang-15 bound.c");
    let s = json(&p.penumbra(&["shadow", "main.c", "bound.bc", "scale.c", "--json", "--output-dir", "out"]));
    assert_eq!(s["diff_paths"], 1, "{s}");
    assert_eq!(s["tests"][0]["inputs"]["x"]["int"], 4);
    let replay = p.penumbra(&["replay", "out", "--json"]);
    replay.assert_status(0);
    let tests: Value = serde_json::from_slice(&replay.stdout).unwrap();
    let t = &tests[0];
    assert_eq!(t["class"], "output-diff", "{}", replay.stderr);
    assert_eq!((t["old_outcome"]["exit"].as_i64(), t["new_outcome"]["exit"].as_i64()), (Some(0), Some(40)), "{t}");
}
