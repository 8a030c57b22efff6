//! Turning the command line's files and clang flags into an IR module.

use crate::cli::{CompileArgs, LibcArg};
use anyhow::{Context, Result};
use penumbra_ir::{compile_files, CompileOptions, LibcBitcode, Module};
use std::path::{Path, PathBuf};

/// musl as bitcode, where scripts/build-musl.sh built it ($PENUMBRA_MUSL_DIR, else
/// ~/.cache/penumbra/musl-1.2.3).
pub fn musl() -> Result<LibcBitcode> {
    let dir = LibcBitcode::musl_dir().context("--libc musl: HOME is not set (or set PENUMBRA_MUSL_DIR)")?;
    if !LibcBitcode::is_built(&dir) {
        anyhow::bail!(
            "--libc musl: musl's bitcode is not built in {} (run scripts/build-musl.sh once: about a minute)",
            dir.display()
        );
    }
    Ok(LibcBitcode::in_dir(&dir))
}

/// Compiles and links `files` and checks the program has a `main` to run.
pub fn compile_program(files: &[PathBuf], args: &CompileArgs) -> Result<Module> {
    let module = compile(files, args)?;
    let has_main = module.func_by_name("main").is_some_and(|f| module.funcs[f].is_defined());
    if !has_main {
        anyhow::bail!("{} defines no `main` function to run", names(files));
    }
    Ok(module)
}

/// Compiles `files` (C, bitcode, textual IR) with the user's `-I`/`-D` flags and links them;
/// the error carries the tools' diagnostics.
pub fn compile(files: &[PathBuf], args: &CompileArgs) -> Result<Module> {
    for file in files {
        check_program_file(file)?;
    }
    let per_file = match &args.compile_commands {
        Some(db) => crate::compile_db::load(db)?,
        None => Vec::new(),
    };
    let libc = match args.libc {
        LibcArg::Models => None,
        LibcArg::Musl => Some(musl()?),
    };
    let options = CompileOptions {
        include_dirs: args.include.clone(),
        defines: args.define.clone(),
        per_file,
        libc,
        ..Default::default()
    };
    compile_files(files, &options).with_context(|| format!("cannot compile {}", names(files)))
}

/// Refuses a program file that is not a regular file, saying what it is instead.
fn check_program_file(file: &Path) -> Result<()> {
    use std::os::unix::fs::FileTypeExt;
    let kind = match std::fs::metadata(file) {
        Ok(m) if m.is_file() => return Ok(()),
        Ok(m) => m.file_type(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            anyhow::bail!("cannot read {}: no such file", file.display())
        }
        Err(e) => anyhow::bail!("cannot read {}: {e}", file.display()),
    };
    let what = if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    };
    anyhow::bail!("cannot read {}: it is {what}, not a regular file", file.display())
}

/// `a.c`, `a.c and b.c`, `a.c, b.c and c.bc`.
fn names(files: &[PathBuf]) -> String {
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    }
}
