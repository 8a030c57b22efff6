//! Command-line definitions (clap derive). Every flag's help text is the user's documentation.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "penumbra",
    version,
    about = "Shadow symbolic execution for C patches",
    long_about = "penumbra runs the old and the new version of a patched C program together in one \
symbolic execution and finds the inputs on which they behave differently.\n\n\
Annotate the patch in one unified source file with `change(old, new)` (from `penumbra.h`, \
which penumbra puts on the include path itself)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the penumbra IR of a C file.
    Ir(IrArgs),
    /// Interpret a C file concretely, as the old or the new version.
    ///
    /// The program's stdout, stderr and exit status are forwarded. A detected error (out-of-bounds
    /// access, null dereference, use after free, double free, division by zero, INT_MIN / -1,
    /// shift by the width or more, failing assertion, abort) is reported on stderr as
    /// `penumbra: error: <kind>: <message> at <file>:<line>` with exit status 70; reaching a
    /// construct penumbra does not model as `penumbra: unsupported: ...` with exit status 69.
    Exec(ExecArgs),
}

/// Flags passed through to clang.
#[derive(Args, Debug, Clone, Default)]
pub struct CompileArgs {
    /// Add DIR to the include path (passed to clang).
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a preprocessor macro, NAME or NAME=VALUE (passed to clang).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
}

#[derive(Args, Debug)]
pub struct IrArgs {
    /// The C source file.
    pub file: PathBuf,
    #[command(flatten)]
    pub compile: CompileArgs,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionArg {
    Old,
    New,
}

#[derive(Args, Debug)]
pub struct ExecArgs {
    /// The C source file.
    pub file: PathBuf,
    /// Which side of each `change(old, new)` to run.
    #[arg(long, value_enum, default_value_t = VersionArg::New)]
    pub version: VersionArg,
    /// Value of the symbolic object NAME: an integer (decimal or 0x hex, may be negative, stored
    /// little-endian), `hex:BYTES` or `str:TEXT`. Objects without a value are all zero.
    #[arg(long = "input", value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,
    /// Stop after this many IR instructions.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    #[command(flatten)]
    pub compile: CompileArgs,
    /// Arguments for the program (argv[1..]).
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}
