#!/usr/bin/env bash
# eval-coreutils.sh [UTILITY...]: issue 16's evaluation of penumbra on GNU coreutils 9.1.
#
# Builds Debian's coreutils 9.1 twice from one source package: on musl with wllvm (the README's
# recipe: the bitcode penumbra explores and the static native binaries) and with gcc --coverage
# (gcov). Then, per utility: `penumbra run --libc musl` with KLEE's coreutils environment for
# SECONDS seconds, writing tests; SAMPLE tests, evenly spaced, run natively on the musl binary
# and under `penumbra exec --ktest`, their stdout and exit status compared with each other and
# the status with the one penumbra recorded; then up to COVERAGE_TESTS tests, evenly spaced,
# run on the gcov build for the line coverage of the utility's own source. Standard input and
# output are regular files natively, as in penumbra's model.
#
# Writes results/coreutils.md (the table, the command, the machine) and results/coreutils.json.
# Environment: SECONDS_PER_UTILITY (60), SEARCH (dfs; another searcher writes
# results/coreutils-SEARCH.md), SAMPLE (200), COVERAGE_TESTS (20000), THROUGHPUT_PATHS
# (100000: cut's first paths run with and without tests, 3 times each; 0 skips), WORK (where the
# builds and runs go: ~/.cache/penumbra/coreutils-eval; each run's directory is deleted after
# it is measured), PENUMBRA (the binary: target/release/penumbra).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-$HOME/.cache/penumbra/coreutils-eval}
seconds=${SECONDS_PER_UTILITY:-60}
search=${SEARCH:-dfs}
# The default searcher's results are results/coreutils.md; another's, results/coreutils-SEARCH.md.
name=coreutils
[ "$search" = dfs ] || name=coreutils-$search
sample=${SAMPLE:-200}
coverage_tests=${COVERAGE_TESTS:-20000}
penumbra=${PENUMBRA:-$root/target/release/penumbra}
utilities=("$@")
if [ ${#utilities[@]} -eq 0 ]; then
    utilities=(cut expr head tail wc tr cat echo printf basename dirname fold join paste sort uniq od nl comm tac)
fi
[ -x "$penumbra" ] || (cd "$root" && cargo build --release -q)
mkdir -p "$work"

WORK=$work bash "$root/scripts/coreutils-tree.sh" musl gcov >/dev/null

results=$work/$name.jsonl
: >"$results"
for u in "${utilities[@]}"; do
    echo "eval-coreutils: $u" >&2
    (. "$root/scripts/wllvm-env.sh" musl && cd "$work/musl/src" && extract-bc -o "$work/$u.bc" "$u" >/dev/null)
    python3 "$root/scripts/coreutils_eval.py" utility --penumbra "$penumbra" --bitcode "$work/$u.bc" \
        --native "$work/musl/src/$u" --gcov-tree "$work/gcov" --utility "$u" --seconds "$seconds" --search "$search" \
        --sample "$sample" --coverage-tests "$coverage_tests" --out "$work/out-$u" >>"$results"
    rm -rf "$work/out-$u"
done
# Issue 15's whole-utility figure: cut's first THROUGHPUT_PATHS paths with and without tests.
throughput_paths=${THROUGHPUT_PATHS:-100000}
throughput=()
if [ "$throughput_paths" -gt 0 ]; then
    echo "eval-coreutils: cut's first $throughput_paths paths, with and without tests" >&2
    [ -f "$work/cut.bc" ] || (. "$root/scripts/wllvm-env.sh" musl && cd "$work/musl/src" && extract-bc -o "$work/cut.bc" cut >/dev/null)
    python3 "$root/scripts/coreutils_eval.py" throughput --penumbra "$penumbra" --bitcode "$work/cut.bc" \
        --utility cut --paths "$throughput_paths" --repeat 3 >"$work/throughput.json"
    throughput=(--throughput "$work/throughput.json")
fi
command="bash scripts/eval-coreutils.sh $*"
[ "$search" = dfs ] || command="SEARCH=$search THROUGHPUT_PATHS=$throughput_paths $command"
python3 "$root/scripts/coreutils_eval.py" report --results "$results" --seconds "$seconds" --sample "$sample" \
    --coverage-tests "$coverage_tests" --command "$command" --search "$search" \
    --markdown "$root/results/$name.md" --json "$root/results/$name.json" "${throughput[@]}"
echo "eval-coreutils: wrote results/$name.md" >&2
