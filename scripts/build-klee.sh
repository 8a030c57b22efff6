#!/usr/bin/env bash
# build-klee.sh: builds KLEE with its POSIX runtime and klee-uclibc on this machine, for the
# side-by-side measurements of issue 38 (scripts/klee-coverage.py), as ../shared/klee.md's
# recipe: KLEE 3.3-pre on LLVM 15 with Z3, klee-uclibc without locale data (its build would
# download it). Prints KLEE's binary. Once built (stamped), it is reused.
#   KLEE_GIT=DIR KLEE_UCLIBC_GIT=DIR bash scripts/build-klee.sh
# KLEE_GIT and KLEE_UCLIBC_GIT are clones or bare git directories of GitHub's klee/klee and
# klee/klee-uclibc; WORK (default ~/.cache/penumbra/klee) holds the sources and builds. About
# 16 minutes on 2 cores (1.5 for klee-uclibc, the rest KLEE and its runtimes).
set -euo pipefail
work=${WORK:-$HOME/.cache/penumbra/klee}
klee=$work/build/bin/klee
# Without the sources named, a build made before serves.
if [[ -z ${KLEE_GIT:-} && -z ${KLEE_UCLIBC_GIT:-} && -x $klee && -f $work/.built ]]; then
    echo "$klee"
    exit 0
fi
: "${KLEE_GIT:?set KLEE_GIT to a clone or bare git directory of klee/klee}"
: "${KLEE_UCLIBC_GIT:?set KLEE_UCLIBC_GIT to a clone or bare git directory of klee/klee-uclibc}"
git_dir() { git -C "$1" rev-parse --absolute-git-dir 2>/dev/null || echo "$1"; }
stamp="$(git --git-dir="$(git_dir "$KLEE_GIT")" rev-parse HEAD) $(git --git-dir="$(git_dir "$KLEE_UCLIBC_GIT")" rev-parse HEAD)"
if [[ -x $klee && -f $work/.built && $(cat "$work/.built") == "$stamp" ]]; then
    echo "$klee"
    exit 0
fi

packages=(clang-15 llvm-15-dev llvm-15-tools libz3-dev z3 cmake libsqlite3-dev zlib1g-dev
          libgoogle-perftools-dev libcap-dev ninja-build python3-tabulate)
missing=()
for p in "${packages[@]}"; do
    [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true) == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
    if [[ $(id -u) -eq 0 ]]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >&2
    else
        echo "build-klee: missing packages; run: sudo apt-get install ${missing[*]}" >&2
        exit 1
    fi
fi

checkout() { # checkout GIT DIR: the repository's HEAD as a plain tree in DIR
    rm -rf "$2"
    mkdir -p "$2"
    # A mirror may lack a blob the build never reads (klee/klee's
    # utils/data/Queries/pcresymperf-4.kquery): every other file is written, and the tree's
    # CMakeLists.txt or configure is checked for.
    git --git-dir="$(git_dir "$1")" --work-tree="$2" checkout -f HEAD -- . 2>"$2.checkout.log" || true
    if [[ ! -f $2/CMakeLists.txt && ! -f $2/configure ]]; then
        echo "build-klee: cannot check out $1 into $2: $2.checkout.log" >&2
        exit 1
    fi
}
mkdir -p "$work"
echo "build-klee: klee-uclibc (about 1.5 minutes)" >&2
checkout "$KLEE_UCLIBC_GIT" "$work/klee-uclibc"
(
    cd "$work/klee-uclibc"
    ./configure --make-llvm-lib --with-cc=clang-15 --with-llvm-config=llvm-config-15 >configure.log 2>&1
    # Its make would download the locale data (uClibc-locale-030818.tgz): built without locale,
    # which KLEE's runs in the C locale do not need.
    sed -i -e 's/^UCLIBC_HAS_LOCALE=y/# UCLIBC_HAS_LOCALE is not set/' -e '/^UCLIBC_PREGENERATED_LOCALE_DATA=y/d' \
        -e '/^UCLIBC_DOWNLOAD_PREGENERATED_LOCALE_DATA=y/d' -e 's/^UCLIBC_HAS_XLOCALE=y/# UCLIBC_HAS_XLOCALE is not set/' .config
    make -j"$(nproc)" >make.log 2>&1 || { echo "build-klee: klee-uclibc's make failed: $PWD/make.log" >&2; exit 1; }
)
echo "build-klee: KLEE and its runtimes (about 14 minutes)" >&2
checkout "$KLEE_GIT" "$work/klee-src"
rm -rf "$work/build"
mkdir -p "$work/build"
(
    cd "$work/build"
    # LLVMCC and LLVMCXX as absolute paths: a bare name is taken relative to the build directory.
    cmake -G Ninja -DCMAKE_BUILD_TYPE=Release -DENABLE_SOLVER_Z3=ON -DENABLE_SOLVER_STP=OFF \
        -DENABLE_POSIX_RUNTIME=ON -DKLEE_UCLIBC_PATH="$work/klee-uclibc" -DENABLE_UNIT_TESTS=OFF \
        -DENABLE_SYSTEM_TESTS=OFF -DLLVM_CONFIG_BINARY=llvm-config-15 -DLLVMCC=/usr/bin/clang-15 \
        -DLLVMCXX=/usr/bin/clang++-15 -DENABLE_TCMALLOC=ON "$work/klee-src" >cmake.log 2>&1 ||
        { echo "build-klee: cmake failed: $PWD/cmake.log" >&2; exit 1; }
    ninja -j"$(nproc)" bin/klee runtime/BuildKLEERuntimes >ninja.log 2>&1 ||
        { echo "build-klee: the build failed: $PWD/ninja.log" >&2; exit 1; }
)
# coreutils 9.1 configured on glibc 2.36 calls two functions klee-uclibc lacks: linked in as
# bitcode (`--link-llvm-lib`), so that KLEE does not call the host's on its own heap.
cat >"$work/stubs.c" <<'EOF'
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
void *reallocarray(void *p, size_t n, size_t s) {
  if (s && n > SIZE_MAX / s) { errno = ENOMEM; return 0; }
  return realloc(p, n * s);
}
void explicit_bzero(void *p, size_t n) { memset(p, 0, n); }
EOF
clang-15 -emit-llvm -c -g -O0 -Xclang -disable-O0-optnone "$work/stubs.c" -o "$work/stubs.bc"
printf '%s' "$stamp" >"$work/.built"
echo "$klee"
