//! The classes of a replayed test (`contract.md`), from how the old and the new version ran it
//! (and, with `--fixed-version`, the fixing commits' versions and, with `--fix-parent-version`,
//! their parents': Shadow's rule, [`judge`]), and `unconfirmed` where the witnesses of a version
//! disagree ([`super::verdict`]).
//!
//! **Shadow's rule** (Palikareva, Kuchta and Cadar, ICSE 2016, on CoREBench): an output
//! difference between old and new is *expected* if the fix's parent and the fix behave the same
//! on the test (the fix did not touch this behaviour), or the fix behaves like new (the fixed
//! program keeps the difference); otherwise it is a *regression*. An error in new only stays a
//! `regression` whatever the fixes do; their judgements say whether it is the error the fix
//! removes (`unexplained`: the fix's parent errs, the fix does not) or another one. With several fixes (the flags repeated, paired in order),
//! the rule chosen here: `expected` if ANY fix explains the difference by either condition;
//! `regression` if no fix explains it and at least one fix was fed the test; `output-diff` if no
//! fix could be fed it (every judgement [`Judgement::Undecided`]). Without a fix's parent only
//! the second condition can hold (the contract's rule: `expected` iff new behaves like the fixed
//! version). Two outcomes "behave the same" when both exit with the same status and stdout, or
//! both err (an error's text names lines, which differ between revisions).

use super::native::{Build, RunOutcome};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A replayed test's class, declared most severe first (the report's order). Its names are
/// spelled once, in [`Class::as_str`]: serde, the JSON Schema (`penumbra schema`), the batch
/// table's columns and the scripts all take them from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// The engine, the interpreter and the native run disagree on whether a version errs: to
    /// be looked at, never folded into another class.
    Unconfirmed,
    /// An error in the new version only (or, with `--fixed-version`, an output difference no
    /// fix explains: see [`judge`]).
    Regression,
    /// Different stdout or exit status, no error in either version.
    OutputDiff,
    /// An error in both versions.
    BothError,
    /// An error in the old version only.
    Fix,
    /// With `--fixed-version`: an output difference a fix explains (the fix behaves like new, or
    /// like the fix's parent).
    Expected,
    /// The same stdout and exit status, no error; standard error differs (a new warning, a
    /// reworded message).
    StderrDiff,
    /// The same visible behaviour: the versions differ only inside the program.
    Silent,
    /// The replay runtime could not feed the test to a build (see runtime.c); not a
    /// behaviour of the program.
    ReplayFailed,
}

impl Class {
    pub const ALL: [Class; 9] = [
        Class::Unconfirmed,
        Class::Regression,
        Class::OutputDiff,
        Class::BothError,
        Class::Fix,
        Class::Expected,
        Class::StderrDiff,
        Class::Silent,
        Class::ReplayFailed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Class::Unconfirmed => "unconfirmed",
            Class::Regression => "regression",
            Class::OutputDiff => "output-diff",
            Class::BothError => "both-error",
            Class::Fix => "fix",
            Class::Expected => "expected",
            Class::StderrDiff => "stderr-diff",
            Class::Silent => "silent",
            Class::ReplayFailed => "replay-failed",
        }
    }

    /// The class named `name`, if there is one.
    pub fn named(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// Whether the class is an observable difference between the versions: an output, exit
    /// status or standard error that differs, or an error in one version only.
    pub fn observable(self) -> bool {
        matches!(self, Class::Regression | Class::OutputDiff | Class::Fix | Class::Expected | Class::StderrDiff)
    }

    /// Whether the class is a bug candidate of the new version rather than a difference the
    /// patch may have meant (an error in new only, or new unlike the fixed version).
    pub fn bug_candidate(self) -> bool {
        self == Class::Regression
    }

    /// What the class means, in a few words (`fixed`: whether a fixed version was given).
    pub fn meaning(self, fixed: bool) -> &'static str {
        match self {
            Class::Unconfirmed => "the engine, the interpreter and the native run disagree",
            Class::Regression if fixed => "error only in new, or an output difference no fix explains",
            Class::Regression => "error only in new",
            Class::OutputDiff => "stdout or exit status differ",
            Class::BothError => "error in both versions",
            Class::Fix => "error only in old",
            Class::Expected => "the fix behaves like new, or like the fix's parent",
            Class::StderrDiff => "only standard error differs",
            Class::Silent => "no visible difference",
            Class::ReplayFailed => "the test could not be fed to a build",
        }
    }

    /// The report's heading for the class (`fixed`: whether a fixed version was given).
    pub fn heading(self, fixed: bool) -> String {
        format!("{} ({})", self.as_str(), self.meaning(fixed))
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Class {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Class {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Class::named(&name).ok_or_else(|| {
            let names: Vec<&str> = Class::ALL.iter().map(|c| c.as_str()).collect();
            serde::de::Error::custom(format!("unknown class `{name}` (expected one of {})", names.join(", ")))
        })
    }
}

/// The classes' names, most severe first, each with its meaning.
impl JsonSchema for Class {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Class".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = Class::ALL.iter().map(|c| c.as_str()).collect();
        let meanings: Vec<String> = Class::ALL.iter().map(|c| c.heading(true)).collect();
        schemars::json_schema!({
            "description": format!("A replayed test's class: {}.", meanings.join("; ")),
            "type": "string",
            "enum": names,
        })
    }
}

