//! [`Solver`]: the public entry point. It validates queries, answers the
//! trivial ones from constants, runs the rest through the chain
//! (independence -> exact cache -> counterexample cache -> range solver ->
//! Bitwuzla core, each switchable in [`SolverConfig`]), and keeps
//! [`SolverStats`].
//!
//! A path condition is a slice of width-1 terms owned by the engine; it
//! grows and shrinks as the engine switches states, and the incremental
//! core follows it by popping to the common prefix. The `extra` constraints
//! of a query are checked as assumptions on top of it.
//!
//! Answers are deterministic: the same sequence of calls on the same store
//! gives the same answers and models (no cache depends on hash-map order,
//! and Bitwuzla is deterministic for a fixed input sequence).

use std::borrow::Cow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::chain::cex::CexCache;
use crate::chain::exact::ExactCache;
use crate::chain::independence::Independence;
use crate::chain::ranges::RangeSolver;
use crate::chain::{Layer, Next};
use crate::core::Core;
use crate::error::SolverError;
use crate::fork_list::ForkList;
use crate::model::Model;
use crate::path::{check_constraint, Constraints, FlatPath, Path, PathCondition};
use crate::proof_cache::ProofCache;
use crate::query::{micros, Answer, Ctx, Query};
use crate::query_log::QueryLog;
use crate::stats::SolverStats;
use crate::term::{TermId, TermStore};
use crate::vars::VarIndex;

/// Which layers run, and their bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Exact query cache.
    pub query_cache: bool,
    /// Counterexample cache.
    pub cex_cache: bool,
    /// Constraint independence.
    pub independence: bool,
    /// The range solver (queries whose inputs are compared with constants, and queries over
    /// inputs with few combinations of values, decided without Bitwuzla).
    pub ranges: bool,
    /// Keep the path condition on Bitwuzla's assertion stack between queries
    /// (otherwise a fresh Bitwuzla instance solves each query from scratch).
    pub incremental: bool,
    /// Time limit per Bitwuzla check; an expired check answers `Unknown`.
    pub timeout_ms: Option<u64>,
    /// Resident memory of the process (MiB) at which a Bitwuzla check gives up and answers
    /// `Unknown` (its instance is then replaced, freeing what it held).
    pub memory_limit_mb: Option<u64>,
    /// Write every query reaching Bitwuzla to this SMT-LIB2 file (see `query_log`).
    pub query_log: Option<PathBuf>,
    /// Entries of the exact cache.
    pub query_cache_capacity: usize,
    /// Entries (constraint sets with a model or unsat) of the counterexample cache.
    pub cex_cache_capacity: usize,
    /// How many of the newest cached models are evaluated on a query.
    pub cex_eval_models: usize,
    /// Known-satisfiable component sets kept by the independence layer.
    pub independence_capacity: usize,
    /// Proven equalities kept for refactoring elimination.
    pub proof_cache_capacity: usize,
    /// Constraint -> variables memo entries.
    pub var_index_capacity: usize,
}

impl Default for SolverConfig {
    /// Every cache on, incremental, no time limit, no log.
    fn default() -> Self {
        SolverConfig {
            query_cache: true,
            cex_cache: true,
            independence: true,
            ranges: true,
            incremental: true,
            timeout_ms: None,
            memory_limit_mb: None,
            query_log: None,
            query_cache_capacity: 4096,
            cex_cache_capacity: 1024,
            cex_eval_models: 16,
            independence_capacity: 4096,
            proof_cache_capacity: 4096,
            var_index_capacity: 65536,
        }
    }
}

impl SolverConfig {
    /// Every cache off (Bitwuzla answers every query), still incremental.
    pub fn no_caches() -> Self {
        SolverConfig { query_cache: false, cex_cache: false, independence: false, ranges: false, ..Self::default() }
    }
}

/// The answer to a satisfiability question.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SatResult {
    Sat,
    Unsat,
    /// Bitwuzla's time limit expired.
    Unknown,
}

/// Bitwuzla behind a chain of caches. Use one solver with one [`TermStore`].
pub struct Solver {
    config: SolverConfig,
    layers: Vec<Box<dyn Layer>>,
    core: Core,
    pub(crate) stats: SolverStats,
    vars: VarIndex,
    store_id: Option<u64>,
    pub(crate) proofs: ProofCache,
    /// The last fork-list path condition asked about, flattened.
    flat: FlatPath,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver").field("config", &self.config).field("stats", &self.stats).finish()
    }
}

