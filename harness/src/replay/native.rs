//! Native builds of a unified program and runs of them on one test.
//!
//! Each version is compiled with `clang-15` and [`NATIVE_FLAGS`] (`-O0 -g -fwrapv
//! -fsanitize=address,undefined -fsanitize-recover=undefined -w`) with exactly one of `PENUMBRA_VERSION_OLD` /
//! `PENUMBRA_VERSION_NEW` defined (penumbra.h then resolves `change` and `penumbra_execute`),
//! linked with the replay runtime (`runtime.c`), which feeds the `make_symbolic` objects from
//! the file named by `KTEST_FILE`.
//!
//! AddressSanitizer is fatal: its report ends the run as an error, as does a signal (`abort`,
//! a segfault, a failed `penumbra_assert`) or outliving the timeout. UBSan reports and goes on
//! (`contract.md` named `-fno-sanitize-recover=all`; issue 34 item 4): undefined behaviour both
//! versions share (real programs call `qsort(NULL, 0, ...)`) would otherwise end both runs at
//! its first report and hide every difference after it. A run's UBSan reports
//! ([`NativeRun::ub`]) are therefore kept apart from how it ended; whether one is an error of
//! its version is decided against the other version's ([`super::verdict`]). A non-zero exit
//! status is output, not an error (`contract.md`).

use super::file_kinds::{Feeders, FileKind, TestFile};
use super::sanitizer::{error_report, take_logs, ub_reports, UbReport, RUNTIME_FILE};
use anyhow::{bail, Context, Result};
use penumbra_ir::frontend::{write_headers, InputKind, CLANG};
use penumbra_ir::BuildFlags;
use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The replay runtime's source, written next to the builds.
const RUNTIME_C: &str = include_str!("runtime.c");
/// The runtime's exit status for "this test cannot be replayed" (see runtime.c).
const REPLAY_FAILED: i32 = 125;
const REPLAY_MARKER: &str = "penumbra-replay: ";

/// The sanitizers of a native build, asked for when compiling and when linking.
pub const SANITIZE: &str = "-fsanitize=address,undefined";

/// The compile flags of a native build (what `penumbra replay --print-build-flags` prints, for
/// builds made outside penumbra: `--native-old`, `--native-new`): UBSan's checks report and
/// continue; AddressSanitizer's stay fatal (they are recoverable only with
/// `-fsanitize-recover=address`).
pub const BUILD_FLAGS: [&str; 5] = ["-O0", "-g", "-fwrapv", SANITIZE, "-fsanitize-recover=undefined"];

/// The flags of every native build penumbra makes: [`BUILD_FLAGS`], with the program's warnings
/// silenced (they are not penumbra's to report).
pub const NATIVE_FLAGS: [&str; 6] =
    [BUILD_FLAGS[0], BUILD_FLAGS[1], BUILD_FLAGS[2], BUILD_FLAGS[3], BUILD_FLAGS[4], "-w"];

/// What `penumbra replay --print-build-flags` prints: `cflags: ...` and `ldflags: ...`, one
/// line each, the flags separated by spaces.
pub fn build_flags_text() -> String {
    format!("cflags: {}\nldflags: {SANITIZE}\n", BUILD_FLAGS.join(" "))
}

/// AddressSanitizer aborts on its first report (so that it ends the run by SIGABRT) and does
/// not report leaks: a program that exits without freeing is not wrong. UBSan goes on after a
/// report (each place reports once per run); no stack trace, which would start the
/// symbolizer for every report.
const ASAN_OPTIONS: &str = "abort_on_error=1:detect_leaks=0:halt_on_error=1:symbolize=1";
const UBSAN_OPTIONS: &str = "abort_on_error=1:halt_on_error=0:print_stacktrace=0";

/// What a build is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    Old,
    New,
    /// The fixing commit's version of fix N (from 0), given with `--fixed-version` (built like
    /// the new version).
    Fixed(usize),
    /// The fixing commit's parent of fix N, given with `--fix-parent-version` (built like the
    /// new version).
    FixParent(usize),
}

