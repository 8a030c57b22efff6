//! A real build (issue 16, item 2): a make project with an object archive, built with
//! `CC=wllvm` (scripts/install-deps.sh installs it, scripts/wllvm-env.sh sets it up), runs
//! natively, and `extract-bc` gives the whole program's bitcode, which penumbra runs; built on
//! musl (scripts/musl-clang-15 under wllvm), the bitcode runs with `--libc musl` and its tests
//! end on the static musl binary as penumbra found.

use crate::support::{penumbra, EXIT_PROGRAM_ERROR};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const MAIN: &str = r#"#include <stdlib.h>
int check(int x);
int scale(int x);
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  int x = atoi(argv[1]);
  if (check(x))
    return scale(x);
  return 0;
}
"#;

/// Reads one past its table for x = 4 (line 5).
const CHECK: &str = r#"
int check(int x) {
  int table[4] = {1, 2, 3, 4};
  if (x >= 0 && x <= 4)
    return table[x];
  return 0;
}
"#;

const SCALE: &str = "int scale(int x) { return x * 10; }\n";

const MAKEFILE: &str = "prog: main.o check.o libscale.a
\t$(CC) $(CFLAGS) -o $@ main.o check.o libscale.a
libscale.a: scale.o
\tar rcs $@ scale.o
%.o: %.c
\t$(CC) $(CFLAGS) -c $< -o $@
";

fn wllvm_bin() -> PathBuf {
    let venv = std::env::var_os("PENUMBRA_WLLVM_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/penumbra/wllvm"));
    let bin = venv.join("bin");
    assert!(bin.join("wllvm").is_file(), "wllvm is not installed in {}: run scripts/install-deps.sh", venv.display());
    bin
}

/// Runs `program args` in `dir` with wllvm set up as scripts/wllvm-env.sh sets it.
fn with_wllvm(dir: &Path, program: &str, args: &[&str]) {
    with_wllvm_over(dir, program, args, "clang-15");
}

/// The same with `compiler` under wllvm (scripts/musl-clang-15 for builds on musl, found on
/// the PATH as `. scripts/wllvm-env.sh musl` puts it there).
fn with_wllvm_over(dir: &Path, program: &str, args: &[&str], compiler: &str) {
    let bin = wllvm_bin();
    let scripts = crate::support::repo_root().join("scripts");
    let path = format!("{}:{}:{}", bin.display(), scripts.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .env("LLVM_COMPILER", "clang")
        .env("LLVM_CC_NAME", compiler)
        .env("LLVM_LINK_NAME", "llvm-link-15")
        .env("LLVM_AR_NAME", "llvm-ar-15")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(out.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_make_build_with_wllvm_gives_the_whole_program() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("main.c", MAIN), ("check.c", CHECK), ("scale.c", SCALE), ("Makefile", MAKEFILE)] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    with_wllvm(dir.path(), "make", &["-s", "CC=wllvm", "CFLAGS=-O0 -g -Xclang -disable-O0-optnone"]);
    // The native binary works.
    let native = Command::new(dir.path().join("prog")).arg("3").status().unwrap();
    assert_eq!(native.code(), Some(30));
    with_wllvm(dir.path(), "extract-bc", &["prog"]);
    let bitcode = dir.path().join("prog.bc");
    assert!(bitcode.is_file());

    // The whole program, archive member included, runs under penumbra.
    let exec = penumbra(["exec".as_ref(), bitcode.as_os_str(), "--".as_ref(), "3".as_ref()]);
    exec.assert_status(30);
    let exec = penumbra(["exec".as_ref(), bitcode.as_os_str(), "--".as_ref(), "4".as_ref()]);
    exec.assert_status(EXIT_PROGRAM_ERROR);
    let check = dir.path().join("check.c");
    assert!(exec.stderr.contains("out-of-bounds-read"), "{}", exec.stderr);
    assert!(exec.stderr.contains(&format!("at {}:5", check.display())), "{}", exec.stderr);

    // Symbolically, every error is the read at check.c:5, and its argument reads as 4.
    let run = penumbra([
        "run".as_ref(),
        bitcode.as_os_str(),
        "--sym-arg".as_ref(),
        "2".as_ref(),
        "--json".as_ref(),
        "--no-tests".as_ref(),
    ]);
    run.assert_status(0);
    let s: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(s["unsupported"], 0);
    let errors: Vec<&Value> = s["tests"].as_array().unwrap().iter().filter(|t| t["kind"] == "error").collect();
    assert!(!errors.is_empty());
    for t in errors {
        assert_eq!(t["error"]["kind"], "out-of-bounds-read");
        assert_eq!((t["error"]["file"].as_str(), t["error"]["line"].as_u64()), (check.to_str(), Some(5)));
        let bytes = crate::support::test_object(t, "arg00");
        let text: String = bytes.iter().take_while(|&&b| b != 0).map(|&b| b as char).collect();
        // atoi: optional blanks and sign, then digits.
        let digits: String =
            text.trim_start().trim_start_matches('+').chars().take_while(char::is_ascii_digit).collect();
        assert_eq!(digits.parse::<i32>().ok(), Some(4), "argument {text:?}");
    }
}

/// Reads its argument and its standard input through musl's stdio and string functions.
const READER: &str = r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  char line[8];
  int got = fgets(line, sizeof line, stdin) != NULL;
  if (got)
    printf("read %.2s|\n", line);
  if (argc > 1 && strcmp(argv[1], "-n") == 0)
    return got ? 3 : 4;
  if (got && line[0] == 'q')
    return 5;
  return argc;
}
"#;

