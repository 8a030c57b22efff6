//! The modelled C library on concrete memory. A function the program declares but does not
//! define is bound by name, once per program, through the one binding table
//! ([`crate::libc::bindings`]); a name it does not bind for this interpreter stays unbound and a
//! call of it ends the run as unsupported.
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
use crate::libc::bindings::{self, LibcFn};
use crate::libc::ctype;

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
            Fault::error(ErrorKind::InvalidCall, bindings::too_few_arguments(self.name, self.values.len(), i + 1))
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
        // The table binds these for the symbolic engine only.
        CheckRead | IsStdin | Longjmp => Err(Fault::unsupported(bindings::unknown_function(name, false)).into()),
        // setjmp returns 0 the first time; only the symbolic engine goes back to it (longjmp).
        Setjmp => Ok(Some(0)),
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
