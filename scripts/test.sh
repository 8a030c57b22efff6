#!/usr/bin/env bash
# Runs penumbra's whole test suite on a fresh machine: installs what is missing, checks the
# formatting (`cargo fmt --check`, the repository's rustfmt.toml) and the lints (`cargo clippy
# -D warnings`), then runs every test of the workspace (unit, integration, and the bounded fuzz
# loops) and the doc-tests, and ends with one line totalling them, `tests: N passed, M failed`.
# Any formatting difference or lint fails the run like a failing test.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh || exit 1

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

# The fuzz targets are a crate of their own outside the workspace: check their files directly.
if cargo fmt --all -- --check && rustfmt --edition 2021 --check fuzz/fuzz_targets/*.rs; then
    echo "fmt: clean"
else
    echo "fmt: the tree differs from rustfmt.toml (run: cargo fmt --all)"
    status=1
fi
if cargo clippy --workspace --all-targets -- -D warnings; then
    echo "clippy: clean"
else
    echo "clippy: warnings above (the lints run with -D warnings)"
    status=1
fi
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
