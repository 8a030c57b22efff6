//! `penumbra run FILE.c`: symbolic execution of one version, writing a test per ended path and
//! printing a summary (a short table, or one JSON object with `--json`). Progress goes to
//! stderr once a run takes longer than a second, never to stdout.

use crate::cli::{ExploreArgs, RunArgs, SearchArg, VersionArg};
use crate::compile::compile_program;
use crate::run_info::RunInfo;
use anyhow::{bail, Context, Result};
use penumbra_engine::config::{Budgets, EngineConfig, Environment, Output, SearchKind, SymArg};
use penumbra_engine::replay::check_tests;
use penumbra_engine::testgen::ktest_args;
use penumbra_ir::Version;
use penumbra_solver::SolverConfig;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

pub fn run(args: &RunArgs) -> Result<ExitCode> {
    let mut config = engine_config(&args.file, &args.explore, &args.args, "run")?;
    config.version = match args.version {
        VersionArg::Old => Version::Old,
        VersionArg::New => Version::New,
    };
    config.seed = args.seed;
    config.keep_test_records = args.explore.json || args.replay_check;
    let module = compile_program(&args.file, &args.compile)?;
    let mut summary = penumbra_engine::run(&module, &config).context("symbolic execution failed")?;
    if let Some(dir) = &summary.output_dir {
        RunInfo::new("run", &args.file, &args.compile)?.write(Path::new(dir))?;
    }
    let mismatches = if args.replay_check {
        Some(check_tests(&module, config.version, &ktest_args(&config.env), &summary.tests))
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
    Ok(match mismatches {
        Some(m) if !m.is_empty() => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

/// The engine configuration for the exploring commands (`command` is `run` or `shadow`); the
/// caller sets what is particular to it.
pub fn engine_config(file: &Path, args: &ExploreArgs, program_args: &[String], command: &str) -> Result<EngineConfig> {
    let max_time = match args.max_time {
        Some(s) if !(s.is_finite() && s >= 0.0) => bail!("--max-time expects a number of seconds, got {s}"),
        Some(s) => Some(Duration::from_secs_f64(s)),
        None => None,
    };
    let solver = SolverConfig {
        query_cache: !args.no_query_cache,
        cex_cache: !args.no_cex_cache,
        independence: !args.no_independence,
        ranges: !args.no_range_solver,
        timeout_ms: args.solver_timeout,
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
        },
        budgets: Budgets {
            max_instructions: args.max_instructions,
            max_states: args.max_states,
            max_depth: args.max_depth,
            max_paths: args.max_paths,
            max_time,
            max_memory_mb: args.max_memory,
        },
        env: Environment {
            program_name: file.display().to_string(),
            args: program_args.to_vec(),
            sym_args: sym_args(args, command)?,
            sym_stdin: args.sym_stdin,
        },
        output,
        keep_test_records: args.json,
        solver,
        progress: true,
        ..EngineConfig::default()
    })
}

/// The `--sym-arg` and `--sym-args` options in command-line order (clap keeps each option's
/// values, not their interleaving, so the order is read off the raw arguments).
fn sym_args(args: &ExploreArgs, command: &str) -> Result<Vec<SymArg>> {
    let mut single = args.sym_arg.iter();
    let mut triples = args.sym_args.chunks_exact(3);
    let mut out = Vec::new();
    for word in std::env::args().skip_while(|w| w != command) {
        if word == "--" {
            break;
        }
        if word == "--sym-arg" || word.starts_with("--sym-arg=") {
            if let Some(&len) = single.next() {
                out.push(SymArg::Arg { len });
            }
        } else if word == "--sym-args" || word.starts_with("--sym-args=") {
            if let Some(t) = triples.next() {
                if t[0] > t[1] {
                    bail!("--sym-args {} {} {}: MIN is greater than MAX", t[0], t[1], t[2]);
                }
                out.push(SymArg::Args { min: t[0], max: t[1], len: t[2] });
            }
        }
    }
    // Anything not seen in the raw arguments (e.g. when called from a test) keeps clap's order.
    out.extend(single.map(|&len| SymArg::Arg { len }));
    for t in triples {
        if t[0] > t[1] {
            bail!("--sym-args {} {} {}: MIN is greater than MAX", t[0], t[1], t[2]);
        }
        out.push(SymArg::Args { min: t[0], max: t[1], len: t[2] });
    }
    Ok(out)
}
