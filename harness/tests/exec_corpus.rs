//! `penumbra exec` against native execution: every program in `tests/corpus/*.c` is built with
//! `clang-15 -O0 -fwrapv -w` and run natively, then interpreted by `penumbra exec`; stdout and
//! the exit status must be byte-identical. All mismatches are collected and reported together,
//! one block per program and run.
//!
//! # The corpus header format
//!
//! Each corpus file opens with a one-line `// ` comment saying what it exercises. After it, any
//! number of run lines may follow, each one run of the program:
//!
//! ```text
//! // run: [--version old|new] [--input NAME=VALUE]... [-- ARGS...]
//! ```
//!
//! A file may also say `// libc: musl`: it calls C library functions penumbra's own models
//! lack (`strtod`, libm, `vsnprintf`), so it runs only with `--libc musl`.
//!
//! A run line holds exactly the flags `penumbra exec FILE` gets for that run; tokens are split at
//! whitespace, and a double-quoted token may contain spaces (`--input "buf=str:add 1 2"`). A bare
//! `// run:` is a run without flags. A file without run lines is run once without flags.
//!
//! Natively, the same run means: a build against glibc, or for the `--libc musl` runs a static
//! one against Debian's musl-dev (musl itself is the oracle there: glibc prints some values
//! differently, `%a` of a subnormal for one); `-DPENUMBRA_VERSION_OLD` or `_NEW` (default new) with
//! `-I ir-frontend/include` (so `penumbra.h`'s `change(a, b)` is `(a)` or `(b)`); `ARGS` as
//! argv[1..]; and each `--input NAME=VALUE` in the environment as `PENUMBRA_INPUT_NAME=VALUE`,
//! read by a small native runtime ([`NATIVE_RUNTIME`], linked into every native build) that
//! defines `penumbra_make_symbolic` / `klee_make_symbolic` and parses VALUE exactly as the CLI
//! documents it (integer, `hex:`, `str:`; zero when absent). That runtime is a second,
//! independent implementation of the input encoding, so symbolic-input programs are compared
//! against native runs like every other program.

use crate::support::{include_dir, penumbra, run_command, Output};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Native definitions of the input and assertion functions `penumbra.h` / `klee/klee.h`
/// declare, fed from `PENUMBRA_INPUT_<name>` environment variables.
const NATIVE_RUNTIME: &str = r#"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 0;
}

void penumbra_make_symbolic(void *addr, size_t nbytes, const char *name) {
    unsigned char *out = addr;
    memset(out, 0, nbytes);
    char var[256];
    snprintf(var, sizeof var, "PENUMBRA_INPUT_%s", name);
    const char *v = getenv(var);
    if (!v)
        return;
    if (strncmp(v, "hex:", 4) == 0) {
        v += 4;
        for (size_t i = 0; i < nbytes && v[0] && v[1]; i++, v += 2)
            out[i] = (unsigned char)(hexval(v[0]) * 16 + hexval(v[1]));
    } else if (strncmp(v, "str:", 4) == 0) {
        v += 4;
        size_t n = strlen(v);
        memcpy(out, v, n < nbytes ? n : nbytes);
    } else {
        int neg = *v == '-';
        if (*v == '-' || *v == '+')
            v++;
        uint64_t x = (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) ? strtoull(v + 2, NULL, 16)
                                                                   : strtoull(v, NULL, 10);
        if (neg)
            x = (uint64_t)0 - x;
        for (size_t i = 0; i < nbytes && i < 8; i++)
            out[i] = (unsigned char)(x >> (8 * i));
    }
}

void klee_make_symbolic(void *addr, size_t nbytes, const char *name) {
    penumbra_make_symbolic(addr, nbytes, name);
}

void penumbra_assume(int cond) {
    if (!cond) {
        fprintf(stderr, "native runtime: assumption violated\n");
        exit(99);
    }
}
void klee_assume(uintptr_t cond) { penumbra_assume(cond != 0); }

void penumbra_assert(int cond) {
    if (!cond) {
        fprintf(stderr, "native runtime: penumbra_assert failed\n");
        abort();
    }
}
void klee_assert(int cond) { penumbra_assert(cond); }
"#;

/// The corpus directory.
fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("corpus")
}

/// All corpus programs, sorted by name.
fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("read tests/corpus")
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    files
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    Old,
    New,
}

/// One `// run:` line, parsed.
#[derive(Debug, Clone)]
struct RunSpec {
    /// The line as written, for failure reports.
    text: String,
    version: Version,
    /// `(name, value)` pairs of `--input NAME=VALUE`.
    inputs: Vec<(String, String)>,
    args: Vec<String>,
}

