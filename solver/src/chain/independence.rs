//! Constraint independence (KLEE's `IndependentSolver`): split a query into
//! components that share no variable (union-find over variables) and solve
//! each on its own, so the solver below sees only constraints that matter
//! together.
//!
//! - A component holding extra constraints (the branch literals) is always
//!   solved; those go first, so an unsat one ends the query early.
//! - A component of path-condition constraints only is skipped when the
//!   same constraint set was found satisfiable before (a bounded "known sat"
//!   map, filled from every sat component) and, if the query needs a model,
//!   a model of that component was remembered with it: the unrelated part
//!   of the model comes from an earlier query. Otherwise the component is
//!   solved too, so slicing never changes an answer — even for a path
//!   condition that is itself unsatisfiable.
//! - Models of the components are restricted to their own variables and
//!   merged; the variable sets are disjoint, so the merge is a model of the
//!   whole query.
//!
//! Components are numbered by first appearance and constraints keep their
//! order, so sub-queries (and the incremental core's prefixes) are
//! deterministic.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::partition::Partition;
use super::{Layer, Next};
use crate::error::SolverError;
use crate::model::Model;
use crate::query::{Answer, Ctx, Query};
use crate::term::{TermId, VarId};

pub(crate) struct Independence {
    /// Satisfiable component sets, with a model of the component when one was computed.
    known_sat: FxHashMap<Arc<[TermId]>, Option<Model>>,
    order: VecDeque<Arc<[TermId]>>,
    capacity: usize,
    /// Scratch space of [`Independence::components`], kept to avoid allocating per query
    /// (this layer sees every query).
    scratch: Scratch,
    /// The partition of the last path condition, for queries from a base model.
    partition: Partition,
}

#[derive(Default)]
struct Scratch {
    var_sets: Vec<Arc<[VarId]>>,
    index: FxHashMap<VarId, usize>,
    parent: Vec<usize>,
    by_root: FxHashMap<usize, usize>,
}

struct Component {
    pc: Vec<TermId>,
    extra: Vec<TermId>,
    vars: Vec<VarId>,
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn sorted_key(a: &[TermId], b: &[TermId]) -> Arc<[TermId]> {
    let mut k: Vec<TermId> = a.iter().chain(b).copied().collect();
    k.sort_unstable();
    k.dedup();
    k.into()
}

impl Independence {
    pub(crate) fn new(capacity: usize) -> Self {
        Independence {
            known_sat: FxHashMap::default(),
            order: VecDeque::new(),
            capacity: capacity.max(1),
            scratch: Scratch::default(),
            partition: Partition::default(),
        }
    }

    /// Records a sat component (its model restricted to its own variables, if any).
    fn remember_sat(&mut self, key: Arc<[TermId]>, model: Option<Model>) {
        if let Some(slot) = self.known_sat.get_mut(&key) {
            if model.is_some() {
                *slot = model;
            }
            return;
        }
        if self.order.len() >= self.capacity {
            if let Some(old) = self.order.pop_front() {
                self.known_sat.remove(&old);
            }
        }
        self.order.push_back(key.clone());
        self.known_sat.insert(key, model);
    }

    /// Splits the query into components, in order of first appearance.
    fn components(&mut self, ctx: &mut Ctx<'_>, q: &Query<'_>) -> Vec<Component> {
        let Scratch { var_sets, index, parent, by_root } = &mut self.scratch;
        var_sets.clear();
        index.clear();
        parent.clear();
        by_root.clear();
        let all = || q.pc.iter().map(|&c| (c, false)).chain(q.extra.iter().map(|&c| (c, true)));
        var_sets.extend(all().map(|(c, _)| ctx.vars.vars(ctx.store, c)));
        // union-find over dense variable indices
        for vs in var_sets.iter() {
            let mut first: Option<usize> = None;
            for &v in vs.iter() {
                let i = *index.entry(v).or_insert_with(|| {
                    parent.push(parent.len());
                    parent.len() - 1
                });
                match first {
                    None => first = Some(i),
                    Some(f) => {
                        let (rf, ri) = (find(parent, f), find(parent, i));
                        if rf != ri {
                            parent[ri] = rf;
                        }
                    }
                }
            }
        }
        // group constraints by the root of their first variable; a constraint
        // without variables is its own component
        let mut comps: Vec<Component> = Vec::new();
        let new_component = |comps: &mut Vec<Component>| {
            comps.push(Component { pc: Vec::new(), extra: Vec::new(), vars: Vec::new() });
            comps.len() - 1
        };
        for ((c, is_extra), vs) in all().zip(var_sets.iter()) {
            let slot = match vs.first() {
                Some(v) => {
                    let root = find(parent, index[v]);
                    match by_root.get(&root) {
                        Some(&slot) => slot,
                        None => {
                            let slot = new_component(&mut comps);
                            by_root.insert(root, slot);
                            slot
                        }
                    }
                }
                None => new_component(&mut comps),
            };
            let comp = &mut comps[slot];
            if is_extra {
                comp.extra.push(c);
            } else {
                comp.pc.push(c);
            }
            comp.vars.extend_from_slice(vs);
        }
        for comp in &mut comps {
            comp.vars.sort_unstable();
            comp.vars.dedup();
        }
        comps
    }
}

impl Independence {
    /// The constraints connected to the query's extras (through shared variables, transitively)
    /// and their variables: `(pc part, vars)`.
    fn relevant(&mut self, ctx: &mut Ctx<'_>, q: &Query<'_>) -> (Vec<TermId>, Vec<VarId>) {
        let p = &mut self.partition;
        for &c in &q.pc[p.covered(q.pc)..] {
            p.push_pc(c, &ctx.vars.vars(ctx.store, c));
        }
        let before = p.slots();
        let slots: Vec<u32> = q.extra.iter().map(|&c| p.push_extra(&ctx.vars.vars(ctx.store, c))).collect();
        let connected = p.connected(&slots);
        p.undo_extras(before);
        connected
    }

