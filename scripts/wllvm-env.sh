# Source this file (`. scripts/wllvm-env.sh`) to build a real program for penumbra with wllvm,
# the compiler wrapper scripts/install-deps.sh installs: `CC=wllvm` compiles natively (so
# configure's checks and the native binaries work) and records each object's bitcode, and
# `extract-bc BINARY` then writes BINARY.bc, the whole program, for `penumbra run BINARY.bc`.
#   . scripts/wllvm-env.sh
#   FORCE_UNSAFE_CONFIGURE=1 ./configure CC=wllvm CFLAGS="$PENUMBRA_CFLAGS"   # as root: see README
#   make && extract-bc src/cut && penumbra run src/cut.bc --sym-args 0 2 4
# `. scripts/wllvm-env.sh musl` builds against musl instead (scripts/musl-clang-15: musl's
# headers, static musl binaries), for `penumbra run --libc musl BINARY.bc`.
export PATH="${PENUMBRA_WLLVM_VENV:-$HOME/.cache/penumbra/wllvm}/bin:$PATH"
export LLVM_COMPILER=clang LLVM_CC_NAME=clang-15 LLVM_CXX_NAME=clang++-15 LLVM_LINK_NAME=llvm-link-15 \
    LLVM_AR_NAME=llvm-ar-15
if [ "${1:-}" = musl ]; then
    PATH="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd):$PATH"
    export LLVM_CC_NAME=musl-clang-15
fi
# Unoptimised code with debug lines, which optimisers may still transform (as penumbra's own).
export PENUMBRA_CFLAGS="-O0 -g -Xclang -disable-O0-optnone"
