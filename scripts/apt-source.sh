#!/usr/bin/env bash
# apt-source.sh PACKAGE VERSION DIR: unpacks Debian's source package PACKAGE=VERSION into DIR
# (as DIR/PACKAGE-UPSTREAM), through a private apt configuration in DIR/apt: a copy of the
# system's sources with deb-src added, private lists and cache. The system's apt sources are
# never edited. Prints the unpacked directory. APT_SUITES (e.g. "trixie bullseye") replaces the
# system's suites, for the source packages of other Debian releases (coreutils 9.7, 8.32).
set -euo pipefail
package=$1 version=$2 dir=$3
mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/apt/sources.list.d"
sources=/etc/apt/sources.list.d/debian.sources
if [[ -f $sources ]]; then
    sed 's/^Types: deb$/Types: deb deb-src/' "$sources" > "$dir/apt/sources.list.d/debian.sources"
    if [[ -n ${APT_SUITES:-} ]]; then
        printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
            "$APT_SUITES" /usr/share/keyrings/debian-archive-keyring.gpg >"$dir/apt/sources.list.d/debian.sources"
    fi
else
    # One-line format: every deb line again as deb-src.
    grep -h '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
        | sed 's/^deb /deb-src /' > "$dir/apt/sources.list.d/src.list"
fi
apt=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$dir/apt/sources.list.d"
     -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache")
log=$dir/apt/source.log
if ! { apt-get "${apt[@]}" update -q && (cd "$dir" && apt-get "${apt[@]}" source -q "$package=$version"); } >"$log" 2>&1; then
    cat "$log" >&2
    echo "apt-source: could not fetch Debian's $package $version source package (above)" >&2
    exit 1
fi
unpacked=$(find "$dir" -maxdepth 1 -type d -name "$package-${version%-*}" | head -1)
[[ -n $unpacked ]] || { echo "apt-source: $package $version did not unpack into $dir" >&2; exit 1; }
echo "$unpacked"
