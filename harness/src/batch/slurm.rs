//! `penumbra batch --slurm`: the batch as SLURM jobs, and `--status`: where each job is.
//!
//! A submission is up to three `sbatch` calls: a preparation job for the project subjects
//! (`--prepare-only`; none when there are none, or with `--prepare-locally`; one job for all
//! of them, in manifest order, since their preparations share build caches), one job array
//! with a task per unfinished job (task I runs `--shard I/N --prepared`, N the manifest's
//! jobs, so task I is the manifest's I-th job), and a collection job after the array
//! (`--collect`) that writes the tables as a local batch would. Each task is an ordinary
//! batch run: it writes its job's record in `OUT/jobs/`, the same resumable store, so a
//! resubmission asks only for the jobs without a current record, and a task killed by the
//! scheduler leaves nothing but a job to run again. What was submitted is appended to
//! `OUT/slurm/submissions.jsonl`; the scripts and the tasks' logs are in `OUT/slurm/`.

use super::manifest::{Job, Manifest};
use super::store::JobRecord;
use crate::batch_args::BatchArgs;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// What `--slurm` submits, from the command line and the parsed manifest.
pub struct Submission<'a> {
    pub args: &'a BatchArgs,
    pub manifest_path: &'a Path,
    pub manifest: &'a Manifest,
    pub out: &'a Path,
}

/// One submission, a line of `OUT/slurm/submissions.jsonl`.
#[derive(Serialize, Deserialize, schemars::JsonSchema, Debug)]
pub struct Submitted {
    /// The preparation job's id, if there was one.
    prepare: Option<String>,
    /// The array job's id; its task I is the manifest's job number I (from 1).
    array: String,
    /// The batch job ids of the array's tasks, by task index.
    tasks: BTreeMap<usize, String>,
    collect: String,
}

/// Slack on top of a job's own limits: the batch process around it, writing its record and,
/// for a job killed from outside, replaying what it left.
const EXTRA_MINUTES: u64 = 5;
const EXTRA_MEMORY_MB: u64 = 1024;

/// The SLURM limits of a task running `job`: its wall time and a tenth more (rounded up to
/// minutes) plus [`EXTRA_MINUTES`], its memory plus [`EXTRA_MEMORY_MB`].
pub fn task_limits(job: &Job) -> (u64, u64) {
    let minutes = (job.max_time * 1.1 / 60.0).ceil() as u64 + EXTRA_MINUTES;
    (minutes, job.max_memory_mb + EXTRA_MEMORY_MB)
}

