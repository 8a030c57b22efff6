//! The process state outside the call stack: memory, the standard streams and the few runtime
//! objects the C library needs (`FILE` handles, `errno`, the `<ctype.h>` tables). The modelled library functions
//! operate on a [`Machine`] alone; they never see frames.

use super::memory::Memory;
use super::stop::{Fault, Stop};
use crate::address::{Origin, Runtime, Segment};
use crate::libc::rand::GlibcRand;
pub use crate::libc::stdio::Stream;

/// `errno` values the library models set.
pub const EINVAL: u64 = 22;
pub const ERANGE: u64 = 34;

pub struct Machine<'a> {
    pub mem: Memory<'a>,
    pub runtime: Runtime,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub stdin: &'a [u8],
    pub stdin_pos: usize,
    /// The `--sym-files` option for the C layer of musl programs: `COUNT << 32 | SIZE`.
    pub sym_files: u64,
    /// The source line of the instruction executing, for heap objects' origins.
    pub line: u32,
    /// `rand()`'s state.
    pub rand: GlibcRand,
    /// Where `strtok(NULL, ...)` continues (0: nowhere).
    pub strtok_next: u64,
    /// Whether the run is traced: then the values the user sees are kept in `observed` (see
    /// [`TraceEvent::Output`](super::TraceEvent::Output)) until the interpreter takes them.
    pub tracing: bool,
    pub observed: Vec<u64>,
    /// The last `exit` was `_exit` or `_Exit`: no handlers run.
    pub quick_exit: bool,
}

impl<'a> Machine<'a> {
    pub fn new(mem: Memory<'a>, runtime: Runtime, stdin: &'a [u8]) -> Self {
        Machine {
            mem,
            runtime,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stdin,
            stdin_pos: 0,
            sym_files: 0,
            line: 0,
            rand: GlibcRand::default(),
            tracing: false,
            observed: Vec::new(),
            quick_exit: false,
            strtok_next: 0,
        }
    }

    /// A value the user sees (an exit status, a printed number or character), kept for the
    /// trace.
    pub fn observe(&mut self, value: u64) {
        if self.tracing {
            self.observed.push(value);
        }
    }

    /// Ends the process with `status` (its low byte, which the user sees: observed);
    /// `quick`: without `atexit` handlers and destructors (`_exit`, the exit system call).
    pub fn exit(&mut self, status: u64, quick: bool) -> Stop {
        let status = status & 0xff;
        self.observe(status);
        self.quick_exit = quick;
        Stop::Exit(status as i32)
    }

    /// The stream a `FILE *` designates; other streams (from `fopen`, say) are not modelled.
    pub fn stream(&self, file: u64) -> Result<Stream, Fault> {
        self.runtime.stream(file).map_err(Fault::Unsupported)
    }

    /// The buffer an output stream writes to; writing to `stdin` fails like a read-only stream
    /// (the C function returns `EOF`).
    pub fn output(&mut self, stream: Stream) -> Option<&mut Vec<u8>> {
        match stream {
            Stream::Stdout => Some(&mut self.stdout),
            Stream::Stderr => Some(&mut self.stderr),
            Stream::Stdin => None,
        }
    }

    /// The next byte of standard input, or `None` at end of file.
    pub fn getc(&mut self) -> Option<u8> {
        let b = self.stdin.get(self.stdin_pos).copied()?;
        self.stdin_pos += 1;
        Some(b)
    }

    /// A fresh zeroed heap block of `size` bytes, or 0 (NULL) when the heap budget is spent.
    /// `malloc(0)` returns a unique pointer to a 0-byte block.
    pub fn malloc(&mut self, size: u64) -> u64 {
        self.aligned_alloc(size, 16)
    }

    /// A fresh zeroed heap block of `size` bytes aligned to `align` (a power of two), or 0.
    pub fn aligned_alloc(&mut self, size: u64, align: u64) -> u64 {
        let origin = Origin::Heap { line: self.line };
        match self.mem.allocate(Segment::Heap, size, align, origin) {
            Some(id) => self.mem.object(id).base,
            None => 0,
        }
    }

    /// Sets `errno`.
    pub fn set_errno(&mut self, value: u64) -> Result<(), Fault> {
        self.mem.store(self.runtime.errno, 4, u128::from(value))
    }
}
