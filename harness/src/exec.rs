//! `penumbra exec FILE.c`: concrete interpretation of one version, forwarding the program's
//! output and exit status, and reporting detected errors with their source line.

use crate::cli::ProgramFiles;
use crate::cli::{ExecArgs, VersionArg};
use crate::compile::compile_program;
use crate::inputs::parse_inputs;
use anyhow::{Context, Result};
use penumbra_engine::concrete::{run as run_concrete, Inputs, Outcome, RunConfig};
use penumbra_engine::output::ktest::{KTest, KTestObject};
use penumbra_engine::output::replay::{named_inputs_fit, objects_fit, replay_config, replay_inputs};
use penumbra_ir::Version;
use std::io::Write;
use std::process::ExitCode;

/// Exit status when the program hits an error penumbra detects.
pub const EXIT_PROGRAM_ERROR: u8 = 70;
/// Exit status when the program reaches a construct penumbra does not model.
pub const EXIT_UNSUPPORTED: u8 = 69;

pub fn run(args: &ExecArgs) -> Result<ExitCode> {
    let version = match args.version {
        VersionArg::Old => Version::Old,
        VersionArg::New => Version::New,
    };
    let mut given = None;
    let (config, own) = match &args.ktest {
        Some(path) => ktest_config(path, args, version)?,
        None => {
            let inputs = parse_inputs(&args.inputs)?;
            given = Some(inputs.clone());
            let mut argv = vec![args.main_file().display().to_string()];
            argv.extend(args.args.iter().cloned());
            let config = RunConfig {
                version,
                inputs: Inputs::Named(inputs),
                args: argv,
                max_steps: args.max_steps,
                sym_files: crate::inputs::sym_files(args.sym_files.as_deref())?,
                env: args.env.clone(),
                ..RunConfig::default()
            };
            (config, Vec::new())
        }
    };
    let module = compile_program(&args.files, &args.compile)?;
    let result = run_concrete(&module, &config);
    // Inputs that do not fit the program's objects are refused, not fed by position, padded
    // or cut.
    match (&args.ktest, &given) {
        (Some(path), _) => objects_fit(&own, &result.symbolics)
            .with_context(|| format!("{} does not fit {}", path.display(), args.main_file().display()))?,
        (None, Some(named)) => {
            named_inputs_fit(named, &result.symbolics).context("--input does not fit the program")?
        }
        (None, None) => {}
    }
    std::io::stdout().lock().write_all(&result.stdout)?;
    let mut stderr = std::io::stderr().lock();
    stderr.write_all(&result.stderr)?;
    let code = match &result.outcome {
        Outcome::Exit(status) => ExitCode::from(*status as u8),
        Outcome::Error(_) => {
            writeln!(stderr, "{}", result.diagnostic(&module))?;
            ExitCode::from(EXIT_PROGRAM_ERROR)
        }
        Outcome::Unsupported { .. } => {
            writeln!(stderr, "{}", result.diagnostic(&module))?;
            ExitCode::from(EXIT_UNSUPPORTED)
        }
        Outcome::AssumptionViolated(_) | Outcome::StepLimit => {
            writeln!(stderr, "{}", result.diagnostic(&module))?;
            ExitCode::from(EXIT_PROGRAM_ERROR)
        }
    };
    Ok(code)
}

/// The run a `.ktest` file describes (objects in creation order, argv and stdin from its
/// symbolic-environment objects).
fn ktest_config(path: &std::path::Path, args: &ExecArgs, version: Version) -> Result<(RunConfig, Vec<KTestObject>)> {
    if !args.args.is_empty() {
        anyhow::bail!("--ktest takes the program's arguments from the test; do not pass ARGS");
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let test = KTest::from_bytes(&bytes).with_context(|| format!("cannot read {}", path.display()))?;
    let mut config = replay_config(&test, version).with_context(|| format!("cannot replay {}", path.display()))?;
    config.max_steps = args.max_steps;
    let own = replay_inputs(&test).with_context(|| format!("cannot replay {}", path.display()))?.own;
    Ok((config, own))
}
