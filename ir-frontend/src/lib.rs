//! penumbra-ir: the intermediate representation penumbra executes, and the C frontend that
//! produces it.
//!
//! [`compile_file`] (or [`compile_source`]) runs `clang-15` on a C file (`-O0 -Xclang
//! -disable-O0-optnone -g -fwrapv`, then `opt-15 -passes=mem2reg`) with penumbra's headers
//! ([`PENUMBRA_H`], [`KLEE_H`]) on the include path, and [`frontend`] lowers the bitcode, read
//! with the `llvm-ir` crate, into the [`ir`]: SSA over `i1`..`i64` bitvectors, pointers as
//! `i64`, entities as `u32` indices into arenas, a [`Module`] of [`Function`]s and globals.
//! `change(old, new)` and the other `penumbra.h` annotations become IR instructions; constructs
//! penumbra does not model (floating point, inline assembly, ...) become `unsupported`
//! instructions naming the construct and the source line, so a program that never reaches
//! them still runs. Errors in the C program are a [`FrontendError`] carrying clang's messages.

pub mod frontend;
pub mod ir;

pub use frontend::{
    compile_file, compile_files, compile_source, lower_bitcode, BuildFlags, CompileOptions, FrontendError, LibcBitcode,
    KLEE_H, PENUMBRA_H,
};
pub use ir::*;
