//! The crates of a Cargo workspace: its members (the `members` list of its `Cargo.toml`) and the
//! root file of each crate they build, where Cargo finds them by itself: `src/lib.rs`,
//! `src/main.rs`, `src/bin/NAME.rs` and `src/bin/NAME/main.rs`.

use std::path::{Path, PathBuf};

use crate::error::{read_text, ReadError};

/// The root file of every library and binary of the workspace at `workspace`, in the order of
/// its members.
pub fn crate_roots(workspace: &Path) -> Result<Vec<PathBuf>, ReadError> {
    let manifest = read_text(&workspace.join("Cargo.toml"))?;
    let mut roots = Vec::new();
    for member in members(&manifest) {
        let src = workspace.join(member).join("src");
        roots.extend([src.join("lib.rs"), src.join("main.rs")].into_iter().filter(|f| f.is_file()));
        let bin = src.join("bin");
        let Ok(entries) = std::fs::read_dir(&bin) else { continue };
        let mut binaries: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .map(|p| if p.is_dir() { p.join("main.rs") } else { p })
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rs"))
            .collect();
        binaries.sort();
        roots.extend(binaries);
    }
    Ok(roots)
}

/// The paths of the `members = [...]` list of a workspace manifest.
fn members(manifest: &str) -> Vec<&str> {
    let Some(list) = manifest.lines().find_map(|l| l.trim_start().strip_prefix("members")) else { return Vec::new() };
    let list = list.trim_start().trim_start_matches('=');
    let list = &list[..list.find(']').unwrap_or(list.len())];
    list.split('"').skip(1).step_by(2).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_members_are_read_from_the_manifest() {
        let manifest = "[workspace]\nresolver = \"2\"\nmembers = [\"a\", \"b/c\"]\nexclude = [\"d\"]\n";
        assert_eq!(members(manifest), ["a", "b/c"]);
    }
}
