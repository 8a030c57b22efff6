//! `__penumbra_syscall` on concrete memory: the standard streams' reads and writes go to the
//! run's standard input and captured output; the rest is [`crate::libc::syscall`]'s answer.

use super::super::machine::{Machine, Stream};
use super::super::stop::{Fault, Stop};
use super::Args;
use crate::error::ErrorKind;
use crate::libc::syscall::{self, errno, Syscall};

pub(super) fn call(m: &mut Machine<'_>, a: &Args<'_>) -> Result<Option<u64>, Stop> {
    let n = a.get(0)?;
    let Some(call) = syscall::classify(n) else {
        return Err(Fault::unsupported(syscall::name(n)).into());
    };
    let neg = |e: i64| (-e) as u64;
    let r = match call {
        Syscall::Exit => return Err(m.exit(a.get(1)?, true)),
        Syscall::Fixed(r) => r as u64,
        Syscall::Signal { sig_arg } => {
            return Err(match syscall::signal_end(n, a.get(1)?, a.get(sig_arg)?) {
                Ok(abort) => Fault::error(ErrorKind::Abort, abort),
                Err(unsupported) => Fault::unsupported(unsupported),
            }
            .into());
        }
        Syscall::OnStdStream { ok } if syscall::is_std_stream(a.get(1)?) => ok as u64,
        Syscall::OnStdStream { .. } => neg(errno::EBADF),
        Syscall::Lseek => match Stream::of_fd(a.get(1)?) {
            Some(Stream::Stdin) => {
                match syscall::seek(m.stdin_pos as u64, m.stdin.len() as u64, a.get(2)? as i64, a.get(3)?) {
                    Ok(to) => {
                        m.stdin_pos = to as usize;
                        to
                    }
                    Err(e) => e as u64,
                }
            }
            Some(_) => neg(errno::ESPIPE),
            None => neg(errno::EBADF),
        },
        Syscall::ClockGettime => {
            m.mem.write(a.get(2)?, 16)?.fill(0);
            0
        }
        Syscall::Write | Syscall::Writev => {
            let Some(stream) = Stream::of_fd(a.get(1)?) else { return Ok(Some(neg(errno::EBADF))) };
            let mut total = 0u64;
            for (base, len) in buffers(m, call == Syscall::Writev, a)? {
                let bytes = m.mem.read(base, len)?.to_vec();
                match m.output(stream) {
                    Some(out) => out.extend_from_slice(&bytes),
                    None => return Ok(Some(neg(errno::EBADF))),
                }
                total += len;
            }
            total
        }
        Syscall::Read | Syscall::Readv => {
            if Stream::of_fd(a.get(1)?) != Some(Stream::Stdin) {
                return Ok(Some(neg(errno::EBADF)));
            }
            let mut total = 0u64;
            for (base, len) in buffers(m, call == Syscall::Readv, a)? {
                let available = m.stdin.len().saturating_sub(m.stdin_pos) as u64;
                let k = len.min(available);
                if k > 0 {
                    let from = m.stdin_pos;
                    let bytes = m.stdin[from..from + k as usize].to_vec();
                    m.mem.write(base, k)?.copy_from_slice(&bytes);
                    m.stdin_pos += k as usize;
                }
                total += k;
                if k < len {
                    break;
                }
            }
            total
        }
    };
    Ok(Some(r))
}

/// The (address, length) buffers of a read or write: one, or `readv`/`writev`'s iovec array.
fn buffers(m: &mut Machine<'_>, vector: bool, a: &Args<'_>) -> Result<Vec<(u64, u64)>, Stop> {
    if !vector {
        return Ok(vec![(a.get(2)?, a.get(3)?)]);
    }
    let (iov, count) = (a.get(2)?, a.get(3)?);
    if count > 1024 {
        return Err(Fault::unsupported(format!("an iovec array of {count} buffers")).into());
    }
    let raw = m.mem.read(iov, 16 * count)?.to_vec();
    Ok(raw
        .chunks(16)
        .map(|c| {
            let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
            (word(&c[..8]), word(&c[8..]))
        })
        .filter(|&(_, len)| len > 0)
        .collect())
}
