//! The batch manifest (TOML) and its expansion into jobs.
//!
//! ```toml
//! name = "suite"                      # results go to results/<name>/ by default
//! out = "/shared/penumbra/suite"      # or here (relative to the manifest); --out wins
//!
//! [defaults]                          # every subject field except name/source can default here
//! mode = ["complete", "seeded"]       # one mode or a list: each mode is a job
//! configs = ["caches-on", "caches-off"]
//! flags = ["--bse-budget", "2"]       # extra `penumbra shadow` flags for every job
//! max_time = 120                      # seconds of wall time per job (killed after: `timeout`)
//! max_memory_mb = 2048                # peak RSS per job (killed above: `memory-out`; the
//!                                     # job's run stops itself at 7/8 of it: `--max-memory`)
//! replay = true                       # replay and classify every test (tests per class)
//!
//! [configs]                           # config name -> extra flags (caches-on / caches-off
//! fast = ["--max-depth", "20"]        # are built in and may be redefined here)
//!
//! [[subject]]
//! name = "gcd_m1"
//! source = "gcd_m1.c"                 # relative to the manifest; jobs run in its directory
//! seeds = ["a=12,b=18"]               # one `--seed` each (needed for seeded mode)
//! expected_diff_paths = 4             # complete mode's count, for the results table
//! oracle_verified = true              # whether a brute-force oracle established that count
//! domain = ["a:int:0:20", "b:int:0:20"]  # the inputs' bounds, for that oracle
//!
//! [[subject]]                         # a patch of a real project (subjects/README.md)
//! name = "dd-appenderrors"
//! project = "coreutils-9.1/dd-appenderrors"  # a subject directory instead of `source`
//! prepare = ["../scripts/prepare-subject.py"]  # usually in [defaults]
//! ```
//!
//! A `project` subject is prepared before its jobs run: the `prepare` command is run (in the
//! manifest's directory) as `PREPARE PROJECT OUT/prepared/NAME`, and writes there
//! `prepared.json`: the program to explore (`source`), the `penumbra shadow` flags that go
//! with it (environment sizes, prebuilt native builds for replay), the seeds it took from the
//! project's tests, and how many of the tests' invocations touch the patch. Paths in it are
//! relative to that directory, where the subject's jobs run (so relative paths in the
//! manifest's `flags` resolve there too: give project subjects absolute ones). A project
//! subject is always replayed (`replay = true`); a `seeds` list of its own replaces the
//! prepared seeds. Without seeds, its seeded job is recorded as `no-seeds` rather than run; a
//! subject whose preparation fails has its jobs recorded as `not-prepared` with the error, and
//! the others run.
//!
//! Parsing ([`plan`]) runs nothing: it checks the text and names what each subject's jobs will
//! be; the batch then prepares the `project` subjects (as many at a time as jobs) and
//! [`expand`] makes the jobs from what each preparation gave, in manifest order.
//!
//! Every error names the manifest, the line and the field, since a manifest of dozens of
//! subjects is edited by hand; unknown fields are errors so that a typo cannot silently drop
//! a setting.

use crate::seconds::MAX_SECONDS;
use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use toml::Spanned;

/// `penumbra shadow` flags the batch sets itself (a manifest or a preparation may not).
const RESERVED: [&str; 6] = ["--json", "--no-tests", "--mode", "--seed", "--replay", "--output-dir"];

/// The `--max-memory` of a job killed above `job_limit_mb`: seven eighths of it.
fn run_memory_limit(job_limit_mb: u64) -> u64 {
    (job_limit_mb - job_limit_mb / 8).max(1)
}

/// Limits used when neither the subject nor `[defaults]` sets one.
pub const DEFAULT_MAX_TIME: f64 = 600.0;
pub use crate::cli::DEFAULT_MAX_MEMORY_MB;

