//! Solver statistics: plain counters per layer of the chain, with stable
//! snake_case names (the harness serialises them; see [`SolverStats::fields`]
//! and [`SolverStats::to_json`]). Times are microseconds of wall time; a
//! layer's `*_time_us` is its own overhead, excluding the layers below it.

/// Counters of one [`crate::Solver`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Satisfiability questions asked (every `check`/`check_model`, and
    /// each sub-query of `four_way`, `prove_equal`, `may_be_true`, ...).
    pub queries: u64,
    /// Questions answered from constants alone (a constant-false
    /// constraint, or nothing left to check).
    pub trivial: u64,
    /// Wall time spent inside the solver's public methods.
    pub total_time_us: u64,

    /// Queries seen by the independence layer.
    pub independence_queries: u64,
    /// Queries it split into more than one component.
    pub independence_hits: u64,
    /// Sub-queries it sent down the chain for split queries.
    pub independence_subqueries: u64,
    /// Path-condition constraints it did not send at all (known-sat components).
    pub independence_dropped: u64,
    pub independence_time_us: u64,

    /// Queries seen by the exact cache.
    pub exact_queries: u64,
    pub exact_hits: u64,
    pub exact_time_us: u64,

    /// Queries seen by the counterexample cache.
    pub cex_queries: u64,
    /// Answered by the cache (the sum of the three kinds below).
    pub cex_hits: u64,
    pub cex_unsat_subset_hits: u64,
    pub cex_superset_hits: u64,
    pub cex_eval_hits: u64,
    pub cex_time_us: u64,

    /// Queries seen by the range solver.
    pub range_queries: u64,
    /// Decided by it (sat or unsat) without Bitwuzla.
    pub range_hits: u64,
    pub range_time_us: u64,

    /// Queries that reached Bitwuzla.
    pub core_queries: u64,
    pub core_sat: u64,
    pub core_unsat: u64,
    /// Bitwuzla answered unknown (the per-query time limit expired, or the deadline passed).
    pub core_unknown: u64,
    /// Of those, the answers given up because the deadline ([`crate::Solver::set_deadline`])
    /// had passed: the caller's wall-time budget cut the query short.
    pub core_deadline: u64,
    /// Of those, the checks stopped because the process's resident memory reached the
    /// solver's memory limit ([`crate::SolverConfig::memory_limit_mb`]).
    pub core_memory_out: u64,
    /// Of those, the queries not started because their floating-point arithmetic is more
    /// than Bitwuzla could bit-blast within memory (`core.rs`).
    pub core_float_too_large: u64,
    /// Time in Bitwuzla's `check_sat` calls.
    pub core_check_time_us: u64,
    /// Time in the core altogether (translation, push/pop, models, log).
    pub core_time_us: u64,
    /// Queries that reached Bitwuzla with a floating-point operator in them, and the time
    /// of their checks.
    pub core_float_queries: u64,
    pub core_float_check_time_us: u64,
    /// Incremental mode: context levels pushed and popped.
    pub core_pushes: u64,
    pub core_pops: u64,
    /// Times the term manager was replaced by a fresh one (`core.rs`, renewal).
    pub core_renewals: u64,

    /// Calls to `four_way`.
    pub four_way_calls: u64,
    /// Of those, calls where the projections were equal (a two-way question).
    pub four_way_two_way: u64,
    /// Queries issued by `four_way`.
    pub four_way_queries: u64,

    /// Calls to `prove_equal` (including those from `shadow_under`).
    pub prove_equal_calls: u64,
    /// Answered by the proof cache.
    pub prove_equal_hits: u64,
    /// Calls whose answer was "equal".
    pub prove_equal_proven: u64,
}

impl SolverStats {
    /// Every counter with its name, in declaration order.
    pub fn fields(&self) -> [(&'static str, u64); 42] {
        [
            ("queries", self.queries),
            ("trivial", self.trivial),
            ("total_time_us", self.total_time_us),
            ("independence_queries", self.independence_queries),
            ("independence_hits", self.independence_hits),
            ("independence_subqueries", self.independence_subqueries),
            ("independence_dropped", self.independence_dropped),
            ("independence_time_us", self.independence_time_us),
            ("exact_queries", self.exact_queries),
            ("exact_hits", self.exact_hits),
            ("exact_time_us", self.exact_time_us),
            ("cex_queries", self.cex_queries),
            ("cex_hits", self.cex_hits),
            ("cex_unsat_subset_hits", self.cex_unsat_subset_hits),
            ("cex_superset_hits", self.cex_superset_hits),
            ("cex_eval_hits", self.cex_eval_hits),
            ("cex_time_us", self.cex_time_us),
            ("range_queries", self.range_queries),
            ("range_hits", self.range_hits),
            ("range_time_us", self.range_time_us),
            ("core_queries", self.core_queries),
            ("core_sat", self.core_sat),
            ("core_unsat", self.core_unsat),
            ("core_unknown", self.core_unknown),
            ("core_memory_out", self.core_memory_out),
            ("core_float_too_large", self.core_float_too_large),
            ("core_check_time_us", self.core_check_time_us),
            ("core_time_us", self.core_time_us),
            ("core_float_queries", self.core_float_queries),
            ("core_float_check_time_us", self.core_float_check_time_us),
            ("core_pushes", self.core_pushes),
            ("core_pops", self.core_pops),
            ("core_renewals", self.core_renewals),
            ("four_way_calls", self.four_way_calls),
            ("four_way_two_way", self.four_way_two_way),
            ("four_way_queries", self.four_way_queries),
            ("prove_equal_calls", self.prove_equal_calls),
            ("prove_equal_hits", self.prove_equal_hits),
            ("prove_equal_proven", self.prove_equal_proven),
            ("timeouts", self.core_unknown),
            ("cache_hits", self.exact_hits + self.cex_hits),
            ("bitwuzla_queries", self.core_queries),
        ]
    }

    /// A flat JSON object of [`Self::fields`].
    pub fn to_json(&self) -> String {
        let body: Vec<String> = self.fields().iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
        format!("{{{}}}", body.join(","))
    }

    /// The counters of `other` added to these.
    pub fn add(&mut self, other: &SolverStats) {
        macro_rules! sum {
            ($($f:ident),*) => { $(self.$f += other.$f;)* };
        }
        sum!(
            queries,
            trivial,
            total_time_us,
            independence_queries,
            independence_hits,
            independence_subqueries,
            independence_dropped,
            independence_time_us,
            exact_queries,
            exact_hits,
            exact_time_us,
            cex_queries,
            cex_hits,
            cex_unsat_subset_hits,
            cex_superset_hits,
            cex_eval_hits,
            cex_time_us,
            range_queries,
            range_hits,
            range_time_us,
            core_queries,
            core_sat,
            core_unsat,
            core_unknown,
            core_memory_out,
            core_float_too_large,
            core_check_time_us,
            core_time_us,
            core_float_queries,
            core_float_check_time_us,
            core_pushes,
            core_pops,
            core_renewals,
            four_way_calls,
            four_way_two_way,
            four_way_queries,
            prove_equal_calls,
            prove_equal_hits,
            prove_equal_proven
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lists_every_field() {
        let s = SolverStats { queries: 3, core_unknown: 1, exact_hits: 2, cex_hits: 1, ..Default::default() };
        let j = s.to_json();
        assert!(j.starts_with("{\"queries\":3,\"trivial\":0,"));
        assert!(j.contains("\"timeouts\":1"));
        assert!(j.contains("\"cache_hits\":3"));
        assert!(j.ends_with('}'));
        let mut t = s.clone();
        t.add(&s);
        assert_eq!(t.queries, 6);
    }
}
