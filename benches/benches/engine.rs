//! Criterion benchmarks of the engine on the C programs in `benches/programs/`:
//! - `paths/range16`: the 65,536-path loop over a 16-byte buffer, tests not written (the
//!   engine's own paths/second; criterion's throughput is in paths);
//! - `paths/range5k_tests`: the 6,885-path range-counting loop with every `.ktest` and the
//!   `tests.jsonl` sidecar written into a fresh directory per iteration (file creation
//!   included; the smaller program keeps the benchmark from creating millions of files);
//! - `caches/<program>/{on,off}`: each program of thousands of paths with all solver caches on,
//!   then off; the queries reaching Bitwuzla are printed once per configuration
//!   (`engine-bench ...` lines) for `results/engine.md`;
//! - `interpreter/{concrete,symbolic}`: the interpreter loop on `sieve_fib.c` (no symbolic
//!   data: loads, stores, calls), in the concrete interpreter and in the symbolic engine, where
//!   every value is a constant term (throughput in interpreted instructions);
//! - `fork/{16,262144}_slots`: `forks.c`, 4,096 paths that each write one slot of a global
//!   array after the forks, with a 64-byte and a 1 MiB array: what a fork costs and whether
//!   it grows with the memory a state holds (copy-on-write); `fork/deep_path`: `forks_deep.c`,
//!   the same 4,096 paths after 2,000 path constraints each: whether a fork (and a query)
//!   grows with the length of the path;
//! - `shadow/controller`: complete shadow execution of the wheel-brake controller (8 changed
//!   conditions, about 2*10^5 states; issue 5's target is under 2 s), and
//!   `shadow/controller_refactored` beside `run/controller_refactored` (the overhead of shadow
//!   execution when no change has a semantic effect; target at most 1.3x).
//!
//! - `memory/translate`: `translate.c`, tr's translation table (256 bytes, three entries
//!   written at symbolic offsets, eight bytes read through it at symbolic offsets), 256 paths:
//!   what a symbolic-offset read of symbolically written bytes costs the solver (the write
//!   log keeps each read a few `ite`s; 10.8 s at a6b01f7, when each was a chain of 256);
//!
//! - `search/first_diff/<searcher>`: complete shadow execution until the first diff path (its
//!   test written) of `deep_change.c`, whose change lies behind the first decision on the side
//!   depth-first search takes last, and `search/suite/<searcher>` the same summed over the 42
//!   programs of `benches/suite` (each stops at its first diff path, or explores all of them
//!   when it has none): the directed searcher against random-path and depth-first.
//!
//! Run: `cargo bench -p penumbra-benches --bench engine -- --warm-up-time 1 --measurement-time 5`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use penumbra_engine::concrete::{self, RunConfig};
use penumbra_engine::config::{EngineConfig, Mode, Output, SearchKind, ShadowMode};
use penumbra_ir::{compile_file, CompileOptions, Module};
use penumbra_solver::SolverConfig;
use std::path::PathBuf;
use std::time::Duration;

fn program(name: &str) -> Module {
    program_with(name, &[])
}

/// `name` compiled with `-D` definitions.
fn program_with(name: &str, defines: &[&str]) -> Module {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("programs").join(name);
    let options =
        CompileOptions { defines: defines.iter().map(|d| d.to_string()).collect(), ..CompileOptions::default() };
    compile_file(&path, &options).expect("benchmark program compiles")
}

fn config(solver: SolverConfig) -> EngineConfig {
    EngineConfig { keep_test_records: false, solver, ..EngineConfig::default() }
}

fn paths(c: &mut Criterion) {
    let module = program("range16.c");
    let mut group = c.benchmark_group("paths");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(65_536));
    group.bench_function("range16", |b| {
        let cfg = config(SolverConfig::default());
        b.iter(|| {
            let s = penumbra_engine::run(&module, &cfg).expect("runs");
            assert_eq!(s.paths_completed, 65_536);
        })
    });
    let small = program("range5k.c");
    group.throughput(Throughput::Elements(6_885));
    group.bench_function("range5k_tests", |b| {
        let tmp = tempfile::tempdir().expect("temp dir");
        let mut n = 0;
        b.iter(|| {
            n += 1;
            let mut cfg = config(SolverConfig::default());
            cfg.output = Output::Dir(tmp.path().join(format!("out{n}")));
            let s = penumbra_engine::run(&small, &cfg).expect("runs");
            assert_eq!(s.tests_count, 6_885);
        })
    });
    group.finish();
}

fn caches(c: &mut Criterion) {
    let mut group = c.benchmark_group("caches");
    group.sample_size(10);
    for name in ["range5k.c", "tokens.c", "keywords.c"] {
        let module = program(name);
        for (label, solver) in [("on", SolverConfig::default()), ("off", SolverConfig::no_caches())] {
            let cfg = config(solver);
            let s = penumbra_engine::run(&module, &cfg).expect("runs");
            println!(
                "engine-bench {name} caches={label}: paths={} queries={} bitwuzla={} wall_s={:.3}",
                s.paths_completed, s.solver.queries, s.solver.core_queries, s.wall_s
            );
            group.bench_function(format!("{name}/{label}"), |b| {
                b.iter(|| penumbra_engine::run(&module, &cfg).expect("runs"))
            });
        }
    }
    group.finish();
}

