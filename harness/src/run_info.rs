//! `run.json`: what an output directory's tests were generated from (the source file, the clang
//! flags, the command), written by `penumbra run` and `penumbra shadow` next to the tests so that
//! `penumbra replay OUTDIR` can rebuild the program natively without being told again.
//!
//! It is written when the directory is made (status `running`), rewritten every
//! [`REWRITE_INTERVAL`] with the progress so far and at the end (status `finished`, with what
//! stopped the run and how many tests it wrote), each time whole under another name and then
//! renamed: a run killed at any moment (SIGKILL, a node lost) leaves a readable `run.json`.
//! The last text goes into space reserved when the run starts ([`ReservedFile`]): a run whose
//! disk fills (or whose quota, inodes or file descriptors run out) still says how it ended. A
//! run that cannot take that space does not start.
//!
//! A run whose output failed ([`OutputFailed`]: a test that could not be written, `run.json`
//! that could not be) ends with [`EXIT_OUTPUT_ERROR`] and a message naming the directory.

use crate::cli::CompileArgs;
use crate::digest::sha256_hex;
use crate::progress::ProgressLine;
use crate::reserved_file::ReservedFile;
use anyhow::{Context, Result};
use penumbra_engine::run::{Observer, Progress};
use penumbra_engine::RunSummary;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The SHA-256 of a source file, in hex.
fn source_hash(source: &Path) -> Result<String> {
    let bytes = std::fs::read(source).with_context(|| format!("cannot read {}", source.display()))?;
    Ok(sha256_hex(&bytes))
}

/// The SHA-256 of a program's files: the file's own for one file (as directories of older
/// versions record it), else that of their hashes one per line.
fn files_hash(files: &[PathBuf]) -> Result<String> {
    match files {
        [one] => source_hash(one),
        _ => {
            let lines: Vec<String> = files.iter().map(|f| source_hash(f)).collect::<Result<_>>()?;
            Ok(sha256_hex((lines.join("\n") + "\n").as_bytes()))
        }
    }
}

/// The file's name in an output directory.
pub const RUN_INFO: &str = "run.json";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RunInfo {
    /// The command that wrote the tests: `run` or `shadow`.
    pub command: String,
    /// The C source, as an absolute path (replay may run from another directory); the first
    /// file of the program.
    pub source: PathBuf,
    /// The program's other files (C, bitcode, textual IR), absolute, in command-line order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_sources: Vec<PathBuf>,
    /// `-I` directories, absolute.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions as given.
    pub defines: Vec<String>,
    /// The build's compilation database the files were compiled with, absolute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compile_commands: Option<PathBuf>,
    /// `musl` when the program was linked with musl (`--libc musl`; absent: penumbra's models).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub libc: Option<String>,
    /// The SHA-256 of the source the tests were generated from: replay refuses a source that
    /// changed since (its tests would be replayed against another program). Absent in
    /// directories of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_sha256: Option<String>,
    /// `running` until the run ends, then `finished`, or `failed` when it ended with an error
    /// (absent in directories of older versions: finished).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Once failed: the error that ended the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// While running: seconds so far and paths ended so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_s: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<u64>,
    /// Once finished: the budget that stopped the run, if one did, and the tests written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests: Option<u64>,
    /// Once finished: the run's summary as `--json` prints it, without the tests (a script
    /// reads a long run's figures here without holding every test in memory) and without the
    /// machine's figures (times, memory, the output's path), which stay on stdout: identical
    /// runs write identical directories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<RunSummary>")]
    pub summary: Option<serde_json::Value>,
}

/// How often a running run's `run.json` is rewritten.
pub const REWRITE_INTERVAL: std::time::Duration = std::time::Duration::from_secs(10);

