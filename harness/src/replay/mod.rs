//! `penumbra replay OUTDIR` (and `penumbra shadow --replay`): every test of an output directory
//! run on the old and the new version, natively (with AddressSanitizer and UBSan where the
//! build has them) and under the concrete interpreter, and classified (`unconfirmed`,
//! `regression`, `output-diff`, `both-error`, `fix`, `silent`; `expected` with
//! `--fixed-version`, by Shadow's rule with `--fix-parent-version`: [`classify`]).
//!
//! - [`builds`]: the native builds, whether each has AddressSanitizer, the interpreter's
//!   modules;
//! - [`native`]: compiling a build and one run of it on a test ([`elf`]: reading a prebuilt
//!   executable's symbols);
//! - [`interpreter`]: one run of the interpreter on a test;
//! - [`verdict`]: which witness decides, undefined behaviour both versions share, and where
//!   the engine, the interpreter and the native run disagree;
//! - [`classify`]: the classes and the outcomes' JSON;
//! - [`record`]: the JSON replay writes, as types (a replayed test, `report.json`);
//! - [`report`]: the human report and `report.json`;
//! - [`scratch`]: the directory of the builds and runs, made afresh, removed after (and after a
//!   killed replay, by the next).
//!
//! The output directory says what to build (`run.json`, see [`crate::run_info`]) and which tests
//! there are (`tests.jsonl`, in test order, each naming its `.ktest` or, for a plain exit,
//! holding its arguments and inputs itself). A test's `argv` and stdin
//! go to the process directly; its program objects go into a `.ktest` of their own that the
//! runtime reads (`KTEST_FILE`). Tests run in parallel, one per core; the report keeps test
//! order, so it is the same whatever the scheduling.

pub mod builds;
pub mod classify;
pub mod elf;
pub mod file_kinds;
pub mod interpreter;
pub mod native;
pub mod record;
pub mod report;
pub mod sanitizer;
pub mod scratch;
pub mod streams;
pub mod verdict;

use crate::cli::{Interpret, NativeArgs, ReplayArgs};
use crate::run_info::RunInfo;
use crate::seconds::seconds;
use anyhow::{bail, Context, Result};
pub use builds::Builds;
use classify::{Class, Fix};
use file_kinds::TestEnvironment;
use interpreter::Interpreter;
use native::{RunInput, RunOutcome};
use penumbra_engine::output::ktest::{KTest, KTestObject};
use penumbra_engine::output::replay::replay_inputs;
use penumbra_engine::output::testgen::SidecarInputs;
use penumbra_engine::output::testgen::SIDECAR;
use penumbra_ir::{Module, Version};
use report::{ReplayedTest, Report};
use sanitizer::UbReport;
pub use scratch::Scratch;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use verdict::{class_of, confirms, decide, null_arguments, shared_ub, Claims, Decided, Witnesses};

/// The report's file name in the output directory.
pub const REPORT: &str = "report.json";

/// How to replay.
#[derive(Clone, Debug)]
pub struct Options {
    /// Per run of one build on one test.
    pub timeout: Duration,
    /// The fixes (fixed versions, each with its parent where given) that decide output
    /// differences.
    pub fixes: Vec<Fix<PathBuf>>,
    /// Parallel runs (0: one per core).
    pub jobs: usize,
    /// Prebuilt executables to run instead of building the program.
    pub native: Option<Prebuilt>,
    /// When the interpreter runs a test (`--interpreter`).
    pub interpret: Interpret,
    /// The memory each native run may have, in MiB (`--native-memory-limit`).
    pub memory_limit_mb: Option<u64>,
}

/// Native executables built outside penumbra (`--native-old`, `--native-new`, `--native-fixed`,
/// `--native-fix-parent`).
#[derive(Clone, Debug)]
pub struct Prebuilt {
    pub old: PathBuf,
    pub new: PathBuf,
    pub fixes: Vec<Fix<PathBuf>>,
}

