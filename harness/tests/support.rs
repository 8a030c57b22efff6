//! Shared helpers for the `penumbra` integration tests: running the binary (with a time limit,
//! so a hanging interpreter fails a test instead of the whole suite), writing C sources into
//! temporary files, and parsing the one-line diagnostics `penumbra exec` prints:
//!
//! ```text
//! penumbra: error: <kind>: <message> at <file>:<line>
//! penumbra: unsupported: <message> at <file>:<line>
//! ```

#![allow(dead_code)] // each test module uses a different subset

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one run of `penumbra` (or of a native binary) may take before it counts as hung.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(120);

/// Exit status of `penumbra exec` when the program hits a detected error.
pub const EXIT_PROGRAM_ERROR: i32 = 70;
/// Exit status of `penumbra exec` when the program reaches an unsupported construct.
pub const EXIT_UNSUPPORTED: i32 = 69;
/// Exit status for usage errors, missing files and C that does not compile.
pub const EXIT_USAGE: i32 = 2;

/// The `penumbra` binary built for this test run.
pub fn penumbra_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_penumbra"))
}

/// The workspace root (the harness crate's parent directory).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("harness has a parent").to_path_buf()
}

/// Where `penumbra.h` and `klee/klee.h` live, for native builds.
pub fn include_dir() -> PathBuf {
    repo_root().join("ir-frontend").join("include")
}

/// Builds `source` natively as one version (`OLD` or `NEW`), with replay's flags and its
/// runtime linked in: a prebuilt executable for `--native-old`/`--native-new`.
pub fn native_with_runtime(source: &Path, version: &str, exe: &Path) {
    native_with_runtime_and(&["-fsanitize=address,undefined"], source, version, exe);
}

/// [`native_with_runtime`] with `flags` instead of the sanitizers.
pub fn native_with_runtime_and(flags: &[&str], source: &Path, version: &str, exe: &Path) {
    native_build(flags, source, version, exe, true);
}

/// Builds `source` as one version with the sanitizers and without replay's runtime, as a
/// project's own build system makes it.
pub fn native_without_runtime(source: &Path, version: &str, exe: &Path) {
    native_build(&["-fsanitize=address,undefined"], source, version, exe, false);
}

fn native_build(flags: &[&str], source: &Path, version: &str, exe: &Path, runtime: bool) {
    let mut clang = Command::new("clang-15");
    clang.args(["-O0", "-g", "-fwrapv", "-w"]).args(flags).arg(format!("-DPENUMBRA_VERSION_{version}"));
    clang.arg("-I").arg(include_dir()).arg(source);
    if runtime {
        clang.arg(repo_root().join("harness/src/replay/runtime.c"));
    }
    let status = clang.arg("-o").arg(exe).status().expect("run clang-15");
    assert!(status.success(), "cannot build {} natively", source.display());
}

/// What a finished process left behind.
#[derive(Debug, Clone)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// The exit status; `None` if the process was killed by a signal or timed out.
    pub status: Option<i32>,
    pub timed_out: bool,
}

impl Output {
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Panics (with both streams) unless the exit status is `expected`.
    pub fn assert_status(&self, expected: i32) {
        assert!(
            self.status == Some(expected),
            "expected exit status {expected}, got {:?} (timed out: {})\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.status,
            self.timed_out,
            self.stdout_str(),
            self.stderr
        );
    }

    /// Panics if stderr shows a Rust panic: penumbra must never crash on any input.
    pub fn assert_no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked at") && !self.stderr.contains("RUST_BACKTRACE"),
            "penumbra panicked:\n{}",
            self.stderr
        );
    }
}

/// Runs `cmd` to completion (or until `RUN_TIMEOUT`), capturing both streams.
pub fn run_command(mut cmd: Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let mut out_pipe = child.stdout.take().expect("piped stdout");
    let mut err_pipe = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out_pipe.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err_pipe.read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        match child.try_wait().expect("wait for child") {
            Some(status) => break status,
            None if start.elapsed() > RUN_TIMEOUT => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().expect("wait for killed child");
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let stdout = out_reader.join().expect("stdout reader");
    let stderr = String::from_utf8_lossy(&err_reader.join().expect("stderr reader")).into_owned();
    Output { stdout, stderr, status: if timed_out { None } else { status.code() }, timed_out }
}

/// Runs `penumbra ARGS...`.
pub fn penumbra<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut cmd = Command::new(penumbra_bin());
    cmd.args(args);
    run_command(cmd)
}

