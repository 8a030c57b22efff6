//! `--libc musl` (issue 16, item 3): musl 1.2.3 as bitcode, its code run like the program's,
//! its system calls answered by penumbra's environment. The exec corpus runs with musl too
//! (`exec_corpus`); here: symbolic standard input and arguments flowing through musl's stdio,
//! string and conversion code to exact exit statuses, shadow execution through musl's
//! `printf`, no host files, and a system call penumbra does not model ending the path as
//! unsupported, by name.

use crate::support::{penumbra, penumbra_json_run, write_c, CFile, EXIT_UNSUPPORTED};
use serde_json::Value;
use std::collections::BTreeSet;

/// What replay reports of a run's stdout.
pub(crate) fn sha256(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// `penumbra CMD FILE --libc musl ARGS... --json --output-dir DIR/out` (DIR: the file's
/// directory), its summary.
pub(crate) fn musl_json(cmd: &str, file: &CFile, args: &[&str]) -> Value {
    let musl_args: Vec<&str> = ["--libc", "musl"].into_iter().chain(args.iter().copied()).collect();
    json(&penumbra_json_run(cmd, file, &musl_args))
}

fn json(out: &crate::support::Output) -> Value {
    out.assert_no_panic();
    out.assert_status(0);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stderr))
}

/// A test's object `name` as bytes; the test must have it.
pub(crate) fn object(test: &Value, name: &str) -> Vec<u8> {
    assert!(test["inputs"][name].is_object(), "no object {name} in {test}");
    crate::support::test_object(test, name)
}

const READER: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    char line[16];
    if (!fgets(line, sizeof line, stdin)) { puts("empty"); return 1; }
    if (strncmp(line, "hi", 2) == 0) { printf("greeting %zu\n", strlen(line)); return 2; }
    if (argc > 1 && atoi(argv[1]) == 42) { puts("answer"); return 3; }
    return 0;
}
"#;

/// Symbolic stdin read by musl's `fgets` (through `readv`), compared by musl's `strncmp`, and a
/// symbolic argument parsed by musl's `atoi`: every exit status the program can reach with 3
/// bytes of input is found (`empty` cannot be: stdin always has its 3 bytes), each test
/// replays concretely to its status, and the inputs say why.
#[test]
fn symbolic_input_flows_through_musls_code() {
    let file = write_c("reader.c", READER);
    let s = musl_json(
        "run",
        &file,
        &["--sym-stdin", "3", "--sym-args", "0", "1", "2", "--max-time", "60", "--replay-check"],
    );
    assert_eq!((s["errors"].as_u64(), s["unsupported"].as_u64()), (Some(0), Some(0)), "{s}");
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    let tests = s["tests"].as_array().unwrap();
    let statuses: BTreeSet<i64> = tests.iter().map(|t| t["exit_code"].as_i64().unwrap()).collect();
    assert_eq!(statuses, BTreeSet::from([0, 2, 3]));
    for t in tests {
        let stdin = object(t, "stdin");
        match t["exit_code"].as_i64() {
            Some(2) => assert_eq!(&stdin[..2], b"hi", "{t}"),
            Some(3) => {
                assert_ne!(&stdin[..2], b"hi", "{t}");
                let arg = object(t, "arg00");
                assert_eq!(&arg[..2], b"42", "{t}");
                assert!(arg[2] == 0 || !arg[2].is_ascii_digit(), "{t}");
            }
            _ => {}
        }
    }
}

/// Shadow execution through musl's `printf`: the string printed depends on a changed
/// condition that clang compiles to a `select` (no branch to fork on); musl's `vfprintf` reads
/// the chosen string's bytes and branches on them, so the divergence is found, with an input
/// between the two thresholds. (penumbra's own `printf` model prints symbolic values under the
/// state's model without forking, and finds none here.)
#[test]
fn shadow_execution_through_musls_printf() {
    let file = write_c(
        "size.c",
        r#"#include <stdio.h>
#include "penumbra.h"
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_assume(x >= 0 && x < 100);
    printf("%s\n", x > change(50, 60) ? "big" : "small");
    return 0;
}
"#,
    );
    let s = musl_json("shadow", &file, &["--max-time", "60"]);
    assert_eq!((s["diff_paths"].as_u64(), s["unsupported"].as_u64()), (Some(1), Some(0)), "{s}");
    let divergence = s["tests"].as_array().unwrap().iter().find(|t| t["kind"] == "divergence").expect("a test");
    let x = i32::from_le_bytes(object(divergence, "x").try_into().unwrap());
    assert!((51..=60).contains(&x), "x = {x}: old prints big, new small only there");
}