impl Prebuilt {
    /// The flags' executables, each checked to exist (`None` without `--native-old`).
    pub fn from_args(args: &NativeArgs) -> Result<Option<Prebuilt>> {
        let (Some(old), Some(new)) = (&args.native_old, &args.native_new) else { return Ok(None) };
        let flags = [("--native-old", std::slice::from_ref(old)), ("--native-new", std::slice::from_ref(new))]
            .into_iter()
            .chain([("--native-fixed", &args.native_fixed[..]), ("--native-fix-parent", &args.native_fix_parent[..])]);
        for (flag, exes) in flags {
            if let Some(exe) = exes.iter().find(|exe| !exe.is_file()) {
                bail!("{flag} {}: no such file", exe.display());
            }
        }
        let absolute = |p: &PathBuf| std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()));
        let all = |exes: &[PathBuf]| exes.iter().map(absolute).collect::<Result<Vec<_>>>();
        let fixes = Fix::pair(all(&args.native_fixed)?, all(&args.native_fix_parent)?)
            .map_err(|e| anyhow::anyhow!("--native-fixed and --native-fix-parent: {e}"))?;
        Ok(Some(Prebuilt { old: absolute(old)?, new: absolute(new)?, fixes }))
    }
}

pub fn run(args: &ReplayArgs) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let Some(dir) = args.dir.as_deref().filter(|_| !args.print_build_flags) else {
        write!(out, "{}", native::build_flags_text())?;
        return Ok(ExitCode::SUCCESS);
    };
    crate::interrupt::install();
    let fixes = (args.fixed_version.clone(), args.fix_parent_version.clone());
    let options = options(args.timeout, fixes, &args.native, args.jobs)?;
    let report = replay_dir(dir, &options)?;
    if args.json {
        writeln!(out, "{}", serde_json::Value::Array(report.tests_json()))?;
    } else {
        write!(out, "{}", report.human())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Checks the command-line values (`fixes`: the files of `--fixed-version` and of
/// `--fix-parent-version`).
pub fn options(
    timeout: f64,
    fixes: (Vec<PathBuf>, Vec<PathBuf>),
    native_args: &NativeArgs,
    jobs: Option<usize>,
) -> Result<Options> {
    let timeout = seconds("the replay timeout", timeout, false)?;
    for (flag, files) in [("--fixed-version", &fixes.0), ("--fix-parent-version", &fixes.1)] {
        if let Some(f) = files.iter().find(|f| !f.is_file()) {
            bail!("{flag} {}: no such file", f.display());
        }
    }
    let fixes =
        Fix::pair(fixes.0, fixes.1).map_err(|e| anyhow::anyhow!("--fixed-version and --fix-parent-version: {e}"))?;
    if jobs == Some(0) {
        bail!("--jobs must be at least 1");
    }
    if native_args.native_memory_limit == Some(0) {
        bail!("--native-memory-limit must be at least 1 (MiB)");
    }
    let native = Prebuilt::from_args(native_args)?;
    Ok(Options {
        timeout,
        fixes,
        jobs: jobs.unwrap_or(0),
        native,
        interpret: native_args.interpreter,
        memory_limit_mb: native_args.native_memory_limit,
    })
}

/// Replays every test of `dir`, writes `dir/report.json` and returns the report.
pub fn replay_dir(dir: &Path, options: &Options) -> Result<Report> {
    let start = Instant::now();
    let info = RunInfo::read(dir)?;
    info.check_source()?;
    let tests = load_tests(dir, &info)?;
    let scratch = Scratch::in_output_dir(dir)?;
    let builds = Builds::prepare(scratch.path(), &info, options, false)?;
    replay_tests(dir, info, tests, &builds, None, options, start)
}

/// Replays `dir`'s tests on builds made before the run wrote them (`shadow --replay` builds
/// first: a run that fills its disk still has its builds, and a build that fails does so
/// before the exploration rather than after it), interpreting `program`, the module it
/// explored.
pub fn replay_prepared(dir: &Path, builds: &Builds, program: &Module, options: &Options) -> Result<Report> {
    let start = Instant::now();
    let info = RunInfo::read(dir)?;
    let tests = load_tests(dir, &info)?;
    replay_tests(dir, info, tests, builds, Some(program), options, start)
}

/// Runs every test on the builds, in parallel, and writes `dir/report.json` if it can.
fn replay_tests(
    dir: &Path,
    info: RunInfo,
    tests: Vec<SidecarTest>,
    builds: &Builds,
    program: Option<&Module>,
    options: &Options,
    start: Instant,
) -> Result<Report> {
    let jobs = match options.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(tests.len().max(1));
    let loaded = builds.interpreted(program).map(|(program, fixes)| Interpreter::load(program, fixes, options.timeout));
    let interpreter = match loaded {
        Some(Ok(interpreter)) => Some(interpreter),
        Some(Err(e)) => {
            eprintln!("penumbra: warning: {e:#}: the native runs decide alone");
            None
        }
        None => None,
    };
    let context = Replayer {
        dir,
        builds,
        interpreter: interpreter.as_ref(),
        timeout: options.timeout,
        command: &info.command,
        interpret: options.interpret,
        memory_limit_mb: options.memory_limit_mb,
    };
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<ReplayedTest>>>> = Mutex::new((0..tests.len()).map(|_| None).collect());
    let progress = report::Progress::new(tests.len() as u64);
    std::thread::scope(|s| {
        for worker in 0..jobs {
            let (next, results, tests, progress, context) = (&next, &results, &tests, &progress, &context);
            s.spawn(move || loop {
                // An interrupt (SIGINT, SIGTERM) ends the replay too: the tests replayed so
                // far are reported.
                if penumbra_engine::interrupted() {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(test) = tests.get(i) else { break };
                let scratch = builds.work.join(format!("worker{worker}"));
                let result = replay_test(context, test, &scratch);
                // A run the interrupt cut short is no outcome of the program.
                if penumbra_engine::interrupted() {
                    break;
                }
                results.lock().expect("no worker panics")[i] = Some(result);
                progress.inc();
            });
        }
    });
    progress.finish();
    let results = results.into_inner().expect("no worker panics");
    let left = results.iter().filter(|r| r.is_none()).count();
    if left > 0 {
        eprintln!("penumbra: replay interrupted: {left} of {} tests were not replayed", results.len());
    }
    let tests = results.into_iter().flatten().collect::<Result<Vec<_>>>()?;
    let report = Report {
        source: info.source,
        fixes: match &options.native {
            Some(native) => native.fixes.clone(),
            None => options.fixes.clone(),
        },
        tests,
        wall: start.elapsed(),
        timeout: options.timeout,
        memory_limit_mb: options.memory_limit_mb,
        builds: builds.described(interpreter.is_some()),
        not_replayed: left,
    };
    // A full disk must not cost the replay: the report still goes to stdout.
    let path = dir.join(REPORT);
    if let Err(e) = write_new(&path, (report.to_json().to_string() + "\n").as_bytes()) {
        // No report of an earlier replay stays to be taken for this one's (a link goes, not
        // its target).
        let _ = std::fs::remove_file(&path);
        eprintln!("penumbra: warning: cannot write {}: {e} (the report is on stdout only)", path.display());
    }
    Ok(report)
}

/// Replaces `path` with a file of `bytes`: written to a file of its own first (created, never
/// opened through a link), then renamed over `path`, which replaces a link rather than the file
/// it points to.
fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    let written = std::fs::File::options()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// What every test is replayed with.
struct Replayer<'a> {
    dir: &'a Path,
    builds: &'a Builds,
    interpreter: Option<&'a Interpreter<'a>>,
    timeout: Duration,
    /// The command that wrote the tests (`shadow`, `run`): what their records claim.
    command: &'a str,
    interpret: Interpret,
    memory_limit_mb: Option<u64>,
}

/// Whether a version's run needs the interpreter beside its native run (`--interpreter
/// errors`): where the build cannot see memory errors, or something reported one.
fn needs_interpreter(
    interpret: Interpret,
    build: &builds::NativeBuild,
    run: &native::NativeRun,
    claim: Option<&verdict::Claim>,
) -> bool {
    interpret == Interpret::Always
        || !build.sanitizers
        || !matches!(run.outcome, RunOutcome::Exit { .. })
        || !run.ub.is_empty()
        || claim.is_some_and(|c| c.error)
}

/// A version's witnesses: its native run on `build`, its interpreted run, the engine's claim.
fn witnesses<'a>(
    native: &'a native::NativeRun,
    build: &builds::NativeBuild,
    interpreted: &'a Option<interpreter::InterpOutcome>,
    engine: Option<&'a verdict::Claim>,
) -> Witnesses<'a> {
    Witnesses { native, sanitizers: build.sanitizers, interpreter: interpreted.as_ref(), engine }
}

