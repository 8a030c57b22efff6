//! [`LineFile`]: an append-only file of lines (`tests.jsonl`) that holds whole lines only. Lines
//! are buffered and written in large pieces; when a write fails (disk full, a file-size limit)
//! the file is cut back to its last whole line, so what is on disk stays a readable prefix and
//! the writer knows exactly how many lines it holds.

use std::fs::File;
use std::io::Write;
use std::path::Path;

/// Buffered lines are written once they reach this many bytes.
const BUFFER: usize = 1 << 16;

#[derive(Debug)]
pub struct LineFile {
    file: File,
    buffer: Vec<u8>,
    /// Bytes and whole lines on disk.
    written: u64,
    lines: u64,
}

impl LineFile {
    pub fn create(path: &Path) -> std::io::Result<Self> {
        Ok(LineFile { file: File::create(path)?, buffer: Vec::with_capacity(BUFFER), written: 0, lines: 0 })
    }

    /// Appends `line` (which must not contain a newline) and its newline.
    pub fn push(&mut self, line: &[u8]) -> std::io::Result<()> {
        debug_assert!(!line.contains(&b'\n'));
        self.buffer.extend_from_slice(line);
        self.buffer.push(b'\n');
        if self.buffer.len() >= BUFFER {
            self.flush()?;
        }
        Ok(())
    }

    /// Whole lines on disk (after a failed write: all the file keeps).
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Writes the buffered lines. On failure the file is cut back to its last whole line and
    /// the lines not written are dropped.
    pub fn flush(&mut self) -> std::io::Result<()> {
        let mut done = 0;
        let result = loop {
            if done == self.buffer.len() {
                break Ok(());
            }
            match self.file.write(&self.buffer[done..]) {
                Ok(0) => break Err(std::io::ErrorKind::WriteZero.into()),
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        let whole = match result {
            Ok(()) => done,
            Err(_) => self.buffer[..done].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1),
        };
        self.lines += self.buffer[..whole].iter().filter(|&&b| b == b'\n').count() as u64;
        self.written += whole as u64;
        if whole < done {
            // Shrinking a file needs no space; if even that fails, readers skip a last line
            // without its newline.
            let _ = self.file.set_len(self.written);
        }
        self.buffer.clear();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let mut f = LineFile::create(&path).unwrap();
        f.push(b"one").unwrap();
        f.push(b"two").unwrap();
        assert_eq!(f.lines(), 0, "buffered, not yet written");
        f.flush().unwrap();
        assert_eq!(f.lines(), 2);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
    }

    /// A full device: the write fails, and no line counts as written.
    #[test]
    fn a_failed_write_counts_no_line() {
        let mut f = LineFile::create(Path::new("/dev/full")).unwrap();
        f.push(b"one").unwrap();
        let e = f.flush().unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ENOSPC));
        assert_eq!(f.lines(), 0);
    }
}
