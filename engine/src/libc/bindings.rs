//! The one table of the C library's functions penumbra binds by name: for each, its names, the
//! fewest arguments a call passes, and how each interpreter runs it ([`Support`]) — or why it
//! does not. Both interpreters bind a program's declared functions here, once per program, and
//! dispatch on the [`LibcFn`] it gives; neither keeps a list of its own.
//!
//! A declared function the table does not bind (or binds as unsupported on one side) ends the
//! path as unsupported when called; [`unknown_function`] words that message, and says when
//! musl, `--libc musl`, would provide the function ([`musl_provides`]).

use super::ctype::Class;
use super::syscall;

/// A bound function: what the interpreters dispatch on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
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
    /// `memcpy` copies as `memmove` does; the symbolic engine reports an overlap.
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
    Atexit,
    Abort,
    AssertFail,
    /// `setjmp` and its variants: 0, and the call is where a `longjmp` comes back to.
    Setjmp,
    /// `longjmp` and its variants: back to the `setjmp` call that filled the `jmp_buf`.
    Longjmp,
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
    // The engine's own entry points, called by the C library linked in as code.
    /// `__penumbra_kernel`, musl's system calls ([`syscall`]).
    Syscall,
    /// `__penumbra_sym_files`: the `--sym-files` option for musl's C layer.
    SymFiles,
    /// `__penumbra_aligned_alloc(align, size)`, behind musl's `aligned_alloc`.
    AlignedAlloc,
    /// `__penumbra_destructor(i)`: the program's destructors, for musl's `exit`.
    Destructor,
    /// `__penumbra_check_read(p, n)`: a read check of `n` bytes at `p` (the symbolic `libc.c`).
    CheckRead,
    /// `__penumbra_is_stdin(stream)` (the symbolic `libc.c`).
    IsStdin,
}

/// How one interpreter runs a bound function.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Support {
    /// In Rust, by the interpreter (its library models, or the interpreter itself where the
    /// function calls back into the program or needs its functions).
    Native,
    /// As C code linked into the program and executed like the program's own (the symbolic
    /// engine's `libc.c`: it forks where the C code branches on a symbolic byte).
    Code,
    /// Not run: a call ends the path as unsupported. The reason says why.
    Missing(&'static str),
}

impl Support {
    pub fn is_supported(self) -> bool {
        !matches!(self, Support::Missing(_))
    }
}

/// One function of the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub func: LibcFn,
    /// The C names bound to it.
    pub names: &'static [&'static str],
    /// The fewest arguments a call passes (a variadic function may pass more).
    pub arity: usize,
    pub concrete: Support,
    pub symbolic: Support,
}

impl Binding {
    /// The invalid-call message when `name` is called with `given` arguments, too few.
    pub fn check_arity(&self, name: &str, given: usize) -> Result<(), String> {
        if given >= self.arity {
            return Ok(());
        }
        Err(too_few_arguments(name, given, self.arity))
    }
}

/// The invalid-call message of a call of `name` with `given` arguments where it reads `needed`.
pub fn too_few_arguments(name: &str, given: usize, needed: usize) -> String {
    format!("{name} called with {given} arguments, needs at least {needed}")
}

use LibcFn::*;
use Support::{Code, Missing, Native as Rust};

const fn both(func: LibcFn, names: &'static [&'static str], arity: usize) -> Binding {
    Binding { func, names, arity, concrete: Rust, symbolic: Rust }
}

/// Native in the concrete interpreter, C code (`libc.c`) in the symbolic engine.
const fn code(func: LibcFn, names: &'static [&'static str], arity: usize) -> Binding {
    Binding { func, names, arity, concrete: Rust, symbolic: Code }
}

const fn concrete_only(func: LibcFn, names: &'static [&'static str], arity: usize, why: &'static str) -> Binding {
    Binding { func, names, arity, concrete: Rust, symbolic: Missing(why) }
}

/// Why `libc.c` cannot hold a function that keeps state between calls.
const KEEPS_STATE: &str =
    "keeps state between calls in a static variable; the symbolic C library (libc.c) has no globals";
/// Why the symbolic engine has no `qsort` or `bsearch`.
const CALLS_BACK: &str = "calls back into the program; the symbolic engine's natives cannot call the program, and \
                          libc.c has no version yet";
/// Why the concrete interpreter has no `longjmp`.
const UNWINDS: &str = "unwinds frames to a setjmp call; the concrete interpreter's setjmp returns 0 but keeps \
                       no target yet (the symbolic engine does)";
/// Why the concrete interpreter never sees `libc.c`'s helpers.
const LIBC_C_HELPER: &str = "a helper of the symbolic C library (libc.c), which only the symbolic engine links in";

