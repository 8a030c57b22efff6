//! The query log of a run replays with z3 to the same answers.
//!
//! A simulated exploration runs with the query log on (once with every
//! cache, once incremental without caches); the log is split into its
//! scripts, each script goes to `z3 -smt2`, and z3's verdict must equal the
//! answer penumbra logged.

use std::path::PathBuf;
use std::process::Command;

use penumbra_solver::query_log::split_log;
use penumbra_solver::SolverConfig;

use crate::common::explore;

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("penumbra-solver-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn replay_with_z3(config: SolverConfig, name: &str, nodes: usize) -> usize {
    let dir = scratch_dir(name);
    let log = dir.join("queries.smt2");
    let run = explore(SolverConfig { query_log: Some(log.clone()), ..config }, 99, nodes);
    let text = std::fs::read_to_string(&log).unwrap();
    let queries = split_log(&text);
    assert_eq!(queries.len() as u64, run.stats.core_queries, "one script per Bitwuzla query");
    let mut replayed = 0;
    for q in &queries {
        assert!(q.script.contains("(set-logic QF_BV)") && q.script.contains("(check-sat)"));
        if q.answer == "unknown" {
            continue;
        }
        let file = dir.join(format!("q{}.smt2", q.index));
        std::fs::write(&file, &q.script).unwrap();
        let out =
            Command::new("z3").arg("-smt2").arg(&file).output().expect("z3 must be installed (Debian package z3)");
        let verdict = String::from_utf8_lossy(&out.stdout);
        assert_eq!(verdict.trim(), q.answer, "z3 disagrees on query {} of {name}:\n{}", q.index, q.script);
        replayed += 1;
    }
    std::fs::remove_dir_all(&dir).unwrap();
    replayed
}

#[test]
fn query_log_replays_with_z3_to_the_same_answers() {
    let with_caches = replay_with_z3(SolverConfig::default(), "cached", 60);
    let without = replay_with_z3(SolverConfig::no_caches(), "plain", 40);
    assert!(with_caches > 20, "{with_caches}");
    assert!(without > 20, "{without}");
}