impl Build {
    /// The version's name in reports and file names: `old`, `new`, and for fix N (from 0)
    /// `fixed` and `fix-parent` for the first, `fixed-2` and `fix-parent-2` for the second, ...
    pub fn name(self) -> String {
        match self {
            Build::Old => "old".into(),
            Build::New => "new".into(),
            Build::Fixed(0) => "fixed".into(),
            Build::FixParent(0) => "fix-parent".into(),
            Build::Fixed(i) => format!("fixed-{}", i + 1),
            Build::FixParent(i) => format!("fix-parent-{}", i + 1),
        }
    }

    fn define(self) -> &'static str {
        match self {
            Build::Old => "-DPENUMBRA_VERSION_OLD",
            Build::New | Build::Fixed(_) | Build::FixParent(_) => "-DPENUMBRA_VERSION_NEW",
        }
    }
}

/// The C library a native build links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeLibc {
    /// The system's (glibc), with AddressSanitizer and UBSan.
    System,
    /// Debian's musl-dev, statically: for bitcode compiled against musl's headers (a build
    /// configured with `scripts/musl-clang-15`, explored with `--libc musl`), which links with
    /// no other C library. AddressSanitizer has no musl runtime, so an error shows natively
    /// only as a signal (a segfault, an abort, a UBSan trap in the C files compiled here) or a
    /// timeout: the interpreter decides whether a test errs on these builds
    /// ([`super::verdict`]).
    Musl,
}

/// Debian's musl-dev: its headers and its static library and start files.
const MUSL_INCLUDE: &str = "/usr/include/x86_64-linux-musl";
const MUSL_LIB: &str = "/usr/lib/x86_64-linux-musl";

/// The flags of a native build on musl: those of [`NATIVE_FLAGS`] without AddressSanitizer,
/// UBSan trapping (it needs no runtime), and no sanitizer interface in the replay runtime.
const MUSL_FLAGS: &[&str] =
    &["-O0", "-g", "-fwrapv", "-fsanitize=undefined", "-fsanitize-trap=undefined", "-DPENUMBRA_NO_SANITIZERS", "-w"];

impl NativeLibc {
    /// The C library the programs of a run are built with natively: musl when the run linked
    /// musl and the program has bitcode or IR (compiled against some C library's headers
    /// already); C sources are portable and get the system's, with AddressSanitizer.
    pub fn for_run(musl: bool, files: &[PathBuf]) -> NativeLibc {
        let compiled = files.iter().any(|f| InputKind::of(f) != InputKind::C);
        if musl && compiled {
            NativeLibc::Musl
        } else {
            NativeLibc::System
        }
    }

    /// A build with this C library and the sanitizers it was found to have, for reports
    /// (`native glibc, AddressSanitizer + UBSan`).
    pub fn description(self, asan: bool, ubsan: bool) -> String {
        let (libc, ub) = match self {
            NativeLibc::System => ("native glibc", "UBSan"),
            NativeLibc::Musl => ("native static musl", "UBSan traps"),
        };
        match (asan, ubsan) {
            (true, true) => format!("{libc}, AddressSanitizer + {ub}"),
            (true, false) => format!("{libc}, AddressSanitizer, no UBSan"),
            (false, true) => format!("{libc}, {ub}, no AddressSanitizer"),
            (false, false) => format!("{libc}, no sanitizers"),
        }
    }

    /// The sanitizers its builds ask for: (AddressSanitizer, UBSan).
    pub fn asks_for(self) -> (bool, bool) {
        match self {
            NativeLibc::System => (true, true),
            NativeLibc::Musl => (false, true),
        }
    }

