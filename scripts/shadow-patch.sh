#!/usr/bin/env bash
# shadow-patch.sh PATCH UTILITY [FLAGS...]: shadow execution of one annotated GNU coreutils 9.1
# patch, by hand (issue 18's first step; subjects/README.md says how to write PATCH).
#
# PATCH is a diff (-p1) against Debian's coreutils 9.1 tree that unifies the patch's two
# versions with penumbra.h's annotations. The script applies it to the musl wllvm build that
# scripts/eval-coreutils.sh makes (WORK, default ~/.cache/penumbra/coreutils-eval), rebuilds
# UTILITY there with penumbra.h on the include path, extracts UTILITY's whole-program bitcode,
# restores the tree (and UTILITY's build), and runs
#   penumbra shadow --libc musl UTILITY.bc FLAGS... --replay --output-dir WORK/shadow-UTILITY
# FLAGS are penumbra shadow's: the mode, seeds, --sym-args, budgets. Example:
#   scripts/shadow-patch.sh subjects/coreutils-9.1/dd-appenderrors/annotation.patch dd \
#     --mode seeded --seed n_args=1,arg00=str:oflag=append --sym-args 0 2 13 --max-time 60
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
patch_file=$(realpath "$1")
utility=$2
shift 2
work=${WORK:-$HOME/.cache/penumbra/coreutils-eval}
tree=$work/musl
[ -f "$tree/.penumbra-built" ] || {
    echo "shadow-patch: no coreutils build in $tree: run scripts/eval-coreutils.sh first (same WORK)" >&2
    exit 1
}
penumbra=${PENUMBRA:-$root/target/release/penumbra}
[ -x "$penumbra" ] || { echo "shadow-patch: build penumbra first (cargo build --release)" >&2; exit 1; }
. "$root/scripts/wllvm-env.sh" musl
cd "$tree"
patch -p1 --forward --quiet <"$patch_file"
# The files the patch changes, touched so that make recompiles them (an object's name need not
# be the utility's: basenc's is src/basenc-basenc.o).
mapfile -t changed < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$patch_file")
restore() {
    patch -p1 -R --quiet <"$patch_file"
    touch "${changed[@]}"
    rm -f "src/$utility"
    make "src/$utility" CFLAGS="$PENUMBRA_CFLAGS" >"$work/shadow-$utility-restore.log" 2>&1
}
trap restore EXIT
touch "${changed[@]}"
rm -f "src/$utility"
make "src/$utility" CFLAGS="$PENUMBRA_CFLAGS -I$root/ir-frontend/include" >"$work/shadow-$utility-make.log" 2>&1 || {
    echo "shadow-patch: building the annotated $utility failed: $work/shadow-$utility-make.log" >&2
    exit 1
}
extract-bc -o "$work/shadow-$utility.bc" "src/$utility"
out=$work/shadow-$utility
rm -rf "$out"
"$penumbra" shadow --libc musl "$work/shadow-$utility.bc" "$@" --replay --output-dir "$out"
