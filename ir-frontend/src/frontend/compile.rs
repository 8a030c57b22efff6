//! Running the LLVM 15 tools: C file -> `clang-15` -> bitcode -> `opt-15 -passes=mem2reg` ->
//! [`lower_bitcode`], all in a temporary directory that also holds penumbra's headers.
//!
//! Flags: `-O0 -Xclang -disable-O0-optnone` (unoptimised code that `opt` may still
//! transform), `-g` (source lines), `-fwrapv` (wrapping signed arithmetic, as the engine
//! models it and replay builds compile), `-x c` (the file is C whatever its name), and
//! `-Werror=empty-translation-unit` (an empty file is an error, not an empty program).
//! Builtins stay enabled: clang then knows `printf` and friends, and at `-O0` it does not
//! rewrite calls (no `printf` -> `puts`); calls it does emit as intrinsics (`llvm.memcpy`) are
//! lowered to the C functions.

use super::error::FrontendError;
use super::headers::write_headers;
use super::lower::lower_bitcode;
use crate::ir::Module;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The C compiler penumbra uses.
pub const CLANG: &str = "clang-15";
/// The LLVM optimiser penumbra uses (for `mem2reg`).
pub const OPT: &str = "opt-15";

/// The fixed clang flags of a symbolic build (before the user's `-I`/`-D`/extra flags).
pub const CLANG_FLAGS: &[&str] = &[
    "-x",
    "c",
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-g",
    "-fwrapv",
    "-Werror=empty-translation-unit",
    "-c",
    "-emit-llvm",
];

/// What the user adds to the compile command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompileOptions {
    /// `-I` directories, searched before penumbra's own headers.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions: `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Further clang flags, passed as they are.
    pub extra_flags: Vec<String>,
}

/// Compiles the C file at `path` and lowers it. [`Module::source_file`] is `path` as given.
pub fn compile_file(path: &Path, opts: &CompileOptions) -> Result<Module, FrontendError> {
    let dir = temp_dir()?;
    compile_in(dir.path(), path, &path.to_string_lossy(), opts)
}

/// Compiles C source text as if it were a file called `name` (for tests and tools).
pub fn compile_source(name: &str, source: &str, opts: &CompileOptions) -> Result<Module, FrontendError> {
    let dir = temp_dir()?;
    let file_name = Path::new(name).file_name().filter(|n| !n.is_empty()).unwrap_or("input.c".as_ref());
    let src_dir = dir.path().join("src");
    std::fs::create_dir_all(&src_dir)
        .map_err(|e| FrontendError::io(format!("cannot create {}", src_dir.display()), e))?;
    let path = src_dir.join(file_name);
    std::fs::write(&path, source).map_err(|e| FrontendError::io(format!("cannot write {}", path.display()), e))?;
    compile_in(dir.path(), &path, name, opts)
}

fn temp_dir() -> Result<tempfile::TempDir, FrontendError> {
    tempfile::Builder::new()
        .prefix("penumbra-cc-")
        .tempdir()
        .map_err(|e| FrontendError::io("cannot create a temporary directory", e))
}

/// The whole pipeline inside `dir`.
fn compile_in(dir: &Path, path: &Path, source_name: &str, opts: &CompileOptions) -> Result<Module, FrontendError> {
    let include = dir.join("include");
    write_headers(&include)?;
    let bitcode = dir.join("out.bc");
    let mut clang = Command::new(CLANG);
    clang.args(CLANG_FLAGS);
    for d in &opts.include_dirs {
        clang.arg("-I").arg(d);
    }
    clang.arg("-I").arg(&include);
    for d in &opts.defines {
        clang.arg(format!("-D{d}"));
    }
    clang.args(&opts.extra_flags);
    clang.arg(path).arg("-o").arg(&bitcode);
    run(clang, CLANG, source_name, &bitcode)?;
    let promoted = dir.join("out.mem2reg.bc");
    let mut opt = Command::new(OPT);
    opt.arg("-passes=mem2reg").arg(&bitcode).arg("-o").arg(&promoted);
    run(opt, OPT, source_name, &promoted)?;
    lower_bitcode(&promoted, source_name)
}

/// Runs a tool; it must exit with status 0 and leave a non-empty `output`.
fn run(mut cmd: Command, tool: &str, file: &str, output: &Path) -> Result<(), FrontendError> {
    let out = cmd.output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => FrontendError::ToolNotFound { tool: tool.to_string() },
        _ => FrontendError::io(format!("cannot run {tool}"), e),
    })?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(FrontendError::CompileFailed { tool: tool.to_string(), file: file.to_string(), stderr });
    }
    let produced = std::fs::metadata(output).map(|m| m.len() > 0).unwrap_or(false);
    if !produced {
        let stderr = format!("{stderr}{tool} exited successfully but wrote no output");
        return Err(FrontendError::CompileFailed { tool: tool.to_string(), file: file.to_string(), stderr });
    }
    Ok(())
}
