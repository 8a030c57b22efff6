//! The modelled C library on concrete memory. A function the program declares but does not
//! define is bound by name, once per program, to a [`LibcFn`]; an unknown name stays unbound
//! and a call of it ends the run as unsupported.
//!
//! Every byte a model reads or writes goes through the bounds-checked accessors of
//! [`Memory`](super::memory::Memory), so `strcpy` overflowing a buffer is an out-of-bounds
//! write at the line of the call, exactly as a store would be. Arguments arrive as the raw
//! 64-bit register values of the call (zero-extended from their IR types); results are masked
//! to the call's result type by the interpreter.
//!
//! - [`stdio`]: `printf` and friends, `puts`, `putchar`, `getchar`, `fgets`, ...
//! - [`string`]: `<string.h>`, `strtok`
//! - [`stdlib`]: allocation, `exit`/`abort`/`__assert_fail`, number parsing, `abs`, `rand`
//! - `<ctype.h>` (functions and glibc's tables) directly in [`call`]
//! - `qsort` and `bsearch` call back into the program, so the interpreter runs them
//!   ([`callback`](super::callback)).
//!
//! LLVM intrinsics never reach here: the frontend expands them into IR or into calls of the C
//! functions (`llvm.memcpy` becomes `memcpy`).

mod stdio;
mod stdlib;
mod string;
mod syscall;

use super::machine::Machine;
use super::stop::{Fault, Stop};
use crate::error::ErrorKind;
use crate::libc::ctype::{self, Class};

/// A modelled library function.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LibcFn {
    // <stdio.h>
    Printf,
    Fprintf,
    Sprintf,
    Snprintf,
    Puts,
    Putchar,
    Fputs,
    /// `fputc` and `putc`.
    Fputc,
    Fwrite,
    Fflush,
    Getchar,
    /// `fgetc` and `getc`.
    Fgetc,
    Fgets,
    // <string.h>
    Strlen,
    Strnlen,
    Strcmp,
    Strncmp,
    Strcpy,
    Strncpy,
    Strcat,
    Strncat,
    Strchr,
    Strrchr,
    Strstr,
    Strdup,
    Strndup,
    Strspn,
    Strcspn,
    Strtok,
    /// `memcpy` and `memmove`: both copy as `memmove` does (an overlapping `memcpy` is not
    /// reported).
    Memcpy,
    Memmove,
    Memset,
    Memcmp,
    Memchr,
    // <stdlib.h>, <assert.h>, <errno.h>
    Malloc,
    Calloc,
    Realloc,
    Free,
    Exit,
    /// `_exit`, `_Exit`: no `atexit` handlers, no destructors.
    QuickExit,
    /// Registered by the interpreter, which knows the program's functions.
    Atexit,
    Abort,
    AssertFail,
    Atoi,
    /// `atol` and `atoll`.
    Atol,
    /// `strtol` and `strtoll`.
    Strtol,
    /// `strtoul` and `strtoull`.
    Strtoul,
    Abs,
    /// `labs` and `llabs`.
    Labs,
    ErrnoLocation,
    Rand,
    Srand,
    /// `qsort` and `bsearch` call back into the program: the interpreter runs them
    /// ([`callback`](super::callback)), not [`call`].
    Qsort,
    Bsearch,
    // <ctype.h>
    IsClass(Class),
    Toupper,
    Tolower,
    /// `__ctype_b_loc`, `__ctype_toupper_loc`, `__ctype_tolower_loc`: glibc's table cells.
    CtypeBLoc,
    CtypeToupperLoc,
    CtypeTolowerLoc,
    /// `__penumbra_kernel`, musl's system calls ([`crate::libc::syscall`]).
    Syscall,
    /// `__penumbra_sym_files`: the `--sym-files` option for musl's C layer.
    SymFiles,
    /// `__penumbra_aligned_alloc(align, size)`, behind musl's `aligned_alloc`.
    AlignedAlloc,
    /// `__penumbra_destructor(i)`: the program's destructors, for musl's `exit`; answered by
    /// the interpreter, which knows the program's functions.
    Destructor,
}

