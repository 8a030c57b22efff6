//! penumbra-ir: the intermediate representation penumbra executes, and the C frontend that
//! produces it.
//!
//! C source goes through `clang-15` to LLVM bitcode (`-O0 -Xclang -disable-O0-optnone -g
//! -fwrapv`, then `opt-15 -passes=mem2reg`), which [`frontend`] reads with the `llvm-ir` crate and
//! lowers into the [`ir`]: SSA over `i1`..`i64` bitvectors, pointers as `i64`, entities as `u32`
//! indices into arenas. `change(old, new)` and the other `penumbra.h` intrinsics become IR
//! instructions; constructs penumbra does not model become `unsupported` instructions naming
//! the construct and the source line, so a program that never reaches them still runs.

pub mod frontend;
pub mod ir;

pub use frontend::{compile_file, compile_source, lower_bitcode, CompileOptions, FrontendError, KLEE_H, PENUMBRA_H};
pub use ir::*;
