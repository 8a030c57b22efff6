//! A batch that dies while a job runs (issue 35 item 3): SIGKILL to the batch alone, SIGKILL to
//! its process group, SIGTERM to its process group. The job that was running is resumed by the
//! next run: it runs again to the end, with the row an uninterrupted batch gives it, never
//! counted as finished with an error, and no partial file (`*.part`) remains.

use crate::batch::{stable_table, table};
use crate::support::{penumbra, penumbra_bin, repo_root};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Three diff paths in each of which a concrete loop of a million steps runs before the
/// versions part: seconds of work, so the batch is still running it when it is killed.
const SLOW: &str = r#"#include "penumbra.h"
int main(void) {
  unsigned char b[3];
  penumbra_make_symbolic(b, sizeof b, "b");
  int n = 0;
  for (int i = 0; i < 3; i++)
    if (b[i] == 'a') n++;
  unsigned h = 0;
  for (unsigned i = 0; i < 1000000; i++) h = h * 31 + i;
  return change(n, n + (int)(h & 1) + 1);
}
"#;

/// Four examples, the slow one third and replayed (so a killed run of it leaves a directory of
/// tests behind), one job each.
const MANIFEST: &str = r#"
name = "resume"

[defaults]
mode = ["complete"]
configs = ["caches-on"]
max_time = 600

[[subject]]
name = "a-foo"
source = "foo.c"

[[subject]]
name = "b-threshold"
source = "threshold.c"
replay = true

[[subject]]
name = "c-slow"
source = "slow.c"
replay = true

[[subject]]
name = "d-bar"
source = "bar.c"
"#;

const SLOW_JOB: &str = "c-slow.complete.caches-on";

fn batch_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["foo.c", "threshold.c", "bar.c"] {
        std::fs::copy(repo_root().join("examples").join(name), dir.path().join(name)).unwrap();
    }
    std::fs::write(dir.path().join("slow.c"), SLOW).unwrap();
    std::fs::write(dir.path().join("manifest.toml"), MANIFEST).unwrap();
    dir
}

/// `penumbra batch` on `dir`'s manifest into `out`, one job at a time, to its end; its stderr.
fn run_batch(dir: &Path, out: &Path) -> String {
    let manifest = dir.join("manifest.toml");
    let run = penumbra([
        "batch".as_ref(),
        manifest.as_os_str(),
        "--jobs".as_ref(),
        "1".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    run.assert_no_panic();
    run.assert_status(0);
    run.stderr
}

/// How the batch is killed.
#[derive(Clone, Copy, Debug)]
enum Kill {
    BatchAlone(libc::c_int),
    Group(libc::c_int),
}

/// Starts the batch (as the leader of a process group of its own), waits until the slow job
/// has written a test, kills the batch as `kill` says, and waits until no process of it runs.
fn kill_during_the_slow_job(dir: &Path, out: &Path, kill: Kill) {
    let mut batch = std::process::Command::new(penumbra_bin())
        .arg("batch")
        .arg(dir.join("manifest.toml"))
        .args(["--jobs", "1", "--out"])
        .arg(out)
        // A batch killed cannot remove its jobs' scratch directories: they go in the test's.
        .env("TMPDIR", dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let tests = out.join("tmp").join(format!("{SLOW_JOB}.tests")).join("tests.jsonl");
    let started = Instant::now();
    while std::fs::read_to_string(&tests).map_or(0, |t| t.lines().count()) < 1 {
        assert!(started.elapsed() < Duration::from_secs(120), "the slow job wrote no test within two minutes");
        assert!(batch.try_wait().unwrap().is_none(), "the batch ended before it was killed");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = batch.id() as libc::pid_t;
    let (target, signal) = match kill {
        Kill::BatchAlone(signal) => (pid, signal),
        Kill::Group(signal) => (-pid, signal),
    };
    // SAFETY: kill has no memory effects; the pid is our child's (or its group's), not reaped.
    assert_eq!(unsafe { libc::kill(target, signal) }, 0);
    let status = batch.wait().unwrap();
    assert!(!status.success(), "{kill:?}: the batch ended normally");
    // Its job dies with it: no process runs in the manifest's directory any more.
    let here = dir.canonicalize().unwrap();
    let running = || {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| std::fs::read_link(e.unwrap().path().join("cwd")).ok())
            .any(|cwd| cwd == here)
    };
    let killed = Instant::now();
    while running() {
        assert!(killed.elapsed() < Duration::from_secs(5), "{kill:?}: the slow job outlived its batch");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every file under `dir` whose name ends in `.part`.
fn part_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return found };
    for entry in entries {
        let entry = entry.unwrap();
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            found.extend(part_files(&path));
        } else if path.to_string_lossy().ends_with(".part") {
            found.push(path);
        }
    }
    found
}

#[test]
fn a_job_running_when_its_batch_dies_is_resumed_by_the_next_run() {
    let dir = batch_dir();
    let whole = dir.path().join("whole");
    let log = run_batch(dir.path(), &whole);
    assert!(log.contains("batch resume: 4 jobs; 0 already finished, running 4"), "{log}");
    let expected = stable_table(&whole);
    let slow = expected.iter().find(|r| r["subject"] == "c-slow").expect("the slow job's row");
    // b[0..3] each 'a' or not: eight paths, each diverging (n against n + 1 or n + 2), each an
    // output difference when replayed.
    assert_eq!(
        (slow["outcome"].as_str(), slow["diff_paths"].as_str(), slow["class_output-diff"].as_str()),
        ("ok", "8", "8"),
        "{slow:?}"
    );

    for kill in [Kill::BatchAlone(libc::SIGKILL), Kill::Group(libc::SIGKILL), Kill::Group(libc::SIGTERM)] {
        let out = dir.path().join(format!("{kill:?}").replace(['(', ')'], ""));
        kill_during_the_slow_job(dir.path(), &out, kill);
        let jobs = job_records(&out);
        assert_eq!(jobs, ["a-foo.complete.caches-on.json", "b-threshold.complete.caches-on.json"], "{kill:?}");
        assert!(out.join("tmp").join(format!("{SLOW_JOB}.tests")).is_dir(), "{kill:?}: the killed job left nothing");

        let log = run_batch(dir.path(), &out);
        assert!(log.contains("batch resume: 4 jobs; 2 already finished, running 2"), "{kill:?}: {log}");
        assert!(
            log.contains(&format!(
                "batch: job {SLOW_JOB} was cut short by the end of an earlier batch: it runs again (its partial output removed)"
            )),
            "{kill:?}: {log}"
        );
        assert!(log.contains("wrote") && log.contains("(4 jobs: 4 ok)"), "{kill:?}: {log}");
        assert_eq!(stable_table(&out), expected, "{kill:?}: {log}");
        assert_eq!(part_files(&out), Vec::<PathBuf>::new(), "{kill:?}");
        assert!(!out.join("tmp").exists(), "{kill:?}: the scratch directory stays");
        // The resumed job counts as finished now: a third run runs nothing.
        let log = run_batch(dir.path(), &out);
        assert!(log.contains("4 already finished, running 0"), "{kill:?}: {log}");
        assert_eq!(table(&out).len(), 4);
    }
}

/// The names of the job records in `out`.
fn job_records(out: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(out.join("jobs"))
        .map(|entries| entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".json"));
    names.sort();
    names
}