/// The issue's reproducer: the exit status is the only output that differs (x = 4: old
/// exits 1, new 0), by `return` and by `exit`. With musl it travels through musl's `exit` and
/// `_Exit` to the `exit_group` system call; both C libraries must find the one diff path, at
/// the program's line, with the same sides (issue 34, item 5).
#[test]
fn an_exit_status_that_differs_is_found_with_both_c_libraries() {
    for (ending, include) in [("return r;", ""), ("exit(r);", "#include <stdlib.h>\n")] {
        let source = format!(
            "{include}#include \"penumbra.h\"\nint main(void) {{\n  int x;\n  penumbra_make_symbolic(&x, sizeof x, \"x\");\n  int r = change(x > 3, x > 4);\n  {ending} /* the status */\n}}\n"
        );
        let file = write_c("ex.c", &source);
        let line = crate::support::line_of(&source, "/* the status */");
        for libc in ["models", "musl"] {
            let out_dir = file.dir.path().join(format!("out-{libc}"));
            let s = json(&penumbra([
                "shadow".as_ref(),
                file.path.as_os_str(),
                "--libc".as_ref(),
                libc.as_ref(),
                "--max-time".as_ref(),
                "60".as_ref(),
                "--json".as_ref(),
                "--output-dir".as_ref(),
                out_dir.as_os_str(),
            ]));
            let context = format!("{ending} with --libc {libc}: {s}");
            assert_eq!(s["diff_paths"].as_u64(), Some(1), "{context}");
            let tests = s["tests"].as_array().unwrap();
            assert_eq!(tests.len(), 1, "{context}");
            let t = &tests[0];
            assert_eq!(object(t, "x"), 4i32.to_le_bytes(), "{context}");
            assert_eq!(
                (t["kind"].as_str(), t["line"].as_u64(), t["old"].as_str(), t["new"].as_str()),
                (Some("divergence"), Some(u64::from(line)), Some("value 1"), Some("value 0")),
                "{context}"
            );
            assert_eq!(t["exit_code"].as_i64(), Some(0), "{context}: the new version exits 0");
        }
    }
}

/// Host files are not read: `fopen` fails with ENOENT, as for a file that does not exist.
#[test]
fn host_files_are_not_read() {
    let file = write_c(
        "open.c",
        r#"#include <errno.h>
#include <stdio.h>
int main(void) {
    FILE *f = fopen("/etc/passwd", "r");
    printf("%s %d\n", f ? "opened" : "no file", errno == ENOENT);
    return f != 0;
}
"#,
    );
    let out = penumbra(["exec".as_ref(), file.path.as_os_str(), "--libc".as_ref(), "musl".as_ref()]);
    out.assert_no_panic();
    out.assert_status(0);
    assert_eq!(out.stdout_str(), "no file 1\n");
}

/// A system call the environment does not model ends the run as unsupported, naming it.
#[test]
fn an_unmodelled_system_call_is_unsupported_by_name() {
    let file = write_c(
        "fork.c",
        "#include <unistd.h>\n#include <stdio.h>\nint main(void) {\n    puts(\"before\");\n    return fork() > 0;\n}\n",
    );
    let out = penumbra(["exec".as_ref(), file.path.as_os_str(), "--libc".as_ref(), "musl".as_ref()]);
    out.assert_no_panic();
    out.assert_status(EXIT_UNSUPPORTED);
    assert!(out.stderr.contains("penumbra: unsupported: system call fork (57)"), "{}", out.stderr);
}

/// musl's `abort` raises SIGABRT with `tkill`: the path ends with an `abort` error, as without
/// musl, not as an unsupported system call; the working directory "." is a directory, which
/// reading fails on with EISDIR (as natively: replay sees the same).
#[test]
fn abort_is_an_error_and_the_working_directory_a_directory() {
    let file = write_c(
        "abort.c",
        r#"#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 2) return 9;
    if (argv[1][0] == 'x') abort();
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) return 1;
    char c;
    if (read(fd, &c, 1) < 0 && errno == EISDIR) return 4;
    return 3;
}
"#,
    );
    let s = musl_json("run", &file, &["--sym-args", "1", "1", "1", "--sym-files", "1", "1", "--replay-check"]);
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    assert_eq!((s["errors"].as_u64(), s["unsupported"].as_u64()), (Some(1), Some(0)), "{s}");
    assert_eq!(s["error_kinds"]["abort"].as_u64(), Some(1), "{s}");
    let by_name: BTreeSet<(Vec<u8>, Option<i64>)> =
        s["tests"].as_array().unwrap().iter().map(|t| (object(t, "arg00"), t["exit_code"].as_i64())).collect();
    assert!(by_name.contains(&(b"x\0".to_vec(), None)), "{s}");
    assert!(by_name.contains(&(b".\0".to_vec(), Some(4))), "{s}");
    assert!(by_name.contains(&(b"A\0".to_vec(), Some(3))), "{s}");
}

