#!/usr/bin/env bash
# Writes engine/src/libc/musl-functions.txt: the functions musl's bitcode (scripts/build-musl.sh)
# defines for programs, one name a line, sorted. The engine's binding table reads the list to
# tell, under `--libc models`, that a function it does not model is one `--libc musl` provides.
# Names beginning with `__` are musl's internals and are left out. Run again when the musl
# version (MUSL_VERSION in ir-frontend/src/frontend/compile.rs) changes; the engine test
# `the_musl_list_is_musls` compares the list with the build when one is present.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${PENUMBRA_MUSL_DIR:-$HOME/.cache/penumbra/musl-1.2.3}
if [[ ! -f $dir/BUILT ]]; then
    echo "musl-functions: no musl build in $dir (run scripts/build-musl.sh first)" >&2
    exit 1
fi
llvm-nm-15 --defined-only "$dir/libc.bc" | awk '$2 == "T" || $2 == "W" { print $3 }' | grep -v '^__' \
    | LC_ALL=C sort -u > "$root/engine/src/libc/musl-functions.txt"
echo "musl-functions: $(wc -l < "$root/engine/src/libc/musl-functions.txt") names"