/// A test as the sidecar records it.
struct SidecarTest {
    /// The whole record (it goes into the report, minus the bulky fields).
    record: serde_json::Value,
    name: String,
    /// The test's `.ktest` file, or (for a plain exit written without one) the test rebuilt
    /// from its line.
    ktest: TestSource,
}

enum TestSource {
    File(String),
    Line(KTest),
}

/// The tests of `dir`'s `tests.jsonl`. A run killed while writing (SIGKILL, a lost node) may
/// leave a last line cut short, a record whose `.ktest` it never wrote, or a `.ktest` whose
/// record it never wrote: those are left out, and said on stderr.
fn load_tests(dir: &Path, info: &RunInfo) -> Result<Vec<SidecarTest>> {
    let path = dir.join(SIDECAR);
    let mut text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut cut_short = 0;
    if !text.is_empty() && !text.ends_with('\n') {
        text.truncate(text.rfind('\n').map_or(0, |i| i + 1));
        cut_short = 1;
    }
    let mut tests = Vec::new();
    let mut without_file = 0;
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let mut record: serde_json::Value =
            serde_json::from_str(line).with_context(|| format!("{}:{}: not a JSON object", path.display(), i + 1))?;
        let field = |key: &str| record.get(key).and_then(|v| v.as_str()).map(str::to_string);
        let Some(name) = field("name") else {
            bail!("{}:{}: a test without `name`", path.display(), i + 1);
        };
        let ktest = match field("ktest") {
            Some(file) if !dir.join(&file).is_file() => {
                without_file += 1;
                continue;
            }
            Some(file) => TestSource::File(file),
            None => {
                let line: SidecarInputs = serde_json::from_str(line).with_context(|| {
                    format!("{}:{}: a test without a `.ktest` file needs `args` and `inputs`", path.display(), i + 1)
                })?;
                TestSource::Line(line.to_ktest())
            }
        };
        if let Some(map) = record.as_object_mut() {
            map.remove("path_condition");
            map.remove("args");
        }
        tests.push(SidecarTest { record, name, ktest });
    }
    let named: std::collections::HashSet<&str> = tests
        .iter()
        .filter_map(|t| match &t.ktest {
            TestSource::File(f) => Some(f.as_str()),
            TestSource::Line(_) => None,
        })
        .collect();
    let mut files = std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    let without_record = files.try_fold(0, |n, entry| -> Result<usize> {
        let name = entry.with_context(|| format!("cannot read {}", dir.display()))?.file_name();
        let name = name.to_string_lossy();
        Ok(n + usize::from(name.ends_with(".ktest") && !named.contains(name.as_ref())))
    })?;
    let mut left_out = Vec::new();
    let mut say = |n: usize, one: &str, many: &str| match n {
        0 => {}
        1 => left_out.push(format!("1 {one}")),
        n => left_out.push(format!("{n} {many}")),
    };
    say(cut_short, "record cut short", "records cut short");
    say(without_file, "record without its .ktest file", "records without their .ktest files");
    say(without_record, ".ktest file without a record", ".ktest files without records");
    let running = info.status.as_deref() == Some("running");
    if running || !left_out.is_empty() {
        let what = if left_out.is_empty() { String::new() } else { format!("; left out {}", left_out.join(", ")) };
        let how = if running { "did not finish (killed?)" } else { "was cut short" };
        eprintln!(
            "penumbra: the run that wrote {} {how}: replaying its {} complete tests{what}",
            dir.display(),
            tests.len()
        );
    }
    Ok(tests)
}