/// The working directory lists as replay's fresh directory does: `.`, `..` and the symbolic
/// files (getdents64; a file's d_type regular, unknown with --sym-file-types), each of which
/// `lstat` describes: one path, exit 4 entries * 10 + 2 directories + 100 for A and B
/// regular and `..` a directory, replaying alike.
#[test]
fn the_working_directory_lists_its_files() {
    let file = write_c(
        "list.c",
        r#"#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
int main(void) {
    DIR *d = opendir(".");
    if (!d) return 1;
    int n = 0, dirs = 0, a = 0, b = 0, dots = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        n++;
        if (lstat(e->d_name, &st) != 0) return 2;
        if (S_ISDIR(st.st_mode)) dirs++;
        if (!strcmp(e->d_name, "A") && S_ISREG(st.st_mode) && e->d_type == DT_REG) a++;
        if (!strcmp(e->d_name, "B") && S_ISREG(st.st_mode)) b++;
        if (!strcmp(e->d_name, "..") && e->d_type == DT_DIR) dots++;
    }
    closedir(d);
    return n * 10 + dirs + (a && b && dots ? 100 : 0);
}
"#,
    );
    let s = musl_json("run", &file, &["--sym-files", "2", "1", "--replay-check"]);
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    assert_eq!((s["paths_completed"].as_u64(), s["unsupported"].as_u64()), (Some(1), Some(0)), "{s}");
    assert_eq!(s["tests"][0]["exit_code"].as_i64(), Some(142), "{s}");
}

/// Without musl's bitcode, `--libc musl` says how to build it.
#[test]
fn a_missing_musl_build_is_explained() {
    let file = write_c("m.c", "int main(void) { return 0; }\n");
    let empty = tempfile::tempdir().unwrap();
    let out = crate::support::run_command({
        let mut cmd = std::process::Command::new(crate::support::penumbra_bin());
        cmd.arg("exec").arg(&file.path).args(["--libc", "musl"]).env("PENUMBRA_MUSL_DIR", empty.path());
        cmd
    });
    out.assert_no_panic();
    out.assert_status(crate::support::EXIT_USAGE);
    assert!(out.stderr.contains("run scripts/build-musl.sh"), "{}", out.stderr);
}

/// `--sym-files 1 2`: file A has two symbolic bytes and opens only by its name, which the
/// program takes from a symbolic argument (so the C layer's name comparison forks); the
/// divergence on the file's first byte replays natively with A written into the program's
/// directory: old reads it as big, new as small.
#[test]
fn symbolic_files_open_by_name_and_replay_natively() {
    let file = write_c(
        "file.c",
        r#"#include <stdio.h>
#include "penumbra.h"
int main(int argc, char **argv) {
    if (argc < 2) return 9;
    FILE *f = fopen(argv[1], "r");
    if (!f) { puts("cannot open"); return 1; }
    int c = fgetc(f);
    fclose(f);
    if (c > change(100, 110)) { puts("big"); return 2; }
    puts("small");
    return 0;
}
"#,
    );
    let s = musl_json("shadow", &file, &["--sym-args", "1", "1", "1", "--sym-files", "1", "2", "--replay"]);
    assert_eq!((s["diff_paths"].as_u64(), s["unsupported"].as_u64()), (Some(1), Some(0)), "{s}");
    let t = &s["tests"][0];
    assert_eq!(object(t, "arg00"), b"A\0");
    let first = object(t, "A-data")[0];
    assert!((101..=110).contains(&first), "{t}");
    assert_eq!(t["class"], "output-diff", "{t}");
    assert_eq!((t["old_outcome"]["exit"].as_i64(), t["new_outcome"]["exit"].as_i64()), (Some(2), Some(0)));
    assert_eq!(t["old_outcome"]["stdout_sha256"], sha256("big\n"));
    assert_eq!(t["new_outcome"]["stdout_sha256"], sha256("small\n"));
}

