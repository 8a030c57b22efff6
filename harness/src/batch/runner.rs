//! Running one job as a child `penumbra shadow` process under a wall-time and a memory limit.
//!
//! The child's stdout and stderr go to files rather than pipes: a summary with thousands of
//! tests would otherwise fill a pipe while we are busy polling, and files need no reader
//! thread. A reaper thread blocks in `wait4`, which gives the exact end time and the child's
//! own peak RSS (`ru_maxrss`) whatever the outcome; meanwhile the monitor loop checks the
//! clock and the child's current peak RSS (`VmHWM` in /proc) and kills it when a limit is
//! passed. Polling can overshoot the memory limit by what the child allocates in one poll
//! interval; an allocation failure the child reports itself also counts as `memory-out`.
//! A job killed by a signal the batch did not send (the OOM killer, a user) is `killed`; if
//! it was replaying, `penumbra replay` then replays the complete tests it left.
//!
//! The child stays in our process group, so Ctrl-C on the batch stops the children too.

use super::manifest::{Job, Skip};
use crate::replay::native::signal_name;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The `penumbra shadow` flags naming files replay runs or builds (besides the source), which
/// `penumbra replay` takes too.
pub const REPLAY_FILE_FLAGS: [&str; 6] = [
    "--native-old",
    "--native-new",
    "--native-fixed",
    "--native-fix-parent",
    "--fixed-version",
    "--fix-parent-version",
];

/// How often the monitor looks at the child's clock and memory.
const POLL: Duration = Duration::from_millis(20);
/// How much of the child's stderr a job record keeps (its end, where the error is).
const STDERR_TAIL: u64 = 4000;

/// How a job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    Timeout,
    MemoryOut,
    /// Killed by a signal the batch did not send.
    Killed,
    Error,
    /// Not run: a prepared subject's seeded job without seeds.
    NoSeeds,
    /// Not run: the subject's preparation failed.
    NotPrepared,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Timeout => "timeout",
            Outcome::MemoryOut => "memory-out",
            Outcome::Killed => "killed",
            Outcome::Error => "error",
            Outcome::NoSeeds => "no-seeds",
            Outcome::NotPrepared => "not-prepared",
        }
    }
}

/// What the child left behind.
#[derive(Debug)]
pub struct Finished {
    pub outcome: Outcome,
    pub wall_s: f64,
    pub peak_rss_mb: f64,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// The parsed `--json` summary, for `ok` jobs.
    pub summary: Option<serde_json::Value>,
    /// For a replaying job killed from outside: the complete tests it left, replayed.
    pub salvaged: Vec<serde_json::Value>,
    /// A one-line reason for `error` outcomes.
    pub error: Option<String>,
    pub stderr_tail: String,
}

struct Reaped {
    status: libc::c_int,
    maxrss_kb: i64,
    at: Instant,
}

/// Runs `exe shadow <job.args>` in the job's directory; `scratch` is a directory for the
/// child's output files (removed again before returning).
pub fn run(exe: &Path, job: &Job, scratch: &Path) -> io::Result<Finished> {
    if let Some(skip) = &job.skip {
        return Ok(Finished {
            outcome: match skip {
                Skip::NoSeeds(_) => Outcome::NoSeeds,
                Skip::NotPrepared(_) => Outcome::NotPrepared,
            },
            wall_s: 0.0,
            peak_rss_mb: 0.0,
            exit_code: None,
            signal: None,
            summary: None,
            salvaged: Vec::new(),
            error: Some(skip.reason().to_string()),
            stderr_tail: String::new(),
        });
    }
    let ScratchFiles { out_path, err_path, tests_dir } = ScratchFiles::of(job, scratch)?;
    // A replaying job writes its tests (which the native runs read) in `tests_dir`; only the
    // summary's classes are kept.
    let tests_dir = job.replay.then_some(tests_dir);
    let result = run_with_files(exe, job, &out_path, &err_path, tests_dir.as_deref());
    let _ = std::fs::remove_file(&out_path);
    let _ = std::fs::remove_file(&err_path);
    if let Some(dir) = &tests_dir {
        keep_report(job, dir, scratch);
        let _ = std::fs::remove_dir_all(dir);
    }
    result
}

