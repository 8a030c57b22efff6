//! The caches never change an answer: the same simulated exploration runs
//! with every cache configuration (each layer alone, all, none, incremental
//! or not, tiny capacities that force eviction) and must give exactly the
//! answers of the plain Bitwuzla run. Models may differ between
//! configurations, but each one is checked against its query; and the same
//! configuration run twice gives the same models.

use penumbra_solver::SolverConfig;

use crate::common::explore;

const NODES: usize = 120;
const SEEDS: [u64; 2] = [7, 1234];

fn configs() -> Vec<(&'static str, SolverConfig)> {
    let none = SolverConfig::no_caches();
    vec![
        ("none, not incremental", SolverConfig { incremental: false, ..none.clone() }),
        ("exact cache only", SolverConfig { query_cache: true, ..none.clone() }),
        ("cex cache only", SolverConfig { cex_cache: true, ..none.clone() }),
        ("independence only", SolverConfig { independence: true, ..none.clone() }),
        ("all", SolverConfig::default()),
        ("all, not incremental", SolverConfig { incremental: false, ..SolverConfig::default() }),
        (
            "all, tiny capacities",
            SolverConfig {
                query_cache_capacity: 2,
                cex_cache_capacity: 2,
                cex_eval_models: 1,
                independence_capacity: 2,
                proof_cache_capacity: 1,
                var_index_capacity: 3,
                ..SolverConfig::default()
            },
        ),
    ]
}

#[test]
fn caches_never_change_an_answer() {
    for seed in SEEDS {
        let baseline = explore(SolverConfig::no_caches(), seed, NODES);
        assert!(baseline.answers.len() > 100, "exploration too small: {}", baseline.answers.len());
        assert_eq!(baseline.stats.exact_hits + baseline.stats.cex_hits + baseline.stats.independence_hits, 0);
        for (name, config) in configs() {
            let run = explore(config, seed, NODES);
            assert_eq!(run.answers.len(), baseline.answers.len(), "{name}, seed {seed}");
            for (i, (a, b)) in run.answers.iter().zip(&baseline.answers).enumerate() {
                assert_eq!(a, b, "{name}, seed {seed}: answer {i} differs");
            }
        }
    }
}

#[test]
fn caches_hit_and_save_bitwuzla_calls() {
    let plain = explore(SolverConfig::no_caches(), SEEDS[0], NODES);
    let cached = explore(SolverConfig::default(), SEEDS[0], NODES);
    let st = &cached.stats;
    assert!(st.exact_hits > 0, "{st:?}");
    assert!(st.cex_hits > 0, "{st:?}");
    assert!(st.independence_hits > 0, "{st:?}");
    assert!(st.core_queries < plain.stats.core_queries, "{} vs {}", st.core_queries, plain.stats.core_queries);
    assert_eq!(st.cex_hits, st.cex_unsat_subset_hits + st.cex_superset_hits + st.cex_eval_hits);
    assert_eq!(st.queries, plain.stats.queries);
}

#[test]
fn same_calls_give_same_models() {
    for config in [SolverConfig::default(), SolverConfig::no_caches()] {
        let a = explore(config.clone(), SEEDS[1], NODES);
        let b = explore(config, SEEDS[1], NODES);
        assert_eq!(a.answers, b.answers);
        assert_eq!(a.models, b.models);
        assert!(!a.models.is_empty());
    }
}
