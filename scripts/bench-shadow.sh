#!/usr/bin/env bash
# Regenerates the numbers of results/shadow.md: complete shadow execution on the controller
# benchmark, the shadow overhead against `penumbra run` on programs without a semantic change,
# and the four-way checks answered without Bitwuzla. Prints Markdown tables on stdout.
# Usage: bash scripts/bench-shadow.sh [REPEATS]   (each number is the median of REPEATS runs)
set -euo pipefail
cd "$(dirname "$0")/.."
repeats=${1:-3}
cargo build --release -p penumbra >&2
bin=target/release/penumbra

# median CMD...: runs CMD REPEATS times (its human summary on stdout) and prints
# "WALL_S PEAK_MIB" of the run with the median wall time. The human summary is used because
# `--json` lists every test, which would make `penumbra run` keep every record in memory.
median() {
    for _ in $(seq "$repeats"); do
        "$@" 2>/dev/null | awk '/^  wall time/ {w=$3} /^  peak memory/ {m=$3} END {print w, m}'
    done | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'
}

echo "### Complete shadow execution"
echo
echo "| program | states | diff paths | four-way checks | without Bitwuzla | queries to Bitwuzla | wall s | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|---|"
for p in benches/programs/controller.c examples/foo.c examples/bar.c examples/threshold.c examples/offbyone.c; do
    read -r wall mib < <(median "$bin" shadow "$p" --no-tests)
    "$bin" shadow "$p" --no-tests --json 2>/dev/null | python3 -c "
import json,sys; d=json.load(sys.stdin); f=d['four_way']
print(f\"| {'$p'} | {d['states']} | {d['diff_paths']} | {f['checks']} | {100*f['without_core_rate']:.1f} % | {d['solver']['core_queries']} | $wall | $mib |\")"
done
echo
echo "### Shadow overhead on programs without a semantic change"
echo
echo "| program | run: wall s | shadow: wall s | time ratio | run: peak RSS MiB | shadow: peak RSS MiB | memory ratio |"
echo "|---|---|---|---|---|---|---|"
for p in benches/programs/controller_refactored.c benches/programs/range5k.c benches/programs/keywords.c benches/programs/tokens.c; do
    read -r rw rm < <(median "$bin" run "$p" --no-tests)
    read -r sw sm < <(median "$bin" shadow "$p" --no-tests)
    python3 -c "print(f'| $p | $rw | $sw | {$sw/$rw:.2f} | $rm | $sm | {$sm/$rm:.2f} |')"
done
echo
echo "### Four-way checks on the benchmark suite"
echo
echo "| mutants | four-way checks | without Bitwuzla | queries to Bitwuzla | decided by the range solver |"
echo "|---|---|---|---|---|"
for f in benches/suite/*.c; do
    "$bin" shadow "$f" --no-tests --json --max-time 30 2>/dev/null
done | python3 -c "
import json, sys
dec = json.JSONDecoder(); text = sys.stdin.read(); i = 0; n = checks = without = core = ranges = 0
while i < len(text):
    if text[i].isspace():
        i += 1; continue
    d, i = dec.raw_decode(text, i)
    n += 1; checks += d['four_way']['checks']; without += d['four_way']['without_core']
    core += d['solver']['core_queries']; ranges += d['solver']['range_solver']['hits']
print(f'| {n} | {checks} | {without} ({100*without/checks:.1f} %) | {core} | {ranges} |')"
