//! Turning the command line's file and clang flags into an IR module.

use crate::cli::CompileArgs;
use anyhow::{Context, Result};
use penumbra_ir::{compile_file, CompileOptions, Module};
use std::path::Path;

/// Compiles `file` and checks it has a `main` to run.
pub fn compile_program(file: &Path, args: &CompileArgs) -> Result<Module> {
    let module = compile(file, args)?;
    let has_main = module.func_by_name("main").is_some_and(|f| module.funcs[f].is_defined());
    if !has_main {
        anyhow::bail!("{} defines no `main` function to run", file.display());
    }
    Ok(module)
}

/// Compiles `file` with the user's `-I`/`-D` flags; the error carries clang's diagnostics.
pub fn compile(file: &Path, args: &CompileArgs) -> Result<Module> {
    if !file.is_file() {
        anyhow::bail!("cannot read {}: no such file", file.display());
    }
    let options =
        CompileOptions { include_dirs: args.include.clone(), defines: args.define.clone(), ..Default::default() };
    compile_file(file, &options).with_context(|| format!("cannot compile {}", file.display()))
}