impl Solver {
    /// A solver with the given layers (creates the query log file if asked).
    pub fn new(config: SolverConfig) -> Result<Self, SolverError> {
        let log = match &config.query_log {
            Some(path) => Some(QueryLog::create(path)?),
            None => None,
        };
        let mut layers: Vec<Box<dyn Layer>> = Vec::new();
        if config.independence {
            layers.push(Box::new(Independence::new(config.independence_capacity)));
        }
        if config.query_cache {
            layers.push(Box::new(ExactCache::new(config.query_cache_capacity)));
        }
        if config.cex_cache {
            layers.push(Box::new(CexCache::new(config.cex_cache_capacity, config.cex_eval_models)));
        }
        if config.ranges {
            layers.push(Box::<RangeSolver>::default());
        }
        Ok(Solver {
            core: Core::new(config.incremental, config.timeout_ms, config.memory_limit_mb, log)?,
            layers,
            stats: SolverStats::default(),
            vars: VarIndex::new(config.var_index_capacity),
            store_id: None,
            proofs: ProofCache::new(config.proof_cache_capacity),
            flat: FlatPath::default(),
            config,
        })
    }

    /// The configuration this solver was made with.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// The counters so far.
    pub fn stats(&self) -> &SolverStats {
        &self.stats
    }

