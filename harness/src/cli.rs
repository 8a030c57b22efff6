//! Command-line definitions (clap derive). Every flag's help text is the user's documentation.

pub use crate::batch_args::BatchArgs;
use anyhow::{bail, Result};
use clap::{ArgMatches, Args, Parser, Subcommand, ValueEnum};
use penumbra_engine::SymArg;
use std::path::PathBuf;

/// The default `--max-memory`: a run that would grow past 4 GiB stops (KLEE's default is
/// 2,000 MB; whole programs need more).
pub const DEFAULT_MAX_MEMORY_MB: u64 = 4096;

/// `--max-states`' default: a guard on the count; memory (`--fork-memory`) is what caps the
/// states of a real program (coreutils' cost 25-100 KiB each: printf holds some 40,000 in
/// its memory, tr a few thousand; results/search.md).
pub const DEFAULT_MAX_STATES: usize = 100_000;

/// The default `--fork-memory`: the states are capped at 320 MiB, so runs stay near 500 MiB
/// (the term store, the solver and the states' own memory grow on after it).
pub const DEFAULT_FORK_MEMORY_MB: u64 = 320;

/// The default `--max-tests`: a run stops writing (and exploring) after 100,000 tests.
pub const DEFAULT_MAX_TESTS: u64 = 100_000;

/// The default `exec --max-steps`: a program that runs a billion IR instructions (10-20 s of
/// interpretation) stops, as an endless loop would never.
pub const DEFAULT_EXEC_STEPS: u64 = 1_000_000_000;

/// The default `--max-output-mb`: a run stops once its tests take 1 GiB.
pub const DEFAULT_MAX_OUTPUT_MB: u64 = 1024;

/// The version `--version` prints and job records keep: the crate's, and the commit it was built
/// from (`build.rs`).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("PENUMBRA_COMMIT"), ")");