/// Reading a symbolic file through musl's stdio (`fread`, `fstat`) and the names that are not
/// a file: every status, each test replaying concretely to it. The working directory "."
/// opens too, as a directory (status 8), as it does natively.
#[test]
fn symbolic_files_read_and_stat_through_musl() {
    let file = write_c(
        "read.c",
        r#"#include <stdio.h>
#include <sys/stat.h>
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "r");
    if (!f) return 1;
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) return 8;
    char buf[8] = {0};
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    if (n != (size_t)st.st_size) return 7;
    if (buf[0] == 'x' && buf[1] == 'y') return 2;
    return 3;
}
"#,
    );
    let out_dir = file.dir.path().join("out");
    let s = musl_json("run", &file, &["--sym-args", "1", "1", "1", "--sym-files", "1", "4", "--replay-check"]);
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    let tests = s["tests"].as_array().unwrap();
    let statuses: Vec<i64> = tests.iter().map(|t| t["exit_code"].as_i64().unwrap()).collect();
    assert_eq!(statuses.iter().copied().collect::<BTreeSet<_>>(), BTreeSet::from([1, 2, 3, 8]), "{s}");
    for t in tests {
        let name = object(t, "arg00");
        assert_eq!(name == b"A\0" || name == b".\0", t["exit_code"] != 1, "{t}");
        assert_eq!(name == b".\0", t["exit_code"] == 8, "{t}");
        if t["exit_code"] == 2 {
            assert_eq!(&object(t, "A-data")[..2], b"xy");
        }
    }
    // Every test records the options replay rebuilds the environment from.
    let lines = std::fs::read_to_string(out_dir.join("tests.jsonl")).unwrap();
    for line in lines.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let args: Vec<&str> = record["args"].as_array().unwrap().iter().skip(1).map(|a| a.as_str().unwrap()).collect();
        assert_eq!(args, ["--sym-args", "1", "1", "1", "--sym-files", "1", "4"]);
    }
}

/// `--env NAME=VALUE` is the whole environment: `getenv` sees it, `envp` holds it, the tests
/// record it, and native replay sets it (and nothing of replay's own environment).
#[test]
fn the_environment_is_what_env_gives() {
    let file = write_c(
        "env.c",
        r#"#include <stdio.h>
#include <stdlib.h>
#include "penumbra.h"
int main(int argc, char **argv, char **envp) {
    int n = 0;
    while (envp[n]) n++;
    const char *home = getenv("HOME");
    printf("%s %d %s\n", getenv("GREETING"), n, home ? home : "-");
    return change(0, 1);
}
"#,
    );
    let out_dir = file.dir.path().join("out");
    let s = musl_json("shadow", &file, &["--env", "GREETING=hi there", "--replay"]);
    let t = &s["tests"][0];
    assert_eq!(t["class"], "output-diff", "{s}");
    for side in ["old_outcome", "new_outcome"] {
        assert_eq!(t[side]["stdout_sha256"], sha256("hi there 1 -\n"), "{side}: {t}");
    }
    let exec = penumbra([
        "exec".as_ref(),
        file.path.as_os_str(),
        "--libc".as_ref(),
        "musl".as_ref(),
        "--ktest".as_ref(),
        out_dir.join(t["name"].as_str().unwrap()).with_extension("ktest").as_os_str(),
    ]);
    assert_eq!(exec.stdout_str(), "hi there 1 -\n", "{}", exec.stderr);
    exec.assert_status(1);
}

/// Standard input is a regular file of the `--sym-stdin` bytes, as native replay gives it:
/// `fstat` says so, `lseek` moves over it, and the native build agrees (new returns 3 only
/// where the size is 5 and the seek lands at 2).
#[test]
fn standard_input_is_a_regular_file() {
    let file = write_c(
        "stdin.c",
        r#"#include <sys/stat.h>
#include <unistd.h>
#include "penumbra.h"
int main(void) {
    struct stat st;
    if (fstat(0, &st) != 0) return 8;
    char c;
    if (read(0, &c, 1) != 1) return 7;
    int right = S_ISREG(st.st_mode) && st.st_size == 5 && lseek(0, 1, SEEK_CUR) == 2;
    return change(0, right ? 3 : 4);
}
"#,
    );
    let s = musl_json("shadow", &file, &["--sym-stdin", "5", "--replay"]);
    assert_eq!(s["diff_paths"].as_u64(), Some(1), "{s}");
    let t = &s["tests"][0];
    assert_eq!((t["old_outcome"]["exit"].as_i64(), t["new_outcome"]["exit"].as_i64()), (Some(0), Some(3)), "{t}");
}

