//! The C frontend: C source -> `clang-15` -> LLVM bitcode -> penumbra IR.
//!
//! - [`compile`]: runs `clang-15` and `opt-15 -passes=mem2reg` in a temporary directory with
//!   penumbra's [`headers`] on the include path ([`compile_file`], [`compile_source`]).
//! - `lower`: reads the bitcode with the `llvm-ir` crate and lowers it ([`lower_bitcode`]);
//!   `llvm_info` fills what `llvm-ir` 0.11 leaves out, through LLVM's C API.
//! - [`error`]: the error type, [`FrontendError`].

pub mod compile;
pub mod error;
pub mod headers;
mod llvm_info;
mod lower;

pub use compile::{
    compile_file, compile_files, compile_source, BuildFlags, CompileOptions, InputKind, LibcBitcode, CLANG,
    CLANG_FLAGS, LLVM_LINK, OPT,
};
pub use error::FrontendError;
pub use headers::{write_headers, KLEE_H, PENUMBRA_H};
pub use lower::lower_bitcode;
