//! The classes of a replayed test (`contract.md`), from how the old and the new version ran it
//! (and, with `--fixed-version`, a later fixed version), and `unconfirmed` where the witnesses
//! of a version disagree ([`super::verdict`]).

use super::native::RunOutcome;
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
    /// An error in the new version only (or, with `--fixed-version`, an output difference
    /// where new does not behave like the fixed version).
    Regression,
    /// Different stdout or exit status, no error in either version.
    OutputDiff,
    /// An error in both versions.
    BothError,
    /// An error in the old version only.
    Fix,
    /// With `--fixed-version`: an output difference where new behaves like the fixed version.
    Expected,
    /// The same visible behaviour: the versions differ only inside the program.
    Silent,
    /// The replay runtime could not feed the test to a build (see runtime.c); not a
    /// behaviour of the program.
    ReplayFailed,
}

impl Class {
    pub const ALL: [Class; 8] = [
        Class::Unconfirmed,
        Class::Regression,
        Class::OutputDiff,
        Class::BothError,
        Class::Fix,
        Class::Expected,
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
            Class::Silent => "silent",
            Class::ReplayFailed => "replay-failed",
        }
    }

    /// The class named `name`, if there is one.
    pub fn named(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// Whether the class is an observable difference between the versions: an output or
    /// exit status that differs, or an error in one version only.
    pub fn observable(self) -> bool {
        matches!(self, Class::Regression | Class::OutputDiff | Class::Fix | Class::Expected)
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
            Class::Regression if fixed => "error only in new, or new unlike the fixed version",
            Class::Regression => "error only in new",
            Class::OutputDiff => "stdout or exit status differ",
            Class::BothError => "error in both versions",
            Class::Fix => "error only in old",
            Class::Expected => "new behaves like the fixed version",
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

/// The class of a test from its runs on old, new, and optionally the fixed version.
pub fn classify(old: &RunOutcome, new: &RunOutcome, fixed: Option<&RunOutcome>) -> Class {
    use RunOutcome::*;
    match (old, new) {
        (ReplayFailed(_), _) | (_, ReplayFailed(_)) => Class::ReplayFailed,
        (Error(_), Error(_)) => Class::BothError,
        (Exit { .. }, Error(_)) => Class::Regression,
        (Error(_), Exit { .. }) => Class::Fix,
        (Exit { .. }, Exit { .. }) if old == new => Class::Silent,
        (Exit { .. }, Exit { .. }) => match fixed {
            None | Some(ReplayFailed(_)) => Class::OutputDiff,
            Some(f) if f == new => Class::Expected,
            Some(_) => Class::Regression,
        },
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
        assert_eq!(classify(&exit(0, ""), &error(), None), Class::Regression);
        assert_eq!(classify(&error(), &exit(0, ""), None), Class::Fix);
        assert_eq!(classify(&error(), &error(), None), Class::BothError);
        assert_eq!(classify(&exit(0, "1\n"), &exit(0, "0\n"), None), Class::OutputDiff);
        assert_eq!(classify(&exit(0, "1\n"), &exit(1, "1\n"), None), Class::OutputDiff);
        assert_eq!(classify(&exit(3, "x"), &exit(3, "x"), None), Class::Silent);
        let failed = RunOutcome::ReplayFailed("the test violates an assumption".into());
        assert_eq!(classify(&failed, &error(), None), Class::ReplayFailed);
    }

    #[test]
    fn the_fixed_version_decides_output_differences() {
        let (old, new) = (exit(0, "1\n"), exit(0, "0\n"));
        assert_eq!(classify(&old, &new, Some(&exit(0, "0\n"))), Class::Expected);
        assert_eq!(classify(&old, &new, Some(&exit(0, "1\n"))), Class::Regression);
        assert_eq!(classify(&old, &new, Some(&error())), Class::Regression);
        // Only output differences are decided by the fixed version.
        assert_eq!(classify(&exit(0, ""), &error(), Some(&error())), Class::Regression);
        assert_eq!(classify(&exit(0, ""), &exit(0, ""), Some(&exit(1, ""))), Class::Silent);
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
        assert_eq!(observable, [Class::Regression, Class::OutputDiff, Class::Fix, Class::Expected]);
    }
}
