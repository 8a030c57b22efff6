//! Integration tests of the C frontend: one test binary (it links LLVM), every file in this
//! directory a module of it. C programs too long to inline live in `tests/c/`.

mod common;
mod constructs;
mod corpus;
mod errors;
mod eval;
mod float;
mod headers;
mod llvm_level;
mod paths;
mod robustness;
mod semantics;
mod text;
mod unsupported;
