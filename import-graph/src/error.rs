//! Why a crate's module tree could not be read.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read {path}: {source}")]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{file} declares `mod {name};`, but neither {name}.rs nor {name}/mod.rs is where it looks")]
    MissingModule { file: PathBuf, name: String },
}

/// `std::fs::read_to_string` that names the file it could not read.
pub fn read_text(path: &std::path::Path) -> Result<String, ReadError> {
    std::fs::read_to_string(path).map_err(|source| ReadError::Unreadable { path: path.to_path_buf(), source })
}
