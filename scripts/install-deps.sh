#!/usr/bin/env bash
# Installs the Debian packages penumbra needs, if any are missing:
#   - clang-15 / LLVM 15 for the C frontend (and native AddressSanitizer builds for replay),
#   - meson, ninja, pkg-config, GMP, CaDiCaL and symfpu to build Bitwuzla from the sources
#     inside the bitwuzla-sys crate (see pkgconfig/README.md),
#   - z3, an independent second solver that the tests use to cross-check query logs;
#   - dpkg-dev, for `apt-get source`, and musl-dev, for real builds on musl (scripts/musl-clang-15);
#   - git, for `penumbra unify --git` (and its test);
#   - chromium, in which a test renders `penumbra report`'s page headless (as a person opens it);
#   - slurm-wlm and munge, for the test that runs `penumbra batch --slurm` on a real single-node
#     SLURM (scripts/slurm-local.sh starts its daemons in a directory of their own; none is
#     started or configured system-wide);
# then wllvm (PyPI), the compiler wrapper that records the bitcode of real builds, in a venv of
# its own under ~/.cache/penumbra/wllvm (scripts/wllvm-env.sh puts it on the PATH), and musl as
# bitcode for `--libc musl` (scripts/build-musl.sh: about a minute, once; cached).
# `--evaluation` adds what building historical coreutils trees from git takes (CoREBench,
# scripts/corebench.py and scripts/coreutils-rev.sh: each revision is bootstrapped with autoconf,
# automake, autopoint, gettext, texinfo, gperf, bison, m4 and rsync).
# As root it runs apt-get itself; otherwise it prints the exact command to run and fails.
set -euo pipefail

packages=(clang-15 llvm-15-dev llvm-15-tools zlib1g-dev build-essential python3 python3-venv meson
          ninja-build pkg-config libgmp-dev libcadical-dev libsymfpu-dev z3 dpkg-dev musl-dev git chromium
          slurm-wlm munge)
case "${1:-}" in
    --evaluation) packages+=(autoconf automake autopoint gettext texinfo gperf bison m4 rsync xz-utils patch) ;;
    "") ;;
    *) echo "usage: install-deps.sh [--evaluation]" >&2; exit 2 ;;
esac

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
    for p in "${packages[@]}"; do
        status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        [[ "$status" == "install ok installed" ]] || missing+=("$p")
    done
else
    echo "penumbra: this setup script knows Debian/Ubuntu (apt). On another system install:" >&2
    echo "  clang 15 and LLVM 15 (clang-15, opt-15, llvm-config-15), meson, ninja, pkg-config," >&2
    echo "  GMP, CaDiCaL (static libcadical.a), symfpu headers, z3" >&2
    exit 1
fi

# wllvm, once the system packages are there: a venv of its own, never the system's Python.
install_wllvm() {
    local venv=${PENUMBRA_WLLVM_VENV:-$HOME/.cache/penumbra/wllvm}
    if [[ -x $venv/bin/wllvm && -x $venv/bin/extract-bc ]]; then
        echo "penumbra: wllvm is installed in $venv"
        return
    fi
    echo "penumbra: installing wllvm (PyPI) into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q wllvm==1.3.1
}

if ((${#missing[@]} == 0)); then
    echo "penumbra: all system packages are installed"
    install_wllvm
    bash "$(dirname "$0")/build-musl.sh"
    exit 0
fi

echo "penumbra: installing missing packages: ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
    apt_get=(apt-get)
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    apt_get=(sudo apt-get)
else
    echo "penumbra: not root and no password-less sudo; please run:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${apt_get[@]}" update -q
"${apt_get[@]}" install -y -q --no-install-recommends "${missing[@]}"
install_wllvm
bash "$(dirname "$0")/build-musl.sh"
