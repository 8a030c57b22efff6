//! [`RunSummary`]: what a symbolic run reports — paths, errors, tests, states, instructions,
//! budgets hit and what they left unexplored, warnings, and the solver's statistics per cache
//! layer — as one JSON object (`--json`, via serde) or a short human table ([`RunSummary::human`]).
//!
//! Every count is an integer and, for count-bounded runs, deterministic; only the times
//! (`wall_s`, `solver.time_s`, ...) vary between identical runs.

use super::testgen::{TestRecord, TestWriter};
use crate::config::{EngineConfig, StopReason};
use crate::symbolic::concretize::MAX_CONCRETE_VALUES;
use crate::symbolic::stats::Stats;
use penumbra_solver::SolverStats;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

/// Hits of one cache layer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CacheStats {
    /// Queries that reached this layer.
    pub queries: u64,
    /// Queries it answered (for independence: queries it split).
    pub hits: u64,
    /// `hits / queries` (0 when there were no queries).
    pub hit_rate: f64,
}

impl CacheStats {
    fn new(queries: u64, hits: u64) -> Self {
        let hit_rate = if queries == 0 { 0.0 } else { hits as f64 / queries as f64 };
        CacheStats { queries, hits, hit_rate }
    }
}

/// Four-way questions of shadow execution.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FourWayStats {
    pub checks: u64,
    /// Answered without a query reaching Bitwuzla.
    pub without_core: u64,
    /// `without_core / checks` (0 when there were none).
    pub without_core_rate: f64,
}

impl FourWayStats {
    fn new(checks: u64, without_core: u64) -> Self {
        let without_core_rate = if checks == 0 { 0.0 } else { without_core as f64 / checks as f64 };
        FourWayStats { checks, without_core, without_core_rate }
    }
}

/// An unsupported construct the run reached, and on how many paths.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct UnsupportedSite {
    pub construct: String,
    pub func: String,
    pub line: u32,
    /// The source file (absent when unknown: the program's).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file: String,
    pub paths: u64,
}

/// A place where the run fixed a symbolic value to one value while others were possible
/// (`symbolic::concretize`), and what that cost.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ConcretizedSite {
    /// `size`, `offset`, `pointer` or `value`.
    pub what: String,
    pub func: String,
    pub line: u32,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub file: String,
    /// Times a value was fixed there while others were possible.
    pub times: u64,
    /// States that went on with other values.
    pub forked: u64,
    /// Paths ended early with the values left (the cost: they were not explored).
    pub paths_ended: u64,
}

/// The solver part of the summary (defaulted field by field, as [`RunSummary`] is).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct SolverSummary {
    /// Questions the engine asked.
    pub queries: u64,
    /// Answered from constants alone.
    pub trivial: u64,
    /// Queries that reached Bitwuzla.
    pub core_queries: u64,
    pub core_sat: u64,
    pub core_unsat: u64,
    pub core_unknown: u64,
    pub independence: CacheStats,
    pub query_cache: CacheStats,
    pub cex_cache: CacheStats,
    /// Queries the range solver decided without Bitwuzla.
    pub range_solver: CacheStats,
    /// Wall time inside the solver (caches included), in seconds.
    pub time_s: f64,
    /// Wall time inside Bitwuzla's checks, in seconds.
    pub core_time_s: f64,
    /// Of the queries reaching Bitwuzla, those with floating point, and their checks' time.
    pub core_float_queries: u64,
    pub core_float_time_s: f64,
    /// Of the queries answered unknown, those whose check gave up because the process's
    /// resident memory reached `--max-memory`.
    pub core_memory_out: u64,
    /// Of the queries answered unknown, those not started: more floating-point arithmetic
    /// than Bitwuzla can bit-blast within memory.
    pub core_float_too_large: u64,
}

impl SolverSummary {
    pub fn new(s: &SolverStats) -> Self {
        SolverSummary {
            queries: s.queries,
            trivial: s.trivial,
            core_queries: s.core_queries,
            core_sat: s.core_sat,
            core_unsat: s.core_unsat,
            core_unknown: s.core_unknown,
            independence: CacheStats::new(s.independence_queries, s.independence_hits),
            query_cache: CacheStats::new(s.exact_queries, s.exact_hits),
            cex_cache: CacheStats::new(s.cex_queries, s.cex_hits),
            range_solver: CacheStats::new(s.range_queries, s.range_hits),
            time_s: s.total_time_us as f64 / 1e6,
            core_time_s: s.core_check_time_us as f64 / 1e6,
            core_float_queries: s.core_float_queries,
            core_float_time_s: s.core_float_check_time_us as f64 / 1e6,
            core_memory_out: s.core_memory_out,
            core_float_too_large: s.core_float_too_large,
        }
    }
}