    /// From now on, a Bitwuzla call still running at `deadline` gives up and the query answers
    /// unknown (`None`: no deadline); a run's wall-time budget thus holds inside a hard query.
    /// Unknown answers are not cached.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.core.set_deadline(deadline);
    }

    /// Zeroes the counters (caches are kept).
    pub fn reset_stats(&mut self) {
        self.stats = SolverStats::default();
    }

    /// Incremental mode: how many constraints sit on Bitwuzla's assertion stack.
    pub fn asserted_depth(&self) -> usize {
        self.core.asserted_len()
    }

    /// Is `pc ∧ extra` satisfiable?
    pub fn check(
        &mut self,
        store: &TermStore,
        pc: &(impl PathCondition + ?Sized),
        extra: &[TermId],
    ) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let r = self.with_path(store, pc, |s, pc| s.query(store, pc, extra, false, None)).map(|a| sat_result(&a));
        self.stats.total_time_us += micros(start.elapsed());
        r
    }

    /// Is `pc ∧ extra` satisfiable, and if so a model listing every variable
    /// of these constraints (sorted by variable; others are 0).
    pub fn check_model(
        &mut self,
        store: &TermStore,
        pc: &(impl PathCondition + ?Sized),
        extra: &[TermId],
    ) -> Result<(SatResult, Option<Model>), SolverError> {
        self.check_model_impl(store, pc, extra, None)
    }

    /// [`Solver::check_model`] for a caller holding `base`, a model of `pc` (as every engine
    /// state does): only the constraints sharing variables with `extra` are solved, and the
    /// model returned is `base` with their variables' values replaced. `base` must satisfy
    /// `pc`; the answer is then the same as `check_model`'s, with fewer constraints solved.
    pub fn check_model_from(
        &mut self,
        store: &TermStore,
        pc: &(impl PathCondition + ?Sized),
        extra: &[TermId],
        base: &Model,
    ) -> Result<(SatResult, Option<Model>), SolverError> {
        self.check_model_impl(store, pc, extra, Some(base))
    }

    fn check_model_impl(
        &mut self,
        store: &TermStore,
        pc: &(impl PathCondition + ?Sized),
        extra: &[TermId],
        base: Option<&Model>,
    ) -> Result<(SatResult, Option<Model>), SolverError> {
        let start = Instant::now();
        let r = self.with_path(store, pc, |s, pc| s.query(store, pc, extra, true, base)).map(|a| match a {
            Answer::Sat(m) => (SatResult::Sat, Some(m.unwrap_or_default())),
            Answer::Unsat => (SatResult::Unsat, None),
            Answer::Unknown => (SatResult::Unknown, None),
        });
        self.stats.total_time_us += micros(start.elapsed());
        r
    }

    /// A model of `pc`, or `None` when it is unsat or the check timed out.
    pub fn get_model(
        &mut self,
        store: &TermStore,
        pc: &(impl PathCondition + ?Sized),
    ) -> Result<Option<Model>, SolverError> {
        Ok(self.check_model(store, pc, &[])?.1)
    }

    /// Can `cond` hold under `pc`? (`Unknown` counts as yes.)
    pub fn may_be_true(
        &mut self,
        store: &TermStore,
        pc: &(impl PathCondition + ?Sized),
        cond: TermId,
    ) -> Result<bool, SolverError> {
        Ok(self.check(store, pc, &[cond])? != SatResult::Unsat)
    }

    /// Does `cond` hold in every model of `pc`? (`Unknown` counts as no.)
    pub fn must_be_true(
        &mut self,
        store: &mut TermStore,
        pc: &(impl PathCondition + ?Sized),
        cond: TermId,
    ) -> Result<bool, SolverError> {
        check_constraint(store, cond)?;
        let neg = store.not(cond);
        Ok(self.check(store, pc, &[neg])? == SatResult::Unsat)
    }

    /// The shared path of every question: validate, fold constants, run the chain.
    pub(crate) fn query(
        &mut self,
        store: &TermStore,
        path: Path<'_>,
        extra: &[TermId],
        need_model: bool,
        base: Option<&Model>,
    ) -> Result<Answer, SolverError> {
        match self.store_id {
            None => self.store_id = Some(store.store_id()),
            Some(id) if id != store.store_id() => return Err(SolverError::StoreMismatch),
            Some(_) => {}
        }
        let pc = path.items;
        for &c in pc[path.checked..].iter().chain(extra) {
            check_constraint(store, c)?;
        }
        self.stats.queries += 1;

        // Constants: a false constraint decides; true ones are dropped.
        let is_const = |c: &TermId| store.as_const(*c).is_some();
        let pc_has_const = path.has_const.unwrap_or_else(|| pc.iter().any(is_const));
        if extra.iter().any(|&c| store.is_false(c)) || (pc_has_const && pc.iter().any(|&c| store.is_false(c))) {
            self.stats.trivial += 1;
            return Ok(Answer::Unsat);
        }
        let strip = |cs: &[TermId]| -> Vec<TermId> { cs.iter().copied().filter(|c| !is_const(c)).collect() };
        let pc: Cow<'_, [TermId]> = if pc_has_const { Cow::Owned(strip(pc)) } else { Cow::Borrowed(pc) };
        let extra: Cow<'_, [TermId]> =
            if extra.iter().any(is_const) { Cow::Owned(strip(extra)) } else { Cow::Borrowed(extra) };
        if pc.is_empty() && extra.is_empty() {
            self.stats.trivial += 1;
            return Ok(Answer::Sat(need_model.then(Model::new)));
        }

        let mut q = Query::new(&pc, &extra, need_model);
        q.base = base;
        let mut ctx = Ctx { store, stats: &mut self.stats, vars: &mut self.vars, inclusive: Duration::ZERO };
        let mut next = Next::new(&mut self.layers, &mut self.core);
        let answer = next.solve(&mut ctx, &q)?;
        Ok(match answer {
            // `base` with the solved part replaced (the independence layer's answer).
            Answer::Sat(Some(m)) if need_model && base.is_some() && self.config.independence => Answer::Sat(Some(m)),
            Answer::Sat(Some(m)) if need_model => {
                // list exactly the query's variables (a cached model may hold others)
                let mut all: Vec<TermId> = pc.to_vec();
                all.extend_from_slice(&extra);
                let vars = self.vars.vars_of_all(store, &all);
                let m = m.restrict(&vars);
                match base {
                    // Without independence the whole query was solved: its variables
                    // replace the base model's, the others keep their values.
                    Some(base) => {
                        let mut merged = base.clone();
                        merged.merge(&m);
                        Answer::Sat(Some(merged))
                    }
                    None => Answer::Sat(Some(m)),
                }
            }
            Answer::Sat(_) if need_model => {
                return Err(SolverError::Backend(crate::bitwuzla::BzError(
                    "the chain answered sat without the model that was asked for".into(),
                )))
            }
            Answer::Sat(_) => Answer::Sat(None),
            a => a,
        })
    }
}

