//! Replay's scratch directories (the native builds, each test's files and runs): one fresh
//! directory per replay, never reached through a symbolic link, removed when the replay ends;
//! those of replays killed with SIGKILL are removed by the next replay into the same place.
//!
//! `penumbra replay OUTDIR` works in `OUTDIR/replay/` (refused if it is a symbolic link: it
//! would take the builds, and their clean-up, out of the output directory); `shadow --replay`
//! builds in `$TMPDIR` before exploring (a run that fills its output directory's disk still
//! replays).
//!
//! A replay holds a lock (`flock`) on the file `lock` in its directory while it runs; the
//! kernel drops the lock with the process, however it ends. A directory is made under a hidden
//! name, locked, and only then renamed to `penumbra-replay-*`, so a `penumbra-replay-*`
//! directory (of this user, not a link) whose lock can be taken belongs to no running replay.

use anyhow::{bail, Context, Result};
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The names of scratch directories.
const PREFIX: &str = "penumbra-replay-";
/// The lock file in each.
const LOCK: &str = "lock";

/// A replay's scratch directory, removed when dropped.
pub struct Scratch {
    path: PathBuf,
    /// Held while the replay runs.
    _lock: File,
    /// `OUTDIR/replay`, removed too when no other replay uses it.
    parent_to_remove: Option<PathBuf>,
}

impl Scratch {
    /// A scratch directory in `OUTDIR/replay`.
    pub fn in_output_dir(out: &Path) -> Result<Scratch> {
        let parent = out.join("replay");
        match std::fs::create_dir(&parent) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                // mkdir never follows a link: an existing name is checked for what it is.
                let meta =
                    std::fs::symlink_metadata(&parent).with_context(|| format!("cannot read {}", parent.display()))?;
                if meta.file_type().is_symlink() {
                    let target = std::fs::read_link(&parent).unwrap_or_default();
                    bail!(
                        "{} is a symbolic link (to {}): replay keeps its builds and scratch files in the output directory and follows no link out of it; remove the link",
                        parent.display(),
                        target.display()
                    );
                }
                if !meta.is_dir() {
                    bail!("{} is not a directory: replay keeps its builds and scratch files there", parent.display());
                }
            }
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", parent.display())),
        }
        let mut scratch = Self::create_in(&parent)?;
        scratch.parent_to_remove = Some(parent);
        Ok(scratch)
    }

    /// A scratch directory in `$TMPDIR` (the system's temporary directory).
    pub fn in_temp_dir() -> Result<Scratch> {
        Self::create_in(&std::env::temp_dir())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes what killed replays left in `parent`, then makes a locked directory there.
    fn create_in(parent: &Path) -> Result<Scratch> {
        remove_abandoned(parent);
        let mut attempt = 0;
        let (hidden, path) = loop {
            let suffix = unique_suffix(attempt);
            let (hidden, path) = (parent.join(format!(".{PREFIX}{suffix}")), parent.join(format!("{PREFIX}{suffix}")));
            match std::fs::create_dir(&hidden) {
                Ok(()) if !path.exists() => break (hidden, path),
                Ok(()) => {
                    let _ = std::fs::remove_dir(&hidden);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e).with_context(|| format!("cannot create {}", hidden.display())),
            }
            attempt += 1;
            if attempt == 100 {
                bail!("cannot find a free name for a directory in {}", parent.display());
            }
        };
        let locked = (|| -> io::Result<File> {
            let lock = File::options().write(true).create_new(true).open(hidden.join(LOCK))?;
            try_lock(&lock)?;
            std::fs::rename(&hidden, &path)?;
            Ok(lock)
        })();
        match locked {
            Ok(lock) => Ok(Scratch { path, _lock: lock, parent_to_remove: None }),
            Err(e) => {
                let _ = std::fs::remove_dir_all(&hidden);
                Err(e).with_context(|| format!("cannot create {}", path.display()))
            }
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // remove_dir_all follows no symbolic link a program under test may have made.
        let _ = std::fs::remove_dir_all(&self.path);
        if let Some(parent) = &self.parent_to_remove {
            // Only if empty (another replay may be using it).
            let _ = std::fs::remove_dir(parent);
        }
    }
}

/// A name no other replay uses: the process, the time, and `attempt`.
fn unique_suffix(attempt: u32) -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    format!("{}-{nanos:09}-{attempt}", std::process::id())
}

/// Takes `file`'s lock without waiting.
fn try_lock(file: &File) -> io::Result<()> {
    // SAFETY: flock only reads the descriptor, which `file` keeps open.
    match unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// Removes the scratch directories in `parent` of replays that no longer run: this user's
/// `penumbra-replay-*` directories whose lock is free. Best effort: what cannot be removed
/// stays.
fn remove_abandoned(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        let path = entry.path();
        let ours = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir() && m.uid() == me);
        if !ours {
            continue;
        }
        let Ok(lock) = File::options().read(true).custom_flags(libc::O_NOFOLLOW).open(path.join(LOCK)) else {
            continue;
        };
        // Held while the directory goes.
        if try_lock(&lock).is_ok() {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}