    fn flags(self) -> &'static [&'static str] {
        match self {
            NativeLibc::System => &NATIVE_FLAGS,
            NativeLibc::Musl => MUSL_FLAGS,
        }
    }

    /// A clang command for this C library: compiling (`link: false`) or linking.
    fn clang(self, link: bool) -> Result<Command> {
        let mut clang = Command::new(CLANG);
        clang.args(self.flags());
        if self == NativeLibc::Musl {
            let musl = MuslToolchain::get()?;
            clang.arg("-nostdinc").arg("-isystem").arg(MUSL_INCLUDE).arg("-isystem").arg(&musl.resource_include);
            if link {
                clang.args(["-static", "-nostdlib"]).arg(musl.lib.join("crt1.o")).arg(musl.lib.join("crti.o"));
            }
        }
        Ok(clang)
    }

    /// What follows a link's inputs.
    fn link_tail(self, clang: &mut Command) -> Result<()> {
        if self == NativeLibc::Musl {
            let musl = MuslToolchain::get()?;
            clang.arg(format!("-L{MUSL_LIB}")).arg("-lc").arg(&musl.libgcc).arg(musl.lib.join("crtn.o"));
        }
        Ok(())
    }
}

/// What a static musl link needs besides musl-dev's headers: its library directory (checked
/// to hold libc.a) and what clang says of itself, asked once per process rather than per
/// command.
struct MuslToolchain {
    lib: PathBuf,
    resource_include: PathBuf,
    libgcc: PathBuf,
}

impl MuslToolchain {
    fn get() -> Result<&'static MuslToolchain> {
        static TOOLCHAIN: std::sync::OnceLock<MuslToolchain> = std::sync::OnceLock::new();
        if let Some(found) = TOOLCHAIN.get() {
            return Ok(found);
        }
        let lib = PathBuf::from(MUSL_LIB);
        if !lib.join("libc.a").is_file() {
            bail!(
                "replaying a program built on musl needs Debian's musl-dev ({} has no libc.a): apt-get install musl-dev",
                lib.display()
            );
        }
        let found = MuslToolchain {
            lib,
            resource_include: clang_path("-print-resource-dir")?.join("include"),
            libgcc: clang_path("-print-libgcc-file-name")?,
        };
        Ok(TOOLCHAIN.get_or_init(|| found))
    }
}

