#!/usr/bin/env bash
# coreutils-old-source.sh --version-string V COREUTILS_GIT GNULIB_GIT REV SRC [COREBENCH]
# The source of a GNU coreutils commit of 2004-2008, before coreutils pinned gnulib as a
# submodule, made ready for `./configure` with today's tools and without network: what
# scripts/coreutils-rev.sh's steps 1-2 do for later commits (it calls this script for these).
#   COREUTILS_GIT, GNULIB_GIT  clones or bare git directories of coreutils and gnulib
#   REV                        a commit-ish of coreutils without a `gnulib` submodule
#   SRC                        a fresh directory (absent or empty): the tree
#   COREBENCH                  CoREBench's unpacked corebench directory (default: $COREBENCH):
#                              only checked; each fix of CoREBench's install.sh these trees need
#                              is made here by an edit of ours (below, each says which)
# --version-string V: what `PROG --version` prints (required; the caller always passes one).
#
# Two eras, told apart by the tree:
#   bootstrap era (2007-2008: ./bootstrap and bootstrap.conf, no submodule): bootstrap fetched
#     gnulib's head by itself then; here gnulib is the last commit before REV's committer date
#     (CoREBench's "timely" gnulib: `git rev-list -1 --before=DATE`), given as --gnulib-srcdir.
#     bootstrap asks the version control which files in lib/ and m4/ are the package's own
#     (the others come from gnulib), so the tree is a throwaway git repository while it runs.
#   autoreconf era (2004-2006: no ./bootstrap; lib/ and m4/ hold the gnulib files): `autoreconf
#     -i --force`, as CoREBench's install.sh does. CVS kept a generated configure in the tree,
#     but not in step with it (4dd208a372's lacks GETOPT_H, which its lib/Makefile.in needs).
# In both eras, before autoconf runs:
#   - today's automake has no AM_C_PROTOTYPES (de-ANSI-fication) nor dist-lzma: both are
#     removed from configure.ac and m4/jm-macros.m4, as CoREBench's install.sh does; the
#     `gnits` option goes too (it refuses a version that is not N.N[.N], such as "corebench");
#   - the version is V: AC_INIT's version in configure.ac (a literal or git-version-gen's,
#     which would print UNKNOWN or a -dirty version here); .tarball-version holds V too;
# After it:
#   - musl: gnulib of these years reads FILE internals of the C libraries it knows and stops at
#     `#error "Please port gnulib freadahead.c to your platform!"` on musl (and likewise
#     fseeko.c, freadptr.c, freadseek.c, fseterr.c...); each gets a branch before that #error
#     for Linux without glibc (musl) using musl's <stdio_ext.h> (__freadahead, __freadptr,
#     __freadptrinc, __fseterr...), as later gnulib does, and fseeko.c never takes its lseek
#     shortcut there (musl's fseeko is correct);
#   - glibc: gnulib of these years tests for glibc's FILE with `defined _IO_ferror_unlocked`
#     (alone or `|| __GNU_LIBRARY__ == 1`), which glibc 2.28 removed like the _IO_ftrylockfile
#     coreutils-rev.sh's glibc_stdio respells: `defined _IO_EOF_SEEN` here too (gnulib
#     4af4a4a7's fix; glibc_stdio still adds stdio-impl.h's _IO_IN_BACKUP);
#   - names that today's C libraries declare otherwise: gnulib's futimens, tee.c's tee;
#     va_copy (C99) for __va_copy, which musl does not define; strftime.c's FILE arithmetic;
#     regex.c's __mempcpy (glibc's alias) as mempcpy; xsize.h where 2007's bootstrap.conf
#     avoided it;
#   - symbolic links (bootstrap's into gnulib/) are replaced by copies, gnulib/ is removed;
#   - .penumbra-commit (the full commit), .penumbra-gnulib (the gnulib commit, bootstrap era),
#     .penumbra-era (bootstrap or autoreconf).
# Log: SRC/penumbra-source.log (each step's output). Environment: TIMEOUT_BOOTSTRAP (seconds,
# 1800). Needs autoconf automake autopoint gettext texinfo gperf bison m4 perl (Debian).
set -euo pipefail
me=coreutils-old-source

