//! `penumbra exec FILE.c`: concrete interpretation of one version, forwarding the program's
//! output and exit status, and reporting detected errors with their source line.

use crate::cli::ProgramFiles;
use crate::cli::{ExecArgs, VersionArg};
use crate::compile::compile_program;
use crate::inputs::{check_hex_sizes, parse_inputs};
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
/// Exit status when the program runs into `--max-steps` (as timeout(1) exits when its time is
/// up).
pub const EXIT_STEP_LIMIT: u8 = 124;

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
            let mut argv = vec![args.main_file().display().to_string().into_bytes()];
            argv.extend(args.args.iter().map(|a| a.clone().into_bytes()));
            let config = RunConfig {
                version,
                inputs: Inputs::Named(inputs),
                args: argv,
                max_steps: max_steps(args),
                sym_files: crate::inputs::sym_files(args.sym_files.as_deref())?,
                sym_file_types: args.sym_file_types,
                env: args.env.clone(),
                stdin: read_stdin(args.stdin.as_deref())?,
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
            named_inputs_fit(named, &result.symbolics).context("--input does not fit the program")?;
            check_hex_sizes(&args.inputs, &result.symbolics).context("--input does not fit the program")?
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
        Outcome::AssumptionViolated(_) => {
            writeln!(stderr, "{}", result.diagnostic(&module))?;
            ExitCode::from(EXIT_PROGRAM_ERROR)
        }
        Outcome::StepLimit => {
            writeln!(stderr, "{} (--max-steps {}; 0: no limit)", result.diagnostic(&module), args.max_steps)?;
            ExitCode::from(EXIT_STEP_LIMIT)
        }
    };
    Ok(code)
}

/// `--max-steps` as the interpreter takes it (0: none).
fn max_steps(args: &ExecArgs) -> Option<u64> {
    (args.max_steps > 0).then_some(args.max_steps)
}

/// The run a `.ktest` file describes (objects in creation order, argv and stdin from its
/// symbolic-environment objects).
fn ktest_config(path: &std::path::Path, args: &ExecArgs, version: Version) -> Result<(RunConfig, Vec<KTestObject>)> {
    if !args.args.is_empty() {
        anyhow::bail!("--ktest takes the program's arguments from the test; do not pass ARGS");
    }
    let test = read_test(path)?;
    let mut config = replay_config(&test, version).with_context(|| format!("cannot replay {}", path.display()))?;
    config.max_steps = max_steps(args);
    let own = replay_inputs(&test).with_context(|| format!("cannot replay {}", path.display()))?.own;
    Ok((config, own))
}

/// A test's `.ktest` file, or, for a test written without one (a plain exit, unless
/// `--all-ktests`), the test its line in the directory's `tests.jsonl` describes:
/// `OUTDIR/test000001.ktest` names test000001 either way.
fn read_test(path: &std::path::Path) -> Result<KTest> {
    if !path.exists() {
        if let Some(test) = sidecar_test(path)? {
            return Ok(test);
        }
    }
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    KTest::from_bytes(&bytes).with_context(|| format!("cannot read {}", path.display()))
}

/// The test `path` names in its directory's `tests.jsonl`, if that has a line for it without
/// a `.ktest` file.
fn sidecar_test(path: &std::path::Path) -> Result<Option<KTest>> {
    use penumbra_engine::output::testgen::{SidecarInputs, SIDECAR};
    let (Some(dir), Some(name)) = (path.parent(), path.file_stem().and_then(|n| n.to_str())) else {
        return Ok(None);
    };
    let sidecar = dir.join(SIDECAR);
    let Ok(text) = std::fs::read_to_string(&sidecar) else { return Ok(None) };
    // Names are unique: the line that holds the name's JSON string is the test's.
    let quoted = format!("\"name\":\"{name}\"");
    let Some(line) = text.lines().find(|l| l.contains(&quoted)) else { return Ok(None) };
    let record: serde_json::Value =
        serde_json::from_str(line).with_context(|| format!("{}: a line that is not JSON", sidecar.display()))?;
    if record.get("ktest").is_some() || record["name"].as_str() != Some(name) {
        return Ok(None);
    }
    let inputs: SidecarInputs = serde_json::from_str(line)
        .with_context(|| format!("{}: test {name} has no `args` and `inputs`", sidecar.display()))?;
    Ok(Some(inputs.to_ktest()))
}

/// The bytes `--stdin FILE` names (`-`: this process's standard input), or none.
fn read_stdin(file: Option<&std::path::Path>) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    match file {
        None => {}
        Some(path) if path.as_os_str() == "-" => {
            std::io::stdin().lock().read_to_end(&mut bytes).context("cannot read standard input")?;
        }
        Some(path) => {
            bytes = std::fs::read(path).with_context(|| format!("--stdin: cannot read {}", path.display()))?
        }
    }
    Ok(bytes)
}