/// Every function penumbra binds by name.
pub const BINDINGS: &[Binding] = &[
    // <stdio.h>
    both(Printf, &["printf"], 1),
    both(Fprintf, &["fprintf"], 2),
    both(Sprintf, &["sprintf"], 2),
    both(Snprintf, &["snprintf"], 3),
    both(Puts, &["puts"], 1),
    both(Putchar, &["putchar"], 1),
    both(Fputs, &["fputs"], 2),
    both(Fputc, &["fputc", "putc"], 2),
    both(Fwrite, &["fwrite"], 4),
    both(Fflush, &["fflush"], 1),
    both(Getchar, &["getchar"], 0),
    both(Fgetc, &["fgetc", "getc"], 1),
    code(Fgets, &["fgets"], 3),
    // <string.h>
    code(Strlen, &["strlen"], 1),
    code(Strnlen, &["strnlen"], 2),
    code(Strcmp, &["strcmp"], 2),
    code(Strncmp, &["strncmp"], 3),
    code(Strcpy, &["strcpy"], 2),
    code(Strncpy, &["strncpy"], 3),
    code(Strcat, &["strcat"], 2),
    code(Strncat, &["strncat"], 3),
    code(Strchr, &["strchr"], 2),
    code(Strrchr, &["strrchr"], 2),
    code(Strstr, &["strstr"], 2),
    code(Strdup, &["strdup"], 1),
    code(Strndup, &["strndup"], 2),
    code(Strspn, &["strspn"], 2),
    code(Strcspn, &["strcspn"], 2),
    concrete_only(Strtok, &["strtok"], 2, KEEPS_STATE),
    both(Memcpy, &["memcpy"], 3),
    both(Memmove, &["memmove"], 3),
    both(Memset, &["memset"], 3),
    code(Memcmp, &["memcmp"], 3),
    code(Memchr, &["memchr"], 3),
    // <stdlib.h>, <assert.h>, <errno.h>
    both(Malloc, &["malloc"], 1),
    both(Calloc, &["calloc"], 2),
    both(Realloc, &["realloc"], 2),
    both(Free, &["free"], 1),
    both(Exit, &["exit"], 1),
    both(QuickExit, &["_Exit", "_exit"], 1),
    both(Atexit, &["atexit"], 1),
    both(Abort, &["abort"], 0),
    both(AssertFail, &["__assert_fail"], 4),
    both(Setjmp, &["setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp"], 1),
    Binding {
        func: Longjmp,
        names: &["longjmp", "_longjmp", "siglongjmp", "__longjmp_chk"],
        arity: 2,
        concrete: Missing(UNWINDS),
        symbolic: Rust,
    },
    code(Atoi, &["atoi"], 1),
    code(Atol, &["atol", "atoll"], 1),
    code(Strtol, &["strtol", "strtoll"], 3),
    code(Strtoul, &["strtoul", "strtoull"], 3),
    both(Abs, &["abs"], 1),
    both(Labs, &["labs", "llabs"], 1),
    both(ErrnoLocation, &["__errno_location"], 0),
    concrete_only(Rand, &["rand"], 0, KEEPS_STATE),
    concrete_only(Srand, &["srand"], 1, KEEPS_STATE),
    concrete_only(Qsort, &["qsort"], 4, CALLS_BACK),
    concrete_only(Bsearch, &["bsearch"], 5, CALLS_BACK),
    // <ctype.h>
    both(IsClass(Class::Digit), &["isdigit"], 1),
    both(IsClass(Class::XDigit), &["isxdigit"], 1),
    both(IsClass(Class::Space), &["isspace"], 1),
    both(IsClass(Class::Alpha), &["isalpha"], 1),
    both(IsClass(Class::Alnum), &["isalnum"], 1),
    both(IsClass(Class::Upper), &["isupper"], 1),
    both(IsClass(Class::Lower), &["islower"], 1),
    both(IsClass(Class::Print), &["isprint"], 1),
    both(IsClass(Class::Graph), &["isgraph"], 1),
    both(IsClass(Class::Punct), &["ispunct"], 1),
    both(IsClass(Class::Cntrl), &["iscntrl"], 1),
    both(IsClass(Class::Blank), &["isblank"], 1),
    both(Toupper, &["toupper"], 1),
    both(Tolower, &["tolower"], 1),
    both(CtypeBLoc, &["__ctype_b_loc"], 0),
    both(CtypeToupperLoc, &["__ctype_toupper_loc"], 0),
    both(CtypeTolowerLoc, &["__ctype_tolower_loc"], 0),
    // The engine's entry points.
    both(Syscall, &[syscall::ENTRY], 7),
    both(SymFiles, &[syscall::SYM_FILES], 0),
    both(AlignedAlloc, &[syscall::ALIGNED_ALLOC], 2),
    both(Destructor, &[syscall::DESTRUCTOR], 1),
    Binding {
        func: CheckRead,
        names: &["__penumbra_check_read"],
        arity: 2,
        concrete: Missing(LIBC_C_HELPER),
        symbolic: Rust,
    },
    Binding {
        func: IsStdin,
        names: &["__penumbra_is_stdin"],
        arity: 1,
        concrete: Missing(LIBC_C_HELPER),
        symbolic: Rust,
    },
];

/// The binding of the C function `name`, if the table has one.
pub fn bind(name: &str) -> Option<&'static Binding> {
    BINDINGS.iter().find(|b| b.names.contains(&name))
}

/// The functions musl (the version `--libc musl` links) defines for programs: one name a line,
/// written by `scripts/musl-functions.sh` from musl's bitcode.
pub const MUSL_FUNCTIONS: &str = include_str!("musl-functions.txt");

/// Whether musl provides the function `name`, as a program compiled against glibc's headers
/// names it (glibc redirects C99 `scanf`s to `__isoc99_scanf`s).
pub fn musl_provides(name: &str) -> bool {
    let name = name.strip_prefix("__isoc99_").unwrap_or(name);
    MUSL_FUNCTIONS.lines().any(|l| l == name)
}

/// The message of a call of the function `name`, which is neither defined nor bound for the
/// interpreter; `musl_linked`: the program is linked with musl (`--libc musl`).
pub fn unknown_function(name: &str, musl_linked: bool) -> String {
    if !musl_linked && musl_provides(name) {
        format!("unknown external function '{name}' is not modelled; `--libc musl` provides it")
    } else {
        format!("unknown external function '{name}'")
    }
}

#[cfg(test)]
mod tests;
