//! [`ReservedFile`]: a file whose last text is written into space taken when a run starts, so
//! that writing it cannot fail for lack of room once the run is under way (a full disk, a
//! quota, no inodes or no file descriptors left): [`RESERVE_BYTES`] bytes in a file of its own,
//! created and kept open at the start; at the end the text is written over them in place, the
//! file cut to the text's length and renamed to its real name, which replaces the old file
//! whole, as a rename does. None of these steps allocates a block, an inode or a descriptor.
//!
//! Copy-on-write file systems (btrfs, ZFS) allocate anew on every write: there the reserve
//! still holds the inode and the descriptor, not the blocks.

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The space reserved. `run.json` takes 2-3 KiB (its summary lists sites of the program, a few
/// hundred bytes each); it stays under a file-size limit (`ulimit -f`) of 64 KiB.
pub const RESERVE_BYTES: usize = 32 << 10;

/// A file's final text, with its space taken in advance.
#[derive(Debug)]
pub struct ReservedFile {
    file: File,
    /// Where the space is: the file's real name with `.reserve` appended.
    reserve: PathBuf,
    /// The file's real name.
    path: PathBuf,
}

impl ReservedFile {
    /// Takes the space for `path`'s final text.
    pub fn create(path: &Path) -> std::io::Result<Self> {
        let mut name = path.as_os_str().to_owned();
        name.push(".reserve");
        let reserve = PathBuf::from(name);
        let mut file = File::create(&reserve)?;
        // Blanks: the space is written (a file merely extended would be sparse, its blocks
        // allocated only when written at the end), and synced (file systems that allocate late
        // report a lack of space now).
        let taken = file.write_all(&[b' '; RESERVE_BYTES]).and_then(|()| file.sync_data());
        match taken {
            Ok(()) => Ok(ReservedFile { file, reserve, path: path.to_path_buf() }),
            Err(e) => {
                let _ = std::fs::remove_file(&reserve);
                Err(e)
            }
        }
    }

    /// Writes `text` into the reserved space and renames it to the file's name. A text longer
    /// than the reserve needs the disk for the rest.
    pub fn commit(self, text: &[u8]) -> std::io::Result<()> {
        self.file.write_all_at(text, 0)?;
        self.file.set_len(text.len() as u64)?;
        std::fs::rename(&self.reserve, &self.path)
    }

    /// Gives the space back (a run that could not start).
    pub fn discard(self) {
        let _ = std::fs::remove_file(&self.reserve);
    }
}