/// One fix of a regression: the fixing commit's version and, where given, its parent's (each a
/// file, a build, an outcome...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fix<T> {
    pub fixed: T,
    pub parent: Option<T>,
}

impl<T> Fix<T> {
    pub fn as_ref(&self) -> Fix<&T> {
        Fix { fixed: &self.fixed, parent: self.parent.as_ref() }
    }

    /// The fixed version, then its parent where there is one.
    pub fn versions(&self) -> impl Iterator<Item = &T> {
        std::iter::once(&self.fixed).chain(self.parent.as_ref())
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> Fix<U> {
        Fix { fixed: f(self.fixed), parent: self.parent.map(f) }
    }

    /// The names of fix `index`'s versions (from 0) in reports ([`Build::name`]).
    pub fn names(index: usize) -> (String, String) {
        (Build::Fixed(index).name(), Build::FixParent(index).name())
    }

    /// Pairs each fixed version with its parent, in order: no parents, or one for each.
    pub fn pair(fixed: Vec<T>, parents: Vec<T>) -> Result<Vec<Fix<T>>, String> {
        if !parents.is_empty() && parents.len() != fixed.len() {
            return Err(format!(
                "{} fixed versions and {} fix parents: give one parent for each fixed version, in the same order, or none",
                fixed.len(),
                parents.len()
            ));
        }
        let mut parents = parents.into_iter();
        Ok(fixed.into_iter().map(|fixed| Fix { fixed, parent: parents.next() }).collect())
    }
}

/// What one fix says of an output difference between old and new, or of an error in new only
/// (Shadow's rule, see the module's header), the first condition that holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Judgement {
    /// The fix behaves like new: the fixed program keeps the difference (expected).
    FixLikeNew,
    /// The fix's parent and the fix behave the same: the fix did not touch it (expected).
    ParentLikeFix,
    /// The fix changed this behaviour, and not to new's (regression).
    Unexplained,
    /// The fix, or its parent, could not be fed the test: no judgement.
    Undecided,
}

impl Judgement {
    pub const ALL: [Judgement; 4] =
        [Judgement::FixLikeNew, Judgement::ParentLikeFix, Judgement::Unexplained, Judgement::Undecided];

    /// Whether the fix explains the test: an output difference it explains is `expected`; an
    /// error in new only it explains is not the error the fix removes.
    pub fn explains(self) -> bool {
        matches!(self, Judgement::FixLikeNew | Judgement::ParentLikeFix)
    }

    /// The judgement in a few words, for the readable report.
    pub fn meaning(self) -> &'static str {
        match self {
            Judgement::FixLikeNew => "the fix behaves like new",
            Judgement::ParentLikeFix => "the fix's parent and the fix behave the same",
            Judgement::Unexplained => "the fix behaves neither like new nor like its parent",
            Judgement::Undecided => "the fix or its parent could not be fed the test",
        }
    }
}

/// Whether two runs behave the same: the same exit status and stdout, or both an error.
fn same_behaviour(a: &RunOutcome, b: &RunOutcome) -> bool {
    use RunOutcome::*;
    match (a, b) {
        (Exit { .. }, Exit { .. }) => a == b,
        (Error(_), Error(_)) => true,
        _ => false,
    }
}

