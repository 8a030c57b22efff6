//! `<string.h>`. Each function reads exactly the bytes the C function would (AddressSanitizer's
//! interceptors are the reference): `strcmp` stops at the first difference, `strchr` at the
//! character found, `memcmp` reads both ranges whole. Copies check the whole source, then the
//! whole destination, before writing, so an overflow leaves memory untouched.
//! Comparisons return the difference of the first differing bytes, as glibc's x86-64 code does.

use super::super::machine::Machine;
use super::super::stop::Fault;
use super::{Args, LibcFn, Ret};
use crate::address::memcpy_overlap;
use crate::error::ErrorKind;

pub(super) fn call(m: &mut Machine<'_>, f: LibcFn, a: &Args<'_>) -> Ret {
    let mem = &mut m.mem;
    let r = match f {
        LibcFn::Strlen => mem.strlen(a.get(0)?)?,
        LibcFn::Strnlen => mem.strnlen(a.get(0)?, a.get(1)?)?,
        LibcFn::Strcmp => compare_strings(m, a.get(0)?, a.get(1)?, u64::MAX)? as u64,
        LibcFn::Strncmp => compare_strings(m, a.get(0)?, a.get(1)?, a.get(2)?)? as u64,
        LibcFn::Strcpy => {
            let (dst, src) = (a.get(0)?, a.get(1)?);
            let n = mem.strlen(src)?;
            mem.copy(dst, src, n + 1)?;
            dst
        }
        LibcFn::Strncpy => {
            let (dst, src, n) = (a.get(0)?, a.get(1)?, a.get(2)?);
            let len = mem.strnlen(src, n)?;
            let bytes = mem.read(src, len)?.to_vec();
            let out = mem.write(dst, n)?;
            out[..bytes.len()].copy_from_slice(&bytes);
            out[bytes.len()..].fill(0);
            dst
        }
        LibcFn::Strcat => {
            let (dst, src) = (a.get(0)?, a.get(1)?);
            let (dl, sl) = (mem.strlen(dst)?, mem.strlen(src)?);
            mem.copy(dst.wrapping_add(dl), src, sl + 1)?;
            dst
        }
        LibcFn::Strncat => {
            let (dst, src, n) = (a.get(0)?, a.get(1)?, a.get(2)?);
            let dl = mem.strlen(dst)?;
            let sl = mem.strnlen(src, n)?;
            let mut bytes = mem.read(src, sl)?.to_vec();
            bytes.push(0);
            mem.write(dst.wrapping_add(dl), bytes.len() as u64)?.copy_from_slice(&bytes);
            dst
        }
        LibcFn::Strchr => {
            let (s, c) = (a.get(0)?, a.get(1)? as u8);
            let i = mem.scan(s, u64::MAX, |b| b == c || b == 0)?.unwrap_or(0);
            if mem.read(s.wrapping_add(i), 1)?[0] == c {
                s.wrapping_add(i)
            } else {
                0
            }
        }
        LibcFn::Strrchr => {
            let (s, c) = (a.get(0)?, a.get(1)? as u8);
            let n = mem.strlen(s)?;
            let bytes = mem.read(s, n + 1)?;
            bytes.iter().rposition(|&b| b == c).map_or(0, |i| s.wrapping_add(i as u64))
        }
        LibcFn::Strstr => {
            let (h, n) = (a.get(0)?, a.get(1)?);
            let hay = mem.read_cstr(h)?;
            let needle = mem.read_cstr(n)?;
            if needle.is_empty() {
                h
            } else {
                hay.windows(needle.len()).position(|w| w == needle).map_or(0, |i| h.wrapping_add(i as u64))
            }
        }
        LibcFn::Strdup | LibcFn::Strndup => {
            let s = a.get(0)?;
            let len = if f == LibcFn::Strdup { mem.strlen(s)? } else { mem.strnlen(s, a.get(1)?)? };
            let mut bytes = mem.read(s, len)?.to_vec();
            bytes.push(0);
            let p = m.malloc(bytes.len() as u64);
            if p != 0 {
                m.mem.write(p, bytes.len() as u64)?.copy_from_slice(&bytes);
            }
            p
        }
        LibcFn::Strspn | LibcFn::Strcspn => {
            let (s, set) = (a.get(0)?, a.get(1)?);
            let set = mem.read_cstr(set)?;
            let inside = f == LibcFn::Strspn;
            // Stops at the NUL or at the first byte whose membership differs.
            mem.scan(s, u64::MAX, |b| b == 0 || set.contains(&b) != inside)?.unwrap_or(0)
        }
        LibcFn::Strtok => strtok(m, a.get(0)?, a.get(1)?)?,
        LibcFn::Memcpy => {
            let (dst, src, n) = (a.get(0)?, a.get(1)?, a.get(2)?);
            if let Some(message) = memcpy_overlap(dst, src, n) {
                return Err(Fault::error(ErrorKind::MemcpyParamOverlap, message).into());
            }
            mem.copy(dst, src, n)?;
            dst
        }
        LibcFn::Memmove => {
            let dst = a.get(0)?;
            mem.copy(dst, a.get(1)?, a.get(2)?)?;
            dst
        }
        LibcFn::Memset => {
            let (dst, c, n) = (a.get(0)?, a.get(1)? as u8, a.get(2)?);
            mem.write(dst, n)?.fill(c);
            dst
        }
        LibcFn::Memcmp => {
            let (p, q, n) = (a.get(0)?, a.get(1)?, a.get(2)?);
            let left = mem.read(p, n)?.to_vec();
            let right = mem.read(q, n)?;
            left.iter().zip(right).find(|(x, y)| x != y).map_or(0, |(&x, &y)| i32::from(x) - i32::from(y)) as u64
        }
        LibcFn::Memchr => {
            let (s, c, n) = (a.get(0)?, a.get(1)? as u8, a.get(2)?);
            mem.scan(s, n, |b| b == c)?.map_or(0, |i| s.wrapping_add(i))
        }
        _ => unreachable!("{f:?} is not a string function"),
    };
    Ok(Some(r))
}