/// A replayed job's page and clusters (`penumbra report`), kept in the batch's `reports/`
/// before its tests go. A job that wrote no report (killed, not replayed) has none;
/// a page that cannot be written is said and the job stands.
fn keep_report(job: &Job, tests_dir: &Path, scratch: &Path) {
    if !tests_dir.join("report.json").is_file() {
        return;
    }
    let Some(reports) = scratch.parent().map(|out| out.join(crate::report::index::REPORTS)) else { return };
    let kept = crate::report::write(tests_dir, crate::cli::REPORT_TOP).and_then(|_| {
        let (page, clusters) = crate::report::index::job_files(&job.id);
        std::fs::create_dir_all(&reports)?;
        std::fs::copy(tests_dir.join("report.html"), reports.join(page))?;
        std::fs::copy(tests_dir.join("clusters.json"), reports.join(clusters))?;
        Ok(())
    });
    if let Err(e) = kept {
        eprintln!("penumbra: batch: job {}: no report page: {e:#}", job.id);
    }
}

/// A job's files in the batch's scratch directory: the child's stdout and stderr, and the
/// output directory of a replaying job's tests.
struct ScratchFiles {
    out_path: PathBuf,
    err_path: PathBuf,
    tests_dir: PathBuf,
}

impl ScratchFiles {
    fn of(job: &Job, scratch: &Path) -> io::Result<ScratchFiles> {
        Ok(ScratchFiles {
            out_path: scratch.join(format!("{}.stdout", job.id)),
            err_path: scratch.join(format!("{}.stderr", job.id)),
            // The child runs in the subject's directory: the path must not be relative.
            tests_dir: std::path::absolute(scratch.join(format!("{}.tests", job.id)))?,
        })
    }
}

