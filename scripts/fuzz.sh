#!/usr/bin/env bash
# Runs penumbra's cargo-fuzz targets under libFuzzer on the stable toolchain and prints one
# Markdown row per target for results/fuzz.md: executions, seconds, executions per second,
# coverage, corpus size, and whether libFuzzer found anything.
#
# Usage: bash scripts/fuzz.sh SECONDS [TARGET...]     (default: every target, one after another)
# A finding is saved in fuzz/artifacts/TARGET/; once fixed, copy it to fuzz/regressions/TARGET/
# under a name that says what it found: the test suite replays every file there.
#   e.g. bash scripts/fuzz.sh 3600 shadow             (one hour of the shadow target)
#
# Installs cargo-fuzz if it is missing. Each target keeps its corpus in fuzz/corpus/TARGET
# (so a second run continues where the first stopped) and writes findings to
# fuzz/artifacts/TARGET; libFuzzer's own log goes to fuzz/logs/TARGET.log. A finding makes the
# row say so and the script exit 1; `cargo run -p penumbra-fuzz-checks --bin fuzz-driver --
# TARGET --replay fuzz/artifacts/TARGET/crash-...` reruns it with a readable description.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:?usage: bash scripts/fuzz.sh SECONDS [TARGET...]}
shift
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
if (($# == 0)); then
    set -- $(cargo fuzz list)
fi

# `-s none`: -Zsanitizer needs nightly (`RUSTC_BOOTSTRAP=1 cargo fuzz run TARGET` adds
# AddressSanitizer); coverage guidance works without it. -O: release code, as users run it.
cargo fuzz build -s none -O >&2
bin_dir=fuzz/target/$(rustc -vV | awk '/^host:/ {print $2}')/release
mkdir -p fuzz/logs
echo "| target | executions | seconds | executions/s | coverage (edges) | corpus | finding |"
echo "|---|---|---|---|---|---|---|"
status=0
for target in "$@"; do
    mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
    log="fuzz/logs/$target.log"
    found=no
    # -rss_limit_mb: the frontend target runs clang, whose memory libFuzzer also counts.
    started=$(date +%s)
    # The binary built above, run directly: later edits to the sources do not rebuild it midway.
    if ! "$bin_dir/$target" -artifact_prefix="fuzz/artifacts/$target/" -max_total_time="$seconds" \
        -rss_limit_mb=4096 -print_final_stats=1 "fuzz/corpus/$target" >"$log" 2>&1; then
        found="yes: see $log"
        status=1
    fi
    runs=$(awk '/^stat::number_of_executed_units:/ {print $2}' "$log" | tail -1)
    secs=$(( $(date +%s) - started ))
    rate=$(awk '/^stat::average_exec_per_sec:/ {print $2}' "$log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}')
    corpus=$(find "fuzz/corpus/$target" -type f | wc -l)
    echo "| $target | ${runs:-?} | ${secs:-?} | ${rate:-?} | ${cov:-?} | $corpus | $found |"
done
exit $status
