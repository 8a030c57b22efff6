//! The three standard streams, as both interpreters model `<stdio.h>` and the system calls on
//! them: which stream a descriptor designates (a `FILE *` is looked up by
//! [`Runtime::stream`](crate::address::Runtime::stream)), and the values the calls return.

/// `EOF`, the C `int` -1, as a call's 32-bit result.
pub const EOF: u64 = 0xffff_ffff;

/// A standard stream.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdin,
    Stdout,
    Stderr,
}

impl Stream {
    /// The stream of the file descriptor `fd`, if it is one of the three.
    pub fn of_fd(fd: u64) -> Option<Stream> {
        match fd {
            0 => Some(Stream::Stdin),
            1 => Some(Stream::Stdout),
            2 => Some(Stream::Stderr),
            _ => None,
        }
    }
}

/// What `fwrite(p, size, count, stream)` returns once its bytes are read: the items written,
/// `EOF` on `stdin` (read-only).
pub fn fwrite_result(stream: Stream, size: u64, count: u64) -> u64 {
    match stream {
        Stream::Stdin => EOF,
        _ if size == 0 => 0,
        _ => count,
    }
}
