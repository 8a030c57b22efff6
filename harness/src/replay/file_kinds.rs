//! Standard input and the test's files as musl's C layer made them on the test's path
//! (runtime/musl/penumbra_posix.c): which of a test's objects are the files' contents and kinds
//! ([`TestEnvironment`]), and for one native run each of them a regular file, a pipe or a
//! terminal (a pseudo-terminal), so that `fstat`, `lseek` and `isatty` answer natively as they
//! did on the path.
//!
//! A pipe holds the bytes and then ends (the writer closes). A named pipe's writer waits for
//! the program to open it; one the program never opens is let go after the run. A terminal is
//! in canonical mode with every special character off but end-of-file, which is a byte the
//! bytes do not hold: the program reads the bytes unchanged, a line at a time, then end of
//! file, as the model's reads give them (less the line-at-a-time reads). A file that is a
//! terminal is a symbolic link to the pseudo-terminal (`lstat` sees the link).

use anyhow::{bail, Context, Result};
use penumbra_engine::output::ktest::KTestObject;
use penumbra_engine::output::replay::ReplayInputs;
use std::ffi::CString;
use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::thread::JoinHandle;

/// What a type object (`stdin-type`, `A-type`, ...) makes of its input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FileKind {
    #[default]
    Regular,
    Pipe,
    Terminal,
}

impl FileKind {
    /// The kind a type object's bytes say: 1 a pipe, 2 a terminal, anything else a regular
    /// file (the C layer reads them the same way).
    pub fn of_object(bytes: &[u8]) -> FileKind {
        match bytes.first() {
            Some(1) => FileKind::Pipe,
            Some(2) => FileKind::Terminal,
            _ => FileKind::Regular,
        }
    }

    /// The kind in words, for reports.
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Regular => "regular file",
            FileKind::Pipe => "pipe",
            FileKind::Terminal => "terminal",
        }
    }
}

/// One file of a test: its name, contents and kind.
#[derive(Clone, Debug)]
pub struct TestFile {
    pub name: String,
    pub bytes: Vec<u8>,
    pub kind: FileKind,
}

/// A test's objects that musl's C layer made, split off the program's own: the files
/// (`--sym-files`: `A-data`, ... first) and the kinds (`--sym-file-types`: `stdin-type`,
/// `A-type`, ... next).
pub struct TestEnvironment<'a> {
    pub files: Vec<TestFile>,
    pub stdin_kind: FileKind,
    /// The objects left: the program's own (`make_symbolic`), in creation order.
    pub program_objects: &'a [KTestObject],
}

impl<'a> TestEnvironment<'a> {
    /// Splits `inputs`' own objects as the C layer made them; an object missing where the
    /// options say it comes is an error naming it.
    pub fn of(inputs: &'a ReplayInputs) -> Result<Self> {
        let mut own = inputs.own.as_slice();
        let mut take = |name: String, option: &str| -> Result<Vec<u8>> {
            match own.split_first() {
                Some((o, rest)) if o.name == name => {
                    own = rest;
                    Ok(o.bytes.clone())
                }
                _ => bail!("{option} but no object {name} where expected"),
            }
        };
        let letters = || (b'A'..).take(inputs.sym_files.map_or(0, |(count, _)| count as usize)).map(char::from);
        let mut files = Vec::new();
        for letter in letters() {
            let bytes = take(format!("{letter}-data"), "--sym-files")?;
            files.push(TestFile { name: letter.to_string(), bytes, kind: FileKind::Regular });
        }
        let mut stdin_kind = FileKind::Regular;
        if inputs.sym_file_types {
            stdin_kind = FileKind::of_object(&take("stdin-type".to_string(), "--sym-file-types")?);
            for (file, letter) in files.iter_mut().zip(letters()) {
                file.kind = FileKind::of_object(&take(format!("{letter}-type"), "--sym-file-types")?);
            }
        }
        Ok(TestEnvironment { files, stdin_kind, program_objects: own })
    }
}

/// The most a pipe takes before a reader reads (Linux's default pipe size): standard input as
/// a pipe is written whole before the program starts.
const PIPE_BYTES: usize = 65_536;

