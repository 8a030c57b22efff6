#!/usr/bin/env bash
# gnulib-musl-stdio.sh LIBDIR: ports a gnulib of 2004-2012 in LIBDIR (a coreutils tree's lib/)
# to musl, in place; idempotent (a file already ported is left alone, mtime and all).
# gnulib of these years reads the FILE internals of the C libraries it knows and stops at
# `#error "Please port gnulib freadahead.c to your platform!"` on any other (musl): freadahead.c,
# freadptr.c, freadseek.c, fseterr.c, fpurge.c, freading.c, fseeko.c... Each gets a branch for
# Linux without glibc (musl) just before that #error, using musl's own <stdio_ext.h> functions
# (__freadahead, __freadptr, __freadptrinc, __fseterr, __fpurge, __freading), as later gnulib
# does; fseeko.c never takes its lseek shortcut there (musl's fseeko is correct). Called by
# scripts/coreutils-old-source.sh (2004-2008 trees) and scripts/coreutils-rev.sh (musl builds
# of every tree).
set -euo pipefail
me=gnulib-musl-stdio
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: $me LIBDIR (a directory)" >&2; exit 2; }

musl_branch() {
    case $1 in
    freadahead) echo '  return __freadahead (fp);' ;;
    freadptr) echo '  return __freadptr (fp, sizep);' ;;
    freadseek) echo '  __freadptrinc (fp, increment);' ;;
    fseterr) echo '  __fseterr (fp);' ;;
    fpurge) echo '  __fpurge (fp); return 0;' ;;
    freading) echo '  return __freading (fp);' ;;
    fwriting) echo '  return __fwriting (fp);' ;;
    fseeko) echo '  if (0)' ;;
    esac
}
for f in "$1"/*.c; do
    [ -f "$f" ] || continue
    grep -q '#error "Please port gnulib' "$f" || continue
    grep -q 'musl (penumbra)' "$f" && continue
    body=$(musl_branch "$(basename "$f" .c)")
    if [ -z "$body" ]; then
        echo "$me: warning: $(basename "$f") stops on unknown C libraries and has no musl branch here" >&2
        continue
    fi
    awk -v body="$body" '
        !done && /^# *else/ { held = $0; next }
        held != "" {
            if ($0 ~ /#error "Please port gnulib/) {
                print "#elif defined __linux__ && !defined __GLIBC__ /* musl (penumbra) */"
                print body
                done = 1
            }
            print held
            held = ""
        }
        { print }' "$f" >"$f.t"
    mv "$f.t" "$f"
    sed -i '0,/^#include <config.h>/s//&\n#if defined __linux__ \&\& !defined __GLIBC__ \/* musl (penumbra) *\/\n# include <stdio_ext.h>\n#endif/' "$f"
    grep -q 'elif defined __linux__ && !defined __GLIBC__ /\* musl (penumbra)' "$f" || { echo "$me: could not add musl's branch to $f" >&2; exit 1; }
done
