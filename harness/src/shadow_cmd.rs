//! `penumbra shadow FILE.c`: shadow symbolic execution of a unified program, writing a test
//! per diff path (and per error in both versions) and printing a summary that lists every
//! divergence with its input; `--replay` then classifies the tests natively.

use crate::cli::ProgramFiles;
use crate::cli::{ModeArg, ShadowArgs};
use crate::compile::compile_program;
use crate::inputs::{parse_inputs, show_input};
use crate::replay;
use crate::run_cmd::engine_config;
use crate::run_info::{RunInfo, RunWatch};
use crate::seconds::seconds;
use anyhow::{bail, Context, Result};
use penumbra_engine::concrete::{Inputs, RunConfig};
use penumbra_engine::output::ktest::KTest;
use penumbra_engine::output::replay::{named_inputs_fit, objects_fit, replay_inputs, seed_objects};
use penumbra_engine::output::testgen::TestRecord;
use penumbra_engine::{Mode, RunSummary, ShadowMode, SymArg};
use penumbra_ir::InstData;
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// `penumbra shadow`; `sym_args` are the `--sym-arg(s)` options in command-line order.
pub fn run(args: &ShadowArgs, sym_args: Vec<SymArg>) -> Result<ExitCode> {
    let mut config = engine_config(args.main_file(), &args.explore, &args.args, sym_args)?;
    config.random_seed = args.random_seed;
    config.mode = Mode::Shadow(shadow_mode(args)?);
    // The human report lists the first divergences; `--json` lists them all.
    config.keep_test_records = true;
    if !args.explore.json {
        config.test_record_limit = Some(HUMAN_LIST_LIMIT);
    }
    let module = compile_program(&args.files, &args.compile)?;
    for file in &args.seed_ktests {
        check_seed_fits(&module, file)?;
    }
    for seed in &args.seeds {
        warn_if_seed_does_not_fit(&module, &config.env, seed)?;
    }
    let annotated = module
        .funcs
        .values()
        .filter_map(|f| f.body.as_ref())
        .any(|b| b.insts.values().any(InstData::is_patch_annotation));
    if !annotated {
        eprintln!(
            "penumbra: note: {} has no change() or penumbra_execute() annotations: the old and the new version are the same program",
            args.main_file().display()
        );
    }
    let replay_options = if args.replay {
        if args.explore.no_tests {
            bail!("--replay replays the test files: drop --no-tests");
        }
        let fixes = (args.fixed_version.clone(), args.fix_parent_version.clone());
        Some(replay::options(args.replay_timeout, fixes, &args.native, None)?)
    } else {
        if args.native.native_old.is_some() {
            bail!("--native-old and --native-new are the builds --replay runs: add --replay");
        }
        None
    };
    let info = RunInfo::new("shadow", &args.files, &args.compile)?;
    // Built before exploring, outside the output directory: a run that fills its disk can
    // still replay what it wrote, and a build that cannot work fails now, not after the run.
    let prepared = match &replay_options {
        Some(options) => {
            let work = replay::Scratch::in_temp_dir()?;
            let builds = replay::Builds::prepare(work.path(), &info, options, true)?;
            Some((work, builds))
        }
        None => None,
    };
    crate::interrupt::install();
    let mut watch = RunWatch::new(info);
    let summary = crate::run_info::run_watched(&module, &config, &mut watch, "shadow execution")?;
    let written = match watch.finish(&summary) {
        Err(e) if e.before_start => return Err(e.into()),
        written => written,
    };
    let report = match (&replay_options, &prepared, &summary.output_dir) {
        (Some(options), Some((_, builds)), Some(dir)) => {
            // An interrupted run's tests are still replayed; a new signal stops the replay.
            penumbra_engine::clear_interrupt();
            Some(replay::replay_prepared(Path::new(dir), builds, &module, options)?)
        }
        _ => None,
    };
    let mut out = std::io::stdout().lock();
    if args.explore.json {
        let mut value = serde_json::to_value(&summary)?;
        if let Some(report) = &report {
            // Replay reads the test files, which carry no times (they are byte-identical from
            // run to run): each test gets its record's time back here.
            let found: std::collections::HashMap<&str, f64> =
                summary.tests.iter().filter_map(|t| Some((t.name.as_str(), t.time_s?))).collect();
            let mut tests = report.tests_json();
            for t in &mut tests {
                if let Some(&time) = t["name"].as_str().and_then(|name| found.get(name)) {
                    t["time_s"] = time.into();
                }
            }
            value["tests"] = tests.into();
        }
        writeln!(out, "{value}")?;
    } else {
        write!(out, "{}", summary.human())?;
        match &report {
            // The replay report lists every test, with more than the divergence list says.
            Some(report) => write!(out, "\n{}", report.human())?,
            None => write!(out, "{}", divergence_report(&summary))?,
        }
    }
    // The summary (and the replay of the tests that were written) come first: they say what
    // the run did before its output failed.
    written?;
    Ok(ExitCode::SUCCESS)
}