impl RunInfo {
    pub fn new(command: &str, files: &[PathBuf], compile: &CompileArgs) -> Result<Self> {
        let absolute = |p: &Path| std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()));
        let (source, more) = files.split_first().context("a program has at least one file")?;
        let more_sources = more.iter().map(|f| absolute(f)).collect::<Result<Vec<_>>>()?;
        Ok(RunInfo {
            command: command.to_string(),
            source: absolute(source)?,
            more_sources,
            include_dirs: compile.include.iter().map(|d| absolute(d)).collect::<Result<_>>()?,
            defines: compile.define.clone(),
            compile_commands: compile.compile_commands.as_deref().map(absolute).transpose()?,
            libc: (compile.libc == crate::cli::LibcArg::Musl).then(|| "musl".to_string()),
            source_sha256: Some(files_hash(files)?),
            status: None,
            error: None,
            elapsed_s: None,
            paths: None,
            stopped_by: None,
            tests: None,
            summary: None,
        })
    }

    /// The program's files, the first first.
    pub fn sources(&self) -> Vec<PathBuf> {
        self.sources_with_first(&self.source)
    }

    /// The program's files with `first` in place of the first (a later fixed version of it).
    pub fn sources_with_first(&self, first: &Path) -> Vec<PathBuf> {
        std::iter::once(first.to_path_buf()).chain(self.more_sources.iter().cloned()).collect()
    }

    /// Refuses a source that is not the one the tests were generated from.
    pub fn check_source(&self) -> Result<()> {
        let Some(recorded) = &self.source_sha256 else { return Ok(()) };
        let now = files_hash(&self.sources())?;
        if &now != recorded {
            let what = match self.more_sources.is_empty() {
                true => self.source.display().to_string(),
                false => format!("a file of {} and {} more", self.source.display(), self.more_sources.len()),
            };
            anyhow::bail!(
                "{what} changed since its tests were written (SHA-256 {} then, {} now): its tests belong to the old text; run penumbra again",
                &recorded[..12.min(recorded.len())],
                &now[..12]
            );
        }
        Ok(())
    }

    /// Writes `dir/run.json` whole or not at all (under another name, then renamed).
    pub fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(RUN_INFO);
        let part = dir.join(format!("{RUN_INFO}.part"));
        let text = serde_json::to_string_pretty(self)? + "\n";
        let written = std::fs::write(&part, text).and_then(|()| std::fs::rename(&part, &path));
        if written.is_err() {
            let _ = std::fs::remove_file(&part);
        }
        written.with_context(|| format!("cannot write {}", path.display()))
    }

    /// Writes `run.json` into the space `reserve` holds for it: pretty-printed if that fits,
    /// else on one line.
    fn write_reserved(&self, reserve: ReservedFile) -> std::io::Result<()> {
        let mut text = serde_json::to_string_pretty(self)? + "\n";
        if text.len() > crate::reserved_file::RESERVE_BYTES {
            text = serde_json::to_string(self)? + "\n";
        }
        reserve.commit(text.as_bytes())
    }

    pub fn read(dir: &Path) -> Result<Self> {
        let path = dir.join(RUN_INFO);
        let text = std::fs::read_to_string(&path).with_context(|| {
            format!(
                "cannot read {}: is {} an output directory of penumbra run or shadow?",
                path.display(),
                dir.display()
            )
        })?;
        serde_json::from_str(&text).with_context(|| format!("{} is not a valid {RUN_INFO}", path.display()))
    }
}

/// Exit status of `run` and `shadow` when writing into the output directory failed
/// (sysexits' `EX_IOERR`).
pub const EXIT_OUTPUT_ERROR: u8 = 74;

/// The output directory of a run is not what a finished run leaves: writing into it failed.
#[derive(Debug)]
pub struct OutputFailed {
    message: String,
    /// The run stopped before exploring anything: it has no summary worth printing.
    pub before_start: bool,
}

impl std::fmt::Display for OutputFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OutputFailed {}

/// Watches a run that writes tests: keeps its `run.json` up to date and draws the progress
/// line.
pub struct RunWatch {
    info: RunInfo,
    line: ProgressLine,
    dir: Option<PathBuf>,
    /// The space of the final `run.json`, taken when the run started.
    reserve: Option<ReservedFile>,
    /// Why the run could not start writing into its directory (it was stopped at once).
    start_error: Option<String>,
    next_rewrite: std::time::Duration,
    /// A rewrite while running failed and said so (once is enough).
    warned: bool,
}

impl RunWatch {
    pub fn new(info: RunInfo) -> Self {
        RunWatch {
            info,
            line: ProgressLine::new(),
            dir: None,
            reserve: None,
            start_error: None,
            next_rewrite: REWRITE_INTERVAL,
            warned: false,
        }
    }

    /// Writes the final `run.json` of a run that ended with `error` instead of a summary (a
    /// solver failure, an unsupported program found after the output directory was made), so
    /// that it does not stay `running`. A failure to write is only warned about: the error is
    /// what the user needs to see.
    fn failed(&mut self, error: &anyhow::Error) {
        let Some(dir) = self.dir.take() else { return };
        if self.start_error.is_some() {
            return;
        }
        self.info.status = Some("failed".into());
        self.info.error = Some(format!("{error:#}"));
        self.info.elapsed_s = None;
        let written = self.write_last(&dir);
        if let Err(e) = written {
            eprintln!("penumbra: warning: cannot write {}: {e:#}", dir.join(RUN_INFO).display());
        }
    }