/// Removes what a batch that died while running `job` left of it in `scratch` (its output
/// files, its partial tests with their `.part` files), so that the job runs again from the
/// start; returns whether there was anything. The tests directory itself stays (emptied): it
/// may be a mount point, and `penumbra shadow` writes into an empty directory.
pub fn clear_leftovers(job: &Job, scratch: &Path) -> io::Result<bool> {
    let files = ScratchFiles::of(job, scratch)?;
    let mut found = false;
    for file in [&files.out_path, &files.err_path] {
        match std::fs::remove_file(file) {
            Ok(()) => found = true,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    let entries = match std::fs::symlink_metadata(&files.tests_dir) {
        Ok(meta) if meta.is_dir() => std::fs::read_dir(&files.tests_dir)?,
        // Not made by a job: removed as it is, never followed.
        Ok(_) => {
            std::fs::remove_file(&files.tests_dir)?;
            return Ok(true);
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(found),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        found = true;
        // remove_dir_all does not follow symbolic links: nothing outside the directory goes.
        match entry.file_type()?.is_dir() {
            true => std::fs::remove_dir_all(entry.path())?,
            false => std::fs::remove_file(entry.path())?,
        }
    }
    Ok(found)
}

fn run_with_files(
    exe: &Path,
    job: &Job,
    out_path: &Path,
    err_path: &Path,
    tests_dir: Option<&Path>,
) -> io::Result<Finished> {
    let mut args: Vec<OsString> = std::iter::once("shadow".into()).chain(job.args.iter().map(OsString::from)).collect();
    if let Some(dir) = tests_dir {
        args.extend(["--output-dir".into(), dir.as_os_str().to_owned()]);
    }
    let limits =
        Limits { time: Duration::from_secs_f64(job.max_time), memory_kb: job.max_memory_mb.saturating_mul(1024) };
    let end = run_child(exe, &args, &job.dir, limits, out_path, err_path)?;
    let stderr_tail = tail(err_path)?;
    let mut finished = Finished {
        outcome: Outcome::Error,
        wall_s: end.wall_s,
        peak_rss_mb: end.peak_rss_mb,
        exit_code: end.exit_code,
        signal: end.signal,
        summary: None,
        salvaged: Vec::new(),
        error: None,
        stderr_tail,
    };
    if let Some(outcome) = end.killed_for {
        finished.outcome = outcome;
        return Ok(finished);
    }
    if finished.stderr_tail.contains("memory allocation of") {
        finished.outcome = Outcome::MemoryOut;
        return Ok(finished);
    }
    match (end.exit_code, end.signal) {
        (Some(0), _) => match serde_json::from_slice::<serde_json::Value>(&std::fs::read(out_path)?) {
            Ok(v) if v.is_object() => {
                finished.outcome = Outcome::Ok;
                finished.summary = Some(v);
            }
            Ok(_) => finished.error = Some("the summary on stdout is not a JSON object".to_string()),
            Err(e) => finished.error = Some(format!("the summary on stdout is not JSON: {e}")),
        },
        (Some(code), _) => finished.error = Some(format!("exit status {code}: {}", last_line(&finished.stderr_tail))),
        (_, Some(sig)) => {
            // Not the batch's own limits (those are `killed_for`): the OOM killer, a user, a
            // scheduler. What the job wrote before is still worth replaying.
            finished.outcome = Outcome::Killed;
            let mut error = format!("killed by signal {sig} ({}) from outside the batch", signal_name(sig));
            if let Some(dir) = tests_dir.filter(|d| d.join("run.json").is_file()) {
                error.push_str(&salvage(exe, job, dir, limits, out_path, err_path, &mut finished)?);
            }
            finished.error = Some(error);
        }
        _ => finished.error = Some("ended without an exit status".to_string()),
    }
    Ok(finished)
}

/// Replays the complete tests a killed replaying job left in `dir` (`penumbra replay` skips
/// what the kill cut short), under the job's own limits; returns what to add to the error.
fn salvage(
    exe: &Path,
    job: &Job,
    dir: &Path,
    limits: Limits,
    out_path: &Path,
    err_path: &Path,
    finished: &mut Finished,
) -> io::Result<String> {
    let mut args: Vec<OsString> = vec!["replay".into(), dir.as_os_str().to_owned(), "--json".into()];
    // The job's replay settings, so that its salvaged tests are classified as its own would
    // have been (on the same prebuilt builds, against the same fixed version).
    for (i, arg) in job.args.iter().enumerate() {
        let Some(value) = job.args.get(i + 1) else { break };
        if arg == "--replay-timeout" {
            args.extend(["--timeout".into(), value.into()]);
        } else if ["--interpreter", "--native-memory-limit"].contains(&arg.as_str())
            || REPLAY_FILE_FLAGS.contains(&arg.as_str())
        {
            args.extend([arg.into(), value.into()]);
        }
    }
    let end = run_child(exe, &args, &job.dir, limits, out_path, err_path)?;
    let said = tail(err_path)?;
    if end.exit_code != Some(0) {
        return Ok(format!("; replaying the tests it left failed: {}", last_line(&said)));
    }
    match serde_json::from_slice::<serde_json::Value>(&std::fs::read(out_path)?) {
        Ok(serde_json::Value::Array(tests)) => {
            let n = tests.len();
            finished.salvaged = tests;
            // replay says on stderr what it left out (records cut short, files without records).
            let left_out = said.lines().find_map(|l| l.split_once("; left out ").map(|(_, what)| what.to_string()));
            Ok(format!(
                "; replayed the {n} complete tests it left{}",
                left_out.map(|w| format!(" (left out {w})")).unwrap_or_default()
            ))
        }
        _ => Ok("; replaying the tests it left printed no test list".to_string()),
    }
}

/// A child's limits: wall time and peak resident memory.
#[derive(Clone, Copy)]
struct Limits {
    time: Duration,
    memory_kb: u64,
}

/// How a child process ended.
struct ChildEnd {
    /// Set when the monitor killed the child for passing a limit.
    killed_for: Option<Outcome>,
    wall_s: f64,
    peak_rss_mb: f64,
    exit_code: Option<i32>,
    signal: Option<i32>,
}

/// Runs `exe args` in `dir` with stdout and stderr to files, killing it at its limits.
fn run_child(
    exe: &Path,
    args: &[OsString],
    dir: &Path,
    limits: Limits,
    out_path: &Path,
    err_path: &Path,
) -> io::Result<ChildEnd> {
    let stdout = File::create(out_path)?;
    let stderr = File::create(err_path)?;
    let start = Instant::now();
    let mut command = Command::new(exe);
    command.args(args);
    // A job dies with its batch: killed, even by SIGKILL, the batch leaves no job running on.
    // (The death signal follows the spawning thread, which waits here until the job ends.)
    let batch_pid = std::process::id();
    // SAFETY: between fork and exec the closure only calls prctl and getppid, which are
    // async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The batch may have died before the line above.
            if libc::getppid() as u32 != batch_pid {
                return Err(io::Error::other("the batch ended"));
            }
            Ok(())
        });
    }
    // The job's temporary files (the compiler's, replay's builds) go to a directory of its own,
    // removed when it ends: a job killed at its limits cannot remove its own.
    let scratch = tempfile::Builder::new().prefix("penumbra-job-").tempdir()?;
    command.env("TMPDIR", scratch.path());
    let child = command.current_dir(dir).stdin(Stdio::null()).stdout(stdout).stderr(stderr).spawn()?;
    let pid = child.id() as libc::pid_t;
    // `child` is reaped by wait4 below, never by std: dropping a Child neither waits nor kills.
    drop(child);

    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut status: libc::c_int = 0;
        // SAFETY: rusage is plain old data, and wait4 writes it fully on success.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: pid is our own unreaped child; the pointers are to live locals.
            let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            if r == pid || (r < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted) {
                break;
            }
        }
        let _ = tx.send(Reaped { status, maxrss_kb: usage.ru_maxrss, at: Instant::now() });
    });

    let mut killed_for: Option<Outcome> = None;
    let reaped = loop {
        match rx.recv_timeout(POLL) {
            Ok(r) => break r,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(io::Error::other("the reaper thread of a job ended without a status"));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if killed_for.is_some() {
            continue;
        }
        let over_time = start.elapsed() >= limits.time;
        let over_memory = peak_rss_kb(pid).is_some_and(|kb| kb > limits.memory_kb);
        if over_time || over_memory {
            killed_for = Some(if over_memory { Outcome::MemoryOut } else { Outcome::Timeout });
            // SAFETY: the child has not been reaped (the reaper has not reported), so the pid
            // is still ours.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    };

    let (exit_code, signal) = if libc::WIFEXITED(reaped.status) {
        (Some(libc::WEXITSTATUS(reaped.status)), None)
    } else if libc::WIFSIGNALED(reaped.status) {
        (None, Some(libc::WTERMSIG(reaped.status)))
    } else {
        (None, None)
    };
    Ok(ChildEnd {
        killed_for,
        wall_s: reaped.at.duration_since(start).as_secs_f64(),
        peak_rss_mb: reaped.maxrss_kb as f64 / 1024.0,
        exit_code,
        signal,
    })
}

/// The child's peak resident set so far (VmHWM, kB), if it is still running.
fn peak_rss_kb(pid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn tail(path: &Path) -> io::Result<String> {
    let mut f = File::open(path)?;
    let len = f.metadata()?.len();
    f.seek(SeekFrom::Start(len.saturating_sub(STDERR_TAIL)))?;
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn last_line(text: &str) -> &str {
    text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message")
}
