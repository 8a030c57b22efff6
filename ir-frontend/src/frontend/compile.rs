//! Running the LLVM 15 tools: each C file -> `clang-15` -> bitcode; several inputs (C files,
//! bitcode `.bc`, textual IR `.ll`) -> `llvm-link-15` -> one module; -> `opt-15
//! -passes=mem2reg` -> [`lower_bitcode`], all in a temporary directory that also holds
//! penumbra's headers.
//!
//! Flags: `-O0 -Xclang -disable-O0-optnone` (unoptimised code that `opt` may still
//! transform), `-g` (source lines), `-fwrapv` (wrapping signed arithmetic, as the engine
//! models it and replay builds compile), `-x c` (the file is C whatever its name), and
//! `-Werror=empty-translation-unit` (an empty file is an error, not an empty program).
//! With a C library as bitcode ([`LibcBitcode`], musl), C files compile against its headers
//! alone and the linked program takes its start glue and the library functions it needs.
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
/// The LLVM linker penumbra uses to make one module of several inputs.
pub const LLVM_LINK: &str = "llvm-link-15";

/// What an input file is, by its extension: `.bc` bitcode, `.ll` textual IR, anything else C.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InputKind {
    C,
    Bitcode,
    TextualIr,
}

impl InputKind {
    pub fn of(path: &Path) -> Self {
        match path.extension().and_then(|e| e.to_str()) {
            Some("bc") => InputKind::Bitcode,
            Some("ll") => InputKind::TextualIr,
            _ => InputKind::C,
        }
    }
}

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
    /// Files compiled as a build compiled them (from its `compile_commands.json`), by
    /// absolute path: those get their build's flags instead of `include_dirs`, `defines` and
    /// `extra_flags`.
    pub per_file: Vec<(PathBuf, BuildFlags)>,
    /// A C library as bitcode to compile against and link with (musl: `--libc musl`); `None`
    /// for penumbra's own models of the C library.
    pub libc: Option<LibcBitcode>,
}

/// The musl version scripts/build-musl.sh builds.
pub const MUSL_VERSION: &str = "1.2.3";

/// A C library built as bitcode (`scripts/build-musl.sh`): programs compile against its
/// headers only (`-nostdinc -isystem include`), link its start glue whole and, from the library,
/// the functions they need (`llvm-link --only-needed`, as a static link picks archive members).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibcBitcode {
    /// The build's directory: the library's functions name files under it.
    pub dir: PathBuf,
    pub include: PathBuf,
    pub start: PathBuf,
    pub library: PathBuf,
}

impl LibcBitcode {
    /// The library built in `dir` (`include/`, `start.bc`, `libc.bc`).
    pub fn in_dir(dir: &Path) -> LibcBitcode {
        LibcBitcode {
            dir: dir.to_path_buf(),
            include: dir.join("include"),
            start: dir.join("start.bc"),
            library: dir.join("libc.bc"),
        }
    }

    /// Where scripts/build-musl.sh builds musl: `$PENUMBRA_MUSL_DIR`, else
    /// `~/.cache/penumbra/musl-1.2.3`; `None` when neither variable is set.
    pub fn musl_dir() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("PENUMBRA_MUSL_DIR") {
            return Some(PathBuf::from(dir));
        }
        let home = std::env::var_os("HOME")?;
        Some(PathBuf::from(home).join(".cache/penumbra").join(format!("musl-{MUSL_VERSION}")))
    }

    /// Whether `dir` holds a complete build (the script writes `BUILT` last).
    pub fn is_built(dir: &Path) -> bool {
        dir.join("BUILT").is_file()
    }

    fn flags(&self, clang: &mut Command) {
        clang.arg("-nostdinc").arg("-isystem").arg(&self.include);
    }
}

/// How a build compiled one file: in `directory`, with `flags` (the build's, less those that
/// choose the output, the optimisation level or dependency files), naming the file `file`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildFlags {
    pub directory: PathBuf,
    pub flags: Vec<String>,
    /// The source file as the build named it (relative to `directory` or absolute): debug
    /// information records it so.
    pub file: String,
}

/// Compiles the C file at `path` and lowers it. [`Module::source_file`] is `path` as given.
pub fn compile_file(path: &Path, opts: &CompileOptions) -> Result<Module, FrontendError> {
    compile_files(&[path.to_path_buf()], opts)
}

/// Compiles the C files among `inputs`, links them with the bitcode and textual IR among them
/// into one module, and lowers it. [`Module::source_file`] is the first input as given; each
/// function keeps the file its debug information names.
pub fn compile_files(inputs: &[PathBuf], opts: &CompileOptions) -> Result<Module, FrontendError> {
    let dir = temp_dir()?;
    let named: Vec<(&Path, String)> = inputs.iter().map(|i| (i.as_path(), i.to_string_lossy().into_owned())).collect();
    compile_in(dir.path(), &named, opts)
}

/// The functions defined in an input `file` (debug information names it by its whole path)
/// take its `name`: the user's spelling.
fn name_functions_files(module: &mut Module, names: &[(&Path, String)]) {
    let absolute: Vec<(PathBuf, &str)> =
        names.iter().filter_map(|(file, name)| Some((std::path::absolute(file).ok()?, name.as_str()))).collect();
    for f in module.funcs.values_mut().filter(|f| !f.file.is_empty()) {
        if let Some((_, name)) = absolute.iter().find(|(file, _)| Path::new(&f.file) == file) {
            f.file = name.to_string();
        }
    }
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
    // The text's functions are in `name`, not in the temporary file that holds it.
    compile_in(dir.path(), &[(&path, name.to_string())], opts)
}