    /// Writes the final `run.json` of the run that ended with `summary`; fails when the
    /// directory is not complete: the run could not start writing into it, a test could not be
    /// written (`io-error`), or `run.json` could not be.
    pub fn finish(mut self, summary: &RunSummary) -> std::result::Result<(), OutputFailed> {
        let Some(dir) = self.dir.take() else { return Ok(()) };
        if let Some(error) = self.start_error.take() {
            // Leave the directory as empty as it was given (a rerun may use it).
            let sidecar = dir.join(penumbra_engine::output::testgen::SIDECAR);
            if std::fs::metadata(&sidecar).is_ok_and(|m| m.len() == 0) {
                let _ = std::fs::remove_file(&sidecar);
            }
            return Err(OutputFailed { message: error, before_start: true });
        }
        self.info.status = Some("finished".into());
        self.info.elapsed_s = None;
        self.info.paths = None;
        self.info.stopped_by = summary.stopped_by.clone();
        self.info.tests = Some(summary.tests_count);
        let mut figures = serde_json::to_value(summary).unwrap_or_default();
        if let Some(map) = figures.as_object_mut() {
            for machine_dependent in ["tests", "wall_s", "peak_rss_mb", "output_dir"] {
                map.remove(machine_dependent);
            }
            if let Some(solver) = map.get_mut("solver").and_then(|s| s.as_object_mut()) {
                solver.remove("time_s");
                solver.remove("core_time_s");
            }
        }
        self.info.summary = Some(figures);
        let written = self.write_last(&dir);
        let mut problems = Vec::new();
        if let Some(error) = &summary.output_error {
            problems.push(format!(
                "writing into {} failed: {error}; the run stopped there with {} tests written",
                dir.display(),
                summary.tests_count
            ));
        }
        match written {
            Ok(()) if problems.is_empty() => return Ok(()),
            Ok(()) => problems.push(format!("{RUN_INFO} says so (stopped_by io-error)")),
            Err(e) => problems.push(format!("cannot write {}: {e:#}", dir.join(RUN_INFO).display())),
        }
        Err(OutputFailed { message: problems.join("; "), before_start: false })
    }

    /// Rewrites `run.json` while running; a failure is said once on stderr (the run goes on,
    /// and the final write does not need the space).
    fn rewrite(&mut self) {
        if let Some(dir) = &self.dir {
            if let Err(e) = self.info.write(dir) {
                if !std::mem::replace(&mut self.warned, true) {
                    eprintln!("penumbra: warning: {e:#}");
                }
            }
        }
    }

    /// Writes the last `run.json` into the space reserved at the start (or anew, when there is
    /// none).
    fn write_last(&mut self, dir: &Path) -> Result<()> {
        match self.reserve.take() {
            Some(reserve) => self.info.write_reserved(reserve).map_err(anyhow::Error::from),
            None => self.info.write(dir),
        }
    }

    /// Takes the space of the final `run.json` in `dir` and writes the first.
    fn start(&mut self, dir: &Path) -> Result<()> {
        let path = dir.join(RUN_INFO);
        let reserve =
            ReservedFile::create(&path).with_context(|| format!("cannot reserve space for {}", path.display()))?;
        if let Err(e) = self.info.write(dir) {
            reserve.discard();
            return Err(e);
        }
        self.reserve = Some(reserve);
        Ok(())
    }
}

/// Runs the engine on `module` with `watch` observing; on an error, `run.json` says the run
/// `failed` and why, and the error names `what` failed ("shadow execution").
pub fn run_watched(
    module: &penumbra_ir::Module,
    config: &penumbra_engine::EngineConfig,
    watch: &mut RunWatch,
    what: &str,
) -> Result<RunSummary> {
    penumbra_engine::run_observed(module, config, watch).map_err(|e| {
        let e = anyhow::Error::from(e).context(format!("{what} failed"));
        watch.failed(&e);
        e
    })
}

impl Observer for RunWatch {
    fn started(&mut self, output_dir: Option<&Path>) {
        self.dir = output_dir.map(Path::to_path_buf);
        self.info.status = Some("running".into());
        let Some(dir) = self.dir.clone() else { return };
        if let Err(e) = self.start(&dir) {
            self.start_error = Some(format!("cannot start writing into {}: {e:#}", dir.display()));
            // Nothing the run found could be kept: it stops before exploring.
            penumbra_engine::interrupt();
        }
    }

    fn progress(&mut self, p: &Progress) {
        self.line.progress(p);
        if p.elapsed >= self.next_rewrite && self.start_error.is_none() {
            self.next_rewrite = p.elapsed + REWRITE_INTERVAL;
            self.info.elapsed_s = Some(p.elapsed.as_secs());
            self.info.paths = Some(p.paths_completed + p.errors);
            self.rewrite();
        }
    }

    fn finished(&mut self) {
        self.line.finished();
    }
}
