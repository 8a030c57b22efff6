//! `penumbra batch --slurm` on a real single-node SLURM (munge, slurmctld and slurmd started
//! here by `scripts/slurm-local.sh`, stopped at the end): the repository's example manifest
//! submitted as a job array and a collection job gives the `results.csv` of a local batch; a
//! task cancelled with `scancel` leaves its job without a record, `--status` says so, and a
//! second submission runs that task alone.

use crate::batch::stable_table;
use crate::support::{penumbra_bin, repo_root, run_command, Output};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A SLURM cluster of its own in a temporary directory, stopped on drop.
struct Cluster {
    dir: tempfile::TempDir,
}

impl Cluster {
    /// `None` (the test is skipped) where SLURM or munge is not installed.
    fn start() -> Option<Cluster> {
        let missing: Vec<&str> =
            ["munged", "slurmctld", "slurmd", "sbatch"].into_iter().filter(|t| which(t).is_none()).collect();
        if !missing.is_empty() {
            eprintln!(
                "skipped: SLURM is not installed here ({} missing; scripts/install-deps.sh installs Debian's munge and slurm-wlm)",
                missing.join(", ")
            );
            return None;
        }
        let cluster = Cluster { dir: tempfile::tempdir().unwrap() };
        let out = cluster.script("start");
        assert_eq!(out.status, Some(0), "the local SLURM did not start:\n{}", out.stderr);
        Some(cluster)
    }

    fn script(&self, action: &str) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(repo_root().join("scripts/slurm-local.sh")).arg(action).arg(self.dir.path());
        run_command(cmd)
    }

    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// `PROGRAM ARGS...` talking to this cluster.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env("SLURM_CONF", self.conf());
        cmd
    }

    /// `penumbra ARGS...` in the repository's root, as the README runs it.
    fn penumbra(&self, args: &[&str]) -> Output {
        let mut cmd = self.command(penumbra_bin());
        cmd.args(args).current_dir(repo_root());
        let out = run_command(cmd);
        out.assert_no_panic();
        out
    }

    fn run(&self, program: &str, args: &[&str]) {
        let mut cmd = self.command(program);
        cmd.args(args);
        let out = run_command(cmd);
        assert_eq!(out.status, Some(0), "{program} {args:?}: {}", out.stderr);
    }

    /// Waits until SLURM no longer lists job `id` (ended, whatever its end). A query the
    /// controller did not answer says nothing: asked again.
    fn wait_for(&self, id: &str) {
        let start = Instant::now();
        loop {
            let mut cmd = self.command("squeue");
            cmd.args(["-h", "-j", id, "-o", "%T"]);
            let out = run_command(cmd);
            if out.status == Some(0) && out.stdout_str().trim().is_empty() {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(300),
                "job {id} still queued after 300 s: {}",
                out.stdout_str()
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.script("stop");
    }
}

fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
}

/// The job ids `--slurm` printed: `array ID`, `collect ID` (and `prepare ID`).
fn job_ids(out: &Output) -> (String, String) {
    let text = out.stdout_str();
    let id = |what: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(what).map(|id| id.trim().to_string()))
            .unwrap_or_else(|| panic!("no `{what}` job id in:\n{text}"))
    };
    assert!(!text.contains("prepare"), "the example manifest has no project subject to prepare:\n{text}");
    (id("array "), id("collect "))
}

fn rows(out: &Path) -> usize {
    std::fs::read_to_string(out.join("results.csv")).unwrap().lines().count() - 1
}

/// The README's cluster section: its two commands, with its results directory here, and the
/// array's `sbatch` line it shows.
struct Readme {
    submit: Vec<String>,
    status: Vec<String>,
    array_sbatch: String,
}

fn args(words: &[String]) -> Vec<&str> {
    words.iter().map(String::as_str).collect()
}

const README_OUT: &str = "/shared/penumbra/examples";

