//! What replay runs a test on: the native builds of old, new and (with fixes) each fixed
//! version and its parent, each knowing whether it has AddressSanitizer, and the modules the
//! interpreter runs.
//!
//! penumbra's own builds on the system's C library ask for AddressSanitizer and UBSan; its
//! static musl builds for neither runtime (UBSan traps). What a build has is read from its
//! symbols, not taken from the flags (a `clang-15` wrapper may drop a sanitizer): the replay
//! runtime, compiled in the link command, leaves `penumbra_replay_asan` and
//! `penumbra_replay_ubsan` where it was compiled with them, and AddressSanitizer's runtime
//! defines `__asan_init`. A build without the AddressSanitizer it asked for is a build without
//! AddressSanitizer (the interpreter decides whether a test errs on it), said on stderr. A
//! prebuilt executable has AddressSanitizer when its symbols name `__asan_init`.

use super::classify::Fix;
use super::elf;
use super::interpreter::Modules;
use super::native::{self, Build};
use super::record::{BuildRecord, Decider};
use super::Options;
use crate::run_info::RunInfo;
use anyhow::{Context, Result};
use penumbra_ir::frontend::CLANG;
use penumbra_ir::Module;
use std::path::{Path, PathBuf};

/// One native build.
#[derive(Clone, Debug)]
pub struct NativeBuild {
    pub exe: PathBuf,
    /// Whether it has AddressSanitizer: then its runs decide whether the version errs.
    pub sanitizers: bool,
    /// How it was made and what it has, for the report.
    pub made: String,
    /// Whether the replay runtime is linked in (it feeds `make_symbolic` objects). A prebuilt
    /// executable without it is the project's own build of the program: it takes a test's
    /// arguments, stdin and files, and only tests made of those.
    pub runtime: bool,
}

impl NativeBuild {
    /// The executable to run, with whether it has AddressSanitizer.
    pub fn as_exe(&self) -> native::Exe<'_> {
        native::Exe { path: &self.exe, asan: self.sanitizers }
    }
}

/// AddressSanitizer's runtime, and the replay runtime's marks of its own compilation.
const ASAN_RUNTIME: &str = "__asan_init";
const RUNTIME_ASAN: &str = "penumbra_replay_asan";
const RUNTIME_UBSAN: &str = "penumbra_replay_ubsan";
/// Defined by the replay runtime whatever its flags.
const RUNTIME: &str = "penumbra_make_symbolic";

impl NativeBuild {
    /// A prebuilt executable (`--native-old`, ...), its sanitizers read from its symbols.
    fn prebuilt(exe: &Path) -> NativeBuild {
        let [sanitizers, runtime] = elf::names_symbols(exe, &[ASAN_RUNTIME, RUNTIME])[..] else {
            unreachable!("one answer per symbol")
        };
        let made = match (sanitizers, runtime) {
            (true, true) => "prebuilt, AddressSanitizer",
            (false, true) => "prebuilt, no AddressSanitizer",
            (true, false) => "prebuilt without the replay runtime, AddressSanitizer",
            (false, false) => "prebuilt without the replay runtime, no AddressSanitizer",
        };
        NativeBuild { exe: exe.to_path_buf(), sanitizers, made: made.to_string(), runtime }
    }

    /// penumbra's `build` of `source` with `libc`, its sanitizers read from its symbols; one it
    /// asked for and lacks is said on stderr.
    fn built(exe: PathBuf, libc: native::NativeLibc, build: Build, source: &Path) -> NativeBuild {
        let found = elf::names_symbols(&exe, &[ASAN_RUNTIME, RUNTIME_ASAN, RUNTIME_UBSAN]);
        let (asan, ubsan) = (found[0] && found[1], found[2]);
        let (asked_asan, asked_ubsan) = libc.asks_for();
        let missing = [
            (asked_asan && !asan, "AddressSanitizer", "address", "the interpreter decides whether a test errs on it"),
            (asked_ubsan && !ubsan, "UBSan", "undefined", "its runs report no undefined behaviour"),
        ];
        for (_, name, flag, consequence) in missing.iter().filter(|m| m.0) {
            eprintln!(
                "penumbra: warning: the native {} build of {} has no {name}, though it was built with -fsanitize={flag} (is the {CLANG} on the PATH a wrapper?): {consequence}",
                build.name(),
                source.display()
            );
        }
        NativeBuild { exe, sanitizers: asan, made: libc.description(asan, ubsan), runtime: true }
    }
}

/// The builds of a program, each checked to start, and the interpreter's modules.
pub struct Builds {
    pub(super) work: PathBuf,
    pub(super) old: NativeBuild,
    pub(super) new: NativeBuild,
    pub(super) fixes: Vec<Fix<NativeBuild>>,
    /// `None` (said on stderr) when the program cannot be compiled for the interpreter here.
    pub(super) modules: Option<Modules>,
}

