//! The core solver: the end of the chain, where queries go to Bitwuzla.
//!
//! - **Translation** of terms to Bitwuzla terms is memoised per solver
//!   instance (`TermId -> BzTerm`), bottom-up with an explicit stack. Every
//!   term becomes a bitvector; comparisons become `ite(cmp, #b1, #b0)` and a
//!   constraint `c` is asserted as `c = #b1`, exactly as `smtlib.rs` prints.
//! - **Incremental** mode keeps the query's path-condition part on
//!   Bitwuzla's assertion stack, one push level per constraint: a new query
//!   pops to the longest common prefix with what is asserted and pushes the
//!   rest; the extra constraints are passed to `check_sat_assuming`.
//!   Non-incremental mode starts a fresh Bitwuzla instance per query (same
//!   term manager) and asserts everything.
//! - **Renewal**: after [`CHECKS_PER_MANAGER`] checks with more than
//!   [`TRANSLATED_TERMS_PER_MANAGER`] terms translated, the term manager and
//!   its solver are replaced by fresh ones and the translations forgotten
//!   (deterministic: counts only). Bitwuzla frees no term while its handle is
//!   held, and the memo holds every one since the start: coreutils tr's run
//!   of 60 s peaked at 904 MiB with one manager, 424 MiB with renewal, and
//!   ran 10,197 paths instead of 5,601 (a fresh instance's checks are
//!   faster); expr, whose queries are few and large, runs about as many
//!   (29,310 paths in 40 s against 31,000-32,000).
//! - **Models** list every variable of the query's constraints.
//! - **Timeouts** (Bitwuzla's per-check time limit) answer `Unknown`, and so does a check
//!   stopped because the process's resident memory reached the memory limit; the instance
//!   that held that memory is then replaced by a fresh one.
//! - The **query log**, when enabled, receives every query with its answer.

use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::bitwuzla::{Bitwuzla, BvBinary, BvCompare, BzResult, BzTerm};
use crate::error::SolverError;
use crate::model::Model;
use crate::query::{micros, Answer, Ctx, Query};
use crate::query_log::QueryLog;
use crate::term::{Op, TermId, TermStore};

mod float;

pub(crate) struct Core {
    bz: Bitwuzla,
    /// Bitvector translation of each term seen so far.
    memo: FxHashMap<TermId, BzTerm>,
    /// The definition of the fresh bits of each float result translated so far (see
    /// [`float`](self::float)).
    float_defs: FxHashMap<TermId, BzTerm>,
    /// Boolean `t = #b1` for each width-1 term used as a constraint.
    lits: FxHashMap<TermId, BzTerm>,
    /// Incremental mode: the constraints on the assertion stack, one level each.
    asserted: Vec<TermId>,
    incremental: bool,
    /// Bitwuzla's time limit per check and the memory limit, for the instances that replace
    /// this one.
    timeout_ms: Option<u64>,
    memory_limit_mb: Option<u64>,
    /// Checks since the term manager was last replaced by a fresh one.
    checks_on_manager: u64,
    log: Option<QueryLog>,
}

/// Translated terms (the memo's entries) above which the term manager is replaced by a fresh
/// one (after [`CHECKS_PER_MANAGER`] checks): the memory a manager holds grows with them.
const TRANSLATED_TERMS_PER_MANAGER: usize = 20_000;
/// Checks a term manager answers at least before it is replaced: a fresh one translates every
/// term of the next queries again (expr's path conditions, 200-kB queries: renewing at every
/// check past 20,000 terms cost it a third of its paths).
const CHECKS_PER_MANAGER: u64 = 50;

