//! `<stdlib.h>` and friends: the heap (`malloc`, `calloc`, `realloc`, `free`), ending the
//! process (`exit`, `abort`, `__assert_fail`), number parsing (`atoi`, `strtol`
//! and their siblings, through the shared [`strtol`](crate::libc::strtol) parser), `abs`,
//! `errno`'s location, and glibc's `rand`/`srand`.

use super::super::machine::{Machine, EINVAL, ERANGE};
use super::super::stop::Fault;
use super::{Args, LibcFn, Ret};
use crate::error::ErrorKind;
use crate::libc::rand::GlibcRand;
use crate::libc::strtol::{self, Signedness};

pub(super) fn call(m: &mut Machine<'_>, f: LibcFn, a: &Args<'_>) -> Ret {
    let r = match f {
        LibcFn::Malloc => m.malloc(a.get(0)?),
        LibcFn::Calloc => match a.get(0)?.checked_mul(a.get(1)?) {
            Some(n) => m.malloc(n),
            None => 0,
        },
        LibcFn::AlignedAlloc => m.aligned_alloc(a.get(1)?, a.get(0)?),
        LibcFn::Realloc => realloc(m, a.get(0)?, a.get(1)?)?,
        LibcFn::Free => {
            m.mem.free(a.get(0)?, m.line)?;
            return Ok(None);
        }
        LibcFn::Exit | LibcFn::QuickExit => return Err(m.exit(a.get(0)?, f == LibcFn::QuickExit)),
        LibcFn::Abort => return Err(Fault::error(ErrorKind::Abort, "abort() called").into()),
        LibcFn::AssertFail => return Err(assert_fail(m, a)?.into()),
        LibcFn::Atoi => parse(m, a.get(0)?, 0, 10, Signedness::Signed)? as u32 as u64,
        LibcFn::Atol => parse(m, a.get(0)?, 0, 10, Signedness::Signed)?,
        LibcFn::Strtol => parse(m, a.get(0)?, a.get(1)?, a.int(2)?, Signedness::Signed)?,
        LibcFn::Strtoul => parse(m, a.get(0)?, a.get(1)?, a.int(2)?, Signedness::Unsigned)?,
        LibcFn::Abs => a.int(0)?.wrapping_abs() as u32 as u64,
        LibcFn::Labs => (a.get(0)? as i64).wrapping_abs() as u64,
        LibcFn::ErrnoLocation => m.runtime.errno,
        LibcFn::Rand => m.rand.rand() as u64,
        LibcFn::Srand => {
            m.rand = GlibcRand::new(a.int(0)? as u32);
            return Ok(None);
        }
        _ => unreachable!("{f:?} is not a stdlib function"),
    };
    Ok(Some(r))
}

/// `realloc(p, n)`: a new block with the old contents (as much as fits), the old one freed;
/// `realloc(NULL, n)` is `malloc(n)`, `realloc(p, 0)` frees `p` and returns NULL (glibc).
/// When the heap is exhausted the old block stays and NULL is returned.
fn realloc(m: &mut Machine<'_>, p: u64, n: u64) -> Result<u64, Fault> {
    if p == 0 {
        return Ok(m.malloc(n));
    }
    let old = m.mem.heap_block(p, "realloc")?;
    if n == 0 {
        m.mem.free(p, m.line)?;
        return Ok(0);
    }
    let old_size = m.mem.object(old).size;
    let q = m.malloc(n);
    if q != 0 {
        m.mem.copy(q, p, old_size.min(n))?;
        m.mem.free(p, m.line)?;
    }
    Ok(q)
}

/// `__assert_fail(expr, file, line, func)`, what `assert()` calls: prints glibc's message on
/// stderr (without the program name) and fails with the expression in the error message.
fn assert_fail(m: &mut Machine<'_>, a: &Args<'_>) -> Result<Fault, Fault> {
    let text = |m: &mut Machine<'_>, addr: u64| -> Result<String, Fault> {
        Ok(String::from_utf8_lossy(&m.mem.read_cstr(addr)?).into_owned())
    };
    let expr = text(m, a.get(0)?)?;
    let file = text(m, a.get(1)?)?;
    let line = a.int(2)?;
    let func = text(m, a.get(3)?)?;
    let report = format!("{file}:{line}: {func}: Assertion `{expr}' failed.\n");
    m.stderr.extend_from_slice(report.as_bytes());
    Ok(Fault::error(ErrorKind::AssertionFailed, format!("assertion `{expr}' failed in function '{func}'")))
}

/// `strtol`/`strtoul` on the string at `s`, storing the end pointer through `endptr` if it
/// is not NULL and setting `errno` on overflow or a bad base.
fn parse(m: &mut Machine<'_>, s: u64, endptr: u64, base: i32, signedness: Signedness) -> Result<u64, Fault> {
    let mem = &mut m.mem;
    let parsed = strtol::parse(|i| Ok(mem.read(s.wrapping_add(i), 1)?[0]), base, signedness)?;
    if endptr != 0 {
        m.mem.store(endptr, 8, u128::from(s.wrapping_add(parsed.end)))?;
    }
    if parsed.overflow {
        m.set_errno(ERANGE)?;
    } else if parsed.invalid_base {
        m.set_errno(EINVAL)?;
    }
    Ok(parsed.value)
}
