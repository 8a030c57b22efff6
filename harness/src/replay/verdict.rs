//! How a replayed test's outcomes are decided from its three witnesses: the engine's test
//! record, the concrete interpreter and the native run (issue 34 items 3 and 4).
//!
//! - **Which decides.** The native run where its build has AddressSanitizer (it sees memory
//!   errors as they happen natively); elsewhere (static musl builds, prebuilt executables
//!   without it) the interpreter decides whether the version errs, and the native run gives
//!   the output and exit status when it ran to its end. Where the interpreter gives no verdict
//!   (an unmodelled construct, its step budget), the native run decides alone.
//! - **Undefined behaviour both versions share.** A UBSan report present in both versions at
//!   the same place with the same text is no error of either (`qsort(NULL, 0, ...)` in both),
//!   unless the interpreter reports an error of that version on that very line (an
//!   out-of-bounds index UBSan saw and AddressSanitizer did not); a report in one version only
//!   is an error of that version.
//! - **Disagreements.** A version whose witnesses disagree on whether it errs makes the test
//!   `unconfirmed`. Each is compared only on what it claims: the engine on the versions its
//!   record speaks of ([`Claims`]); the interpreter against a native run that errs, or against
//!   a native run with AddressSanitizer that does not.

use super::classify::{classify, Class, Fix};
use super::interpreter::InterpOutcome;
use super::native::{NativeRun, RunOutcome};
pub use super::record::Decider;
use super::sanitizer::UbReport;
use serde_json::Value;

/// What the engine's record says of how one version ended: an error or not, in a few words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub error: bool,
    pub what: String,
}

/// What a test's record claims of each version.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    pub old: Option<Claim>,
    pub new: Option<Claim>,
}

impl Claims {
    /// The claims of a record of `penumbra shadow` (`command`; `penumbra run` explores one
    /// version, which its directory does not record: no claims). An `error` record is an error
    /// of both versions. A `divergence` record's path follows the new version after the
    /// divergence, so it claims how new ended (its error or exit status) and, of old, only the
    /// divergence's own check when old fails it.
    pub fn of(record: &Value, command: &str) -> Claims {
        if command != "shadow" {
            return Claims::default();
        }
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let place = |v: &Value| {
            let line = v.get("line").and_then(Value::as_u64).unwrap_or(0);
            match text(v, "file") {
                Some(file) => format!("{}:{line}", file.rsplit('/').next().unwrap_or(&file)),
                None => format!("line {line}"),
            }
        };
        let error = record.get("error").filter(|e| e.is_object()).map(|e| Claim {
            error: true,
            what: format!("{} at {}", text(e, "kind").unwrap_or_else(|| "error".into()), place(e)),
        });
        let exit = record
            .get("exit_code")
            .and_then(Value::as_i64)
            .map(|code| Claim { error: false, what: format!("exit {code}") });
        match text(record, "kind").as_deref() {
            Some("error") => Claims { old: error.clone(), new: error },
            Some("divergence") => Claims {
                old: (text(record, "old").as_deref() == Some("fails"))
                    .then(|| Claim { error: true, what: format!("failing the check at {}", place(record)) }),
                new: error.or(exit),
            },
            _ => Claims::default(),
        }
    }
}

/// One version's witnesses on a test.
pub struct Witnesses<'a> {
    pub native: &'a NativeRun,
    /// Whether the native build has AddressSanitizer.
    pub sanitizers: bool,
    /// The interpreter's run (`None`: no interpreter for this version).
    pub interpreter: Option<&'a InterpOutcome>,
    pub engine: Option<&'a Claim>,
}

/// A version's outcome as decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decided {
    pub outcome: RunOutcome,
    pub by: Decider,
    /// The witnesses and what each said, where they disagree (`new: engine ..., interpreter
    /// ..., native ...`).
    pub disagreement: Option<String>,
}

/// The reports of `old` that `new` makes too (same place and text; across source trees, same
/// file and text: see [`UbReport::same_as`]), in old's order.
pub fn shared_ub(old: &[UbReport], new: &[UbReport], across_trees: bool) -> Vec<UbReport> {
    old.iter().filter(|r| new.iter().any(|n| r.same_as(n, across_trees))).cloned().collect()
}