impl Core {
    /// Checks still running at `deadline` give up and answer unknown.
    pub(crate) fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.bz.set_deadline(deadline);
    }

    pub(crate) fn new(
        incremental: bool,
        timeout_ms: Option<u64>,
        memory_limit_mb: Option<u64>,
        log: Option<QueryLog>,
    ) -> Result<Self, SolverError> {
        Ok(Core {
            bz: Bitwuzla::new(timeout_ms, memory_limit_mb)?,
            memo: FxHashMap::default(),
            float_defs: FxHashMap::default(),
            lits: FxHashMap::default(),
            asserted: Vec::new(),
            incremental,
            timeout_ms,
            memory_limit_mb,
            checks_on_manager: 0,
            log,
        })
    }

    /// Number of constraints currently on the incremental assertion stack.
    pub(crate) fn asserted_len(&self) -> usize {
        self.asserted.len()
    }

    /// A fresh term manager and solver instance in place of this one's (same options and
    /// deadline), forgetting every translation and the assertion stack.
    fn renew(&mut self) -> Result<(), SolverError> {
        let deadline = self.bz.deadline();
        self.bz = Bitwuzla::new(self.timeout_ms, self.memory_limit_mb)?;
        self.bz.set_deadline(deadline);
        self.memo.clear();
        self.float_defs.clear();
        self.lits.clear();
        self.asserted.clear();
        self.checks_on_manager = 0;
        Ok(())
    }

    pub(crate) fn solve(&mut self, ctx: &mut Ctx<'_>, q: &Query<'_>) -> Result<Answer, SolverError> {
        let start = Instant::now();
        let store = ctx.store;
        ctx.stats.core_queries += 1;
        // A query after the deadline is not started: Bitwuzla polls the deadline only while it
        // searches, and its preprocessing alone can take milliseconds.
        if self.bz.past_deadline() {
            ctx.stats.core_unknown += 1;
            ctx.stats.core_deadline += 1;
            return Ok(Answer::Unknown);
        }

        // A query whose float arithmetic Bitwuzla could not bit-blast within memory is not
        // started: its bit-blasting outgrows every budget and cannot be interrupted.
        let roots = || q.pc.iter().chain(q.extra).copied();
        let has_float = roots().any(|c| store.has_float(c));
        if has_float
            && float::float_arithmetic_cost(store, roots(), float::MAX_FLOAT_ARITHMETIC) > float::MAX_FLOAT_ARITHMETIC
        {
            ctx.stats.core_unknown += 1;
            ctx.stats.core_float_too_large += 1;
            return Ok(Answer::Unknown);
        }

        self.checks_on_manager += 1;
        if self.checks_on_manager > CHECKS_PER_MANAGER && self.memo.len() > TRANSLATED_TERMS_PER_MANAGER {
            self.renew()?;
            ctx.stats.core_renewals += 1;
        }

        // 1. assertions
        if self.incremental {
            let keep = self.asserted.iter().zip(q.pc).take_while(|(a, b)| a == b).count();
            let drop = self.asserted.len() - keep;
            self.bz.pop(drop as u64)?;
            self.asserted.truncate(keep);
            ctx.stats.core_pops += drop as u64;
            for &c in &q.pc[keep..] {
                let lit = self.literal(store, c)?;
                self.bz.push();
                self.bz.assert(lit)?;
                self.asserted.push(c);
            }
            ctx.stats.core_pushes += (q.pc.len() - keep) as u64;
        } else {
            self.bz.reset_solver()?;
            for &c in q.pc {
                let lit = self.literal(store, c)?;
                self.bz.assert(lit)?;
            }
        }
        let mut assumptions = Vec::with_capacity(q.extra.len());
        for &c in q.extra {
            assumptions.push(self.literal(store, c)?);
        }

        debug_assert!(!self.incremental || self.bz.levels() == self.asserted.len() as u64);

        // 2. check (logged first: a query that never returns is in the log)
        let all: Vec<TermId> = roots().collect();
        if let Some(log) = self.log.as_mut() {
            log.query(store, &all)?;
        }
        let check_start = Instant::now();
        let result = self.bz.check_sat_assuming(&assumptions)?;
        // Taken after every check: a limit that tripped in a check that still finished must not
        // make the next one give up.
        let memory_hit = self.bz.take_memory_hit();
        let check_us = micros(check_start.elapsed());
        ctx.stats.core_check_time_us += check_us;
        if has_float {
            ctx.stats.core_float_queries += 1;
            ctx.stats.core_float_check_time_us += check_us;
        }

        // 3. answer and model
        let mut renew_after = false;
        let answer = match result {
            BzResult::Unsat => {
                ctx.stats.core_unsat += 1;
                Answer::Unsat
            }
            BzResult::Unknown => {
                ctx.stats.core_unknown += 1;
                if self.bz.past_deadline() {
                    ctx.stats.core_deadline += 1;
                }
                if memory_hit {
                    ctx.stats.core_memory_out += 1;
                    renew_after = true;
                }
                Answer::Unknown
            }
            BzResult::Sat => {
                ctx.stats.core_sat += 1;
                if q.need_model {
                    let vars = ctx.vars.vars_of_all(store, &all);
                    let mut pairs = Vec::with_capacity(vars.len());
                    for v in vars {
                        let t = self.translate(store, store.var(v))?;
                        pairs.push((v, self.bz.value_u64(t)?));
                    }
                    Answer::Sat(Some(Model::from_pairs(pairs)))
                } else {
                    Answer::Sat(None)
                }
            }
        };

        // 4. log
        if let Some(log) = self.log.as_mut() {
            let word = match answer {
                Answer::Sat(_) => "sat",
                Answer::Unsat => "unsat",
                Answer::Unknown => "unknown",
            };
            log.answer(word, check_us)?;
        }
        if renew_after {
            // The instance that outgrew the limit holds that memory until it is deleted.
            self.renew()?;
            ctx.stats.core_renewals += 1;
        }
        ctx.inclusive = start.elapsed();
        ctx.stats.core_time_us += micros(ctx.inclusive);
        Ok(answer)
    }

    /// The Boolean `c = #b1` for a width-1 term `c`.
    fn literal(&mut self, store: &TermStore, c: TermId) -> Result<BzTerm, SolverError> {
        if let Some(&l) = self.lits.get(&c) {
            return Ok(l);
        }
        let t = self.translate(store, c)?;
        let l = self.bz.bv_to_bool(t)?;
        let l = self.float_definitions(store, c, l)?;
        self.lits.insert(c, l);
        Ok(l)
    }

    /// The Bitwuzla bitvector term of `root` (memoised, no recursion).
    fn translate(&mut self, store: &TermStore, root: TermId) -> Result<BzTerm, SolverError> {
        if let Some(&t) = self.memo.get(&root) {
            return Ok(t);
        }
        let mut stack = vec![root];
        while let Some(&n) = stack.last() {
            if self.memo.contains_key(&n) {
                stack.pop();
                continue;
            }
            let d = *store.data(n);
            let before = stack.len();
            for &c in d.children() {
                if !self.memo.contains_key(&c) {
                    stack.push(c);
                }
            }
            if stack.len() != before {
                continue;
            }
            let a: Vec<BzTerm> = d.children().iter().map(|c| self.memo[c]).collect();
            let w = d.width();
            let bz = &mut self.bz;
            let t = match d.op() {
                Op::Const => bz.bv_value_wide(w, d.const_wide().unwrap_or(0))?,
                Op::Var => {
                    let v = d.var().ok_or(SolverError::UnknownTerm(n))?;
                    bz.bv_const(w, store.var_symbol(v))?
                }
                Op::Add => bz.binary(BvBinary::Add, a[0], a[1])?,
                Op::Sub => bz.binary(BvBinary::Sub, a[0], a[1])?,
                Op::Mul => bz.binary(BvBinary::Mul, a[0], a[1])?,
                Op::UDiv => bz.binary(BvBinary::UDiv, a[0], a[1])?,
                Op::SDiv => bz.binary(BvBinary::SDiv, a[0], a[1])?,
                Op::URem => bz.binary(BvBinary::URem, a[0], a[1])?,
                Op::SRem => bz.binary(BvBinary::SRem, a[0], a[1])?,
                Op::Shl => bz.binary(BvBinary::Shl, a[0], a[1])?,
                Op::LShr => bz.binary(BvBinary::LShr, a[0], a[1])?,
                Op::AShr => bz.binary(BvBinary::AShr, a[0], a[1])?,
                Op::And => bz.binary(BvBinary::And, a[0], a[1])?,
                Op::Or => bz.binary(BvBinary::Or, a[0], a[1])?,
                Op::Xor => bz.binary(BvBinary::Xor, a[0], a[1])?,
                Op::Eq => bz.binary(BvBinary::Comp, a[0], a[1])?,
                Op::Not => bz.bvnot(a[0])?,
                Op::Neg => bz.bvneg(a[0])?,
                Op::Ult | Op::Ule | Op::Slt | Op::Sle => {
                    let cmp = match d.op() {
                        Op::Ult => BvCompare::Ult,
                        Op::Ule => BvCompare::Ule,
                        Op::Slt => BvCompare::Slt,
                        _ => BvCompare::Sle,
                    };
                    let b = bz.compare(cmp, a[0], a[1])?;
                    bz.bool_to_bv(b)?
                }
                Op::Extract => {
                    let lo = d.extract_lo();
                    bz.extract(a[0], lo + w - 1, lo)?
                }
                Op::Concat => bz.concat(a[0], a[1])?,
                Op::ZExt => bz.extend(a[0], w, false)?,
                Op::SExt => bz.extend(a[0], w, true)?,
                Op::Ite => {
                    let c = bz.bv_to_bool(a[0])?;
                    bz.ite(c, a[1], a[2])?
                }
                Op::Shadow => return Err(SolverError::ShadowInConstraint(n)),
                _ => {
                    let cw = store.width(d.children()[0]);
                    self.translate_float(n, &d, cw, &a)?
                }
            };
            debug_assert_eq!(t.width(), w, "translation of {n:?} changed its width");
            self.memo.insert(n, t);
            stack.pop();
        }
        Ok(self.memo[&root])
    }
}