/// `strncmp(p, q, max)` (`strcmp` with `max = u64::MAX`): compares chunk by chunk, each chunk as
/// long as both objects allow, so the bytes read end at the first difference or NUL.
fn compare_strings(m: &mut Machine<'_>, p: u64, q: u64, max: u64) -> Result<i32, Fault> {
    let mem = &mut m.mem;
    let mut done = 0u64;
    while done < max {
        let (pa, qa) = (p.wrapping_add(done), q.wrapping_add(done));
        let n = mem.readable_len(pa)?.min(mem.readable_len(qa)?).min(max - done);
        let left = mem.read(pa, n)?.to_vec();
        let right = mem.read(qa, n)?;
        for (&x, &y) in left.iter().zip(right) {
            if x != y {
                return Ok(i32::from(x) - i32::from(y));
            }
            if x == 0 {
                return Ok(0);
            }
        }
        done += n;
    }
    Ok(0)
}

/// `strtok(s, delim)` as glibc: skip delimiters, end the token with a NUL, remember where to go
/// on. `strtok(NULL, ...)` before any string reads through NULL, as it does natively.
fn strtok(m: &mut Machine<'_>, s: u64, delim: u64) -> Result<u64, Fault> {
    let start = if s != 0 { s } else { m.strtok_next };
    let delims = m.mem.read_cstr(delim)?;
    let mem = &mut m.mem;
    let skip = mem.scan(start, u64::MAX, |b| b == 0 || !delims.contains(&b))?.unwrap_or(0);
    let token = start.wrapping_add(skip);
    if mem.read(token, 1)?[0] == 0 {
        m.strtok_next = token;
        return Ok(0);
    }
    let len = mem.scan(token, u64::MAX, |b| b == 0 || delims.contains(&b))?.unwrap_or(0);
    let end = token.wrapping_add(len);
    if mem.read(end, 1)?[0] == 0 {
        m.strtok_next = end;
    } else {
        mem.write(end, 1)?[0] = 0;
        m.strtok_next = end.wrapping_add(1);
    }
    Ok(token)
}