/// A path clang prints (`-print-resource-dir`, `-print-libgcc-file-name`).
fn clang_path(question: &str) -> Result<PathBuf> {
    let out = Command::new(CLANG).arg(question).output().with_context(|| format!("cannot run {CLANG}"))?;
    if !out.status.success() {
        bail!("{CLANG} {question} failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// What a program is built from.
pub struct Sources<'a> {
    /// C files, bitcode and textual IR, the first naming the program.
    pub files: &'a [PathBuf],
    pub include_dirs: &'a [PathBuf],
    pub defines: &'a [String],
    /// Files compiled with their build's flags (`--compile-commands`), by absolute path.
    pub per_file: &'a [(PathBuf, BuildFlags)],
    pub libc: NativeLibc,
}

/// Compiles the program's `sources` as `build` into `dir`, returning the executable.
pub fn build(dir: &Path, sources: &Sources, build: Build) -> Result<PathBuf> {
    let include = dir.join("include");
    write_headers(&include).context("cannot write penumbra's headers")?;
    let runtime = dir.join(RUNTIME_FILE);
    std::fs::write(&runtime, RUNTIME_C).with_context(|| format!("cannot write {}", runtime.display()))?;
    let exe = dir.join(build.name());
    let mut inputs = Vec::with_capacity(sources.files.len());
    for (i, file) in sources.files.iter().enumerate() {
        let flags = sources.per_file.iter().find(|(f, _)| f == file).map(|(_, flags)| flags);
        let Some(flags) = flags else {
            inputs.push(file.clone());
            continue;
        };
        // A file of a build: compiled on its own, in the build's directory, with its flags.
        let object = dir.join(format!("{}-{i}.o", build.name()));
        let mut clang = sources.libc.clang(false)?;
        clang.arg(build.define()).arg("-I").arg(&include);
        clang.args(["-Wno-unknown-warning-option", "-Qunused-arguments"]).args(&flags.flags);
        clang.arg("-c").arg(&flags.file).arg("-o").arg(&object).current_dir(&flags.directory);
        run_clang(clang, build, file)?;
        inputs.push(object);
    }
    let mut clang = sources.libc.clang(true)?;
    clang.arg(build.define());
    for d in sources.include_dirs {
        clang.arg("-I").arg(d);
    }
    clang.arg("-I").arg(&include);
    for d in sources.defines {
        clang.arg(format!("-D{d}"));
    }
    clang.args(&inputs).arg(&runtime);
    sources.libc.link_tail(&mut clang)?;
    clang.arg("-o").arg(&exe);
    run_clang(clang, build, &sources.files[0])?;
    Ok(exe)
}

/// Runs a native compile of `file` as `build`; clang's diagnostics make the error.
fn run_clang(mut clang: Command, build: Build, file: &Path) -> Result<()> {
    let out = clang.output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => {
            anyhow::anyhow!("{CLANG} is not on the PATH: replay builds the program natively (apt-get install clang-15)")
        }
        _ => anyhow::anyhow!("cannot run {CLANG}: {e}"),
    })?;
    if !out.status.success() {
        bail!(
            "cannot build the {} version of {} natively:\n{}",
            build.name(),
            file.display(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        );
    }
    Ok(())
}

/// How long a build may take to answer the start-up probe (sanitizers start in milliseconds).
const PROBE_TIMEOUT: Duration = Duration::from_secs(30);

/// Checks that `exe` starts in this environment (its sanitizers can initialise, its libraries
/// load), so that no start-up failure is ever classified as the program's error. With the
/// replay runtime (`runtime`) the probe stops at its start-up message; a program without it
/// runs with no arguments and must end with an exit status of its own (a usage message is
/// fine) and no word from its sanitizers or the loader.
pub fn check_starts(exe: &Path, scratch: &Path, runtime: bool) -> Result<()> {
    let log = std::path::absolute(scratch.with_extension("probe.san"))?;
    let err_path = scratch.with_extension("probe.stderr");
    let exe = &std::path::absolute(exe)?;
    let dir = scratch.parent().unwrap_or(Path::new("."));
    // A prebuilt executable without the runtime runs as the program itself: in the scratch
    // directory, its output thrown away, for a bounded time.
    let mut cmd = Command::new(exe);
    cmd.env("PENUMBRA_REPLAY_PROBE", "1")
        .env("ASAN_OPTIONS", format!("{ASAN_OPTIONS}:log_path=\"{}\"", log.display()))
        .env("UBSAN_OPTIONS", format!("{UBSAN_OPTIONS}:log_path=\"{}\"", log.display()))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(File::create(&err_path).with_context(|| format!("cannot create {}", err_path.display()))?));
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) if e.raw_os_error() == Some(libc::ENOEXEC) => {
            bail!("{} is not an executable for this machine ({e})", exe.display())
        }
        Err(e) => bail!("cannot run {}: {e}", exe.display()),
    };
    let Some(status) = wait_bounded(&mut child, PROBE_TIMEOUT)? else {
        if penumbra_engine::interrupted() {
            bail!("interrupted while starting the native build {}", exe.display());
        }
        if !runtime {
            bail!(
                "the native build {} (without penumbra's replay runtime) did not end within {} s when run with no arguments and empty stdin",
                exe.display(),
                PROBE_TIMEOUT.as_secs()
            );
        }
        bail!(
            "the native build {} did not answer the replay runtime's start-up probe within {} s: it lacks penumbra's replay runtime (see --native-old)",
            exe.display(),
            PROBE_TIMEOUT.as_secs()
        );
    };
    let stderr = String::from_utf8_lossy(&read(&err_path)?).into_owned();
    let _ = std::fs::remove_file(&err_path);
    let text = format!("{}\n{stderr}", take_logs(&log)?);
    if status.success() && stderr.contains("penumbra-replay: started") {
        return Ok(());
    }
    let cannot_start = |text: &str| {
        text.contains("ReserveShadowMemoryRange failed")
            || text.contains("error while loading shared libraries")
            || text.lines().any(|l| l.contains("Sanitizer") && l.contains("ERROR"))
    };
    if !runtime && status.code().is_some() && !cannot_start(&text) {
        return Ok(());
    }
    let how = match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit status {code}"),
        (None, Some(sig)) => format!("killed by {}", signal_name(sig)),
        _ => status.to_string(),
    };
    let cause = if status.success() {
        "it ran to its end without the replay runtime's start-up message: it lacks penumbra's replay \
         runtime (a prebuilt executable needs harness/src/replay/runtime.c, compiled with the build's \
         PENUMBRA_VERSION_OLD or _NEW, linked in)"
            .to_string()
    } else if text.contains("ReserveShadowMemoryRange failed") || text.contains("ulimit -v") {
        "AddressSanitizer cannot reserve its shadow memory: this process has an address-space limit \
         (ulimit -v, RLIMIT_AS). Replay without it; to cap memory, use a cgroup (systemd-run --scope -p MemoryMax=...)"
            .to_string()
    } else if let Some(line) = text.lines().find(|l| l.contains("error while loading shared libraries")) {
        format!("a library is missing: {}", line.trim())
    } else if let Some(line) = text.lines().find(|l| l.contains("Sanitizer") && l.contains("ERROR")) {
        format!("its sanitizers cannot start: {}", line.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit()))
    } else {
        let first = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("no message");
        format!("it ended with {how} before the program began: {first}")
    };
    bail!("the native build {} cannot start here ({how}), so no test can be classified: {cause}", exe.display())
}

