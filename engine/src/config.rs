//! [`EngineConfig`]: everything a symbolic run is parameterised by — the version executed,
//! the search strategy, the budgets, the symbolic environment (`argv`, stdin), where tests go,
//! and the solver's layers.

use penumbra_ir::Version;
use penumbra_solver::SolverConfig;
use std::path::PathBuf;
use std::time::Duration;

/// The search strategy: which state runs next.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum SearchKind {
    /// Depth-first: the newest state.
    #[default]
    Dfs,
    /// Breadth-first: states in order of creation, a forking state going to the back.
    Bfs,
    /// KLEE's random-path: a random walk down the tree of forks (seeded, deterministic).
    RandomPath,
    /// A draw weighted by the distance to code no state has run (KLEE's covering-new).
    CoveringNew,
    /// A draw weighted by the distance to the patch's changes not run yet (shadow runs).
    PatchDirected,
    /// Random-path; in shadow runs patch-directed search on half of the turns, depth-first on a
    /// quarter, random-path and covering-new on an eighth each, the states past a divergence site's first
    /// [`EngineConfig::site_states`] in a pool of their own (the command line's default).
    Interleaved,
}

impl SearchKind {
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Dfs => "dfs",
            SearchKind::Bfs => "bfs",
            SearchKind::RandomPath => "random-path",
            SearchKind::CoveringNew => "covering-new",
            SearchKind::PatchDirected => "patch-directed",
            SearchKind::Interleaved => "interleaved",
        }
    }
}

/// Limits on a run. Count budgets make runs deterministic; time and memory are best effort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budgets {
    /// Instructions executed over all states; when reached, the run stops.
    pub max_instructions: Option<u64>,
    /// Live states at once; at a fork beyond it only the side the state's current model takes
    /// is followed and the other is counted as dropped.
    pub max_states: Option<usize>,
    /// Symbolic forks along one path; a state that would fork deeper ends early (with a test).
    pub max_depth: Option<u32>,
    /// Paths ended (tests of any kind); when reached, the run stops.
    pub max_paths: Option<u64>,
    /// Wall time; when reached, the run stops.
    pub max_time: Option<Duration>,
    /// Resident memory of the process in MiB; when reached, the run stops.
    pub max_memory_mb: Option<u64>,
    /// Resident memory in MiB that caps the states: when it is reached, the states alive
    /// then are as many as the run holds from then on (at a fork beyond, only the side the
    /// state's model takes is followed, as at `max_states`), lowered again where memory grows
    /// on; so a run keeps as many states as its memory allows, whatever each costs (KLEE's
    /// memory inhibit, which stops forking at its memory cap).
    pub fork_memory_mb: Option<u64>,
    /// Tests written; when reached, the run stops (no test is written past it).
    pub max_tests: Option<u64>,
    /// Shadow execution: tests written per divergence site ([`Divergence::site`]); a diff
    /// path at a site that has them is counted (`diff_paths_untested`) and writes no test, and
    /// the run goes on. Without it, one divergence that a thousand paths share (an error
    /// message reworded, both versions rejecting the input) can spend `max_tests` on itself.
    ///
    /// [`Divergence::site`]: crate::symbolic::state::Divergence::site
    pub max_site_tests: Option<u64>,
    /// MiB of disk the tests take (`tests.jsonl`, and each `.ktest` file as a 4 KiB block);
    /// when reached, the run stops.
    pub max_output_mb: Option<u64>,
}

/// Why a run stopped before exploring every path.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    MaxInstructions,
    MaxPaths,
    MaxTime,
    MaxMemory,
    MaxTests,
    MaxOutput,
    /// The output directory's file system is nearly full: it keeps a margin free (a tenth of
    /// its size, at most [`crate::run::DISK_MARGIN`]).
    DiskSpace,
    /// Writing a test failed (the OS error is in the summary's `output_error`).
    IoError,
    /// Seeded shadow execution: a divergence point's share of `--bse-budget` ran out.
    BseBudget,
    /// The process was asked to stop (SIGINT, SIGTERM: [`crate::interrupt`]).
    Interrupted,
}

impl StopReason {
    /// The word of summaries (`stopped_by`).
    pub fn name(self) -> &'static str {
        match self {
            StopReason::MaxInstructions => "max-instructions",
            StopReason::MaxPaths => "max-paths",
            StopReason::MaxTime => "max-time",
            StopReason::MaxMemory => "max-memory",
            StopReason::MaxTests => "max-tests",
            StopReason::MaxOutput => "max-output",
            StopReason::DiskSpace => "disk-space",
            StopReason::IoError => "io-error",
            StopReason::BseBudget => "bse-budget",
            StopReason::Interrupted => "interrupted",
        }
    }
}