impl RunSpec {
    /// The flags for `penumbra exec FILE`.
    fn penumbra_flags(&self) -> Vec<String> {
        let mut flags = vec![
            "--version".to_string(),
            match self.version {
                Version::Old => "old".to_string(),
                Version::New => "new".to_string(),
            },
        ];
        for (name, value) in &self.inputs {
            flags.push("--input".to_string());
            flags.push(format!("{name}={value}"));
        }
        if !self.args.is_empty() {
            flags.push("--".to_string());
            flags.extend(self.args.iter().cloned());
        }
        flags
    }
}

/// Splits a run line at whitespace, keeping double-quoted text together.
fn tokenize(line: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut in_quotes = false;
    let mut has_token = false;
    for c in line.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                has_token = true;
            }
            c if c.is_whitespace() && !in_quotes => {
                if has_token {
                    tokens.push(std::mem::take(&mut current));
                    has_token = false;
                }
            }
            c => {
                current.push(c);
                has_token = true;
            }
        }
    }
    assert!(!in_quotes, "unterminated quote in run line `{line}`");
    if has_token {
        tokens.push(current);
    }
    tokens
}

fn parse_run(text: &str) -> Result<RunSpec, String> {
    let tokens = tokenize(text);
    let mut spec = RunSpec { text: text.trim().to_string(), version: Version::New, inputs: vec![], args: vec![] };
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i].as_str() {
            "--version" => {
                spec.version = match tokens.get(i + 1).map(String::as_str) {
                    Some("old") => Version::Old,
                    Some("new") => Version::New,
                    other => return Err(format!("--version needs old or new, got {other:?}")),
                };
                i += 2;
            }
            "--input" => {
                let flag = tokens.get(i + 1).ok_or("--input needs NAME=VALUE")?;
                let (name, value) = flag.split_once('=').ok_or(format!("--input `{flag}` lacks `=`"))?;
                if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(format!("input name `{name}` must be an identifier (it becomes an env var)"));
                }
                spec.inputs.push((name.to_string(), value.to_string()));
                i += 2;
            }
            "--" => {
                spec.args = tokens[i + 1..].to_vec();
                break;
            }
            other => return Err(format!("unknown token `{other}`")),
        }
    }
    Ok(spec)
}

/// The runs a corpus file asks for (one default run if it has no `// run:` lines).
/// Whether a corpus file says `// libc: musl`.
fn needs_musl(source: &str) -> bool {
    source.lines().any(|l| l.trim_end() == "// libc: musl")
}

fn runs_of(source: &str) -> Result<Vec<RunSpec>, String> {
    let runs: Vec<RunSpec> =
        source.lines().filter_map(|l| l.strip_prefix("// run:")).map(parse_run).collect::<Result<_, _>>()?;
    if runs.is_empty() {
        Ok(vec![parse_run("")?])
    } else {
        Ok(runs)
    }
}

/// Builds `program` natively for `version`, linked with the native runtime object.
/// Debian's musl-dev, for the native builds of the `--libc musl` runs.
const MUSL_INCLUDE: &str = "/usr/include/x86_64-linux-musl";
const MUSL_LIB: &str = "/usr/lib/x86_64-linux-musl";

/// Which C library a native build uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NativeLibc {
    Glibc,
    Musl,
}

impl NativeLibc {
    fn of(libc_flags: &[&str]) -> NativeLibc {
        if libc_flags.contains(&"musl") {
            NativeLibc::Musl
        } else {
            NativeLibc::Glibc
        }
    }

    /// clang compiling (and with `link`, linking) against this C library.
    fn clang(self, link: bool) -> Command {
        let mut cmd = Command::new("clang-15");
        cmd.args(["-O0", "-fwrapv", "-w"]);
        if self == NativeLibc::Musl {
            cmd.arg("-nostdinc")
                .arg("-isystem")
                .arg(MUSL_INCLUDE)
                .arg("-isystem")
                .arg(clang_says("-print-resource-dir").join("include"));
            if link {
                cmd.args(["-static", "-nostdlib"]);
                cmd.arg(Path::new(MUSL_LIB).join("crt1.o")).arg(Path::new(MUSL_LIB).join("crti.o"));
            }
        }
        cmd
    }

    /// What follows a link's inputs.
    fn link_tail(self, cmd: &mut Command) {
        if self == NativeLibc::Musl {
            cmd.arg(format!("-L{MUSL_LIB}")).arg("-lc").arg(clang_says("-print-libgcc-file-name"));
            cmd.arg(Path::new(MUSL_LIB).join("crtn.o"));
        } else {
            cmd.arg("-lm");
        }
    }
}

