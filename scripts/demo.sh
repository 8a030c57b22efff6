#!/usr/bin/env bash
# The newcomer's first command: installs what is missing, builds penumbra (release), and runs
# shadow symbolic execution with native replay on two bundled example patches, printing the
# classified report of each, and ends by writing the first one's report.html (penumbra report).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cargo build --release -p penumbra
penumbra=target/release/penumbra

mkdir -p target/demo
echo
echo "================================================================================"
echo "== a patch as two versions of a file: examples/two-versions/{old,new}/offbyone.c"
echo "================================================================================"
diff -u examples/two-versions/old/offbyone.c examples/two-versions/new/offbyone.c || true
echo
echo "== penumbra unify old/offbyone.c new/offbyone.c -o target/demo/offbyone.c"
"$penumbra" unify examples/two-versions/old/offbyone.c examples/two-versions/new/offbyone.c -o target/demo/offbyone.c
grep -n 'change' target/demo/offbyone.c
echo
echo "== penumbra shadow target/demo/offbyone.c --replay"
rm -rf target/demo/offbyone
"$penumbra" shadow target/demo/offbyone.c --output-dir target/demo/offbyone --replay

for example in examples/foo.c; do
    name=$(basename "$example" .c)
    out=target/demo/$name
    rm -rf "$out"
    mkdir -p target/demo
    echo
    echo "================================================================================"
    echo "== $example: a patch annotated by hand (change(old, new) marks each edit)"
    echo "================================================================================"
    grep -n 'change' "$example"
    echo
    echo "== penumbra shadow $example --replay"
    "$penumbra" shadow "$example" --output-dir "$out" --replay
done
echo
echo "== penumbra report target/demo/offbyone: the tests grouped by difference, ranked, as a page"
"$penumbra" report target/demo/offbyone
echo
echo "Tests (.ktest and tests.jsonl) and report.json are in target/demo/*/."
echo "Open the report in a browser: file://$(pwd)/target/demo/offbyone/report.html"
echo "Next: penumbra shadow --help, penumbra replay --help, penumbra report --help, and the README."