/// How one native run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunOutcome {
    /// Exited normally: status and stdout.
    Exit { code: i32, stdout: Vec<u8> },
    /// A sanitizer report, a signal or a timeout, described.
    Error(String),
    /// The runtime could not feed the test to this build (see runtime.c).
    ReplayFailed(String),
}

/// What one run is given.
pub struct RunInput<'a> {
    /// `argv`, program name first, as bytes.
    pub args: &'a [Vec<u8>],
    /// A file with the program's stdin.
    pub stdin: &'a Path,
    /// Whether stdin is that file, or a pipe or terminal holding its bytes (`--sym-file-types`).
    pub stdin_kind: FileKind,
    /// The `.ktest` file of the program's own objects.
    pub objects: &'a Path,
    /// Where stdout and stderr go meanwhile (two files with this prefix).
    pub scratch: &'a Path,
    pub timeout: Duration,
    /// The test's files (`--sym-files`), written afresh into the directory the program runs
    /// in before each run; `None`: the program runs where replay runs.
    pub files: Option<TestFiles<'a>>,
    /// The test's environment (`NAME=VALUE`): the program sees these, `PATH` (for the
    /// sanitizers' symbolizer) and the runtime's own variables, nothing of replay's.
    pub env: &'a [String],
    /// The memory the program may have, in MiB (`--native-memory-limit`): see [`Exe`].
    pub memory_limit_mb: Option<u64>,
}

/// A native executable and whether it has AddressSanitizer, which decides how a memory limit
/// holds: without it, as `ulimit -v` (the run's address space); with it, whose shadow memory
/// takes terabytes of address space at start-up, as any one allocation larger than the limit
/// failing (malloc returns NULL, as it would once `ulimit -v`'s limit is reached): the
/// exhaustion a program with a bounded input meets in one allocation sized by that input.
#[derive(Clone, Copy, Debug)]
pub struct Exe<'a> {
    pub path: &'a Path,
    pub asan: bool,
}

/// Files a test gives its program, in the directory `dir`.
#[derive(Clone, Copy)]
pub struct TestFiles<'a> {
    pub dir: &'a Path,
    pub files: &'a [TestFile],
}

