//! Job records: one JSON file per finished job in `<out>/jobs/`, written atomically (temporary
//! file, fsync, rename), so that a batch killed at any moment leaves only whole records and a
//! rerun skips exactly the jobs that finished. Several batch processes may write into one
//! directory at once (shards, a SLURM array's tasks): each job's record has its own temporary
//! file, and a reader leaves every temporary file alone.
//!
//! A record carries a fingerprint of what the job ran (arguments, limits, and the bytes of the
//! source file and of the files replay runs or builds: `--native-*`, `--fixed-version`): a
//! record whose fingerprint no longer matches the manifest is stale and its job runs again.

use super::manifest::{Job, SeedSelection, Skip};
use super::runner::{Finished, REPLAY_FILE_FLAGS};
use crate::replay::classify::{Class, Judgement};
use anyhow::{bail, Context, Result};
use penumbra_engine::RunSummary;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The per-test facts the tables and plots need (the full test list stays out of the record:
/// it can hold thousands of inputs).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct TestBrief {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
    /// When the engine found it, in seconds from the start of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_s: Option<f64>,
    /// Each fix's judgement, where the fixes ran (an output difference, an error in new only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<FixBrief>,
}

/// A fix's judgement of a test (the rest of the test's `fixes` entry stays out of the record).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct FixBrief {
    pub judgement: Judgement,
}

/// One finished job, as stored in `jobs/<id>.json`.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone)]
pub struct JobRecord {
    pub batch: String,
    /// The penumbra that ran the job: its version and commit (`penumbra --version`); empty in
    /// records written before it was kept.
    #[serde(default)]
    pub penumbra: String,
    pub id: String,
    pub subject: String,
    pub mode: String,
    pub config: String,
    pub source: String,
    pub args: Vec<String>,
    pub max_time: f64,
    pub max_memory_mb: u64,
    pub fingerprint: String,
    #[serde(default)]
    pub expected_diff_paths: Option<u64>,
    #[serde(default)]
    pub oracle_verified: Option<bool>,
    /// A prepared subject's seeds: how many of the project's tests touch the patch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed_selection: Option<SeedSelection>,
    /// ok, timeout, memory-out, killed (by a signal from outside the batch), error, or
    /// no-seeds (a prepared subject's seeded job, not run), not-prepared (the subject's
    /// preparation failed; `error` says why).
    pub outcome: String,
    /// Wall time of the child process, compile included.
    pub wall_s: f64,
    pub peak_rss_mb: f64,
    #[serde(default)]
    pub exit_code: Option<i32>,
    #[serde(default)]
    pub signal: Option<i32>,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub stderr_tail: String,
    /// The `--json` summary with its `tests` array emptied (see `tests`).
    #[serde(default)]
    pub summary: Option<RunSummary>,
    /// The summary's tests; for a replaying job killed from outside, the complete tests it
    /// left, replayed afterwards.
    #[serde(default)]
    pub tests: Vec<TestBrief>,
}

/// FNV-1a, 64 bits: stable across Rust releases (std's hasher is not), enough to notice an
/// edited manifest entry or source file.
fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// What a job's result depends on: its arguments, limits and source bytes.
pub fn fingerprint(job: &Job) -> Result<String> {
    // A subject whose preparation failed has no source: what it failed with is what it ran.
    if let Some(Skip::NotPrepared(reason)) = &job.skip {
        return Ok(format!("{:016x}", fnv1a(reason.as_bytes(), 0xcbf2_9ce4_8422_2325)));
    }
    let source = job.dir.join(&job.source);
    let bytes = std::fs::read(&source).with_context(|| format!("cannot read {}", source.display()))?;
    let mut h = 0xcbf2_9ce4_8422_2325;
    for arg in &job.args {
        h = fnv1a(arg.as_bytes(), h);
        h = fnv1a(&[0], h);
    }
    h = fnv1a(format!("{}|{}", job.max_time, job.max_memory_mb).as_bytes(), h);
    h = fnv1a(&bytes, h);
    // The files replay runs or builds besides the source: a rebuilt native executable (a
    // prepared subject's, after its runtime or patch changed) makes the job stale too.
    for pair in job.args.windows(2).filter(|w| REPLAY_FILE_FLAGS.contains(&w[0].as_str())) {
        let file = job.dir.join(&pair[1]);
        let bytes = std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
        h = fnv1a(&bytes, h);
    }
    Ok(format!("{h:016x}"))
}