/// How `fix` judges a test on which old and new exit differently and new ran as `new`.
pub fn judge(new: &RunOutcome, fix: Fix<&RunOutcome>) -> Judgement {
    let failed = |o: &RunOutcome| matches!(o, RunOutcome::ReplayFailed(_));
    if failed(fix.fixed) {
        return Judgement::Undecided;
    }
    if same_behaviour(fix.fixed, new) {
        return Judgement::FixLikeNew;
    }
    match fix.parent {
        Some(parent) if failed(parent) => Judgement::Undecided,
        Some(parent) if same_behaviour(parent, fix.fixed) => Judgement::ParentLikeFix,
        _ => Judgement::Unexplained,
    }
}

/// The class of a test from its runs on old and new, and on the fixes (Shadow's rule, see the
/// module's header; the fixes decide output differences only).
pub fn classify(old: &RunOutcome, new: &RunOutcome, fixes: &[Fix<&RunOutcome>]) -> Class {
    use RunOutcome::*;
    match (old, new) {
        (ReplayFailed(_), _) | (_, ReplayFailed(_)) => Class::ReplayFailed,
        (Error(_), Error(_)) => Class::BothError,
        (Exit { .. }, Error(_)) => Class::Regression,
        (Error(_), Exit { .. }) => Class::Fix,
        (Exit { .. }, Exit { .. }) if old == new => Class::Silent,
        (Exit { .. }, Exit { .. }) => {
            let judgements: Vec<Judgement> = fixes.iter().map(|f| judge(new, *f)).collect();
            if judgements.iter().any(|j| j.explains()) {
                Class::Expected
            } else if judgements.contains(&Judgement::Unexplained) {
                Class::Regression
            } else {
                Class::OutputDiff
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::record::OutcomeRecord;
    use serde_json::json;

    fn exit(code: i32, out: &str) -> RunOutcome {
        RunOutcome::Exit { code, stdout: out.as_bytes().to_vec() }
    }

    fn error() -> RunOutcome {
        RunOutcome::Error("AddressSanitizer: stack-buffer-overflow at t.c:3".into())
    }

    #[test]
    fn errors_decide_before_output() {
        assert_eq!(classify(&exit(0, ""), &error(), &[]), Class::Regression);
        assert_eq!(classify(&error(), &exit(0, ""), &[]), Class::Fix);
        assert_eq!(classify(&error(), &error(), &[]), Class::BothError);
        assert_eq!(classify(&exit(0, "1\n"), &exit(0, "0\n"), &[]), Class::OutputDiff);
        assert_eq!(classify(&exit(0, "1\n"), &exit(1, "1\n"), &[]), Class::OutputDiff);
        assert_eq!(classify(&exit(3, "x"), &exit(3, "x"), &[]), Class::Silent);
        let failed = RunOutcome::ReplayFailed("the test violates an assumption".into());
        assert_eq!(classify(&failed, &error(), &[]), Class::ReplayFailed);
    }

    #[test]
    fn the_fixed_version_decides_output_differences() {
        let (old, new) = (exit(0, "1\n"), exit(0, "0\n"));
        fn alone(fixed: &RunOutcome) -> [Fix<&RunOutcome>; 1] {
            [Fix { fixed, parent: None }]
        }
        assert_eq!(classify(&old, &new, &alone(&exit(0, "0\n"))), Class::Expected);
        assert_eq!(classify(&old, &new, &alone(&exit(0, "1\n"))), Class::Regression);
        assert_eq!(classify(&old, &new, &alone(&error())), Class::Regression);
        // Only output differences are decided by the fixed version.
        assert_eq!(classify(&exit(0, ""), &error(), &alone(&error())), Class::Regression);
        assert_eq!(classify(&exit(0, ""), &exit(0, ""), &alone(&exit(1, ""))), Class::Silent);
    }

    #[test]
    fn shadows_rule_with_the_fixs_parent() {
        let (old, new) = (exit(0, "old\n"), exit(0, "new\n"));
        let fix = |fixed: &RunOutcome, parent: &RunOutcome| Fix { fixed: fixed.clone(), parent: Some(parent.clone()) };
        let class = |fixes: &[&Fix<RunOutcome>]| {
            let fixes: Vec<Fix<&RunOutcome>> = fixes.iter().map(|f| f.as_ref()).collect();
            classify(&old, &new, &fixes)
        };
        let judged = |f: &Fix<RunOutcome>| judge(&new, f.as_ref());
        // The fix did not touch the behaviour: its parent and it print the same (not new's).
        let untouched = fix(&exit(0, "other\n"), &exit(0, "other\n"));
        assert_eq!((judged(&untouched), class(&[&untouched])), (Judgement::ParentLikeFix, Class::Expected));
        // The fix behaves like new, whatever its parent did.
        let keeps = fix(&exit(0, "new\n"), &error());
        assert_eq!((judged(&keeps), class(&[&keeps])), (Judgement::FixLikeNew, Class::Expected));
        // The fix changed it back to old's: the difference is what it fixed.
        let reverts = fix(&exit(0, "old\n"), &exit(0, "new\n"));
        assert_eq!((judged(&reverts), class(&[&reverts])), (Judgement::Unexplained, Class::Regression));
        // The fix's parent crashed where the fix prints old's output: a regression.
        let crash_fixed = fix(&exit(0, "old\n"), &error());
        assert_eq!((judged(&crash_fixed), class(&[&crash_fixed])), (Judgement::Unexplained, Class::Regression));
        // Both err: the same behaviour.
        let both_err = fix(&error(), &RunOutcome::Error("SIGSEGV".into()));
        assert_eq!((judged(&both_err), class(&[&both_err])), (Judgement::ParentLikeFix, Class::Expected));
        // A different exit status is a different behaviour.
        let status = fix(&exit(1, "other\n"), &exit(0, "other\n"));
        assert_eq!(judged(&status), Judgement::Unexplained);
        // Several fixes: any that explains makes it expected; none, a regression.
        assert_eq!(class(&[&reverts, &untouched]), Class::Expected);
        assert_eq!(class(&[&reverts, &crash_fixed]), Class::Regression);
        // A fix that cannot be fed the test judges nothing; with no judgement left, the
        // difference stays an output difference.
        let failed = RunOutcome::ReplayFailed("no object x".into());
        let unfed = fix(&exit(0, "old\n"), &failed);
        assert_eq!((judged(&unfed), class(&[&unfed])), (Judgement::Undecided, Class::OutputDiff));
        assert_eq!(judge(&new, Fix { fixed: &failed, parent: None }), Judgement::Undecided);
        assert_eq!(class(&[&unfed, &reverts]), Class::Regression);
        // An error in new only stays a regression, whatever the fixes say.
        assert_eq!(classify(&old, &error(), &[untouched.as_ref()]), Class::Regression);
    }

    #[test]
    fn fixes_pair_with_their_parents_in_order() {
        let fixes = Fix::pair(vec!["f1", "f2"], vec!["p1", "p2"]).unwrap();
        assert_eq!(fixes, [Fix { fixed: "f1", parent: Some("p1") }, Fix { fixed: "f2", parent: Some("p2") }]);
        assert_eq!(Fix::pair(vec!["f1"], vec![]).unwrap(), [Fix { fixed: "f1", parent: None }]);
        assert_eq!(
            Fix::pair(vec!["f1", "f2"], vec!["p1"]).unwrap_err(),
            "2 fixed versions and 1 fix parents: give one parent for each fixed version, in the same order, or none"
        );
        assert_eq!(Fix::<&str>::names(0), ("fixed".to_string(), "fix-parent".to_string()));
        assert_eq!(Fix::<&str>::names(2), ("fixed-3".to_string(), "fix-parent-3".to_string()));
    }

    #[test]
    fn outcomes_serialise_as_the_contract_says() {
        assert_eq!(
            serde_json::to_value(OutcomeRecord::of(&exit(1, ""))).unwrap(),
            json!({"exit": 1, "stdout_sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"})
        );
        assert_eq!(
            serde_json::to_value(OutcomeRecord::of(&RunOutcome::Error("timeout after 1.0 s".into()))).unwrap(),
            json!({"error": "timeout after 1.0 s"})
        );
    }

    #[test]
    fn classes_read_back_as_they_are_written() {
        for c in Class::ALL {
            let text = serde_json::to_string(&c).unwrap();
            assert_eq!(text, format!("\"{}\"", c.as_str()));
            assert_eq!(serde_json::from_str::<Class>(&text).unwrap(), c);
        }
        let unknown = serde_json::from_str::<Class>("\"regresion\"").unwrap_err().to_string();
        assert!(
            unknown.starts_with("unknown class `regresion` (expected one of unconfirmed, regression,"),
            "{unknown}"
        );
        let observable: Vec<Class> = Class::ALL.into_iter().filter(|c| c.observable()).collect();
        assert_eq!(observable, [Class::Regression, Class::OutputDiff, Class::Fix, Class::Expected, Class::StderrDiff]);
    }
}