/// The null-argument reports ([`UbReport::is_null_argument`]) of the versions' runs that are
/// not `shared`, each once, in order: recorded on the test, counted as no error.
pub fn null_arguments(runs: &[&[UbReport]], shared: &[UbReport]) -> Vec<UbReport> {
    let mut found: Vec<UbReport> = Vec::new();
    for r in runs.iter().flat_map(|run| run.iter()) {
        if r.is_null_argument() && !shared.contains(r) && !found.contains(r) {
            found.push(r.clone());
        }
    }
    found
}

/// Whether the interpreter's run reports an error on the line of `report`.
pub fn confirms(interpreter: Option<&InterpOutcome>, report: &UbReport) -> bool {
    match interpreter {
        Some(InterpOutcome::Error { file, line, .. }) => report.is_at(file, *line),
        _ => false,
    }
}

/// The native run's outcome with its UBSan reports counted: the first report that is neither
/// `shared` nor a null argument ([`UbReport::is_null_argument`]), or that the interpreter
/// confirms, makes it an error.
fn native_outcome(w: &Witnesses, shared: &[UbReport]) -> RunOutcome {
    let counted =
        w.native.ub.iter().find(|r| (!shared.contains(r) && !r.is_null_argument()) || confirms(w.interpreter, r));
    match (&w.native.outcome, counted) {
        (RunOutcome::ReplayFailed(_), _) => w.native.outcome.clone(),
        (_, Some(report)) => RunOutcome::Error(report.as_error()),
        (outcome, None) => outcome.clone(),
    }
}

/// Decides version `name`'s outcome from its witnesses; `shared` are the UBSan reports of
/// both old and new.
pub fn decide(name: &str, w: &Witnesses, shared: &[UbReport]) -> Decided {
    let native = native_outcome(w, shared);
    if let RunOutcome::ReplayFailed(_) = native {
        return Decided { outcome: native, by: Decider::Native, disagreement: None };
    }
    let interpreter_errs = w.interpreter.and_then(InterpOutcome::errs);
    let by = match interpreter_errs {
        Some(_) if !w.sanitizers => Decider::Interpreter,
        _ => Decider::Native,
    };
    let native_errs = matches!(native, RunOutcome::Error(_));
    let outcome = match (by, w.interpreter) {
        (Decider::Interpreter, Some(InterpOutcome::Error { text, .. })) => RunOutcome::Error(text.clone()),
        // No error, the interpreter says: the output is the native run's, if it ran to its end.
        (Decider::Interpreter, Some(InterpOutcome::Exit { code, stdout })) if native_errs => {
            RunOutcome::Exit { code: *code, stdout: stdout.clone() }
        }
        _ => native.clone(),
    };
    let witnesses_differ = match interpreter_errs {
        Some(false) => native_errs,
        Some(true) => !native_errs && w.sanitizers,
        None => false,
    };
    let errs = matches!(outcome, RunOutcome::Error(_));
    let engine_differs = w.engine.is_some_and(|claim| claim.error != errs);
    let disagreement = (witnesses_differ || engine_differs).then(|| {
        let mut said = Vec::new();
        if let Some(claim) = w.engine {
            said.push(format!("engine {}", claim.what));
        }
        if let Some(run) = w.interpreter {
            said.push(format!("interpreter {}", brief_interpreted(run)));
        }
        let native_said = match &native {
            RunOutcome::Exit { code, .. } => format!("exit {code}"),
            RunOutcome::Error(e) | RunOutcome::ReplayFailed(e) => e.clone(),
        };
        let checks = if w.sanitizers { " (AddressSanitizer)" } else { "" };
        said.push(format!("native{checks} {native_said}"));
        format!("{name}: {}", said.join(", "))
    });
    Decided { outcome, by, disagreement }
}

/// The interpreter's outcome in a few words.
pub fn brief_interpreted(run: &InterpOutcome) -> String {
    match run {
        InterpOutcome::Exit { code, .. } => format!("exit {code}"),
        InterpOutcome::Error { brief, .. } => brief.clone(),
        InterpOutcome::NoVerdict(why) => format!("no verdict ({why})"),
    }
}

