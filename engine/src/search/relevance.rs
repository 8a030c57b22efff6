//! The definitions a patch reads: which of the program's variables decide whether a `change()`
//! runs and what its two sides compute, and the blocks that write them (KATCH's "definition
//! switching", Marinescu and Cadar 2013, computed once per program).
//!
//! A change that every path runs with equal sides diverges only where some earlier code wrote
//! the right values: `pr -d -l1` halves a page length of one line, and the `-l` that wrote it
//! is one of forty options. Distances on the control-flow graph cannot say so (every path
//! passes the change), so the patch-directed searcher also counts, per path, which of these
//! variables it has written ([`ExecutionState::defs_written`](crate::symbolic::state::ExecutionState)),
//! and prefers paths that wrote more of them.
//!
//! The analysis is a backward slice over SSA values and control dependences (post-dominators),
//! within functions, stopping at loads (a load from a global names the global), calls and
//! parameters. It starts at each change's operands and at the branches that decide whether the
//! change runs, in its function and in every function on a call chain to it (direct calls, and
//! calls through a global function pointer that some store points at such a function); only
//! the branches with a side that skips them and goes on count (not those whose every side
//! leads there, nor guards whose other side ends the program). A global it reaches is
//! *relevant*; the program's stores to it (not the C library's) and the calls that pass its
//! address are its definitions, and their values and control dependences are sliced in turn.
//! A store of a function's address counts only if that function reaches a change: `isbase =
//! isbase16` in basenc, not `isbase = isbase64`. A local the compiler keeps in a register is a
//! block parameter (one per join; those that pass each other their values are one variable);
//! the blocks that pass it a value of their own (a constant, a computed value) define it, not
//! the function's entry, whose value is the default. A local that every way to its function's
//! changes writes all the same (the counter of a loop around a change) defines nothing.

use crate::symbolic::program::FuncInfo;
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntityRef, SecondaryMap};
use penumbra_ir::{
    immediate_post_dominators, reaches_any, returns, BinaryOp, Block, Body, Dest, Func, Global, Inst, InstData, Module,
    Value, ValueDef,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// At most this many variables get their own bit; later ones share the last.
const BITS: usize = 64;

/// A variable the patch reads: a global, or a local the compiler keeps in registers (a
/// parameter of a block, where the values its definitions assign meet: gnulib's `decode`
/// flag in basenc's `main`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    Global(Global),
    Local { func: Func, block: Block, param: u32 },
}

/// Per function and block: the bits of the relevant variables the block defines.
#[derive(Debug, Default)]
pub struct Relevance {
    masks: Vec<FxHashMap<Block, u64>>,
    /// The relevant variables, in the order found (bit `i` is `vars[i]`, the last bit shared).
    vars: Vec<Var>,
}