/// A path clang prints about itself.
fn clang_says(question: &str) -> PathBuf {
    let out = Command::new("clang-15").arg(question).output().expect("run clang-15");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

fn build_native(
    program: &Path,
    version: Version,
    runtime_obj: &Path,
    out: &Path,
    libc: NativeLibc,
) -> Result<(), String> {
    let define = match version {
        Version::Old => "-DPENUMBRA_VERSION_OLD",
        Version::New => "-DPENUMBRA_VERSION_NEW",
    };
    let mut cmd = libc.clang(true);
    cmd.arg(define).arg("-I").arg(include_dir()).arg(program).arg(runtime_obj);
    libc.link_tail(&mut cmd);
    cmd.arg("-o").arg(out);
    let result = run_command(cmd);
    if result.status == Some(0) {
        Ok(())
    } else {
        Err(format!("native build failed:\n{}", result.stderr))
    }
}

/// Runs a native binary the way the run spec says.
fn run_native(binary: &Path, spec: &RunSpec) -> Output {
    let mut cmd = Command::new(binary);
    cmd.args(&spec.args);
    for (name, value) in &spec.inputs {
        cmd.env(format!("PENUMBRA_INPUT_{name}"), value);
    }
    run_command(cmd)
}

/// Describes how `penumbra`'s stdout differs from the native one (first differing line).
fn describe_stdout_diff(native: &[u8], ours: &[u8]) -> String {
    let native = String::from_utf8_lossy(native);
    let ours = String::from_utf8_lossy(ours);
    let n: Vec<&str> = native.split_inclusive('\n').collect();
    let o: Vec<&str> = ours.split_inclusive('\n').collect();
    let i = n.iter().zip(&o).take_while(|(a, b)| a == b).count();
    format!(
        "  stdout differs at line {}:\n    native:   {:?}\n    penumbra: {:?}\n  (native {} lines / {} bytes, penumbra {} lines / {} bytes)",
        i + 1,
        n.get(i).copied().unwrap_or("<end of output>"),
        o.get(i).copied().unwrap_or("<end of output>"),
        n.len(),
        native.len(),
        o.len(),
        ours.len()
    )
}

/// Checks every run of one program, `penumbra exec` getting `libc_flags` too; returns one
/// failure report per mismatching run.
fn check_program(program: &Path, runtime_obj: &Path, bin_dir: &Path, libc_flags: &[&str]) -> Vec<String> {
    let name = program.file_name().unwrap().to_string_lossy().into_owned();
    let source = std::fs::read_to_string(program).expect("read corpus file");
    let runs = match runs_of(&source) {
        Ok(runs) => runs,
        Err(e) => return vec![format!("{name}: bad run line: {e}")],
    };
    let libc = NativeLibc::of(libc_flags);
    if needs_musl(&source) && libc != NativeLibc::Musl {
        return Vec::new();
    }
    let mut failures = Vec::new();
    for version in [Version::Old, Version::New] {
        let version_runs: Vec<&RunSpec> = runs.iter().filter(|r| r.version == version).collect();
        if version_runs.is_empty() {
            continue;
        }
        let binary = bin_dir.join(format!("{}-{version:?}", name.trim_end_matches(".c")));
        if let Err(e) = build_native(program, version, runtime_obj, &binary, libc) {
            failures.push(format!("{name} ({version:?}): {e}"));
            continue;
        }
        for spec in version_runs {
            let native = run_native(&binary, spec);
            let label = format!("{name} [run: {}]", spec.text);
            if native.status.is_none() {
                failures.push(format!("{label}: the native run itself crashed or hung: {native:?}"));
                continue;
            }
            let mut args: Vec<String> = vec!["exec".into(), program.display().to_string()];
            args.extend(libc_flags.iter().map(|f| f.to_string()));
            args.extend(spec.penumbra_flags());
            let ours = penumbra(&args);
            let mut problems = Vec::new();
            if ours.status != native.status {
                problems.push(format!("  exit status: native {:?}, penumbra {:?}", native.status, ours.status));
            }
            if ours.stdout != native.stdout {
                problems.push(describe_stdout_diff(&native.stdout, &ours.stdout));
            }
            if !problems.is_empty() {
                let stderr = match ours.stderr.trim() {
                    "" => "(empty)".to_string(),
                    text => text.lines().take(8).collect::<Vec<_>>().join("\n    "),
                };
                failures.push(format!("{label}:\n{}\n  penumbra stderr:\n    {stderr}", problems.join("\n")));
            }
        }
    }
    failures
}

#[test]
fn corpus_matches_native_execution() {
    check_corpus(&[]);
}

/// The same programs with musl's code as the C library (`--libc musl`) in place of penumbra's
/// models: musl's stdio, string, conversion and math functions run as code, against the
/// program built natively on musl, byte for byte.
#[test]
fn corpus_matches_native_execution_with_musl() {
    check_corpus(&["--libc", "musl"]);
}

/// Every corpus run, interpreted with `libc_flags`, against the native build.
fn check_corpus(libc_flags: &[&str]) {
    let files = corpus_files();
    let temp = tempfile::tempdir().expect("temp dir");
    let runtime_c = temp.path().join("native_runtime.c");
    std::fs::write(&runtime_c, NATIVE_RUNTIME).expect("write native runtime");
    let runtime_obj = temp.path().join("native_runtime.o");
    let mut cc = NativeLibc::of(libc_flags).clang(false);
    cc.arg("-c").arg(&runtime_c).arg("-o").arg(&runtime_obj);
    let built = run_command(cc);
    assert_eq!(built.status, Some(0), "native runtime does not compile: {}", built.stderr);

    let queue = Mutex::new(files.iter());
    let failures = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let Some(program) = queue.lock().unwrap().next() else { break };
                let found = check_program(program, &runtime_obj, temp.path(), libc_flags);
                failures.lock().unwrap().push((program.clone(), found));
            });
        }
    });
    // Report in corpus order, each program's runs in the order of its run lines.
    let mut per_program = failures.into_inner().unwrap();
    per_program.sort();
    let failures: Vec<String> = per_program.into_iter().flat_map(|(_, found)| found).collect();
    assert!(
        failures.is_empty(),
        "{} of the corpus runs differ from native execution ({} programs checked, flags {libc_flags:?}):\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn corpus_is_large_and_every_program_says_what_it_exercises() {
    let files = corpus_files();
    assert!(files.len() >= 45, "the corpus has only {} programs", files.len());
    let float =
        files.iter().filter(|f| f.file_name().is_some_and(|n| n.to_string_lossy().starts_with("float_"))).count();
    assert!(float >= 25, "the corpus has only {float} floating-point programs (float_*.c)");
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let first = source.lines().next().unwrap_or("");
        assert!(
            first.starts_with("// ") && first.len() > 20,
            "{} must open with a one-line `// ` comment saying what it exercises",
            file.display()
        );
        runs_of(&source).unwrap_or_else(|e| panic!("{}: bad run line: {e}", file.display()));
    }
}