/// A symbolic command-line argument specification, as KLEE's `--sym-arg` / `--sym-args`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SymArg {
    /// One argument of up to `len` characters.
    Arg { len: u32 },
    /// Between `min` and `max` arguments of up to `len` characters each.
    Args { min: u32, max: u32, len: u32 },
}

/// The program's symbolic environment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Environment {
    /// `argv[0]`.
    pub program_name: String,
    /// Concrete arguments, before the symbolic ones.
    pub args: Vec<String>,
    /// Symbolic arguments, in order.
    pub sym_args: Vec<SymArg>,
    /// `--sym-stdin N`: standard input is `N` symbolic bytes (else it is empty).
    pub sym_stdin: Option<u32>,
    /// `--sym-files COUNT SIZE`: files A, B, ... of `SIZE` symbolic bytes each, made by the C
    /// layer of programs linked with musl (objects `A-data`, `B-data`, ...).
    pub sym_files: Option<(u32, u32)>,
    /// `--sym-file-types`: standard input and each file is a regular file, a pipe or a terminal
    /// as a one-byte object says (`stdin-type`, `A-type`, ...: 1 a pipe, 2 a terminal, else a
    /// regular file), made by the same C layer; KLEE's symbolic `stat` in a bounded form.
    pub sym_file_types: bool,
    /// `--env NAME=VALUE`: the environment (`envp`), empty by default.
    pub env: Vec<String>,
}

impl Environment {
    /// The option words recorded in every test's argument list, after the program name and
    /// the concrete arguments (`--sym-arg 3`, `--sym-args 0 2 4`, `--sym-stdin 8`,
    /// `--sym-files 1 8`), which replay reads back.
    pub fn option_words(&self) -> Vec<String> {
        let mut words = Vec::new();
        for spec in &self.sym_args {
            match *spec {
                SymArg::Arg { len } => words.extend(["--sym-arg".to_string(), len.to_string()]),
                SymArg::Args { min, max, len } => {
                    words.extend(["--sym-args".to_string(), min.to_string(), max.to_string(), len.to_string()])
                }
            }
        }
        if let Some(n) = self.sym_stdin {
            words.extend(["--sym-stdin".to_string(), n.to_string()]);
        }
        if let Some((count, size)) = self.sym_files {
            words.extend(["--sym-files".to_string(), count.to_string(), size.to_string()]);
        }
        if self.sym_file_types {
            words.push("--sym-file-types".to_string());
        }
        for var in &self.env {
            words.extend(["--env".to_string(), var.clone()]);
        }
        words
    }
}

/// Where and how tests are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// No files (`--no-tests`); tests are still counted and listed in the summary.
    None,
    /// Exactly this directory (created; it must not exist or be empty).
    Dir(PathBuf),
    /// A fresh `penumbra-out-N` under this directory, with `penumbra-last` linking to it.
    Numbered(PathBuf),
}

/// Shadow execution: the old and the new version run together in one symbolic execution
/// (`penumbra shadow`), and a test is written for every path on which they diverge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShadowMode {
    /// Complete shadow execution (ShadowJPF+): four-way forking at every branch and check from
    /// the start of `main`, no seeds.
    Complete,
    /// Shadow's two phases: a concolic run along each seed (queueing the divergence points it
    /// passes), then bounded symbolic execution of the new version from each point, breadth
    /// first, within `bse_budget` split evenly across the points. With `derived` above 0, up to
    /// that many seeds per seed are then derived from the seeds' paths while time is left
    /// (`--derived-seeds`: each negates a decision a seed's path took before a divergence
    /// point) and run the same way; 0 is Shadow's seeded mode.
    Seeded { seeds: Vec<crate::concrete::Inputs>, bse_budget: Duration, derived: usize },
}

impl ShadowMode {
    /// `complete` or `seeded`.
    pub fn name(&self) -> &'static str {
        match self {
            ShadowMode::Complete => "complete",
            ShadowMode::Seeded { .. } => "seeded",
        }
    }
}

/// What a run executes: one version, or both together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Plain symbolic execution of one version: each `change(old, new)` is `old` or `new`.
    Single(Version),
    /// Shadow execution of the old and the new version together (`penumbra shadow`).
    Shadow(ShadowMode),
}

impl Mode {
    /// The shadow mode, if this is shadow execution.
    pub fn shadow(&self) -> Option<&ShadowMode> {
        match self {
            Mode::Single(_) => None,
            Mode::Shadow(mode) => Some(mode),
        }
    }

