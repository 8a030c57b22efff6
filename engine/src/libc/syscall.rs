//! The system calls of a program linked with musl (`--libc musl`), shared by the concrete
//! interpreter and the symbolic engine: musl's arch layer turns every system call into
//! `__penumbra_syscall(n, a1, ..., a6)` (`runtime/musl/arch/syscall_arch.h`); the C layer
//! `runtime/musl/penumbra_posix.c` answers those on the symbolic files (`--sym-files`) and
//! passes the rest to the engine's `__penumbra_kernel`, which this module describes. The I/O
//! calls on the three standard streams are carried out by each engine on its own memory
//! (standard input is a regular file of the `--sym-stdin` bytes, as native replay gives it);
//! everything else has a fixed answer here: a process alone in its machine, with a fixed pid
//! and uid, no host files, no memory from the kernel (the engine's allocator serves `malloc`),
//! time standing at 0. A call not listed ends the path as unsupported, naming the call.

/// The engine's system call entry point (the C layer's fallback).
pub const ENTRY: &str = "__penumbra_kernel";

/// The native that tells the C layer the `--sym-files` option, `COUNT << 32 | SIZE`, and
/// `--sym-file-types` ([`FILE_TYPES_BIT`]).
pub const SYM_FILES: &str = "__penumbra_sym_files";

/// The native behind musl's `aligned_alloc` (runtime/musl/penumbra_alloc.c checks the
/// arguments and sets `errno`): `(align, size)`, a power-of-two alignment, to a fresh heap
/// block or NULL.
pub const ALIGNED_ALLOC: &str = "__penumbra_aligned_alloc";

/// The native that hands musl's `exit` (runtime/musl/penumbra_start.c) the program's
/// destructors: `(i)` to the address of the `i`-th (in the order the engines run them without a
/// C library), or NULL after the last.
pub const DESTRUCTOR: &str = "__penumbra_destructor";

/// The process id and thread id every run sees.
pub const PID: u64 = 1000;

/// Linux error numbers, returned negated as the kernel does.
pub mod errno {
    pub const ENOENT: i64 = 2;
    pub const EBADF: i64 = 9;
    pub const ENOMEM: i64 = 12;
    pub const EINVAL: i64 = 22;
    pub const ENOTTY: i64 = 25;
    pub const ESPIPE: i64 = 29;
    pub const ENOSYS: i64 = 38;
}

/// What a system call does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Syscall {
    /// `read(fd, buf, n)`.
    Read,
    /// `write(fd, buf, n)`.
    Write,
    /// `readv(fd, iov, count)`.
    Readv,
    /// `writev(fd, iov, count)`.
    Writev,
    /// `exit`, `exit_group`: the path ends with the status.
    Exit,
    /// `clock_gettime(clock, ts)`: writes 0 s, 0 ns.
    ClockGettime,
    /// Answered without looking at memory: the result (negative for an error).
    Fixed(i64),
    /// `close(fd)`, `fcntl(fd, ...)`, `fadvise64(fd, ...)`: on a standard stream `ok`, else
    /// EBADF.
    OnStdStream { ok: i64 },
    /// `lseek(fd, offset, whence)`: standard input moves over its bytes; stdout and stderr
    /// do not seek (ESPIPE).
    Lseek,
    /// `kill(pid, sig)`, `tkill(tid, sig)`, `tgkill(tgid, tid, sig)`: the signal is argument
    /// `sig_arg`. SIGABRT to the process ends the path with an `abort` error (musl's `abort`
    /// raises it); any other signal is not modelled.
    Signal { sig_arg: usize },
}

/// The signal `abort` raises.
const SIGABRT: u64 = 6;

/// How a path ends that sends signal `sig` to `target` by system call `n` ([`Syscall::Signal`]):
/// `Ok` with the message of an `abort` error for SIGABRT to the process (musl's `abort`), else
/// `Err` with the message of an unsupported call.
pub fn signal_end(n: u64, target: u64, sig: u64) -> Result<&'static str, String> {
    if sig == SIGABRT && target == PID {
        Ok("abort() called (SIGABRT)")
    } else {
        Err(format!("{} of signal {sig}", name(n)))
    }
}

/// The standard streams' descriptors.
pub fn is_std_stream(fd: u64) -> bool {
    (fd as i64 as i32) >= 0 && (fd as i64 as i32) <= 2
}

/// What system call `n` does, or `None` for one the environment does not model.
pub fn classify(n: u64) -> Option<Syscall> {
    use errno::*;
    use Syscall::*;
    Some(match n {
        0 => Read,
        1 => Write,
        19 => Readv,
        20 => Writev,
        60 | 231 => Exit,
        228 => ClockGettime,
        3 | 72 | 221 => OnStdStream { ok: 0 },
        8 => Lseek,
        // open, openat, stat, lstat, access, newfstatat, faccessat, faccessat2: no host files.
        2 | 257 | 4 | 6 | 21 | 262 | 269 | 439 => Fixed(-ENOENT),
        // getrandom: a kernel without it (no entropy in a deterministic run; gnulib and musl
        // fall back to their own deterministic sources).
        318 => Fixed(-ENOSYS),
        // sched_getaffinity: none (musl's sysconf then counts one processor, gnulib's nproc too).
        204 => Fixed(-ENOSYS),
        // sysinfo: none (musl's sysconf(_SC_PHYS_PAGES) then reads its zeroed struct: no
        // memory; sort's default_sort_size falls back to its minimum buffer).
        99 => Fixed(-ENOSYS),
        16 => Fixed(-ENOTTY),
        // prlimit64, getrlimit, setrlimit: no resource limits to read or set (sort's
        // default_sort_size then sizes its buffer from physical memory alone).
        302 | 97 | 160 => Fixed(-EINVAL),
        // mmap, munmap, brk, mremap, madvise: the heap is the engine's.
        9 | 11 | 12 | 25 | 28 => Fixed(-ENOMEM),
        // rt_sigaction, rt_sigprocmask, sched_yield
        13 | 14 | 24 => Fixed(0),
        62 | 200 => Signal { sig_arg: 2 },
        234 => Signal { sig_arg: 3 },
        // getpid, gettid, getppid
        39 | 186 => Fixed(PID as i64),
        110 => Fixed(1),
        // getuid, getgid, geteuid, getegid
        102 | 104 | 107 | 108 => Fixed(0),
        // set_tid_address
        218 => Fixed(PID as i64),
        _ => return None,
    })
}

