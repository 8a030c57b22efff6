//! The concrete interpreter as replay's second witness: each test run in-process on old and
//! new (and the fixes given as source or bitcode), as `penumbra exec --ktest` runs it, on the
//! module the run explored (the same files, flags and C library). Its bounds, pointer and
//! arithmetic checks see what AddressSanitizer sees where a native build has none (static musl
//! builds: the README's real-build route).
//!
//! A run is bounded by steps, not time, so that its verdict does not depend on the machine's
//! load: [`STEPS_PER_SECOND`] times the replay's timeout. A run that reaches a construct the
//! interpreter does not model, runs out of steps, violates an assumption or is fed a test that
//! does not fit the program gives no verdict; the native run decides alone then.

use super::classify::Fix;
use crate::cli::{CompileArgs, LibcArg};
use crate::compile::compile_program;
use crate::run_info::RunInfo;
use anyhow::Result;
use penumbra_engine::concrete::{Outcome, Program};
use penumbra_engine::output::ktest::KTest;
use penumbra_engine::output::replay::{objects_fit, replay_config, replay_inputs};
use penumbra_ir::{Module, Version};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Interpreted instructions per second of replay timeout: well below what the interpreter
/// executes on a loaded machine, so that a run within the budget takes at most about the
/// native run's timeout.
pub const STEPS_PER_SECOND: u64 = 20_000_000;

/// What the interpreter made of one version on a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpOutcome {
    Exit {
        code: i32,
        stdout: Vec<u8>,
    },
    /// A detected error: its description (`kind: message at file.c:LINE`), the same in a few
    /// words (`kind at file.c:LINE`), and where (the file as debug information names it, empty
    /// when unknown, and the line).
    Error {
        text: String,
        brief: String,
        file: String,
        line: u32,
    },
    /// No verdict, and why.
    NoVerdict(String),
}

impl InterpOutcome {
    /// `Some(true)` for an error, `Some(false)` for an exit, `None` for no verdict.
    pub fn errs(&self) -> Option<bool> {
        match self {
            InterpOutcome::Exit { .. } => Some(false),
            InterpOutcome::Error { .. } => Some(true),
            InterpOutcome::NoVerdict(_) => None,
        }
    }
}

/// The modules the interpreter runs: the program's (old and new; `None` where the caller
/// has it: `shadow --replay` explored it) and, with `--fixed-version`, the fixes'.
pub struct Modules {
    pub program: Option<Module>,
    pub fixes: Vec<Fix<Module>>,
}

impl Modules {
    /// Compiles the program of `info` (if `program`) and the versions of `fixes`, with the
    /// run's flags and C library.
    pub fn compile(info: &RunInfo, program: bool, fixes: &[Fix<PathBuf>]) -> Result<Modules> {
        let args = CompileArgs {
            include: info.include_dirs.clone(),
            define: info.defines.clone(),
            compile_commands: info.compile_commands.clone(),
            libc: if info.libc.as_deref() == Some("musl") { LibcArg::Musl } else { LibcArg::Models },
        };
        let program = program.then(|| compile_program(&info.sources(), &args)).transpose()?;
        let compile = |file: &PathBuf| compile_program(&info.sources_with_first(file), &args);
        let fixes = fixes
            .iter()
            .map(|f| Ok(Fix { fixed: compile(&f.fixed)?, parent: f.parent.as_ref().map(compile).transpose()? }))
            .collect::<Result<_>>()?;
        Ok(Modules { program, fixes })
    }
}

/// The modules loaded for running, with the step budget of one run.
pub struct Interpreter<'m> {
    pub program: Program<'m>,
    pub fixes: Vec<Fix<Program<'m>>>,
    max_steps: u64,
}

impl<'m> Interpreter<'m> {
    /// Loads `program` and the fixes'; a run may take [`STEPS_PER_SECOND`] steps per second of
    /// `timeout`.
    pub fn load(program: &'m Module, fixes: &'m [Fix<Module>], timeout: Duration) -> Result<Interpreter<'m>> {
        let load = |m: &'m Module| {
            Program::new(m).map_err(|e| anyhow::anyhow!("the interpreter cannot load {}: {e}", m.source_file))
        };
        Ok(Interpreter {
            program: load(program)?,
            fixes: fixes
                .iter()
                .map(|f| Ok(Fix { fixed: load(&f.fixed)?, parent: f.parent.as_ref().map(load).transpose()? }))
                .collect::<Result<_>>()?,
            max_steps: (timeout.as_secs_f64() * STEPS_PER_SECOND as f64).ceil() as u64,
        })
    }

    /// Runs `test` on `version` of `program` (one of this interpreter's).
    pub fn run(&self, program: &Program<'_>, test: &KTest, version: Version) -> InterpOutcome {
        let (config, own) = match (replay_config(test, version), replay_inputs(test)) {
            (Ok(config), Ok(inputs)) => (config, inputs.own),
            (Err(e), _) | (_, Err(e)) => return InterpOutcome::NoVerdict(format!("cannot replay the test: {e}")),
        };
        let config = penumbra_engine::concrete::RunConfig { max_steps: Some(self.max_steps), ..config };
        let result = program.run(&config);
        if let Err(e) = objects_fit(&own, &result.symbolics) {
            return InterpOutcome::NoVerdict(format!("the test does not fit the program: {e}"));
        }
        match result.outcome {
            Outcome::Exit(code) => InterpOutcome::Exit { code, stdout: result.stdout },
            Outcome::Error(e) => {
                let file = Path::new(&e.location.file).file_name().map(|n| n.to_string_lossy().into_owned());
                let place = match &file {
                    Some(name) => format!("{name}:{}", e.location.line),
                    None => format!("line {}", e.location.line),
                };
                InterpOutcome::Error {
                    text: format!("{}: {} at {place}", e.kind, e.message),
                    brief: format!("{} at {place}", e.kind),
                    file: e.location.file,
                    line: e.location.line,
                }
            }
            Outcome::StepLimit => InterpOutcome::NoVerdict(format!("no end within {} steps", self.max_steps)),
            other => InterpOutcome::NoVerdict(other.to_string()),
        }
    }
}
