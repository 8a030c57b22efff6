#!/usr/bin/env bash
# Runs penumbra's whole test suite on a fresh machine: installs what is missing, then runs every
# test of the workspace (unit, integration, and the bounded fuzz loops) and the doc-tests, and
# ends with one line totalling them, `tests: N passed, M failed`.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh || exit 1

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --workspace --all-targets 2>&1 | tee -a "$log" || status=1
cargo test --workspace --doc 2>&1 | tee -a "$log" || status=1

# Sum cargo's per-binary `test result:` lines into one total.
read -r passed failed < <(awk '/^test result:/ {
        for (i = 1; i <= NF; i++) { if ($(i) ~ /^passed;?$/) p += $(i-1); if ($(i) ~ /^failed;?$/) f += $(i-1) }
    } END { print p+0, f+0 }' "$log")
echo "tests: ${passed} passed, ${failed} failed"
if ((status != 0 || failed != 0 || passed == 0)); then
    exit 1
fi