/// The summary of a run (`--json`; `run.json`'s `summary`, without the machine's figures). It
/// reads back with every field defaulted: summaries of older versions lack the later ones.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct RunSummary {
    pub program: String,
    /// `old` or `new` (`both` in shadow execution).
    pub version: String,
    /// Shadow execution: `complete` or `seeded`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Shadow execution: paths that diverged and then ended (each has a test of kind
    /// `divergence`, but those counted in `diff_paths_untested`).
    pub diff_paths: u64,
    /// Shadow execution: diff paths that wrote no test, their divergence site having written
    /// `--max-site-tests` already.
    pub diff_paths_untested: u64,
    /// Shadow execution: states that took a diff outcome (a path may fork after it diverged,
    /// so there can be more diff paths than divergences).
    pub divergences: u64,
    /// Seeded shadow execution: divergence points the seeds queued for bounded symbolic
    /// execution.
    pub divergence_points: u64,
    /// Seeded shadow execution: seeds derived from the seeds' paths and run as seeds
    /// (`--derived-seeds`).
    pub derived_seeds: u64,
    /// ... of which the path was cut short: each derived seed's concolic run has a share of
    /// the time left when it starts (a derived range bound of 32,293 took 100 s of 120 s).
    pub derived_seeds_cut: u64,
    /// Shadow execution: four-way questions (conditions whose versions may differ), and how
    /// many were answered without a query reaching Bitwuzla.
    pub four_way: FourWayStats,
    pub search: String,
    /// Paths that returned from `main` or called `exit`.
    pub paths_completed: u64,
    /// Paths that ended in an error.
    pub errors: u64,
    /// Errors per kind (sorted by kind).
    pub error_kinds: BTreeMap<String, u64>,
    /// Paths that reached an unsupported construct.
    pub unsupported: u64,
    /// Where they reached it and what it was, by line (a shadow path that had not diverged
    /// writes no test, so this is the only trace of it).
    pub unsupported_sites: Vec<UnsupportedSite>,
    /// Paths ended by a provably false `assume`.
    pub assume_false: u64,
    /// Paths ended early.
    pub early: u64,
    /// Early endings per reason (`max-depth`, `bse-budget`, `solver-unknown`,
    /// `object-too-large`, `concretized`), sorted by reason.
    pub early_reasons: BTreeMap<String, u64>,
    /// Objects allocated with a symbolic size (or one that differs between the versions).
    pub symbolic_sizes: u64,
    /// Accesses through a symbolic address that the path allows one value (taken as that
    /// value, not resolved symbolically).
    pub fixed_addresses: u64,
    /// Where symbolic values were fixed to one value while others were possible.
    pub concretized_sites: Vec<ConcretizedSite>,
    /// One record per test (empty unless records were kept).
    pub tests: Vec<TestRecord>,
    /// Tests produced (written, unless `--no-tests`).
    pub tests_count: u64,
    /// States created (the initial ones included).
    pub states: u64,
    /// The most states alive at once.
    pub max_live_states: u64,
    pub instructions: u64,
    /// Distinct terms in the store at the end: symbolic values and the constants they met
    /// (concrete values computed on their own are not interned).
    pub terms: u64,
    pub wall_s: f64,
    /// Peak resident memory of this process in MiB (the C compiler, a child, excluded).
    pub peak_rss_mb: f64,
    /// The budget that stopped the run, if one did.
    pub stopped_by: Option<String>,
    /// Why writing tests failed, with the OS error (when `stopped_by` is `io-error`).
    pub output_error: Option<String>,
    /// States still alive when a budget stopped the run (their paths were not finished).
    pub unexplored_states: u64,
    /// Feasible sides dropped by `max_states`; in seeded mode also the states of a seed whose
    /// path a budget cut (a derived seed's share of the time: `derived_seeds_cut`), and states
    /// off a seed's path that did not diverge (Shadow's seeded mode explores from divergences).
    pub dropped_states: u64,
    /// Things the run did that lose completeness, with counts.
    pub warnings: Vec<String>,
    /// Where tests were written.
    pub output_dir: Option<String>,
    pub solver: SolverSummary,
}

/// How a run ended, besides its counters.
#[derive(Clone, Debug)]
pub struct RunEnd {
    /// States still alive when a budget stopped the run.
    pub unexplored: u64,
    pub stop: Option<StopReason>,
    pub wall: Duration,
    /// Distinct terms in the store.
    pub terms: u64,
    /// Peak resident memory of the process in MiB.
    pub peak_rss_mb: f64,
    /// Why writing tests failed (`stopped_by: io-error`).
    pub output_error: Option<String>,
}

