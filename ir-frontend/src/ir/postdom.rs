//! Immediate post-dominators of a function's blocks: where the paths from a block meet again
//! before leaving the function. Shadow execution needs them to know where a
//! `penumbra_execute(OLD|NEW)` block ends and both versions run on together.
//!
//! Cooper, Harvey and Kennedy's iterative algorithm ("A Simple, Fast Dominance Algorithm") on
//! the reversed control-flow graph, with a virtual exit that the function's ends flow into:
//! every block without successors (return, unreachable, unsupported) for
//! [`immediate_post_dominators`], only its returns for [`returning_post_dominators`]. Blocks
//! that cannot reach the exit (infinite loops; for the latter also the code that ends the
//! program) have no post-dominator.

use super::{Block, Body, InstData, IntCC, Value, ValueDef, Version};
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntityRef, SecondaryMap};

/// The immediate post-dominator of every block (`None` for the function's exit and for blocks
/// that never reach it).
pub fn immediate_post_dominators(body: &Body) -> SecondaryMap<Block, PackedOption<Block>> {
    post_dominators_to(body, |_| true).idom
}

/// The immediate post-dominator of every block over the paths that return from the function:
/// where an execute block's sides meet again. A path that ends the program (a block ending in
/// `unreachable` after `exit`, an error or an unsupported construct) leaves the function
/// nowhere, so it does not keep the sides from meeting: a function unify keeps whole for each
/// version (`change(set_fields_old(s), set_fields_new(s))`, inlined), whose sides stop with a
/// usage error on some inputs, still joins where both return. From a block no path of which
/// returns (most of a `main` that ends in `exit`), over every path, as
/// [`immediate_post_dominators`]: its `change`s still meet where their sides do. `None` for the
/// return blocks and where the paths meet only at the function's end.
pub fn returning_post_dominators(body: &Body) -> SecondaryMap<Block, PackedOption<Block>> {
    let PostDominators { idom: mut returning, reaches_exit: returns_somewhere } =
        post_dominators_to(body, |b| returns(body, b));
    let blocks = body.layout.blocks();
    // Most functions return from every block: no second analysis for them.
    if blocks.iter().all(|&b| returns_somewhere[b]) {
        return returning;
    }
    let every_end = immediate_post_dominators(body);
    for &b in blocks {
        if !returns_somewhere[b] {
            returning[b] = every_end[b];
        }
    }
    returning
}

/// Post-dominators towards a virtual exit.
struct PostDominators {
    /// The immediate post-dominator of each block (`None` where it is the exit itself, and for
    /// blocks that do not reach the exit).
    idom: SecondaryMap<Block, PackedOption<Block>>,
    /// Whether a path from the block reaches the exit.
    reaches_exit: SecondaryMap<Block, bool>,
}

