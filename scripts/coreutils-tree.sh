#!/usr/bin/env bash
# coreutils-tree.sh KIND...: builds Debian's coreutils 9.1 source package, configured and made
# once per KIND in WORK/KIND (stamped WORK/KIND/.penumbra-built), and prints each tree's path.
#   musl  CC=wllvm on musl (scripts/wllvm-env.sh musl): the bitcode penumbra explores, and
#         static native binaries
#   gcov  CC=gcc --coverage: line coverage of native runs
#   asan  CC=clang-15 with AddressSanitizer and UBSan (replay's flags: `penumbra replay
#         --print-build-flags`): the native old and new builds of a patch subject, and the runs
#         of the project's tests
#   klee  CC=wllvm on glibc's headers with the KLEE tutorial's flags: the bitcode KLEE explores
#         beside penumbra (scripts/klee-coverage.py)
# WORK defaults to ~/.cache/penumbra/coreutils-eval. A configure takes about 3 minutes here and
# a make about 2 (2 cores).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-$HOME/.cache/penumbra/coreutils-eval}
mkdir -p "$work"

# The analysis configuration of ../shared/real-programs.md (README): no optional libraries.
configure_flags=(--disable-nls --without-libgmp --with-included-regex --disable-threads --disable-acl
    --disable-xattr --without-selinux --disable-libcap --disable-libsmack --without-openssl)
# Replay's native build flags, as the binary prints them (PENUMBRA, default
# target/release/penumbra): UBSan reports and goes on, AddressSanitizer stays fatal.
build_flags() {
    local penumbra=${PENUMBRA:-$root/target/release/penumbra}
    "$penumbra" replay --print-build-flags | sed -n "s/^$1: //p"
}

src=$work/src/coreutils-9.1
if [ ! -d "$src" ]; then
    echo "coreutils-tree: fetching Debian's coreutils 9.1 source" >&2
    bash "$root/scripts/apt-source.sh" coreutils 9.1-1 "$work/src" >/dev/null
fi

# build TREE STAMP CONFIGURE-ARGS...: a copy of the source configured and made once (stamped with
# STAMP: a tree whose stamp says otherwise, built with other flags, is built again).
build() {
    local tree=$1 stamp=$2
    shift 2
    [ -f "$tree/.penumbra-built" ] && [ "$(cat "$tree/.penumbra-built")" = "$stamp" ] && return 0
    echo "coreutils-tree: building $tree (configure about 3 minutes, make about 2)" >&2
    rm -rf "$tree"
    cp -a "$src" "$tree"
    (cd "$tree" && FORCE_UNSAFE_CONFIGURE=1 ./configure "$@" "${configure_flags[@]}" >configure.log 2>&1) || {
        echo "coreutils-tree: configure failed in $tree: $tree/configure.log" >&2
        return 1
    }
    # wc's AVX2 line counter asks the CPU with `cpuid` (inline assembly penumbra does not run):
    # counted without it, as on a CPU without AVX2.
    sed -i 's|^#define USE_AVX2_WC_LINECOUNT 1|/* & (eval-coreutils: no cpuid) */|' "$tree/lib/config.h"
    (cd "$tree" && make -j"$(nproc)" >make.log 2>&1) || {
        echo "coreutils-tree: make failed in $tree: $tree/make.log" >&2
        return 1
    }
    printf '%s' "$stamp" >"$tree/.penumbra-built"
}

for kind in "$@"; do
    case $kind in
    musl) (. "$root/scripts/wllvm-env.sh" musl && build "$work/musl" "" CC=wllvm CFLAGS="$PENUMBRA_CFLAGS") ;;
    gcov) build "$work/gcov" "" CC=gcc CFLAGS="-O0 -g --coverage" ;;
    klee) (. "$root/scripts/wllvm-env.sh" && build "$work/klee" "" CC=wllvm \
        CFLAGS="-g -O1 -Xclang -disable-llvm-passes -D__NO_STRING_INLINES -D_FORTIFY_SOURCE=0 -U__OPTIMIZE__") ;;
    # Sanitized configure checks must not fail on leaks (a check that leaks is not a failing one).
    # Stamped with its flags: a tree built with non-recoverable UBSan (before issue 34) is rebuilt.
    asan)
        asan_flags=$(build_flags cflags) && asan_ldflags=$(build_flags ldflags) && [ -n "$asan_flags" ] || {
            echo "coreutils-tree: cannot ask ${PENUMBRA:-$root/target/release/penumbra} for replay's build flags" >&2
            exit 1
        }
        ASAN_OPTIONS=detect_leaks=0 build "$work/asan" "$asan_flags" CC=clang-15 CFLAGS="$asan_flags" LDFLAGS="$asan_ldflags" ;;
    *) echo "coreutils-tree: unknown tree kind $kind (musl, gcov, asan, klee)" >&2; exit 2 ;;
    esac
    echo "$work/$kind"
done
