//! The `penumbra` crate's integration tests, in one test binary (each binary links LLVM and
//! Bitwuzla statically, so the crate keeps a single one). Each module covers one command or
//! concern; `support` holds the helpers they share.

mod support;

mod batch;
mod batch_projects;
mod batch_resume;
mod commit_pair;
mod coreutils_eras;
mod exec_corpus;
mod exec_errors;
mod file_types;
mod float_symbolic;
mod musl;
mod output_safety;
mod program_files;
mod real_builds;
mod replay;
mod replay_memory;
mod replay_scratch;
mod replay_stderr;
mod replay_verdicts;
mod report_html;
mod run_cli;
mod setjmp;
mod shadow_budgets;
mod shadow_examples;
mod shadow_semantics;
mod slurm;
mod symbolic_sizes;
mod unify;
