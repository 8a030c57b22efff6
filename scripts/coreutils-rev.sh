#!/usr/bin/env bash
# coreutils-rev.sh [--kind KIND]... [--prog PROG]... [--version-string V] [--from BASE] COREUTILS_GIT GNULIB_GIT REV OUT
# GNU coreutils at a commit of its history (CoREBench's revisions, 2005-2013 and later), built
# from git without network: the README's real-build route for an old revision.
#   COREUTILS_GIT, GNULIB_GIT  clones or bare git directories of coreutils and gnulib
#   REV                        any commit-ish of coreutils (ec48bead, ec48bead^, v8.20)
#   OUT                        the tree: OUT/src (the bootstrapped source), OUT/KIND (builds)
# Kinds (default musl; each a copy of OUT/src configured once, stamped OUT/KIND/.penumbra-configured):
#   musl    CC=wllvm on musl (scripts/wllvm-env.sh musl): static musl binaries, and
#           OUT/musl/src/PROG.bc (extract-bc) for `penumbra run --libc musl`
#   native  CC=clang-15 on glibc, -O0 -g: the plain native binaries
#   asan    CC=clang-15 on glibc, the programs with AddressSanitizer and UBSan (replay's flags)
#   gcov    CC=gcc --coverage on glibc: line coverage of native runs
# Programs (default cut): `make src/PROG` in each kind; any utility of the revision.
# --version-string V: what `PROG --version` prints (default: git-version-gen's form of `git
# describe`, as a build from a git checkout prints, e.g. 8.20.60-ec48beadf; so two revisions
# differ in `--version` output: give them one V to compare them on it).
# Prints one line per kind and program: KIND PROG PATH (the bitcode for musl, else the binary).
#
# --from BASE: derive the tree from BASE, a tree this script built of another commit, when the
# two commits differ only in files no build step reads before `make src/PROG` (C sources and
# headers under src/, tests, documentation; `derivable` below): BASE's bootstrapped source and
# configured kinds are copied and the changed files written over them (make rebuilds what they
# touch), a minute instead of ten. Otherwise the tree is built from scratch, as without --from.
# A derived tree's wllvm objects name BASE's bitcode files: keep BASE while OUT is used.
#
# PENUMBRA_CONFIG_CACHE=DIR: configure each kind with an autoconf cache shared by every tree
# built with the same DIR (DIR/KIND.cache): the answers are the toolchain's, not the revision's,
# and a revision asks mostly what others asked (musl's configure: 5 minutes, with the cache
# about one). A cached answer is trusted as autoconf trusts its own cache.
#
# Steps, each done once (stamped), each under `timeout`, and their times in OUT/timings.txt:
#   1. source: `git archive REV` and gnulib at the commit REV pins (`git ls-tree REV gnulib`),
#      .tarball-version (there is no .git in the tree: git-version-gen reads this file);
#   2. bootstrap offline with today's autotools: `./bootstrap --skip-po --no-git
#      --gnulib-srcdir=gnulib` (the revision's own gnulib-tool; 4 minutes for a 2012 tree);
#   3. configure per kind with the README's analysis flags, each spelled as the revision's
#      `configure --help` spells it (a 2012 tree has --without-gmp, not --without-libgmp);
#      flags the revision does not know are left out (OUT/KIND/penumbra-flags*.txt); on glibc
#      with gnulib's fix for glibc 2.28 (glibc_stdio below); 4 minutes for musl (wllvm compiles
#      twice), 1 for gcc, 1.5 for clang;
#   4. `make` of the generated sources (BUILT_SOURCES), then `make src/PROG` (and extract-bc):
#      under a minute.
# Logs: OUT/bootstrap.log, OUT/KIND/configure.log, OUT/KIND/make.log. Environment:
# PENUMBRA_WLLVM_VENV (scripts/wllvm-env.sh), PENUMBRA_RETRY (a step that failed is remembered in
# OUT/.penumbra-failed and fails again at once unless this is set), TIMEOUT_BOOTSTRAP, TIMEOUT_CONFIGURE, TIMEOUT_MAKE
# (seconds; 1800, 1200, 1800). Needs autoconf automake autopoint gettext texinfo gperf bison m4
# rsync xz-utils patch (Debian), wllvm (scripts/install-deps.sh) and musl-dev for musl.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
me=coreutils-rev

