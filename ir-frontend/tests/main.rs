//! Integration tests of the C frontend (one test binary: every file here is a module).

mod common;