/// Builds the record of a finished job; fails on a summary that is not the engine's (the
/// child's `--json` is read through [`RunSummary`], its tests through [`TestBrief`]).
pub fn record(batch: &str, job: &Job, fingerprint: String, done: Finished) -> Result<JobRecord> {
    let mut summary = done.summary;
    let mut list = done.salvaged;
    if let Some(serde_json::Value::Object(map)) = &mut summary {
        if let Some(serde_json::Value::Array(tests)) = map.remove("tests") {
            list = tests;
        }
    }
    let tests =
        serde_json::from_value(serde_json::Value::Array(list)).context("the job's tests are not test records")?;
    let summary = summary.map(serde_json::from_value).transpose().context("the job's summary is not a run summary")?;
    Ok(JobRecord {
        batch: batch.to_string(),
        penumbra: crate::cli::VERSION.to_string(),
        id: job.id.clone(),
        subject: job.subject.clone(),
        mode: job.mode.as_str().to_string(),
        config: job.config.clone(),
        source: job.source.clone(),
        args: job.args.clone(),
        max_time: job.max_time,
        max_memory_mb: job.max_memory_mb,
        fingerprint,
        expected_diff_paths: job.expected_diff_paths,
        oracle_verified: job.oracle_verified,
        seed_selection: job.seed_selection.clone(),
        outcome: done.outcome.as_str().to_string(),
        wall_s: done.wall_s,
        peak_rss_mb: done.peak_rss_mb,
        exit_code: done.exit_code,
        signal: done.signal,
        error: done.error,
        stderr_tail: done.stderr_tail,
        summary,
        tests,
    })
}

pub fn jobs_dir(out: &Path) -> PathBuf {
    out.join("jobs")
}

/// Writes `jobs/<id>.json` atomically.
pub fn save(out: &Path, rec: &JobRecord) -> Result<()> {
    let dir = jobs_dir(out);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format!("{}.json", rec.id));
    let tmp = dir.join(format!(".{}.json.tmp", rec.id));
    let mut text = serde_json::to_string_pretty(rec)?;
    text.push('\n');
    let mut f = std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    f.write_all(text.as_bytes())?;
    // Rename only after the bytes are on disk, so a crash cannot leave a renamed empty file.
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot rename {} to {}", tmp.display(), path.display()))?;
    Ok(())
}

/// Every record in `<out>/jobs/`, by id. Temporary files are not records: they are skipped,
/// never removed, since another process sharing the directory may be writing one (a save
/// of the same job truncates what an interrupted one left). An unreadable record is an error
/// (it was written atomically, so it was edited).
pub fn load_all(out: &Path) -> Result<BTreeMap<String, JobRecord>> {
    let dir = jobs_dir(out);
    let mut records = BTreeMap::new();
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(records),
        Err(e) => return Err(e).with_context(|| format!("cannot list {}", dir.display())),
    };
    for entry in entries {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if !name.ends_with(".json") || name.starts_with('.') {
            continue;
        }
        let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let rec: JobRecord =
            serde_json::from_str(&text).with_context(|| format!("{} is not a job record", path.display()))?;
        if format!("{}.json", rec.id) != name {
            bail!("{} holds the record of job `{}`", path.display(), rec.id);
        }
        records.insert(rec.id.clone(), rec);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Another batch process sharing the directory (a shard, a SLURM array's task) may be
    /// between writing its record's temporary file and renaming it: reading leaves it there.
    #[test]
    fn reading_the_records_leaves_another_writers_temporary_file() {
        let out = tempfile::tempdir().unwrap();
        let rec: JobRecord = serde_json::from_value(serde_json::json!({
            "batch": "b", "id": "a.complete.default", "subject": "a", "mode": "complete", "config": "default",
            "source": "a.c", "args": [], "max_time": 1.0, "max_memory_mb": 1, "fingerprint": "0",
            "outcome": "ok", "wall_s": 0.1, "peak_rss_mb": 1.0
        }))
        .unwrap();
        save(out.path(), &rec).unwrap();
        let writing = jobs_dir(out.path()).join(".b.complete.default.json.tmp");
        std::fs::write(&writing, "{\"half\": ").unwrap();
        let records = load_all(out.path()).unwrap();
        assert_eq!(records.keys().collect::<Vec<_>>(), ["a.complete.default"]);
        assert!(writing.is_file(), "another writer's temporary file stays");
    }
}
