#!/usr/bin/env bash
# The newcomer's first command: installs what is missing, builds penumbra (release), and runs it
# on the bundled example `examples/threshold.c`, a patch that changes `x > 5` to `x > 10`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
cargo build --release -p penumbra
penumbra=target/release/penumbra
example=examples/threshold.c

echo
echo "== The patch, as one unified program (change(old, new) marks the edit):"
grep -n 'change' "$example"
echo
echo "== penumbra ir $example  (the IR penumbra executes; excerpt)"
"$penumbra" ir "$example" | sed -n '/^fn @classify/,/^}/p'
echo
for x in 0 7 15; do
    old=$("$penumbra" exec "$example" --version old --input x=$x)
    new=$("$penumbra" exec "$example" --version new --input x=$x)
    verdict=$([[ "$old" == "$new" ]] && echo "same" || echo "DIFFERENT")
    echo "== x = $x: old prints $old, new prints $new  ($verdict)"
done
