#!/usr/bin/env bash
# Builds musl (Debian's source package) as LLVM bitcode for penumbra, once, into a cache:
#   $PENUMBRA_MUSL_DIR (default ~/.cache/penumbra/musl-1.2.3)/
#     libc.bc      the C library as one module (mem2reg'd), linked into a program on demand
#     start.bc     penumbra's start glue and POSIX layer (runtime/musl/*.c), linked in whole
#     include/     musl's installed headers: programs compile with -nostdinc -isystem include
#     src/, glue/  musl's source and penumbra's glue, which the library's debug information names
#     BUILT        written last: its presence means the build above is complete
# The source comes from `apt-get source musl` through a private apt configuration
# (scripts/apt-source.sh): the system's apt sources are never edited. penumbra's arch layer (runtime/musl/arch: system calls go to the engine,
# atomics are plain, the thread pointer is a global) replaces the three x86_64 headers that
# hold inline assembly; every other x86_64 assembly file gives way to musl's generic C.
# Left out: src/malloc (the engine's own allocator keeps its bounds checks), memcpy, memmove
# and memset (the engine's models check a symbolic length against the objects once and fix it
# to a few values; musl's loops would fork on every byte of it: a bitmap of symbolic size
# zeroed by xzalloc took cut's whole budget in one-byte steps), the dynamic
# linker (ldso, src/ldso), crt (the engine starts the program itself) and thread
# cancellation. A program links start.bc whole, then libc.bc's needed functions only.
set -euo pipefail

version=1.2.3
root=$(cd "$(dirname "$0")/.." && pwd)
out=${PENUMBRA_MUSL_DIR:-$HOME/.cache/penumbra/musl-$version}
stamp_input=$(cat "$0" "$root"/runtime/musl/arch/*.h "$root"/runtime/musl/*.c | sha256sum | cut -c1-16)
if [[ -f $out/BUILT && $(cat "$out/BUILT") == "$stamp_input" ]]; then
    echo "penumbra: musl bitcode is built in $out"
    exit 0
fi
echo "penumbra: building musl $version as bitcode into $out (about a minute, once)"
# Built beside the cache and moved into place at the end: a failed build leaves the last good
# one (or none), never half of one.
final=$out
out=$final.building
rm -rf "$out"
work=$out/work
mkdir -p "$work"
unpacked=$(bash "$root/scripts/apt-source.sh" musl "$version-1" "$work")
# The source stays: reports inside the library name its files.
src=$out/src
mv "$unpacked" "$src"

# penumbra's arch layer in place of the inline-assembly headers.
cp "$root"/runtime/musl/arch/{syscall_arch,atomic_arch,pthread_arch}.h "$src/arch/x86_64/"

# Generated headers and the installed header tree.
(cd "$src" && ./configure -q --target=x86_64 CC=clang-15 >/dev/null \
    && make -s obj/include/bits/alltypes.h obj/include/bits/syscall.h obj/src/internal/version.h \
    && make -s install-headers DESTDIR="$out" prefix= includedir=/include >/dev/null)

flags=(-std=c99 -ffreestanding -nostdinc -D_XOPEN_SOURCE=700
       -I"$src/arch/x86_64" -I"$src/arch/generic" -I"$src/obj/src/internal" -I"$src/src/include"
       -I"$src/src/internal" -I"$src/obj/include" -I"$src/include"
       -O0 -Xclang -disable-O0-optnone -gline-tables-only -fno-stack-protector -w
       -fdebug-prefix-map="$out=$final")

# Every generic C file of the library (musl's Makefile takes the arch's .s/.c in their place;
# we take none of them).
# pthread_cancel.c would replace the plain system calls of every cancellation point by
# assembly (__syscall_cp_asm): with one thread there is nothing to cancel.
# Of src/malloc only the plain C over the allocator's entry points: reallocarray (over
# realloc), memalign and posix_memalign (over aligned_alloc, runtime/musl/penumbra_alloc.c).
mapfile -t files < <(cd "$src" && ls src/*/*.c | grep -v -e '^src/malloc/' -e '^src/ldso/' \
    -e '^src/thread/pthread_cancel.c$' -e '^src/string/mem\(cpy\|move\|set\)\.c$'; printf 'src/malloc/%s.c\n' reallocarray memalign posix_memalign)
mapfile -t files < <(printf '%s\n' "${files[@]}" | sort)
mkdir -p "$work/bc"
# The string functions that read memory a word at a time (past the end of a string, within
# its aligned word: harmless on hardware, an out-of-bounds read to the engine) do so only for
# GNU C: without __GNUC__ they take their byte loops.
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -I{} sh -c '
    f={}; extra=""
    grep -q __may_alias__ "'"$src"'/$f" && extra=-U__GNUC__
    clang-15 "$@" $extra -c -emit-llvm "'"$src"'/$f" -o "'"$work"'/bc/$(echo "$f" | tr / _).bc"' _ "${flags[@]}"
# The glue's debug paths point into the build too (glue/), so every function of the library
# names a file under it: penumbra reports what happens inside them at the program's call.
mkdir -p "$out/glue"
cp "$root"/runtime/musl/*.c "$out/glue/"
for glue in penumbra_start penumbra_posix penumbra_alloc; do
    clang-15 "${flags[@]}" -fdebug-prefix-map="$root/runtime/musl=$final/glue" \
        -c -emit-llvm "$root/runtime/musl/$glue.c" -o "$work/$glue.bc"
done
llvm-link-15 "$work/penumbra_start.bc" "$work/penumbra_posix.bc" "$work/penumbra_alloc.bc" -o "$work/start.bc"

llvm-link-15 "$work"/bc/*.bc -o "$work/libc-linked.bc"
opt-15 -passes=mem2reg "$work/libc-linked.bc" -o "$out/libc.bc"
opt-15 -passes=mem2reg "$work/start.bc" -o "$out/start.bc"
rm -rf "$work"
echo "$stamp_input" > "$out/BUILT"
rm -rf "$final"
mv "$out" "$final"
echo "penumbra: musl bitcode built: $(llvm-nm-15 --defined-only "$final/libc.bc" | grep -c ' [TW] ') functions in $final/libc.bc"
