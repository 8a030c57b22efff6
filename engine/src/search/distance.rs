//! Distances to targets on the interprocedural control-flow graph: how many instructions a
//! state must still execute, at least, before it enters a target block (KLEE's
//! min-distance-to-uncovered, used for both covering-new and patch-directed search).
//!
//! A block's distance is the least of: 0 when it is a target; `k + d(callee entry)` for a call
//! at index `k` (a call through a pointer may reach any function whose address the program
//! takes); `len + d(successor)`. Per function that is a shortest-path
//! problem on the reversed control-flow graph (Dijkstra), and across functions a fixpoint over
//! the entry distances, recomputed for the callers of a function whose entry distance fell. A
//! state's distance adds, frame by frame down its stack, the distance to return from the frames
//! above: it may reach a target after its callee returns. Distances are capped at [`FAR`]
//! (unreachable), as KLEE caps them at 10,000.

use crate::symbolic::state::ExecutionState;
use cranelift_entity::{EntityRef, SecondaryMap};
use penumbra_ir::{Block, Body, Func, GlobalInit, InstData, Module, RelocTarget, ValueDef};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The distance of what cannot reach a target (and the most any distance counts).
pub const FAR: u32 = 10_000;

/// What does not change during a run: who calls whom, the blocks' predecessors and the
/// distances to return.
#[derive(Debug)]
pub struct CallGraph {
    /// Per function: the functions that call it directly, or through a pointer when its
    /// address is taken.
    callers: Vec<Vec<Func>>,
    /// Per function: its address is taken and it has a body (a candidate of every call
    /// through a pointer).
    address_taken: Vec<bool>,
    /// Per function and block: its predecessors.
    preds: Vec<SecondaryMap<Block, Vec<Block>>>,
    /// Per function and block: instructions to a return of the function (calls count one).
    to_return: Vec<SecondaryMap<Block, u32>>,
}

/// Distances to one set of target blocks.
#[derive(Debug, Default)]
pub struct Distances {
    /// Per function: from its entry.
    entry: Vec<u32>,
    /// Per function and block: from the block's first instruction.
    block: Vec<SecondaryMap<Block, u32>>,
    /// Through a call by pointer: the least entry distance of the address-taken functions.
    indirect: u32,
}

impl Distances {
    /// From the entry of `f` ([`FAR`] when it cannot reach a target).
    pub fn entry(&self, f: Func) -> u32 {
        self.entry.get(f.index()).copied().unwrap_or(FAR)
    }
}

fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(FAR)
}

impl CallGraph {
    pub fn new(module: &Module) -> Self {
        let n = module.funcs.len();
        let mut address_taken = vec![false; n];
        for g in module.globals.values() {
            if let GlobalInit::Bytes { relocs, .. } = &g.init {
                for r in relocs {
                    if let RelocTarget::Func(f) = r.target {
                        address_taken[f.index()] = true;
                    }
                }
            }
        }
        for f in module.funcs.values() {
            for v in f.body.iter().flat_map(|b| b.values.values()) {
                if let ValueDef::FuncAddr(g) = v.def {
                    address_taken[g.index()] = true;
                }
            }
        }
        for (f, func) in &module.funcs {
            address_taken[f.index()] &= func.body.is_some();
        }
        let candidates: Vec<Func> = module.funcs.keys().filter(|f| address_taken[f.index()]).collect();
        let mut callers: Vec<Vec<Func>> = vec![Vec::new(); n];
        let mut preds = Vec::with_capacity(n);
        let mut to_return = Vec::with_capacity(n);
        for (f, func) in &module.funcs {
            let mut p: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
            if let Some(body) = &func.body {
                for &b in body.layout.blocks() {
                    for &inst in body.layout.block_insts(b) {
                        match &body.insts[inst] {
                            InstData::Call { func: g, .. } => callers[g.index()].push(f),
                            InstData::CallIndirect { .. } => {
                                for &g in &candidates {
                                    callers[g.index()].push(f);
                                }
                            }
                            _ => {}
                        }
                    }
                    if let Some(t) = body.layout.terminator(b) {
                        for d in body.successors(t) {
                            p[body.dests[d].block].push(b);
                        }
                    }
                }
            }
            let ret = match &func.body {
                Some(body) => shortest(body, &p, |b| {
                    let insts = body.layout.block_insts(b);
                    insts.iter().position(|&i| matches!(body.insts[i], InstData::Return { .. })).map(|k| k as u32)
                }),
                None => SecondaryMap::with_default(FAR),
            };
            preds.push(p);
            to_return.push(ret);
        }
        for c in &mut callers {
            c.sort();
            c.dedup();
        }
        CallGraph { callers, address_taken, preds, to_return }
    }