/// The class of a test from its decided versions: `unconfirmed` where a version's witnesses
/// disagree (unless a version could not be fed the test at all), else from the outcomes. The
/// fixes' versions count only where they decide the class (an output difference): on an error
/// in new only they say which bug it is, and the class stays `regression`.
pub fn class_of(old: &Decided, new: &Decided, fixes: &[Fix<Decided>]) -> Class {
    let fixes_decide = matches!((&old.outcome, &new.outcome), (RunOutcome::Exit { .. }, RunOutcome::Exit { .. }));
    let fix_versions = fixes.iter().filter(|_| fixes_decide).flat_map(Fix::versions);
    let versions: Vec<&Decided> = [old, new].into_iter().chain(fix_versions).collect();
    let failed = versions.iter().any(|d| matches!(d.outcome, RunOutcome::ReplayFailed(_)));
    if !failed && versions.iter().any(|d| d.disagreement.is_some()) {
        return Class::Unconfirmed;
    }
    let fixes: Vec<Fix<&RunOutcome>> = fixes.iter().map(|f| f.as_ref().map(|d| &d.outcome)).collect();
    classify(&old.outcome, &new.outcome, &fixes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn exit(code: i32) -> RunOutcome {
        RunOutcome::Exit { code, stdout: b"out\n".to_vec() }
    }

    fn native(outcome: RunOutcome, ub: &[&UbReport]) -> NativeRun {
        NativeRun { outcome, ub: ub.iter().map(|&r| r.clone()).collect(), stderr: Vec::new() }
    }

    fn oob(line: u32) -> InterpOutcome {
        InterpOutcome::Error {
            text: format!("out-of-bounds-write: write of 1 byte out of the bounds of its object at t.c:{line}"),
            brief: format!("out-of-bounds-write at t.c:{line}"),
            file: "/src/t.c".into(),
            line,
        }
    }

    fn interpreted_exit(code: i32) -> InterpOutcome {
        InterpOutcome::Exit { code, stdout: b"interpreted\n".to_vec() }
    }

    fn report(place: &str, text: &str) -> UbReport {
        UbReport { place: place.into(), text: text.into() }
    }

    fn witnesses<'a>(
        native: &'a NativeRun,
        sanitizers: bool,
        interpreter: Option<&'a InterpOutcome>,
        engine: Option<&'a Claim>,
    ) -> Witnesses<'a> {
        Witnesses { native, sanitizers, interpreter, engine }
    }

    #[test]
    fn the_interpreter_decides_errors_where_the_build_has_no_sanitizers() {
        let clean = native(exit(0), &[]);
        let (error, claim) = (oob(9), Claim { error: true, what: "out-of-bounds-write at t.c:9".into() });
        let d = decide("new", &witnesses(&clean, false, Some(&error), Some(&claim)), &[]);
        let expected = "out-of-bounds-write: write of 1 byte out of the bounds of its object at t.c:9";
        assert_eq!(
            d,
            Decided { outcome: RunOutcome::Error(expected.into()), by: Decider::Interpreter, disagreement: None }
        );
        // No error: the native run's output and status.
        let ok = interpreted_exit(0);
        let d = decide("old", &witnesses(&clean, false, Some(&ok), None), &[]);
        assert_eq!((d.outcome, d.by, d.disagreement), (exit(0), Decider::Interpreter, None));
        // No verdict: the native run alone.
        let none = InterpOutcome::NoVerdict("no end within 10 steps".into());
        let d = decide("old", &witnesses(&clean, false, Some(&none), None), &[]);
        assert_eq!((d.outcome, d.by, d.disagreement), (exit(0), Decider::Native, None));
    }

    #[test]
    fn a_sanitized_native_run_decides_and_the_others_check_it() {
        let clean = native(exit(0), &[]);
        let claim = Claim { error: true, what: "out-of-bounds-write at t.c:9".into() };
        let error = oob(9);
        let d = decide("new", &witnesses(&clean, true, Some(&error), Some(&claim)), &[]);
        assert_eq!((&d.outcome, d.by), (&exit(0), Decider::Native));
        assert_eq!(
            d.disagreement.as_deref(),
            Some("new: engine out-of-bounds-write at t.c:9, interpreter out-of-bounds-write at t.c:9, native (AddressSanitizer) exit 0")
        );
        // The native run errs where the interpreter ends cleanly.
        let crashed = native(RunOutcome::Error("AddressSanitizer: heap-buffer-overflow at t.c:9".into()), &[]);
        let ok = interpreted_exit(0);
        let d = decide("old", &witnesses(&crashed, true, Some(&ok), None), &[]);
        assert_eq!(
            d.disagreement.as_deref(),
            Some("old: interpreter exit 0, native (AddressSanitizer) AddressSanitizer: heap-buffer-overflow at t.c:9")
        );
        // A native crash without sanitizers disagrees with a clean interpreter too; its
        // outcome is the interpreter's verdict, with the interpreter's output.
        let d = decide("old", &witnesses(&crashed, false, Some(&ok), None), &[]);
        assert_eq!(
            (&d.outcome, d.by),
            (&RunOutcome::Exit { code: 0, stdout: b"interpreted\n".to_vec() }, Decider::Interpreter)
        );
        assert!(d.disagreement.is_some());
        // Agreeing witnesses.
        let d = decide("new", &witnesses(&crashed, true, Some(&error), Some(&claim)), &[]);
        assert_eq!(d.disagreement, None);
    }

    #[test]
    fn the_engine_is_checked_only_where_it_claims() {
        let clean = native(exit(0), &[]);
        let ok = interpreted_exit(0);
        let exits = Claim { error: false, what: "exit 0".into() };
        assert_eq!(decide("new", &witnesses(&clean, true, Some(&ok), Some(&exits)), &[]).disagreement, None);
        assert_eq!(decide("old", &witnesses(&clean, true, Some(&ok), None), &[]).disagreement, None);
        // An engine error neither replay sees.
        let errs = Claim { error: true, what: "division-by-zero at t.c:4".into() };
        let none = InterpOutcome::NoVerdict("unsupported".into());
        let d = decide("new", &witnesses(&clean, false, Some(&none), Some(&errs)), &[]);
        assert_eq!(
            d.disagreement.as_deref(),
            Some("new: engine division-by-zero at t.c:4, interpreter no verdict (unsupported), native exit 0")
        );
    }

    #[test]
    fn undefined_behaviour_both_versions_share_is_no_error() {
        let qsort = report("/src/t.c:6:3", "null pointer passed as argument 1, which is declared to never be null");
        let shift = report("/src/t.c:8:12", "shift exponent 40 is too large for 32-bit type 'int'");
        let old = native(exit(0), &[&qsort]);
        let new = native(exit(0), &[&qsort, &shift]);
        let shared = shared_ub(&old.ub, &new.ub, false);
        assert_eq!(shared, std::slice::from_ref(&qsort));
        let ok = interpreted_exit(0);
        let d_old = decide("old", &witnesses(&old, true, Some(&ok), None), &shared);
        assert_eq!(d_old.outcome, exit(0));
        // New's own report is an error of new; the native run errs where the interpreter does
        // not, so the witnesses disagree.
        let d_new = decide("new", &witnesses(&new, true, Some(&ok), None), &shared);
        let expected = "runtime error: shift exponent 40 is too large for 32-bit type 'int' at t.c:8";
        assert_eq!(d_new.outcome, RunOutcome::Error(expected.into()));
        assert!(d_new.disagreement.is_some());
        // Confirmed by the interpreter's error on its line, a shared report is an error.
        let index = report("/src/t.c:9:5", "index -1 out of bounds for type 'char[4]'");
        let both = native(exit(0), &[&index]);
        let error = oob(9);
        let d = decide("old", &witnesses(&both, true, Some(&error), None), std::slice::from_ref(&index));
        let expected = "runtime error: index -1 out of bounds for type 'char[4]' at t.c:9";
        assert_eq!((d.outcome, d.disagreement), (RunOutcome::Error(expected.into()), None));
        assert!(!confirms(Some(&oob(10)), &index) && !confirms(Some(&ok), &index));
    }

    #[test]
    fn a_null_argument_in_one_version_only_is_recorded_not_an_error() {
        // Old rejects `cut -b0` and exits 1, passing qsort its empty NULL array on the way.
        let qsort = report("/src/t.c:496:3", "null pointer passed as argument 1, which is declared to never be null");
        let old = native(RunOutcome::Exit { code: 1, stdout: Vec::new() }, &[&qsort]);
        let d = decide("old", &witnesses(&old, true, Some(&interpreted_exit(1)), None), &[]);
        assert_eq!((d.outcome, d.disagreement), (RunOutcome::Exit { code: 1, stdout: Vec::new() }, None));
        assert_eq!(null_arguments(&[&old.ub], &[]), vec![qsort.clone()]);
        // The interpreter's error on its line confirms it.
        let d = decide("old", &witnesses(&old, true, Some(&oob(496)), None), &[]);
        let expected =
            "runtime error: null pointer passed as argument 1, which is declared to never be null at t.c:496";
        assert_eq!(d.outcome, RunOutcome::Error(expected.into()));
        // Any other report in one version only stays that version's error.
        let shift = report("/src/t.c:8:12", "shift exponent 40 is too large for 32-bit type 'int'");
        assert!(!shift.is_null_argument());
        let new = native(exit(0), &[&shift]);
        let d = decide("new", &witnesses(&new, true, Some(&interpreted_exit(0)), None), &[]);
        assert!(matches!(d.outcome, RunOutcome::Error(_)));
    }

    #[test]
    fn disagreement_comes_before_the_outcomes_but_not_before_a_test_that_cannot_be_fed() {
        let agree = Decided { outcome: exit(0), by: Decider::Native, disagreement: None };
        let differ = Decided { outcome: exit(0), by: Decider::Native, disagreement: Some("new: ...".into()) };
        assert_eq!(class_of(&agree, &differ, &[]), Class::Unconfirmed);
        assert_eq!(class_of(&agree, &agree, &[]), Class::Silent);
        let failed =
            Decided { outcome: RunOutcome::ReplayFailed("no object".into()), by: Decider::Native, disagreement: None };
        assert_eq!(class_of(&failed, &differ, &[]), Class::ReplayFailed);
        // A fix's parent whose witnesses disagree makes the test unconfirmed too.
        let parent_differs = Fix { fixed: agree.clone(), parent: Some(differ.clone()) };
        assert_eq!(class_of(&agree, &agree, &[parent_differs]), Class::Unconfirmed);
    }

    #[test]
    fn claims_follow_what_the_record_says() {
        let divergence = json!({"kind": "divergence", "line": 9, "file": "/src/t.c", "old": "passes", "new": "fails",
            "error": {"kind": "out-of-bounds-write", "line": 9, "file": "/src/t.c"}});
        let claims = Claims::of(&divergence, "shadow");
        assert_eq!(claims.old, None);
        assert_eq!(claims.new, Some(Claim { error: true, what: "out-of-bounds-write at t.c:9".into() }));
        // A path that went on in new after old failed the check.
        let fix = json!({"kind": "divergence", "line": 4, "file": "/src/t.c", "old": "fails", "new": "passes", "exit_code": 3});
        let claims = Claims::of(&fix, "shadow");
        assert_eq!(claims.old, Some(Claim { error: true, what: "failing the check at t.c:4".into() }));
        assert_eq!(claims.new, Some(Claim { error: false, what: "exit 3".into() }));
        // A branch divergence says nothing of how old ends.
        let branch = json!({"kind": "divergence", "line": 4, "old": "true", "new": "false", "exit_code": 0});
        assert_eq!(Claims::of(&branch, "shadow").old, None);
        let both = json!({"kind": "error", "line": 12, "error": {"kind": "out-of-bounds-write", "line": 12}});
        let claims = Claims::of(&both, "shadow");
        assert_eq!((claims.old.clone(), claims.old.map(|c| c.error)), (claims.new, Some(true)));
        // `penumbra run` and records without an ending claim nothing.
        assert_eq!(Claims::of(&both, "run"), Claims::default());
        assert_eq!(
            Claims::of(&json!({"kind": "divergence", "old": "true", "new": "false"}), "shadow"),
            Claims::default()
        );
    }
}
