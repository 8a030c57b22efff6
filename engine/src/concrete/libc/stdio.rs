//! `<stdio.h>` on the three standard streams: formatted output through the shared
//! [`printf`](crate::libc::printf) formatter, character and string output, and reads from the
//! run's configured standard input. Output is captured per stream, never printed.

use super::super::machine::{Machine, Stream};
use super::super::stop::Fault;
use super::{Args, LibcFn, Ret};
use crate::error::ErrorKind;
use crate::libc::printf::{self, PrintfArgs, VarArgList};
use crate::libc::stdio::{fwrite_result, EOF};

pub(super) fn call(m: &mut Machine<'_>, f: LibcFn, a: &Args<'_>) -> Ret {
    let r = match f {
        LibcFn::Printf => {
            let text = format(m, a, 0, true)?;
            m.stdout.extend_from_slice(&text);
            text.len() as u64
        }
        LibcFn::Fprintf => {
            let stream = m.stream(a.get(0)?)?;
            let text = format(m, a, 1, true)?;
            emit(m, stream, &text, text.len() as u64)
        }
        LibcFn::Sprintf => {
            let buf = a.get(0)?;
            let mut text = format(m, a, 1, false)?;
            let n = text.len() as u64;
            text.push(0);
            m.mem.write(buf, text.len() as u64)?.copy_from_slice(&text);
            n
        }
        LibcFn::Snprintf => {
            let (buf, size) = (a.get(0)?, a.get(1)?);
            let mut text = format(m, a, 2, false)?;
            let n = text.len() as u64;
            if size > 0 {
                text.truncate(usize::try_from(size - 1).unwrap_or(usize::MAX));
                text.push(0);
                m.mem.write(buf, text.len() as u64)?.copy_from_slice(&text);
            }
            n
        }
        LibcFn::Puts => {
            let mut s = m.mem.read_cstr(a.get(0)?)?;
            s.push(b'\n');
            m.stdout.extend_from_slice(&s);
            s.len() as u64
        }
        LibcFn::Putchar => {
            let c = a.get(0)? as u8;
            m.observe(u64::from(c));
            m.stdout.push(c);
            u64::from(c)
        }
        LibcFn::Fputs => {
            let s = m.mem.read_cstr(a.get(0)?)?;
            let stream = m.stream(a.get(1)?)?;
            emit(m, stream, &s, 1)
        }
        LibcFn::Fputc => {
            let c = a.get(0)? as u8;
            let stream = m.stream(a.get(1)?)?;
            if stream != Stream::Stdin {
                m.observe(u64::from(c));
            }
            emit(m, stream, &[c], u64::from(c))
        }
        LibcFn::Fwrite => {
            let (ptr, size, count) = (a.get(0)?, a.get(1)?, a.get(2)?);
            let stream = m.stream(a.get(3)?)?;
            let Some(total) = size.checked_mul(count) else {
                return Err(Fault::error(ErrorKind::OutOfBoundsRead, "fwrite of more bytes than memory holds").into());
            };
            let bytes = m.mem.read(ptr, total)?.to_vec();
            emit(m, stream, &bytes, fwrite_result(stream, size, count))
        }
        LibcFn::Fflush => 0,
        LibcFn::Getchar => m.getc().map_or(EOF, u64::from),
        LibcFn::Fgetc => match m.stream(a.get(0)?)? {
            Stream::Stdin => m.getc().map_or(EOF, u64::from),
            Stream::Stdout | Stream::Stderr => EOF,
        },
        LibcFn::Fgets => fgets(m, a)?,
        _ => unreachable!("{f:?} is not a stdio function"),
    };
    Ok(Some(r))
}

/// Appends `bytes` to an output stream and returns `ok`, or `EOF` for `stdin`.
fn emit(m: &mut Machine<'_>, stream: Stream, bytes: &[u8], ok: u64) -> u64 {
    match m.output(stream) {
        Some(out) => {
            out.extend_from_slice(bytes);
            ok
        }
        None => EOF,
    }
}

/// `fgets(buf, n, stream)`: up to `n - 1` bytes of standard input, through the first newline.
fn fgets(m: &mut Machine<'_>, a: &Args<'_>) -> Result<u64, Fault> {
    let (buf, n) = (a.get(0)?, a.int(1)?);
    if m.stream(a.get(2)?)? != Stream::Stdin || n <= 0 {
        return Ok(0);
    }
    let mut line = Vec::new();
    while line.len() + 1 < n as usize {
        let Some(b) = m.getc() else { break };
        line.push(b);
        if b == b'\n' {
            break;
        }
    }
    if line.is_empty() && n > 1 {
        return Ok(0);
    }
    line.push(0);
    m.mem.write(buf, line.len() as u64)?.copy_from_slice(&line);
    Ok(buf)
}

/// Formats the call's format string (argument `fmt_index`) with the arguments after it;
/// `printed`: the text goes to a stream, so the numbers in it are observed.
fn format(m: &mut Machine<'_>, a: &Args<'_>, fmt_index: usize, printed: bool) -> Result<Vec<u8>, Fault> {
    let fmt = m.mem.read_cstr(a.get(fmt_index)?)?;
    let mut out = Vec::with_capacity(fmt.len() + 16);
    let mut args = VarArgs { m, list: VarArgList::new(a.name, &a.values[fmt_index + 1..]), printed };
    printf::format(&fmt, &mut args, &mut out)?;
    Ok(out)
}

/// The variadic arguments of a `printf`-family call, read in order.
struct VarArgs<'x, 'a> {
    m: &'x mut Machine<'a>,
    list: VarArgList<'x, u128>,
    printed: bool,
}

impl PrintfArgs for VarArgs<'_, '_> {
    type Error = Fault;

    fn next_arg(&mut self) -> Result<u64, Fault> {
        let v = self.next_value()?;
        if self.printed {
            self.m.observe(v);
        }
        Ok(v)
    }

    fn next_string(&mut self) -> Result<u64, Fault> {
        self.next_value()
    }

    fn next_float(&mut self, long: bool) -> Result<u128, Fault> {
        let v = self.next_wide()?;
        let v = if long { v & ((1 << 80) - 1) } else { v & u128::from(u64::MAX) };
        if self.printed {
            self.m.observe(v as u64);
        }
        Ok(v)
    }

    fn string(&mut self, addr: u64, max: Option<u64>, out: &mut Vec<u8>) -> Result<(), Fault> {
        let len = match max {
            None => self.m.mem.strlen(addr)?,
            Some(max) => self.m.mem.strnlen(addr, max)?,
        };
        out.extend_from_slice(self.m.mem.read(addr, len)?);
        Ok(())
    }

    fn unsupported(&mut self, what: String) -> Fault {
        Fault::Unsupported(what)
    }
}

impl VarArgs<'_, '_> {
    fn next_value(&mut self) -> Result<u64, Fault> {
        self.next_wide().map(|v| v as u64)
    }

    fn next_wide(&mut self) -> Result<u128, Fault> {
        self.list.take().map_err(|message| Fault::error(ErrorKind::InvalidCall, message))
    }
}