/// A build on musl (`. scripts/wllvm-env.sh musl`: scripts/musl-clang-15 under wllvm) gives a
/// static musl binary and the program's bitcode; `penumbra run --libc musl` on the bitcode
/// finds every status, and each test run natively on the binary (its argv and stdin) ends with
/// the status penumbra found.
#[test]
fn a_build_on_musl_runs_with_musl_as_code_and_replays_on_its_binary() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("reader.c"), READER).unwrap();
    let flags = ["-O0", "-g", "-Xclang", "-disable-O0-optnone", "reader.c", "-o", "reader"];
    with_wllvm_over(dir.path(), "wllvm", &flags, "musl-clang-15");
    with_wllvm_over(dir.path(), "extract-bc", &["reader"], "musl-clang-15");
    let binary = dir.path().join("reader");
    let out_dir = dir.path().join("out");
    let run = penumbra([
        "run".as_ref(),
        dir.path().join("reader.bc").as_os_str(),
        "--libc".as_ref(),
        "musl".as_ref(),
        "--sym-args".as_ref(),
        "0".as_ref(),
        "1".as_ref(),
        "2".as_ref(),
        "--sym-stdin".as_ref(),
        "2".as_ref(),
        "--max-time".as_ref(),
        "60".as_ref(),
        "--json".as_ref(),
        "--output-dir".as_ref(),
        out_dir.as_os_str(),
    ]);
    run.assert_status(0);
    let s: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!((s["errors"].as_u64(), s["unsupported"].as_u64()), (Some(0), Some(0)), "{s}");
    let tests = s["tests"].as_array().unwrap();
    let statuses: std::collections::BTreeSet<i64> = tests.iter().map(|t| t["exit_code"].as_i64().unwrap()).collect();
    // 4 (no line) cannot happen: stdin always has its 2 bytes, and fgets reads them.
    assert_eq!(statuses, [1, 2, 3, 5].into_iter().collect());
    let bytes = crate::support::test_object;
    for t in tests {
        let args: Vec<String> = match bytes(t, "n_args").first() {
            Some(&1) => vec![String::from_utf8_lossy(bytes(t, "arg00").split(|&b| b == 0).next().unwrap()).into()],
            _ => Vec::new(),
        };
        let mut child = Command::new(&binary)
            .args(&args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), &bytes(t, "stdin")).unwrap();
        let native = child.wait().unwrap();
        assert_eq!(native.code().map(i64::from), t["exit_code"].as_i64(), "{t}");
    }
    // `penumbra replay` builds the bitcode natively on musl (it was compiled against musl's
    // headers) and runs every test: each ends with penumbra's status and prints what
    // `penumbra exec --ktest` prints for it.
    assert!(tests.iter().all(|t| t.get("ktest").is_none()), "plain exits are written without .ktest files");
    let replay = penumbra(["replay".as_ref(), out_dir.as_os_str(), "--json".as_ref()]);
    replay.assert_no_panic();
    replay.assert_status(0);
    assert!(replay.stderr.contains("natively on musl"), "{}", replay.stderr);
    let replayed: Vec<Value> = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(replayed.len(), tests.len());
    for (r, t) in replayed.iter().zip(tests) {
        assert_eq!((r["class"].as_str(), r["name"].as_str()), (Some("silent"), t["name"].as_str()), "{r}");
        assert_eq!(r["new_outcome"]["exit"].as_i64(), t["exit_code"].as_i64(), "{r}");
        let exec = penumbra([
            "exec".as_ref(),
            dir.path().join("reader.bc").as_os_str(),
            "--libc".as_ref(),
            "musl".as_ref(),
            "--ktest".as_ref(),
            // Plain exits have no .ktest file: exec finds the test in tests.jsonl by its name.
            out_dir.join(format!("{}.ktest", t["name"].as_str().unwrap())).as_os_str(),
        ]);
        exec.assert_no_panic();
        let sha: String = {
            use sha2::Digest;
            sha2::Sha256::digest(&exec.stdout).iter().map(|b| format!("{b:02x}")).collect()
        };
        assert_eq!(r["new_outcome"]["stdout_sha256"].as_str(), Some(sha.as_str()), "{r}: {}", exec.stdout_str());
    }
}
