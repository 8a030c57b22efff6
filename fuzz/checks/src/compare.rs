//! The comparison of a complete shadow execution with the brute-force [`oracle`](crate::oracle)
//! for one program and input domain: the engine's `diff_paths`, each `divergence` test (its
//! input diverges, at the reported line, with the reported sides, and ends as the new version
//! does), every other test (an error in both versions: its input fails in both, as reported),
//! and the set of diff paths (signatures) the tests cover, which must be exactly the oracle's:
//! none missed, none twice.
//!
//! Seeded mode ([`check_seeded`]) may miss diff paths, but never one of its own seeds': each
//! test is checked the same way, no diff path may have two tests, and every seed that diverges
//! must have its diff path covered (the concolic phase queues the seed's divergence, and
//! bounded symbolic execution from there follows every continuation of the new version,
//! the seed's own among them), unless the BSE budget cut the run short.
//!
//! All problems of a program are collected and reported together, with inputs, so that one
//! failing program says everything about itself. Used by the engine's shadow tests and the
//! `shadow` fuzz target.

use crate::oracle::{inputs_of, point_of, Expected, OldAction, Oracle, Point, Signature, Site, Var, Verdict};
use penumbra_engine::concrete::Outcome;
use penumbra_engine::output::testgen::TestRecord;
use penumbra_engine::{Budgets, EngineConfig, Mode, Output, RunSummary, SearchKind, ShadowMode};
use penumbra_ir::Version;
use penumbra_solver::SolverConfig;
use std::collections::BTreeMap;

/// The engine's instruction budget in a comparison: a safety net for programs of at most a few
/// hundred paths of a few thousand instructions (a count, not a time, so that a busy machine
/// cannot fail a comparison). A run that hits it is a problem.
const MAX_INSTRUCTIONS: u64 = 50_000_000;

/// Complete shadow execution as comparisons run it: every test kept, no files.
pub fn complete_config(search: SearchKind, seed: u64) -> EngineConfig {
    EngineConfig {
        mode: Mode::Shadow(ShadowMode::Complete),
        output: Output::None,
        keep_test_records: true,
        search,
        random_seed: seed,
        budgets: Budgets { max_instructions: Some(MAX_INSTRUCTIONS), ..Budgets::default() },
        ..EngineConfig::default()
    }
}

/// Seeded shadow execution from `seeds` (points of `vars`) as comparisons run it. The BSE
/// budget is far above what programs of a few hundred paths need: reaching it is reported as
/// `stopped_by`, and [`check_seeded`] then checks soundness only.
pub fn seeded_config(vars: &[Var], seeds: &[Point]) -> EngineConfig {
    seeded_config_within(vars, seeds, std::time::Duration::from_secs(120))
}

/// [`seeded_config`] with another BSE budget (zero: the concolic phase alone).
pub fn seeded_config_within(vars: &[Var], seeds: &[Point], bse_budget: std::time::Duration) -> EngineConfig {
    let seeds = seeds.iter().map(|p| inputs_of(vars, p)).collect();
    EngineConfig {
        mode: Mode::Shadow(ShadowMode::Seeded { seeds, bse_budget, derived: 0 }),
        ..complete_config(SearchKind::Dfs, 0)
    }
}

/// The problems of a comparison and the engine's tests, for a failure message.
pub fn report(problems: &[String], summary: Option<&RunSummary>) -> String {
    let tests: Vec<String> = summary.map(|s| s.tests.iter().map(show_test).collect()).unwrap_or_default();
    format!("- {}\nengine tests:\n  {}", problems.join("\n- "), tests.join("\n  "))
}

/// `x=3, y=-1`.
pub fn show(vars: &[Var], point: &[i64]) -> String {
    let parts: Vec<String> = vars.iter().zip(point).map(|(v, x)| format!("{}={x}", v.name)).collect();
    parts.join(", ")
}

/// A test as one line: name, kind, divergence line and labels, ending.
pub fn show_test(t: &TestRecord) -> String {
    let ending = match (&t.exit_code, &t.error) {
        (Some(c), _) => format!("exit {c}"),
        (_, Some(e)) => format!("{} at line {}", e.kind, e.line),
        _ => t.reason.clone().unwrap_or_default(),
    };
    format!(
        "{} {} line {:?} old {:?} new {:?} ({ending})",
        t.name,
        t.kind,
        t.line,
        t.old.as_deref().unwrap_or("-"),
        t.new.as_deref().unwrap_or("-")
    )
}

