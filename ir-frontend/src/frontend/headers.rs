//! The headers penumbra ships, embedded in the library so that `#include "penumbra.h"` and
//! `#include <klee/klee.h>` work in any C file with no flags: [`write_headers`] puts them into
//! a directory the compiler then gets with `-I`.

use super::error::FrontendError;
use std::fs;
use std::path::Path;

/// `penumbra.h`: `change(old, new)`, `penumbra_execute`, `penumbra_make_symbolic`, ...
pub const PENUMBRA_H: &str = include_str!("../../include/penumbra.h");

/// `klee/klee.h`: the KLEE spellings of the same annotations.
pub const KLEE_H: &str = include_str!("../../include/klee/klee.h");

/// Writes `penumbra.h` and `klee/klee.h` under `dir`, which then serves as an include directory.
pub fn write_headers(dir: &Path) -> Result<(), FrontendError> {
    let klee_dir = dir.join("klee");
    fs::create_dir_all(&klee_dir).map_err(|e| FrontendError::io(format!("cannot create {}", klee_dir.display()), e))?;
    for (path, text) in [(dir.join("penumbra.h"), PENUMBRA_H), (klee_dir.join("klee.h"), KLEE_H)] {
        fs::write(&path, text).map_err(|e| FrontendError::io(format!("cannot write {}", path.display()), e))?;
    }
    Ok(())
}
