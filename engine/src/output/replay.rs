//! Replaying tests concretely: turning a `.ktest` back into the concrete interpreter's inputs
//! (`argv`, stdin and the program's objects in creation order), running it, and checking that
//! the run ends as the symbolic path did (same exit status, or same error kind and line).
//!
//! The test's argument list is read as KLEE's `klee_init_env` reads it: after the program name,
//! `--sym-arg N` takes the next object as an argument string (up to its first NUL),
//! `--sym-args MIN MAX N` takes an `n_args` object and then that many argument objects,
//! `--sym-stdin N` takes the next object as standard input, `--env NAME=VALUE` is an environment
//! variable, `--sym-files COUNT SIZE` says the files' objects (`A-data`, ...) and
//! `--sym-file-types` their type objects (`stdin-type`, `A-type`, ...) are among the program's
//! own (musl's C layer makes them as the program starts), and any other word is a concrete
//! argument. The objects left are the program's own.

use super::ktest::{le_int, KTest, KTestObject};
use super::testgen::TestRecord;
use crate::concrete::{self, Inputs, Outcome, RunConfig};
use penumbra_ir::{Module, Version};

/// What a concrete run of a test needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayInputs {
    /// `argv`, program name first, as bytes: a symbolic argument's bytes are whatever the
    /// solver chose, UTF-8 or not.
    pub args: Vec<Vec<u8>>,
    pub stdin: Vec<u8>,
    /// `--sym-files COUNT SIZE` (their objects, `A-data`, ..., are among `objects`: the C layer
    /// of musl programs makes them; native replay writes them as files A, B, ...).
    pub sym_files: Option<(u32, u32)>,
    /// `--sym-file-types` (their objects, `stdin-type`, `A-type`, ..., follow the files' among
    /// `objects`; native replay makes standard input and the files pipes or terminals).
    pub sym_file_types: bool,
    /// `--env NAME=VALUE` words: the environment.
    pub env: Vec<String>,
    /// The program's symbolic objects, in creation order.
    pub objects: Vec<Vec<u8>>,
    /// The same objects with their names.
    pub own: Vec<KTestObject>,
}

/// Why a test cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the test's arguments end inside option {0}")]
    TruncatedOption(String),
    #[error("option {0} needs an object the test does not have")]
    MissingObject(String),
    #[error("the n_args object is not a 4-byte integer")]
    BadArgCount,
}

/// Why a test's objects do not fit the symbolic objects a program makes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ObjectMismatch {
    #[error("the program's symbolic object {index} is '{made}', the test's is '{given}'")]
    Name { index: usize, made: String, given: String },
    #[error("object '{name}' has {given} bytes in the test; the program makes it with {made}")]
    Size { name: String, given: usize, made: usize },
    #[error("the test has objects the program does not make: {0}")]
    Extra(String),
    #[error("the program makes symbolic object '{0}', which the test does not give")]
    Missing(String),
    #[error("no symbolic object of the program is named '{name}' (it makes: {made})")]
    UnknownName { name: String, made: String },
    #[error("the value of '{name}' has {given} bytes and does not fit the program's {made}-byte object")]
    TooLarge { name: String, given: usize, made: usize },
}

/// Whether the test's name `given` names the `occurrence`-th object the program named `made`:
/// the same name, or the unique `made#occurrence` test files use for repeated names.
fn names_object(given: &str, made: &str, occurrence: usize) -> bool {
    given == made || (occurrence > 0 && given.strip_suffix(&format!("#{occurrence}")) == Some(made))
}

/// Checks that a test's own objects (in creation order) are exactly the symbolic objects a run
/// of it made: the same names, sizes and number. (A test that does not fit would otherwise be
/// fed by position, padded or cut: a silent misreading.)
pub fn objects_fit(given: &[KTestObject], made: &[concrete::SymbolicObject]) -> Result<(), ObjectMismatch> {
    let mut seen: std::collections::BTreeMap<&str, usize> = Default::default();
    for (index, m) in made.iter().enumerate() {
        let occurrence = seen.entry(m.name.as_str()).or_default();
        let Some(g) = given.get(index) else { return Err(ObjectMismatch::Missing(m.name.clone())) };
        if !names_object(&g.name, &m.name, *occurrence) {
            return Err(ObjectMismatch::Name { index, made: m.name.clone(), given: g.name.clone() });
        }
        if g.bytes.len() != m.bytes.len() {
            return Err(ObjectMismatch::Size { name: g.name.clone(), given: g.bytes.len(), made: m.bytes.len() });
        }
        *occurrence += 1;
    }
    match &given[made.len().min(given.len())..] {
        [] => Ok(()),
        extra => {
            Err(ObjectMismatch::Extra(extra.iter().map(|o| format!("'{}'", o.name)).collect::<Vec<_>>().join(", ")))
        }
    }
}