/// The most a terminal's line discipline holds unread in canonical mode, less the ends of file.
const TERMINAL_BYTES: usize = 4_000;

/// Ends of file written after a terminal's bytes: each read at the end returns 0 once.
const TERMINAL_EOFS: usize = 4;

/// What a run's inputs need while it runs: writers of named pipes, terminals' two sides.
/// Dropped after the run: a named pipe's writer still waiting (the program never opened it)
/// gets a reader of ours and ends; the terminals close.
#[derive(Default)]
pub struct Feeders {
    fifo_writers: Vec<(PathBuf, JoinHandle<()>)>,
    terminals: Vec<(OwnedFd, OwnedFd)>,
}

impl Feeders {
    /// Standard input of `kind` holding the bytes of the file `path` (a regular file: that file).
    pub fn stdin(&mut self, kind: FileKind, path: &Path) -> Result<Stdio> {
        if kind == FileKind::Regular {
            return Ok(Stdio::from(File::open(path).with_context(|| format!("cannot open {}", path.display()))?));
        }
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        Ok(match kind {
            FileKind::Regular => unreachable!("opened above"),
            FileKind::Pipe => {
                if bytes.len() > PIPE_BYTES {
                    bail!("standard input as a pipe holds at most {PIPE_BYTES} bytes, the test's {}", bytes.len());
                }
                let (read, write) = pipe()?;
                File::from(write).write_all(&bytes).context("cannot write standard input's pipe")?;
                Stdio::from(read)
            }
            FileKind::Terminal => {
                let (master, slave, _) = terminal(&bytes)?;
                let stdin = slave.try_clone().context("cannot duplicate a terminal")?;
                self.terminals.push((master, slave));
                Stdio::from(stdin)
            }
        })
    }

    /// Makes `path` a file of `kind` holding `bytes`.
    pub fn file(&mut self, path: &Path, kind: FileKind, bytes: &[u8]) -> Result<()> {
        match kind {
            FileKind::Regular => {
                std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
            }
            FileKind::Pipe => {
                let c_path = CString::new(path.as_os_str().as_bytes())?;
                // SAFETY: a valid NUL-terminated path.
                if unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) } != 0 {
                    return Err(std::io::Error::last_os_error())
                        .with_context(|| format!("cannot make the named pipe {}", path.display()));
                }
                let (owned_path, bytes) = (path.to_path_buf(), bytes.to_vec());
                // Opening for writing waits for the program to open it for reading.
                let writer = std::thread::spawn(move || {
                    if let Ok(mut f) = File::options().write(true).open(&owned_path) {
                        let _ = f.write_all(&bytes);
                    }
                });
                self.fifo_writers.push((path.to_path_buf(), writer));
                Ok(())
            }
            FileKind::Terminal => {
                let (master, slave, name) = terminal(bytes)?;
                std::os::unix::fs::symlink(&name, path)
                    .with_context(|| format!("cannot link {} to {}", path.display(), name.display()))?;
                self.terminals.push((master, slave));
                Ok(())
            }
        }
    }
}

impl Drop for Feeders {
    fn drop(&mut self) {
        for (path, writer) in self.fifo_writers.drain(..) {
            if !writer.is_finished() {
                let _reader = File::options().read(true).custom_flags(libc::O_NONBLOCK).open(&path);
                let _ = writer.join();
            }
        }
    }
}

/// A pipe whose ends close on exec (old and new start at once: neither may hold the other's
/// write end, or its reader never sees the end).
fn pipe() -> Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error()).context("cannot make a pipe");
    }
    // SAFETY: two fresh descriptors, owned from here on.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A pseudo-terminal holding `bytes` and then ends of file: its master and slave sides and the
