//! C library semantics on plain values, shared by the concrete interpreter and the symbolic
//! engine: the `printf` formatter, `strtol`-style number parsing, `<ctype.h>` classification
//! and glibc's `rand()`. Nothing here touches memory directly: callers pass accessors, so each
//! engine keeps its own bounds checks.

pub mod ctype;
pub mod printf;
pub mod rand;
pub mod strtol;
pub mod syscall;