/// The configurations every manifest knows without a `[configs]` table.
fn builtin_configs() -> BTreeMap<String, Vec<String>> {
    let off = ["--no-query-cache", "--no-cex-cache", "--no-independence", "--no-range-solver"];
    BTreeMap::from([
        ("caches-on".to_string(), Vec::new()),
        ("caches-off".to_string(), off.iter().map(|s| s.to_string()).collect()),
        ("default".to_string(), Vec::new()),
    ])
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    name: Spanned<String>,
    /// The results directory, relative to the manifest (read by [`name_and_output`]).
    #[allow(dead_code)]
    out: Option<String>,
    #[serde(default)]
    defaults: RawSettings,
    #[serde(default)]
    configs: BTreeMap<String, Spanned<Vec<String>>>,
    #[serde(default, rename = "subject")]
    subjects: Vec<RawSubject>,
}

/// The fields a subject shares with `[defaults]`.
#[derive(Deserialize, Debug, Default, Clone)]
#[serde(deny_unknown_fields)]
struct RawSettings {
    mode: Option<Spanned<OneOrMany>>,
    configs: Option<Spanned<Vec<String>>>,
    seeds: Option<Vec<String>>,
    flags: Option<Vec<String>>,
    max_time: Option<Spanned<f64>>,
    max_memory_mb: Option<Spanned<u64>>,
    replay: Option<bool>,
    prepare: Option<Vec<String>>,
}

/// A `[[subject]]`: its own fields plus every field of `[defaults]` (written out rather than
/// flattened: toml's spans do not survive `#[serde(flatten)]`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawSubject {
    name: Spanned<String>,
    source: Option<Spanned<String>>,
    /// A subject directory of a real project's patch (prepared by `prepare`).
    project: Option<Spanned<String>>,
    #[allow(dead_code)] // documentation for the reader of the manifest
    description: Option<String>,
    expected_diff_paths: Option<u64>,
    oracle_verified: Option<bool>,
    /// The inputs' bounded domain (`NAME:int|char:LO:HI`), for the brute-force oracle that
    /// establishes `expected_diff_paths`; the batch itself does not use it.
    #[allow(dead_code)]
    domain: Option<Vec<String>>,
    mode: Option<Spanned<OneOrMany>>,
    configs: Option<Spanned<Vec<String>>>,
    seeds: Option<Vec<String>>,
    flags: Option<Vec<String>>,
    max_time: Option<Spanned<f64>>,
    max_memory_mb: Option<Spanned<u64>>,
    replay: Option<bool>,
    prepare: Option<Vec<String>>,
}

/// A `project` subject to prepare: run `command PROJECT OUT` in `dir`.
#[derive(Debug, Clone)]
pub struct Preparation {
    pub subject: String,
    pub command: Vec<String>,
    /// The subject directory, relative to `dir`.
    pub project: String,
    /// The manifest's directory.
    pub dir: PathBuf,
}

/// What a preparation made (its `prepared.json`), and where.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Prepared {
    /// The program to explore, relative to `dir`.
    pub source: String,
    /// `penumbra shadow` flags for every job of the subject (paths relative to `dir`).
    #[serde(default)]
    pub flags: Vec<String>,
    /// Flags of one mode's jobs only (`complete`, `seeded`): each mode's symbolic environment
    /// (seeded mode's is sized to hold its seeds).
    #[serde(default)]
    pub mode_flags: BTreeMap<String, Vec<String>>,
    /// Seeds taken from the project's tests, for seeded mode.
    #[serde(default)]
    pub seeds: Vec<String>,
    #[serde(default)]
    pub seed_selection: Option<SeedSelection>,
    /// Where the preparation wrote its files (set by the preparer, not read from the file).
    #[serde(skip)]
    pub dir: PathBuf,
}

/// How the seeds were chosen from the project's tests (the numbers of Shadow's table).
#[derive(Deserialize, serde::Serialize, schemars::JsonSchema, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SeedSelection {
    /// Test scripts run.
    pub tests: u64,
    /// Invocations of the utility they made.
    pub invocations: u64,
    /// Invocations that executed an annotated line.
    pub touching: u64,
    /// Test scripts with at least one such invocation.
    pub tests_touching: u64,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

/// The two shadow modes, in the order jobs are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mode {
    Complete,
    Seeded,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Complete => "complete",
            Mode::Seeded => "seeded",
        }
    }
}