#[derive(Parser, Debug)]
#[command(
    name = "penumbra",
    version = VERSION,
    about = "Shadow symbolic execution for C patches",
    long_about = "penumbra runs the old and the new version of a patched C program together in one \
symbolic execution and finds the inputs on which they behave differently.\n\n\
Annotate the patch in one unified source file with `change(old, new)` (from `penumbra.h`, \
which penumbra puts on the include path itself)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the penumbra IR of a C file.
    Ir(IrArgs),
    /// Interpret a C file concretely, as the old or the new version.
    ///
    /// The program's stdout, stderr and exit status are forwarded. A detected error (out-of-bounds
    /// access, null dereference, use after free, double free, division by zero, INT_MIN / -1,
    /// shift by the width or more, failing assertion, abort) is reported on stderr as
    /// `penumbra: error: <kind>: <message> at <file>:<line>` with exit status 70; reaching a
    /// construct penumbra does not model as `penumbra: unsupported: ...` with exit status 69.
    Exec(ExecArgs),
    /// Explore a C file symbolically, as the old or the new version, and write a test per path.
    ///
    /// Every path ends as a completed path (exit), an error (out-of-bounds access, null
    /// dereference, use after free, double free, division by zero, INT_MIN / -1, shift by the
    /// width or more, failing assertion, abort), an unsupported construct, or an early stop. Each
    /// ending becomes a KLEE-compatible `.ktest` file plus a JSON sidecar in `penumbra-out-N/`
    /// next to the source (`penumbra-last` links to the newest). Replay a test with
    /// `penumbra exec FILE.c --ktest TEST.ktest`. Prints a summary (`--json`: one JSON object).
    Run(RunArgs),
    /// Shadow symbolic execution: find the inputs on which the old and the new version diverge.
    ///
    /// Runs both versions of a unified program (`change(old, new)` annotations) together and
    /// forks four ways wherever a branch, switch or check (bounds, division, assertion) can go
    /// differently in the two versions. Every path that diverges and then ends gets a test
    /// (kind `divergence`, with the line where the versions parted and what each did); an error
    /// in both versions gets one too (kind `error`). `--mode complete` (the default) forks four
    /// ways from the start of `main` (ShadowJPF+); `--mode seeded` follows seed inputs
    /// concolically and then explores the new version from each divergence point (Shadow).
    /// With `--replay`, each test is then run natively on both versions and classified
    /// (see `penumbra replay`).
    Shadow(Box<ShadowArgs>),
    /// Replay the tests of an output directory on both versions and classify them.
    ///
    /// Builds the old and the new version of the unified program the tests came from (named in
    /// OUTDIR/run.json) natively with clang-15, AddressSanitizer and UBSan (`change(a, b)`
    /// becomes `a` resp. `b`; a small runtime feeds `make_symbolic` objects from each test),
    /// runs both on every test under a timeout, and also under the concrete interpreter (as
    /// `penumbra exec --ktest` does). Whether a version errs is decided by the native run where
    /// its build has AddressSanitizer (read from the executable's symbols, not assumed from the
    /// flags), else (static musl builds, a compiler that dropped it) by the interpreter. The
    /// builds and runs go to a fresh directory in OUTDIR/replay (not a symbolic link), removed
    /// afterwards; one a killed replay left is removed by the next. Each test
    /// is classified: `unconfirmed` (the engine, the interpreter and the native run disagree),
    /// `regression` (error only in new), `output-diff` (stdout or exit status differ),
    /// `both-error`, `fix` (error only in old), `silent` (no visible difference); with
    /// --fixed-version (and --fix-parent-version: Shadow's rule), output differences become
    /// `expected` or `regression`. An error is an
    /// AddressSanitizer report, a UBSan report in one version only (one both versions make at
    /// the same place is recorded as `shared_ub`; a null argument to a parameter declared never
    /// null, a declaration and not an access, is recorded as `null_argument_ub`), a signal, a
    /// timeout or the interpreter's
    /// error; a non-zero exit status is output. Prints the tests grouped by class, most severe
    /// first, and writes OUTDIR/report.json.
    Replay(ReplayArgs),
    /// Group a replayed run's tests by difference, rank the groups, and write a page to read.
    ///
    /// Reads OUTDIR/report.json (`penumbra replay OUTDIR`, or `shadow --replay`) and
    /// OUTDIR/tests.jsonl, and writes OUTDIR/clusters.json and OUTDIR/report.html. Tests are in one
    /// cluster when they have the same class, parted at the same source line the same way,
    /// ended the same way in each version, and differ on the same first output line once
    /// numbers and quoted words are abstracted; each cluster's representative is its simplest
    /// input. Clusters are ranked regressions first, then output differences, fixes,
    /// standard-error differences, errors in both, unconfirmed, expected and silent; within a
    /// class, differences in both the exit and the output first, then those fewer inputs reach.
    /// The page needs no server and no network: open it from the file system.
    Report(ReportArgs),
    /// Run many shadow jobs from a TOML manifest (subjects x modes x configs) in parallel.
    ///
    /// Each job is a child `penumbra shadow ... --json` process (with `--replay` when the
    /// manifest asks for it, `--no-tests` otherwise) under the manifest's wall-time and memory
    /// limits (outcomes: ok, timeout, memory-out, killed by a signal from outside the batch,
    /// error, no-seeds for a project subject's seeded job without seeds, not-prepared for the
    /// jobs of a project subject whose preparation failed; a killed replaying
    /// job's complete tests are still replayed); a job dies with its batch. Every finished job is recorded in `OUT/jobs/<id>.json`, so an interrupted or killed batch
    /// resumes where it stopped; at the end `OUT/results.csv`, `OUT/results.json` and SVG plots
    /// (diff paths, exploration time and wall time per subject, divergences over time) are
    /// written. `penumbra batch merge DIR...` joins the job records of shards (`--shard I/N`);
    /// `--slurm` submits the batch to a SLURM cluster as a job array (README: "Batches on a
    /// cluster"), and `--status` shows where each job is.
    /// The table has a row per job: outcome, diff paths (and the manifest's expected count),
    /// for project subjects the tests and invocations of the project's test suite touching the
    /// patch, states, instructions, errors, seeded mode's divergence points (its concolic
    /// phase), tests by kind and by replay class (one column per class, empty unless
    /// replayed), solver queries and those reaching Bitwuzla, four-way checks and those
    /// answered without it, cache hits, the budget that stopped the job, then the time to the
    /// first observable difference (a test replayed as regression, output-diff, fix or
    /// expected), solver, exploration and wall time and peak memory.
    ///
    /// A manifest (`benches/suite/manifest.toml` is a full one):
    ///
    ///   name = "mine"                          # results go to results/mine/ by default
    ///   out = "/shared/penumbra/mine"          # or here (relative to the manifest)
    ///   [defaults]                             # any subject field but name/source/project
    ///   mode = ["complete", "seeded"]          # each mode is a job
    ///   configs = ["caches-on", "caches-off"]  # built in; define more under [configs]
    ///   flags = ["--bse-budget", "5"]          # extra `penumbra shadow` flags
    ///   max_time = 120                         # seconds per job
    ///   max_memory_mb = 2048
    ///   replay = true                          # classify every test natively
    ///   [[subject]]
    ///   name = "gcd_m1"
    ///   source = "gcd_m1.c"                    # relative to the manifest
    ///   seeds = ["num=12,den=8"]               # one --seed each, for seeded mode
    ///   expected_diff_paths = 0                # optional, shown beside the result
    ///   [[subject]]                            # a patch of a real project (subjects/README.md)
    ///   name = "dd-appenderrors"
    ///   project = "coreutils-9.1/dd-appenderrors"  # a subject directory, not a source
    ///   prepare = ["python3", "../scripts/prepare-subject.py"]  # usually in [defaults]
    ///
    /// A project subject is prepared before the jobs run: `PREPARE PROJECT OUT/prepared/NAME`
    /// (in the manifest's directory) writes there `prepared.json`: the program, its flags
    /// (symbolic environment per mode, prebuilt native builds for replay), seeds taken from
    /// the project's tests and how many of them touch the patch; its jobs run there.
    #[command(verbatim_doc_comment)]
    Batch(BatchArgs),
    /// Merge two versions of a C file (or of a source tree) into one annotated program.
    ///
    /// Matches the versions on their syntax trees and writes Shadow's annotations as deep as
    /// they go: `change(old, new)` around a changed operand, constant, condition, argument or
    /// assigned value; `A || change(0, B)` for a weakened condition (`&& change(1, B)` for a
    /// strengthened one); statements only one version has in `penumbra_execute(OLD|NEW)`
    /// blocks (an added local's declaration stays in both, its initialisation in the block);
    /// and, where a function changed in ways no statement-level form expresses (a local's type),
    /// both whole bodies as two renamed functions behind a dispatcher. Comments and directives
    /// are kept. Every output is checked: each projection of the unified file is compiled with
    /// clang-15 -O2 and must give the same LLVM IR as its input; nothing is written otherwise
    /// (in tree form, no tree), and the refusal shows each definition's first differing IR
    /// lines. A change no annotation expresses (a macro's definition, a global's initialiser, a
    /// function's signature) is reported with its line. --keep-attempts DIR keeps every merge
    /// the check was given, with its verdict.
    ///
    ///   penumbra unify old.c new.c -o unified.c && penumbra shadow unified.c --replay
    ///   penumbra unify --old A/ --new B/ --out U/ -I src -I lib   # every changed .c/.h file
    ///   penumbra unify --git v1.0 v1.1 --repo . --out U/          # two revisions of a checkout
    #[command(verbatim_doc_comment)]
    Unify(UnifyArgs),
    /// Print the old or the new version of a unified program (`change(a, b)` becomes `a` or
    /// `b`, execute blocks keep or lose their statements; comments and layout stay).
    Project(ProjectArgs),
    /// Print the JSON Schema of penumbra's JSON outputs: the run summary (`--json`,
    /// `run.json`), the test records (`tests.jsonl`), replayed tests and `report.json`, the
    /// batch's rows (`results.csv`, `results.json`) and job records, with the replay classes
    /// and the batch columns listed in order (`classes`, `batch_columns`).
    Schema,
}