die() { echo "$me: $*" >&2; exit 1; }
note() { echo "$me: $*" >&2; }

version_string=
while [ $# -gt 0 ]; do
    case $1 in
    --version-string) version_string=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option $1 (--version-string V)" ;;
    *) break ;;
    esac
done
[ $# -eq 4 ] || [ $# -eq 5 ] ||
    die "usage: $me --version-string V COREUTILS_GIT GNULIB_GIT REV SRC [COREBENCH]"
[ -n "$version_string" ] || die "--version-string V is required"
case $version_string in *[!A-Za-z0-9._+-]*) die "version string '$version_string': only letters, digits and . _ + - (it goes into configure.ac)" ;; esac
cu_git=$1 gl_git=$2 rev=$3 src=$4 corebench=${5:-${COREBENCH:-}}
t_boot=${TIMEOUT_BOOTSTRAP:-1800}

git -C "$cu_git" rev-parse --git-dir >/dev/null 2>&1 || die "$cu_git is not a git repository"
git -C "$gl_git" rev-parse --git-dir >/dev/null 2>&1 || die "$gl_git is not a git repository"
commit=$(git -C "$cu_git" rev-parse --verify -q "$rev^{commit}") || die "no commit $rev in $cu_git"
[ -z "$(git -C "$cu_git" ls-tree "$commit" gnulib)" ] ||
    die "$rev pins a gnulib submodule: scripts/coreutils-rev.sh builds it without this script"
if [ -n "$corebench" ]; then
    [ -f "$corebench/subjects/coreutils/install.sh" ] ||
        die "$corebench is not CoREBench's corebench directory (no subjects/coreutils/install.sh)"
fi
if [ -e "$src" ] && [ -n "$(ls -A "$src")" ]; then die "$src is not empty: give a fresh directory"; fi
mkdir -p "$src"
src=$(cd "$src" && pwd)
log=$src/penumbra-source.log

# step NAME COMMAND...: COMMAND in SRC, its output in the log, its time in the log's last lines.
step() {
    local name=$1 start
    shift
    echo "== $name: $*" >>"$log"
    start=$(date +%s)
    (cd "$src" && "$@") >>"$log" 2>&1 || die "$name failed: $log"
    echo "== $name: $(($(date +%s) - start)) s" >>"$log"
}

git -C "$cu_git" archive "$commit" | tar -x -C "$src"
: >"$log"
echo "$commit" >"$src/.penumbra-commit"
echo "$version_string" >"$src/.tarball-version"
date=$(git -C "$cu_git" show -s --format=%ci "$commit")

if [ -f "$src/bootstrap" ] && [ -f "$src/bootstrap.conf" ]; then
    era=bootstrap
elif [ -f "$src/configure.ac" ] && [ -d "$src/lib" ] && [ -d "$src/m4" ]; then
    era=autoreconf
else
    die "$rev ($date) has neither ./bootstrap nor configure.ac, lib/ and m4/: not a tree this script knows"
fi
echo "$era" >"$src/.penumbra-era"
note "$rev ($commit, $date): $era era, source in $src (log $log)"

# Today's automake: no de-ANSI-fication (AM_C_PROTOTYPES), no lzma distributions.
for f in configure.ac m4/jm-macros.m4; do
    [ ! -f "$src/$f" ] || sed -i '/AM_C_PROTOTYPES/d' "$src/$f"