die() { echo "$me: $*" >&2; exit 1; }
note() { echo "$me: $*" >&2; }
# fail LOG MESSAGE: a build step failed: said with the log's last error, and remembered in
# OUT/.penumbra-failed so that the next call fails at once (PENUMBRA_RETRY=1 tries again).
fail() {
    # The log's last line naming an error (make's own last lines only say it stopped).
    local said
    said=$(grep -iE 'error|fatal|not found|no such|cannot' "$1" 2>/dev/null |
        grep -vE '^make|^ERROR:Failed to compile|errors? generated' | tail -n 1)
    [ -n "$said" ] || said=$(tail -n 1 "$1" 2>/dev/null)
    local message="$2 ($1; its last error: $said)"
    echo "$message" >"$out/.penumbra-failed"
    die "$message"
}

# The files `derivable` allows to differ (an extended regular expression over paths);
# `--derivable-files` prints it, for callers that choose a base (scripts/commit-pair.py).
derivable_files='^(src/[^/]*\.[ch]|tests/.*|doc/.*|man/.*|init\.cfg|NEWS|THANKS.*|ChangeLog.*|README.*|TODO|\.mailmap|cfg\.mk|\.gitignore|.*/\.gitignore)$'

kinds=()
progs=()
version_string=
base=
config_cache=${PENUMBRA_CONFIG_CACHE:-}
while [ $# -gt 0 ]; do
    case $1 in
    --kind) kinds+=("$2"); shift 2 ;;
    --prog) progs+=("$2"); shift 2 ;;
    --version-string) version_string=$2; shift 2 ;;
    --from) base=$2; shift 2 ;;
    --derivable-files) echo "$derivable_files"; exit 0 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option $1 (--kind KIND, --prog PROG, --version-string V, --from BASE)" ;;
    *) break ;;
    esac
