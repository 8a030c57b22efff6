#!/usr/bin/env bash
# Regenerates the numbers of results/engine.md (issue 4's benchmarks of `penumbra run`): caches
# on and off, paths per second with and without writing tests, peak memory of a long DFS run,
# queries reaching Bitwuzla on range5k, and determinism. Prints Markdown on stdout.
# Usage: bash scripts/bench-engine.sh [REPEATS]   (wall times are the median of REPEATS runs)
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
      s['independence']['hit_rate'], d['wall_s'], d['peak_rss_mb'])"
}

# median_wall CMD...: the median wall time (s) of REPEATS runs, from the human summary (the
# human summary keeps no test records, so memory is the engine's own).
median_wall() {
    for _ in $(seq "$repeats"); do
        "$@" 2>/dev/null | awk '/^  wall time/ {print $3}'
    done | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'
}

off=(--no-query-cache --no-cex-cache --no-independence)

echo "### Caches on and off"
echo
echo "| program | caches | paths | queries | reaching Bitwuzla | query cache hits | cex cache hits | independence splits | wall s (median) |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in range5k keywords tokens; do
    f=benches/programs/$p.c
    for mode in on query-cache-only cex-cache-only independence-only off; do
        case $mode in
            on) flags=() ;;
            off) flags=("${off[@]}") ;;
            query-cache-only) flags=(--no-cex-cache --no-independence) ;;
            cex-cache-only) flags=(--no-query-cache --no-independence) ;;
            independence-only) flags=(--no-query-cache --no-cex-cache) ;;
        esac
        read -r paths core queries qc cex ind _ _ < <(summary "$bin" run "$f" --no-tests "${flags[@]}")
        wall=$(median_wall "$bin" run "$f" --no-tests "${flags[@]}")
        python3 -c "print(f'| $p | $mode | $paths | $queries | $core | {100*$qc:.1f} % | {100*$cex:.1f} % | {100*$ind:.1f} % | $wall |')"
    done
done
echo
echo "### Paths per second (range16: 65,536 paths over a 16-byte buffer, DFS)"
echo
echo "| tests | paths | wall s (median) | paths/s |"
echo "|---|---|---|---|"
f=benches/programs/range16.c
read -r paths _ < <(summary "$bin" run "$f" --no-tests)
w=$(median_wall "$bin" run "$f" --no-tests)
python3 -c "print(f'| not written | $paths | $w | {$paths/$w:,.0f} |')"
w=$(for i in $(seq "$repeats"); do rm -rf "$scratch/t$i"; "$bin" run "$f" --output-dir "$scratch/t$i" 2>/dev/null | awk '/^  wall time/ {print $3}'; rm -rf "$scratch/t$i"; done | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
python3 -c "print(f'| written (.ktest + tests.jsonl) | $paths | $w | {$paths/$w:,.0f} |')"
echo
echo "### Peak memory of a long DFS run (range17: 131,072 paths)"
echo
read -r paths _ _ _ _ _ wall mib < <(summary "$bin" run benches/programs/range17.c --no-tests)
echo "| paths | wall s | peak RSS MiB |"
echo "|---|---|---|"
echo "| $paths | $wall | $mib |"
echo
echo "### Determinism"
echo
"$bin" run benches/programs/keywords.c --output-dir "$scratch/a" > "$scratch/a.txt" 2>/dev/null
"$bin" run benches/programs/keywords.c --output-dir "$scratch/b" > "$scratch/b.txt" 2>/dev/null
n=$(ls "$scratch/a" | wc -l)
if diff -r "$scratch/a" "$scratch/b" > /dev/null &&
    diff <(grep -v -e 'wall time' -e 'peak memory' -e 'solver time' -e 'tests written' "$scratch/a.txt") \
         <(grep -v -e 'wall time' -e 'peak memory' -e 'solver time' -e 'tests written' "$scratch/b.txt") > /dev/null; then
    echo "keywords.c run twice: all $n files of the two output directories and the summaries (times aside) are byte-identical."
else
    echo "keywords.c run twice: the outputs DIFFER."
fi