/// Refuses a `--seed-ktest` whose objects are not the ones the program makes along it (names,
/// sizes, number), checked by running the seed concretely.
fn check_seed_fits(module: &penumbra_ir::Module, file: &Path) -> Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let ktest = KTest::from_bytes(&bytes).with_context(|| format!("{} is not a .ktest file", file.display()))?;
    let inputs = replay_inputs(&ktest).with_context(|| format!("cannot use {} as a seed", file.display()))?;
    let config = RunConfig {
        inputs: Inputs::Ordered(inputs.objects.clone()),
        args: inputs.args.clone(),
        stdin: inputs.stdin.clone(),
        max_steps: Some(SEED_CHECK_STEPS),
        ..RunConfig::default()
    };
    let result = penumbra_engine::concrete::run(module, &config);
    objects_fit(&inputs.own, &result.symbolics)
        .with_context(|| format!("the seed {} does not fit {}", file.display(), module.source_file))?;
    Ok(())
}

/// Warns about a `--seed NAME=VALUE,...` naming an object the program does not make along it
/// (a misspelt name would otherwise seed nothing), or a value larger than its object, checked
/// by running the seed concretely. A warning, not a refusal: without the run's arguments the
/// check may not reach every object the seed names. The symbolic environment's objects
/// (`n_args`, `argNN`, `stdin`, `A-data`, ...) are checked against the environment instead.
fn warn_if_seed_does_not_fit(
    module: &penumbra_ir::Module,
    env: &penumbra_engine::config::Environment,
    seed: &str,
) -> Result<()> {
    let mut named = parse_seed(seed)?;
    let environment = environment_objects(env);
    for (name, size) in &environment {
        if let Some(value) = named.remove(name) {
            if value.len() > *size as usize && value[*size as usize..].iter().any(|&b| b != 0) {
                eprintln!(
                    "penumbra: warning: --seed {seed}: '{name}' holds {} bytes, the environment's object {size}: the rest is ignored",
                    value.len()
                );
            }
        }
    }
    if named.is_empty() {
        return Ok(());
    }
    let config =
        RunConfig { inputs: Inputs::Named(named.clone()), max_steps: Some(SEED_CHECK_STEPS), ..RunConfig::default() };
    let result = penumbra_engine::concrete::run(module, &config);
    if let Err(e) = named_inputs_fit(&named, &result.symbolics) {
        eprintln!("penumbra: warning: --seed {seed}: {e}");
    }
    Ok(())
}

/// The objects of the symbolic environment, by name, with their sizes (an argument's object
/// has room for its NUL).
fn environment_objects(env: &penumbra_engine::config::Environment) -> Vec<(String, u32)> {
    let mut objects = Vec::new();
    let mut arg_no = 0;
    for spec in &env.sym_args {
        let (count, len) = match *spec {
            SymArg::Arg { len } => (1, len),
            SymArg::Args { max, len, .. } => {
                objects.push(("n_args".to_string(), 4));
                (max, len)
            }
        };
        for _ in 0..count {
            objects.push((format!("arg{arg_no:02}"), len + 1));
            arg_no += 1;
        }
    }
    if let Some(n) = env.sym_stdin {
        objects.push(("stdin".to_string(), n));
    }
    if let Some((count, size)) = env.sym_files {
        for letter in (b'A'..).take(count as usize).map(char::from) {
            objects.push((format!("{letter}-data"), size));
        }
    }
    if env.sym_file_types {
        objects.push(("stdin-type".to_string(), 1));
        for letter in (b'A'..).take(env.sym_files.map_or(0, |(count, _)| count) as usize).map(char::from) {
            objects.push((format!("{letter}-type"), 1));
        }
    }
    objects
}