done
[ $# -eq 4 ] || die "usage: $me [--kind musl|native|asan|gcov]... [--prog PROG]... [--version-string V] [--from BASE] COREUTILS_GIT GNULIB_GIT REV OUT"
[ ${#kinds[@]} -gt 0 ] || kinds=(musl)
[ ${#progs[@]} -gt 0 ] || progs=(cut)
cu_git=$1 gl_git=$2 rev=$3 out=$4
t_boot=${TIMEOUT_BOOTSTRAP:-1800} t_conf=${TIMEOUT_CONFIGURE:-1200} t_make=${TIMEOUT_MAKE:-1800}

git -C "$cu_git" rev-parse --git-dir >/dev/null 2>&1 || die "$cu_git is not a git repository"
git -C "$gl_git" rev-parse --git-dir >/dev/null 2>&1 || die "$gl_git is not a git repository"
commit=$(git -C "$cu_git" rev-parse --verify -q "$rev^{commit}") || die "no commit $rev in $cu_git"
# git-version-gen's own form of `git describe` (v8.20-60-gec48beadf -> 8.20.60-ec48beadf).
[ -n "$version_string" ] ||
    version_string=$(git -C "$cu_git" describe --abbrev=9 --always "$commit" | sed 's/^v//;s/-/./;s/\(.*\)-g/\1-/')
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/src
# One build of a tree at a time (a second caller waits).
exec 9>"$out/.penumbra-lock"
flock 9

if [ -f "$out/.penumbra-failed" ] && [ -z "${PENUMBRA_RETRY:-}" ]; then
    die "failed before: $(cat "$out/.penumbra-failed") (PENUMBRA_RETRY=1 tries again)"
fi
rm -f "$out/.penumbra-failed"

# The tools bootstrap needs (bootstrap.conf's buildreq), checked before minutes are spent.
for tool in autoconf automake autopoint aclocal gettext makeinfo gperf bison m4 perl rsync xz patch; do
    command -v "$tool" >/dev/null ||
        die "$tool is missing (bash scripts/install-deps.sh --evaluation; Debian: apt-get install autoconf automake autopoint gettext texinfo gperf bison m4 rsync xz-utils patch)"
done

# A tree built from another commit, or with another version string, is never reused.
if [ -f "$src/.penumbra-commit" ] && [ "$(cat "$src/.penumbra-commit")" != "$commit" ]; then
    die "$out holds commit $(cat "$src/.penumbra-commit"), not $commit ($rev): choose another OUT"
fi
if [ -f "$src/.tarball-version" ] && [ "$(cat "$src/.tarball-version")" != "$version_string" ]; then
    die "$out is built with version string $(cat "$src/.tarball-version"), not $version_string: choose another OUT"
fi

# glibc_stdio TREE: gnulib before March 2018 reads glibc's FILE internals only where
# <stdio.h> defines _IO_ftrylockfile, which glibc 2.28 no longer does: lib/freadahead.c and
# others then stop at `#error "Please port gnulib freadahead.c to your platform!"` (gcc or clang
# on glibc; musl never takes these branches). gnulib's own fix (commit 4af4a4a7, "fflush:
# adjust to glibc 2.28 libio.h removal"), made to the tree's copies; a no-op on later trees.
glibc_stdio() {
    sed -i 's/defined _IO_ftrylockfile || __GNU_LIBRARY__ == 1/defined _IO_EOF_SEEN || __GNU_LIBRARY__ == 1/' "$1"/lib/*.c
    if [ -f "$1/lib/stdio-impl.h" ] && ! grep -q _IO_EOF_SEEN "$1/lib/stdio-impl.h"; then
        printf '%s\n' '' '/* Glibc 2.28 made _IO_IN_BACKUP private (gnulib 4af4a4a7).  */' \
            '#if !defined _IO_IN_BACKUP && defined _IO_EOF_SEEN' '# define _IO_IN_BACKUP 0x100' '#endif' \
            >>"$1/lib/stdio-impl.h"
    fi
}

# derivable BASE_COMMIT: whether this commit differs from BASE_COMMIT only in files that neither
# bootstrap nor configure reads (so BASE's configured trees are this commit's, up to the files
# `make src/PROG` compiles): C files under src/, tests, documentation, notes. A changed
# configure.ac, m4 file, Makefile.am, lib/ file or gnulib pin needs a build from scratch.
derivable() {
    local changed
    changed=$(git -C "$cu_git" diff --no-renames --name-only "$1" "$commit") || return 1
    ! grep -qvE "$derivable_files" <<<"$changed"
}

# overlay DIR BASE_COMMIT: DIR (a copy of BASE_COMMIT's tree) made this commit's, file by file.
# The tests' makefile fragments stay BASE's: a newer tests/local.mk would make `make` run
# automake and config.status again, and no program we build depends on them.
overlay() {
    local dir=$1 changes status path
    changes=$(git -C "$cu_git" diff --no-renames --name-status "$2" "$commit") || die "git diff $2 $commit failed"
    [ -n "$changes" ] || die "$2 and $commit have the same files: nothing to derive"
    while IFS=$'\t' read -r status path; do
        case $path in tests/*.mk | tests/Makefile.am) continue ;; esac
        case $status in
        D) rm -f "$dir/$path" ;;
        *)
            mkdir -p "$(dirname "$dir/$path")"
            git -C "$cu_git" show "$commit:$path" >"$dir/$path" || die "git show $commit:$path failed"
            ;;
        esac
    done <<<"$changes"
}

# rehome DIR FROM TO: configure wrote FROM, the directory it ran in, into the makefiles and
# config.status (abs_top_builddir: the tests' PATH); DIR, a copy of FROM that will be TO, must
# name TO instead.
rehome() {
    grep -rlF --include=Makefile --include=config.status "$2" "$1" 2>/dev/null |
        while IFS= read -r file; do
            # Their times stay: a newer config.status would have make run it again.
            cp -p "$file" "$file.penumbra-times"
            sed -i "s#$2#$3#g" "$file"
            touch -r "$file.penumbra-times" "$file"
            rm "$file.penumbra-times"
        done
}

# Step 0 (--from): the source and the kinds BASE has, derived from BASE's.
if [ -n "$base" ] && [ ! -f "$src/.penumbra-bootstrapped" ]; then
    [ -f "$base/src/.penumbra-bootstrapped" ] || die "--from $base: not a tree this script built"
    base_commit=$(cat "$base/src/.penumbra-commit")
    if [ "$(cat "$base/src/.tarball-version")" != "$version_string" ]; then
        note "--from $base: built with version string $(cat "$base/src/.tarball-version"), not $version_string: building from scratch"
    elif [ "$base_commit" = "$commit" ]; then
        die "--from $base: the same commit $commit"
    elif ! derivable "$base_commit"; then
        note "--from $base: $rev changes files configure reads: building from scratch"
    else
        note "deriving $rev from $base (${base_commit:0:12})"
        start=$(date +%s)
        rm -rf "$src.tmp"
        cp -a "$base/src" "$src.tmp"
        overlay "$src.tmp" "$base_commit"
        echo "$commit" >"$src.tmp/.penumbra-commit"
        echo "$base_commit" >"$src.tmp/.penumbra-derived-from"
        for kind in "${kinds[@]}"; do
            [ -f "$base/$kind/.penumbra-built-sources" ] && [ ! -e "$out/$kind" ] || continue
            rm -rf "$out/$kind.tmp"
            cp -a "$base/$kind" "$out/$kind.tmp"
            overlay "$out/$kind.tmp" "$base_commit"
            rehome "$out/$kind.tmp" "$base/$kind" "$out/$kind"
            mv "$out/$kind.tmp" "$out/$kind"
        done
        mv "$src.tmp" "$src"
        echo "derive from ${base_commit:0:12} $(($(date +%s) - start)) s" >>"$out/timings.txt"
    fi
fi

# Step 1 and 2 for a tree of 2004-2008, which pins no gnulib submodule (CoREBench's oldest):
# scripts/coreutils-old-source.sh (bootstrap with gnulib at the commit's date, or autoreconf).
if [ ! -f "$src/.penumbra-bootstrapped" ] && [ -z "$(git -C "$cu_git" ls-tree "$commit" gnulib)" ]; then
    note "source of $rev ($commit), a tree without gnulib submodule, in $src (log $out/bootstrap.log)"
    rm -rf "$src" "$src.tmp"
    start=$(date +%s)
    "$root/scripts/coreutils-old-source.sh" --version-string "$version_string" "$cu_git" "$gl_git" "$commit" \
        "$src.tmp" >"$out/bootstrap.log" 2>&1 || fail "$out/bootstrap.log" "source of $rev failed"
    echo "bootstrap $(($(date +%s) - start)) s" >>"$out/timings.txt"
    touch "$src.tmp/.penumbra-bootstrapped"
    mv "$src.tmp" "$src"
fi

# Step 1 and 2: the bootstrapped source.
if [ ! -f "$src/.penumbra-bootstrapped" ]; then
    gnulib=$(git -C "$cu_git" ls-tree "$commit" gnulib | awk '$2 == "commit" { print $3 }')
    [ -n "$gnulib" ] || die "$rev pins no gnulib submodule (git ls-tree $rev gnulib): not a bootstrap-era tree"
    git -C "$gl_git" cat-file -e "$gnulib^{commit}" 2>/dev/null ||
        die "gnulib commit $gnulib (pinned by $rev) is not in $gl_git"
    note "source of $rev ($commit) with gnulib $gnulib in $src"
    rm -rf "$src" "$src.tmp"
    mkdir -p "$src.tmp/gnulib"
    git -C "$cu_git" archive "$commit" | tar -x -C "$src.tmp"
    git -C "$gl_git" archive "$gnulib" | tar -x -C "$src.tmp/gnulib"
    echo "$version_string" >"$src.tmp/.tarball-version"
    echo "$commit" >"$src.tmp/.penumbra-commit"
    echo "$gnulib" >"$src.tmp/.penumbra-gnulib"
    # Today's automake refuses AM_C_PROTOTYPES ("automatic de-ANSI-fication support has been
    # removed"), which trees before 2011 still call: a no-op for an ANSI compiler, dropped.
    sed -i '/AM_C_PROTOTYPES/d' "$src.tmp/configure.ac" "$src.tmp"/m4/*.m4
    # ... and pkglib_PROGRAMS (libstdbuf's helper, 2009-2011), which coreutils itself later made
    # pkglibexec_PROGRAMS.
    [ ! -f "$src.tmp/src/Makefile.am" ] || sed -i 's/pkglib_PROGRAMS/pkglibexec_PROGRAMS/g' "$src.tmp/src/Makefile.am"
    # A 2009 bootstrap compares versions as text ("perl 5.36 is too old" for 5.5): the tools are
    # today's, so bootstrap.conf's minimum versions go.
    [ -f "$src.tmp/bootstrap.conf" ] && sed -i -E 's/^([a-z][a-z0-9_-]*[[:space:]]+)[0-9][0-9.]*[[:space:]]*$/\1-/' "$src.tmp/bootstrap.conf"
    note "bootstrapping $rev (about 4 minutes; log $out/bootstrap.log)"
    start=$(date +%s)
    # --no-git (2010 on) keeps bootstrap from git; before it, a gnulib directory without .git
    # is taken as it is anyway.
    no_git=--no-git
    grep -q -- '--no-git' "$src.tmp/bootstrap" || no_git=
    (cd "$src.tmp" && timeout "$t_boot" ./bootstrap --skip-po $no_git --gnulib-srcdir=gnulib) \
        >"$out/bootstrap.log" 2>&1 || fail "$out/bootstrap.log" "bootstrap of $rev failed (or timed out after ${t_boot}s)"
    # bootstrap (gnulib-tool --symlink) links hundreds of files to absolute paths in this
    # directory: copies instead, so that the tree can move and each build owns its files.
    (cd "$src.tmp" && find . -type l -print0 | while IFS= read -r -d '' link; do
        target=$(readlink -f "$link") || die "dangling link $link in $src.tmp"
        [ -f "$target" ] || die "link $link in $src.tmp is not to a file ($target)"
        cp --remove-destination -p "$target" "$link"
    done)
    echo "bootstrap $(($(date +%s) - start)) s" >>"$out/timings.txt"
    touch "$src.tmp/.penumbra-bootstrapped"
    mv "$src.tmp" "$src"
fi

# The README's analysis configuration (no optional libraries), as `configure --help` of this
# revision spells it: each entry lists the spellings in order of preference.
wanted_flags=(--disable-nls "--without-libgmp --without-gmp" --with-included-regex --disable-threads
    --disable-acl --disable-xattr --without-selinux --disable-libcap --disable-libsmack --without-openssl)
# replay_flags cflags|ldflags: replay's native build flags, as penumbra says them
# (`penumbra replay --print-build-flags`; PENUMBRA names the binary).
replay_flags() {
    local penumbra=${PENUMBRA:-$root/target/release/penumbra} text
    text=$("$penumbra" replay --print-build-flags) || die "cannot ask $penumbra for replay's build flags (set PENUMBRA)"
    sed -n "s/^$1: //p" <<<"$text"
}

# era_flags TREE: the wanted flags this revision's configure knows, one a line; those it knows
# under no spelling are written to stderr. An option is known when its --help lists it in
# either form (`--without-included-regex` lists the option --with-included-regex is of).
era_flags() {
    local help spelling name found
    help=$(cd "$1" && ./configure --help)
    for entry in "${wanted_flags[@]}"; do
        found=
        for spelling in $entry; do
            name=${spelling#--}
            name=${name#with-} name=${name#without-} name=${name#enable-} name=${name#disable-}
            if grep -qE -- "^[[:space:]]+--(with|without|enable|disable)-${name}([[:space:]=,[]|\$)" <<<"$help"; then
                found=$spelling
                break
            fi
        done
        if [ -n "$found" ]; then echo "$found"; else echo "not known to this revision: $entry" >&2; fi
    done
}

# gnulib's non-recursive prefix hack of 2012 turns `GPERF = gperf` into `GPERF = lib/gperf`
# (CoREBench's gperf.patch); the right value is given to make instead.
gperf_fix=(GPERF=gperf)

# build KIND CONFIGURE-ARGS...: OUT/KIND configured once, then each program made, with the
# make variables in the array make_vars.
build() {
    local kind=$1 tree=$out/$1 flags start
    shift
    if [ ! -f "$tree/.penumbra-configured" ]; then
        note "configuring $tree (a few minutes; log $tree/configure.log)"
        rm -rf "$tree"
        cp -a "$src" "$tree"
        [ "$kind" = musl ] || glibc_stdio "$tree"
        mapfile -t flags < <(era_flags "$tree" 2>"$tree/penumbra-flags-unknown.txt")
        printf '%s\n' "$@" "${flags[@]}" >"$tree/penumbra-flags.txt"
        start=$(date +%s)
        local cache=()
        if [ -n "$config_cache" ]; then
            mkdir -p "$config_cache"
            [ -f "$config_cache/$kind.cache" ] && cp "$config_cache/$kind.cache" "$tree/penumbra-config.cache"
            cache=(--cache-file=penumbra-config.cache)
        fi
        (cd "$tree" && FORCE_UNSAFE_CONFIGURE=1 timeout "$t_conf" ./configure "${cache[@]}" "$@" "${flags[@]}") \
            >"$tree/configure.log" 2>&1 || fail "$tree/configure.log" "configure failed in $tree"
        # The cache grows by what this revision asked; written whole (rename) for concurrent builds.
        if [ -n "$config_cache" ] && [ -f "$tree/penumbra-config.cache" ]; then
            cp "$tree/penumbra-config.cache" "$config_cache/$kind.cache.$$" && mv "$config_cache/$kind.cache.$$" "$config_cache/$kind.cache"
        fi
        echo "configure $kind $(($(date +%s) - start)) s" >>"$out/timings.txt"
        touch "$tree/.penumbra-configured"
    fi
    # Steps on the configured tree, idempotent, so that trees configured before they existed get
    # them too. gnulib before 2013 stops at FILE internals it does not know (musl's): ported in
    # place. gnulib's stdio.h of 2011-2012 warns on any use of gets, which glibc 2.16 no longer
    # declares (an error then): the warning goes, as CoREBench's stdio.patch does.
    [ "$kind" != musl ] || "$root/scripts/gnulib-musl-stdio.sh" "$tree/lib" || die "could not port $tree/lib to musl"
    # gnulib's fpucw.h sets the x87 precision around long double arithmetic (vasnprintf's
    # %Lf) with inline assembly (fnstcw, fldcw), which penumbra cannot interpret: its paths
    # ended `unsupported`. The analysis build takes the header's portable branch, which is
    # exact there: penumbra computes long double at extended precision, the precision that
    # BEGIN_LONG_DOUBLE_ROUNDING selects. (Edited once: make rebuilds what includes it.)
    if [ "$kind" = musl ] && grep -qs '^#if (defined __i386__ || defined __x86_64__) && (*defined __GNUC__' "$tree/lib/fpucw.h"; then
        sed -i 's|^#if (defined __i386__ \|\| defined __x86_64__) && (*defined __GNUC__.*|#if 0 /* penumbra: no inline assembly (scripts/coreutils-rev.sh) */|' "$tree/lib/fpucw.h"
    fi
    for header in "$tree/lib/stdio.in.h" "$tree/lib/stdio.h"; do
        ! grep -qs '^_GL_WARN_ON_USE (gets,' "$header" || sed -i 's|^_GL_WARN_ON_USE (gets,|//&|' "$header"
    done
    if [ ! -f "$tree/.penumbra-built-sources" ]; then
        note "making the generated sources in $tree (log $tree/make.log)"
        start=$(date +%s)
        # `make src/PROG` alone in a fresh tree misses gnulib's generated headers.
        printf 'penumbra-built-sources: $(BUILT_SOURCES)\n' >"$tree/penumbra-bs.mk"
        (cd "$tree" && timeout "$t_make" make -j"$(nproc)" "${gperf_fix[@]}" -f Makefile -f penumbra-bs.mk penumbra-built-sources) \
            >>"$tree/make.log" 2>&1 || fail "$tree/make.log" "make of the generated sources failed in $tree"
        echo "built-sources $kind $(($(date +%s) - start)) s" >>"$out/timings.txt"
        touch "$tree/.penumbra-built-sources"
    fi
    # Objects made with other flags (replay's flags changed since) are made again.
    if [ "$(cat "$tree/.penumbra-make-vars" 2>/dev/null)" != "${make_vars[*]}" ]; then
        [ -f "$tree/.penumbra-make-vars" ] && note "the make flags of $tree changed: making its programs again"
        find "$tree/src" "$tree/lib" -name '*.o' -delete
        rm -f "$tree"/lib/*.a
        for prog in "${progs[@]}"; do rm -f "$tree/src/$prog"; done
        printf '%s' "${make_vars[*]}" >"$tree/.penumbra-make-vars"
    fi
    for prog in "${progs[@]}"; do
        start=$(date +%s)
        if [ -f "$tree/src/Makefile" ]; then
            # A recursive-make tree (before 2012): lib/, src/'s generated sources, src/PROG.
            (cd "$tree" && timeout "$t_make" make -j"$(nproc)" -C lib "${gperf_fix[@]}" "${make_vars[@]}" &&
                timeout "$t_make" make -C src -f Makefile -f ../penumbra-bs.mk penumbra-built-sources &&
                timeout "$t_make" make -C src "${make_vars[@]}" "$prog") >>"$tree/make.log" 2>&1 ||
                fail "$tree/make.log" "make src/$prog failed in $tree"
        else
            (cd "$tree" && timeout "$t_make" make -j"$(nproc)" "${gperf_fix[@]}" "${make_vars[@]}" "src/$prog") >>"$tree/make.log" 2>&1 ||
                fail "$tree/make.log" "make src/$prog failed in $tree"
        fi
        if [ "$kind" = musl ]; then
            (cd "$tree" && extract-bc "src/$prog") >>"$tree/make.log" 2>&1 ||
                fail "$tree/make.log" "extract-bc src/$prog failed in $tree"
            echo "make $kind $prog $(($(date +%s) - start)) s" >>"$out/timings.txt"
            echo "$kind $prog $tree/src/$prog.bc"
        else
            echo "make $kind $prog $(($(date +%s) - start)) s" >>"$out/timings.txt"
            echo "$kind $prog $tree/src/$prog"
        fi
    done
}

for kind in "${kinds[@]}"; do
    make_vars=()
    case $kind in
    musl) (. "$root/scripts/wllvm-env.sh" musl && build musl CC=wllvm CFLAGS="$PENUMBRA_CFLAGS") ;;
    native) build native CC=clang-15 CFLAGS="-O0 -g" ;;
    # Configured and its generated sources made without sanitizers, the programs with them:
    # src/make-prime-list, run to generate src/primes.h, overflows a heap buffer until 2015
    # (coreutils 1d0f1b7c), and AddressSanitizer would stop the build there.
    asan)
        make_vars=(CFLAGS="$(replay_flags cflags)" LDFLAGS="$(replay_flags ldflags)")
        build asan CC=clang-15 CFLAGS="-O0 -g"
        ;;
    gcov) build gcov CC=gcc CFLAGS="-O0 -g --coverage" ;;
    *) die "unknown kind $kind (musl, native, asan, gcov)" ;;
    esac
done