impl RunSummary {
    /// The summary of a run under `config` that counted `stats`, asked `solver` and wrote
    /// `tests` (its kept records move into the summary).
    pub fn new(config: &EngineConfig, s: &Stats, solver: &SolverStats, tests: &mut TestWriter, end: RunEnd) -> Self {
        let mut warnings = Vec::new();
        let concretized_sites: Vec<ConcretizedSite> = s
            .concretized_sites
            .iter()
            .map(|((file, line, func, what), count)| ConcretizedSite {
                what: what.name().to_string(),
                func: func.clone(),
                line: *line,
                file: file.clone(),
                times: count.fixed,
                forked: count.forked,
                paths_ended: count.ended,
            })
            .collect();
        let lost: u64 = concretized_sites.iter().map(|c| c.paths_ended).sum();
        if lost > 0 {
            warnings.push(format!(
                "{lost} paths ended early after {MAX_CONCRETE_VALUES} values of a symbolic value fixed to one value \
                 (sites listed above)"
            ));
        }
        if s.solver_unknown > 0 {
            warnings.push(format!(
                "{} solver queries timed out or were given up (memory, floats too large): a branch or check \
                 they left undecided ended its state early (solver-unknown), other values took the state's own",
                s.solver_unknown
            ));
        }
        if s.printed_symbolic > 0 {
            warnings.push(format!("{} symbolic values were printed with their model value", s.printed_symbolic));
        }
        let error_kinds = s.error_kinds.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        RunSummary {
            program: config.env.program_name.clone(),
            version: config.mode.version_name(),
            mode: config.mode.shadow().map(|m| m.name().to_string()),
            diff_paths: s.diff_paths,
            diff_paths_untested: s.diff_paths_untested,
            divergences: s.divergences,
            divergence_points: s.divergence_points,
            derived_seeds: s.derived_seeds,
            derived_seeds_cut: s.derived_seeds_cut,
            four_way: FourWayStats::new(s.four_way_checks, s.four_way_without_core),
            search: config.search.name().to_string(),
            paths_completed: s.paths_completed,
            errors: s.errors,
            error_kinds,
            unsupported: s.unsupported,
            unsupported_sites: s
                .unsupported_sites
                .iter()
                .map(|((file, line, func, construct), paths)| UnsupportedSite {
                    construct: construct.clone(),
                    func: func.clone(),
                    line: *line,
                    file: file.clone(),
                    paths: *paths,
                })
                .collect(),
            assume_false: s.assume_false,
            early: s.early,
            early_reasons: s.early_reasons.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            symbolic_sizes: s.symbolic_sizes,
            fixed_addresses: s.fixed_addresses,
            concretized_sites,
            tests: tests.take_records(),
            tests_count: s.tests,
            states: s.states,
            max_live_states: s.max_live_states,
            instructions: s.instructions,
            terms: end.terms,
            wall_s: end.wall.as_secs_f64(),
            peak_rss_mb: end.peak_rss_mb,
            stopped_by: end.stop.map(|r| r.name().to_string()),
            output_error: end.output_error,
            unexplored_states: end.unexplored,
            dropped_states: s.dropped,
            warnings,
            output_dir: tests.dir().map(|d| d.display().to_string()),
            solver: SolverSummary::new(solver),
        }
    }