fn sat_result(a: &Answer) -> SatResult {
    match a {
        Answer::Sat(_) => SatResult::Sat,
        Answer::Unsat => SatResult::Unsat,
        Answer::Unknown => SatResult::Unknown,
    }
}

impl Solver {
    /// Runs `f` on the constraints of `pc` as one slice (see [`crate::path`]).
    pub(crate) fn with_path<R>(
        &mut self,
        store: &TermStore,
        pc: &(impl PathCondition + ?Sized),
        f: impl FnOnce(&mut Solver, Path<'_>) -> Result<R, SolverError>,
    ) -> Result<R, SolverError> {
        match pc.constraints() {
            Constraints::Slice(items) => f(self, Path::unchecked(items)),
            Constraints::List(list) => {
                let flat = self.follow(store, list)?;
                let r = f(self, flat.path());
                self.flat = flat;
                r
            }
        }
    }

    /// [`Solver::with_path`] for questions that build terms.
    pub(crate) fn with_path_mut<R>(
        &mut self,
        store: &mut TermStore,
        pc: &(impl PathCondition + ?Sized),
        f: impl FnOnce(&mut Solver, &mut TermStore, Path<'_>) -> Result<R, SolverError>,
    ) -> Result<R, SolverError> {
        match pc.constraints() {
            Constraints::Slice(items) => f(self, store, Path::unchecked(items)),
            Constraints::List(list) => {
                let flat = self.follow(store, list)?;
                let r = f(self, store, flat.path());
                self.flat = flat;
                r
            }
        }
    }

    /// The flattened path condition, made to hold `list` (taken out of the solver while a
    /// question uses it).
    fn follow(&mut self, store: &TermStore, list: &ForkList<TermId>) -> Result<FlatPath, SolverError> {
        let mut flat = std::mem::take(&mut self.flat);
        flat.follow(store, list)?;
        Ok(flat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (TermStore, TermId, TermId) {
        let mut s = TermStore::default();
        let x = s.new_var("x", 8);
        let y = s.new_var("y", 8);
        let (x, y) = (s.var(x), s.var(y));
        (s, x, y)
    }

    #[test]
    fn solver_and_store_can_move_to_another_thread() {
        fn assert_send<T: Send>() {}
        assert_send::<Solver>();
        assert_send::<TermStore>();
    }

    #[test]
    fn check_and_model() {
        let (mut s, x, y) = setup();
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let k = s.constant(8, 200);
        let c1 = s.ugt(x, k);
        let c2 = s.eq(y, x);
        let (r, m) = solver.check_model(&s, &[c1], &[c2]).unwrap();
        assert_eq!(r, SatResult::Sat);
        let m = m.unwrap();
        let (xv, yv) = (s.as_var(x).unwrap(), s.as_var(y).unwrap());
        assert!(m.get(xv) > 200);
        assert_eq!(m.get(xv), m.get(yv));
        assert_eq!(m.len(), 2);
        let c3 = s.ult(y, k);
        assert_eq!(solver.check(&s, &[c1, c2], &[c3]).unwrap(), SatResult::Unsat);
        assert!(solver.must_be_true(&mut s, &[c1, c2], c1).unwrap());
        assert!(!solver.may_be_true(&s, &[c1, c2], c3).unwrap());
    }

    #[test]
    fn constants_are_trivial() {
        let (mut s, x, _) = setup();
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let (t, f) = (s.tt(), s.ff());
        assert_eq!(solver.check(&s, &[t], &[]).unwrap(), SatResult::Sat);
        let c = s.ult(x, x);
        assert_eq!(c, f);
        assert_eq!(solver.check(&s, &[], &[f]).unwrap(), SatResult::Unsat);
        assert_eq!(solver.stats().trivial, 2);
        assert_eq!(solver.stats().core_queries, 0);
    }

    #[test]
    fn invalid_constraints_are_errors() {
        let (mut s, x, _) = setup();
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        assert!(matches!(solver.check(&s, &[x], &[]), Err(SolverError::NotBoolean(_, 8))));
        let one = s.constant(8, 1);
        let sh = s.shadow(x, one);
        let c = s.eq(sh, x);
        assert!(matches!(solver.check(&s, &[], &[c]), Err(SolverError::ShadowInConstraint(_))));
        let other = TermStore::default();
        assert!(matches!(solver.check(&other, &[], &[]), Err(SolverError::StoreMismatch)));
    }
}
