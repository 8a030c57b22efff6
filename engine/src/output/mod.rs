//! What a run writes and reports: tests (`testgen`: a KLEE-compatible `.ktest` file per test,
//! `ktest`, and the `tests.jsonl` sidecar), the run's [`RunSummary`](summary::RunSummary), and the
//! concrete replay of tests (`replay`), which checks that each test ends as its path did.

pub mod ktest;
pub mod lines;
pub mod replay;
pub mod summary;
pub mod testgen;
