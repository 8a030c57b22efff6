//! Criterion benchmarks of the symbolic engine (`penumbra_engine::run`) on the C programs in
//! `benches/programs/`:
//! - `paths/range16`: the 65,536-path loop over a 16-byte buffer, tests not written (the
//!   engine's own paths/second; criterion's throughput is in paths);
//! - `paths/range5k_tests`: the 6,885-path range-counting loop with every `.ktest` and the
//!   `tests.jsonl` sidecar written into a fresh directory per iteration (file creation
//!   included; the smaller program keeps the benchmark from creating millions of files);
//! - `caches/<program>/{on,off}`: each program of thousands of paths with all solver caches on,
//!   then off; the queries reaching Bitwuzla are printed once per configuration
//!   (`engine-bench ...` lines) for `results/engine.md`.
//!
//! Run: `cargo bench -p penumbra-benches --bench engine -- --warm-up-time 1 --measurement-time 5`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use penumbra_engine::config::{EngineConfig, Output};
use penumbra_ir::{compile_file, CompileOptions, Module};
use penumbra_solver::SolverConfig;
use std::path::PathBuf;
use std::time::Duration;

fn program(name: &str) -> Module {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("programs").join(name);
    compile_file(&path, &CompileOptions::default()).expect("benchmark program compiles")
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

criterion_group!(benches, paths, caches);
criterion_main!(benches);