#[derive(Args, Debug)]
pub struct UnifyArgs {
    /// The old and the new version of one C file.
    #[arg(value_name = "FILE.c", num_args = 2, conflicts_with_all = ["old_dir", "git"])]
    pub files: Vec<PathBuf>,
    /// Where to write the unified file (or tree, with --old/--new or --git).
    #[arg(short = 'o', long = "out", value_name = "PATH", required = true)]
    pub out: PathBuf,
    /// The old version's source tree (with --new): every C file that differs is unified,
    /// every other file copied from the new tree.
    #[arg(long = "old", value_name = "DIR", requires = "new_dir")]
    pub old_dir: Option<PathBuf>,
    /// The new version's source tree (with --old).
    #[arg(long = "new", value_name = "DIR", requires = "old_dir")]
    pub new_dir: Option<PathBuf>,
    /// Two revisions of a git checkout (--repo, default `.`), old first, as the two trees.
    #[arg(long, value_names = ["OLD_REV", "NEW_REV"], num_args = 2, conflicts_with = "old_dir")]
    pub git: Vec<String>,
    /// The checkout --git reads.
    #[arg(long, value_name = "DIR", default_value = ".", requires = "git")]
    pub repo: PathBuf,
    /// Include directory for the check's compilations (relative to the current directory, or
    /// to each tree in tree form).
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Macro definition for the check's compilations.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Any other clang flag for the check's compilations (e.g. --cflag=-std=gnu11).
    #[arg(long = "cflag", value_name = "FLAG", allow_hyphen_values = true)]
    pub cflags: Vec<String>,
    /// Print what was done as JSON (files, notes, whole functions).
    #[arg(long)]
    pub json: bool,
    /// Keep every attempt in DIR, to see why a function was merged whole or the merge refused:
    /// attempt-N.c (the unified text the check was given) and attempt-N.txt (its verdict),
    /// under DIR/<file>/ in tree form. The environment variable PENUMBRA_UNIFY_ATTEMPTS=DIR
    /// does the same.
    #[arg(long, value_name = "DIR")]
    pub keep_attempts: Option<PathBuf>,
    /// A hand annotation: FUNCTION's projection may differ from its input (repeatable), where a
    /// person has shown the difference changes nothing the version can do; each is a note on
    /// the result. Everything else is checked as always.
    #[arg(long = "accept-difference", value_name = "FUNCTION")]
    pub accept_differences: Vec<String>,
}