    /// The version a single-version run executes.
    pub fn single(&self) -> Option<Version> {
        match self {
            Mode::Single(version) => Some(*version),
            Mode::Shadow(_) => None,
        }
    }

    /// `old` or `new`, or `both` in shadow execution.
    pub fn version_name(&self) -> String {
        match self {
            Mode::Single(version) => version.to_string(),
            Mode::Shadow(_) => "both".to_string(),
        }
    }
}

/// The whole configuration of a symbolic run.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub mode: Mode,
    pub search: SearchKind,
    /// Seed of the random-path searcher.
    pub random_seed: u64,
    /// Shadow runs with the default (interleaved) search: the states that diverged at one site
    /// (line, function and the versions' sides) that run in the searchers' turns; the next
    /// ones wait in a pool with a turn of its own (`search::Saturating`). `None`: no pool
    /// (`--site-states 0`).
    pub site_states: Option<u32>,
    pub budgets: Budgets,
    pub env: Environment,
    pub output: Output,
    /// Keep one record per test in the summary (the CLI's `--json` lists them).
    pub keep_test_records: bool,
    /// Keep at most this many records (a human report lists the first few).
    pub test_record_limit: Option<usize>,
    /// Write the path condition (SMT-LIB2) into each test's JSON sidecar (off by default:
    /// it grows with the length of the path; `--write-smt2`).
    pub write_path_condition: bool,
    /// Write a `.ktest` file for every test, as KLEE does. Off: a path that simply exits has
    /// its inputs in `tests.jsonl` only, and errors, divergences and every other ending get a
    /// file (creating a file costs this machine's file system about 100 us, 50 times what
    /// exploring a path costs; `--all-ktests`).
    pub all_ktests: bool,
    pub solver: SolverConfig,
    /// The stack the program may use, in bytes (as [`RunConfig::stack_limit`]).
    ///
    /// [`RunConfig::stack_limit`]: crate::concrete::RunConfig::stack_limit
    pub stack_limit: u64,
    /// The largest object an allocation of symbolic size is backed with: a path on which the
    /// size may be larger forks, and its side above the limit ends early (`object-too-large`,
    /// counted; `--max-object-size`).
    pub max_object_size: u64,
    /// The heaviest term a value may be (`TermStore::weight`): a path that computes a heavier
    /// one ends early (`term-too-large`; `--max-term-weight`).
    pub max_term_weight: u32,
    /// The largest symbolic input, in bytes: the start-up environment's objects together
    /// (`--sym-args`, `--sym-arg`, `--sym-stdin`; a larger one is refused before the run) and
    /// each `make_symbolic` (a larger one ends its path early, `input-too-large`;
    /// `--max-sym-bytes`).
    pub max_sym_bytes: u64,
    /// When a budget on time, memory or instructions (or an interrupt) stops the run, write a
    /// test (ending `early`, reason `stopped-by-...`) for every state still alive, within the
    /// test budgets (KLEE's `--dump-states-on-halt`; in shadow runs, the states that diverged).
    /// Their inputs are the models the states carry: no solver call. `--no-halt-tests` turns
    /// it off.
    pub halt_tests: bool,
}

/// [`EngineConfig::site_states`]' default.
pub const DEFAULT_SITE_STATES: u32 = 64;

/// [`EngineConfig::max_term_weight`]'s default.
pub const DEFAULT_MAX_TERM_WEIGHT: u32 = 10_000;

/// [`EngineConfig::max_sym_bytes`]'s default: 256 KiB.
pub const DEFAULT_MAX_SYM_BYTES: u64 = 256 << 10;

/// [`EngineConfig::max_object_size`]'s default: 16 MiB.
pub const DEFAULT_MAX_OBJECT_SIZE: u64 = 16 << 20;

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            mode: Mode::Single(Version::New),
            search: SearchKind::Dfs,
            random_seed: 0,
            site_states: Some(DEFAULT_SITE_STATES),
            budgets: Budgets::default(),
            env: Environment { program_name: "program".into(), ..Environment::default() },
            output: Output::None,
            keep_test_records: true,
            test_record_limit: None,
            write_path_condition: false,
            all_ktests: false,
            solver: SolverConfig::default(),
            stack_limit: crate::address::STACK_LIMIT,
            max_object_size: DEFAULT_MAX_OBJECT_SIZE,
            halt_tests: true,
            max_term_weight: DEFAULT_MAX_TERM_WEIGHT,
            max_sym_bytes: DEFAULT_MAX_SYM_BYTES,
        }
    }
}