/// Runs one test on old and new (and the fixes, when they decide something), natively and
/// under the interpreter, and decides its class.
fn replay_test(context: &Replayer, test: &SidecarTest, scratch: &Path) -> Result<ReplayedTest> {
    let Replayer { dir, builds, interpreter, timeout, command, interpret: when, memory_limit_mb } = *context;
    let read;
    let ktest = match &test.ktest {
        TestSource::Line(ktest) => ktest,
        TestSource::File(file) => {
            let path = dir.join(file);
            let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            read = KTest::from_bytes(&bytes).with_context(|| format!("{} is not a .ktest file", path.display()))?;
            &read
        }
    };
    let inputs = replay_inputs(ktest).with_context(|| format!("cannot replay {}", test.name))?;
    // `--sym-files`, `--sym-file-types`: the objects musl's C layer made first become files A,
    // B, ... in the directory the program runs in and the kinds of them and of stdin; the native
    // program makes only the rest, its own.
    let TestEnvironment { files, stdin_kind, program_objects: own } =
        TestEnvironment::of(&inputs).with_context(|| format!("cannot replay {}", test.name))?;
    if !own.is_empty() {
        if let Some(plain) = builds.all().find(|b| !b.runtime) {
            bail!(
                "{}: the test has the program's own symbolic objects ({}), which the native build {} cannot read: it lacks penumbra's replay runtime (a prebuilt executable needs harness/src/replay/runtime.c, compiled with the build's PENUMBRA_VERSION_OLD or _NEW, linked in)",
                test.name,
                own.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(", "),
                plain.exe.display()
            );
        }
    }
    std::fs::create_dir_all(scratch).with_context(|| format!("cannot create {}", scratch.display()))?;
    let objects = scratch.join("objects.ktest");
    let own_test = KTest { objects: own.to_vec(), ..KTest::default() };
    std::fs::write(&objects, own_test.to_bytes()).with_context(|| format!("cannot write {}", objects.display()))?;
    let stdin = scratch.join("stdin");
    std::fs::write(&stdin, &inputs.stdin).with_context(|| format!("cannot write {}", stdin.display()))?;
    let files_dir = scratch.join("cwd");
    let input = RunInput {
        args: &inputs.args,
        stdin: &stdin,
        stdin_kind,
        objects: &objects,
        scratch: &scratch.join("run"),
        timeout,
        // Every run starts in a fresh directory holding only the test's files: a program that
        // creates, changes or removes files does so there, never where replay runs.
        files: Some(native::TestFiles { dir: &files_dir, files: &files }),
        env: &inputs.env,
        memory_limit_mb,
    };
    let interpret = |program: Option<&penumbra_engine::concrete::Program>, version: Version| {
        let interpreter = interpreter?;
        Some(interpreter.run(program.unwrap_or(&interpreter.program), ktest, version))
    };
    let (native_old, native_new) = native::run_pair(builds.old.as_exe(), builds.new.as_exe(), &input)?;
    let claims = Claims::of(&test.record, command);
    let interpreted_old = needs_interpreter(when, &builds.old, &native_old, claims.old.as_ref())
        .then(|| interpret(None, Version::Old))
        .flatten();
    let interpreted_new = needs_interpreter(when, &builds.new, &native_new, claims.new.as_ref())
        .then(|| interpret(None, Version::New))
        .flatten();
    // A project's own builds (no replay runtime) are of two source trees, whose lines differ.
    let across_trees = !builds.old.runtime || !builds.new.runtime;
    let shared = shared_ub(&native_old.ub, &native_new.ub, across_trees);
    let shared_new = shared_ub(&native_new.ub, &native_old.ub, across_trees);
    let old = decide("old", &witnesses(&native_old, &builds.old, &interpreted_old, claims.old.as_ref()), &shared);
    let new = decide("new", &witnesses(&native_new, &builds.new, &interpreted_new, claims.new.as_ref()), &shared_new);
    let output_differs = matches!((&old.outcome, &new.outcome), (RunOutcome::Exit { .. }, RunOutcome::Exit { .. }))
        && old.outcome != new.outcome;
    let new_errs_only = matches!((&old.outcome, &new.outcome), (RunOutcome::Exit { .. }, RunOutcome::Error(_)));
    // The fixes run where they decide (an output difference) or say whether they fix it (an
    // error in new only, which stays a `regression`: a fix that removes it is the one this
    // regression's report is about; one that keeps it, or whose parent had it no more, is
    // about another bug).
    let mut interpreted_fixes = Vec::new();
    let mut fixes = Vec::new();
    for (i, fix) in builds.fixes.iter().enumerate().filter(|_| output_differs || new_errs_only) {
        let interpreted = interpreter.and_then(|t| t.fixes.get(i));
        let mut version = |build: &builds::NativeBuild, program, name: String| -> Result<Decided> {
            let native_run = native::run(build.as_exe(), &input)?;
            let interpreted =
                needs_interpreter(when, build, &native_run, None).then(|| interpret(program, Version::New)).flatten();
            let own_shared = shared_ub(&native_run.ub, &shared, across_trees);
            let decided = decide(&name, &witnesses(&native_run, build, &interpreted, None), &own_shared);
            interpreted_fixes.extend(interpreted.map(|run| (name, run)));
            Ok(decided)
        };
        let (fixed_name, parent_name) = Fix::<()>::names(i);
        let fixed = version(&fix.fixed, interpreted.map(|f| &f.fixed), fixed_name)?;
        let parent = match &fix.parent {
            Some(build) => Some(version(build, interpreted.and_then(|f| f.parent.as_ref()), parent_name)?),
            None => None,
        };
        fixes.push(Fix { fixed, parent });
    }
    let mut class = class_of(&old, &new, &fixes);
    // The same stdout and exit status: standard error may still differ (natively: the
    // interpreter keeps no stderr).
    let stderr_diff =
        (class == Class::Silent).then(|| streams::first_difference(&native_old.stderr, &native_new.stderr)).flatten();
    let stdout_diff = match (&old.outcome, &new.outcome) {
        (RunOutcome::Exit { stdout: a, .. }, RunOutcome::Exit { stdout: b, .. }) => streams::first_difference(a, b),
        _ => None,
    };
    if stderr_diff.is_some() {
        class = Class::StderrDiff;
    }
    // A report recorded as no error that the interpreter confirms as an error of a version is
    // that error, and not recorded.
    let no_error = |r: &UbReport| !confirms(interpreted_old.as_ref(), r) && !confirms(interpreted_new.as_ref(), r);
    let null_argument_ub =
        null_arguments(&[&native_old.ub, &native_new.ub], &shared).into_iter().filter(no_error).collect();
    let shared_ub = shared.into_iter().filter(no_error).collect();
    let interpreted = [("old".to_string(), interpreted_old), ("new".to_string(), interpreted_new)]
        .into_iter()
        .filter_map(|(version, run)| Some((version, run?)))
        .chain(interpreted_fixes)
        .collect();
    Ok(ReplayedTest {
        name: test.name.clone(),
        record: test.record.clone(),
        inputs: ktest.objects.iter().map(|o: &KTestObject| (o.name.clone(), o.bytes.clone())).collect(),
        class,
        old,
        new,
        fixes,
        interpreted,
        shared_ub,
        null_argument_ub,
        stdout_diff,
        stderr_diff,
    })
}