#[derive(Args, Debug)]
pub struct ProjectArgs {
    /// A unified program.
    #[arg(value_name = "FILE.c")]
    pub file: PathBuf,
    /// Which version to print.
    #[arg(long, value_enum)]
    pub version: ProjectVersion,
    /// Write to this file instead of stdout.
    #[arg(short = 'o', value_name = "PATH")]
    pub out: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProjectVersion {
    Old,
    New,
}

/// Flags passed through to clang.
#[derive(Args, Debug, Clone, Default)]
pub struct CompileArgs {
    /// Add DIR to the include path (passed to clang).
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a preprocessor macro, NAME or NAME=VALUE (passed to clang).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// A build's compilation database (compile_commands.json, as CMake, Bear or
    /// intercept-build write it): each C file it lists is compiled with the build's own flags
    /// (its -I, -D, -std, -include...; not its -O level or output), in the build's directory.
    #[arg(long, value_name = "FILE")]
    pub compile_commands: Option<PathBuf>,
    /// The C library: `models` (penumbra's own models of the common functions, the default)
    /// or `musl` (musl 1.2.3 as bitcode, its code run like the program's, system calls answered
    /// by penumbra's environment; built once by scripts/build-musl.sh into
    /// ~/.cache/penumbra/musl-1.2.3, or $PENUMBRA_MUSL_DIR). With musl, C files compile
    /// against musl's headers alone.
    #[arg(long, value_enum, default_value_t = LibcArg::Models)]
    pub libc: LibcArg,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LibcArg {
    #[default]
    Models,
    Musl,
}

#[derive(Args, Debug)]
pub struct IrArgs {
    /// The program: C source files, LLVM bitcode (.bc) and textual IR (.ll), linked into one
    /// module (the first names the program in reports and argv[0]).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub compile: CompileArgs,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionArg {
    Old,
    New,
}

#[derive(Args, Debug)]
pub struct ExecArgs {
    /// The program: C source files, LLVM bitcode (.bc) and textual IR (.ll), linked into one
    /// module (the first names the program in reports and argv[0]).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Which side of each `change(old, new)` to run.
    #[arg(long, value_enum, default_value_t = VersionArg::New)]
    pub version: VersionArg,
    /// Value of the symbolic object NAME: an integer (decimal or 0x hex, may be negative, stored
    /// little-endian), `hex:BYTES` or `str:TEXT`. Objects without a value are all zero; a
    /// shorter string is padded with zeros. A NAME the program does not make, a value longer
    /// than its object (an integer that does not fit it), or `hex:` bytes that are not exactly
    /// the object's (as in a .ktest file), is refused.
    #[arg(long = "input", value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,
    /// Stop after N IR instructions (an endless loop ends there): the run then says
    /// `penumbra: step limit reached after N steps` and exits with status 124, as timeout(1)
    /// does. 0: no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EXEC_STEPS)]
    pub max_steps: u64,
    /// Files A, B, ... of SIZE bytes made by musl's C layer (--libc musl), their contents
    /// given with --input A-data=VALUE, ...
    #[arg(long = "sym-files", value_names = ["COUNT", "SIZE"], num_args = 2, conflicts_with = "ktest")]
    pub sym_files: Option<Vec<u32>>,
    /// Standard input and the files are regular files, pipes or terminals as objects
    /// stdin-type, A-type, ... say (1 a pipe, 2 a terminal, else a regular file; given with
    /// --input stdin-type=1, ...). Needs --libc musl.
    #[arg(long = "sym-file-types", conflicts_with = "ktest")]
    pub sym_file_types: bool,
    /// An environment variable of the program (repeatable); the environment is otherwise
    /// empty.
    #[arg(long = "env", value_name = "NAME=VALUE", value_parser = parse_env_var, conflicts_with = "ktest")]
    pub env: Vec<String>,
    /// The program's standard input: the bytes of FILE (`-`: penumbra's own standard input).
    /// Without it (and without --ktest) standard input is empty
    #[arg(long = "stdin", value_name = "FILE", conflicts_with = "ktest")]
    pub stdin: Option<PathBuf>,
    /// Replay a test written by `penumbra run` (or KLEE): its objects feed the symbolic objects
    /// in order of creation, its `--sym-arg`/`--sym-args`/`--sym-stdin` objects become argv
    /// and stdin, and its `--sym-files` and `--env` words the files and the environment. Its
    /// objects must be the program's (names, sizes, number): a test that does not fit is
    /// refused.
    #[arg(long, value_name = "FILE", conflicts_with = "inputs")]
    pub ktest: Option<PathBuf>,
    #[command(flatten)]
    pub compile: CompileArgs,
    /// Arguments for the program (argv[1..]).
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchArg {
    /// Random-path; in shadow runs patch-directed search on half of the turns, depth-first on a
    /// quarter, random-path and covering-new on an eighth each (the default; seeded by
    /// `--random-seed`).
    Interleaved,
    /// Depth-first.
    Dfs,
    /// Breadth-first.
    Bfs,
    /// KLEE's random-path (seeded by `--random-seed`).
    RandomPath,
    /// States near code no state has run yet first (KLEE's covering-new; seeded).
    CoveringNew,
    /// States near the patch's changes first, those not run yet before the rest (shadow runs;
    /// seeded).
    PatchDirected,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeArg {
    /// Four-way forking everywhere from the start, no seeds (ShadowJPF+).
    Complete,
    /// Concolic runs along seed inputs, then bounded symbolic execution of the new version
    /// from each divergence point (Shadow, ICSE 2016).
    Seeded,
}

#[derive(Args, Debug)]
pub struct ShadowArgs {
    /// The unified program: C source files, LLVM bitcode (.bc) and textual IR (.ll), linked
    /// into one module (the first names the program in reports and argv[0]).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// complete: four-way forking from the start; seeded: follow seeds, then explore from
    /// their divergence points.
    #[arg(long, value_enum, default_value_t = ModeArg::Complete)]
    pub mode: ModeArg,
    /// One seed input for --mode seeded: NAME=VALUE[,NAME=VALUE...], values as for
    /// `penumbra exec --input` (repeat the flag for more seeds).
    #[arg(long = "seed", value_name = "NAME=VALUE,...")]
    pub seeds: Vec<String>,
    /// A seed input for --mode seeded from a .ktest file (objects in order of creation, checked
    /// against the program's by running it; KLEE POSIX-runtime tests are read by name;
    /// repeatable).
    #[arg(long = "seed-ktest", value_name = "FILE")]
    pub seed_ktests: Vec<PathBuf>,
    /// Seeded mode: seconds of bounded symbolic execution, split evenly across the divergence
    /// points the seeds found (best effort).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub bse_budget: f64,
    /// Seeded mode: once the seeds' divergences are explored, derive up to N more seeds from
    /// each seed's path while time is left, and run them as seeds. A derived seed negates one
    /// decision the seed's path took before its deepest divergence point (first where it
    /// pinned a byte to a constant, each byte once, then the others; the latest first), keeps
    /// the path up to there and the seed's bytes wherever that leaves a choice; a freed byte
    /// also gives a seed at its largest value. Each is negated in turn past that decision; BSE
    /// explores each divergence point it reaches that no point before covers. A seed's path
    /// fixes the bytes it decided before a point, so BSE from the point cannot vary them
    /// (`seq -w 1 3.0` against a regression that needs `3.5`). With --max-time, a derived
    /// seed's path may take a fiftieth of the time left (a derived loop bound can make it
    /// loop for minutes); the summary counts those cut short (`derived_seeds_cut`). 0 (the
    /// default) is Shadow's seeded mode.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub derived_seeds: usize,
    /// Seed of the random-path searcher.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_seed: u64,
    #[command(flatten)]
    pub explore: ExploreArgs,
    /// After exploring, replay every test on both versions, natively (clang-15 with
    /// AddressSanitizer and UBSan) and under the interpreter, and classify it: unconfirmed,
    /// regression, fix, output-diff, both-error, silent (see `penumbra replay`).
    #[arg(long)]
    pub replay: bool,
    /// With --replay: seconds each native run may take before it counts as an error.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, requires = "replay")]
    pub replay_timeout: f64,
    /// With --replay: a later fixed version of the program (repeat for several fixes); output
    /// differences a fix explains are `expected`, the others `regression` (see `penumbra
    /// replay --fix-parent-version`).
    #[arg(long, value_name = "FILE.c", requires = "replay")]
    pub fixed_version: Vec<PathBuf>,
    /// With --fixed-version: the fixing commit's parent, one for each --fixed-version in the
    /// same order (Shadow's rule, see `penumbra replay`).
    #[arg(long, value_name = "FILE.c", requires = "fixed_version")]
    pub fix_parent_version: Vec<PathBuf>,
    #[command(flatten)]
    pub native: NativeArgs,
    #[command(flatten)]
    pub compile: CompileArgs,
    /// Concrete arguments for the program (argv[1..], before the symbolic ones).
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// Options shared by the commands that explore paths (`run`, `shadow`).
#[derive(Args, Debug, Clone)]
pub struct ExploreArgs {
    /// The search strategy.
    #[arg(long, value_enum, default_value_t = SearchArg::Interleaved)]
    pub search: SearchArg,
    /// Shadow runs with the default search: N states that diverged at one site (the line
    /// where the versions parted and the side each took) run in the search's turns; the next
    /// wait in a pool, run depth-first on one selection in eight (and on all once nothing else
    /// is left), so one divergence's subtree does not take the run from the rest. 0: no pool.
    #[arg(long, value_name = "N", default_value_t = penumbra_engine::config::DEFAULT_SITE_STATES)]
    pub site_states: u32,
    /// Write no test for the states still alive when time, memory or the instruction budget
    /// runs out (by default each gets one, ending early, as KLEE's --dump-states-on-halt).
    #[arg(long)]
    pub no_halt_tests: bool,
    /// Stop after this many instructions (over all paths).
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// At most N states alive at once: further forks follow the side the state's model takes
    /// and count the other as dropped (the summary says how many). A guard on the count:
    /// --fork-memory is what usually caps the states of the searchers that spread
    /// (random-path, interleaved); depth-first search rarely holds more states than its path
    /// is deep. 0: no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STATES)]
    pub max_states: usize,
    /// At most N symbolic forks along a path (a deeper path ends early, with a test).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<u32>,
    /// Stop after N paths have ended (tests of any kind).
    #[arg(long, value_name = "N")]
    pub max_paths: Option<u64>,
    /// Stop after SECS seconds of wall time (best effort).
    #[arg(long, value_name = "SECS")]
    pub max_time: Option<f64>,
    /// Stop when the process's resident memory reaches MB MiB (read every 10 ms at most, so
    /// best effort). 0: no limit.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_MAX_MEMORY_MB)]
    pub max_memory: u64,
    /// Hold as many states as MB MiB of resident memory allows (KLEE's memory inhibit): when
    /// the process reaches it, the states alive then become the state cap (as --max-states:
    /// a branch beyond it follows the side the state's model takes and counts the other as
    /// dropped), lowered again if memory grows on by 32 MiB; forks resume as states end. Read
    /// every 10 ms at most: where it is reached, the run's course depends on the machine, as
    /// with --max-time. At most three quarters of --max-memory. 0: no limit.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_FORK_MEMORY_MB)]
    pub fork_memory: u64,
    /// Stop once N tests are written (as KLEE's --stop-after-n-tests). 0: no limit. Whatever
    /// the limits, writing also stops while the output's file system has less than a tenth
    /// of its size, or 256 MiB, free (stopped by 'disk-space'); a failed write (a full disk or
    /// quota, no inodes or file descriptors left) stops the run as a budget would ('io-error'),
    /// keeping what was written, and then ends it with exit status 74 and an error naming the
    /// directory (run.json, whose space is reserved at the start, still says how it ended).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_TESTS)]
    pub max_tests: u64,
    /// Shadow runs: write at most N tests per divergence site (the line where the versions
    /// parted and what each did there); later diff paths at that site are counted (the
    /// summary's diff_paths_untested) but write no test, and the run goes on. So one divergence
    /// that thousands of paths share (both versions rejecting the input with reworded
    /// messages) does not spend --max-tests on itself. 0: no limit.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub max_site_tests: u64,
    /// Stop once the tests written take MB MiB of disk (tests.jsonl, and each .ktest file as
    /// the 4 KiB block it takes). 0: no limit.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_MAX_OUTPUT_MB)]
    pub max_output_mb: u64,
    /// The largest object an allocation of symbolic size (malloc(n), calloc, realloc, a
    /// variable-length array) is backed with, in bytes. The size stays symbolic and every
    /// access is checked against it; where the path allows a larger size, the larger sizes
    /// end early ('object-too-large', counted in the summary).
    #[arg(long, value_name = "BYTES", default_value_t = penumbra_engine::config::DEFAULT_MAX_OBJECT_SIZE)]
    pub max_object_size: u64,
    /// The heaviest term a value may grow to (roughly, the bit-blasting cost of its longest
    /// chain of operations): a path that computes a heavier one, a loop folding a symbolic
    /// value into itself thousands of times, ends early ('term-too-large', counted) instead of
    /// handing the solver a query no budget could hold.
    #[arg(long, value_name = "N", default_value_t = penumbra_engine::config::DEFAULT_MAX_TERM_WEIGHT)]
    pub max_term_weight: u32,
    /// The most symbolic bytes: the --sym-arg/--sym-args/--sym-files/--sym-stdin environment together (a
    /// larger one is refused before the run) and each make_symbolic (a larger one ends its path
    /// early, 'input-too-large'). Each byte is a solver variable, about 200 bytes of memory.
    #[arg(long, value_name = "BYTES", default_value_t = penumbra_engine::config::DEFAULT_MAX_SYM_BYTES)]
    pub max_sym_bytes: u64,
    /// A symbolic argument of up to N characters (repeatable, as KLEE's --sym-arg).
    #[arg(long = "sym-arg", value_name = "N")]
    pub sym_arg: Vec<u32>,
    /// Between MIN and MAX symbolic arguments of up to N characters (as KLEE's --sym-args).
    #[arg(long = "sym-args", value_names = ["MIN", "MAX", "N"], num_args = 3)]
    pub sym_args: Vec<u32>,
    /// Standard input is N symbolic bytes.
    #[arg(long = "sym-stdin", value_name = "N")]
    pub sym_stdin: Option<u32>,
    /// COUNT files named A, B, ... of SIZE symbolic bytes each, which the program opens by
    /// those names (as KLEE's --sym-files; objects A-data, B-data, ...). Needs --libc musl.
    #[arg(long = "sym-files", value_names = ["COUNT", "SIZE"], num_args = 2)]
    pub sym_files: Option<Vec<u32>>,
    /// Standard input and each --sym-files file may be a regular file, a pipe or a terminal
    /// (KLEE's symbolic stat, bounded): one-byte objects stdin-type, A-type, ... (1 a pipe,
    /// 2 a terminal, else a regular file) decide what fstat, stat, lseek and isatty say where
    /// the program asks; native replay gives the program a pipe or a pseudo-terminal.
    /// Needs --libc musl.
    #[arg(long = "sym-file-types")]
    pub sym_file_types: bool,
    /// An environment variable of the program (repeatable); the environment is otherwise
    /// empty. Recorded in every test, and set in native replay (which clears the rest).
    #[arg(long = "env", value_name = "NAME=VALUE", value_parser = parse_env_var)]
    pub env: Vec<String>,
    /// Write tests into DIR (created; must be empty) instead of penumbra-out-N next to FILE.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Do not write test files (they are still counted).
    #[arg(long)]
    pub no_tests: bool,
    /// Also write each test's path condition, in SMT-LIB2, into its `tests.jsonl` record (as
    /// KLEE's --write-smt2s). Off by default: it grows with the path's length.
    #[arg(long)]
    pub write_smt2: bool,
    /// Write a .ktest file for every test, as KLEE does. By default a path that simply exits
    /// has its inputs in tests.jsonl only; errors, divergences and other endings get a file.
    #[arg(long)]
    pub all_ktests: bool,
    /// Print the summary as one JSON object on stdout.
    #[arg(long)]
    pub json: bool,
    /// Turn off the solver's exact query cache.
    #[arg(long)]
    pub no_query_cache: bool,
    /// Turn off the solver's counterexample cache.
    #[arg(long)]
    pub no_cex_cache: bool,
    /// Turn off constraint independence.
    #[arg(long)]
    pub no_independence: bool,
    /// Turn off the range solver (it decides without Bitwuzla queries whose inputs are compared
    /// with constants, and queries over inputs left with at most 4,096 combinations of values).
    #[arg(long)]
    pub no_range_solver: bool,
    /// Log every query that reaches Bitwuzla to FILE (SMT-LIB2).
    #[arg(long, value_name = "FILE")]
    pub query_log: Option<PathBuf>,
    /// Time limit per Bitwuzla query in milliseconds (a branch or check an expired query leaves
    /// undecided ends its state early as `solver-unknown`).
    #[arg(long, value_name = "MS")]
    pub solver_timeout: Option<u64>,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The program: C source files, LLVM bitcode (.bc) and textual IR (.ll), linked into one
    /// module (the first names the program in reports and argv[0]).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Which side of each `change(old, new)` to explore.
    #[arg(long, value_enum, default_value_t = VersionArg::New)]
    pub version: VersionArg,
    /// Seed of the random-path searcher.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub random_seed: u64,
    #[command(flatten)]
    pub explore: ExploreArgs,
    /// After the run, replay every test concretely and check it ends the same way (exit status
    /// 1 if one does not).
    #[arg(long)]
    pub replay_check: bool,
    #[command(flatten)]
    pub compile: CompileArgs,
    /// Concrete arguments for the program (argv[1..], before the symbolic ones).
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

/// Prebuilt native executables for replay (a whole project built natively twice from its
/// annotated tree), instead of penumbra's own builds of the program.
#[derive(Args, Debug, Clone, Default)]
pub struct NativeArgs {
    /// The old version, built natively (`-DPENUMBRA_VERSION_OLD`, with AddressSanitizer and
    /// UBSan, the replay runtime linked in): replay runs it instead of building the program.
    /// An executable without AddressSanitizer (no `__asan_init` in its symbols) leaves the
    /// interpreter to decide whether a test errs.
    #[arg(long, value_name = "EXE", requires = "native_new", conflicts_with = "fixed_version")]
    pub native_old: Option<PathBuf>,
    /// The new version, built natively like --native-old.
    #[arg(long, value_name = "EXE", requires = "native_old")]
    pub native_new: Option<PathBuf>,
    /// A later fixed version, built natively like --native-new (repeat for several fixes): it
    /// decides output differences as --fixed-version does.
    #[arg(long, value_name = "EXE", requires = "native_old", conflicts_with = "fixed_version")]
    pub native_fixed: Vec<PathBuf>,
    /// The fixing commit's parent, built natively like --native-new, one for each
    /// --native-fixed in the same order (as --fix-parent-version).
    #[arg(long, value_name = "EXE", requires = "native_fixed", conflicts_with = "fixed_version")]
    pub native_fix_parent: Vec<PathBuf>,
    /// When the interpreter runs a test beside the native builds: `always`, or `errors`: only
    /// where a native run or the engine reports an error or undefined behaviour, or the build
    /// has no AddressSanitizer (everywhere else it decides nothing). `errors` replays a large
    /// program several times faster; a test only the interpreter would call an error is then
    /// not `unconfirmed`.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = Interpret::Always)]
    pub interpreter: Interpret,
    /// The memory each native run may have, in MiB, as under `ulimit -v` (tests of memory
    /// exhaustion, such as CoREBench's `ulimit -v 20000`): a build without AddressSanitizer
    /// gets that much address space; in one with it (whose shadow memory alone takes terabytes
    /// of address space) any one allocation larger than MIB fails, malloc returning NULL. The
    /// interpreter runs without the limit.
    #[arg(long, value_name = "MIB")]
    pub native_memory_limit: Option<u64>,
}

/// When replay runs the interpreter (`--interpreter`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Interpret {
    #[default]
    Always,
    Errors,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A replayed run's output directory (it holds report.json and tests.jsonl).
    #[arg(value_name = "OUTDIR")]
    pub outdir: PathBuf,
    /// Show the first N clusters in full on the page (all are in its table and in
    /// clusters.json).
    #[arg(long, value_name = "N", default_value_t = REPORT_TOP)]
    pub top: usize,
}

/// Clusters a report page shows in full by default (`penumbra report --top`; a batch's job
/// pages).
pub const REPORT_TOP: usize = 50;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// An output directory of `penumbra shadow` (or `penumbra run`).
    #[arg(value_name = "OUTDIR", required_unless_present = "print_build_flags")]
    pub dir: Option<PathBuf>,
    /// Print the flags of replay's native builds and exit: `cflags: ...` (compiling; replay adds
    /// `-w` and one of -DPENUMBRA_VERSION_OLD / _NEW) and `ldflags: ...` (linking), for
    /// executables built outside penumbra (--native-old, --native-new).
    #[arg(long, exclusive = true)]
    pub print_build_flags: bool,
    /// Seconds each native run may take before it counts as an error.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub timeout: f64,
    /// A later fixed version of the program: the fixing commit's (repeat the flag for a
    /// regression with several fixes). Output differences a fix explains are `expected`, the
    /// others `regression`; without --fix-parent-version, a fix explains a difference where
    /// it behaves like the new version.
    #[arg(long, value_name = "FILE.c")]
    pub fixed_version: Vec<PathBuf>,
    /// The fixing commit's parent, one for each --fixed-version in the same order. Shadow's
    /// rule (ICSE 2016): an output difference is `expected` if the fix's parent and the fix
    /// behave the same on it, or the fix behaves like new; else `regression` (with several
    /// fixes: `expected` if any fix explains it). An error in new only stays `regression`.
    #[arg(long, value_name = "FILE.c", requires = "fixed_version")]
    pub fix_parent_version: Vec<PathBuf>,
    #[command(flatten)]
    pub native: NativeArgs,
    /// Runs in parallel (default: one per core).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Print the replayed tests as one JSON array (each test with `class`, `old_outcome`,
    /// `new_outcome`, `decided_by` and, where they apply, `shared_ub` and `disagreement`).
    #[arg(long)]
    pub json: bool,
}

/// The `--sym-arg` and `--sym-args` options of the exploring subcommand (`run` or `shadow`) in
/// `matches`, in the order they were given (clap keeps each option's values; their interleaving is in the
/// values' indices).
pub fn sym_args(matches: &ArgMatches) -> Result<Vec<SymArg>> {
    let Some((_, sub)) = matches.subcommand() else { return Ok(Vec::new()) };
    let ids = |id: &str| -> Vec<(usize, u32)> {
        match (sub.try_get_many::<u32>(id), sub.indices_of(id)) {
            (Ok(Some(values)), Some(indices)) => indices.zip(values.copied()).collect(),
            _ => Vec::new(),
        }
    };
    let mut specs: Vec<(usize, SymArg)> = ids("sym_arg").into_iter().map(|(i, len)| (i, SymArg::Arg { len })).collect();
    for t in ids("sym_args").chunks_exact(3) {
        let (min, max, len) = (t[0].1, t[1].1, t[2].1);
        if min > max {
            bail!("--sym-args {min} {max} {len}: MIN is greater than MAX");
        }
        specs.push((t[0].0, SymArg::Args { min, max, len }));
    }
    specs.sort_by_key(|&(index, _)| index);
    Ok(specs.into_iter().map(|(_, spec)| spec).collect())
}

/// The commands that take a program's files.
pub trait ProgramFiles {
    fn files(&self) -> &[PathBuf];

    /// The first file: it names the program.
    fn main_file(&self) -> &std::path::Path {
        &self.files()[0]
    }
}

macro_rules! program_files {
    ($($t:ty),*) => {$(
        impl ProgramFiles for $t {
            fn files(&self) -> &[PathBuf] {
                &self.files
            }
        }
    )*};
}
program_files!(IrArgs, ExecArgs, ShadowArgs, RunArgs);

/// `NAME=VALUE` with a non-empty NAME without `=` or NUL.
fn parse_env_var(s: &str) -> Result<String, String> {
    match s.split_once('=') {
        Some((name, value)) if !name.is_empty() && !name.contains('\0') && !value.contains('\0') => Ok(s.to_string()),
        _ => Err(format!("`{s}` is not NAME=VALUE")),
    }
}
