#!/usr/bin/env bash
# Regenerates the numbers of results/throughput.md (issue 15: throughput and budgets): the cost
# of writing tests, concrete loops and large fills, how closely --max-time and --max-memory
# hold, and small-domain queries (the gcd mutants over [-100, 100]) with and without the range
# solver's enumeration. Prints Markdown on stdout.
# Usage: bash scripts/bench-throughput.sh [REPEATS]   (times: the median of REPEATS runs)
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
cargo build --release -p penumbra >&2
bin=target/release/penumbra
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# measure CMD...: REPEATS runs of CMD; prints "WALL USER SYS PEAK_MIB" of the median run by wall
# time (wall, user and system CPU and maximum resident set from /usr/bin/time; the peak is the
# largest process of the run: penumbra itself, or clang when that is larger).
measure() {
    for _ in $(seq "$repeats"); do
        /usr/bin/time -f "%e %U %S %M" -o "$scratch/time" "$@" > /dev/null 2>&1 || true
        awk '{printf "%s %s %s %.1f\n", $1, $2, $3, $4 / 1024}' "$scratch/time"
        rm -rf "$scratch/out"
    done | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'
}

# field CMD... -- EXPR: one run's --json summary, EXPR evaluated over it as `d` in Python.
field() {
    local args=() expr
    while [ "$1" != -- ]; do args+=("$1"); shift; done
    expr=$2
    "${args[@]}" --json 2>/dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); v=($expr); print(*(v if isinstance(v, tuple) else (v,)))"
    rm -rf "$scratch/out"
}

echo "Machine: $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p')), $(free -g | awk '/^Mem:/ {print $2}') GiB RAM," \
    "$(. /etc/os-release && echo "$PRETTY_NAME"), $(rustc --version | cut -d' ' -f1-2); commit $(git rev-parse --short HEAD);" \
    "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)."

echo
echo "### Writing tests (range16: 65,536 paths over a 16-byte buffer)"
echo
echo "| tests | wall s | user s | sys s | CPU s | CPU ratio to no tests |"
echo "|---|---|---|---|---|---|"
f=benches/programs/range16.c
base=""
for mode in none jsonl all; do
    case $mode in
    none) flags=(--no-tests); label="not written (\`--no-tests\`)" ;;
    jsonl) flags=(--output-dir "$scratch/out"); label="written (default: \`tests.jsonl\`, a \`.ktest\` for every error or divergence)" ;;
    all) flags=(--output-dir "$scratch/out" --all-ktests); label="written with a \`.ktest\` each (\`--all-ktests\`)" ;;
    esac
    read -r wall user sys _ < <(measure "$bin" run "$f" "${flags[@]}")
    cpu=$(python3 -c "print(f'{$user + $sys:.2f}')")
    [ -z "$base" ] && base=$cpu
    python3 -c "print(f'| $label | $wall | $user | $sys | $cpu | {$cpu / max($base, 0.01):.1f}x |')"
