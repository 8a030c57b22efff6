//! `penumbra report OUTDIR`: a replayed run's divergent tests as a person reads them (issue 39):
//! `clusters.json` (the tests grouped by difference and ranked, [`clusters`]) and
//! `report.html` (one self-contained page, [`html`]), both beside the run's `report.json`.

pub mod clusters;
mod html;
pub mod index;

use crate::replay::classify::Class;
use crate::replay::file_kinds::TestEnvironment;
use crate::replay::record::{ReplayReport, ReplayedRecord};
use anyhow::{bail, Context, Result};
use penumbra_engine::output::replay::replay_inputs;
use penumbra_engine::output::testgen::{SidecarInputs, SIDECAR};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

/// A test's input as the page shows it.
pub struct Command {
    /// The program's name (argv[0] without its directories).
    pub program: String,
    pub args: Vec<Vec<u8>>,
    pub stdin: Vec<u8>,
    pub stdin_kind: &'static str,
    /// Each file's name, bytes and kind.
    pub files: Vec<(String, Vec<u8>, &'static str)>,
    /// The program's own symbolic objects (`make_symbolic`), as `NAME=VALUE`.
    pub objects: Vec<String>,
}

/// What the page is made of.
pub struct Page<'a> {
    pub program: String,
    pub classes: &'a BTreeMap<Class, u64>,
    pub clusters: &'a [Cluster],
    pub tests: BTreeMap<String, &'a ReplayedRecord>,
    pub commands: BTreeMap<String, Command>,
    /// Clusters shown in full (the rest are in the table).
    pub detailed: usize,
    /// The directory's SVG plots (a batch's), by file name.
    pub plots: Vec<(String, String)>,
}

use clusters::Cluster;

/// Source lines shown around a divergence site, each side.
const CONTEXT_LINES: u32 = 2;

impl Page<'_> {
    /// The source lines around where a test's versions parted: (number, text, the site's line).
    pub fn source_lines(&self, t: &ReplayedRecord) -> Option<Vec<(u32, String, bool)>> {
        let (file, line) = (t.record.file.as_deref()?, t.record.line?);
        let text = std::fs::read_to_string(file).ok()?;
        let first = line.saturating_sub(CONTEXT_LINES).max(1);
        let lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i as u32 + 1, l))
            .filter(|(n, _)| (first..=line + CONTEXT_LINES).contains(n))
            .map(|(n, l)| (n, l.to_string(), n == line))
            .collect::<Vec<_>>();
        (!lines.is_empty()).then_some(lines)
    }
}

/// `penumbra report OUTDIR --top N`.
pub fn run(dir: &Path, top: usize) -> Result<ExitCode> {
    let written = write(dir, top)?;
    println!(
        "penumbra: {} tests in {} clusters; wrote {} and {}",
        written.tests,
        written.clusters,
        dir.join("report.html").display(),
        dir.join("clusters.json").display()
    );
    Ok(ExitCode::SUCCESS)
}

/// What [`write`] wrote.
pub struct Written {
    pub tests: usize,
    pub clusters: usize,
}

/// Writes `clusters.json` and `report.html` into `dir`, a replayed run's output directory,
/// showing the first `detailed` clusters in full.
pub fn write(dir: &Path, detailed: usize) -> Result<Written> {
    let path = dir.join("report.json");
    if !path.is_file() {
        bail!("{} has no report.json: replay the run first (penumbra replay {0}, or shadow --replay)", dir.display());
    }
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let report: ReplayReport =
        serde_json::from_str(&text).with_context(|| format!("{} is not a replay report", path.display()))?;
    let clusters = clusters::cluster(&report.tests);
    let json = serde_json::to_string_pretty(&clusters)? + "\n";
    let out = dir.join("clusters.json");
    std::fs::write(&out, json).with_context(|| format!("cannot write {}", out.display()))?;
    let page = Page {
        program: Path::new(&report.source)
            .file_name()
            .map_or(report.source.clone(), |f| f.to_string_lossy().into_owned()),
        classes: &report.classes,
        clusters: &clusters,
        tests: report.tests.iter().map(|t| (t.record.name.clone(), t)).collect(),
        commands: commands(dir)?,
        detailed,
        plots: plots(dir)?,
    };
    let out = dir.join("report.html");
    std::fs::write(&out, html::page(&page)).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(Written { tests: report.tests.len(), clusters: clusters.len() })
}

/// Each test's input, from the run's `tests.jsonl` (its argument words and objects, read as
/// replay reads them).
fn commands(dir: &Path) -> Result<BTreeMap<String, Command>> {
    let path = dir.join(SIDECAR);
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut commands = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(name) = serde_json::from_str::<serde_json::Value>(line).map(|v| v["name"].as_str().map(str::to_string))
        else {
            continue; // a line cut short by a killed run: replay left it out too
        };
        let (Some(name), Ok(sidecar)) = (name, serde_json::from_str::<SidecarInputs>(line)) else { continue };
        let Ok(inputs) = replay_inputs(&sidecar.to_ktest()) else { continue };
        let Ok(environment) = TestEnvironment::of(&inputs) else { continue };
        let files = environment.files.into_iter().map(|f| (f.name, f.bytes, f.kind.name())).collect();
        let program = inputs.args.first().map_or(String::new(), |a| {
            let a = String::from_utf8_lossy(a).into_owned();
            a.rsplit('/').next().unwrap_or(&a).to_string()
        });
        let command = Command {
            program,
            args: inputs.args.iter().skip(1).cloned().collect(),
            stdin_kind: environment.stdin_kind.name(),
            stdin: inputs.stdin.clone(),
            files,
            objects: environment.program_objects.iter().map(|o| crate::inputs::show_input(&o.name, &o.bytes)).collect(),
        };
        commands.insert(name, command);
    }
    Ok(commands)
}

/// The directory's SVG plots, by file name (a batch's results directory has them).
pub fn plots(dir: &Path) -> Result<Vec<(String, String)>> {
    let mut plots = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "svg") {
            let svg = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
            plots.push((path.file_name().unwrap_or_default().to_string_lossy().into_owned(), svg));
        }
    }
    plots.sort();
    Ok(plots)
}