/// Checks values given by name (`--input NAME=VALUE`) against the symbolic objects a run made:
/// each name is one the program makes, and each value fits its object (a longer value may
/// only extend it with the sign or zeros, as an integer's eight bytes do).
pub fn named_inputs_fit(
    given: &std::collections::BTreeMap<String, Vec<u8>>,
    made: &[concrete::SymbolicObject],
) -> Result<(), ObjectMismatch> {
    for (name, value) in given {
        let base = name.split_once('#').map_or(name.as_str(), |(base, _)| base);
        let Some(object) = made.iter().find(|m| m.name == base) else {
            let mut names: Vec<&str> = made.iter().map(|m| m.name.as_str()).collect();
            names.dedup();
            let made = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            return Err(ObjectMismatch::UnknownName { name: name.clone(), made });
        };
        let size = object.bytes.len();
        if value.len() > size {
            let negative = size > 0 && value[size - 1] & 0x80 != 0;
            let rest = &value[size..];
            let extends = rest.iter().all(|&b| b == 0) || (negative && rest.iter().all(|&b| b == 0xff));
            if !extends {
                return Err(ObjectMismatch::TooLarge { name: name.clone(), given: value.len(), made: size });
            }
        }
    }
    Ok(())
}

/// Objects KLEE's POSIX runtime adds to its tests that no program of penumbra's makes: the
/// stat buffers of symbolic files and stdin, and the runtime's version.
fn klee_runtime_object(name: &str) -> bool {
    name == "model_version" || name.ends_with("-stat")
}

/// A test's objects as the symbolic engine creates them (its environment's, then the
/// program's), for a seed: a test KLEE's POSIX runtime wrote loses its runtime's own objects.
pub fn seed_objects(test: &KTest) -> Vec<Vec<u8>> {
    let posix = test.objects.iter().any(|o| o.name == "model_version");
    test.objects.iter().filter(|o| !(posix && klee_runtime_object(&o.name))).map(|o| o.bytes.clone()).collect()
}

/// Splits a test into `argv`, stdin and the program's objects. A test KLEE's POSIX runtime
/// wrote is read by name: its runtime's own objects are left out.
pub fn replay_inputs(test: &KTest) -> Result<ReplayInputs, ReplayError> {
    let mut out = ReplayInputs::default();
    let mut words = test.args.iter();
    out.args.push(words.next().map_or_else(|| b"program".to_vec(), |w| w.clone().into_bytes()));
    let posix = test.objects.iter().any(|o| o.name == "model_version");
    let mut objects = test.objects.iter().filter(|o| !(posix && klee_runtime_object(&o.name)));
    let until_nul = |bytes: &[u8]| {
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        bytes[..end].to_vec()
    };
    while let Some(word) = words.next() {
        let mut skip = |n: usize| -> Result<(), ReplayError> {
            for _ in 0..n {
                words.next().ok_or_else(|| ReplayError::TruncatedOption(word.clone()))?;
            }
            Ok(())
        };
        match word.as_str() {
            "--sym-arg" => {
                skip(1)?;
                let o = objects.next().ok_or_else(|| ReplayError::MissingObject(word.clone()))?;
                out.args.push(until_nul(&o.bytes));
            }
            "--sym-args" => {
                skip(3)?;
                let n = objects.next().ok_or_else(|| ReplayError::MissingObject(word.clone()))?;
                let k = le_int(&n.bytes).filter(|_| n.bytes.len() == 4).ok_or(ReplayError::BadArgCount)?;
                for _ in 0..k.max(0) {
                    let o = objects.next().ok_or_else(|| ReplayError::MissingObject(word.clone()))?;
                    out.args.push(until_nul(&o.bytes));
                }
            }
            "--sym-stdin" => {
                skip(1)?;
                let o = objects.next().ok_or_else(|| ReplayError::MissingObject(word.clone()))?;
                out.stdin = o.bytes.clone();
            }
            "--sym-files" => {
                let mut number = || -> Result<u32, ReplayError> {
                    let w = words.next().ok_or_else(|| ReplayError::TruncatedOption(word.clone()))?;
                    w.parse().map_err(|_| ReplayError::TruncatedOption(word.clone()))
                };
                out.sym_files = Some((number()?, number()?));
            }
            "--sym-file-types" => out.sym_file_types = true,
            "--env" => out.env.push(words.next().ok_or_else(|| ReplayError::TruncatedOption(word.clone()))?.clone()),
            _ => out.args.push(word.clone().into_bytes()),
        }
    }
    out.own = objects.cloned().collect();
    out.objects = out.own.iter().map(|o| o.bytes.clone()).collect();
    Ok(out)
}

