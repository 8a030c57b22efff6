//! `penumbra batch MANIFEST.toml`: many `penumbra shadow` runs (subjects x modes x configs),
//! one child process per job, in parallel, each under a time and a memory limit, with the
//! results gathered into `results.csv`, `results.json`, SVG plots and `report.html` (each
//! replayed job's page and clusters in `reports/`).
//!
//! - [`manifest`]: the TOML manifest and its expansion into jobs;
//! - [`runner`]: one job as a child process, its limits and outcome;
//! - [`store`]: the per-job records that make a batch resumable and shards mergeable;
//! - [`table`] and [`svg`]: the outputs ([`cells`]: a row's CSV cells, from its type);
//!   [`progress`]: the progress display.
//!
//! Resuming: every finished job leaves `jobs/<id>.json` (written atomically), and a rerun
//! skips every job whose record matches its fingerprint, so killing a batch loses at most the
//! jobs that were running; a rerun removes what those left in `tmp/` (partial tests, `.part`
//! files) and runs them again from the start. `--shard I/N` runs every N-th job (a cluster job array's slice);
//! `penumbra batch merge DIR...` joins the records of shards and writes the tables.

mod cells;
pub mod manifest;
mod progress;
pub mod runner;
pub mod slurm;
pub mod store;
mod svg;
pub mod table;

use crate::batch_args::{BatchArgs, BatchCommand, BatchMergeArgs};
use crate::report::index::{write_index, JobLine};
use anyhow::{bail, Context, Result};
use manifest::Job;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{mpsc, Mutex};
use store::JobRecord;

