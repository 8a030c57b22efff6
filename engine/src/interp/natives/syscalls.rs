//! `__penumbra_syscall` in the symbolic engine (programs linked with musl). Reads of standard
//! input copy the `--sym-stdin` byte terms into the buffer (so the program forks where musl's
//! stdio or the program branches on them); writes to stdout and stderr are read (bounds
//! checked) and, in shadow execution, observed as text, like `fwrite` (recorded inside an
//! execute block's side, `shadow::block_output`); the status of `exit`
//! and `exit_group` is observed as `exit`'s is. Descriptors, counts and iovec entries are fixed
//! to one value (`symbolic::concretize`). The rest is
//! [`crate::libc::syscall`]'s answer, shared with the concrete interpreter.

use super::{Model, NativeCall};
use crate::address::Access;
use crate::error::ErrorKind;
use crate::libc::stdio::Stream;
use crate::libc::syscall::{self, errno, Syscall};
use crate::run_error::RunError;
use crate::shadow::block_output::Piece;
use crate::shadow::Shadow;
use crate::symbolic::access::Resolver;
use crate::symbolic::access::Target;
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::Flow;
use crate::symbolic::state::{Ending, ExecMode};
use penumbra_solver::TermId;

impl NativeCall<'_, '_> {
    /// Runs the system call `__penumbra_kernel(n, a1, ..., a6)`.
    pub(super) fn syscall(&mut self) -> Model {
        let a = self.args;
        if a.len() != 7 {
            return Ok(Err(Flow::End(Box::new(
                self.cx.unsupported(self.st, "__penumbra_syscall without 7 arguments"),
            ))));
        }
        let n = self.cx.concretize(self.st, a[0], Fixed::Value)?;
        let Some(call) = syscall::classify(n) else {
            return Ok(Err(Flow::End(Box::new(self.cx.unsupported(self.st, syscall::name(n))))));
        };
        let mut word = [n, 0, 0, 0, 0, 0, 0];
        // Every argument but the buffers' contents is fixed; not the exit status, which is
        // output: fixing a value with a shadow makes the versions agree on it where they can,
        // which would hide the divergence `exit_status` observes.
        if call != Syscall::Exit {
            for (w, &t) in word.iter_mut().zip(a).skip(1) {
                *w = self.cx.concretize(self.st, t, Fixed::Value)?;
            }
        }
        let result = |call: &mut Self, v: i64| Ok(Ok(Some(call.cx.store.constant(64, v as u64))));
        match call {
            Syscall::Exit => Ok(Err(Flow::End(Box::new(Ending::Exit(self.exit_status(a[1])?))))),
            Syscall::Fixed(r) => result(self, r),
            Syscall::Signal { sig_arg } => {
                let ending = match syscall::signal_end(n, word[1], word[sig_arg]) {
                    Ok(abort) => self.cx.error(self.st, ErrorKind::Abort, abort),
                    Err(unsupported) => self.cx.unsupported(self.st, unsupported),
                };
                Ok(Err(Flow::End(Box::new(ending))))
            }
            Syscall::OnStdStream { ok } if syscall::is_std_stream(word[1]) => result(self, ok),
            Syscall::OnStdStream { .. } => result(self, -errno::EBADF),
            Syscall::Lseek => match word[1] {
                0 => {
                    let len = self.st.stdin.bytes.len() as u64;
                    match syscall::seek(self.st.stdin.pos as u64, len, word[2] as i64, word[3]) {
                        Ok(to) => {
                            self.st.stdin.pos = to as usize;
                            result(self, to as i64)
                        }
                        Err(e) => result(self, e),
                    }
                }
                1 | 2 => result(self, -errno::ESPIPE),
                _ => result(self, -errno::EBADF),
            },
            Syscall::ClockGettime => {
                let zeros: Vec<TermId> = (0..16).map(|_| self.cx.store.constant(8, 0)).collect();
                match Resolver::new(self.cx).resolve(self.st, self.inst, a[2], 16, Access::Write)? {
                    Target::Obj(obj, off) => {
                        let off = self.const_offset(off)?;
                        self.st.mem.write_bytes(obj, off, &zeros);
                        result(self, 0)
                    }
                    Target::Flow(flow) => Ok(Err(flow)),
                }
            }
            Syscall::Write | Syscall::Writev => {
                if !matches!(word[1], 1 | 2) {
                    return result(self, -errno::EBADF);
                }
                let buffers = match self.buffers(call == Syscall::Writev, &word)? {
                    Ok(b) => b,
                    Err(flow) => return Ok(Err(flow)),
                };
                let mut total = 0u64;
                for (base, len) in buffers {
                    let (obj, off) =
                        match Resolver::new(self.cx).resolve(self.st, self.inst, base, len, Access::Read)? {
                            Target::Obj(o, off) => (o, off),
                            Target::Flow(flow) => return Ok(Err(flow)),
                        };
                    if self.st.mode == ExecMode::Both || Shadow::records_output(self.st) {
                        let off = self.const_offset(off)?;
                        let bytes = self.st.mem.bytes(obj, off, len);
                        Shadow::new(self.cx).observe_text(self.st, self.inst, &bytes, false)?;
                        let stream = if word[1] == 1 { Stream::Stdout } else { Stream::Stderr };
                        Shadow::new(self.cx).record(self.st, stream, Piece::Bytes(bytes));
                    }
                    total += len;
                }
                result(self, total as i64)
            }
            Syscall::Read | Syscall::Readv => {
                if word[1] != 0 {
                    return result(self, -errno::EBADF);
                }
                let buffers = match self.buffers(call == Syscall::Readv, &word)? {
                    Ok(b) => b,
                    Err(flow) => return Ok(Err(flow)),
                };
                let mut total = 0u64;
                for (base, len) in buffers {
                    let available = self.st.stdin.bytes.len().saturating_sub(self.st.stdin.pos) as u64;
                    let k = len.min(available);
                    if k > 0 {
                        let (obj, off) =
                            match Resolver::new(self.cx).resolve(self.st, self.inst, base, k, Access::Write)? {
                                Target::Obj(o, off) => (o, off),
                                Target::Flow(flow) => return Ok(Err(flow)),
                            };
                        let off = self.const_offset(off)?;
                        let from = self.st.stdin.pos;
                        let bytes = self.st.stdin.bytes[from..from + k as usize].to_vec();
                        self.st.mem.write_bytes(obj, off, &bytes);
                        self.st.stdin.pos += k as usize;
                    }
                    total += k;
                    if k < len {
                        break;
                    }
                }
                result(self, total as i64)
            }
        }
    }