/// One native run: how it ended (UBSan's reports aside) and what UBSan reported on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativeRun {
    /// An error here is AddressSanitizer's report, a failed assertion, a signal or a timeout.
    pub outcome: RunOutcome,
    /// UBSan's reports, in the order of the log, each once.
    pub ub: Vec<UbReport>,
    /// What the program wrote to standard error, its process id written `<pid>` (sanitizer
    /// reports go to their own log, never here).
    pub stderr: Vec<u8>,
}

/// Runs `first` and `second` on `input` at the same time, each with scratch files and a
/// directory of its own: a test on which both wait until the timeout (`tail -f` following its
/// input file) costs one timeout, not two.
pub fn run_pair(first: Exe, second: Exe, input: &RunInput) -> Result<(NativeRun, NativeRun)> {
    let beside = |p: &Path| {
        let mut name = p.file_name().unwrap_or_default().to_os_string();
        name.push("-2");
        p.with_file_name(name)
    };
    let scratch = beside(input.scratch);
    let dir = input.files.map(|f| beside(f.dir));
    let files = input.files.zip(dir.as_deref()).map(|(f, dir)| TestFiles { dir, files: f.files });
    let input2 = RunInput { scratch: &scratch, files, ..*input };
    std::thread::scope(|s| {
        let other = s.spawn(|| run(second, &input2));
        let ran = run(first, input);
        let other = other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        Ok((ran?, other?))
    })
}