done
sed -i '/AM_INIT_AUTOMAKE/s/ dist-lzma//' "$src/configure.ac"
# Gnits strictness (2004-2007) rejects a version like "corebench": GNU strictness instead.
sed -i '/AM_INIT_AUTOMAKE/s/ gnits//' "$src/configure.ac"
find "$src" -name Makefile.am -exec sed -i '/^AUTOMAKE_OPTIONS/s/ gnits//' {} +
# The version: one string for every revision, so that `--version` outputs compare.
# AC_INIT([GNU coreutils], [6.9+] or m4_esyscmd([build-aux/git-version-gen ...]), ...)
perl -0pi -e 's/(AC_INIT\(\[GNU coreutils\],\s*)(?:\[[^\]]*\]|m4_esyscmd\(\[[^\]]*\]\))/$1\['"$version_string"'\]/ or die "no AC_INIT version\n"' \
    "$src/configure.ac" || die "configure.ac of $rev has no AC_INIT([GNU coreutils], VERSION, ...) this script knows"

if [ $era = bootstrap ]; then
    gnulib=$(git -C "$gl_git" rev-list -1 --before="$date" HEAD) && [ -n "$gnulib" ] ||
        die "no gnulib commit before $date in $gl_git"
    echo "$gnulib" >"$src/.penumbra-gnulib"
    note "gnulib $gnulib (the last before $date)"
    mkdir "$src/gnulib"
    git -C "$gl_git" archive "$gnulib" | tar -x -C "$src/gnulib"
    # gnulib's extensions.m4 before 2008 defines AC_USE_SYSTEM_EXTENSIONS, which autoconf has
    # had since 2.61 and which its AC_GNU_SOURCE now requires: "AC_REQUIRE: circular dependency
    # of AC_GNU_SOURCE". Autoconf's own is kept (CoREBench's extensions.patch: m4_ifdef).
    [ ! -f "$src/gnulib/m4/extensions.m4" ] ||
        sed -i 's/^AC_DEFUN(\[AC_USE_SYSTEM_EXTENSIONS\],/AC_DEFUN([gl_OLD_USE_SYSTEM_EXTENSIONS],/' \
            "$src/gnulib/m4/extensions.m4"
    # bootstrap's version_controlled_file asks git (or CVS) which files are the package's.
    # (-f: every file of the commit, also those its .gitignore names)
    export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
    step "git index for bootstrap" sh -c 'git init -q && git add -A -f -- . ":!gnulib" &&
        git -c user.name=penumbra -c user.email=penumbra@localhost commit -q --no-verify -m tree'
    # bootstrap of late 2007 copies gnulib's generated files (lib/uniwidth/cjk.h) into
    # directories of lib/ it never makes: gnulib's lib/ subdirectories are made first.
    mkdir -p "$src/lib"
    (cd "$src/gnulib/lib" && find . -mindepth 1 -type d) | (cd "$src/lib" && xargs -r mkdir -p)
    note "bootstrapping with gnulib-tool of $gnulib (about 2 minutes)"
    step bootstrap timeout "$t_boot" ./bootstrap --skip-po --gnulib-srcdir=gnulib
    # bootstrap.conf of 2007 avoids gnulib's xsize module (gettext's intl/ had it), but the
    # vasnprintf of gnulib at the same date includes "xsize.h": gnulib's header, as CoREBench
    # copies its own xsize.h in.
    if [ ! -f "$src/lib/xsize.h" ] && grep -qs '#include "xsize.h"' "$src"/lib/*.c; then
        cp "$src/gnulib/lib/xsize.h" "$src/lib/xsize.h" || die "lib/ needs xsize.h, and gnulib $gnulib has none"
    fi
    rm -rf "$src/.git"
else
    note "autoreconf (under a minute)"
    step autoreconf timeout "$t_boot" autoreconf -i --force
fi

# bootstrap links files to gnulib/: copies (first: the edits below, `grep -r` among them,
# are to the tree's own files), so that the tree can move and gnulib/ go.
(cd "$src" && find . -type l -print0 | while IFS= read -r -d '' link; do
    target=$(readlink -f "$link") || die "dangling link $link in $src"
    [ -f "$target" ] || die "link $link in $src is not to a file ($target)"
    cp --remove-destination -p "$target" "$link"
done)

# gnulib's FILE-internals files: glibc 2.28's spelling, and musl's own functions.
sed -i 's/defined _IO_ferror_unlocked\b/defined _IO_EOF_SEEN/g' "$src"/lib/*.c
"$(dirname "$0")/gnulib-musl-stdio.sh" "$src/lib" || die "could not port $src/lib's stdio files to musl"

# Names that C libraries of today (glibc, musl) declare otherwise, renamed as their projects
# later did (CoREBench's utimens and tee patches rename them too, by broader seds):
# gnulib's futimens (int, char const *, ...) is gl_futimens since gnulib 4228bc8a (2007-05),
# when glibc 2.6 declared futimens; tee.c's static tee (int, const char **) clashes with
# <fcntl.h>'s tee (Linux splicing) and is tee_files since coreutils b5050874 (2006-06).
if grep -qs '^int futimens (int, char const \*' "$src/lib/utimens.h"; then
    grep -rlw futimens "$src/lib" "$src/src" --include='*.[ch]' | xargs sed -i 's/\bfutimens\b/gl_futimens/g'
fi
if grep -qs '^static bool tee (int nfiles' "$src/src/tee.c"; then
    sed -i 's/\btee (/tee_files (/g' "$src/src/tee.c"
fi
# version-etc.c (2004-2005) copies its va_list with __va_copy, else by assignment (an error
# where va_list is an array, as on x86-64); musl defines only C99's va_copy.
[ ! -f "$src/lib/version-etc.c" ] || sed -i 's/\b__va_copy\b/va_copy/g' "$src/lib/version-etc.c"
# strftime.c of 2005-2006 adds 0 to a FILE * when it is fprintftime.c's: an error where FILE
# is an incomplete type (musl). gnulib b8120186 (2006-10), its `advance` macro, made here.
if grep -qs 'p += FPRINTFTIME ? 0 : _n;' "$src/lib/strftime.c"; then
    perl -0pi -e 's/\n#define add\(n, f\)/\n#if FPRINTFTIME\n# define advance(P, N)\n#else\n# define advance(P, N) ((P) += (N))\n#endif\n$&/;
        s/p \+= FPRINTFTIME \? 0 : _n;(\t*)/advance (p, _n);$1\t/' "$src/lib/strftime.c"
    grep -q 'advance (p, _n);' "$src/lib/strftime.c" || die "could not add gnulib b8120186's advance to lib/strftime.c"
fi
# regex.c of 2004-2005 calls glibc's internal alias __mempcpy where HAVE_MEMPCPY (musl has
# mempcpy only); later gnulib defines __mempcpy as mempcpy outside glibc (regex_internal.h).
if grep -qs '__mempcpy (' "$src/lib/regex.c" && ! grep -qs 'define __mempcpy' "$src/lib/regex.c"; then
    sed -i 's/\b__mempcpy (/mempcpy (/g' "$src/lib/regex.c"
fi

# gnulib's replacement headers of 2007 (lib/*_.h) include the system's by absolute path
# (@ABSOLUTE_INTTYPES_H@, found by configure): with clang that is clang's own inttypes.h,
# whose #include_next then finds lib/inttypes.h again ("#include nested too deeply"). gnulib
# soon used #include_next itself (@INCLUDE_NEXT@); so here: @ABSOLUTE_SYS_STAT_H@ becomes
# #include_next <sys/stat.h>.
for f in "$src"/lib/*_.h; do
    [ -f "$f" ] && grep -q '^# *include @ABSOLUTE_[A-Z_]*_H@' "$f" || continue
    perl -pi -e 's{^(#\s*)include \@ABSOLUTE_([A-Z_]+)_H\@}{my ($p, $n) = ($1, lc $2); $n =~ s/^sys_/sys\//; "${p}include_next <$n.h>"}e' "$f"
done

rm -rf "$src/gnulib"
note "done: $src ($era era)"
