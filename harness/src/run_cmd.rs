//! `penumbra run FILE.c`: symbolic execution of one version, writing a test per ended path and
//! printing a summary (a short table, or one JSON object with `--json`). Progress goes to
//! stderr once a run takes longer than a second, never to stdout.

use crate::cli::ProgramFiles;
use crate::cli::{ExploreArgs, RunArgs, SearchArg, VersionArg};
use crate::compile::compile_program;
use crate::run_info::{RunInfo, RunWatch};
use crate::seconds::seconds;
use anyhow::Result;
use penumbra_engine::config::{Budgets, EngineConfig, Environment, Mode, Output, SearchKind, SymArg};
use penumbra_engine::output::replay::check_tests;
use penumbra_engine::output::testgen::ktest_args;
use penumbra_ir::Version;
use penumbra_solver::SolverConfig;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// `penumbra run`; `sym_args` are the `--sym-arg(s)` options in command-line order.
pub fn run(args: &RunArgs, sym_args: Vec<SymArg>) -> Result<ExitCode> {
    let version = match args.version {
        VersionArg::Old => Version::Old,
        VersionArg::New => Version::New,
    };
    let mut config = engine_config(args.main_file(), &args.explore, &args.args, sym_args)?;
    config.mode = Mode::Single(version);
    config.random_seed = args.random_seed;
    config.keep_test_records = args.explore.json || args.replay_check;
    let module = compile_program(&args.files, &args.compile)?;
    crate::interrupt::install();
    let mut watch = RunWatch::new(RunInfo::new("run", &args.files, &args.compile)?);
    let mut summary = crate::run_info::run_watched(&module, &config, &mut watch, "symbolic execution")?;
    let written = match watch.finish(&summary) {
        Err(e) if e.before_start => return Err(e.into()),
        written => written,
    };
    let mismatches = if args.replay_check {
        Some(check_tests(&module, version, &ktest_args(&config.env), &summary.tests))
    } else {
        None
    };
    if !args.explore.json {
        summary.tests.clear();
    }
    let mut out = std::io::stdout().lock();
    if args.explore.json {
        match &mismatches {
            None => writeln!(out, "{}", summary.to_json())?,
            Some(m) => {
                let mut value = serde_json::to_value(&summary)?;
                value["replay_mismatches"] = m
                    .iter()
                    .map(|m| serde_json::json!({"test": m.test, "expected": m.expected, "got": m.got}))
                    .collect();
                writeln!(out, "{value}")?;
            }
        }
    } else {
        write!(out, "{}", summary.human())?;
        if let Some(m) = &mismatches {
            writeln!(out, "  replay check: {} of {} tests differ", m.len(), summary.tests_count)?;
            for m in m {
                writeln!(out, "    {}: expected {}, replay gave {}", m.test, m.expected, m.got)?;
            }
        }
    }
    // The summary is printed first: it says what the run did before its output failed.
    written?;
    Ok(match mismatches {
        Some(m) if !m.is_empty() => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

/// The engine configuration for the exploring commands (`run`, `shadow`); the caller sets what
/// is particular to it.
pub fn engine_config(
    file: &Path,
    args: &ExploreArgs,
    program_args: &[String],
    sym_args: Vec<SymArg>,
) -> Result<EngineConfig> {
    let max_time = args.max_time.map(|s| seconds("--max-time", s, true)).transpose()?;
    let solver = SolverConfig {
        query_cache: !args.no_query_cache,
        cex_cache: !args.no_cex_cache,
        independence: !args.no_independence,
        ranges: !args.no_range_solver,
        timeout_ms: args.solver_timeout,
        // A Bitwuzla check grows inside one call, between the engine's memory reads: it gives
        // up (the branch ends its state early) where the run would stop.
        memory_limit_mb: (args.max_memory > 0).then_some(args.max_memory),
        query_log: args.query_log.clone(),
        ..SolverConfig::default()
    };
    let output = if args.no_tests {
        Output::None
    } else if let Some(dir) = &args.output_dir {
        Output::Dir(dir.clone())
    } else {
        let parent = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Output::Numbered(parent.to_path_buf())
    };
    Ok(EngineConfig {
        search: match args.search {
            SearchArg::Dfs => SearchKind::Dfs,
            SearchArg::Bfs => SearchKind::Bfs,
            SearchArg::RandomPath => SearchKind::RandomPath,
            SearchArg::CoveringNew => SearchKind::CoveringNew,
            SearchArg::PatchDirected => SearchKind::PatchDirected,
            SearchArg::Interleaved => SearchKind::Interleaved,
        },
        site_states: (args.site_states > 0).then_some(args.site_states),
        halt_tests: !args.no_halt_tests,
        budgets: Budgets {
            max_instructions: args.max_instructions,
            max_states: (args.max_states > 0).then_some(args.max_states),
            max_depth: args.max_depth,
            max_paths: args.max_paths,
            max_time,
            max_memory_mb: (args.max_memory > 0).then_some(args.max_memory),
            // Below the memory that stops the run, so that states are capped before it does.
            fork_memory_mb: (args.fork_memory > 0).then(|| match args.max_memory {
                0 => args.fork_memory,
                max => args.fork_memory.min(max * 3 / 4),
            }),
            max_tests: (args.max_tests > 0).then_some(args.max_tests),
            max_site_tests: (args.max_site_tests > 0).then_some(args.max_site_tests),
            max_output_mb: (args.max_output_mb > 0).then_some(args.max_output_mb),
        },
        env: Environment {
            program_name: file.display().to_string(),
            args: program_args.to_vec(),
            sym_args,
            sym_stdin: args.sym_stdin,
            sym_files: crate::inputs::sym_files(args.sym_files.as_deref())?,
            sym_file_types: args.sym_file_types,
            env: args.env.clone(),
        },
        output,
        keep_test_records: args.json,
        write_path_condition: args.write_smt2,
        all_ktests: args.all_ktests,
        solver,
        max_object_size: args.max_object_size,
        max_term_weight: args.max_term_weight,
        max_sym_bytes: args.max_sym_bytes,
        ..EngineConfig::default()
    })
}
