//! The C library of the symbolic engine. Which function is C code and which a native model is
//! the symbolic column of the one binding table ([`crate::libc::bindings`]), chosen per
//! function by what it does with symbolic data:
//! - **C code** ([`LIBC_C`], `libc.c`), linked into the program ([`link::link`]): every
//!   function that loops over bytes (`strlen`, `strcmp`, `strchr`, `strtol`, `fgets`, ...).
//!   Executed like user code, they fork exactly where their C code branches on a symbolic byte,
//!   with no special cases in the engine — KLEE's approach with uclibc. Errors inside them are
//!   reported at the line of the user's call, as the concrete interpreter reports its models.
//! - **Native models** (executed by `interp/natives.rs` and `interp/stdio.rs`):
//!   the heap (`malloc`, `calloc`, `realloc`, `free`), bulk memory (`memcpy`, `memmove`,
//!   `memset`: one bounds check over the whole range, bytes moved as terms), process control
//!   (`exit`, `atexit`, `abort`, `__assert_fail`),
//!   output (`printf` and friends: the output is discarded, and symbolic arguments are read
//!   under the state's model *without* adding constraints — replay shows the real output),
//!   standard input (`getchar`, `fgetc` over `--sym-stdin` bytes), and the pure `<ctype.h>`,
//!   `abs` and `toupper` functions, which become one term each (`isdigit(c)` is
//!   `c - '0' <u 10`), so they never fork by themselves.

pub mod link;

use crate::libc::bindings::{self, Support};

/// The source of the C half of the library.
pub const LIBC_C: &str = include_str!("libc.c");

/// Whether `libc.c` defines the function `name` for programs (helpers excluded).
pub fn is_c_code(name: &str) -> bool {
    bindings::bind(name).is_some_and(|b| b.symbolic == Support::Code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_c_function_of_the_table_is_in_libc_c() {
        let names = bindings::BINDINGS.iter().filter(|b| b.symbolic == Support::Code).flat_map(|b| b.names.iter());
        let mut count = 0;
        for name in names {
            let defined = LIBC_C.contains(&format!(" {name}(")) || LIBC_C.contains(&format!("*{name}("));
            assert!(defined, "{name} is not defined in libc.c");
            count += 1;
        }
        assert_eq!(count, 25);
        assert!(is_c_code("strlen") && !is_c_code("malloc") && !is_c_code("fopen"));
    }
}