/// The concrete configuration that replays `test` on `version`.
pub fn replay_config(test: &KTest, version: Version) -> Result<RunConfig, ReplayError> {
    let inputs = replay_inputs(test)?;
    Ok(RunConfig {
        version,
        inputs: Inputs::Ordered(inputs.objects),
        args: inputs.args,
        stdin: inputs.stdin,
        sym_files: inputs.sym_files,
        sym_file_types: inputs.sym_file_types,
        env: inputs.env,
        ..RunConfig::default()
    })
}

/// Whether a concrete outcome is the one the symbolic path ended with: the same exit status,
/// error kind and line, unsupported line, or violated assumption.
pub fn same_outcome(record: &TestRecord, outcome: &Outcome) -> bool {
    match (record.kind.as_str(), outcome) {
        ("path", Outcome::Exit(code)) => record.exit_code == Some(*code),
        ("error", Outcome::Error(e)) => {
            record.error.as_ref().is_some_and(|r| r.kind == e.kind.as_str() && r.line == e.location.line)
        }
        ("unsupported", Outcome::Unsupported { location, .. }) => {
            record.location.as_ref().is_some_and(|l| l.line == location.line)
        }
        ("assume-false", Outcome::AssumptionViolated(_)) => true,
        ("early", _) => true,
        _ => false,
    }
}

/// A test whose concrete replay ended differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub test: String,
    pub expected: String,
    pub got: String,
}

/// Replays every test of a run (records with their inputs, `args` as the tests were written)
/// and returns those that end differently.
pub fn check_tests(module: &Module, version: Version, args: &[String], records: &[TestRecord]) -> Vec<Mismatch> {
    let Ok(program) = concrete::Program::new(module) else {
        return records
            .iter()
            .map(|r| Mismatch {
                test: r.name.clone(),
                expected: r.kind.clone(),
                got: "the program cannot be loaded".into(),
            })
            .collect();
    };
    let mut out = Vec::new();
    for r in records {
        let test = KTest {
            args: args.to_vec(),
            objects: r.inputs.0.iter().map(|i| KTestObject { name: i.name.clone(), bytes: i.bytes.clone() }).collect(),
            ..KTest::default()
        };
        let result = match replay_config(&test, version) {
            Ok(config) => program.run(&config),
            Err(e) => {
                out.push(Mismatch { test: r.name.clone(), expected: r.kind.clone(), got: e.to_string() });
                continue;
            }
        };
        if !same_outcome(r, &result.outcome) {
            let expected = match (&r.error, r.exit_code) {
                (Some(e), _) => format!("error {} at line {}", e.kind, e.line),
                (None, Some(c)) => format!("exit {c}"),
                _ => r.kind.clone(),
            };
            out.push(Mismatch { test: r.name.clone(), expected, got: result.outcome.to_string() });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(name: &str, bytes: &[u8]) -> KTestObject {
        KTestObject { name: name.into(), bytes: bytes.to_vec() }
    }

    /// A test KLEE's POSIX runtime wrote: its stat buffer and version objects are not the
    /// program's, so the program's own object is `x` alone, as a seed too.
    #[test]
    fn klee_posix_tests_are_read_by_name() {
        let test = KTest {
            args: ["prog", "--sym-args", "0", "1", "2", "--sym-stdin", "4"].map(String::from).to_vec(),
            objects: vec![
                object("n_args", &[1, 0, 0, 0]),
                object("arg00", b"ab\0"),
                object("stdin", b"in\0\0"),
                object("stdin-stat", &[0; 144]),
                object("model_version", &[1, 0, 0, 0]),
                object("x", &[7, 0, 0, 0]),
            ],
            ..KTest::default()
        };
        let inputs = replay_inputs(&test).unwrap();
        assert_eq!(inputs.args, [b"prog".to_vec(), b"ab".to_vec()]);
        assert_eq!(inputs.stdin, b"in\0\0");
        assert_eq!(inputs.own, [object("x", &[7, 0, 0, 0])]);
        let seed = seed_objects(&test);
        assert_eq!(seed.len(), 4);
        assert_eq!(seed[3], [7, 0, 0, 0]);
    }

    #[test]
    fn repeated_names_may_carry_their_occurrence() {
        let made = |name: &str, n: usize| concrete::SymbolicObject { name: name.into(), bytes: vec![0; n] };
        let program = [made("x", 1), made("x", 1)];
        assert_eq!(objects_fit(&[object("x", &[1]), object("x#1", &[2])], &program), Ok(()));
        assert_eq!(objects_fit(&[object("x", &[1]), object("x", &[2])], &program), Ok(()));
        assert_eq!(
            objects_fit(&[object("x", &[1]), object("x#2", &[2])], &program),
            Err(ObjectMismatch::Name { index: 1, made: "x".into(), given: "x#2".into() })
        );
    }
}