/// Runs `exe` on one test.
pub fn run(exe: Exe, input: &RunInput) -> Result<NativeRun> {
    let out_path = input.scratch.with_extension("stdout");
    let err_path = input.scratch.with_extension("stderr");
    // The sanitizers report into files of their own (`<log>.<pid>`), never into the program's
    // stderr, so no output of the program can pass for a report. (A whole path: the program
    // may run in another directory, its files'.)
    let log = std::path::absolute(input.scratch.with_extension("san"))?;
    let with_log = |options: &str| format!("{options}:log_path=\"{}\"", log.display());
    let create = |p: &Path| File::create(p).with_context(|| format!("cannot create {}", p.display()));
    let mut feeders = Feeders::default();
    let stdin = feeders.stdin(input.stdin_kind, input.stdin)?;
    let asan_options = match input.memory_limit_mb {
        Some(mb) if exe.asan => format!("{ASAN_OPTIONS}:allocator_may_return_null=1:max_allocation_size_mb={mb}"),
        _ => ASAN_OPTIONS.to_string(),
    };
    let address_space = input.memory_limit_mb.filter(|_| !exe.asan).map(|mb| mb.saturating_mul(1 << 20));
    let exe = &std::path::absolute(exe.path)?;
    let objects = std::path::absolute(input.objects)?;
    let mut cmd = Command::new(exe);
    if let Some(TestFiles { dir, files }) = input.files {
        // Afresh for each run: a run may have changed or removed them.
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for TestFile { name, bytes, kind } in files {
            feeders.file(&dir.join(name), *kind, bytes)?;
        }
        cmd.current_dir(dir);
    }
    if let Some(name) = input.args.first() {
        cmd.arg0(OsStr::from_bytes(name));
    }
    cmd.env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    for (name, value) in input.env.iter().filter_map(|v| v.split_once('=')) {
        cmd.env(name, value);
    }
    cmd.args(input.args.iter().skip(1).map(|a| OsStr::from_bytes(a)))
        .env("KTEST_FILE", &objects)
        .env("ASAN_OPTIONS", with_log(&asan_options))
        .env("UBSAN_OPTIONS", with_log(UBSAN_OPTIONS))
        .stdin(stdin)
        .stdout(Stdio::from(create(&out_path)?))
        .stderr(Stdio::from(create(&err_path)?));
    // The run dies with the thread that waits for it: a replay killed from outside (a batch's
    // time limit, a second Ctrl-C) leaves no program behind, even one that loops forever.
    // A replay killed between the fork and the `prctl` sends no signal: the child, by then
    // another process's, sees its parent changed and ends itself (old and new start at once,
    // so a kill often lands in that window).
    let replay = std::process::id() as libc::pid_t;
    // SAFETY: `prctl`, `getppid`, `raise` and `setrlimit` are async-signal-safe and touch no
    // memory of ours.
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::getppid() != replay {
                libc::raise(libc::SIGKILL);
            }
            if let Some(bytes) = address_space {
                let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().with_context(|| format!("cannot run {}", exe.display()))?;
    // Our copies of the program's standard streams close: a pipe ends when the program's does.
    drop(cmd);
    let pid = child.id();
    let status = wait_bounded(&mut child, input.timeout)?;
    drop(feeders);
    let stdout = read(&out_path)?;
    let stderr_bytes = super::streams::without_pid(&read(&err_path)?, pid);
    let stderr = String::from_utf8_lossy(&stderr_bytes).into_owned();
    let _ = std::fs::remove_file(&out_path);
    let _ = std::fs::remove_file(&err_path);
    let sanitizer_log = take_logs(&log)?;
    let ub = ub_reports(&sanitizer_log);
    let outcome = match status {
        None => RunOutcome::Error(format!("timeout after {:.1} s", input.timeout.as_secs_f64())),
        Some(status) => ended(status, stdout, &stderr, &sanitizer_log),
    };
    Ok(NativeRun { outcome, ub, stderr: stderr_bytes })
}

/// How a run that exited with `status` ended, UBSan's reports aside.
fn ended(status: std::process::ExitStatus, stdout: Vec<u8>, stderr: &str, sanitizer_log: &str) -> RunOutcome {
    if status.code() == Some(REPLAY_FAILED) {
        if let Some(line) = stderr.lines().find_map(|l| l.strip_prefix(REPLAY_MARKER)) {
            return RunOutcome::ReplayFailed(line.to_string());
        }
    }
    if let Some(report) = error_report(sanitizer_log, stderr) {
        return RunOutcome::Error(report);
    }
    match (status.code(), status.signal()) {
        (Some(code), _) => RunOutcome::Exit { code, stdout },
        (None, Some(sig)) => RunOutcome::Error(format!("killed by signal {sig} ({})", signal_name(sig))),
        (None, None) => RunOutcome::Error(format!("ended abnormally ({status})")),
    }
}

/// Waits for `child` until it exits (its status) or `timeout` passes or the process is
/// interrupted (`None`, the child killed). Polls with a growing interval: most runs end
/// within milliseconds.
fn wait_bounded(child: &mut std::process::Child, timeout: Duration) -> Result<Option<std::process::ExitStatus>> {
    let start = Instant::now();
    let mut poll = Duration::from_micros(200);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if start.elapsed() > timeout || penumbra_engine::interrupted() {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(poll);
        poll = (poll * 2).min(Duration::from_millis(20));
    }
}

fn read(path: &Path) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(bytes)
}

pub(crate) fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        _ => "signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_printed_build_flags_are_those_replay_compiles_and_links_with() {
        let text = build_flags_text();
        assert_eq!(
            text,
            "cflags: -O0 -g -fwrapv -fsanitize=address,undefined -fsanitize-recover=undefined\n\
             ldflags: -fsanitize=address,undefined\n"
        );
        let printed: Vec<&str> = text.lines().flat_map(|l| l.split_once(": ").map(|(_, f)| f)).collect();
        let clang = NativeLibc::System.clang(false).expect("a glibc build needs no toolchain lookup");
        let args: Vec<String> = clang.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        let cflags: Vec<&str> = printed[0].split(' ').collect();
        assert_eq!(args, [cflags.as_slice(), &["-w"]].concat());
        // Linking goes through the same command: its sanitizers are those printed.
        assert!(args.iter().any(|a| a == printed[1]), "{args:?}");
    }
}
