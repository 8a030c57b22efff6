//! `run.json`: what an output directory's tests were generated from (the source file, the clang
//! flags, the command), written by `penumbra run` and `penumbra shadow` next to the tests so that
//! `penumbra replay OUTDIR` can rebuild the program natively without being told again.

use crate::cli::CompileArgs;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The SHA-256 of a source file, in hex.
fn source_hash(source: &Path) -> Result<String> {
    let bytes = std::fs::read(source).with_context(|| format!("cannot read {}", source.display()))?;
    Ok(crate::replay::classify::sha256_hex(&bytes))
}

/// The file's name in an output directory.
pub const RUN_INFO: &str = "run.json";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The command that wrote the tests: `run` or `shadow`.
    pub command: String,
    /// The C source, as an absolute path (replay may run from another directory).
    pub source: PathBuf,
    /// `-I` directories, absolute.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions as given.
    pub defines: Vec<String>,
    /// The SHA-256 of the source the tests were generated from: replay refuses a source that
    /// changed since (its tests would be replayed against another program). Absent in
    /// directories of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_sha256: Option<String>,
}

impl RunInfo {
    pub fn new(command: &str, source: &Path, compile: &CompileArgs) -> Result<Self> {
        let absolute = |p: &Path| std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()));
        Ok(RunInfo {
            command: command.to_string(),
            source: absolute(source)?,
            include_dirs: compile.include.iter().map(|d| absolute(d)).collect::<Result<_>>()?,
            defines: compile.define.clone(),
            source_sha256: Some(source_hash(source)?),
        })
    }

    /// Refuses a source that is not the one the tests were generated from.
    pub fn check_source(&self) -> Result<()> {
        let Some(recorded) = &self.source_sha256 else { return Ok(()) };
        let now = source_hash(&self.source)?;
        if &now != recorded {
            anyhow::bail!(
                "{} changed since its tests were written (SHA-256 {} then, {} now): its tests belong to the old text; run penumbra again",
                self.source.display(),
                &recorded[..12.min(recorded.len())],
                &now[..12]
            );
        }
        Ok(())
    }

    pub fn write(&self, dir: &Path) -> Result<()> {
        let path = dir.join(RUN_INFO);
        let text = serde_json::to_string_pretty(self)? + "\n";
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
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