impl Relevance {
    /// The bits of the relevant variables that `block` of `func` writes (0 for most blocks).
    #[inline]
    pub fn mask(&self, func: Func, block: Block) -> u64 {
        match self.masks.get(func.index()) {
            Some(m) if !m.is_empty() => m.get(&block).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// The relevant variables, in bit order.
    pub fn vars(&self) -> &[Var] {
        &self.vars
    }

    /// The analysis of `module`; `funcs[f].internal` marks the C library's functions, whose
    /// stores are not definitions.
    pub fn new(module: &Module, funcs: &[FuncInfo]) -> Self {
        let internal = |f: Func| funcs.get(f.index()).is_some_and(|i| i.internal);
        let reaching = functions_reaching_changes(module);
        let mut slice = Slicer {
            module,
            facts: FxHashMap::default(),
            seen: FxHashSet::default(),
            vars: Vec::new(),
            local_defs: Vec::new(),
            local_links: Vec::new(),
            points: FxHashMap::default(),
            changes: FxHashMap::default(),
        };
        for f in module.funcs.keys() {
            slice.changes_and_calls_to_them(f, &reaching);
        }
        // The definitions of each relevant global, sliced in turn (the list grows as they are;
        // the slice records the definitions of locals as it meets them).
        let mut masks: Vec<FxHashMap<Block, u64>> = vec![FxHashMap::default(); module.funcs.len()];
        let mut next = 0;
        while next < slice.vars.len() {
            if let Var::Global(g) = slice.vars[next] {
                for f in module.funcs.keys().filter(|&f| !internal(f)) {
                    for b in slice.definitions(f, g, &reaching) {
                        *masks[f.index()].entry(b).or_default() |= bit(next);
                    }
                }
            }
            next += 1;
        }
        for (var, defs) in slice.locals_telling_paths_apart() {
            for (f, b) in defs {
                *masks[f.index()].entry(b).or_default() |= bit(var);
            }
        }
        Relevance { masks, vars: slice.vars }
    }
}

fn bit(var: usize) -> u64 {
    1 << var.min(BITS - 1)
}

/// The functions that hold a change or `penumbra_execute`, or call one that does (directly, or
/// through a global pointer some store points at one), and those globals.
struct Reaching {
    funcs: FxHashSet<Func>,
    pointers: FxHashSet<Global>,
}

fn functions_reaching_changes(module: &Module) -> Reaching {
    let mut r = Reaching { funcs: FxHashSet::default(), pointers: FxHashSet::default() };
    // Which functions' addresses each global is assigned.
    let mut pointed: FxHashMap<Global, Vec<Func>> = FxHashMap::default();
    for func in module.funcs.values() {
        let Some(body) = &func.body else { continue };
        for inst in body.insts.values() {
            if let InstData::Store { addr, value } = inst {
                if let (Some(g), ValueDef::FuncAddr(h)) = (global_of(body, *addr), body.value_def(*value)) {
                    pointed.entry(g).or_default().push(h);
                }
            }
        }
    }
    loop {
        let before = (r.funcs.len(), r.pointers.len());
        for (g, hs) in &pointed {
            if hs.iter().any(|h| r.funcs.contains(h)) {
                r.pointers.insert(*g);
            }
        }
        for (f, func) in &module.funcs {
            let Some(body) = &func.body else { continue };
            if r.funcs.contains(&f) {
                continue;
            }
            let reaches = body.insts.values().any(|inst| match inst {
                i if i.is_patch_annotation() => true,
                InstData::Call { func: g, .. } => r.funcs.contains(g),
                InstData::CallIndirect { args } => {
                    loaded_global(body, body.list(*args)[0]).is_some_and(|g| r.pointers.contains(&g))
                }
                _ => false,
            });
            if reaches {
                r.funcs.insert(f);
            }
        }
        if (r.funcs.len(), r.pointers.len()) == before {
            return r;
        }
    }
}

/// The global whose address `v` is, or points into (an offset from it).
fn global_of(body: &Body, v: Value) -> Option<Global> {
    let mut v = v;
    for _ in 0..8 {
        match body.value_def(v) {
            ValueDef::GlobalAddr(g) => return Some(g),
            ValueDef::Result(inst) => match &body.insts[inst] {
                InstData::Binary { op: BinaryOp::Add, args: [a, b] } => {
                    v = if matches!(body.value_def(*b), ValueDef::Const(_)) { *a } else { *b };
                }
                InstData::Cast { arg, .. } => v = *arg,
                _ => return None,
            },
            _ => return None,
        }
    }
    None
}

/// The global `v` was loaded from, if it is a load of one.
fn loaded_global(body: &Body, v: Value) -> Option<Global> {
    match body.value_def(v) {
        ValueDef::Result(inst) => match body.insts[inst] {
            InstData::Load { addr } => global_of(body, addr),
            _ => None,
        },
        _ => None,
    }
}

/// The backward slice's state: what was visited and the relevant variables found.
struct Slicer<'m> {
    module: &'m Module,
    /// Per function: its post-dominators and control dependences, computed when first needed.
    facts: FxHashMap<Func, Facts>,
    seen: FxHashSet<(Func, Value)>,
    vars: Vec<Var>,
    /// The blocks that define a relevant local: function, block, index in `vars`.
    local_defs: Vec<(Func, Block, usize)>,
    /// Block parameters one passes to the other: one source variable.
    local_links: Vec<(Var, Var)>,
    /// Per function: its blocks that hold a change or call a function that reaches one.
    points: FxHashMap<Func, Vec<Block>>,
    /// Per function: its blocks that hold a change or an execute block.
    changes: FxHashMap<Func, Vec<Block>>,
}

impl Slicer<'_> {
    fn var(&mut self, v: Var) -> usize {
        match self.vars.iter().position(|&x| x == v) {
            Some(i) => i,
            None => {
                self.vars.push(v);
                self.vars.len() - 1
            }
        }
    }

    fn global(&mut self, g: Global) {
        self.var(Var::Global(g));
    }

