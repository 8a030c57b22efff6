//! The C library of the symbolic engine: which function is C code and which a native model.
//!
//! Two halves, chosen per function by what it does with symbolic data:
//! - **C code** ([`LIBC_C`], `libc.c`), linked into the program ([`link::link`]): every
//!   function that loops over bytes (`strlen`, `strcmp`, `strchr`, `strtol`, `fgets`, ...).
//!   Executed like user code, they fork exactly where their C code branches on a symbolic byte,
//!   with no special cases in the engine — KLEE's approach with uclibc. Errors inside them are
//!   reported at the line of the user's call, as the concrete interpreter reports its models.
//! - **Native models** ([`Native`], executed by `interp/natives.rs` and `interp/stdio.rs`):
//!   the heap (`malloc`, `calloc`, `realloc`, `free`), bulk memory (`memcpy`, `memmove`,
//!   `memset`: one bounds check over the whole range, bytes moved as terms), process control
//!   (`exit`, `atexit`, `abort`, `__assert_fail`),
//!   output (`printf` and friends: the output is discarded, and symbolic arguments are read
//!   under the state's model *without* adding constraints — replay shows the real output),
//!   standard input (`getchar`, `fgetc` over `--sym-stdin` bytes), and the pure `<ctype.h>`,
//!   `abs` and `toupper` functions, which become one term each (`isdigit(c)` is
//!   `c - '0' <u 10`), so they never fork by themselves.

pub mod link;

use crate::libc::ctype::Class;

/// The source of the C half of the library.
pub const LIBC_C: &str = include_str!("libc.c");

/// The functions `libc.c` defines for programs (helpers excluded).
pub const C_FUNCTIONS: &[&str] = &[
    "strlen", "strnlen", "strcmp", "strncmp", "strcpy", "strncpy", "strcat", "strncat", "strchr", "strrchr", "strstr",
    "strdup", "strndup", "strspn", "strcspn", "memcmp", "memchr", "strtol", "strtoll", "strtoul", "strtoull", "atoi",
    "atol", "atoll", "fgets",
];

/// A natively modelled function.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Native {
    Malloc,
    Calloc,
    /// `__penumbra_aligned_alloc(align, size)`, behind musl's `aligned_alloc`.
    AlignedAlloc,
    Realloc,
    Free,
    /// `memcpy`, `memmove` (and the `llvm.mem*` intrinsics): copies as `memmove` does.
    Memcpy,
    Memmove,
    Memset,
    Exit,
    /// `_exit`, `_Exit`: no `atexit` handlers, no destructors.
    QuickExit,
    Atexit,
    Abort,
    Trap,
    AssertFail,
    ErrnoLocation,
    /// `__ctype_b_loc`, `__ctype_toupper_loc`, `__ctype_tolower_loc`: glibc's table cells.
    CtypeB,
    CtypeToupper,
    CtypeTolower,
    Printf,
    Fprintf,
    Sprintf,
    Snprintf,
    Puts,
    Putchar,
    Fputs,
    Fputc,
    Fwrite,
    Fflush,
    Getchar,
    Fgetc,
    IsClass(Class),
    Toupper,
    Tolower,
    Abs,
    Labs,
    /// `llvm.lifetime.*` and other markers.
    Nop,
    /// `llvm.stacksave`: 0.
    StackSave,
    /// `__penumbra_check_read(p, n)`: a read check of `n` bytes at `p`.
    CheckRead,
    /// `__penumbra_is_stdin(stream)`.
    IsStdin,
    /// `__penumbra_kernel`, musl's system calls ([`crate::libc::syscall`]).
    Syscall,
    /// `__penumbra_sym_files`: the `--sym-files` option for musl's C layer.
    SymFiles,
    /// `__penumbra_destructor(i)`: the program's destructors, for musl's `exit`.
    Destructor,
}

/// The native model of `name`, if any.
pub fn bind(name: &str) -> Option<Native> {
    use Native::*;
    if let Some(rest) = name.strip_prefix("llvm.") {
        let base = rest.split('.').next().unwrap_or(rest);
        return Some(match base {
            "memcpy" => Memcpy,
            "memmove" => Memmove,
            "memset" => Memset,
            "lifetime" | "dbg" | "assume" | "stackrestore" | "donothing" => Nop,
            "stacksave" => StackSave,
            "trap" | "debugtrap" => Trap,
            _ => return None,
        });
    }
    if let Some(class) = Class::from_function(name) {
        return Some(IsClass(class));
    }
    Some(match name {
        "malloc" => Malloc,
        "calloc" => Calloc,
        "realloc" => Realloc,
        "free" => Free,
        "memcpy" => Memcpy,
        "memmove" => Memmove,
        "memset" => Memset,
        "exit" => Exit,
        "_Exit" | "_exit" => QuickExit,
        "atexit" => Atexit,
        "abort" => Abort,
        "__assert_fail" => AssertFail,
        "__errno_location" => ErrnoLocation,
        "__ctype_b_loc" => CtypeB,
        "__ctype_toupper_loc" => CtypeToupper,
        "__ctype_tolower_loc" => CtypeTolower,
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
        "toupper" => Toupper,
        "tolower" => Tolower,
        "abs" => Abs,
        "labs" | "llabs" => Labs,
        "__penumbra_check_read" => CheckRead,
        "__penumbra_is_stdin" => IsStdin,
        crate::libc::syscall::ENTRY => Syscall,
        crate::libc::syscall::SYM_FILES => SymFiles,
        crate::libc::syscall::ALIGNED_ALLOC => AlignedAlloc,
        crate::libc::syscall::DESTRUCTOR => Destructor,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_native_or_c_never_both() {
        for name in C_FUNCTIONS {
            assert_eq!(bind(name), None, "{name} is both native and C");
            let defined = LIBC_C.contains(&format!(" {name}(")) || LIBC_C.contains(&format!("*{name}("));
            assert!(defined, "{name} is not defined in libc.c");
        }
        assert_eq!(bind("llvm.memcpy.p0.p0.i64"), Some(Native::Memcpy));
        assert_eq!(bind("isdigit"), Some(Native::IsClass(Class::Digit)));
        assert_eq!(bind("fopen"), None);
    }
}
