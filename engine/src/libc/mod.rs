//! The C library as both interpreters share it: the one table of the functions they bind by name
//! ([`bindings`]), and its semantics on plain values — the `printf` formatter, `strtol`-style
//! number parsing, `<ctype.h>` classification, glibc's `rand()`, the standard streams
//! ([`stdio`]) and the system calls of musl programs. Nothing here touches memory directly:
//! callers pass accessors, so each interpreter keeps its own bounds checks.

pub mod bindings;
pub mod ctype;
pub mod printf;
pub mod rand;
pub mod stdio;
pub mod strtol;
pub mod syscall;
