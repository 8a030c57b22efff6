//! The comparison of complete shadow execution with the oracle, for one program: the engine's
//! `diff_paths`, each `divergence` test (its input diverges, at the reported line, with the
//! reported sides, and ends as the new version does), every other test (its input does not
//! diverge), and the set of diff paths (signatures) the tests cover, which must be exactly
//! the oracle's: none missed, none twice.
//!
//! All problems of a program are collected and reported together, with inputs, so that one
//! failing program says everything about itself.

use super::oracle::{inputs_of, point_of, Expected, Oracle, Point, Signature, Site, Var, Verdict};
use penumbra_engine::concrete::Outcome;
use penumbra_engine::testgen::TestRecord;
use penumbra_engine::{EngineConfig, Output, RunSummary, SearchKind, ShadowMode};
use penumbra_ir::{compile_source, CompileOptions, Module, Version};
use std::collections::BTreeMap;

/// Compiles a program of the suite; its file name shows in diagnostics.
pub fn compile(name: &str, source: &str) -> Module {
    compile_source(&format!("{name}.c"), source, &CompileOptions::default())
        .unwrap_or_else(|e| panic!("{name}: compile error: {e}"))
}

/// Complete shadow execution with every test kept, no files (depth-first search).
pub fn engine(module: &Module) -> Result<RunSummary, String> {
    engine_with(module, SearchKind::Dfs)
}

/// Complete shadow execution under a search strategy.
pub fn engine_with(module: &Module, search: SearchKind) -> Result<RunSummary, String> {
    let config = EngineConfig {
        shadow: Some(ShadowMode::Complete),
        output: Output::None,
        keep_test_records: true,
        search,
        ..Default::default()
    };
    penumbra_engine::run(module, &config).map_err(|e| e.to_string())
}

/// `x=3, y=-1`.
pub fn show(vars: &[Var], point: &[i64]) -> String {
    let parts: Vec<String> = vars.iter().zip(point).map(|(v, x)| format!("{}={x}", v.name)).collect();
    parts.join(", ")
}

fn show_test(t: &TestRecord) -> String {
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

/// Whether the engine's recorded ending is the new version's concrete one.
fn ending_fits(t: &TestRecord, outcome: &Outcome) -> bool {
    match outcome {
        Outcome::Exit(code) => t.exit_code == Some(*code),
        Outcome::Error(e) => t.error.as_ref().is_some_and(|r| r.kind == e.kind.as_str() && r.line == e.location.line),
        _ => false,
    }
}

/// The outcome of comparing one program.
pub struct Comparison {
    pub expected: Expected,
    pub summary: Option<RunSummary>,
    pub problems: Vec<String>,
}

/// Runs the oracle and the engine on a program and lists every disagreement.
pub fn compare(name: &str, source: &str, vars: &[Var]) -> Comparison {
    let module = compile(name, source);
    let oracle = Oracle::new(&module, vars);
    let expected = oracle.explore();
    match engine(&module) {
        Ok(summary) => {
            let problems = check_summary(&oracle, &expected, &summary);
            Comparison { expected, summary: Some(summary), problems }
        }
        Err(e) => Comparison { expected, summary: None, problems: vec![format!("the engine failed: {e}")] },
    }
}

/// Every disagreement between an engine summary and the oracle's `expected` answer.
pub fn check_summary(oracle: &Oracle, expected: &Expected, summary: &RunSummary) -> Vec<String> {
    let vars = &oracle.vars[..];
    let mut problems = Vec::new();
    if summary.diff_paths != expected.diff_paths() as u64 {
        problems.push(format!("diff_paths: expected {}, got {}", expected.diff_paths(), summary.diff_paths));
    }
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
            if let Verdict::Diverges(d) = verdict {
                problems.push(format!(
                    "{}: input {at} diverges (line {}, {:?}) but the test is not a divergence",
                    show_test(t),
                    d.line,
                    d.site
                ));
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
        let replay = oracle.run_inputs(Version::New, inputs_of(vars, &point));
        if !ending_fits(t, &replay.outcome) {
            problems.push(format!("{}: input {at} ends with {} in the new version", show_test(t), replay.outcome));
        }
        covered.entry(d.signature).or_default().push(format!("{} ({at})", t.name));
    }
    for (sig, tests) in &covered {
        if tests.len() > 1 {
            problems.push(format!(
                "one diff path (at {}, old {:?}) has several tests: {}",
                sig.at,
                sig.old,
                tests.join(", ")
            ));
        }
    }
    for (sig, points) in &expected.paths {
        if !covered.contains_key(sig) {
            problems.push(format!("missed diff path: {}", describe(oracle, vars, sig, points)));
        }
    }
    problems
}

/// A diff path for a message: its inputs, where it diverges and how the new version ends.
fn describe(oracle: &Oracle, vars: &[Var], sig: &Signature, points: &[Point]) -> String {
    let shown: Vec<String> = points.iter().take(4).map(|p| format!("[{}]", show(vars, p))).collect();
    let more = if points.len() > 4 { format!(" and {} more", points.len() - 4) } else { String::new() };
    let Verdict::Diverges(d) = oracle.verdict(&points[0]) else { unreachable!("a path's inputs diverge") };
    let end = oracle.run(Version::New, &points[0]).outcome;
    format!(
        "inputs {}{more}: line {}, {:?} (decision {} of new's {}, old {:?}); new: {end}",
        shown.join(" "),
        d.line,
        d.site,
        sig.at,
        sig.new_trace.len(),
        sig.old
    )
}

/// Asserts that the engine agrees with the oracle on a program; prints both counts.
pub fn assert_agrees(name: &str, source: &str, vars: &[Var]) {
    let c = compare(name, source, vars);
    let got = c.summary.as_ref().map_or("-".to_string(), |s| s.diff_paths.to_string());
    eprintln!(
        "shadow oracle {name}: oracle {} diff paths ({} divergent, {} same, {} both-error inputs), engine {got}",
        c.expected.diff_paths(),
        c.expected.divergent.len(),
        c.expected.same,
        c.expected.both_error,
    );
    if !c.problems.is_empty() {
        let tests =
            c.summary.map(|s| s.tests.iter().map(show_test).collect::<Vec<_>>().join("\n  ")).unwrap_or_default();
        panic!(
            "{name}: the engine disagrees with the oracle:\n- {}\nengine tests:\n  {tests}",
            c.problems.join("\n- ")
        );
    }
}