/// `--sym-files` needs musl's C layer.
#[test]
fn symbolic_files_need_musl() {
    let file = write_c("m.c", "int main(void) { return 0; }\n");
    let out = penumbra(["run".as_ref(), file.path.as_os_str(), "--sym-files".as_ref(), "1".as_ref(), "4".as_ref()]);
    out.assert_no_panic();
    assert_ne!(out.status, Some(0));
    assert!(out.stderr.contains("--sym-files needs the C library's POSIX layer"), "{}", out.stderr);
    assert!(out.stderr.contains("add --libc musl"), "{}", out.stderr);
}

/// An error inside musl's code is reported at the program's call, in the concrete and the
/// symbolic engine alike (so tests replay to the line they claim).
#[test]
fn errors_inside_musl_are_reported_at_the_programs_call() {
    let file = write_c(
        "overflow.c",
        "#include <string.h>\n#include <stdio.h>\nint main(void) {\n    char small[4];\n    strcpy(small, \"too long\");\n    puts(small);\n    return 0;\n}\n",
    );
    let exec = penumbra(["exec".as_ref(), file.path.as_os_str(), "--libc".as_ref(), "musl".as_ref()]);
    exec.assert_no_panic();
    exec.assert_status(crate::support::EXIT_PROGRAM_ERROR);
    assert!(exec.stderr.contains("out-of-bounds-write") && exec.stderr.ends_with("overflow.c:5\n"), "{}", exec.stderr);
    let s = musl_json("run", &file, &["--replay-check"]);
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    let error = &s["tests"][0]["error"];
    assert_eq!(
        (error["kind"].as_str(), error["line"].as_u64(), error["func"].as_str()),
        (Some("out-of-bounds-write"), Some(5), Some("main"))
    );
}

/// A variadic function called without its variable arguments reads a zero (musl's `fcntl`
/// takes a third argument whatever the command; gnulib's `is_open` calls `fcntl(fd, F_GETFL)`).
#[test]
fn fcntl_without_its_third_argument() {
    let file = write_c(
        "fcntl.c",
        "#include <fcntl.h>\nint main(void) {\n    return fcntl(1, F_GETFL) >= 0 && fcntl(7, F_GETFD) < 0 ? 0 : 1;\n}\n",
    );
    let out = penumbra(["exec".as_ref(), file.path.as_os_str(), "--libc".as_ref(), "musl".as_ref()]);
    out.assert_no_panic();
    out.assert_status(0);
}

/// Aligned allocations (cat's and gnulib's page-aligned buffers): `posix_memalign`,
/// `aligned_alloc` and `memalign` give aligned blocks with bounds, and musl's argument checks
/// (EINVAL for an alignment that is not a power of two, or less than a pointer for
/// `posix_memalign`).
#[test]
fn aligned_allocations_are_aligned_and_bounded() {
    let file = write_c(
        "aligned.c",
        r#"#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    void *p = 0;
    int r = posix_memalign(&p, 4096, 100);
    char *q = aligned_alloc(64, 10), *m = memalign(1 << 16, 3);
    void *bad = aligned_alloc(24, 10);
    int e = errno;
    printf("%d %d %d %d %d %d\n", r, (int)((uintptr_t)p % 4096), (int)((uintptr_t)q % 64),
           (int)((uintptr_t)m % (1 << 16)), bad == 0, e == EINVAL);
    printf("%d\n", posix_memalign(&p, 2, 8) == EINVAL);
    ((char *)p)[argc + 98] = 1;
    return 0;
}
"#,
    );
    let exec = |args: &[&str]| {
        let mut all: Vec<&std::ffi::OsStr> =
            vec!["exec".as_ref(), file.path.as_os_str(), "--libc".as_ref(), "musl".as_ref()];
        all.extend(args.iter().map(std::ffi::OsStr::new));
        let out = penumbra(all);
        out.assert_no_panic();
        out
    };
    let fits = exec(&[]);
    fits.assert_status(0);
    assert_eq!(fits.stdout_str(), "0 0 0 0 1 1\n1\n");
    let overflows = exec(&["--", "x"]);
    overflows.assert_status(crate::support::EXIT_PROGRAM_ERROR);
    assert!(
        overflows.stderr.contains("offset 100 of heap object allocated at line 8 (100 bytes)")
            && overflows.stderr.ends_with("aligned.c:15\n"),
        "{}",
        overflows.stderr
    );
    // The symbolic engine agrees: one exit, one overflow of the 100-byte block.
    let s = musl_json("run", &file, &["--sym-args", "0", "1", "1", "--replay-check", "--max-time", "60"]);
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    assert_eq!((s["paths_completed"].as_u64(), s["errors"].as_u64()), (Some(1), Some(1)), "{s}");
    let error = s["tests"].as_array().unwrap().iter().find(|t| t["error"].is_object()).expect("an error test");
    assert_eq!(
        (error["error"]["kind"].as_str(), error["error"]["line"].as_u64()),
        (Some("out-of-bounds-write"), Some(15))
    );
    assert!(error["error"]["message"].as_str().unwrap().contains("allocated at line 8 (100 bytes)"), "{error}");
}

