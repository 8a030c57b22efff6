//! `run.json`: what an output directory's tests were generated from (the source file, the clang
//! flags, the command), written by `penumbra run` and `penumbra shadow` next to the tests so that
//! `penumbra replay OUTDIR` can rebuild the program natively without being told again.

use crate::cli::CompileArgs;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

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
}

impl RunInfo {
    pub fn new(command: &str, source: &Path, compile: &CompileArgs) -> Result<Self> {
        let absolute = |p: &Path| std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()));
        Ok(RunInfo {
            command: command.to_string(),
            source: absolute(source)?,
            include_dirs: compile.include.iter().map(|d| absolute(d)).collect::<Result<_>>()?,
            defines: compile.define.clone(),
        })
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
