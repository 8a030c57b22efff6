//! Counters of a symbolic run (the solver keeps its own, see `penumbra_solver::SolverStats`).

use std::collections::BTreeMap;

/// What the engine counted. Every field is a plain count, so runs bounded by counts are
/// deterministic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instructions executed, over all states.
    pub instructions: u64,
    /// States ever created, the initial ones included.
    pub states: u64,
    /// Forks with both sides feasible (a switch counts once per feasible case beyond the first).
    pub forks: u64,
    /// Paths that returned from `main` or called `exit`.
    pub paths_completed: u64,
    /// Paths that ended in an error (including the error sides of checks).
    pub errors: u64,
    /// Paths that reached a construct penumbra does not model.
    pub unsupported: u64,
    /// Paths whose `assume` was provably false.
    pub assume_false: u64,
    /// Paths ended early (by the depth budget, an object too large, values left after fixing
    /// one, ...).
    pub early: u64,
    /// Early endings per reason (`EarlyReason::name`).
    pub early_reasons: BTreeMap<&'static str, u64>,
    /// Feasible sides not followed because of `max_states`; in seeded mode also a seed's
    /// states a budget cut, and states off a seed's path that did not diverge.
    pub dropped: u64,
    /// Solver answers `unknown` (time limit): at a branch or check the state ended early
    /// (`solver-unknown`); a value choice kept the state's own value.
    pub solver_unknown: u64,
    /// Objects allocated with a symbolic size (or one that differs between the versions).
    pub symbolic_sizes: u64,
    /// Accesses through a symbolic address that the path allows one value (taken as it).
    pub fixed_addresses: u64,
    /// The weight of the heaviest term that ended a path (`term-too-large`), 0 if none did.
    pub heaviest_term: u32,
    /// Where symbolic values were fixed to one value while others were possible, by (file,
    /// line, function, what): how often, and what became of the other values.
    pub concretized_sites: BTreeMap<(String, u32, String, Fixed), SiteCount>,
    /// Symbolic values printed under the model without constraining them.
    pub printed_symbolic: u64,
    /// The most states alive at once.
    pub max_live_states: u64,
    /// Shadow execution: paths that diverged and ended.
    pub diff_paths: u64,
    /// ... of which no test was written: their divergence site had its tests
    /// ([`crate::config::Budgets::max_site_tests`]).
    pub diff_paths_untested: u64,
    /// Seeded shadow execution: divergence points the seeds queued for bounded symbolic
    /// execution.
    pub divergence_points: u64,
    /// Seeded shadow execution: seeds derived from the seeds' paths (`--derived-seeds`).
    pub derived_seeds: u64,
    /// ... of which the concolic run was cut short by its share of the time left
    /// ([`crate::run`]'s derived seeds: a seed whose path loops over an input-sized range).
    pub derived_seeds_cut: u64,
    /// Shadow execution: four-way questions asked (conditions holding a shadow).
    pub four_way_checks: u64,
    /// ... of which no query reached Bitwuzla (constants, caches, evaluation).
    pub four_way_without_core: u64,
    /// Shadow execution: divergences (a state taking a diff outcome).
    pub divergences: u64,
    /// Shadow execution: divergences where a changed value had to be made concrete and the
    /// versions could not agree on it.
    pub value_divergences: u64,
    /// Tests written (or counted, with `--no-tests`).
    pub tests: u64,
    /// Errors per kind.
    pub error_kinds: BTreeMap<&'static str, u64>,
    /// Unsupported paths per (file, line, function, construct): what a run could not explore.
    pub unsupported_sites: BTreeMap<(String, u32, String, String), u64>,
}

impl Stats {
    /// Paths ended in any way.
    pub fn paths_ended(&self) -> u64 {
        self.paths_completed + self.errors + self.unsupported + self.assume_false + self.early
    }
}

/// What a fixed value is, for the summary.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fixed {
    /// A size or length (`memcpy`'s, a system call's, `make_symbolic`'s).
    Size,
    /// An offset into an object too large for a symbolic access.
    Offset,
    /// An address (a pointer handed to the C library, a pointer after too many objects).
    Pointer,
    /// Any other value (a `sprintf` argument, a file descriptor, ...).
    Value,
}

impl Fixed {
    /// `size`, `offset`, `pointer`, `value`: the word of summaries.
    pub fn name(self) -> &'static str {
        match self {
            Fixed::Size => "size",
            Fixed::Offset => "offset",
            Fixed::Pointer => "pointer",
            Fixed::Value => "value",
        }
    }
}

/// How often a site fixed a value whose other values were feasible, and what became of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SiteCount {
    /// Times a value was fixed while others were possible.
    pub fixed: u64,
    /// States that went on with the other values.
    pub forked: u64,
    /// Paths ended early with the values left ([`MAX_CONCRETE_VALUES`](super::concretize::MAX_CONCRETE_VALUES) reached).
    pub ended: u64,
}
