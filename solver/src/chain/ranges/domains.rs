//! Deciding a query from its inputs' value sets.
//!
//! Every constraint over a single input narrows that input's set, exactly (the range analysis
//! of the parent module). An empty set makes the query unsat. When every constraint is of that
//! kind, the query is sat and each input takes the value of its set closest to zero. The other
//! constraints (over several inputs, or outside the range fragment: `x + y == 5`, `a % b`, a
//! product) are decided by trying every combination of values of the inputs they mention
//! ([`enumerate`](super::enumerate)), when there are at most [`MAX_COMBINATIONS`]: the usual
//! shape of evaluation subjects whose inputs are bounded to a small domain (`1 <= num <= 12`,
//! `-100 <= a, b <= 100`), where Bitwuzla spends milliseconds, sometimes seconds, bit-blasting
//! 32-bit arithmetic that a few thousand evaluations settle (a chain of 32 subtractions took
//! it 47 ms a query). An enumeration stops short of [`MAX_EVALUATIONS`] node evaluations.
//! An input of a multi-input constraint with no single-input constraint ranges over all values
//! of its width, so only narrow variables (a `char`) can be enumerated without bounds.
//!
//! Combinations are tried in a fixed order, each input's values closest to zero first, so the
//! answer and the model are deterministic and read naturally.
//!
//! A query with floating-point constraints that is too costly to enumerate gets one more try,
//! a bounded backtracking search for its first solution ([`search_floats`]): Bitwuzla takes
//! seconds on such a query, and they are common where a number is parsed into a `long double`.

use rustc_hash::FxHashMap;

use super::enumerate::{Program, MAX_EVALUATIONS};
use super::solutions::SolutionSets;
use super::{assign, leaves, RangeQuery, Ranges};
use crate::eval::satisfies;
use crate::model::Model;
use crate::query::{Answer, Query};
use crate::term::{TermId, TermStore, VarId};
use crate::vars::VarIndex;

/// Combinations tried directly; beyond this many, the solutions of the path's constraints are
/// kept for the next query on the same path ([`SolutionSets`]).
pub(crate) const SMALL_COMBINATIONS: u64 = 4096;

/// Node evaluations (see [`Program::cost`]) an enumeration tried directly may cost; beyond, the
/// path's solutions are kept as for many combinations. Tried directly, 648 combinations of
/// `strtold` over symbolic digits (300 nodes, 50 of them floating-point) took 1.5 ms a query,
/// every query on the path again: 39 of CoREBench seq's 40 s.
const SMALL_EVALUATIONS: u64 = 1 << 16;

/// The most combinations of input values tried for one query (about 10^6).
pub(crate) const MAX_COMBINATIONS: u64 = 1 << 20;

/// One input: its atom (a variable or a concatenation of distinct variables) and the values
/// the single-input constraints leave it.
struct Input {
    atom: TermId,
    values: Ranges,
}

/// Decides `q` (see the module documentation), or `None` when it cannot.
pub(crate) fn decide(store: &TermStore, vars: &mut VarIndex, sets: &mut SolutionSets, q: &Query<'_>) -> Option<Answer> {
    let mut inputs: Vec<Input> = Vec::new();
    let mut rest: Vec<TermId> = Vec::new();
    // Of `rest`, how many came from the extras (they come first).
    let mut rest_extras = 0;
    // Extras first: a branch literal is the likeliest to contradict the path.
    for (i, c) in q.likely_failing_first().enumerate() {
        let mut rq = RangeQuery { store, atom: None };
        let (Some(values), Some(atom)) = (rq.truth(c), rq.atom) else {
            rest.push(c);
            rest_extras += usize::from(i < q.extra.len());
            continue;
        };
        let input = match inputs.iter().position(|i| i.atom == atom) {
            Some(k) => {
                inputs[k].values = inputs[k].values.intersect(&values);
                &inputs[k]
            }
            None => {
                inputs.push(Input { atom, values });
                inputs.last().expect("just pushed")
            }
        };
        if input.values.is_empty() {
            return Some(Answer::Unsat);
        }
    }

    // Each variable belongs to one input: two inputs sharing one (an int and one of its bytes)
    // are not independent, and their sets say nothing exact about each other.
    let mut owner: FxHashMap<VarId, usize> = FxHashMap::default();
    let mut atom_vars = Vec::new();
    for (k, input) in inputs.iter().enumerate() {
        atom_vars.clear();
        leaves(store, input.atom, &mut atom_vars);
        for &v in &atom_vars {
            if owner.insert(v, k).is_some() {
                return None;
            }
        }
    }
    // The inputs the other constraints mention; a variable no input holds is an input of its
    // own, unconstrained.
    let mut tried: Vec<usize> = Vec::new();
    for v in vars.vars_of_all(store, &rest) {
        let k = match owner.get(&v) {
            Some(&k) => k,
            None => {
                let atom = store.var(v);
                inputs.push(Input { atom, values: Ranges::full(store.width(atom)) });
                owner.insert(v, inputs.len() - 1);
                inputs.len() - 1
            }
        };
        if !tried.contains(&k) {
            tried.push(k);
        }
    }
    let combinations = tried.iter().fold(1u64, |n, &k| n.saturating_mul(inputs[k].values.count()));

    // Every input not tried takes its value closest to zero.
    let mut model = Model::new();
    for (k, input) in inputs.iter().enumerate() {
        if !tried.contains(&k) {
            assign(store, input.atom, input.values.pick()?, &mut model);
        }
    }
    let enumerated = match combinations <= MAX_COMBINATIONS {
        true => enumerate_all(store, sets, &rest, rest_extras, &inputs, &tried, combinations),
        false => None,
    };
    // `Some(point)`: the first solution, in the order of `tried`; `None`: there is none.
    let solution = match enumerated {
        Some(solution) => solution,
        None => search_floats(store, &rest, &inputs, &mut tried)?,
    };
    let atoms = atoms_of(&inputs, &tried);
    match solution {
        Some(point) => {
            for (&atom, &v) in atoms.iter().zip(&point) {
                assign(store, atom, v, &mut model);
            }
            debug_assert!(satisfies(store, &rest, &model));
            Some(Answer::Sat(q.need_model.then_some(model)))
        }
        None => Some(Answer::Unsat),
    }
}

