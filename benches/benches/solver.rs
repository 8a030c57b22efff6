//! Criterion benchmarks of penumbra-solver:
//! - `term_construction`: building terms through the folding constructors
//!   (fresh nodes, and re-building existing ones = pure interning hits);
//! - `four_way_chain`: four-way checks along a growing chain of path
//!   constraints, as shadow execution does down one path;
//! - `exploration`: a simulated depth-first exploration (plain branches,
//!   four-way branches, models, equality proofs) under each cache
//!   configuration; the cache hit rates of each run are printed once
//!   (`cache-stats ...` lines) for `results/solver.md`;
//! - `float_digit`: numfmt's query shape, a `long double` computed from one digit beside three
//!   free bytes tied to it, decided by the range solver's bounded search and by Bitwuzla alone.
//!
//! Run: `cargo bench -p penumbra-benches --bench solver -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
// SplitMix64 with fixed seeds: every run builds the same terms.
use penumbra_fuzz_checks::{Rng, Source};
use penumbra_solver::{SatResult, Solver, SolverConfig, SolverStats, TermId, TermStore};

/// Two 4-byte symbolic objects, as the engine makes them, and their words.
struct Objects {
    xs: Vec<TermId>,
    ys: Vec<TermId>,
    x: TermId,
    y: TermId,
}

fn objects(s: &mut TermStore) -> Objects {
    let mut bytes = |name: &str| -> Vec<TermId> {
        (0..4)
            .map(|i| {
                let v = s.new_var(&format!("{name}[{i}]"), 8);
                s.var(v)
            })
            .collect()
    };
    let xs = bytes("x");
    let ys = bytes("y");
    let word = |s: &mut TermStore, b: &[TermId]| {
        let lo = s.concat(b[1], b[0]);
        let hi = s.concat(b[3], b[2]);
        s.concat(hi, lo)
    };
    let x = word(s, &xs);
    let y = word(s, &ys);
    Objects { xs, ys, x, y }
}

/// `n` terms of the kind an interpreter builds: arithmetic on loaded words,
/// comparisons, selects, byte stores (extract) and loads (concat).
fn build_terms(s: &mut TermStore, o: &Objects, n: usize, seed: u64) -> TermId {
    let mut rng = Rng::new(seed);
    let mut acc = o.x;
    for i in 0..n {
        let k = s.constant(32, rng.below(1000));
        acc = match i % 8 {
            0 => s.add(acc, k),
            1 => s.mul(acc, o.y),
            2 => s.xor(acc, o.x),
            3 => {
                let c = s.ult(acc, k);
                s.ite(c, acc, o.y)
            }
            4 => {
                let b = s.extract(acc, 15, 8);
                let z = s.zext(b, 32);
                s.sub(acc, z)
            }
            5 => {
                let lo = s.concat(o.xs[(i / 8) % 4], o.ys[0]);
                let z = s.zext(lo, 32);
                s.or(acc, z)
            }
            6 => s.lshr(acc, k),
            _ => s.and(acc, o.y),
        };
    }
    acc
}

fn term_construction(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut g = c.benchmark_group("term_construction");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("fresh_10k", |b| {
        b.iter_batched(
            || {
                let mut s = TermStore::default();
                let o = objects(&mut s);
                (s, o)
            },
            |(mut s, o)| black_box(build_terms(&mut s, &o, N, 1)),
            BatchSize::SmallInput,
        )
    });
    let mut s = TermStore::default();
    let o = objects(&mut s);
    build_terms(&mut s, &o, N, 1);
    g.bench_function("interned_10k", |b| b.iter(|| black_box(build_terms(&mut s, &o, N, 1))));
    g.finish();
}