/// One run of `penumbra shadow`: a subject in one mode under one configuration.
#[derive(Debug, Clone)]
pub struct Job {
    /// `<subject>.<mode>.<config>`: the job file's name, unique in the batch.
    pub id: String,
    pub subject: String,
    pub mode: Mode,
    pub config: String,
    /// The source as the manifest wrote it (relative paths keep results machine-independent).
    pub source: String,
    /// Where the child runs: the manifest's directory, so `source` and flags resolve there.
    pub dir: PathBuf,
    /// The arguments after `penumbra shadow`.
    pub args: Vec<String>,
    pub max_time: f64,
    pub max_memory_mb: u64,
    pub expected_diff_paths: Option<u64>,
    pub oracle_verified: Option<bool>,
    /// Replay every test natively and classify it (`shadow --replay`); the runner gives the
    /// job a scratch `--output-dir` for its tests.
    pub replay: bool,
    /// Why the job is recorded without running.
    pub skip: Option<Skip>,
    /// A prepared subject's seed selection.
    pub seed_selection: Option<SeedSelection>,
    /// Whether the job is a `project` subject's (its program made by a preparation).
    pub project: bool,
}

/// Why a job is recorded without running.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// A prepared subject's seeded job: the preparation took no seeds.
    NoSeeds(String),
    /// The subject's preparation failed (its error): the other subjects still run, and the
    /// next batch run prepares it again.
    NotPrepared(String),
}

impl Skip {
    pub fn reason(&self) -> &str {
        match self {
            Skip::NoSeeds(reason) | Skip::NotPrepared(reason) => reason,
        }
    }
}

/// A parsed manifest: the batch name and its jobs in manifest order (subject, mode, config).
#[derive(Debug)]
pub struct Manifest {
    pub name: String,
    pub jobs: Vec<Job>,
}

/// The batch's name and its results directory, read before the rest (preparations write
/// there): `--out` if given, else the manifest's `out` (relative to the manifest), else
/// `results/<name>` under the current directory.
pub fn name_and_output(text: &str, path: &Path, out: Option<&Path>) -> Result<(String, PathBuf)> {
    #[derive(Deserialize)]
    struct NameOnly {
        name: String,
        out: Option<String>,
    }
    let raw: NameOnly = toml::from_str(text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let dir = match (out, &raw.out) {
        (Some(out), _) => out.to_path_buf(),
        (None, Some(out)) => path.parent().unwrap_or(Path::new("")).join(out),
        (None, None) => PathBuf::from("results").join(&raw.name),
    };
    Ok((raw.name, dir))
}

/// Prepares a `project` subject (see the module's documentation).
pub type Preparer<'a> = dyn FnMut(&Preparation) -> Result<Prepared> + 'a;

/// The manifest's text.
pub fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read manifest {}", path.display()))
}

/// Where a subject's program comes from.
#[derive(Debug, Clone)]
pub enum Program {
    /// A program file, relative to the manifest.
    Source(String),
    /// A `project` subject, its program made by a preparation.
    Project(Preparation),
}

/// A subject as its manifest entry gives it, checked: what its jobs will be once its program
/// is known.
#[derive(Debug, Clone)]
pub struct SubjectPlan {
    pub name: String,
    /// `MANIFEST:LINE` of the entry, for what preparing it finds.
    pub at: String,
    pub program: Program,
    pub modes: Vec<Mode>,
    /// The configurations, each with its flags.
    pub configs: Vec<(String, Vec<String>)>,
    /// The seeds the manifest gives (a program subject's own or `[defaults]`'s; a project
    /// subject's own only: without them its preparation's).
    pub seeds: Option<Vec<String>>,
    pub flags: Vec<String>,
    pub replay: bool,
    pub max_time: f64,
    pub max_memory_mb: u64,
    pub expected_diff_paths: Option<u64>,
    pub oracle_verified: Option<bool>,
}

/// A parsed manifest, nothing run yet: the batch name and its subjects in manifest order.
#[derive(Debug, Clone)]
pub struct Plan {
    pub name: String,
    /// The manifest's directory, where program subjects' jobs run.
    pub dir: PathBuf,
    pub subjects: Vec<SubjectPlan>,
}