fn temp_dir() -> Result<tempfile::TempDir, FrontendError> {
    tempfile::Builder::new()
        .prefix("penumbra-cc-")
        .tempdir()
        .map_err(|e| FrontendError::io("cannot create a temporary directory", e))
}

/// The whole pipeline inside `dir` for `inputs`, each with the name reports give it (the first
/// names the module): each C input compiled, all linked if there are several (or textual IR),
/// then promoted and lowered, and the functions of each input given its name.
fn compile_in(dir: &Path, inputs: &[(&Path, String)], opts: &CompileOptions) -> Result<Module, FrontendError> {
    let Some((_, source_name)) = inputs.first() else {
        return Err(FrontendError::Internal("no input file to compile".into()));
    };
    let include = dir.join("include");
    write_headers(&include)?;
    let mut parts = Vec::with_capacity(inputs.len());
    for (i, (input, name)) in inputs.iter().enumerate() {
        match InputKind::of(input) {
            InputKind::C => {
                let bitcode = dir.join(format!("input{i}.bc"));
                compile_c(&include, input, name, opts, &bitcode)?;
                parts.push(bitcode);
            }
            InputKind::Bitcode | InputKind::TextualIr => parts.push(input.to_path_buf()),
        }
    }
    if let Some(libc) = &opts.libc {
        parts.push(libc.start.clone());
        let keep = dir.join("libc-keep.ll");
        std::fs::write(&keep, LIBC_KEEP_LL)
            .map_err(|e| FrontendError::io(format!("cannot write {}", keep.display()), e))?;
        parts.push(keep);
    }
    let mut linked = match parts.as_slice() {
        [bitcode] if InputKind::of(bitcode) != InputKind::TextualIr => bitcode.clone(),
        _ => {
            let linked = dir.join("linked.bc");
            let mut link = Command::new(LLVM_LINK);
            link.args(&parts).arg("-o").arg(&linked);
            run(link, LLVM_LINK, source_name, &linked)?;
            linked
        }
    };
    if let Some(libc) = &opts.libc {
        // A second link: --only-needed would apply to the program's own files too.
        let whole = dir.join("with-libc.bc");
        let mut link = Command::new(LLVM_LINK);
        link.arg(&linked).arg("--only-needed").arg(&libc.library).arg("-o").arg(&whole);
        run(link, LLVM_LINK, source_name, &whole)?;
        linked = whole;
    }
    let mut module = promote_and_lower(dir, &linked, source_name)?;
    name_functions_files(&mut module, inputs);
    if let Some(libc) = &opts.libc {
        module.library_dir = Some(libc.dir.to_string_lossy().into_owned());
    }
    Ok(module)
}

/// Links the C library's functions that intrinsics stand for on x86-64 (the backend turns
/// `llvm.minnum.f80`/`maxnum.f80` into calls of `fminl`/`fmaxl`, whose NaN and signed-zero
/// rules are the library's own): `llvm-link --only-needed` takes only what the program names,
/// so this module names them (from a global with external linkage: the linker drops an
/// unused internal one, and what it alone referred to); the lowering then calls them.
const LIBC_KEEP_LL: &str =
    "target datalayout = \"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128\"
declare x86_fp80 @fminl(x86_fp80, x86_fp80)
declare x86_fp80 @fmaxl(x86_fp80, x86_fp80)
@__penumbra_libc_keep = global [2 x ptr] [ptr @fminl, ptr @fmaxl]
";

/// Compiles the C file `path` to `bitcode`, with penumbra's headers in `include`.
fn compile_c(
    include: &Path,
    path: &Path,
    source_name: &str,
    opts: &CompileOptions,
    bitcode: &Path,
) -> Result<(), FrontendError> {
    let mut clang = Command::new(CLANG);
    clang.args(CLANG_FLAGS);
    let build = std::path::absolute(path)
        .ok()
        .and_then(|absolute| opts.per_file.iter().find(|(file, _)| *file == absolute).map(|(_, flags)| flags));
    if let Some(build) = build {
        // The build's flags come after penumbra's own headers: `penumbra.h` and `klee/klee.h`
        // are found whatever the build's include path.
        clang.arg("-I").arg(include);
        if let Some(libc) = &opts.libc {
            libc.flags(&mut clang);
        }
        clang.args(["-Wno-unknown-warning-option", "-Qunused-arguments"]);
        clang.args(&build.flags).arg(&build.file).arg("-o").arg(bitcode).current_dir(&build.directory);
        return run(clang, CLANG, source_name, bitcode);
    }
    for d in &opts.include_dirs {
        clang.arg("-I").arg(d);
    }
    clang.arg("-I").arg(include);
    if let Some(libc) = &opts.libc {
        libc.flags(&mut clang);
    }
    for d in &opts.defines {
        clang.arg(format!("-D{d}"));
    }
    clang.args(&opts.extra_flags);
    clang.arg(path).arg("-o").arg(bitcode);
    run(clang, CLANG, source_name, bitcode)
}

/// `mem2reg` over `bitcode`, then lowering.
fn promote_and_lower(dir: &Path, bitcode: &Path, source_name: &str) -> Result<Module, FrontendError> {
    let promoted = dir.join("out.mem2reg.bc");
    let mut opt = Command::new(OPT);
    opt.arg("-passes=mem2reg").arg(bitcode).arg("-o").arg(&promoted);
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