fn memory(c: &mut Criterion) {
    let module = program("translate.c");
    let cfg = config(SolverConfig::default());
    let mut group = c.benchmark_group("memory");
    group.sample_size(10).throughput(Throughput::Elements(256));
    group.bench_function("translate", |b| {
        b.iter(|| {
            let s = penumbra_engine::run(&module, &cfg).expect("runs");
            assert_eq!(s.paths_completed, 256);
        })
    });
    group.finish();
}

fn interpreter(c: &mut Criterion) {
    let module = program("sieve_fib.c");
    let expected_exit = 81; // (fib(25) + 17,984 primes below 200,000) % 256
    let prepared = concrete::Program::new(&module).expect("loads");
    let steps = prepared.run(&RunConfig::default()).steps;
    let mut group = c.benchmark_group("interpreter");
    group.sample_size(10).throughput(Throughput::Elements(steps));
    group.bench_function("concrete", |b| {
        b.iter(|| {
            let r = prepared.run(&RunConfig::default());
            assert_eq!(r.outcome, concrete::Outcome::Exit(expected_exit));
        })
    });
    let cfg = EngineConfig { keep_test_records: true, ..config(SolverConfig::default()) };
    group.bench_function("symbolic", |b| {
        b.iter(|| {
            let s = penumbra_engine::run(&module, &cfg).expect("runs");
            assert_eq!((s.paths_completed, s.tests[0].exit_code), (1, Some(expected_exit)));
        })
    });
    group.finish();
}

fn fork(c: &mut Criterion) {
    let mut group = c.benchmark_group("fork");
    group.sample_size(10).throughput(Throughput::Elements(4_096));
    for slots in [16u64, 262_144] {
        let module = program_with("forks.c", &[&format!("SLOTS={slots}")]);
        let cfg = config(SolverConfig::default());
        group.bench_function(format!("{slots}_slots"), |b| {
            b.iter(|| {
                let s = penumbra_engine::run(&module, &cfg).expect("runs");
                assert_eq!(s.paths_completed, 4_096);
            })
        });
    }
    let deep = program_with("forks_deep.c", &["DEPTH=2000"]);
    let cfg = config(SolverConfig::default());
    group.bench_function("deep_path", |b| {
        b.iter(|| {
            let s = penumbra_engine::run(&deep, &cfg).expect("runs");
            assert_eq!(s.paths_completed, 4_096);
        })
    });
    group.finish();
}

fn shadow(c: &mut Criterion) {
    let mut group = c.benchmark_group("shadow");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    let complete = EngineConfig { mode: Mode::Shadow(ShadowMode::Complete), ..config(SolverConfig::default()) };
    let controller = program("controller.c");
    group.bench_function("controller", |b| {
        b.iter(|| {
            let s = penumbra_engine::run(&controller, &complete).expect("runs");
            assert_eq!(s.diff_paths, 187_392);
        })
    });
    let refactored = program("controller_refactored.c");
    group.bench_function("controller_refactored", |b| {
        b.iter(|| {
            let s = penumbra_engine::run(&refactored, &complete).expect("runs");
            assert_eq!(s.diff_paths, 0);
        })
    });
    let plain = config(SolverConfig::default());
    group.bench_function("run/controller_refactored", |b| {
        b.iter(|| penumbra_engine::run(&refactored, &plain).expect("runs"))
    });
    group.finish();
}

/// Complete shadow execution of `module` with `search` until its first diff path.
fn first_diff(module: &Module, search: SearchKind, dir: &std::path::Path) -> u64 {
    let _ = std::fs::remove_dir_all(dir);
    let mut c = config(SolverConfig::default());
    c.mode = Mode::Shadow(ShadowMode::Complete);
    c.search = search;
    c.budgets.max_tests = Some(1);
    c.output = Output::Dir(dir.to_path_buf());
    penumbra_engine::run(module, &c).expect("run").diff_paths
}

fn search(c: &mut Criterion) {
    let searchers = [SearchKind::Dfs, SearchKind::RandomPath, SearchKind::PatchDirected, SearchKind::Interleaved];
    let scratch = tempfile::tempdir().expect("temporary directory");
    let dir = scratch.path().join("out");
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let deep = program("deep_change.c");
    for &s in &searchers {
        group.bench_function(format!("first_diff/{}", s.name()), |b| {
            b.iter(|| assert_eq!(first_diff(&deep, s, &dir), 1));
        });
    }
    let suite_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("suite");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&suite_dir)
        .expect("benches/suite")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    let suite: Vec<Module> =
        files.iter().map(|p| compile_file(p, &CompileOptions::default()).expect("suite program compiles")).collect();
    for &s in &searchers {
        group.bench_function(format!("suite/{}", s.name()), |b| {
            b.iter(|| suite.iter().map(|m| first_diff(m, s, &dir)).sum::<u64>());
        });
    }
    group.finish();
}

criterion_group!(benches, paths, caches, memory, interpreter, fork, shadow, search);
criterion_main!(benches);