/// Checks a manifest's text, expanding its subjects into jobs (preparing `project` subjects
/// with `prepare`); `path` names the manifest in errors and anchors sources. (The batch plans
/// first and prepares in parallel; the tests take both steps at once.)
#[cfg(test)]
pub fn parse(text: &str, path: &Path, prepare: &mut Preparer) -> Result<Manifest> {
    expand(plan(text, path)?, prepare)
}

/// Parses and checks a manifest's text without running anything (files named in it are only
/// looked at); every error names the manifest's line.
pub fn plan(text: &str, path: &Path) -> Result<Plan> {
    let shown = path.display().to_string();
    // toml's own message already carries the line, column and offending field.
    let raw: RawManifest = toml::from_str(text).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    let at = |span: std::ops::Range<usize>| format!("{shown}:{}", line_of(text, span.start));
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let dir = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir };

    check_name(raw.name.get_ref(), "batch `name`", &at(raw.name.span()))?;
    let mut configs = builtin_configs();
    for (name, flags) in &raw.configs {
        check_name(name, "config name", &at(flags.span()))?;
        configs.insert(name.clone(), flags.get_ref().clone());
    }
    if raw.subjects.is_empty() {
        bail!("{shown}: no [[subject]] entries: a batch needs at least one subject");
    }

    let defaults = raw.defaults;
    let mut seen = BTreeSet::new();
    let mut subjects = Vec::new();
    for subject in &raw.subjects {
        let name = subject.name.get_ref();
        let here = at(subject.name.span());
        check_name(name, "subject `name`", &here)?;
        if !seen.insert(name.clone()) {
            bail!("{here}: subject `{name}` is listed twice (subject names must be unique)");
        }
        let s = subject;
        let program = match (&s.source, &s.project) {
            (Some(source), None) => {
                if !dir.join(source.get_ref()).is_file() {
                    bail!(
                        "{}: subject `{name}`: field `source`: {} does not exist (paths are relative to the manifest)",
                        at(source.span()),
                        dir.join(source.get_ref()).display()
                    );
                }
                Program::Source(source.get_ref().clone())
            }
            (None, Some(project)) => {
                if !dir.join(project.get_ref()).is_dir() {
                    bail!(
                        "{}: subject `{name}`: field `project`: {} is not a directory (paths are relative to the manifest)",
                        at(project.span()),
                        dir.join(project.get_ref()).display()
                    );
                }
                let Some(command) = s.prepare.clone().or_else(|| defaults.prepare.clone()).filter(|c| !c.is_empty())
                else {
                    bail!("{here}: subject `{name}`: a `project` subject needs a `prepare` command (here or in [defaults])");
                };
                Program::Project(Preparation {
                    subject: name.clone(),
                    command,
                    project: project.get_ref().clone(),
                    dir: dir.clone(),
                })
            }
            (Some(source), Some(_)) => {
                bail!("{}: subject `{name}`: give `source` or `project`, not both", at(source.span()))
            }
            (None, None) => {
                bail!("{here}: subject `{name}`: needs a `source` (a program) or a `project` (a patch subject)")
            }
        };
        let project = matches!(program, Program::Project(_));
        let modes = modes_of(s.mode.as_ref().or(defaults.mode.as_ref()), name, &at)?;
        let config_names = match s.configs.as_ref().or(defaults.configs.as_ref()) {
            None => vec!["default".to_string()],
            Some(list) => {
                if list.get_ref().is_empty() {
                    bail!("{}: subject `{name}`: field `configs` is empty", at(list.span()));
                }
                for c in list.get_ref() {
                    if !configs.contains_key(c) {
                        let known: Vec<&str> = configs.keys().map(String::as_str).collect();
                        bail!(
                            "{}: subject `{name}`: field `configs`: unknown config `{c}` (known: {}; define others in [configs])",
                            at(list.span()),
                            known.join(", ")
                        );
                    }
                }
                list.get_ref().clone()
            }
        };
        // A project subject's own seeds come from its preparation, unless the subject names
        // some itself; `[defaults]` seeds are for program subjects.
        let seeds = match project {
            true => s.seeds.clone(),
            false => Some(s.seeds.clone().or_else(|| defaults.seeds.clone()).unwrap_or_default()),
        };
        if !project && modes.contains(&Mode::Seeded) && seeds.as_ref().is_none_or(Vec::is_empty) {
            bail!("{here}: subject `{name}`: mode `seeded` needs `seeds` (a list of NAME=VALUE,... strings)");
        }
        let flags = s.flags.clone().or_else(|| defaults.flags.clone()).unwrap_or_default();
        let replay = s.replay.or(defaults.replay).unwrap_or(false);
        if project && !replay {
            bail!("{here}: subject `{name}`: a `project` subject is replayed on its prepared native builds: set `replay = true`");
        }
        for flag in &flags {
            if RESERVED.contains(&flag.as_str()) {
                bail!("{here}: subject `{name}`: field `flags`: `{flag}` is set by the batch itself");
            }
        }
        let max_time = match s.max_time.as_ref().or(defaults.max_time.as_ref()) {
            Some(t) if !(t.get_ref().is_finite() && *t.get_ref() > 0.0) => {
                bail!("{}: subject `{name}`: field `max_time` must be a positive number of seconds", at(t.span()))
            }
            Some(t) => t.get_ref().min(MAX_SECONDS),
            None => DEFAULT_MAX_TIME,
        };
        let max_memory_mb = match s.max_memory_mb.as_ref().or(defaults.max_memory_mb.as_ref()) {
            Some(m) if *m.get_ref() == 0 => {
                bail!("{}: subject `{name}`: field `max_memory_mb` must be positive", at(m.span()))
            }
            Some(m) => *m.get_ref(),
            None => DEFAULT_MAX_MEMORY_MB,
        };
        subjects.push(SubjectPlan {
            name: name.clone(),
            at: here,
            program,
            modes,
            configs: config_names.into_iter().map(|c| (c.clone(), configs[&c].clone())).collect(),
            seeds,
            flags,
            replay,
            max_time,
            max_memory_mb,
            expected_diff_paths: s.expected_diff_paths,
            oracle_verified: s.oracle_verified,
        });
    }
    Ok(Plan { name: raw.name.into_inner(), dir, subjects })
}