pub fn run(args: &BatchArgs) -> Result<ExitCode> {
    if let Some(BatchCommand::Merge(m)) = &args.command {
        return merge(m);
    }
    let Some(path) = &args.manifest else { bail!("penumbra batch needs a MANIFEST.toml (or `merge DIR...`)") };
    // The command line is checked before any preparation, which may take minutes.
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    let parallel = match args.jobs {
        Some(0) => bail!("--jobs must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
    };
    let text = manifest::read(path)?;
    let (_, out) = manifest::name_and_output(&text, path, args.out.as_deref())?;
    // Looking at a batch (or submitting one whose preparation is a job of its own) prepares
    // nothing: what an earlier preparation left is read, and a subject without one counts as
    // not prepared yet.
    let run_preparations = !(args.status || args.prepared || (args.slurm && !args.prepare_locally));
    let plan = manifest::plan(&text, path)?;
    let mut prepared = match run_preparations {
        true => prepare_all(&plan, parallel, &out),
        false => BTreeMap::new(),
    };
    let manifest = manifest::expand(plan, &mut |p| match prepared.remove(&p.subject) {
        Some(done) => done,
        None => read_prepared(p, &out),
    })?;
    if args.prepare_only {
        return Ok(prepared_only(&manifest, &out));
    }
    let existing = store::load_all(&out)?;
    if args.status {
        return slurm::status(&manifest, &out, &existing);
    }
    if args.slurm {
        return slurm::submit(
            &slurm::Submission { args, manifest_path: path, manifest: &manifest, out: &out },
            &existing,
        );
    }

    // The shard's slice: every N-th job in manifest order, so that slices of a manifest with
    // expensive subjects next to each other stay balanced.
    let jobs: Vec<&Job> = manifest
        .jobs
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|(k, n)| i % n == k - 1))
        .map(|(_, j)| j)
        .collect();
    let mut finished: BTreeMap<String, JobRecord> = BTreeMap::new();
    let mut todo = Vec::new();
    for job in &jobs {
        match current_record(job, &existing, &manifest.name, args.force)? {
            (_, Some(r)) => {
                finished.insert(job.id.clone(), r.clone());
            }
            (fp, None) => todo.push((*job, fp)),
        }
    }
    let skipped = finished.len();
    let limit = if args.collect { Some(0) } else { args.limit };
    let runnable = limit.map_or(todo.len(), |k| k.min(todo.len()));
    let left_over = todo.len() - runnable;
    todo.truncate(runnable);
    eprintln!(
        "batch {}: {} jobs{}; {skipped} already finished, running {} ({parallel} at a time); results in {}",
        manifest.name,
        jobs.len(),
        shard.map(|(k, n)| format!(" in shard {k}/{n}")).unwrap_or_default(),
        todo.len(),
        out.display()
    );

    let scratch = out.join("tmp");
    std::fs::create_dir_all(&scratch).with_context(|| format!("cannot create {}", scratch.display()))?;
    // A job that was running when an earlier batch died left its partial output here: it
    // runs again from the start.
    for (job, _) in &todo {
        let cleared = runner::clear_leftovers(job, &scratch).with_context(|| {
            format!("cannot remove what an earlier batch left of job {} in {}", job.id, scratch.display())
        })?;
        if cleared {
            eprintln!(
                "batch: job {} was cut short by the end of an earlier batch: it runs again (its partial output removed)",
                job.id
            );
        }
    }
    let exe = std::env::current_exe().context("cannot find the penumbra binary to run jobs with")?;
    let mut failures = Vec::new();
    let mut progress = progress::Progress::new(todo.len());
    let workers = parallel.min(runnable.max(1));
    let run_job = |job: &Job, fp| {
        runner::run(&exe, job, &scratch)
            .with_context(|| format!("cannot run job {}", job.id))
            .and_then(|done| store::record(&manifest.name, job, fp, done))
            .and_then(|rec| store::save(&out, &rec).map(|()| rec))
    };
    in_parallel(
        todo,
        workers,
        |(job, fp)| (job, run_job(job, fp)),
        |(job, result)| match result {
            Ok(rec) => {
                progress.finished(&describe(&rec));
                finished.insert(job.id.clone(), rec);
            }
            Err(e) => {
                progress.finished(&format!("{}: not recorded: {e:#}", job.id));
                failures.push(format!("{e:#}"));
            }
        },
    );
    progress.finish();
    // Shards may share the directory (a SLURM array's tasks do): another may be about to
    // write into it, so only a whole batch removes it (when empty).
    if shard.is_none() {
        let _ = std::fs::remove_dir(&scratch);
    }

    if shard.is_some() {
        eprintln!(
            "shard done: {} job records in {}; join shards with `penumbra batch merge`",
            finished.len(),
            store::jobs_dir(&out).display()
        );
    } else {
        let records: Vec<&JobRecord> = finished.values().collect();
        write_outputs(&out, &manifest.name, &records)?;
        if left_over > 0 {
            eprintln!(
                "{left_over} jobs left for a later run (--limit); the tables hold the {} finished ones",
                records.len()
            );
        }
    }
    if !failures.is_empty() {
        bail!("{} jobs could not be run; first: {}", failures.len(), failures[0]);
    }
    let unprepared: BTreeSet<&str> = manifest
        .jobs
        .iter()
        .filter(|j| matches!(j.skip, Some(manifest::Skip::NotPrepared(_))))
        .map(|j| j.subject.as_str())
        .collect();
    if !unprepared.is_empty() {
        // The others ran and are in the tables; the exit status says the batch is incomplete.
        eprintln!(
            "batch: {} subjects could not be prepared (recorded as `not-prepared`, with the error): {}",
            unprepared.len(),
            unprepared.into_iter().collect::<Vec<_>>().join(", ")
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The job's fingerprint, and its record if that is current: written by this batch for the
/// job as it is now (same fingerprint), and not to be rerun (`--force`).
fn current_record<'a>(
    job: &Job,
    existing: &'a BTreeMap<String, JobRecord>,
    batch: &str,
    force: bool,
) -> Result<(String, Option<&'a JobRecord>)> {
    let fp = store::fingerprint(job)?;
    let record = existing.get(&job.id).filter(|r| !force && r.fingerprint == fp && r.batch == batch);
    Ok((fp, record))
}

/// `--prepare-only`: what was prepared; the exit status says whether every subject was.
fn prepared_only(manifest: &manifest::Manifest, out: &Path) -> ExitCode {
    let mut subjects: BTreeMap<&str, bool> = BTreeMap::new();
    for job in &manifest.jobs {
        let failed = matches!(job.skip, Some(manifest::Skip::NotPrepared(_)));
        *subjects.entry(job.subject.as_str()).or_insert(false) |= failed;
    }
    let failed = subjects.values().filter(|&&f| f).count();
    eprintln!(
        "batch {}: {} subjects, {} prepared in {}, {failed} not",
        manifest.name,
        subjects.len(),
        subjects.len() - failed,
        out.join("prepared").display()
    );
    if failed > 0 {
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// Where a `project` subject's preparation writes: `OUT/prepared/<subject>`.
fn preparation_dir(p: &manifest::Preparation, out: &Path) -> Result<PathBuf> {
    Ok(std::path::absolute(out.join("prepared").join(&p.subject))?)
}

/// Runs the plan's preparations, `parallel` at a time, and gives each one's result by subject.
/// A preparation builds a real project (minutes, much of it on one core): one after the other,
/// CoREBench's 22 took hours before the first job ran. Their output goes to stderr as it comes
/// (each starts with a `batch: preparing SUBJECT` line); the jobs are made from the results in
/// manifest order, so the batch is the same whichever finished first.
fn prepare_all(plan: &manifest::Plan, parallel: usize, out: &Path) -> BTreeMap<String, Result<manifest::Prepared>> {
    let requests: Vec<&manifest::Preparation> = plan
        .subjects
        .iter()
        .filter_map(|s| match &s.program {
            manifest::Program::Project(p) => Some(p),
            manifest::Program::Source(_) => None,
        })
        .collect();
    let mut results = BTreeMap::new();
    let workers = parallel.min(requests.len());
    in_parallel(
        requests,
        workers,
        |p| (p.subject.clone(), prepare(p, out)),
        |(subject, done)| {
            results.insert(subject, done);
        },
    );
    results
}

/// Runs `work` on each item, `workers` threads at a time, and hands each result to `done` on
/// this thread as it comes (in the order they finish).
fn in_parallel<T: Send, R: Send>(
    items: impl IntoIterator<Item = T, IntoIter: Send>,
    workers: usize,
    work: impl Fn(T) -> R + Sync,
    done: impl FnMut(R),
) {
    let queue = Mutex::new(items.into_iter());
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (tx, queue, work) = (tx.clone(), &queue, &work);
            scope.spawn(move || loop {
                // A poisoned lock only means another worker panicked; the iterator is intact.
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                let Some(item) = next else { break };
                if tx.send(work(item)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        rx.into_iter().for_each(done);
    });
}

/// Runs a `project` subject's preparation into `OUT/prepared/<subject>` and reads what it made.
/// Its output goes to our stderr: preparing a real project (fetching, configuring and building
/// it) takes minutes the first time, and the user should see why.
fn prepare(p: &manifest::Preparation, out: &Path) -> Result<manifest::Prepared> {
    let target = preparation_dir(p, out)?;
    std::fs::create_dir_all(&target).with_context(|| format!("cannot create {}", target.display()))?;
    eprintln!("batch: preparing {} ({} {} {})", p.subject, p.command.join(" "), p.project, target.display());
    // A command given as a path is relative to the manifest, like every path in it.
    let program = match p.command[0].contains('/') {
        true => p.dir.join(&p.command[0]),
        false => PathBuf::from(&p.command[0]),
    };
    // The preparation asks this binary what it needs of penumbra (replay's build flags).
    let exe = std::env::current_exe().context("cannot find the penumbra binary")?;
    let mut child = std::process::Command::new(&program)
        .env("PENUMBRA", exe)
        .args(&p.command[1..])
        .arg(&p.project)
        .arg(&target)
        .current_dir(&p.dir)
        .stdout(std::io::stderr())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run {} (in {})", p.command[0], p.dir.display()))?;
    // Its stderr goes on to ours as it comes; its last line is the reason of a failure.
    let mut last = String::new();
    if let Some(stderr) = child.stderr.take() {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)).map_while(Result::ok) {
            eprintln!("{line}");
            if !line.trim().is_empty() {
                last = line;
            }
        }
    }
    let status = child.wait().with_context(|| format!("cannot wait for {}", p.command[0]))?;
    if !status.success() {
        let said = if last.is_empty() { String::new() } else { format!(": {}", last.trim()) };
        bail!("{} {} failed ({status}){said}", p.command.join(" "), p.project);
    }
    read_prepared(p, out)
}

/// What a preparation left in `OUT/prepared/<subject>` (its `prepared.json`), not running it.
fn read_prepared(p: &manifest::Preparation, out: &Path) -> Result<manifest::Prepared> {
    let target = preparation_dir(p, out)?;
    let file = target.join("prepared.json");
    if !file.is_file() {
        bail!("not prepared yet ({} does not exist: `penumbra batch --prepare-only` writes it)", file.display());
    }
    let text =
        std::fs::read_to_string(&file).with_context(|| format!("the preparation wrote no {}", file.display()))?;
    let mut prepared: manifest::Prepared =
        serde_json::from_str(&text).with_context(|| format!("{} is not a preparation's record", file.display()))?;
    if !target.join(&prepared.source).is_file() {
        bail!("{}: its source {} does not exist", file.display(), prepared.source);
    }
    prepared.dir = target;
    Ok(prepared)
}

/// `1/4` -> (1, 4); shards count from 1, as job array indices usually do.
fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let parsed = s.split_once('/').and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
    match parsed {
        Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok((k, n)),
        _ => bail!("--shard expects I/N with 1 <= I <= N (for example 2/8), got `{s}`"),
    }
}

/// One line for a finished job.
fn describe(r: &JobRecord) -> String {
    let what = match (&r.summary, r.outcome.as_str()) {
        (Some(s), _) => format!("diff paths {}, states {}", s.diff_paths, s.states),
        (None, "error") => r.error.clone().unwrap_or_default(),
        (None, other) => other.to_string(),
    };
    format!("{} {} {}: {} ({what}) in {:.2} s", r.subject, r.mode, r.config, r.outcome, r.wall_s)
}

/// `penumbra batch merge DIR...`: the records of every DIR's `jobs/` into one results set.
fn merge(args: &BatchMergeArgs) -> Result<ExitCode> {
    let mut all: BTreeMap<String, (JobRecord, PathBuf)> = BTreeMap::new();
    let mut name: Option<String> = None;
    for dir in &args.dirs {
        let records = store::load_all(dir)?;
        if records.is_empty() {
            bail!("{} has no job records (expected {})", dir.display(), store::jobs_dir(dir).display());
        }
        for (id, rec) in records {
            match &name {
                None => name = Some(rec.batch.clone()),
                Some(n) if *n != rec.batch => {
                    bail!(
                        "{} holds records of batch `{}`, not `{n}`: merge one batch at a time",
                        dir.display(),
                        rec.batch
                    )
                }
                Some(_) => {}
            }
            if let Some((other, from)) = all.get(&id) {
                if other.fingerprint != rec.fingerprint {
                    bail!(
                        "job {id} is in {} and in {} with different settings (rerun one of them)",
                        from.display(),
                        dir.display()
                    );
                }
                continue; // the same job twice (shards sharing a directory): keep the first
            }
            all.insert(id, (rec, dir.clone()));
        }
    }
    let name = name.expect("at least one directory with records");
    let out = args.out.clone().unwrap_or_else(|| PathBuf::from("results").join(&name));
    for (rec, from) in all.values() {
        if !same_dir(from, &out) {
            store::save(&out, rec)?;
            copy_job_report(from, &out, &rec.id)?;
        }
    }
    let records: Vec<&JobRecord> = all.values().map(|(r, _)| r).collect();
    write_outputs(&out, &name, &records)?;
    eprintln!("merged {} job records from {} directories into {}", records.len(), args.dirs.len(), out.display());
    Ok(ExitCode::SUCCESS)
}

/// A replayed job's page and clusters, from the shard's directory into the merged one.
fn copy_job_report(from: &Path, out: &Path, id: &str) -> Result<()> {
    let (from, to) = (from.join(crate::report::index::REPORTS), out.join(crate::report::index::REPORTS));
    let (page, clusters) = crate::report::index::job_files(id);
    for file in [page, clusters] {
        if from.join(&file).is_file() {
            std::fs::create_dir_all(&to).with_context(|| format!("cannot create {}", to.display()))?;
            std::fs::copy(from.join(&file), to.join(&file))
                .with_context(|| format!("cannot copy {} into {}", from.join(&file).display(), to.display()))?;
        }
    }
    Ok(())
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `results.csv`, `results.json`, the plots and the index page, each replaced atomically.
fn write_outputs(out: &Path, name: &str, records: &[&JobRecord]) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let table = table::build(records);
    let files = [
        ("results.csv", table.to_csv()),
        ("results.json", table.to_json(name)),
        (
            "diff_paths.svg",
            svg::grouped_bars(records, &format!("{name}: diff paths per subject"), "diff paths", true, &|r| {
                r.summary.as_ref().map(|s| s.diff_paths as f64)
            }),
        ),
        (
            "wall_time.svg",
            svg::grouped_bars(
                records,
                &format!("{name}: wall time per job (compile and replay included)"),
                "seconds",
                false,
                &|r| Some(r.wall_s),
            ),
        ),
        (
            "engine_time.svg",
            svg::grouped_bars(records, &format!("{name}: exploration time per subject"), "seconds", false, &|r| {
                r.summary.as_ref().map(|s| s.wall_s)
            }),
        ),
        ("divergences_over_time.svg", svg::cumulative(records)),
    ];
    for (file, text) in files {
        let path = out.join(file);
        let tmp = out.join(format!(".{file}.tmp"));
        std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let jobs: Vec<JobLine> = records
        .iter()
        .map(|r| JobLine { id: &r.id, subject: &r.subject, mode: &r.mode, config: &r.config, outcome: &r.outcome })
        .collect();
    write_index(out, name, &jobs)?;
    let counts = records.iter().fold(BTreeMap::new(), |mut m, r| {
        *m.entry(r.outcome.as_str()).or_insert(0usize) += 1;
        m
    });
    let counts: Vec<String> = counts.iter().map(|(k, v)| format!("{v} {k}")).collect();
    let what = match records.len() {
        0 => "no finished job yet".to_string(),
        n => format!("{n} jobs: {}", counts.join(", ")),
    };
    eprintln!("wrote {} ({what})", out.join("results.csv").display());
    Ok(())
}
