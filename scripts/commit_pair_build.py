"""commit_pair_build.py: the steps scripts/commit-pair.py's kinds share with the scripts that
build real trees: the annotation of a patch's changed files one by one with `penumbra unify`
(kind "coreutils" through scripts/shadow-regression.py, kind "build"), and kind "build"'s
trees: a commit checked out by `git archive` into a directory cached by commit and purpose, and
the recipe's shell commands with their placeholders filled in.
"""

import fcntl
import hashlib
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# penumbra.h, which every unified file includes: compilers find it through CPATH, so that a
# recipe's bitcode command builds the unified tree as it builds the project's own.
PENUMBRA_INCLUDE = ROOT / "ir-frontend" / "include"
# What a recipe's commands may name; any other `{...}` is the shell's (`${VAR}`).
PLACEHOLDERS = ("asan_cflags", "asan_ldflags", "program")
BUILT_MARKER = ".penumbra-built"


def log(msg):
    print(f"{Path(sys.argv[0]).stem}: {msg}", file=sys.stderr, flush=True)


def script_module(name: str):
    """A script of scripts/ as a module (their names have hyphens: `shadow-regression.py`)."""
    spec = importlib.util.spec_from_file_location(name.removesuffix(".py").replace("-", "_"), ROOT / "scripts" / name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def unify_each(penumbra, old_root: Path, new_root: Path, sources, out_dir: Path, includes, accept=(), cflags=()):
    """`penumbra unify OLD_ROOT/F NEW_ROOT/F -o OUT_DIR/F` for each file F of `sources`, both
    versions checked with `includes` (`-I` directories) and `cflags` (clang flags: a build's
    system headers), the functions of `accept` allowed to differ from their inputs (a hand
    annotation: `--accept-difference`); where unify refuses, exits with one line:
    `penumbra unify refused F: REASON`."""
    if out_dir.exists():
        shutil.rmtree(out_dir)
    include_flags = [flag for directory in includes for flag in ("-I", directory)]
    for source in sources:
        target = out_dir / source
        target.parent.mkdir(parents=True, exist_ok=True)
        accepted = [flag for function in accept for flag in ("--accept-difference", function)]
        cmd = [penumbra, "unify", old_root / source, new_root / source, "-o", target, *include_flags, *accepted,
               *[f"--cflag={flag}" for flag in cflags]]
        log("$ " + " ".join(shlex.quote(str(c)) for c in cmd))
        done = subprocess.run([str(c) for c in cmd], stderr=subprocess.PIPE, text=True)
        sys.stderr.write(done.stderr)
        if done.returncode != 0:
            # `penumbra: error: cannot unify OLD and NEW: REASON; refusing to write it:`
            lines = done.stderr.strip().splitlines()
            reason = lines[0] if lines else f"exit status {done.returncode}"
            reason = reason.split(": ", 2)[-1].split(" and ")[-1].split(": ", 1)[-1].rstrip(":")
            # Its reasons follow, one a line (`  line 160: the definition of type ... changed`).
            details = [line.strip() for line in lines[1:4] if line.startswith("  line ")]
            if details:
                reason += ": " + "; ".join(details)
            sys.exit(f"penumbra unify refused {source}: {reason}")


def changed_c_files(repo: Path, old: str, new: str):
    """The .c and .h files the patch changes: (modified, added, deleted), each sorted."""
    out = subprocess.run(["git", "-C", repo, "diff", "--no-renames", "--name-status", old, new],
                         check=True, capture_output=True, text=True).stdout
    found = {"M": [], "A": [], "D": []}
    for line in out.splitlines():
        status, path = line.split("\t", 1)
        if path.endswith((".c", ".h")):
            found.setdefault(status[0], []).append(path)
    return sorted(found["M"]), sorted(found["A"]), sorted(found["D"])


def fill(command: str, values: dict) -> str:
    """The command with each `{name}` of PLACEHOLDERS replaced by its value."""
    return re.sub(r"\{(" + "|".join(PLACEHOLDERS) + r")\}", lambda m: values[m.group(1)], command)


def trees_root(repo: Path) -> Path:
    """Where kind "build" caches the trees of one repository: WORK (default
    ~/.cache/penumbra/commit-pair)/<a hash of the repository's path>."""
    work = Path(os.environ.get("WORK", Path.home() / ".cache" / "penumbra" / "commit-pair"))
    return work / hashlib.sha256(str(repo).encode()).hexdigest()[:12]


@contextmanager
def locked(path: Path):
    """Holds an exclusive lock on PATH.lock (subjects of one batch share trees), saying so when
    it has to wait for it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"waiting for another preparation using {path}")
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def build_key(command: str, env: dict) -> str:
    """What a built tree depends on besides its commit: the filled-in command and its environment."""
    return hashlib.sha256("\0".join([command, *(f"{k}={v}" for k, v in sorted(env.items()))]).encode()).hexdigest()


def is_built(tree: Path, key: str) -> bool:
    marker = tree / BUILT_MARKER
    return marker.is_file() and marker.read_text() == key


def checkout(repo: Path, commit: str, tree: Path):
    """TREE afresh with COMMIT's files (`git archive`, so a bare repository will do)."""
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", repo, "archive", "--format=tar", commit], check=True,
                             stdout=subprocess.PIPE).stdout
    subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)


def mark_built(tree: Path, key: str):
    (tree / BUILT_MARKER).write_text(key)


def asan_flags(penumbra) -> dict:
    """{asan_cflags} and {asan_ldflags}: replay's native build flags as the binary prints them
    (`penumbra replay --print-build-flags`)."""
    text = subprocess.run([str(penumbra), "replay", "--print-build-flags"], check=True, capture_output=True,
                          text=True).stdout
    flags = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    return {"asan_cflags": flags["cflags"], "asan_ldflags": flags["ldflags"]}


def bitcode_env(env: dict) -> dict:
    """ENV with PENUMBRA_INCLUDE first on CPATH (the unified files include penumbra.h)."""
    cpath = [str(PENUMBRA_INCLUDE)] + ([env["CPATH"]] if env.get("CPATH") else [])
    return {**env, "CPATH": ":".join(cpath)}