/// Prepares the plan's `project` subjects with `prepare`, in manifest order, and expands every
/// subject into its jobs.
pub fn expand(plan: Plan, prepare: &mut Preparer) -> Result<Manifest> {
    let mut jobs = Vec::new();
    for s in &plan.subjects {
        let (name, here) = (&s.name, &s.at);
        let (source, job_dir, prepared) = match &s.program {
            Program::Source(source) => (source.clone(), plan.dir.clone(), None),
            Program::Project(request) => {
                let prepared = match prepare(request) {
                    Ok(prepared) => prepared,
                    Err(e) => {
                        let reason = format!("{here}: subject `{name}`: cannot prepare the project: {e:#}");
                        eprintln!("batch: warning: {reason}");
                        jobs.extend(unprepared_jobs(s, &plan.dir, reason));
                        continue;
                    }
                };
                let reserved = prepared
                    .flags
                    .iter()
                    .chain(prepared.mode_flags.values().flatten())
                    .find(|f| RESERVED.contains(&f.as_str()));
                if let Some(flag) = reserved {
                    bail!(
                        "{here}: subject `{name}`: its preparation's flags hold `{flag}`, which the batch sets itself"
                    );
                }
                (prepared.source.clone(), prepared.dir.clone(), Some(prepared))
            }
        };
        let seeds = match (&s.seeds, &prepared) {
            (Some(seeds), _) => seeds.clone(),
            (None, Some(p)) => p.seeds.clone(),
            (None, None) => Vec::new(),
        };
        for &mode in &s.modes {
            // Only a project subject gets here without seeds for seeded mode (see `plan`).
            let skip = (mode == Mode::Seeded && seeds.is_empty()).then(|| {
                Skip::NoSeeds("no seeds: the preparation took none from the project's tests (none of their invocations executes an annotated line, or none fits seeded mode's bounds)".to_string())
            });
            for (config, config_flags) in &s.configs {
                let mut args = vec![source.clone(), "--mode".to_string(), mode.as_str().to_string()];
                if mode == Mode::Seeded {
                    for seed in &seeds {
                        args.push("--seed".to_string());
                        args.push(seed.clone());
                    }
                }
                if let Some(p) = &prepared {
                    args.extend(p.flags.iter().cloned());
                    args.extend(p.mode_flags.get(mode.as_str()).into_iter().flatten().cloned());
                }
                args.extend(s.flags.iter().cloned());
                args.extend(config_flags.iter().cloned());
                if !args.iter().any(|a| a == "--max-memory" || a.starts_with("--max-memory=")) {
                    // Below the limit the job is killed at, so that a run that grows stops
                    // itself (as `max-memory`) and writes what it found.
                    args.push("--max-memory".to_string());
                    args.push(run_memory_limit(s.max_memory_mb).to_string());
                }
                args.push("--json".to_string());
                args.push(if s.replay { "--replay" } else { "--no-tests" }.to_string());
                jobs.push(Job {
                    id: format!("{name}.{}.{config}", mode.as_str()),
                    subject: name.clone(),
                    mode,
                    config: config.clone(),
                    source: source.clone(),
                    dir: job_dir.clone(),
                    args,
                    max_time: s.max_time,
                    max_memory_mb: s.max_memory_mb,
                    expected_diff_paths: s.expected_diff_paths,
                    oracle_verified: s.oracle_verified,
                    replay: s.replay,
                    skip: skip.clone(),
                    seed_selection: prepared.as_ref().and_then(|p| p.seed_selection.clone()),
                    project: matches!(s.program, Program::Project(_)),
                });
            }
        }
    }
    Ok(Manifest { name: plan.name, jobs })
}