/// musl's `memset`, `memcpy` and `memmove` are left out of its bitcode: the engine's models run
/// them, checking a symbolic length once and fixing it to at most eight values (the other
/// values end early as `concretized`, one site), where musl's byte loops would fork on every
/// byte (cut's xzalloc zeroing a bitmap of symbolic size spent its budget there: 0 paths).
#[test]
fn bulk_memory_functions_are_the_engines_models() {
    let file = write_c(
        "bulk.c",
        r#"#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    if (argc < 2) return 0;
    size_t n = (unsigned char)argv[1][0];
    char *p = malloc(n + 1);
    memset(p, 'x', n + 1);
    char *q = malloc(n + 1);
    memcpy(q, p, n + 1);
    memmove(q + 1, q, n);
    return q[n] == 'x' ? 1 : 2;
}
"#,
    );
    let s = musl_json("run", &file, &["--sym-args", "1", "1", "1", "--max-time", "60"]);
    assert_eq!((s["paths_completed"].as_u64(), s["errors"].as_u64()), (Some(8), Some(0)), "{s}");
    assert_eq!(s["early_reasons"], serde_json::json!({"concretized": 1}), "{s}");
    let site = &s["concretized_sites"];
    assert_eq!(site.as_array().map(Vec::len), Some(1), "{s}");
    assert_eq!(
        (
            site[0]["line"].as_u64(),
            site[0]["what"].as_str(),
            site[0]["forked"].as_u64(),
            site[0]["paths_ended"].as_u64()
        ),
        (Some(7), Some("size"), Some(7), Some(1))
    );
    let tests = s["tests"].as_array().unwrap();
    let lengths: BTreeSet<u8> = tests.iter().filter(|t| t["kind"] == "path").map(|t| object(t, "arg00")[0]).collect();
    assert_eq!(lengths, BTreeSet::from([0, 1, 2, 3, 4, 253, 254, 255]));
    assert!(tests.iter().filter(|t| t["kind"] == "path").all(|t| t["exit_code"] == 1), "{s}");
}

/// A standard stream the program closed stays closed: a second `fclose(stdin)` fails with
/// EBADF and so does a read (coreutils' `comm - -` closes stdin twice and exits 1 for it,
/// natively and now under penumbra), in the concrete and the symbolic engine alike.
#[test]
fn a_closed_standard_stream_stays_closed() {
    let file = write_c(
        "close2.c",
        r#"#include <errno.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int first = fclose(stdin);
    int second = fclose(stdin);
    int e = errno;
    char c;
    long r = read(0, &c, 1);
    printf("%d %d %d %ld %d\n", first, second, e == EBADF, r, errno == EBADF);
    return second == 0;
}
"#,
    );
    let exec = penumbra(["exec".as_ref(), file.path.as_os_str(), "--libc".as_ref(), "musl".as_ref()]);
    exec.assert_no_panic();
    exec.assert_status(0);
    assert_eq!(exec.stdout_str(), "0 -1 1 -1 1\n");
    let s = musl_json("run", &file, &["--sym-stdin", "2", "--replay-check", "--max-time", "60"]);
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    let statuses: BTreeSet<i64> =
        s["tests"].as_array().unwrap().iter().map(|t| t["exit_code"].as_i64().unwrap()).collect();
    assert_eq!(statuses, BTreeSet::from([0]));
}
