//! The classes of a replayed test (`contract.md`), from how the old and the new version ran it
//! (and, with `--fixed-version`, a later fixed version), and `unconfirmed` where the witnesses
//! of a version disagree ([`super::verdict`]).

use super::native::RunOutcome;
use crate::digest::sha256_hex;
use serde_json::{json, Value};

/// A replayed test's class, declared most severe first (the report's order).
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

    /// The report's heading for the class (`fixed`: whether a fixed version was given).
    pub fn heading(self, fixed: bool) -> &'static str {
        match self {
            Class::Unconfirmed => "unconfirmed (the engine, the interpreter and the native run disagree)",
            Class::Regression if fixed => "regression (error only in new, or new unlike the fixed version)",
            Class::Regression => "regression (error only in new)",
            Class::OutputDiff => "output-diff (stdout or exit status differ)",
            Class::BothError => "both-error (error in both versions)",
            Class::Fix => "fix (error only in old)",
            Class::Expected => "expected (new behaves like the fixed version)",
            Class::Silent => "silent (no visible difference)",
            Class::ReplayFailed => "replay-failed (the test could not be fed to a build)",
        }
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

/// An outcome as the JSON reports give it: `{exit, stdout_sha256}` or `{error}` (and
/// `{replay_failed}` when the test could not be fed to the build).
pub fn outcome_json(outcome: &RunOutcome) -> Value {
    match outcome {
        RunOutcome::Exit { code, stdout } => json!({"exit": code, "stdout_sha256": sha256_hex(stdout)}),
        RunOutcome::Error(e) => json!({"error": e}),
        RunOutcome::ReplayFailed(e) => json!({"replay_failed": e}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            outcome_json(&exit(1, "")),
            json!({"exit": 1, "stdout_sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"})
        );
        assert_eq!(
            outcome_json(&RunOutcome::Error("timeout after 1.0 s".into())),
            json!({"error": "timeout after 1.0 s"})
        );
    }
}