#[test]
fn run_lines_parse_flags_quotes_and_arguments() {
    let spec = parse_run(r#" --version old --input x=-5 --input "buf=str:add 1 2" -- a "b c" d"#).unwrap();
    assert_eq!(spec.version, Version::Old);
    assert_eq!(spec.inputs, vec![("x".to_string(), "-5".to_string()), ("buf".to_string(), "str:add 1 2".to_string())]);
    assert_eq!(spec.args, vec!["a", "b c", "d"]);
    assert_eq!(
        spec.penumbra_flags(),
        vec!["--version", "old", "--input", "x=-5", "--input", "buf=str:add 1 2", "--", "a", "b c", "d"]
    );
    let bare = parse_run("").unwrap();
    assert_eq!((bare.version, bare.inputs.len(), bare.args.len()), (Version::New, 0, 0));
    assert!(parse_run("--verbose").is_err());
    assert!(parse_run("--version both").is_err());
}

#[test]
fn program_stderr_is_forwarded_separately_from_stdout() {
    let program = corpus_dir().join("printf_streams.c");
    let out = penumbra(["exec".as_ref(), program.as_os_str()]);
    out.assert_no_panic();
    assert!(out.stderr.contains("this goes to stderr: 99\n"), "stderr was: {}", out.stderr);
    assert!(!out.stdout_str().contains("this goes to stderr"), "stdout was: {}", out.stdout_str());
    out.assert_status(35);
}

#[test]
fn exec_without_version_flag_runs_the_new_version() {
    let program = corpus_dir().join("change_simple.c");
    let out = penumbra(["exec".as_ref(), program.as_os_str()]);
    out.assert_no_panic();
    assert!(out.stdout_str().starts_with("t=10 limit=-3 byte=7 s=32767\n"), "stdout: {}", out.stdout_str());
    out.assert_status(10);
}

#[test]
fn ir_command_prints_the_main_function() {
    let program = corpus_dir().join("recursion_fib_ackermann.c");
    let out = penumbra(["ir".as_ref(), program.as_os_str()]);
    out.assert_no_panic();
    out.assert_status(0);
    assert!(out.stdout_str().contains("fn @main"), "no `fn @main` in:\n{}", out.stdout_str());
}