impl Builds {
    /// Builds the program `info` names in `work`, which also holds the replays' scratch files;
    /// and compiles it for the interpreter unless the caller has its module (`compiled`).
    pub fn prepare(work: &Path, info: &RunInfo, options: &Options, compiled: bool) -> Result<Builds> {
        std::fs::create_dir_all(work).with_context(|| format!("cannot create {}", work.display()))?;
        let (old, new, fixes) = match &options.native {
            Some(p) => (
                NativeBuild::prebuilt(&p.old),
                NativeBuild::prebuilt(&p.new),
                p.fixes.iter().map(|f| f.as_ref().map(|exe| NativeBuild::prebuilt(exe))).collect(),
            ),
            None => Self::build(work, info, options)?,
        };
        let builds = Builds { work: work.to_path_buf(), old, new, fixes, modules: None };
        for build in builds.all() {
            native::check_starts(&build.exe, &work.join("probe"), build.runtime)?;
        }
        let modules = match Modules::compile(info, !compiled, &options.fixes) {
            Ok(modules) => Some(modules),
            Err(e) => {
                eprintln!(
                    "penumbra: warning: no interpreter for replay ({e:#}): the native runs decide alone, and a build without AddressSanitizer shows a memory error only when it crashes"
                );
                None
            }
        };
        Ok(Builds { modules, ..builds })
    }

    /// Every native build: old, new, then each fix and its parent.
    pub(super) fn all(&self) -> impl Iterator<Item = &NativeBuild> {
        [&self.old, &self.new].into_iter().chain(self.fixes.iter().flat_map(Fix::versions))
    }

    /// Compiles old, new and (with `--fixed-version`, `--fix-parent-version`) the fixes.
    fn build(
        work: &Path,
        info: &RunInfo,
        options: &Options,
    ) -> Result<(NativeBuild, NativeBuild, Vec<Fix<NativeBuild>>)> {
        let files = info.sources();
        let per_file = match &info.compile_commands {
            Some(db) => crate::compile_db::load(db)?,
            None => Vec::new(),
        };
        let sources = native::Sources {
            files: &files,
            include_dirs: &info.include_dirs,
            defines: &info.defines,
            per_file: &per_file,
            libc: native::NativeLibc::for_run(info.libc.as_deref() == Some("musl"), &files),
        };
        let musl = sources.libc == native::NativeLibc::Musl;
        if musl {
            eprintln!(
                "penumbra: building {} natively on musl (it was compiled against musl's headers): without AddressSanitizer, the interpreter decides whether a test errs",
                info.source.display()
            );
        }
        let make = |sources: &native::Sources, build, source: &Path| -> Result<NativeBuild> {
            Ok(NativeBuild::built(native::build(work, sources, build)?, sources.libc, build, source))
        };
        let old = make(&sources, Build::Old, &info.source)?;
        let new = make(&sources, Build::New, &info.source)?;
        let mut fixes = Vec::new();
        for (i, fix) in options.fixes.iter().enumerate() {
            let version = |file: &Path, build| {
                let files = info.sources_with_first(file);
                make(&native::Sources { files: &files, ..sources }, build, file)
            };
            let fixed = version(&fix.fixed, Build::Fixed(i))?;
            let parent = fix.parent.as_deref().map(|p| version(p, Build::FixParent(i))).transpose()?;
            fixes.push(Fix { fixed, parent });
        }
        Ok((old, new, fixes))
    }

    /// The interpreter's modules: the program's (the caller's, `compiled`, if it has it) and
    /// the fixes'; `None` without an interpreter.
    pub(super) fn interpreted<'a>(&'a self, compiled: Option<&'a Module>) -> Option<(&'a Module, &'a [Fix<Module>])> {
        let modules = self.modules.as_ref()?;
        Some((compiled.or(modules.program.as_ref())?, &modules.fixes))
    }

    /// What each build has and who decides whether it errs, for the report (`interpreted`:
    /// whether the interpreter runs the program).
    pub fn described(&self, interpreted: bool) -> Vec<BuildLine> {
        // The interpreter runs the fixes only when they were given as source or bitcode.
        let interpreted = |fix: bool| interpreted && self.modules.as_ref().is_some_and(|m| !fix || !m.fixes.is_empty());
        let line = |build: Build, b: &NativeBuild, fix: bool| BuildLine {
            version: build.name(),
            made: b.made.clone(),
            sanitizers: b.sanitizers,
            interpreter: interpreted(fix),
        };
        let mut lines = vec![line(Build::Old, &self.old, false), line(Build::New, &self.new, false)];
        for (i, fix) in self.fixes.iter().enumerate() {
            lines.push(line(Build::Fixed(i), &fix.fixed, true));
            lines.extend(fix.parent.as_ref().map(|p| line(Build::FixParent(i), p, true)));
        }
        lines
    }
}

/// One build in the report's banner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildLine {
    pub version: String,
    pub made: String,
    pub sanitizers: bool,
    /// Whether the interpreter runs this version.
    pub interpreter: bool,
}

impl BuildLine {
    /// Who decides whether a test errs on this build.
    pub fn decides(&self) -> Decider {
        if !self.sanitizers && self.interpreter {
            Decider::Interpreter
        } else {
            Decider::Native
        }
    }

    /// `native glibc, AddressSanitizer + UBSan -> the native run decides errors (the
    /// interpreter cross-checks)`.
    pub fn human(&self) -> String {
        let how = match (self.sanitizers, self.interpreter) {
            (true, true) => "the native run decides errors (the interpreter cross-checks)",
            (true, false) => "the native run decides errors",
            (false, true) => "the interpreter decides errors",
            (false, false) => "no interpreter: only a crash shows an error",
        };
        format!("{} -> {how}", self.made)
    }

    pub fn record(&self) -> BuildRecord {
        BuildRecord {
            build: self.made.clone(),
            address_sanitizer: self.sanitizers,
            interpreter: self.interpreter,
            decides_errors: self.decides(),
        }
    }
}
