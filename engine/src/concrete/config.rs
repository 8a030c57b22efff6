//! What a run is given: the version to execute, the bytes of its symbolic objects, its
//! arguments and standard input, and its budgets.

use penumbra_ir::Version;
use std::collections::BTreeMap;

/// The configuration of one concrete run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// Which side of every `change(old, new)` and `penumbra_execute(V)` block runs.
    pub version: Version,
    /// The bytes `make_symbolic` writes into its objects.
    pub inputs: Inputs,
    /// `argv`, program name first, as bytes (a test's arguments need not be UTF-8); passed
    /// when `main` takes parameters.
    pub args: Vec<Vec<u8>>,
    /// What `getchar`, `fgetc(stdin)` and `fgets(.., stdin)` read.
    pub stdin: Vec<u8>,
    /// `--sym-files COUNT SIZE` (programs linked with musl make the files' objects).
    pub sym_files: Option<(u32, u32)>,
    /// `--sym-file-types` (programs linked with musl make the type objects).
    pub sym_file_types: bool,
    /// The environment, `NAME=VALUE` strings (`envp`, for a `main` or C library that reads it).
    pub env: Vec<String>,
    /// Executed instructions after which the run stops with [`Outcome::StepLimit`]
    /// (`None`: no limit).
    ///
    /// [`Outcome::StepLimit`]: super::Outcome::StepLimit
    pub max_steps: Option<u64>,
    /// The stack the program may use, in bytes: its frames ([`FRAME_BYTES`] each) and live
    /// stack objects; a call or a stack object beyond it is a `stack-overflow` error.
    ///
    /// [`FRAME_BYTES`]: crate::address::FRAME_BYTES
    pub stack_limit: u64,
    /// Record every conditional decision (`brif` side, `switch` case) in
    /// [`RunResult::trace`](super::RunResult::trace), in execution order. Off by default: the
    /// shadow-execution oracle tests compare the traces of the old and the new version.
    pub trace: bool,
}

impl Default for RunConfig {
    /// The new version, no inputs (all symbolic bytes zero), `argv = ["program"]`, empty
    /// stdin, no step limit, the native default stack of 8 MiB, no trace.
    fn default() -> Self {
        RunConfig {
            version: Version::New,
            inputs: Inputs::default(),
            args: vec![b"program".to_vec()],
            stdin: Vec::new(),
            sym_files: None,
            sym_file_types: false,
            env: Vec::new(),
            max_steps: None,
            stack_limit: crate::address::STACK_LIMIT,
            trace: false,
        }
    }
}

/// The bytes of the symbolic objects. A value shorter than its object is padded with zeros,
/// a longer one truncated (the command line refuses those first:
/// [`named_inputs_fit`](crate::output::replay::named_inputs_fit)); an object with no value is
/// all zeros.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inputs {
    /// By object name. The `k`-th object (from 0) created under a name `x` is looked up as
    /// `x#k` first (the unique names test files use, `x`, `x#1`, `x#2`, ...) and then as `x`,
    /// so one value can feed every object of that name.
    Named(BTreeMap<String, Vec<u8>>),
    /// By creation order, whatever the names (`.ktest` replay).
    Ordered(Vec<Vec<u8>>),
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs::Named(BTreeMap::new())
    }
}

impl Inputs {
    /// The value for the `index`-th symbolic object, the `occurrence`-th named `name`.
    pub fn value(&self, index: usize, name: &str, occurrence: u32) -> Option<&[u8]> {
        match self {
            Inputs::Ordered(values) => values.get(index).map(Vec::as_slice),
            Inputs::Named(map) => {
                let unique = (occurrence > 0).then(|| format!("{name}#{occurrence}"));
                unique.and_then(|u| map.get(&u)).or_else(|| map.get(name)).map(Vec::as_slice)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_inputs_prefer_unique_names_then_fall_back() {
        let mut map = BTreeMap::new();
        map.insert("x".to_string(), vec![1]);
        map.insert("x#2".to_string(), vec![3]);
        let inputs = Inputs::Named(map);
        assert_eq!(inputs.value(0, "x", 0), Some(&[1u8][..]));
        assert_eq!(inputs.value(1, "x", 1), Some(&[1u8][..]));
        assert_eq!(inputs.value(2, "x", 2), Some(&[3u8][..]));
        assert_eq!(inputs.value(3, "y", 0), None);
        let ordered = Inputs::Ordered(vec![vec![9], vec![8]]);
        assert_eq!(ordered.value(1, "anything", 0), Some(&[8u8][..]));
        assert_eq!(ordered.value(2, "x", 0), None);
    }
}