    /// The one-object JSON form.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\":\"cannot serialise the summary: {e}\"}}"))
    }

    /// A short readable table.
    pub fn human(&self) -> String {
        let mut out = String::new();
        let pct = |c: &CacheStats| format!("{:.1}% of {}", 100.0 * c.hit_rate, c.queries);
        match &self.mode {
            Some(mode) => {
                let _ = writeln!(out, "penumbra shadow: {} ({mode} mode, {} search)", self.program, self.search);
            }
            None => {
                let _ =
                    writeln!(out, "penumbra run: {} (version {}, {} search)", self.program, self.version, self.search);
            }
        }
        let mut rows: Vec<(&str, String)> = Vec::new();
        if let Some(mode) = &self.mode {
            rows.push((
                "diff paths",
                match self.diff_paths_untested {
                    0 => self.diff_paths.to_string(),
                    n => format!("{} ({n} without a test: their sites had --max-site-tests)", self.diff_paths),
                },
            ));
            if mode == "seeded" {
                rows.push(("divergence points", self.divergence_points.to_string()));
                match (self.derived_seeds, self.derived_seeds_cut) {
                    (0, _) => {}
                    (n, 0) => rows.push(("derived seeds", n.to_string())),
                    (n, cut) => {
                        rows.push(("derived seeds", format!("{n} ({cut} cut short by their share of the time)")))
                    }
                }
            }
            let f = &self.four_way;
            rows.push((
                "four-way checks",
                format!("{} ({:.1}% without Bitwuzla)", f.checks, 100.0 * f.without_core_rate),
            ));
        }
        rows.extend([
            ("paths completed", self.paths_completed.to_string()),
            ("errors", self.errors.to_string()),
            ("unsupported paths", self.unsupported.to_string()),
            ("assume-false paths", self.assume_false.to_string()),
            ("early-ended paths", self.early.to_string()),
            ("tests", self.tests_count.to_string()),
            ("states", format!("{} (at most {} alive)", self.states, self.max_live_states)),
            ("instructions", self.instructions.to_string()),
            ("terms", self.terms.to_string()),
            ("solver queries", self.solver.queries.to_string()),
            ("  reaching Bitwuzla", self.solver.core_queries.to_string()),
            ("  independence splits", pct(&self.solver.independence)),
            ("  query cache hits", pct(&self.solver.query_cache)),
            ("  cex cache hits", pct(&self.solver.cex_cache)),
            ("  range solver decided", pct(&self.solver.range_solver)),
            ("  solver time", format!("{:.3} s (Bitwuzla {:.3} s)", self.solver.time_s, self.solver.core_time_s)),
            ("wall time", format!("{:.3} s", self.wall_s)),
            ("peak memory", format!("{:.1} MiB", self.peak_rss_mb)),
        ]);
        if self.solver.core_float_queries > 0 {
            let at = rows.iter().position(|(k, _)| *k == "  reaching Bitwuzla").map_or(rows.len(), |i| i + 1);
            let text = format!("{} ({:.3} s)", self.solver.core_float_queries, self.solver.core_float_time_s);
            rows.insert(at, ("    with floating point", text));
        }
        let given_up = [
            ("    given up at --max-memory", self.solver.core_memory_out),
            ("    floats too large", self.solver.core_float_too_large),
        ];
        for (label, n) in given_up.into_iter().rev().filter(|&(_, n)| n > 0) {
            let at = rows.iter().position(|(k, _)| *k == "  reaching Bitwuzla").map_or(rows.len(), |i| i + 1);
            rows.insert(at, (label, n.to_string()));
        }
        for (k, v) in rows {
            let _ = writeln!(out, "  {k:<24}{v}");
        }
        for (kind, n) in &self.error_kinds {
            let _ = writeln!(out, "  {:<23} {n}", format!("error {kind}"));
        }
        for site in &self.unsupported_sites {
            let paths = if site.paths == 1 { "1 path".to_string() } else { format!("{} paths", site.paths) };
            let _ = writeln!(
                out,
                "  unsupported at {}:{} ({}): {}, {paths}",
                if site.file.is_empty() { &self.program } else { &site.file },
                site.line,
                site.func,
                site.construct
            );
        }
        if !self.early_reasons.is_empty() && self.early_reasons.keys().any(|k| k != "max-depth") {
            let reasons: Vec<String> = self.early_reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
            let _ = writeln!(out, "  early-ended by           {}", reasons.join(", "));
        }
        for c in &self.concretized_sites {
            let _ = writeln!(
                out,
                "  fixed a {} to one value at {}:{} ({}): {} times, {} forked, {} paths ended early",
                c.what,
                if c.file.is_empty() { &self.program } else { &c.file },
                c.line,
                c.func,
                c.times,
                c.forked,
                c.paths_ended
            );
        }
        if let Some(reason) = &self.stopped_by {
            let _ = writeln!(out, "  stopped by {reason}: {} states left unexplored", self.unexplored_states);
        }
        if let Some(error) = &self.output_error {
            let _ = writeln!(out, "  output error: {error}");
        }
        match (self.dropped_states, self.mode.as_deref()) {
            (0, _) => {}
            (n, Some("seeded")) => {
                let _ = writeln!(
                    out,
                    "  dropped {n} feasible states (max-states, a seed's path a budget cut, off a seed's path)"
                );
            }
            (n, _) => {
                let _ = writeln!(out, "  max-states dropped {n} feasible states");
            }
        }
        for w in &self.warnings {
            let _ = writeln!(out, "  warning: {w}");
        }
        if let Some(dir) = &self.output_dir {
            let _ = writeln!(out, "  tests written to {dir}");
        }
        out
    }
}