    /// Slices the changes of `f` (their operands; an execute block's region) and the branches
    /// that decide whether they, or its calls of functions that reach a change, run.
    fn changes_and_calls_to_them(&mut self, f: Func, reaching: &Reaching) {
        let Some(body) = &self.module.funcs[f].body else { return };
        let (mut points, mut changes) = (Vec::new(), Vec::new());
        for &b in body.layout.blocks() {
            let (mut point, mut change) = (false, false);
            for &inst in body.layout.block_insts(b) {
                match &body.insts[inst] {
                    InstData::Change { args } => {
                        change = true;
                        for &v in args {
                            self.value(f, v);
                        }
                    }
                    InstData::Execute { .. } => {
                        change = true;
                        self.execute_region(f, b);
                    }
                    InstData::Call { func: g, .. } => point |= reaching.funcs.contains(g),
                    InstData::CallIndirect { args } => {
                        let callee = body.list(*args)[0];
                        if let Some(g) = loaded_global(body, callee).filter(|g| reaching.pointers.contains(g)) {
                            point = true;
                            self.global(g);
                        }
                    }
                    _ => {}
                }
            }
            if change {
                changes.push(b);
            }
            if point || change {
                points.push(b);
            }
        }
        if !points.is_empty() {
            self.control(f, &points);
            self.points.insert(f, points);
        }
        if !changes.is_empty() {
            self.changes.insert(f, changes);
        }
    }

    /// The relevant locals' definitions: per source variable (its block parameters joined
    /// where one passes its value to another; the index in `vars` of the first), the blocks
    /// that define it. A value set at the function's entry is the variable's default, not a
    /// choice, and does not count. Nor does a variable that every path to the change writes
    /// all the same, so that it tells no path apart: one carried around a loop that holds a
    /// change (seq_fast's `while (...) { ...; *z++ = change ('\\n', *separator); }`: every turn
    /// writes `z`), or one that every way from the function's entry to its changes (and calls
    /// that reach one) writes. Counted, seq_fast's registers outweighed the variables that do
    /// tell paths apart (`separator`, which `-s` writes), the more so the sooner a path reached
    /// the change.
    fn locals_telling_paths_apart(&self) -> Vec<(usize, Vec<(Func, Block)>)> {
        let (web, joins) = self.local_webs();
        let mut by_var: Vec<(usize, Vec<(Func, Block)>)> = Vec::new();
        for &(f, b, var) in &self.local_defs {
            let body = self.module.funcs[f].body.as_ref().expect("a local's function has a body");
            if Some(b) == body.layout.entry_block() {
                continue;
            }
            match by_var.iter_mut().find(|(v, _)| *v == web[var]) {
                Some((_, defs)) => defs.push((f, b)),
                None => by_var.push((web[var], vec![(f, b)])),
            }
        }
        by_var.retain(|(var, defs)| {
            let Var::Local { func, .. } = self.vars[*var] else { return true };
            let (Some(body), Some(points)) = (&self.module.funcs[func].body, self.points.get(&func)) else {
                return true;
            };
            let changes = self.changes.get(&func).map_or(&[][..], Vec::as_slice);
            let around_a_change = joins[*var].iter().any(|&join| changes.iter().any(|&c| on_a_cycle(body, join, c)));
            let written = |b: Block| defs.contains(&(func, b));
            !around_a_change
                && body
                    .layout
                    .entry_block()
                    .is_some_and(|entry| reaches_any(body, entry, written, |b| points.contains(&b)))
        });
        by_var
    }

    /// Per index in `vars`: the first index of its source variable (the block parameters that
    /// pass each other their values, joined; a global is its own); and per first index, the
    /// blocks of all its parameters (those that only pass a value on included).
    fn local_webs(&self) -> (Vec<usize>, Vec<Vec<Block>>) {
        fn find(root: &mut [usize], mut v: usize) -> usize {
            while root[v] != v {
                root[v] = root[root[v]];
                v = root[v];
            }
            v
        }
        // Nodes: the variables, then the parameters that only pass a value on.
        let mut nodes: Vec<Var> = self.vars.clone();
        let mut index: FxHashMap<Var, usize> = nodes.iter().enumerate().map(|(i, &v)| (v, i)).collect();
        let mut root: Vec<usize> = (0..nodes.len()).collect();
        for &(a, b) in &self.local_links {
            let [a, b] = [a, b].map(|v| {
                *index.entry(v).or_insert_with(|| {
                    nodes.push(v);
                    root.push(root.len());
                    root.len() - 1
                })
            });
            let (ra, rb) = (find(&mut root, a), find(&mut root, b));
            root[ra.max(rb)] = ra.min(rb);
        }
        // A root is its set's smallest node, and every set with a variable has one below
        // `vars.len()`: its first variable.
        let web: Vec<usize> = (0..self.vars.len()).map(|v| find(&mut root, v)).collect();
        let mut joins = vec![Vec::new(); self.vars.len()];
        for (n, var) in nodes.iter().enumerate() {
            let r = find(&mut root, n);
            if let (Var::Local { block, .. }, true) = (var, r < self.vars.len()) {
                joins[r].push(*block);
            }
        }
        (web, joins)
    }