    /// The (address term, length) buffers of a read or write: one, or the iovec array of
    /// `readv`/`writev` (its entries fixed to their model values).
    fn buffers(&mut self, vector: bool, word: &[u64; 7]) -> Result<Result<Vec<(TermId, u64)>, Flow>, RunError> {
        let a = self.args;
        if !vector {
            let len = word[3];
            return Ok(Ok(if len == 0 { Vec::new() } else { vec![(a[2], len)] }));
        }
        let count = word[3];
        if count > 1024 {
            return Ok(Err(Flow::End(Box::new(
                self.cx.unsupported(self.st, format!("an iovec array of {count} buffers")),
            ))));
        }
        if count == 0 {
            return Ok(Ok(Vec::new()));
        }
        let (obj, off) = match Resolver::new(self.cx).resolve(self.st, self.inst, a[2], 16 * count, Access::Read)? {
            Target::Obj(o, off) => (o, off),
            Target::Flow(flow) => return Ok(Err(flow)),
        };
        let off = self.const_offset(off)?;
        let bytes = self.st.mem.bytes(obj, off, 16 * count);
        let mut out = Vec::with_capacity(count as usize);
        for entry in bytes.chunks(16) {
            let base = self.le_word(&entry[..8]);
            let len = self.le_word(&entry[8..]);
            let len = self.cx.concretize(self.st, len, Fixed::Size)?;
            if len > 0 {
                out.push((base, len));
            }
        }
        Ok(Ok(out))
    }

    /// The 64-bit little-endian value of 8 byte terms.
    fn le_word(&mut self, bytes: &[TermId]) -> TermId {
        let mut t = bytes[7];
        for &b in bytes[..7].iter().rev() {
            t = self.cx.store.concat(t, b);
        }
        t
    }
}