impl LibcFn {
    /// The model of the C function `name`, if penumbra has one.
    pub fn bind(name: &str) -> Option<LibcFn> {
        use LibcFn::*;
        if let Some(class) = Class::from_function(name) {
            return Some(IsClass(class));
        }
        Some(match name {
            crate::libc::syscall::ENTRY => Syscall,
            crate::libc::syscall::SYM_FILES => SymFiles,
            crate::libc::syscall::ALIGNED_ALLOC => AlignedAlloc,
            crate::libc::syscall::DESTRUCTOR => Destructor,
            "printf" => Printf,
            "fprintf" => Fprintf,
            "sprintf" => Sprintf,
            "snprintf" => Snprintf,
            "puts" => Puts,
            "putchar" => Putchar,
            "fputs" => Fputs,
            "fputc" | "putc" => Fputc,
            "fwrite" => Fwrite,
            "fflush" => Fflush,
            "getchar" => Getchar,
            "fgetc" | "getc" => Fgetc,
            "fgets" => Fgets,
            "strlen" => Strlen,
            "strnlen" => Strnlen,
            "strcmp" => Strcmp,
            "strncmp" => Strncmp,
            "strcpy" => Strcpy,
            "strncpy" => Strncpy,
            "strcat" => Strcat,
            "strncat" => Strncat,
            "strchr" => Strchr,
            "strrchr" => Strrchr,
            "strstr" => Strstr,
            "strdup" => Strdup,
            "strndup" => Strndup,
            "strspn" => Strspn,
            "strcspn" => Strcspn,
            "strtok" => Strtok,
            "memcpy" => Memcpy,
            "memmove" => Memmove,
            "memset" => Memset,
            "memcmp" => Memcmp,
            "memchr" => Memchr,
            "malloc" => Malloc,
            "calloc" => Calloc,
            "realloc" => Realloc,
            "free" => Free,
            "exit" => Exit,
            "_Exit" | "_exit" => QuickExit,
            "atexit" => Atexit,
            "abort" => Abort,
            "__assert_fail" => AssertFail,
            "atoi" => Atoi,
            "atol" | "atoll" => Atol,
            "strtol" | "strtoll" => Strtol,
            "strtoul" | "strtoull" => Strtoul,
            "abs" => Abs,
            "labs" | "llabs" => Labs,
            "__errno_location" => ErrnoLocation,
            "rand" => Rand,
            "qsort" => Qsort,
            "bsearch" => Bsearch,
            "srand" => Srand,
            "toupper" => Toupper,
            "tolower" => Tolower,
            "__ctype_b_loc" => CtypeBLoc,
            "__ctype_toupper_loc" => CtypeToupperLoc,
            "__ctype_tolower_loc" => CtypeTolowerLoc,
            _ => return None,
        })
    }
}

/// The arguments of one call, checked for presence.
pub(crate) struct Args<'x> {
    pub name: &'x str,
    /// The arguments' bits (an `f80`'s 80, 64 at most otherwise).
    pub values: &'x [u128],
}

impl Args<'_> {
    /// The `i`-th argument; a call with too few arguments is an invalid call.
    pub fn get(&self, i: usize) -> Result<u64, Fault> {
        self.wide(i).map(|v| v as u64)
    }

    /// The `i`-th argument with all its bits (a `long double`'s 80).
    pub fn wide(&self, i: usize) -> Result<u128, Fault> {
        self.values.get(i).copied().ok_or_else(|| {
            Fault::error(
                ErrorKind::InvalidCall,
                format!("{} called with {} arguments, needs at least {}", self.name, self.values.len(), i + 1),
            )
        })
    }

    /// The `i`-th argument as a C `int`.
    pub fn int(&self, i: usize) -> Result<i32, Fault> {
        Ok(self.get(i)? as u32 as i32)
    }
}

/// What a model returns: the raw result value, if the function has one.
pub(crate) type Ret = Result<Option<u64>, Stop>;

/// Runs the model `f` of the function `name` on `args`.
pub fn call(m: &mut Machine<'_>, f: LibcFn, name: &str, args: &[u128]) -> Result<Option<u64>, Stop> {
    let a = Args { name, values: args };
    use LibcFn::*;
    match f {
        Printf | Fprintf | Sprintf | Snprintf | Puts | Putchar | Fputs | Fputc | Fwrite | Fflush | Getchar | Fgetc
        | Fgets => stdio::call(m, f, &a),
        Strlen | Strnlen | Strcmp | Strncmp | Strcpy | Strncpy | Strcat | Strncat | Strchr | Strrchr | Strstr
        | Strdup | Strndup | Strspn | Strcspn | Strtok | Memcpy | Memmove | Memset | Memcmp | Memchr => {
            string::call(m, f, &a)
        }
        Malloc | Calloc | AlignedAlloc | Realloc | Free | Exit | QuickExit | Abort | AssertFail | Atoi | Atol
        | Strtol | Strtoul | Abs | Labs | ErrnoLocation | Rand | Srand => stdlib::call(m, f, &a),
        Qsort | Bsearch | Atexit | Destructor => {
            Err(Fault::unsupported(format!("{name} outside the interpreter")).into())
        }
        IsClass(class) => Ok(Some(u64::from(class.contains(a.int(0)?)))),
        Toupper => Ok(Some(ctype::toupper(a.int(0)?) as u64)),
        Tolower => Ok(Some(ctype::tolower(a.int(0)?) as u64)),
        CtypeBLoc => Ok(Some(m.runtime.ctype_b)),
        CtypeToupperLoc => Ok(Some(m.runtime.ctype_toupper)),
        CtypeTolowerLoc => Ok(Some(m.runtime.ctype_tolower)),
        Syscall => syscall::call(m, &a),
        SymFiles => Ok(Some(m.sym_files)),
    }
}