done
echo
echo "CPU includes compiling the program with clang (about 0.05 s)."
# The floor the file system sets: a C loop creating as many .ktest-sized files in one directory.
read -r fwall fsys < <(bash "$(dirname "$0")/fs-floor.sh" "$scratch" "$repeats" \
    | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
echo "The file system's floor: a C loop creating 65,536 files of 82 bytes in one directory takes $fwall s"
echo "($fsys s of it in the kernel) on this machine, in the same directory the runs write to."

echo
echo "### Concrete values and large fills"
echo
echo "Peak memory: penumbra's own (VmHWM, from its summary); \`/usr/bin/time\` would report clang's,"
echo "the largest process of the run. \`penumbra exec\` prints no summary: its column is the tree's."
echo
echo "| program | command | paths | instructions | wall s | peak RSS MiB |"
echo "|---|---|---|---|---|---|"
f=benches/programs/concrete_loop.c
read -r wall _ _ mib < <(measure "$bin" exec "$f")
echo "| concrete_loop.c (30M iterations) | \`penumbra exec\` (concrete interpreter) | 1 | | $wall | $mib (clang) |"
read -r paths instructions mib < <(field "$bin" run "$f" --no-tests -- "d['paths_completed'], d['instructions'], round(d['peak_rss_mb'], 1)")
read -r wall _ _ _ < <(measure "$bin" run "$f" --no-tests)
echo "| concrete_loop.c (30M iterations) | \`penumbra run --no-tests\` | $paths | $instructions | $wall | $mib |"
f=benches/programs/memset128.c
read -r paths stopped instructions mib < <(field "$bin" run "$f" --no-tests --max-memory 200 -- \
    "d['paths_completed'], d['stopped_by'], d['instructions'], round(d['peak_rss_mb'], 1)")
read -r wall _ _ _ < <(measure "$bin" run "$f" --no-tests --max-memory 200)
echo "| memset128.c (memset and memcpy of 128 MiB) | \`penumbra run --no-tests --max-memory 200\` | $paths (stopped by: $stopped) | $instructions | $wall | $mib |"

echo
echo "### Time budget (solver_loop.c: nonlinear queries in a loop, unbounded)"
echo
echo "| --max-time | stopped by | wall s (from outside) |"
echo "|---|---|---|"
f=benches/programs/solver_loop.c
for t in 1 2 5; do
    stopped=$(field "$bin" run "$f" --no-tests --max-time "$t" -- "d['stopped_by']")
    read -r wall _ _ _ < <(measure "$bin" run "$f" --no-tests --max-time "$t")
    echo "| $t | $stopped | $wall |"
done

echo
echo "### Small-domain queries (gcd mutants over [-100, 100]: 40,401 input pairs)"
echo
echo "gcd100_m1 and gcd100_m1234 are made here from benches/suite/gcd_m1.c and gcd_m1234.c the way"
echo "gcd100_m2.c and gcd100_m24.c were (the two assumptions widened)."
echo
echo "Wall times are the runs' own (exploration, compiling excluded): the median of the runs with the"
echo "range solver, one run of Bitwuzla alone (which stops at 90 s)."
echo
echo "| mutant | solver | diff paths | queries reaching Bitwuzla | decided by the range solver | wall s |"
echo "|---|---|---|---|---|---|"
for m in m1 m2 m24 m1234; do
    f=benches/suite/gcd100_$m.c
    if [ ! -f "$f" ]; then
        sed -e 's/(num >= 1 \&\& num <= 12)/(num >= -100 \&\& num <= 100)/' \
            -e 's/(den >= 1 \&\& den <= 12)/(den >= -100 \&\& den <= 100)/' "benches/suite/gcd_$m.c" > "$scratch/gcd100_$m.c"
        grep -q 'num >= -100' "$scratch/gcd100_$m.c"
        f=$scratch/gcd100_$m.c
    fi
    for solver in enumeration bitwuzla; do
        flags=(--no-tests --max-time 90)
        [ $solver = bitwuzla ] && flags+=(--no-range-solver)
        read -r diff core hits stopped wall < <(field "$bin" shadow "$f" "${flags[@]}" -- \
            "d['diff_paths'], d['solver']['core_queries'], d['solver']['range_solver']['hits'], d['stopped_by'], round(d['wall_s'], 2)")
        # Bitwuzla alone can take minutes: one run. With the range solver: the median of REPEATS.
        if [ $solver = enumeration ]; then
            wall=$(for _ in $(seq "$repeats"); do field "$bin" shadow "$f" "${flags[@]}" -- "round(d['wall_s'], 3)"; done |
                sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
        fi
        [ "$stopped" != None ] && wall="$wall (stopped by $stopped)"
        label="range solver (enumeration)"
        [ $solver = bitwuzla ] && label="Bitwuzla only (\`--no-range-solver\`)"
        echo "| gcd100_$m | $label | $diff | $core | $hits | $wall |"
    done
done