/// The objects a `--seed NAME=VALUE,...` names, with their values.
fn parse_seed(seed: &str) -> Result<std::collections::BTreeMap<String, Vec<u8>>> {
    let flags: Vec<String> = seed.split(',').map(str::to_string).collect();
    parse_inputs(&flags).with_context(|| format!("in --seed {seed}"))
}

/// Instructions a seed's check runs at most (a seed that does not end within them is checked
/// on the objects it made so far).
const SEED_CHECK_STEPS: u64 = 50_000_000;

/// The mode and seeds from the command line.
fn shadow_mode(args: &ShadowArgs) -> Result<ShadowMode> {
    let has_seeds = !args.seeds.is_empty() || !args.seed_ktests.is_empty();
    match args.mode {
        ModeArg::Complete if has_seeds => bail!("--seed and --seed-ktest need --mode seeded"),
        ModeArg::Complete => Ok(ShadowMode::Complete),
        ModeArg::Seeded => {
            if !has_seeds {
                bail!("--mode seeded needs at least one --seed NAME=VALUE,... or --seed-ktest FILE");
            }
            let mut seeds = Vec::new();
            for seed in &args.seeds {
                seeds.push(Inputs::Named(parse_seed(seed)?));
            }
            for file in &args.seed_ktests {
                let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
                let ktest =
                    KTest::from_bytes(&bytes).with_context(|| format!("{} is not a .ktest file", file.display()))?;
                seeds.push(Inputs::Ordered(seed_objects(&ktest)));
            }
            Ok(ShadowMode::Seeded {
                seeds,
                bse_budget: seconds("--bse-budget", args.bse_budget, true)?,
                derived: args.derived_seeds,
            })
        }
    }
}

/// How many tests the human report lists.
const HUMAN_LIST_LIMIT: usize = 25;

/// One line per test: where the versions parted, what each did, the inputs, and the ending.
pub fn divergence_report(summary: &RunSummary) -> String {
    let mut out = String::new();
    if summary.tests.is_empty() {
        // "Found none" only where the run explored everything.
        let _ = match (summary.diff_paths, summary.stopped_by.as_deref()) {
            (0, None) => writeln!(out, "no divergence found"),
            (0, Some(reason)) => writeln!(out, "no divergence in what the run explored before {reason} stopped it"),
            (n, Some(reason)) => {
                writeln!(out, "{n} diff paths, none written as a test before {reason} stopped the run")
            }
            (n, None) => writeln!(out, "{n} diff paths, none kept as a test"),
        };
        return out;
    }
    let listed = summary.tests.len() as u64;
    if summary.tests_count > listed {
        let where_ = summary.output_dir.as_deref().map_or(String::new(), |d| format!(" (all in {d}/tests.jsonl)"));
        let _ = writeln!(out, "the first {listed} of {} tests{where_}:", summary.tests_count);
    }
    for kind in ["divergence", "error"] {
        let tests: Vec<&TestRecord> = summary.tests.iter().filter(|t| t.kind == kind).collect();
        if tests.is_empty() {
            continue;
        }
        let title = if kind == "divergence" { "divergences" } else { "errors in both versions" };
        let _ = writeln!(out, "{title}:");
        for t in tests {
            let _ = writeln!(out, "  {}  {}", t.name, describe(t, &summary.program));
        }
    }
    out
}

/// A test in a line; places in the program's first file `program` are lines, in its other
/// files `file:line`.
fn describe(t: &TestRecord, program: &str) -> String {
    let inputs: Vec<String> = t.inputs.0.iter().map(|i| show_input(&i.name, &i.bytes)).collect();
    let mut s = String::new();
    let place = |file: &str, line: u32| match file {
        "" => format!("line {line}"),
        f if f == program => format!("line {line}"),
        f => format!("{f}:{line}"),
    };
    if let (Some(line), Some(old), Some(new)) = (t.line, &t.old, &t.new) {
        let _ = write!(s, "{}: old {old}, new {new}; ", place(t.file.as_deref().unwrap_or(""), line));
    }
    let _ = write!(s, "{}", if inputs.is_empty() { "no inputs".to_string() } else { inputs.join(" ") });
    match (&t.error, t.exit_code) {
        (Some(e), _) => {
            let _ = write!(s, "; ends with {} at {}", e.kind, place(&e.file, e.line));
        }
        (None, Some(code)) => {
            let _ = write!(s, "; new exits {code}");
        }
        (None, None) => {
            if let Some(reason) = &t.reason {
                let _ = write!(s, "; ends: {reason}");
            }
        }
    }
    s
}
