#!/usr/bin/env bash
# The newcomer's first command: installs what is missing, builds penumbra (release), and runs
# shadow symbolic execution with native replay on two bundled example patches, printing the
# classified report of each.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cargo build --release -p penumbra
penumbra=target/release/penumbra

for example in examples/offbyone.c examples/foo.c; do
    name=$(basename "$example" .c)
    out=target/demo/$name
    rm -rf "$out"
    mkdir -p target/demo
    echo
    echo "================================================================================"
    echo "== $example: the patch, one unified program (change(old, new) marks each edit)"
    echo "================================================================================"
    grep -n 'change' "$example"
    echo
    echo "== penumbra shadow $example --replay"
    "$penumbra" shadow "$example" --output-dir "$out" --replay
done
echo
echo "Tests (.ktest and tests.jsonl) and report.json are in target/demo/*/."
echo "Next: penumbra shadow --help, penumbra replay --help, and the README."