/// The engine's `old`/`new` labels for a divergence the oracle places at `site`, if they fit.
fn labels_fit(oracle: &Oracle, site: &Site, old: &str, new: &str) -> bool {
    match *site {
        Site::Branch { old: o, new: n } => old == o.to_string() && new == n.to_string(),
        Site::Check { old_fails: true } => (old, new) == ("fails", "passes"),
        Site::Check { old_fails: false } => (old, new) == ("passes", "fails"),
        Site::Block { old: o, new: n } => (old, new) == (o, n),
        Site::Output { old: o, new: n } => old == format!("value {o}") && new == format!("value {n}"),
        Site::Printed => (old, new) == ("printed to stdout", "printed to stdout"),
        Site::Switch { func, inst, question, new_took } => {
            // The engine names each version's target by its selector value when it diverged;
            // only the version that took `question` is pinned to it, the other to a later target
            // (any of them: the path does not decide which).
            let q = |label| oracle.label_question(func, inst, label);
            let later = |label| matches!(q(label), Some(Some(k)) if k > question) || q(label) == Some(None);
            let (took, other) = if new_took { (new, old) } else { (old, new) };
            q(took) == Some(Some(question)) && later(other)
        }
    }
}

/// Whether a test's recorded ending (exit status, or error kind and line) is a concrete run's.
pub fn ending_fits(t: &TestRecord, outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Exit(code) => t.exit_code == Some(*code),
        Outcome::Error(e) => t.error.as_ref().is_some_and(|r| r.kind == e.kind.as_str() && r.line == e.location.line),
        _ => false,
    }
}

/// Every disagreement between a complete-mode engine summary and the oracle's `expected`
/// answer.
pub fn check_summary(oracle: &Oracle, expected: &Expected, summary: &RunSummary) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(why) = &summary.stopped_by {
        problems.push(format!("the engine stopped early ({why}) on a program of a few hundred paths"));
    }
    if summary.diff_paths != expected.diff_paths() as u64 {
        problems.push(format!("diff_paths: expected {}, got {}", expected.diff_paths(), summary.diff_paths));
    }
    let covered = check_tests(oracle, summary, &mut problems);
    for (sig, points) in &expected.paths {
        if !covered.contains_key(sig) {
            problems.push(format!("missed diff path: {}", describe(oracle, sig, points)));
        }
    }
    problems
}

/// Every disagreement between a seeded-mode engine summary (run from `seeds`) and the oracle:
/// each test as in complete mode, no diff path twice, and the diff path of every seed that
/// diverges covered. When the BSE budget was reached, only the seeds whose new version fails
/// at the divergence must be covered: the concolic phase ended those paths itself, and what a
/// seed confirmed stays whatever the BSE budget.
pub fn check_seeded(oracle: &Oracle, summary: &RunSummary, seeds: &[Point]) -> Vec<String> {
    let mut problems = Vec::new();
    let cut = match summary.stopped_by.as_deref() {
        None => false,
        Some("bse-budget") => true,
        Some(why) => {
            problems.push(format!("the engine stopped early ({why}) on a program of a few hundred paths"));
            true
        }
    };
    let covered = check_tests(oracle, summary, &mut problems);
    for seed in seeds {
        if let Verdict::Diverges(d) = oracle.verdict(seed) {
            let confirmed = matches!(d.signature.old, OldAction::Passes);
            if (!cut || confirmed) && !covered.contains_key(&d.signature) {
                let points = [seed.clone()];
                problems
                    .push(format!("the seed's own diff path is missed: {}", describe(oracle, &d.signature, &points)));
            }
        }
    }
    problems
}

/// Complete shadow execution under budgets that cut it short: at most `max_states` states
/// alive, and, when `starved`, one millisecond per Bitwuzla check with every query going to
/// Bitwuzla (no caches, no range solver), so that some answer unknown.
pub fn budgeted_config(search: SearchKind, seed: u64, max_states: usize, starved: bool) -> EngineConfig {
    let mut config = complete_config(search, seed);
    config.budgets.max_states = Some(max_states);
    if starved {
        config.solver = SolverConfig { timeout_ms: Some(1), ranges: false, ..SolverConfig::no_caches() };
    }
    config
}

/// Every disagreement between a budgeted engine run and the oracle: each test must be what it
/// claims (as in complete mode), however little the run explored; a path the budget ended
/// early only needs inputs of the domain.
pub fn check_budgeted(oracle: &Oracle, summary: &RunSummary) -> Vec<String> {
    let mut problems = Vec::new();
    let mut claims = summary.clone();
    claims.tests.retain(|t| t.kind != "early");
    check_tests(oracle, &claims, &mut problems);
    problems
}