    /// The distances to the blocks `target` says are targets.
    pub fn distances(&self, module: &Module, target: impl Fn(Func, Block) -> bool) -> Distances {
        let n = module.funcs.len();
        let mut d = Distances {
            entry: vec![FAR; n],
            block: (0..n).map(|_| SecondaryMap::with_default(FAR)).collect(),
            indirect: FAR,
        };
        // Every function once, then the callers of those whose entry distance fell.
        let mut queued = vec![true; n];
        let mut work: Vec<Func> = module.funcs.keys().rev().collect();
        while let Some(f) = work.pop() {
            queued[f.index()] = false;
            let Some(body) = &module.funcs[f].body else { continue };
            let blocks = shortest(body, &self.preds[f.index()], |b| {
                if target(f, b) {
                    return Some(0);
                }
                self.first_call(body, b, 0, &d).filter(|&k| k < FAR)
            });
            let entry = body.layout.entry_block().map_or(FAR, |e| blocks[e]);
            d.block[f.index()] = blocks;
            if entry < d.entry[f.index()] {
                d.entry[f.index()] = entry;
                if self.address_taken[f.index()] {
                    d.indirect = d.indirect.min(entry);
                }
                for &c in &self.callers[f.index()] {
                    if !queued[c.index()] {
                        queued[c.index()] = true;
                        work.push(c);
                    }
                }
            }
        }
        d
    }

    /// The least distance through a call in `b` at or after instruction `from` (`k + d(callee)`
    /// with `k` counted from `from`).
    fn first_call(&self, body: &Body, b: Block, from: usize, d: &Distances) -> Option<u32> {
        let insts = body.layout.block_insts(b);
        let mut best: Option<u32> = None;
        for (k, &inst) in insts.iter().enumerate().skip(from) {
            let callee = match &body.insts[inst] {
                InstData::Call { func, .. } => d.entry[func.index()],
                InstData::CallIndirect { .. } => d.indirect,
                _ => continue,
            };
            let here = add((k - from) as u32, callee);
            best = Some(best.map_or(here, |b| b.min(here)));
        }
        best
    }

    /// A state's distance to the targets of `d`: from its position in the top frame, or after
    /// returning to a caller (the caller resumes after its call).
    pub fn state_distance(&self, module: &Module, d: &Distances, st: &ExecutionState) -> u32 {
        let mut best = FAR;
        let mut unwind = 0;
        for (depth, frame) in st.stack.iter().rev().enumerate() {
            let Some(body) = &module.funcs[frame.func].body else { break };
            let idx = frame.idx as usize + usize::from(depth > 0);
            let here = self.position_distance(body, d, frame.func, frame.block, idx);
            best = best.min(add(unwind, here));
            let ret = self.position_return(body, frame.func, frame.block, idx);
            unwind = add(unwind, ret);
            if unwind >= best {
                break;
            }
        }
        best
    }

    /// From instruction `idx` of `block`: a call on the rest of the block, or its successors.
    fn position_distance(&self, body: &Body, d: &Distances, f: Func, block: Block, idx: usize) -> u32 {
        if idx == 0 {
            return d.block[f.index()][block];
        }
        let insts = body.layout.block_insts(block);
        let rest = insts.len().saturating_sub(idx) as u32;
        let through_call = self.first_call(body, block, idx, d).unwrap_or(FAR);
        let after = body.layout.terminator(block).map_or(FAR, |t| {
            body.successors(t).iter().map(|&s| d.block[f.index()][body.dests[s].block]).min().unwrap_or(FAR)
        });
        through_call.min(add(rest, after))
    }

    fn position_return(&self, body: &Body, f: Func, block: Block, idx: usize) -> u32 {
        if idx == 0 {
            return self.to_return[f.index()][block];
        }
        let insts = body.layout.block_insts(block);
        if let Some(k) = insts.iter().skip(idx).position(|&i| matches!(body.insts[i], InstData::Return { .. })) {
            return k as u32;
        }
        let rest = insts.len().saturating_sub(idx) as u32;
        let after = body.layout.terminator(block).map_or(FAR, |t| {
            body.successors(t).iter().map(|&s| self.to_return[f.index()][body.dests[s].block]).min().unwrap_or(FAR)
        });
        add(rest, after)
    }
}

/// Shortest distances from every block of `body` to a block where `local` gives a distance
/// (the distance within that block), a block's instructions counting on the way through it.
fn shortest(
    body: &Body,
    preds: &SecondaryMap<Block, Vec<Block>>,
    local: impl Fn(Block) -> Option<u32>,
) -> SecondaryMap<Block, u32> {
    let mut dist: SecondaryMap<Block, u32> = SecondaryMap::with_default(FAR);
    let mut heap = BinaryHeap::new();
    for &b in body.layout.blocks() {
        if let Some(l) = local(b) {
            let l = l.min(FAR);
            dist[b] = l;
            heap.push(Reverse((l, b.as_u32())));
        }
    }
    while let Some(Reverse((d, b))) = heap.pop() {
        let b = Block::new(b as usize);
        if d > dist[b] {
            continue;
        }
        for &p in &preds[b] {
            let via = add(d, body.layout.block_insts(p).len() as u32);
            if via < dist[p] {
                dist[p] = via;
                heap.push(Reverse((via, p.as_u32())));
            }
        }
    }
    dist
}
