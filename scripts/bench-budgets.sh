#!/usr/bin/env bash
# Measures how closely the budgets hold inside one path (issue 35), for results/throughput.md:
# on each program (a symbolic value folded into itself, a select loop of 30 million rounds,
# huge symbolic inputs at start-up), `--max-time T` and `--max-memory M` separately, wall time
# and maximum resident size from GNU time (from outside the process), and SIGINT sent after
# 2 seconds: how long until the process exits, and the state run.json is left in.
# Prints Markdown on stdout. Usage: bash scripts/bench-budgets.sh [T] [M]   (default 10 s, 500 MiB)
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-10}
m=${2:-500}
cargo build --release -q -p penumbra >&2
bin=$PWD/target/release/penumbra
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf 'int main(void) { return 0; }\n' > "$scratch/empty.c"

# The runs: a label, then the arguments after the binary.
runs=(
    "deep_sum.c (shadow, N = 50,000)|shadow benches/programs/deep_sum.c"
    "deep_sum.c (shadow, N = 1,000,000)|shadow benches/programs/deep_sum.c -DN=1000000"
    "fold_loop.c (shadow)|shadow benches/programs/fold_loop.c"
    "select_loop.c (run, 30M rounds)|run benches/programs/select_loop.c"
    "sym_fill.c (shadow, 64 MiB made symbolic)|shadow benches/programs/sym_fill.c"
    "--sym-stdin 100000000|run $scratch/empty.c --sym-stdin 100000000"
    "--sym-arg 100000000|run $scratch/empty.c --sym-arg 100000000"
    "--sym-args 0 1000 1000|run $scratch/empty.c --sym-args 0 1000 1000"
)

# one LABEL ARGS... BUDGET...: "wall_s peak_mib stopped_by" of one run with tests written.
one() {
    local out=$scratch/out
    rm -rf "$out"
    /usr/bin/time -f "%e %M" -o "$scratch/time" "$bin" "$@" --output-dir "$out" --json > "$scratch/json" 2> /dev/null || true
    local stopped
    stopped=$(python3 -c "import json,sys; d=json.load(open('$scratch/json')); print(d.get('stopped_by') or 'finished')" 2>/dev/null || echo refused)
    read -r wall kb < <(tail -n 1 "$scratch/time")
    echo "$wall $((kb / 1024)) $stopped"
    rm -rf "$out"
}

# interrupt ARGS...: seconds from SIGINT to exit, and run.json's status and stopped_by.
interrupt() {
    local out=$scratch/out
    rm -rf "$out"
    "$bin" "$@" --output-dir "$out" > /dev/null 2>&1 &
    local pid=$!
    sleep 2
    local start
    start=$(date +%s.%N)
    kill -INT "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    local end
    end=$(date +%s.%N)
    local state
    state=$(python3 -c "import json; d=json.load(open('$out/run.json')); print(d.get('status'), d.get('stopped_by'))" 2>/dev/null || echo "no run.json (refused or ended before)")
    printf '%.2f %s\n' "$(echo "$end - $start" | bc)" "$state"
    rm -rf "$out"
}

echo "### Budgets inside one path (issue 35)"
echo
echo "\`bash scripts/bench-budgets.sh $t $m\` on $(nproc) cores, commit $(git rev-parse --short HEAD): each run"
echo "once with \`--max-time $t\` and once with \`--max-memory $m\`, tests written; wall time and peak"
echo "resident size from GNU time; SIGINT sent 2 s into a run without budgets."
echo
echo "| program | --max-time $t: wall s, peak MiB, stopped by | --max-memory $m: wall s, peak MiB, stopped by | SIGINT: s to exit, run.json |"
echo "|---|---|---|---|"
for r in "${runs[@]}"; do
    label=${r%%|*}
    read -ra args <<< "${r#*|}"
    read -r tw tp ts < <(one "${args[@]}" --max-time "$t")
    read -r mw mp ms < <(one "${args[@]}" --max-memory "$m")
    read -r iw istate < <(interrupt "${args[@]}")
    echo "| $label | $tw, $tp, $ts | $mw, $mp, $ms | $iw, $istate |"
done