    /// A query with a model of its path condition in hand: only the part connected to the
    /// extras is solved (the rest is satisfied by `base`, whose values it keeps), as KLEE's
    /// independent solver does for validity queries.
    fn solve_from_base(
        &mut self,
        ctx: &mut Ctx<'_>,
        q: &Query<'_>,
        base: &Model,
        next: &mut Next<'_>,
    ) -> Result<Answer, SolverError> {
        let start = Instant::now();
        ctx.stats.independence_queries += 1;
        let (pc, vars) = self.relevant(ctx, q);
        let extra = q.extra;
        if pc.len() < q.pc.len() {
            ctx.stats.independence_hits += 1;
            ctx.stats.independence_dropped += (q.pc.len() - pc.len()) as u64;
        }
        let answer = if extra.is_empty() {
            Answer::Sat(q.need_model.then(|| base.clone()))
        } else {
            ctx.stats.independence_subqueries += 1;
            let sub = Query::new(&pc, extra, q.need_model);
            match next.solve(ctx, &sub)? {
                Answer::Sat(Some(m)) => {
                    let mut all = base.clone();
                    // A cached model may list other variables: keep only the solved ones.
                    all.merge(&m.restrict(&vars));
                    Answer::Sat(Some(all))
                }
                a => a,
            }
        };
        ctx.stats.independence_time_us += ctx.layer_done(start, next.downstream);
        Ok(answer)
    }
}

impl Layer for Independence {
    fn solve(&mut self, ctx: &mut Ctx<'_>, q: &Query<'_>, next: &mut Next<'_>) -> Result<Answer, SolverError> {
        if let Some(base) = q.base {
            return self.solve_from_base(ctx, q, base, next);
        }
        let start = Instant::now();
        ctx.stats.independence_queries += 1;
        let mut comps = self.components(ctx, q);
        let answer = if comps.len() <= 1 {
            let a = next.solve(ctx, q)?;
            if let Answer::Sat(m) = &a {
                let vars = comps.first().map_or(&[][..], |c| &c.vars[..]);
                let restricted = m.as_ref().map(|m| m.restrict(vars));
                self.remember_sat(q.key().clone(), restricted);
            }
            a
        } else {
            ctx.stats.independence_hits += 1;
            // components with extras first (most likely unsat), stable otherwise
            comps.sort_by_key(|c| c.extra.is_empty());
            let mut model = q.need_model.then(Model::new);
            let mut unknown = false;
            let mut result = None;
            for comp in &comps {
                let key = sorted_key(&comp.pc, &comp.extra);
                if comp.extra.is_empty() {
                    let reuse = match (self.known_sat.get(&key), model.as_mut()) {
                        (Some(_), None) => true,
                        (Some(Some(known)), Some(all)) => {
                            all.merge(known);
                            true
                        }
                        _ => false,
                    };
                    if reuse {
                        ctx.stats.independence_dropped += comp.pc.len() as u64;
                        continue;
                    }
                }
                ctx.stats.independence_subqueries += 1;
                let sub = Query::new(&comp.pc, &comp.extra, q.need_model);
                match next.solve(ctx, &sub)? {
                    Answer::Unsat => {
                        result = Some(Answer::Unsat);
                        break;
                    }
                    Answer::Unknown => unknown = true,
                    Answer::Sat(m) => {
                        let m = m.map(|m| m.restrict(&comp.vars));
                        if let (Some(all), Some(m)) = (model.as_mut(), m.as_ref()) {
                            all.merge(m);
                        }
                        self.remember_sat(key, m);
                    }
                }
            }
            match result {
                Some(a) => a,
                None if unknown => Answer::Unknown,
                None => Answer::Sat(model),
            }
        };
        ctx.stats.independence_time_us += ctx.layer_done(start, next.downstream);
        Ok(answer)
    }
}