/// The first solution of `rest` over the inputs `tried`, by trying every combination
/// ([`MAX_COMBINATIONS`] at most): `Some(None)` when there is none, `None` when that would cost
/// too much.
fn enumerate_all(
    store: &TermStore,
    sets: &mut SolutionSets,
    rest: &[TermId],
    rest_extras: usize,
    inputs: &[Input],
    tried: &[usize],
    combinations: u64,
) -> Option<Option<Vec<u64>>> {
    let atoms = atoms_of(inputs, tried);
    // A cheap enumeration runs over all the constraints; a costlier one (many combinations, or
    // floating-point nodes) narrows the path's kept solutions, so the next query on the path
    // pays only for its own constraints.
    if combinations <= SMALL_COMBINATIONS {
        let mut program = Program::new(store, rest, &atoms)?;
        if combinations.saturating_mul(program.cost()) <= SMALL_EVALUATIONS {
            return program.first_solution(&candidates_of(inputs, tried), u64::MAX);
        }
    }
    // The path's constraints (in path order) narrow a cached set of solutions; the query's own
    // constraints pick the first that satisfies them.
    let (extras, path_rev) = rest.split_at(rest_extras);
    let path: Vec<TermId> = path_rev.iter().rev().copied().collect();
    let domains: Vec<Ranges> = tried.iter().map(|&k| inputs[k].values.clone()).collect();
    let solutions = sets.solutions(store, &atoms, &domains, &path)?;
    let k = atoms.len().max(1);
    let mut program = Program::new(store, extras, &atoms)?;
    let counts: Vec<u64> = tried.iter().map(|&k| inputs[k].values.count()).collect();
    if program.evaluations(&counts, (solutions.len() / k) as u64) > MAX_EVALUATIONS {
        return None;
    }
    let mut first = None;
    program.each_holding(solutions.chunks(k), |point| {
        first = Some(point.to_vec());
        true
    });
    Some(first)
}

/// Node evaluations a search for a float query's first solution may spend (about ten
/// milliseconds) before the query goes to Bitwuzla after all.
const SEARCH_EVALUATIONS: u64 = 1 << 22;

/// The most values of one input the search tries (a free byte, not a free word).
const SEARCH_VALUES: u64 = 1 << 16;

/// A query with floating-point constraints that enumeration cannot afford, decided by a
/// search for its first solution within [`SEARCH_EVALUATIONS`]: Bitwuzla bit-blasts `long
/// double` products and quotients for seconds a query (numfmt: 6 s, where the floats read one
/// digit of nine values and three free bytes make the combinations too many to try). The inputs
/// whose constraints cost the most change slowest, so a float constraint over one digit is
/// evaluated once per digit, and a combination failing a constraint skips every combination
/// that changes only faster inputs ([`Program::first_solution`]): a backtracking search.
/// Reorders `tried` to that order. `Some(None)` when there is no solution, `None` when the
/// search ran out or the query has no floats (Bitwuzla is quick on those).
fn search_floats(
    store: &TermStore,
    rest: &[TermId],
    inputs: &[Input],
    tried: &mut Vec<usize>,
) -> Option<Option<Vec<u64>>> {
    if !rest.iter().any(|&c| store.has_float(c)) || tried.iter().any(|&k| inputs[k].values.count() > SEARCH_VALUES) {
        return None;
    }
    // A program's nodes name their inputs by position, so the order is chosen on one compiled
    // in the order found and the search runs on one compiled in the new order.
    let weights = Program::new(store, rest, &atoms_of(inputs, tried))?.input_weights(tried.len());
    let mut order: Vec<usize> = (0..tried.len()).collect();
    order.sort_by_key(|&j| weights[j]);
    let reordered: Vec<usize> = order.iter().map(|&j| tried[j]).collect();
    let mut program = Program::new(store, rest, &atoms_of(inputs, &reordered))?;
    let solution = program.first_solution(&candidates_of(inputs, &reordered), SEARCH_EVALUATIONS)?;
    *tried = reordered;
    Some(solution)
}

/// The atoms of the inputs `tried`, in that order.
fn atoms_of(inputs: &[Input], tried: &[usize]) -> Vec<TermId> {
    tried.iter().map(|&k| inputs[k].atom).collect()
}

/// Each input of `tried`'s values, closest to zero first: what an enumeration tries.
fn candidates_of(inputs: &[Input], tried: &[usize]) -> Vec<Vec<u64>> {
    tried.iter().map(|&k| inputs[k].values.closest_to_zero_first()).collect()
}