/// Immediate post-dominators with a virtual exit that the blocks without successors for which
/// `ends_at_exit` holds flow into (the others are dead ends).
fn post_dominators_to(body: &Body, ends_at_exit: impl Fn(Block) -> bool) -> PostDominators {
    let blocks = body.layout.blocks();
    let n = blocks.len();
    let exit = n;
    // Blocks not in the layout have no position.
    let mut position: SecondaryMap<Block, usize> = SecondaryMap::with_default(usize::MAX);
    for (i, &b) in blocks.iter().enumerate() {
        position[b] = i;
    }
    let index_of = |b: Block| Some(position[b]).filter(|&i| i != usize::MAX);
    // Successors in the CFG, by index; the exit for the ends that flow into it.
    let succs: Vec<Vec<usize>> = blocks
        .iter()
        .map(|&b| {
            let s: Vec<usize> = body
                .layout
                .terminator(b)
                .map(|t| body.successors(t).iter().filter_map(|&d| index_of(body.dests[d].block)).collect())
                .unwrap_or_default();
            match s.is_empty() {
                true if ends_at_exit(b) => vec![exit],
                _ => s,
            }
        })
        .collect();
    // Predecessors in the reversed graph are the CFG successors; its successors are the CFG
    // predecessors.
    let mut rev_succs: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            rev_succs[s].push(b);
        }
    }
    // Reverse postorder of the reversed graph from the exit (iterative DFS).
    let mut order = Vec::with_capacity(n + 1);
    let mut seen = vec![false; n + 1];
    let mut stack = vec![(exit, 0usize)];
    seen[exit] = true;
    while let Some((node, next)) = stack.pop() {
        if let Some(&s) = rev_succs[node].get(next) {
            stack.push((node, next + 1));
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(node);
        }
    }
    order.reverse();
    let mut rpo_number = vec![usize::MAX; n + 1];
    for (i, &node) in order.iter().enumerate() {
        rpo_number[node] = i;
    }
    const UNDEF: usize = usize::MAX;
    let mut idom = vec![UNDEF; n + 1];
    idom[exit] = exit;
    let intersect = |idom: &[usize], mut a: usize, mut b: usize| {
        while a != b {
            while rpo_number[a] > rpo_number[b] {
                a = idom[a];
            }
            while rpo_number[b] > rpo_number[a] {
                b = idom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &node in order.iter().skip(1) {
            // Predecessors in the reversed graph = CFG successors.
            let mut new_idom = UNDEF;
            for &p in &succs[node] {
                if idom[p] == UNDEF {
                    continue;
                }
                new_idom = if new_idom == UNDEF { p } else { intersect(&idom, p, new_idom) };
            }
            if new_idom != UNDEF && idom[node] != new_idom {
                idom[node] = new_idom;
                changed = true;
            }
        }
    }
    let mut out = PostDominators { idom: SecondaryMap::new(), reaches_exit: SecondaryMap::new() };
    for (i, &b) in blocks.iter().enumerate() {
        // The depth-first search from the exit over the reversed graph saw exactly the blocks
        // with a path to the exit.
        out.reaches_exit[b] = seen[i];
        let d = idom[i];
        if d != UNDEF && d != exit {
            out.idom[b] = Some(blocks[d]).into();
        }
    }
    out
}

/// Where the two sides of a `penumbra_execute(V)` branch in block `branch` meet again: the
/// join of an execute block, which both interpreters must agree on. The versions go to `old`
/// and `new`. `if (penumbra_execute(V)) {...}` without `else`: the other version's destination
/// is the code after the block, where V's side arrives unless it returns early. With an
/// `else`, the sides meet where every path from the branch that returns meets: `ipdom`, the
/// branch block's immediate post-dominator over them ([`returning_post_dominators`], asked only
/// then). `None`: the sides never meet in this function.
pub fn execute_join(
    body: &Body,
    branch: Block,
    old: Block,
    new: Block,
    ipdom: impl FnOnce() -> Option<Block>,
) -> Option<Block> {
    if reaches(body, old, new, branch) {
        Some(new)
    } else if reaches(body, new, old, branch) {
        Some(old)
    } else {
        ipdom()
    }
}

/// Whether a `return` is reachable from `from` without passing through `avoid`: an execute
/// block's side that cannot reach one, nor the other side, ends the program (or loops) on
/// every path, as a function merged whole for each version (`change(main_old(), main_new())`,
/// both calling `exit`) does.
pub fn can_return(body: &Body, from: Block, avoid: Block) -> bool {
    reaches_any(body, from, |b| b == avoid, |b| returns(body, b))
}

/// Whether `block` ends in a `return`.
pub fn returns(body: &Body, block: Block) -> bool {
    body.layout.terminator(block).is_some_and(|term| matches!(body.insts[term], InstData::Return { .. }))
}

/// Whether `to` is reachable from `from` without passing through `avoid`.
fn reaches(body: &Body, from: Block, to: Block, avoid: Block) -> bool {
    reaches_any(body, from, |b| b == avoid, |b| b == to)
}

/// Whether a block for which `found` holds is reachable from `from` (itself included) without
/// passing through a block for which `avoid` holds.
pub fn reaches_any(body: &Body, from: Block, avoid: impl Fn(Block) -> bool, found: impl Fn(Block) -> bool) -> bool {
    let mut seen = vec![false; body.blocks.len()];
    seen[from.index()] = true;
    let mut work = vec![from];
    while let Some(b) = work.pop() {
        if found(b) {
            return true;
        }
        let Some(term) = body.layout.terminator(b) else { continue };
        for d in body.successors(term) {
            let next = body.dests[d].block;
            if !avoid(next) && !std::mem::replace(&mut seen[next.index()], true) {
                work.push(next);
            }
        }
    }
    false
}

/// Whether `v` is computed from `penumbra_execute(V)` results and constants alone (at least
/// one execute): a branch on it is an execute block's, the same decision on every input of a
/// version. The symbolic engine sees that as a condition whose versions are different
/// constants; the concrete interpreter, which sees one version's value only, asks this.
pub fn tests_execute(body: &Body, v: Value) -> bool {
    fn walk(body: &Body, v: Value, depth: u32, seen_execute: &mut bool) -> bool {
        if depth > 16 {
            return false;
        }
        let def = match body.values[v].def {
            ValueDef::Const(_) | ValueDef::ConstF80 { .. } => return true,
            ValueDef::Result(inst) => inst,
            _ => return false,
        };
        let mut operands = |args: &[Value]| args.iter().all(|&a| walk(body, a, depth + 1, seen_execute));
        match &body.insts[def] {
            InstData::Execute { .. } => {
                *seen_execute = true;
                true
            }
            InstData::Icmp { args, .. } | InstData::Binary { args, .. } => operands(args),
            InstData::Cast { arg, .. } => operands(&[*arg]),
            InstData::Select { args } => operands(args),
            _ => false,
        }
    }
    let mut seen_execute = false;
    walk(body, v, 0, &mut seen_execute) && seen_execute
}

/// Whether a branch on `cond` guards code only the new version has, as Shadow annotates an
/// addition: `if (change(0, c))`, the old version's condition the constant false as written
/// (not merely on some path: `change(isprint(c), 1)` is a changed condition, not new code).
pub fn guards_added_code(body: &Body, cond: Value) -> bool {
    old_is_zero(body, cond, 0)
}

/// Whether `v` is, in the old version as written, the constant 0: the constant itself, a
/// `change` whose old operand is, its truth (`!= 0`) or a cast of it, or the merge of a `change`
/// whose new operand branches (`change(0, a && b)`: a `penumbra_execute` block whose old side
/// passes 0 to the merge).
fn old_is_zero(body: &Body, v: Value, depth: u32) -> bool {
    if depth > 8 {
        return false;
    }
    match body.values[truth_of(body, v)].def {
        ValueDef::Const(0) => true,
        ValueDef::Result(inst) => match body.insts[inst] {
            InstData::Change { args: [old, _] } => old_is_zero(body, old, depth + 1),
            _ => false,
        },
        ValueDef::Param(join, i) => body.layout.blocks().iter().any(|&side| old_side_passes_zero(body, side, join, i)),
        _ => false,
    }
}

/// The value `v` tests the truth of: `v` itself, or what it compares with 0 (`x != 0`, `0 !=
/// x`) or casts, as C's conditions and `int` results wrap a value, as deep as they go.
fn truth_of(body: &Body, mut v: Value) -> Value {
    let zero = |v: Value| matches!(body.values[v].def, ValueDef::Const(0));
    for _ in 0..8 {
        let ValueDef::Result(inst) = body.values[v].def else { break };
        v = match body.insts[inst] {
            InstData::Icmp { cc: IntCC::Ne, args: [a, b] } if zero(b) => a,
            InstData::Icmp { cc: IntCC::Ne, args: [a, b] } if zero(a) => b,
            InstData::Cast { arg, .. } => arg,
            _ => break,
        };
    }
    v
}

/// Whether block `side` is the old version's side of a `penumbra_execute(OLD)` branch that only
/// passes 0 to `join` as its parameter `i`.
fn old_side_passes_zero(body: &Body, side: Block, join: Block, i: u32) -> bool {
    let &[jump] = body.layout.block_insts(side) else { return false };
    let InstData::Jump { dest } = body.insts[jump] else { return false };
    let passes_zero = body.dests[dest].block == join
        && body.dest_args(dest).get(i as usize).is_some_and(|&a| matches!(body.values[a].def, ValueDef::Const(0)));
    passes_zero
        && body.layout.blocks().iter().filter_map(|&b| body.layout.terminator(b)).any(|term| match body.insts[term] {
            InstData::Brif { cond, then_dest, .. } => body.dests[then_dest].block == side && is_execute_old(body, cond),
            _ => false,
        })
}

/// Whether `v` is `penumbra_execute(OLD)`, or its truth or a cast of it.
fn is_execute_old(body: &Body, v: Value) -> bool {
    let ValueDef::Result(inst) = body.values[truth_of(body, v)].def else { return false };
    matches!(body.insts[inst], InstData::Execute { version: Version::Old })
}