/// The bit of `__penumbra_sym_files`'s answer that says `--sym-file-types`: standard input
/// and the files are regular files, pipes or terminals as their objects (`stdin-type`,
/// `A-type`, ...) say.
pub const FILE_TYPES_BIT: u64 = 1 << 63;

/// The `--sym-files COUNT SIZE` and `--sym-file-types` options as `__penumbra_sym_files`
/// returns them.
pub fn pack_sym_files(files: Option<(u32, u32)>, types: bool) -> u64 {
    let files = files.map_or(0, |(count, size)| (u64::from(count) << 32) | u64::from(size));
    files | if types { FILE_TYPES_BIT } else { 0 }
}

/// Standard input's new position after `lseek(0, offset, whence)` over `len` bytes from `pos`,
/// or the negated error.
pub fn seek(pos: u64, len: u64, offset: i64, whence: u64) -> Result<u64, i64> {
    let base = match whence {
        0 => 0,
        1 => pos as i64,
        2 => len as i64,
        _ => return Err(-errno::EINVAL),
    };
    match base.checked_add(offset) {
        Some(to) if to >= 0 => Ok(to as u64),
        _ => Err(-errno::EINVAL),
    }
}

/// A system call's name, for messages.
pub fn name(n: u64) -> String {
    let known = match n {
        0 => "read",
        1 => "write",
        2 => "open",
        3 => "close",
        4 => "stat",
        5 => "fstat",
        6 => "lstat",
        7 => "poll",
        8 => "lseek",
        9 => "mmap",
        16 => "ioctl",
        19 => "readv",
        20 => "writev",
        21 => "access",
        32 => "dup",
        33 => "dup2",
        56 => "clone",
        57 => "fork",
        59 => "execve",
        61 => "wait4",
        62 => "kill",
        200 => "tkill",
        234 => "tgkill",
        72 => "fcntl",
        79 => "getcwd",
        89 => "readlink",
        97 => "getrlimit",
        160 => "setrlimit",
        302 => "prlimit64",
        96 => "gettimeofday",
        201 => "time",
        217 => "getdents64",
        257 => "openat",
        262 => "newfstatat",
        269 => "faccessat",
        204 => "sched_getaffinity",
        99 => "sysinfo",
        318 => "getrandom",
        439 => "faccessat2",
        _ => return format!("system call {n}"),
    };
    format!("system call {known} ({n})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_streams_are_0_1_2() {
        assert!(is_std_stream(0) && is_std_stream(2));
        assert!(!is_std_stream(3) && !is_std_stream(-1i64 as u64));
    }

    #[test]
    fn unmodelled_calls_are_named() {
        assert_eq!(classify(56), None);
        assert_eq!(name(56), "system call clone (56)");
        assert_eq!(classify(231), Some(Syscall::Exit));
        assert_eq!(classify(2), Some(Syscall::Fixed(-errno::ENOENT)));
        assert_eq!(classify(439), Some(Syscall::Fixed(-errno::ENOENT)), "faccessat2: no host files");
        assert_eq!(classify(318), Some(Syscall::Fixed(-errno::ENOSYS)), "getrandom: no entropy");
        assert_eq!(classify(302), Some(Syscall::Fixed(-errno::EINVAL)), "prlimit64: no limits (sort)");
        assert_eq!(classify(99), Some(Syscall::Fixed(-errno::ENOSYS)), "sysinfo: none (sort's physmem)");
        assert_eq!(name(99), "system call sysinfo (99)");
        assert_eq!(name(302), "system call prlimit64 (302)");
    }

    #[test]
    fn the_options_pack_for_the_c_layer() {
        assert_eq!(pack_sym_files(None, false), 0);
        assert_eq!(pack_sym_files(Some((2, 8)), false), (2 << 32) | 8);
        assert_eq!(pack_sym_files(Some((2, 8)), true), FILE_TYPES_BIT | (2 << 32) | 8);
        assert_eq!(pack_sym_files(None, true), FILE_TYPES_BIT);
    }

    #[test]
    fn standard_input_seeks_like_a_regular_file() {
        assert_eq!(seek(3, 8, 0, 2), Ok(8));
        assert_eq!(seek(3, 8, -2, 1), Ok(1));
        assert_eq!(seek(3, 8, 12, 0), Ok(12), "past the end, as the kernel allows");
        assert_eq!(seek(3, 8, -4, 1), Err(-errno::EINVAL));
        assert_eq!(seek(3, 8, 0, 7), Err(-errno::EINVAL));
    }
}
