//! The oracle's corpus with musl as the C library (`--libc musl`, issue 34): each program is
//! compiled against musl's bitcode and linked with it (its start, `exit`, `_Exit` and the
//! `exit_group` system call run as code), and the engine must find exactly the diff paths the
//! oracle derives from the program under penumbra's models: the same count, every test at the
//! same line with the same sides and ending, every diff path once ([`check_summary`] against
//! the models' oracle).
//!
//! The subset, fixed: every program of the shadow suite but the two whose divergences are
//! printed values ([`PRINTED_DIVERGENCES`]), in complete mode and in seeded mode from every
//! input of the domain (seconds in all); and every subject of the benchmark suite, in complete
//! mode only, as `suite_counts_are_the_oracles` runs them (seeded mode from every input of
//! their domains takes minutes). Under musl, `printf` is musl's code: it forks on the digits of
//! what it prints, and a printed value that differs is a text that differs, where musl's
//! buffer is written (at exit here), not the models' one value at the `printf`; so those diff
//! paths are not the models' ones by construction. The generated programs of the `shadow` fuzz
//! target are IR built in memory, which musl's bitcode cannot be linked into: they run under
//! the models only.
//!
//! Needs musl's bitcode (scripts/build-musl.sh, as `--libc musl` does).

use super::compare::{check_seeded, check_summary, compile, compile_with_musl, engine, report, seeded_config};
use super::oracle::{points, Oracle, Var};
use super::suite;

/// The programs of the shadow suite whose divergences are printed values, left out under musl
/// (see the module documentation).
const PRINTED_DIVERGENCES: &[&str] = &["output_only", "exit_handlers"];

/// Every disagreement with the models' oracle of one program under musl, in complete mode and,
/// when `seeded`, in seeded mode from every input of the domain; `expected_diff_paths`: the
/// manifest's count, which must be the oracle's.
fn problems(name: &str, source: &str, vars: &[Var], seeded: bool, expected_diff_paths: Option<i64>) -> Vec<String> {
    let start = std::time::Instant::now();
    let models = compile(name, source);
    let oracle = Oracle::new(&models, vars);
    let expected = oracle.explore();
    let musl = compile_with_musl(name, source);
    let mut out = Vec::new();
    match engine(&musl) {
        Ok(summary) => {
            let problems = check_summary(&oracle, &expected, &summary);
            if !problems.is_empty() {
                out.push(format!("complete mode:\n{}", report(&problems, Some(&summary))));
            }
        }
        Err(e) => out.push(format!("complete mode: the engine failed: {e}")),
    }
    if let Some(count) = expected_diff_paths.filter(|&c| c != expected.diff_paths() as i64) {
        out.push(format!("the manifest expects {count} diff paths, the oracle counts {}", expected.diff_paths()));
    }
    if seeded {
        let seeds = points(vars);
        match penumbra_engine::run(&musl, &seeded_config(vars, &seeds)) {
            Ok(summary) => {
                let mut problems = check_seeded(&oracle, &summary, &seeds);
                let (complete, seeded) = (expected.diff_paths() as u64, summary.diff_paths);
                if seeded != complete {
                    problems.push(format!("diff_paths: complete mode {complete}, seeded {seeded}"));
                }
                if !problems.is_empty() {
                    out.push(format!("seeded mode:\n{}", report(&problems, Some(&summary))));
                }
            }
            Err(e) => out.push(format!("seeded mode: the engine failed: {e}")),
        }
    }
    eprintln!(
        "musl {name}: {} diff paths, {} problems ({:.1} s)",
        expected.diff_paths(),
        out.len(),
        start.elapsed().as_secs_f64()
    );
    out
}

#[test]
fn the_shadow_programs_find_the_models_diff_paths_with_musl() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, source, vars) in super::all().iter().filter(|p| !PRINTED_DIVERGENCES.contains(&p.0)) {
        let problems = problems(name, source, vars, true, None);
        if !problems.is_empty() {
            failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
        }
        checked += 1;
    }
    assert_eq!(checked, 70, "programs checked under musl");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_benchmark_suite_finds_the_oracles_diff_paths_with_musl() {
    let subjects = suite::subjects();
    assert_eq!(subjects.len(), 41, "subjects with a domain in benches/suite/manifest.toml");
    let mut failures = Vec::new();
    for s in &subjects {
        let problems = problems(&s.name, &s.source, &s.vars, false, s.expected_diff_paths);
        if !problems.is_empty() {
            failures.push(format!("{}:\n  {}", s.name, problems.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