fn readme(out: &str) -> Readme {
    let text = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let section = &text[text.find("## Batches on a cluster (SLURM)").expect("the README's cluster section")..];
    let line = |start: &str| {
        section
            .lines()
            .map(str::trim)
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line starting `{start}` in the README's cluster section"))
            .replace(README_OUT, out)
    };
    let words = |l: String| l.split_whitespace().skip(1).map(str::to_string).collect::<Vec<_>>();
    Readme {
        submit: words(line("penumbra batch examples/batch.toml --slurm")),
        status: words(line("penumbra batch examples/batch.toml --out")),
        array_sbatch: line("$ sbatch --parsable --job-name=penumbra-examples --array="),
    }
}

#[test]
fn a_slurm_batch_gives_the_local_table_and_resumes_only_a_cancelled_task() {
    let Some(cluster) = Cluster::start() else { return };
    let work = tempfile::tempdir().unwrap();
    let (local, shared) = (work.path().join("local"), work.path().join("shared"));
    let (local, shared) = (local.to_str().unwrap(), shared.to_str().unwrap());
    let readme = readme(shared);
    assert_eq!(args(&readme.submit), ["batch", "examples/batch.toml", "--slurm", "--out", shared]);
    assert_eq!(args(&readme.status), ["batch", "examples/batch.toml", "--out", shared, "--status"]);

    let here = cluster.penumbra(&["batch", "examples/batch.toml", "--out", local, "--jobs", "2"]);
    here.assert_status(0);
    assert_eq!(rows(Path::new(local)), 6, "three examples in two modes");

    // Held, so that task 2 can be cancelled before it runs; then the rest is released.
    let mut held = args(&readme.submit);
    held.extend(["--", "--hold"]);
    let first = cluster.penumbra(&held);
    first.assert_status(0);
    assert!(
        first.stderr.contains(
            "6 jobs, 0 with a record; submitted 6 to SLURM (tasks 1-6), each with --time=8 (minutes) --mem=2048 (MB)"
        ),
        "{}",
        first.stderr
    );
    let printed = first.stderr.lines().find(|l| l.contains("--array=")).expect("the array's sbatch line");
    assert_eq!(printed.replace(" --hold", ""), readme.array_sbatch, "the README shows the sbatch line penumbra runs");
    let (array, collect) = job_ids(&first);
    let script = std::fs::read_to_string(Path::new(shared).join("slurm/task.sh")).unwrap();
    assert!(script.contains("--prepared --jobs 1 --shard \"$SLURM_ARRAY_TASK_ID/6\""), "{script}");
    cluster.run("scancel", &[&format!("{array}_2")]);
    cluster.run("scontrol", &["release", &array, &collect]);
    cluster.wait_for(&collect);

    // The collection wrote the five finished jobs' table; the cancelled one has no record.
    assert_eq!(rows(Path::new(shared)), 5);
    let status = cluster.penumbra(&args(&readme.status));
    status.assert_status(0);
    let lines = status.stdout_str();
    let line =
        |job: &str| lines.lines().find(|l| l.starts_with(job)).unwrap_or_else(|| panic!("{job}:\n{lines}")).to_string();
    assert!(line("offbyone.complete.default").contains("finished: ok"), "{lines}");
    let cancelled = line("offbyone.seeded.default");
    assert!(cancelled.contains(&format!("task {array}_2: ended without a record")), "{cancelled}");
    assert!(status.stderr.contains("6 jobs: 1 ended without a record, 5 finished"), "{}", status.stderr);

    // Submitting again asks for the cancelled task alone.
    let second = cluster.penumbra(&args(&readme.submit));
    second.assert_status(0);
    assert!(second.stderr.contains("6 jobs, 5 with a record; submitted 1 to SLURM (tasks 2)"), "{}", second.stderr);
    let (array2, collect2) = job_ids(&second);
    cluster.wait_for(&collect2);
    let logs: Vec<String> = std::fs::read_dir(Path::new(shared).join("slurm/logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!("task-{array2}_")))
        .collect();
    assert_eq!(logs, [format!("task-{array2}_2.out")], "the second array ran task 2 only");

    assert_eq!(stable_table(Path::new(shared)), stable_table(Path::new(local)), "the cluster's table is the local one");
    let status = cluster.penumbra(&args(&readme.status));
    assert!(status.stderr.contains("6 jobs: 6 finished"), "{}", status.stderr);
    // A third submission has nothing to submit.
    let third = cluster.penumbra(&args(&readme.submit));
    third.assert_status(0);
    assert!(third.stderr.contains("all 6 jobs have a record: nothing to submit"), "{}", third.stderr);
}

/// Project subjects are prepared once, by a job of their own before the array (its tasks read
/// the preparation, never run it), or on the submitting host with --prepare-locally.
#[test]
fn a_slurm_batch_prepares_each_project_once_before_its_array() {
    let Some(cluster) = Cluster::start() else { return };
    let dir = crate::batch_projects::projects_dir();
    let manifest = dir.path().join("manifest.toml");
    let manifest = manifest.to_str().unwrap();
    let runs = || crate::batch_projects::prepare_runs(dir.path());
    let (local, shared, here) = (dir.path().join("local"), dir.path().join("shared"), dir.path().join("here"));
    let (local, shared, here) = (local.to_str().unwrap(), shared.to_str().unwrap(), here.to_str().unwrap());
    cluster.penumbra(&["batch", manifest, "--out", local, "--jobs", "2"]).assert_status(0);
    assert_eq!(runs(), ["subjects/same-builds", "subjects/threshold"]);

    let submitted = cluster.penumbra(&["batch", manifest, "--slurm", "--out", shared]);
    submitted.assert_status(0);
    let text = submitted.stdout_str();
    let prepare = text.lines().find_map(|l| l.strip_prefix("prepare ")).expect("a preparation job").to_string();
    let collect = text.lines().find_map(|l| l.strip_prefix("collect ")).expect("a collection job").to_string();
    assert_eq!(runs().len(), 2, "submitting prepared nothing here");
    cluster.wait_for(&collect);
    assert_eq!(runs().len(), 4, "the preparation job prepared each subject once: {:?}", runs());
    let log = std::fs::read_to_string(Path::new(shared).join(format!("slurm/logs/prepare-{prepare}.out"))).unwrap();
    assert!(log.contains("2 subjects, 2 prepared"), "{log}");
    assert_eq!(stable_table(Path::new(shared)), stable_table(Path::new(local)));

    let locally = cluster.penumbra(&["batch", manifest, "--slurm", "--prepare-locally", "--out", here]);
    locally.assert_status(0);
    assert_eq!(runs().len(), 6, "--prepare-locally prepared on this host: {:?}", runs());
    assert!(!locally.stdout_str().contains("prepare"), "{}", locally.stdout_str());
    let collect = locally.stdout_str().lines().find_map(|l| l.strip_prefix("collect ")).unwrap().to_string();
    cluster.wait_for(&collect);
    assert_eq!(runs().len(), 6, "the tasks prepared nothing");
    assert_eq!(stable_table(Path::new(here)), stable_table(Path::new(local)));
}

/// Without SLURM's client the submission fails with what is missing, submitting nothing; a
/// batch never run has every job `not run` in `--status`.
#[test]
fn without_sbatch_the_submission_says_so_and_status_still_reads_the_batch() {
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let mut cmd = Command::new(penumbra_bin());
    cmd.args(["batch", "examples/batch.toml", "--slurm", "--out", out.to_str().unwrap()])
        .current_dir(repo_root())
        .env("PATH", work.path());
    let submitted = run_command(cmd);
    submitted.assert_no_panic();
    assert_eq!(submitted.status, Some(2), "{}", submitted.stderr);
    assert!(submitted.stderr.contains("cannot run sbatch (is SLURM's client on PATH?)"), "{}", submitted.stderr);
    assert!(!out.join("slurm/submissions.jsonl").exists());

    let mut cmd = Command::new(penumbra_bin());
    cmd.args(["batch", "examples/batch.toml", "--status", "--out", out.to_str().unwrap()]).current_dir(repo_root());
    let status = run_command(cmd);
    status.assert_status(0);
    let lines: Vec<String> =
        status.stdout_str().lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    assert_eq!(lines[0], "job state");
    assert_eq!(
        lines[1..],
        [
            "offbyone.complete.default not run",
            "offbyone.seeded.default not run",
            "foo.complete.default not run",
            "foo.seeded.default not run",
            "threshold.complete.default not run",
            "threshold.seeded.default not run",
        ]
    );
    assert!(status.stderr.contains("6 jobs: 6 not submitted"), "{}", status.stderr);
}