/// A path of `len` branches on constraints over x and y, each a four-way
/// check (the condition holds a changed constant), following the
/// same-true or same-false side.
fn four_way_along_chain(config: &SolverConfig, len: usize) -> u64 {
    let mut s = TermStore::default();
    let o = objects(&mut s);
    let mut solver = Solver::new(config.clone()).expect("solver");
    let mut rng = Rng::new(42);
    let mut pc: Vec<TermId> = Vec::new();
    let mut feasible = 0;
    for i in 0..len {
        let v = if i % 3 == 2 { o.y } else { o.x };
        let k1 = s.constant(32, 1000 + rng.below(1 << 30));
        let k2 = s.constant(32, 1000 + rng.below(1 << 30));
        let th = s.shadow(k1, k2);
        let m = s.constant(32, 1 + rng.below(7));
        let scaled = s.mul(v, m);
        let cond = s.ult(scaled, th);
        let fw = solver.four_way(&mut s, &pc, cond).expect("four-way");
        feasible += fw.feasible().len() as u64;
        let (old_c, new_c) = s.projections(cond);
        if fw.same_true.is_some() {
            pc.push(old_c);
            pc.push(new_c);
        } else if fw.same_false.is_some() {
            let (no, nn) = (s.not(old_c), s.not(new_c));
            pc.push(no);
            pc.push(nn);
        } else {
            break;
        }
    }
    feasible
}

fn four_way_chain(c: &mut Criterion) {
    let mut g = c.benchmark_group("four_way_chain");
    g.sample_size(10);
    for (name, config) in [("all_caches", SolverConfig::default()), ("no_caches", SolverConfig::no_caches())] {
        for len in [8usize, 32] {
            g.throughput(Throughput::Elements(len as u64));
            g.bench_function(format!("{name}/len{len}"), |b| b.iter(|| black_box(four_way_along_chain(&config, len))));
        }
    }
    g.finish();
}

/// A depth-first exploration: random conditions over x and y (few mixing
/// both), plain branches as two checks, shadow branches as four-way checks,
/// a model of the path condition at every third node.
fn explore(config: &SolverConfig, nodes: usize) -> SolverStats {
    let mut s = TermStore::default();
    let o = objects(&mut s);
    let mut solver = Solver::new(config.clone()).expect("solver");
    let mut rng = Rng::new(7);
    let mut stack: Vec<(Vec<TermId>, u32)> = vec![(Vec::new(), 0)];
    let mut seen = 0;
    while let Some((pc, depth)) = stack.pop() {
        if seen >= nodes || depth >= 12 {
            continue;
        }
        seen += 1;
        let v = if rng.below(2) == 0 { o.x } else { o.y };
        let byte = if rng.below(2) == 0 { o.xs[rng.below(4) as usize] } else { o.ys[rng.below(4) as usize] };
        let bits = rng.below(31);
        let k = s.constant(32, rng.below(1 << bits) + 1);
        let k8 = s.constant(8, rng.below(256));
        let cond = match rng.below(7) {
            0 => s.ult(byte, k8),
            1 => {
                let sum = s.add(v, k);
                s.ult(sum, k)
            }
            2 if rng.below(4) == 0 => s.slt(o.x, o.y),
            3 => {
                let seven = s.constant(32, 7);
                let r = s.urem(v, seven);
                let z = s.zero(32);
                s.eq(r, z)
            }
            4 => {
                let k2 = s.constant(32, rng.below(1 << 20));
                let th = s.shadow(k, k2);
                s.ugt(v, th)
            }
            5 => {
                let one = s.constant(32, 1);
                let (a, b) = (s.add(v, v), s.shl(v, one));
                let sh = s.shadow(a, b);
                s.ult(sh, k)
            }
            _ => s.eq(byte, k8),
        };
        if s.has_shadow(cond) {
            let fw = solver.four_way(&mut s, &pc, cond).expect("four-way");
            let (oc, nc) = s.projections(cond);
            for out in fw.feasible().into_iter().rev() {
                let lo = if out.old_value() { oc } else { s.not(oc) };
                let ln = if out.new_value() { nc } else { s.not(nc) };
                let mut child = pc.clone();
                child.push(lo);
                if ln != lo {
                    child.push(ln);
                }
                stack.push((child, depth + 1));
            }
        } else {
            let neg = s.not(cond);
            for lit in [neg, cond] {
                if solver.check(&s, &pc, &[lit]).expect("check") == SatResult::Sat {
                    let mut child = pc.clone();
                    child.push(lit);
                    stack.push((child, depth + 1));
                }
            }
        }
        if seen % 3 == 0 {
            black_box(solver.get_model(&s, &pc).expect("model"));
        }
    }
    solver.stats().clone()
}

