#!/usr/bin/env bash
# Regenerates the numbers of results/engine.md (issue 4's benchmarks of `penumbra run`): caches
# on and off, paths per second with and without writing tests, peak memory of a long DFS run,
# queries reaching Bitwuzla on range5k, and determinism. Prints Markdown on stdout.
# Usage: bash scripts/bench-engine.sh [REPEATS]   (wall times: best and median of REPEATS runs)
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
cargo build --release -p penumbra >&2
bin=target/release/penumbra
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# summary CMD...: one run's `--json` summary reduced to the fields the tables use, as
# "paths core_queries queries qc_rate cex_rate indep_rate wall_s peak_mib".
summary() {
    "$@" --json 2>/dev/null | python3 -c "
import json,sys; d=json.load(sys.stdin); s=d['solver']
print(d['paths_completed'], s['core_queries'], s['queries'], s['query_cache']['hit_rate'], s['cex_cache']['hit_rate'],
      s['independence']['hit_rate'], s['range_solver']['hit_rate'], d['wall_s'], d['peak_rss_mb'])"
}

# best_median: "BEST MEDIAN" of the numbers on stdin, one a line.
best_median() {
    sort -n | awk '{a[NR]=$0} END {print a[1], a[int((NR+1)/2)]}'
}

# wall CMD...: "BEST MEDIAN" wall time (s) of REPEATS runs, from the human summary.
wall() {
    for _ in $(seq "$repeats"); do
        "$@" 2>/dev/null | awk '/^  wall time/ {print $3}'
    done | best_median
}

echo "Machine: $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p')), $(free -g | awk '/^Mem:/ {print $2}') GiB RAM," \
    "$(. /etc/os-release && echo "$PRETTY_NAME"), $(rustc --version | cut -d' ' -f1-2); commit $(git rev-parse --short HEAD);" \
    "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "### Caches on and off"
echo
echo "| program | caches | paths | queries | reaching Bitwuzla | query cache hits | cex cache hits | independence splits | range solver decided | wall s (best / median) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for p in range5k keywords tokens; do
    f=benches/programs/$p.c
    for mode in on query-cache-only cex-cache-only independence-only range-solver-only off; do
        case $mode in
            on) flags=() ;;
            off) flags=(--no-query-cache --no-cex-cache --no-independence --no-range-solver) ;;
            query-cache-only) flags=(--no-cex-cache --no-independence --no-range-solver) ;;
            cex-cache-only) flags=(--no-query-cache --no-independence --no-range-solver) ;;
            independence-only) flags=(--no-query-cache --no-cex-cache --no-range-solver) ;;
            range-solver-only) flags=(--no-query-cache --no-cex-cache --no-independence) ;;
        esac
        read -r paths core queries qc cex ind rng _ _ < <(summary "$bin" run "$f" --no-tests "${flags[@]}")
        read -r best med < <(wall "$bin" run "$f" --no-tests "${flags[@]}")
        python3 -c "print(f'| $p | $mode | $paths | $queries | $core | {100*$qc:.1f} % | {100*$cex:.1f} % | {100*$ind:.1f} % | {100*$rng:.1f} % | $best / $med |')"
    done
done

echo
echo "### Paths per second (range16: 65,536 paths over a 16-byte buffer, DFS)"
echo
echo "| tests | paths | wall s (best / median) | paths/s (best / median) | user s / sys s (median run) |"
echo "|---|---|---|---|---|"
f=benches/programs/range16.c
read -r paths _ < <(summary "$bin" run "$f" --no-tests)
# timed_runs MODE: REPEATS runs of range16.c, sorted, each "WALL USER SYS" (WALL from the
# summary, USER and SYS from /usr/bin/time); MODE is `tests` (into a fresh directory), `all`
# (the same with a .ktest file per test, --all-ktests) or `none`.
timed_runs() {
    for i in $(seq "$repeats"); do
        case $1 in
        tests) out=(--output-dir "$scratch/t$i") ;;
        all) out=(--output-dir "$scratch/t$i" --all-ktests) ;;
        *) out=(--no-tests) ;;
        esac
        /usr/bin/time -f "%U %S" -o "$scratch/time" "$bin" run "$f" "${out[@]}" 2>/dev/null |
            awk '/^  wall time/ {printf "%s ", $3}'
        cat "$scratch/time"
        rm -rf "$scratch/t$i"
    done | sort -n
}
for mode in none tests all; do
    runs=$(timed_runs $mode)
    read -r best _ _ < <(head -1 <<<"$runs")
    read -r med user sys < <(sed -n "$(((repeats + 1) / 2))p" <<<"$runs")
    label="not written"
    [ $mode = tests ] && label="written (tests.jsonl)"
    [ $mode = all ] && label="written (a .ktest each + tests.jsonl)"
    python3 -c "print(f'| $label | $paths | $best / $med | {$paths/$best:,.0f} / {$paths/$med:,.0f} | $user / $sys |')"
done
# The floor the file system sets: a C loop creating as many .ktest-sized files in one directory.
read -r fbest fmed < <(bash "$(dirname "$0")/fs-floor.sh" "$scratch" "$repeats" | cut -d' ' -f1 | best_median)
echo
echo "File-system floor: a C loop creating 65,536 files of 82 bytes in one directory takes $fbest s (best), $fmed s (median)."

echo
echo "### Peak memory of a long DFS run (range17: 131,072 paths)"
echo
f=benches/programs/range17.c
read -r paths _ _ _ _ _ _ _ mib < <(summary "$bin" run "$f" --no-tests)
own=$("$bin" run "$f" --no-tests 2>/dev/null | awk '/^  peak memory/ {print $3}')
/usr/bin/time -v -o "$scratch/timev" "$bin" run "$f" --no-tests > /dev/null 2>&1
tree=$(awk '/Maximum resident set size/ {printf "%.1f", $6 / 1024}' "$scratch/timev")
echo "| measured as | paths | peak RSS MiB |"
echo "|---|---|---|"
echo "| the engine's own VmHWM (\`run --no-tests\`, human summary) | $paths | $own |"
echo "| the engine's own VmHWM with \`--json\` (that summary lists every test record) | $paths | $(printf '%.1f' "$mib") |"
echo "| \`/usr/bin/time -v\` maximum resident set size (the largest process of the tree: clang-15) | $paths | $tree |"

echo
echo "### Determinism"
echo
cd "$scratch"
"$OLDPWD/$bin" run "$OLDPWD/benches/programs/keywords.c" --output-dir A > A.txt 2>/dev/null
"$OLDPWD/$bin" run "$OLDPWD/benches/programs/keywords.c" --output-dir B > B.txt 2>/dev/null
echo "keywords.c run twice into A and B ($(ls A | wc -l) files each), summaries in A.txt and B.txt:"
echo
echo '```'
echo '$ diff -r A B; echo "exit $?"'
diff -r A B && echo "exit 0" || echo "exit $?"
times=(-e 'wall time' -e 'peak memory' -e 'solver time' -e 'tests written')
echo "\$ diff <(grep -v -e 'wall time' -e 'peak memory' -e 'solver time' -e 'tests written' A.txt) <(grep ... B.txt); echo \"exit \$?\""
diff <(grep -v "${times[@]}" A.txt) <(grep -v "${times[@]}" B.txt) && echo "exit 0" || echo "exit $?"
echo '```'
