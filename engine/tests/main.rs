//! The engine's integration tests, one binary (each binary links LLVM and Bitwuzla).
//!
//! - `ir_programs`: programs built with the IR builder: every instruction through the
//!   interpreter, calls, inputs, versions, budgets;
//! - `ir_errors`: every error kind at its exact line, unsupported constructs, unloadable programs;
//! - `c_programs`: C snippets compiled by the frontend and run;
//! - `libc_models`: the modelled C library, from C, including its bounds errors;
//! - `printf_native`: one table of `printf` formats compared with the native C library;
//! - `random_programs`: random well-typed IR programs must run without panicking, deterministically;
//! - `shadow`: complete shadow execution against a brute-force oracle over both versions' branch
//!   traces (`cargo test -p penumbra-engine --test main shadow`).

mod support;

mod c_programs;
mod ir_errors;
mod ir_programs;
mod layers;
mod libc_models;
mod printf_native;
mod random_programs;
mod shadow;
mod symbolic;