/// slave's path.
fn terminal(bytes: &[u8]) -> Result<(OwnedFd, OwnedFd, PathBuf)> {
    if bytes.len() > TERMINAL_BYTES {
        bail!("a terminal holds at most {TERMINAL_BYTES} unread bytes, the test's {}", bytes.len());
    }
    // Special characters no byte of the input is: end of file, and the others' unused values.
    let mut unused = (1..=u8::MAX).filter(|b| *b != b'\n' && !bytes.contains(b));
    let (Some(eof), Some(other)) = (unused.next(), unused.next()) else {
        bail!("the test's terminal input uses every byte value: no end-of-file character is left")
    };
    let (mut master, mut slave) = (-1, -1);
    let mut name = [0 as libc::c_char; 128];
    // SAFETY: out-pointers to two ints and a name buffer larger than any pty path; no settings.
    if unsafe { libc::openpty(&mut master, &mut slave, name.as_mut_ptr(), std::ptr::null(), std::ptr::null()) } != 0 {
        return Err(std::io::Error::last_os_error()).context("cannot open a pseudo-terminal");
    }
    // SAFETY: two fresh descriptors, owned from here on.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    // SAFETY: `name` was NUL-terminated by openpty.
    let path =
        PathBuf::from(std::ffi::OsStr::from_bytes(unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }.to_bytes()));
    for fd in [&master, &slave] {
        // SAFETY: a valid descriptor; FD_CLOEXEC only.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    // SAFETY: a zeroed termios is a valid value, filled in by tcgetattr.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    // SAFETY: a valid descriptor and termios.
    if unsafe { libc::tcgetattr(slave.as_raw_fd(), &mut t) } != 0 {
        return Err(std::io::Error::last_os_error()).context("cannot read a terminal's settings");
    }
    t.c_iflag = 0;
    t.c_oflag = 0;
    t.c_lflag = libc::ICANON;
    for special in [libc::VERASE, libc::VKILL, libc::VEOL, libc::VEOL2, libc::VWERASE, libc::VREPRINT, libc::VLNEXT] {
        t.c_cc[special] = other;
    }
    t.c_cc[libc::VEOF] = eof;
    // SAFETY: a valid descriptor and termios.
    if unsafe { libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &t) } != 0 {
        return Err(std::io::Error::last_os_error()).context("cannot set a terminal's settings");
    }
    let mut input = bytes.to_vec();
    input.extend(std::iter::repeat_n(eof, TERMINAL_EOFS));
    File::from(master.try_clone()?).write_all(&input).context("cannot write to a terminal")?;
    Ok((master, slave, path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn type_objects_read_as_the_c_layer_reads_them() {
        assert_eq!(FileKind::of_object(&[1]), FileKind::Pipe);
        assert_eq!(FileKind::of_object(&[2]), FileKind::Terminal);
        assert_eq!(FileKind::of_object(&[0]), FileKind::Regular);
        assert_eq!(FileKind::of_object(&[7]), FileKind::Regular);
        assert_eq!(FileKind::of_object(&[]), FileKind::Regular);
    }

    #[test]
    fn a_terminal_gives_its_bytes_unchanged_then_end_of_file() {
        let bytes = b"a\x04b\x7f\x15\r\n\x03cd";
        let (_master, slave, path) = terminal(bytes).unwrap();
        assert!(path.starts_with("/dev/pts"), "{}", path.display());
        // SAFETY: a valid descriptor.
        assert_eq!(unsafe { libc::isatty(slave.as_raw_fd()) }, 1);
        let mut read = Vec::new();
        let mut f = File::from(slave);
        let mut buf = [0u8; 64];
        loop {
            let n = f.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            read.extend_from_slice(&buf[..n]);
        }
        assert_eq!(read, bytes, "line by line, every byte as written");
        assert_eq!(f.read(&mut buf).unwrap(), 0, "end of file again");
    }

    #[test]
    fn a_named_pipe_gives_its_bytes_to_the_program_that_opens_it() {
        let dir = tempfile::tempdir().unwrap();
        let (read_path, unread_path) = (dir.path().join("A"), dir.path().join("B"));
        let mut feeders = Feeders::default();
        feeders.file(&read_path, FileKind::Pipe, b"xyz").unwrap();
        feeders.file(&unread_path, FileKind::Pipe, b"never read").unwrap();
        let mut got = Vec::new();
        File::open(&read_path).unwrap().read_to_end(&mut got).unwrap();
        assert_eq!(got, b"xyz");
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(&std::fs::metadata(&unread_path).unwrap().file_type()));
        drop(feeders);
    }
}
