//! The batch manifest (TOML) and its expansion into jobs.
//!
//! ```toml
//! name = "suite"                      # results go to results/<name>/ by default
//!
//! [defaults]                          # every subject field except name/source can default here
//! mode = ["complete", "seeded"]       # one mode or a list: each mode is a job
//! configs = ["caches-on", "caches-off"]
//! flags = ["--bse-budget", "2"]       # extra `penumbra shadow` flags for every job
//! max_time = 120                      # seconds of wall time per job (killed after: `timeout`)
//! max_memory_mb = 2048                # peak RSS per job (killed above: `memory-out`)
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
//! ```
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
}

/// A `[[subject]]`: its own fields plus every field of `[defaults]` (written out rather than
/// flattened: toml's spans do not survive `#[serde(flatten)]`).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct RawSubject {
    name: Spanned<String>,
    source: Spanned<String>,
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
}

/// A parsed manifest: the batch name and its jobs in manifest order (subject, mode, config).
#[derive(Debug)]
pub struct Manifest {
    pub name: String,
    pub jobs: Vec<Job>,
}

/// Reads and checks a manifest, expanding its subjects into jobs.
pub fn load(path: &Path) -> Result<Manifest> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read manifest {}", path.display()))?;
    parse(&text, path)
}

/// `parse` on text already read; `path` names the manifest in errors and anchors sources.
pub fn parse(text: &str, path: &Path) -> Result<Manifest> {
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
    let mut jobs = Vec::new();
    for subject in &raw.subjects {
        let name = subject.name.get_ref();
        let here = at(subject.name.span());
        check_name(name, "subject `name`", &here)?;
        if !seen.insert(name.clone()) {
            bail!("{here}: subject `{name}` is listed twice (subject names must be unique)");
        }
        let s = subject;
        let source = subject.source.get_ref();
        if !dir.join(source).is_file() {
            bail!(
                "{}: subject `{name}`: field `source`: {} does not exist (paths are relative to the manifest)",
                at(subject.source.span()),
                dir.join(source).display()
            );
        }
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
        let seeds = s.seeds.clone().or_else(|| defaults.seeds.clone()).unwrap_or_default();
        let flags = s.flags.clone().or_else(|| defaults.flags.clone()).unwrap_or_default();
        let replay = s.replay.or(defaults.replay).unwrap_or(false);
        for flag in &flags {
            if ["--json", "--no-tests", "--mode", "--seed", "--replay", "--output-dir"].contains(&flag.as_str()) {
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
        for &mode in &modes {
            if mode == Mode::Seeded && seeds.is_empty() {
                bail!("{here}: subject `{name}`: mode `seeded` needs `seeds` (a list of NAME=VALUE,... strings)");
            }
            for config in &config_names {
                let mut args = vec![source.clone(), "--mode".to_string(), mode.as_str().to_string()];
                if mode == Mode::Seeded {
                    for seed in &seeds {
                        args.push("--seed".to_string());
                        args.push(seed.clone());
                    }
                }
                args.extend(flags.iter().cloned());
                args.extend(configs[config].iter().cloned());
                args.push("--json".to_string());
                args.push(if replay { "--replay" } else { "--no-tests" }.to_string());
                jobs.push(Job {
                    id: format!("{name}.{}.{config}", mode.as_str()),
                    subject: name.clone(),
                    mode,
                    config: config.clone(),
                    source: source.clone(),
                    dir: dir.clone(),
                    args,
                    max_time,
                    max_memory_mb,
                    expected_diff_paths: subject.expected_diff_paths,
                    oracle_verified: subject.oracle_verified,
                    replay,
                });
            }
        }
    }
    Ok(Manifest { name: raw.name.into_inner(), jobs })
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
mod tests {
    use super::*;

    fn parse_in(dir: &Path, text: &str) -> Result<Manifest> {
        parse(text, &dir.join("m.toml"))
    }

    fn dir_with(files: &[&str]) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        for f in files {
            std::fs::write(d.path().join(f), "int main(void){return 0;}").unwrap();
        }
        d
    }

    #[test]
    fn expands_subjects_modes_and_configs() {
        let d = dir_with(&["a.c"]);
        let m = parse_in(
            d.path(),
            r#"name = "t"
[defaults]
mode = ["seeded", "complete"]
configs = ["caches-on", "caches-off"]
[[subject]]
name = "a"
source = "a.c"
seeds = ["x=1", "x=2,y=3"]
"#,
        )
        .unwrap();
        let ids: Vec<&str> = m.jobs.iter().map(|j| j.id.as_str()).collect();
        assert_eq!(ids, ["a.complete.caches-on", "a.complete.caches-off", "a.seeded.caches-on", "a.seeded.caches-off"]);
        assert_eq!(m.jobs[3].args[..7], ["a.c", "--mode", "seeded", "--seed", "x=1", "--seed", "x=2,y=3"]);
        assert!(m.jobs[3].args.contains(&"--no-cex-cache".to_string()));
    }

    #[test]
    fn errors_name_line_and_field() {
        let d = dir_with(&["a.c"]);
        let err = |t: &str| format!("{:#}", parse_in(d.path(), t).unwrap_err());
        let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nmode = \"complet\"\n");
        assert!(e.contains("m.toml:5") && e.contains("`mode`") && e.contains("complet"), "{e}");
        let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nsedes = []\n");
        assert!(e.contains("line 5") && e.contains("sedes"), "{e}");
        let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"b.c\"\n");
        assert!(e.contains("m.toml:4") && e.contains("`source`"), "{e}");
        let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nmode = \"seeded\"\n");
        assert!(e.contains("m.toml:3") && e.contains("seeds"), "{e}");
        let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nconfigs = [\"fast\"]\n");
        assert!(e.contains("m.toml:5") && e.contains("unknown config `fast`"), "{e}");
        let e = err("name = \"t\"\n[[subject]]\nname = \"a b\"\nsource = \"a.c\"\n");
        assert!(e.contains("m.toml:3"), "{e}");
        let e = err(
            "name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\n",
        );
        assert!(e.contains("m.toml:6") && e.contains("twice"), "{e}");
        let e = err("name = \"t\"\n[[subject]]\nname = \"a\"\nsource = \"a.c\"\nmax_time = -1\n");
        assert!(e.contains("m.toml:5") && e.contains("max_time"), "{e}");
        let e = err("name = [\n");
        assert!(e.contains("line 1") || e.contains("line 2"), "{e}");
    }
}