fn exploration_configs() -> Vec<(&'static str, SolverConfig)> {
    let none = SolverConfig::no_caches();
    vec![
        ("none", none.clone()),
        ("none_nonincremental", SolverConfig { incremental: false, ..none.clone() }),
        ("exact", SolverConfig { query_cache: true, ..none.clone() }),
        ("cex", SolverConfig { cex_cache: true, ..none.clone() }),
        ("independence", SolverConfig { independence: true, ..none.clone() }),
        ("all", SolverConfig::default()),
    ]
}

fn rate(hits: u64, queries: u64) -> String {
    if queries == 0 {
        "-".into()
    } else {
        format!("{hits}/{queries} ({:.1}%)", 100.0 * hits as f64 / queries as f64)
    }
}

fn exploration(c: &mut Criterion) {
    const NODES: usize = 150;
    // hit rates: one run per configuration, printed once
    for (name, config) in exploration_configs() {
        let st = explore(&config, NODES);
        println!(
            "cache-stats {name}: queries {} | independence split {} | exact {} | cex {} (unsat-subset {}, superset {}, eval {}) | bitwuzla {} ({} us in check_sat)",
            st.queries,
            rate(st.independence_hits, st.independence_queries),
            rate(st.exact_hits, st.exact_queries),
            rate(st.cex_hits, st.cex_queries),
            st.cex_unsat_subset_hits,
            st.cex_superset_hits,
            st.cex_eval_hits,
            st.core_queries,
            st.core_check_time_us,
        );
    }
    let mut g = c.benchmark_group("exploration");
    g.sample_size(10);
    for (name, config) in exploration_configs() {
        g.bench_function(format!("{name}/{NODES}_nodes"), |b| b.iter(|| black_box(explore(&config, NODES))));
    }
    g.finish();
}

/// numfmt's query shape (`results/search-patches.md`): a digit `d` in '1'..'9' as a `long
/// double`, multiplied and divided a few times, compared with a bound, beside free bytes `p ==
/// q`, `q != d`, `r == p + 1`; `bound` picks whether it is sat (20: d = '7') or unsat (40).
/// A fresh solver each time, so that no cache answers.
fn float_digit_query(config: &SolverConfig, bound: u64) -> SatResult {
    use penumbra_solver::float::Arith;
    let mut s = TermStore::default();
    let [d, p, q, r] = ["d", "p", "q", "r"].map(|n| {
        let v = s.new_var(n, 8);
        s.var(v)
    });
    let (c0, c1, c9, one) = (
        s.constant(8, u64::from(b'0')),
        s.constant(8, u64::from(b'1')),
        s.constant(8, u64::from(b'9')),
        s.constant(8, 1),
    );
    let p1 = s.add(p, one);
    let pc = [s.ule(c1, d), s.ule(d, c9), s.eq(p, q), s.ne(q, d), s.eq(r, p1)];
    let digit = s.sub(d, c0);
    let mut x = s.int_to_fp(digit, 80, false);
    let mut int = |v: u64| {
        let k = s.constant(32, v);
        s.int_to_fp(k, 80, true)
    };
    let (ten, three, limit) = (int(10), int(3), int(bound));
    for _ in 0..2 {
        x = s.fp_arith(Arith::Mul, x, ten);
        x = s.fp_arith(Arith::Div, x, three);
    }
    let x = s.fp_arith(Arith::Div, x, ten);
    let extra = [s.fp_lt(limit, x)];
    let mut solver = Solver::new(config.clone()).expect("solver");
    solver.check(&s, &pc[..], &extra).expect("decided")
}

fn float_digit(c: &mut Criterion) {
    let mut g = c.benchmark_group("float_digit");
    g.sample_size(10);
    let bitwuzla = SolverConfig { ranges: false, ..SolverConfig::default() };
    for (name, config) in [("range_search", SolverConfig::default()), ("bitwuzla", bitwuzla)] {
        for (answer, bound) in [("sat", 20), ("unsat", 40)] {
            g.bench_function(format!("{name}/{answer}"), |b| b.iter(|| black_box(float_digit_query(&config, bound))));
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    targets = term_construction, four_way_chain, exploration, float_digit
}
criterion_main!(benches);