pub fn submit(s: &Submission, existing: &BTreeMap<String, JobRecord>) -> Result<ExitCode> {
    let (args, manifest) = (s.args, s.manifest);
    let out = std::path::absolute(s.out)?;
    let manifest_path = std::path::absolute(s.manifest_path)?;
    let exe = std::env::current_exe().context("cannot find the penumbra binary the tasks run")?;
    // Task I runs the manifest's job I: the unfinished ones are the array's indices.
    let mut todo: Vec<(usize, &Job)> = Vec::new();
    let mut finished: Vec<&JobRecord> = Vec::new();
    for (i, job) in manifest.jobs.iter().enumerate() {
        match super::current_record(job, existing, &manifest.name, args.force)?.1 {
            Some(r) => finished.push(r),
            None => todo.push((i + 1, job)),
        }
    }
    let n = manifest.jobs.len();
    if todo.is_empty() {
        eprintln!("batch {}: all {n} jobs have a record: nothing to submit", manifest.name);
        super::write_outputs(&out, &manifest.name, &finished)?;
        return Ok(ExitCode::SUCCESS);
    }
    let dir = out.join("slurm");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).with_context(|| format!("cannot create {}", logs.display()))?;

    // The same `penumbra batch` on the same manifest and directory, in every script.
    let batch = format!("{} batch {} --out {}", quote(&exe), quote(&manifest_path), quote(&out));
    let force = if args.force { " --force" } else { "" };
    let prepare_script = script(&dir, "prepare", &format!("{batch} --prepare-only"))?;
    let task_script =
        script(&dir, "task", &format!("{batch} --prepared --jobs 1 --shard \"$SLURM_ARRAY_TASK_ID/{n}\"{force}"))?;
    let collect_script = script(&dir, "collect", &format!("{batch} --prepared --collect"))?;

    let name = format!("penumbra-{}", manifest.name);
    let projects = manifest.jobs.iter().any(|j| j.project);
    let prepare = match projects && !args.prepare_locally {
        true => Some(sbatch(
            &[format!("--job-name={name}-prepare"), log_option(&logs, "prepare-%j")],
            &args.sbatch,
            &prepare_script,
        )?),
        false => None,
    };
    let (minutes, mem) = todo.iter().map(|(_, j)| task_limits(j)).fold((0, 0), |(t, m), (a, b)| (t.max(a), m.max(b)));
    let indices = ranges(&todo.iter().map(|(i, _)| *i).collect::<Vec<_>>());
    let mut options = vec![
        format!("--job-name={name}"),
        format!("--array={indices}"),
        format!("--time={minutes}"),
        format!("--mem={mem}"),
        "--cpus-per-task=1".to_string(),
        log_option(&logs, "task-%A_%a"),
    ];
    // After the preparation whatever its end: a subject it could not prepare has its jobs
    // recorded `not-prepared` by their tasks, as a local batch records them, and the others run.
    if let Some(id) = &prepare {
        options.push(format!("--dependency=afterany:{id}"));
    }
    let array = sbatch(&options, &args.sbatch, &task_script).with_context(|| match &prepare {
        Some(id) => format!("the preparation job {id} was submitted (cancel it with `scancel {id}`)"),
        None => "nothing was submitted".to_string(),
    })?;
    let collect = sbatch(
        &[
            format!("--job-name={name}-collect"),
            format!("--dependency=afterany:{array}"),
            "--time=30".to_string(),
            "--mem=2048".to_string(),
            log_option(&logs, "collect-%j"),
        ],
        &args.sbatch,
        &collect_script,
    )
    .with_context(|| {
        format!("the array job {array} was submitted; collect its results with `{batch} --prepared --collect`")
    })?;
    let tasks = todo.iter().map(|(i, j)| (*i, j.id.clone())).collect();
    let submitted = Submitted { prepare: prepare.clone(), array: array.clone(), tasks, collect: collect.clone() };
    append_submission(&dir, &submitted)?;

    eprintln!(
        "batch {}: {n} jobs, {} with a record; submitted {} to SLURM (tasks {}), each with --time={minutes} (minutes) --mem={mem} (MB)",
        manifest.name,
        finished.len(),
        todo.len(),
        indices,
    );
    if let Some(id) = &prepare {
        eprintln!("  preparation job {id}: prepares the project subjects into {}", out.join("prepared").display());
    }
    eprintln!("  array job {array}: one task per job; logs in {}", logs.display());
    eprintln!("  collection job {collect} (after the array): writes {}", out.join("results.csv").display());
    eprintln!("follow them with `penumbra batch {} --out {} --status`", manifest_path.display(), out.display());
    if let Some(id) = &prepare {
        println!("prepare {id}");
    }
    println!("array {array}");
    println!("collect {collect}");
    Ok(ExitCode::SUCCESS)
}

/// `--output=LOGS/NAME.out`.
fn log_option(logs: &Path, name: &str) -> String {
    format!("--output={}", logs.join(format!("{name}.out")).display())
}

/// Writes `DIR/NAME.sh`, a shell script that runs `command`.
fn script(dir: &Path, name: &str, command: &str) -> Result<PathBuf> {
    let path = dir.join(format!("{name}.sh"));
    let text = format!("#!/bin/sh\n# penumbra batch --slurm: the {name} job (written by penumbra; rewritten by each submission)\nexec {command}\n");
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(path)
}

/// Runs `sbatch --parsable OPTIONS USER-OPTIONS SCRIPT` and returns the job id. The user's
/// options come after ours: sbatch takes an option's last value.
fn sbatch(options: &[String], user: &[String], script: &Path) -> Result<String> {
    let words: Vec<String> = options.iter().chain(user).map(|w| quote(Path::new(w))).collect();
    eprintln!("$ sbatch --parsable {} {}", words.join(" "), quote(script));
    let output = Command::new("sbatch")
        .arg("--parsable")
        .args(options)
        .args(user)
        .arg(script)
        .output()
        .context("cannot run sbatch (is SLURM's client on PATH?)")?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        bail!(
            "sbatch {} failed ({}): {}",
            options.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    // `--parsable` prints `ID` or `ID;CLUSTER`.
    let id = stdout.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        bail!("sbatch printed no job id (`{}`)", stdout.trim());
    }
    Ok(id)
}

fn append_submission(dir: &Path, submitted: &Submitted) -> Result<()> {
    let path = dir.join("submissions.jsonl");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    writeln!(file, "{}", serde_json::to_string(submitted)?).with_context(|| format!("cannot write {}", path.display()))
}

fn submissions(out: &Path) -> Result<Vec<Submitted>> {
    let path = out.join("slurm").join("submissions.jsonl");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).with_context(|| format!("{}: a line is not a submission", path.display())))
        .collect()
}

/// `1,2,3,5,7,8` -> `1-3,5,7-8` (sbatch's `--array` syntax; indices ascending).
fn ranges(indices: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < indices.len() {
        let start = indices[i];
        while i + 1 < indices.len() && indices[i + 1] == indices[i] + 1 {
            i += 1;
        }
        parts.push(if indices[i] == start { start.to_string() } else { format!("{start}-{}", indices[i]) });
        i += 1;
    }
    parts.join(",")
}

