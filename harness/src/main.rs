//! The `penumbra` command line: shadow symbolic execution for C patches.
//!
//! Each subcommand lives in its own module; this file parses arguments and maps outcomes to
//! exit statuses. Library crates report errors with `thiserror`; `anyhow` is used only here.

mod batch;
mod batch_args;
mod cli;
mod compile;
mod compile_db;
mod digest;
mod exec;
mod inputs;
mod interrupt;
mod ir_cmd;
mod markup;
mod progress;
mod replay;
mod report;
mod reserved_file;
mod run_cmd;
mod run_info;
mod schema_cmd;
mod seconds;
mod shadow_cmd;
mod unify_cmd;

use clap::{CommandFactory, FromArgMatches};
use std::process::ExitCode;

/// Exit status for usage errors, unreadable files and C that does not compile.
pub const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let matches = cli::Cli::command().get_matches();
    let cli = cli::Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        cli::Command::Ir(args) => ir_cmd::run(&args),
        cli::Command::Exec(args) => exec::run(&args),
        cli::Command::Run(args) => cli::sym_args(&matches).and_then(|sym| run_cmd::run(&args, sym)),
        cli::Command::Shadow(args) => cli::sym_args(&matches).and_then(|sym| shadow_cmd::run(&args, sym)),
        cli::Command::Replay(args) => replay::run(&args),
        cli::Command::Report(args) => report::run(&args.outdir, args.top),
        cli::Command::Batch(args) => batch::run(&args),
        cli::Command::Unify(args) => unify_cmd::run(&args),
        cli::Command::Project(args) => unify_cmd::project(&args),
        cli::Command::Schema => schema_cmd::run(),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("penumbra: error: {err:#}");
            match err.downcast_ref::<run_info::OutputFailed>() {
                Some(_) => ExitCode::from(run_info::EXIT_OUTPUT_ERROR),
                None => ExitCode::from(EXIT_USAGE),
            }
        }
    }
}