/// The jobs of a subject whose preparation failed, recorded as `not-prepared` with the error.
fn unprepared_jobs(s: &SubjectPlan, dir: &Path, reason: String) -> Vec<Job> {
    let mut jobs = Vec::new();
    for &mode in &s.modes {
        for (config, _) in &s.configs {
            jobs.push(Job {
                id: format!("{}.{}.{config}", s.name, mode.as_str()),
                subject: s.name.clone(),
                mode,
                config: config.clone(),
                source: String::new(),
                dir: dir.to_path_buf(),
                args: Vec::new(),
                max_time: s.max_time,
                max_memory_mb: s.max_memory_mb,
                expected_diff_paths: s.expected_diff_paths,
                oracle_verified: s.oracle_verified,
                replay: s.replay,
                skip: Some(Skip::NotPrepared(reason.clone())),
                seed_selection: None,
                project: true,
            });
        }
    }
    jobs
}

fn modes_of(
    field: Option<&Spanned<OneOrMany>>,
    subject: &str,
    at: &dyn Fn(std::ops::Range<usize>) -> String,
) -> Result<Vec<Mode>> {
    let Some(field) = field else { return Ok(vec![Mode::Complete]) };
    let names = match field.get_ref() {
        OneOrMany::One(m) => vec![m.clone()],
        OneOrMany::Many(v) => v.clone(),
    };
    if names.is_empty() {
        bail!("{}: subject `{subject}`: field `mode` is empty", at(field.span()));
    }
    let mut modes = Vec::new();
    for m in names {
        let mode = match m.as_str() {
            "complete" => Mode::Complete,
            "seeded" => Mode::Seeded,
            other => bail!(
                "{}: subject `{subject}`: field `mode`: unknown mode `{other}` (expected complete or seeded)",
                at(field.span())
            ),
        };
        if !modes.contains(&mode) {
            modes.push(mode);
        }
    }
    modes.sort();
    Ok(modes)
}

/// Names become file names and CSV cells: keep them to a safe alphabet.
fn check_name(name: &str, what: &str, at: &str) -> Result<()> {
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+'));
    if !ok {
        bail!("{at}: {what} `{name}` must be non-empty and use only letters, digits, `_`, `-` and `+`");
    }
    Ok(())
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

#[cfg(test)]
mod tests;