/// Checks every test of `summary` against the oracle (pushing to `problems`) and returns the
/// diff paths the divergence tests cover, with their tests; a diff path with several tests is
/// a problem.
fn check_tests(oracle: &Oracle, summary: &RunSummary, problems: &mut Vec<String>) -> BTreeMap<Signature, Vec<String>> {
    let vars = &oracle.vars[..];
    let divergence_tests = summary.tests.iter().filter(|t| t.kind == "divergence").count();
    if divergence_tests as u64 != summary.diff_paths {
        problems.push(format!("{divergence_tests} divergence tests but diff_paths = {}", summary.diff_paths));
    }
    let mut covered: BTreeMap<Signature, Vec<String>> = BTreeMap::new();
    for t in &summary.tests {
        let named: Vec<(String, Vec<u8>)> = t.inputs.0.iter().map(|i| (i.name.clone(), i.bytes.clone())).collect();
        let Some(point) = point_of(vars, &named) else {
            problems.push(format!("{}: inputs lack a variable", show_test(t)));
            continue;
        };
        let at = show(vars, &point);
        let verdict = oracle.verdict(&point);
        if t.kind != "divergence" {
            // Shadow execution writes no other test than for an error in both versions: its
            // input must fail in both, where and as the test says.
            match verdict {
                Verdict::BothError => {
                    let replay = oracle.run(Version::New, &point);
                    if t.kind != "error" || !ending_fits(t, &replay.outcome) {
                        problems.push(format!(
                            "{}: input {at} fails in both versions with {} in the new one",
                            show_test(t),
                            replay.outcome
                        ));
                    }
                }
                Verdict::Diverges(d) => problems.push(format!(
                    "{}: input {at} diverges (line {}, {:?}) but the test is not a divergence",
                    show_test(t),
                    d.line,
                    d.site
                )),
                other => problems.push(format!(
                    "{}: input {at} is {other:?} for the oracle, not an error in both versions",
                    show_test(t)
                )),
            }
            continue;
        }
        let Verdict::Diverges(d) = verdict else {
            problems.push(format!("{}: input {at} does not diverge ({verdict:?})", show_test(t)));
            continue;
        };
        if t.line != Some(d.line) {
            problems.push(format!("{}: input {at} first differs at line {}", show_test(t), d.line));
        }
        let (old, new) = (t.old.as_deref().unwrap_or(""), t.new.as_deref().unwrap_or(""));
        if !labels_fit(oracle, &d.site, old, new) {
            problems.push(format!("{}: input {at} differs as {:?}", show_test(t), d.site));
        }
        let replay = oracle.run(Version::New, &point);
        // A path ended early (the BSE budget, a decision a timed-out query left open) claims
        // no ending.
        let ended_early = t.reason.is_some() && t.exit_code.is_none() && t.error.is_none();
        if !ended_early && !ending_fits(t, &replay.outcome) {
            problems.push(format!("{}: input {at} ends with {} in the new version", show_test(t), replay.outcome));
        }
        covered.entry(d.signature).or_default().push(format!("{} ({at})", t.name));
    }
    for (sig, tests) in &covered {
        if tests.len() > 1 {
            problems.push(format!(
                "one diff path (at {}, old {:?}) has several tests: {}",
                sig.prefix.len(),
                sig.old,
                tests.join(", ")
            ));
        }
    }
    covered
}

/// A diff path for a message: its inputs, where it diverges and how the new version ends.
fn describe(oracle: &Oracle, sig: &Signature, points: &[Point]) -> String {
    let vars = &oracle.vars[..];
    let shown: Vec<String> = points.iter().take(4).map(|p| format!("[{}]", show(vars, p))).collect();
    let more = if points.len() > 4 { format!(" and {} more", points.len() - 4) } else { String::new() };
    let Verdict::Diverges(d) = oracle.verdict(&points[0]) else { unreachable!("a path's inputs diverge") };
    let end = oracle.run(Version::New, &points[0]).outcome;
    format!(
        "inputs {}{more}: line {}, {:?} (decision {} of the path's {}, old {:?}); new: {end}",
        shown.join(" "),
        d.line,
        d.site,
        sig.prefix.len(),
        sig.prefix.len() + sig.rest.len(),
        sig.old
    )
}