/// A path as one shell word.
fn quote(path: &Path) -> String {
    let s = path.to_string_lossy();
    if s.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+,:=@%".contains(&b)) {
        return s.into_owned();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// SLURM's word for each job id it knows of (`ID` or `ARRAY_TASK`): `squeue` for the jobs
/// still queued or running, then `sacct` (where accounting is on) for those that ended.
fn scheduler_states(ids: &[String]) -> BTreeMap<String, String> {
    let mut states = BTreeMap::new();
    if ids.is_empty() {
        return states;
    }
    let list = ids.join(",");
    let queries: [(&str, Vec<&str>); 2] = [
        ("squeue", vec!["-h", "-r", "-o", "%i|%T|%r", "-j", &list]),
        ("sacct", vec!["-n", "-P", "-X", "-o", "JobID,State", "-j", &list]),
    ];
    for (program, args) in queries {
        let Ok(output) = Command::new(program).args(&args).output() else { continue };
        if !output.status.success() {
            continue; // sacct without accounting; squeue of jobs long gone
        }
        for line in String::from_utf8_lossy(&output.stdout).lines() {
            let mut fields = line.split('|');
            let (Some(id), Some(state)) = (fields.next(), fields.next()) else { continue };
            let state = match fields.next() {
                Some(reason) if !reason.is_empty() && reason != "None" => format!("{state} ({reason})"),
                _ => state.to_string(),
            };
            // squeue's view of a live job wins over accounting's.
            states.entry(id.trim().to_string()).or_insert(state);
        }
    }
    states
}

/// `--status`: a line per job (its record's outcome, or its task's state), then a summary.
pub fn status(manifest: &Manifest, out: &Path, existing: &BTreeMap<String, JobRecord>) -> Result<ExitCode> {
    let submitted = submissions(out)?;
    // The last submission that asked for a job is the one whose task may still run it.
    let mut task_of: BTreeMap<&str, String> = BTreeMap::new();
    for s in &submitted {
        for (i, id) in &s.tasks {
            task_of.insert(id.as_str(), format!("{}_{i}", s.array));
        }
    }
    let mut ids: Vec<String> = task_of.values().cloned().collect();
    if let Some(last) = submitted.last() {
        ids.extend(last.prepare.iter().cloned());
        ids.push(last.collect.clone());
    }
    let states = scheduler_states(&ids);
    let width = manifest.jobs.iter().map(|j| j.id.len()).max().unwrap_or(3).max(3);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    println!("{:<width$}  state", "job");
    for job in &manifest.jobs {
        let record = super::current_record(job, existing, &manifest.name, false)?.1;
        let state = match (record, task_of.get(job.id.as_str())) {
            (Some(r), _) => {
                *counts.entry("finished".to_string()).or_default() += 1;
                format!("finished: {} in {:.1} s", r.outcome, r.wall_s)
            }
            (None, Some(task)) => match states.get(task) {
                Some(state) => {
                    // Counted by SLURM's word for it: `PENDING (Dependency)` is pending.
                    *counts.entry(state.split(' ').next().unwrap_or("").to_lowercase()).or_default() += 1;
                    format!("task {task}: {state}")
                }
                None => {
                    let ended = "ended without a record";
                    *counts.entry(ended.to_string()).or_default() += 1;
                    let log = out.join("slurm").join("logs").join(format!("task-{task}.out"));
                    format!("task {task}: {ended} (its log: {})", log.display())
                }
            },
            (None, None) => {
                *counts.entry("not submitted".to_string()).or_default() += 1;
                match existing.contains_key(&job.id) {
                    true => "not run since its settings changed (its record is stale)".to_string(),
                    false => "not run".to_string(),
                }
            }
        };
        println!("{:<width$}  {state}", job.id);
    }
    let summary: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    eprintln!("batch {}: {} jobs: {}", manifest.name, manifest.jobs.len(), summary.join(", "));
    if let Some(last) = submitted.last() {
        for (what, id) in last.prepare.iter().map(|id| ("preparation", id)).chain([("collection", &last.collect)]) {
            let state = states.get(id).map_or("ended", String::as_str);
            eprintln!("{what} job {id}: {state}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_indices_are_written_as_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 5, 7, 8]), "1-3,5,7-8");
        assert_eq!(ranges(&[4]), "4");
        assert_eq!(ranges(&[]), "");
    }

    #[test]
    fn paths_are_quoted_for_the_shell_only_where_needed() {
        assert_eq!(quote(Path::new("/shared/out-1")), "/shared/out-1");
        assert_eq!(quote(Path::new("/a b/it's")), "'/a b/it'\\''s'");
    }
}