/// `penumbra CMD FILE ARGS... --json --output-dir DIR/out` (DIR: the file's directory).
pub fn penumbra_json_run(cmd: &str, file: &CFile, args: &[&str]) -> Output {
    let out_dir = file.dir.path().join("out");
    let mut all: Vec<&std::ffi::OsStr> = vec![cmd.as_ref(), file.path.as_os_str()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    all.extend(["--json".as_ref(), "--output-dir".as_ref(), out_dir.as_os_str()]);
    penumbra(all)
}

/// A program of 2^24 paths, each a plain exit: runs that only a budget or a signal ends.
pub const MILLIONS_OF_PATHS: &str = r#"#include <penumbra.h>
int main(void) {
    char b[24];
    penumbra_make_symbolic(b, sizeof b, "b");
    int n = 0;
    for (int i = 0; i < 24; i++)
        if (b[i] == 'a') n++;
    return n;
}
"#;

/// A C source written into its own temporary directory (removed on drop).
pub struct CFile {
    pub dir: tempfile::TempDir,
    pub path: PathBuf,
}

/// Writes `source` to `<tempdir>/<name>`.
pub fn write_c(name: &str, source: &str) -> CFile {
    write_bytes(name, source.as_bytes())
}

/// Writes arbitrary bytes to `<tempdir>/<name>`.
pub fn write_bytes(name: &str, bytes: &[u8]) -> CFile {
    let dir = tempfile::tempdir().expect("create temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("write source file");
    CFile { dir, path }
}

/// Writes `source` to a temporary `name` and runs `penumbra exec FILE EXTRA...` on it.
pub fn exec_source(name: &str, source: &str, extra: &[&str]) -> Output {
    let file = write_c(name, source);
    let mut args: Vec<std::ffi::OsString> = vec!["exec".into(), file.path.clone().into()];
    args.extend(extra.iter().map(Into::into));
    penumbra(args)
}

/// The 1-based line of the only line of `source` containing `marker`.
pub fn line_of(source: &str, marker: &str) -> u32 {
    let hits: Vec<usize> = source.lines().enumerate().filter(|(_, l)| l.contains(marker)).map(|(i, _)| i + 1).collect();
    assert_eq!(hits.len(), 1, "marker {marker:?} must occur on exactly one line");
    hits[0] as u32
}

/// A parsed `penumbra: error: ...` or `penumbra: unsupported: ...` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The error kind (`out-of-bounds-read`, ...); empty for `unsupported`.
    pub kind: String,
    pub message: String,
    pub file: String,
    pub line: u32,
}

/// Finds and parses the `penumbra: error: <kind>: <message> at <file>:<line>` line in `stderr`.
pub fn error_line(stderr: &str) -> Option<Diagnostic> {
    stderr.lines().find_map(|l| {
        let rest = l.strip_prefix("penumbra: error: ")?;
        let (kind, rest) = rest.split_once(": ")?;
        let (message, file, line) = split_location(rest)?;
        Some(Diagnostic { kind: kind.to_string(), message, file, line })
    })
}

/// Finds and parses the `penumbra: unsupported: <message> at <file>:<line>` line in `stderr`.
pub fn unsupported_line(stderr: &str) -> Option<Diagnostic> {
    stderr.lines().find_map(|l| {
        let rest = l.strip_prefix("penumbra: unsupported: ")?;
        let (message, file, line) = split_location(rest)?;
        Some(Diagnostic { kind: String::new(), message, file, line })
    })
}

/// Splits `<message> at <file>:<line>` at the last ` at `.
fn split_location(s: &str) -> Option<(String, String, u32)> {
    let (message, location) = s.rsplit_once(" at ")?;
    let (file, line) = location.rsplit_once(':')?;
    Some((message.to_string(), file.to_string(), line.trim().parse().ok()?))
}

/// A small tmpfs mounted for a test (root only), unmounted when dropped: a file system that
/// fills up for real.
pub struct Tmpfs(PathBuf);

impl Tmpfs {
    /// Mounts a tmpfs of `size` (mount's syntax: `2m`) at `dir`, creating it; `None`, said on
    /// stderr, where this machine does not let us mount (not root): the caller skips its test.
    pub fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        Tmpfs::mount_with(dir, &format!("size={size}"))
    }

    /// [`Tmpfs::mount`] with mount's options (`size=20m,nr_inodes=40`).
    pub fn mount_with(dir: &Path, options: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(dir).unwrap();
        let status = Command::new("mount").args(["-t", "tmpfs", "-o", options, "tmpfs"]).arg(dir).status();
        if !status.is_ok_and(|s| s.success()) {
            eprintln!("note: cannot mount a tmpfs here (not root?): the small file system test is skipped");
            return None;
        }
        Some(Tmpfs(dir.to_path_buf()))
    }

    /// Fills the file system with a file (`filler`) until `free` bytes are left.
    pub fn fill_leaving(&self, free: u64) {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(self.0.as_os_str().as_bytes()).unwrap();
        // SAFETY: `path` is NUL-terminated and `stat` a plain struct statvfs fills in.
        let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
        assert_eq!(unsafe { libc::statvfs(path.as_ptr(), &mut stat) }, 0, "statvfs {}", self.0.display());
        let available = stat.f_bavail as u64 * stat.f_frsize as u64;
        std::fs::write(self.0.join("filler"), vec![0u8; (available - free) as usize]).unwrap();
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// The bytes of object `name` of a test as `--json` and `tests.jsonl` give it
/// (`inputs.NAME.hex`); empty when the test has no such object.
pub fn test_object(test: &serde_json::Value, name: &str) -> Vec<u8> {
    let hex = test["inputs"][name]["hex"].as_str().unwrap_or("");
    penumbra_engine::output::testgen::hex_bytes(hex).unwrap_or_else(|| panic!("{name}: not hex: {hex}"))
}

/// Sets the child's `resource` limit (soft and hard) to `value` before it starts.
pub fn limit_child(cmd: &mut Command, resource: libc::__rlimit_resource_t, value: libc::rlim_t) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
            match libc::setrlimit(resource, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
}