    /// The blocks of `f` that define the global `g` (a store to it, a call passing its
    /// address), each sliced: the value stored and the branches that decide it.
    fn definitions(&mut self, f: Func, g: Global, reaching: &Reaching) -> Vec<Block> {
        let Some(body) = &self.module.funcs[f].body else { return Vec::new() };
        let mut blocks = Vec::new();
        for &b in body.layout.blocks() {
            for &inst in body.layout.block_insts(b) {
                let stored = match &body.insts[inst] {
                    InstData::Store { addr, value } if global_of(body, *addr) == Some(g) => {
                        match body.value_def(*value) {
                            ValueDef::FuncAddr(h) if !reaching.funcs.contains(&h) => continue,
                            _ => Some(*value),
                        }
                    }
                    InstData::Call { args, .. } | InstData::CallIndirect { args }
                        if body.list(*args).iter().any(|&a| global_of(body, a) == Some(g)) =>
                    {
                        None
                    }
                    _ => continue,
                };
                blocks.push(b);
                if let Some(v) = stored {
                    self.value(f, v);
                }
                self.control(f, &[b]);
            }
        }
        blocks
    }

    /// Slices `v` of `f`: the variables its computation reads.
    fn value(&mut self, f: Func, v: Value) {
        let Some(body) = &self.module.funcs[f].body else { return };
        let mut work = vec![v];
        while let Some(v) = work.pop() {
            if !self.seen.insert((f, v)) {
                continue;
            }
            match body.value_def(v) {
                ValueDef::Result(inst) => match &body.insts[inst] {
                    InstData::Load { addr } => {
                        if let Some(g) = global_of(body, *addr) {
                            self.global(g);
                        }
                    }
                    InstData::Call { .. } | InstData::CallIndirect { .. } | InstData::Alloca { .. } => {}
                    _ => work.extend(body.inst_args(inst)),
                },
                ValueDef::Param(block, i) if Some(block) != body.layout.entry_block() => {
                    // A block parameter: what each predecessor passes, and the branches that
                    // choose the predecessor. A predecessor that passes a value of its own
                    // (not another parameter's) defines the local.
                    for (pred, term) in predecessors(body, block) {
                        for d in body.successors(term) {
                            if body.dests[d].block != block {
                                continue;
                            }
                            let Some(&arg) = body.dest_args(d).get(i as usize) else { continue };
                            match body.value_def(arg) {
                                ValueDef::Param(from, j) if Some(from) != body.layout.entry_block() => {
                                    // The same source variable, met at another join.
                                    let here = Var::Local { func: f, block, param: i };
                                    self.local_links.push((here, Var::Local { func: f, block: from, param: j }));
                                }
                                ValueDef::Param(..) => {}
                                _ => {
                                    let var = self.var(Var::Local { func: f, block, param: i });
                                    self.local_defs.push((f, pred, var));
                                }
                            }
                            work.push(arg);
                        }
                        if let Some(c) = branch_condition(body, term) {
                            work.push(c);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Slices what an execute block that starts in `block` computes: every value and stored
    /// value of the blocks between it and where its sides meet (its immediate post-dominator;
    /// all that follows when they never meet, as for a `main` merged whole).
    fn execute_region(&mut self, f: Func, block: Block) {
        let Some(body) = &self.module.funcs[f].body else { return };
        let join = self.facts.entry(f).or_insert_with(|| Facts::of(body)).ipdom[block].expand();
        let mut seen = vec![block];
        let mut work = vec![block];
        let mut values = Vec::new();
        while let Some(b) = work.pop() {
            for &inst in body.layout.block_insts(b) {
                match body.insts[inst] {
                    InstData::Store { value, .. } => values.push(value),
                    _ => values.extend(body.inst_result(inst)),
                }
            }
            let Some(t) = body.layout.terminator(b) else { continue };
            values.extend(branch_condition(body, t));
            for d in body.successors(t) {
                let next = body.dests[d].block;
                if Some(next) != join && !seen.contains(&next) {
                    seen.push(next);
                    work.push(next);
                } else if Some(next) == join {
                    values.extend_from_slice(body.dest_args(d));
                }
            }
        }
        for v in values {
            self.value(f, v);
        }
    }

    /// Slices the branches that decide whether one of `points` (blocks of `f`) runs: their
    /// control dependences, transitively, with a side that goes on in the function without
    /// reaching any of them. A branch whose every side leads to a point (`if (parallel_files)
    /// print_files (n, names); else print_files (1, name);`) decides how, not whether; one whose
    /// other side ends the program (`if (parallel_files && explicit_columns) error (EXIT_FAILURE,
    /// ...)`) guards against its globals' values, and writing them leads away. Both are left
    /// out.
    fn control(&mut self, f: Func, points: &[Block]) {
        let Some(body) = &self.module.funcs[f].body else { return };
        let cds = &self.facts.entry(f).or_insert_with(|| Facts::of(body)).cds;
        let mut seen: FxHashSet<Block> = FxHashSet::default();
        let mut work = points.to_vec();
        let mut conds = Vec::new();
        let returning = body.layout.blocks().iter().any(|&b| returns(body, b));
        while let Some(b) = work.pop() {
            for &a in &cds[b] {
                if seen.insert(a) {
                    work.push(a);
                    let Some(t) = body.layout.terminator(a) else { continue };
                    // (In a function that never returns, as a `main` ending in `exit`, every
                    // side that misses the points counts.)
                    let skips = |d: &Dest| {
                        let s = body.dests[*d].block;
                        !reaches_any(body, s, |_| false, |b| points.contains(&b))
                            && (!returning || reaches_any(body, s, |_| false, |b| returns(body, b)))
                    };
                    if let Some(c) = branch_condition(body, t).filter(|_| body.successors(t).iter().any(skips)) {
                        conds.push(c);
                    }
                }
            }
        }
        for c in conds {
            self.value(f, c);
        }
    }
}

/// Whether blocks `a` and `b` lie on one cycle (`a` reaches `b`, and `b` comes back to `a`).
fn on_a_cycle(body: &Body, a: Block, b: Block) -> bool {
    let Some(term) = body.layout.terminator(b) else { return false };
    reaches_any(body, a, |_| false, |x| x == b)
        && body.successors(term).iter().any(|&d| reaches_any(body, body.dests[d].block, |_| false, |x| x == a))
}

/// The condition a two- or many-way branch tests.
fn branch_condition(body: &Body, term: Inst) -> Option<Value> {
    match body.insts[term] {
        InstData::Brif { cond, .. } => Some(cond),
        InstData::Switch { arg, .. } => Some(arg),
        _ => None,
    }
}

/// The blocks that branch to `block`, with their terminators.
fn predecessors(body: &Body, block: Block) -> Vec<(Block, Inst)> {
    let terms = body.layout.blocks().iter().filter_map(|&b| Some((b, body.layout.terminator(b)?)));
    terms.filter(|&(_, t)| body.successors(t).iter().any(|&d| body.dests[d].block == block)).collect()
}

/// A function's immediate post-dominators and, per block, the blocks it is control dependent
/// on.
struct Facts {
    ipdom: SecondaryMap<Block, PackedOption<Block>>,
    cds: SecondaryMap<Block, Vec<Block>>,
}

impl Facts {
    fn of(body: &Body) -> Self {
        let ipdom = immediate_post_dominators(body);
        let cds = control_dependences(body, &ipdom);
        Facts { ipdom, cds }
    }
}

/// Per block, the blocks it is control dependent on (Ferrante, Ottenstein and Warren): for an
/// edge `a -> s` where `s` does not post-dominate `a`, the blocks from `s` up the
/// post-dominator tree to `a`'s immediate post-dominator (exclusive) depend on `a`.
fn control_dependences(
    body: &Body,
    ipdom: &SecondaryMap<Block, PackedOption<Block>>,
) -> SecondaryMap<Block, Vec<Block>> {
    let mut cds: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
    for &a in body.layout.blocks() {
        let Some(t) = body.layout.terminator(a) else { continue };
        let succs = body.successors(t);
        if succs.len() < 2 {
            continue;
        }
        let stop = ipdom[a].expand();
        for d in succs {
            let mut s = Some(body.dests[d].block);
            let mut steps = 0;
            while let Some(b) = s {
                if Some(b) == stop || steps > body.blocks.len() {
                    break;
                }
                if !cds[b].contains(&a) {
                    cds[b].push(a);
                }
                s = ipdom[b].expand();
                steps += 1;
            }
        }
    }
    cds
}
