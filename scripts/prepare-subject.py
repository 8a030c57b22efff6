#!/usr/bin/env python3
"""prepare-subject.py [--unified] SUBJECT_DIR OUT_DIR: makes a real patch subject ready for `penumbra batch`.

SUBJECT_DIR is a subject of subjects/ (subjects/README.md): `subject.toml` (utility, annotated
files, symbolic environment, the project's tests to take seeds from) and `annotation.patch` (the
patch's two versions unified with penumbra.h's annotations, against Debian's coreutils 9.1).
This script, run by `penumbra batch` (the manifest's `prepare`), writes into OUT_DIR:

- UTILITY.bc: the whole program with both versions, built with wllvm on musl from the patched
  tree (scripts/coreutils-tree.sh musl), for `penumbra shadow --libc musl`;
- old, new: the utility built natively from the same patched tree, once per version
  (-DPENUMBRA_VERSION_OLD / _NEW), with AddressSanitizer and UBSan and the replay runtime
  linked in (scripts/coreutils-tree.sh asan), for replay (`--native-old`, `--native-new`);
- seeds: the project's own tests (`make check TESTS=...` in the patched ASan tree, new
  version) run with the utility replaced by a wrapper that records each invocation's argv,
  stdin and input files and runs the new version's coverage build, each invocation then run
  again on the old version's (in a scratch directory with its recorded files); the invocations
  that executed an annotated line in either become seeds (Shadow's "tests touching the patch"), with the
  invocations of the test upstream added with the fix (subject.toml's `added_tests`, taken
  from a later release's suite) as one more test;
- fixed: with subject.toml's `fixed_patch` (a later fix of a regression, as a diff on top of
  the annotated tree), the fixed version built like new, for replay's `--native-fixed`;
- prepared.json: the source, the flags of every job (libc, native builds) and of each mode
  (complete mode's environment from subject.toml; seeded mode's sized to hold the seeds), the
  seeds, and the counts of the selection.

With --unified, the hand annotation is replaced by penumbra's own: the patch's two versions
(the pristine file, and the new version projected from the annotated file with `penumbra
project`; where the pristine file is the new version, the old one projected too) are merged by
`penumbra unify` (checked against both, with the utility's compile flags), and that unified file is
what every build uses (OUT_DIR/unified.patch). PENUMBRA names the binary (a path, or a name on PATH; default
target/release/penumbra), which gives the native builds their flags too (`penumbra replay
--print-build-flags`); `penumbra batch` sets it to itself.

Each tree is patched only while this script runs and restored afterwards (the utility rebuilt
from the pristine source). Inputs unchanged since the last preparation (same patch,
subject.toml and script) leave OUT_DIR as it is. Environment: WORK (the trees;
~/.cache/penumbra/coreutils-eval, shared with scripts/eval-coreutils.sh).
"""

import fcntl
import functools
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import penumbra_schema

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "ir-frontend" / "include"
RUNTIME = ROOT / "harness" / "src" / "replay" / "runtime.c"
# Replay's sanitizer options: AddressSanitizer stays fatal (UBSan reports and goes on: its
# flags, like every native build flag, are the binary's: native_flags below).
ASAN_OPTIONS = "abort_on_error=1:detect_leaks=0:halt_on_error=1"
# Seeded mode's environment is sized to hold its seeds, within these bounds (a seed beyond
# them is left out, and counted).
MAX_SEED_ARGS = 6
MAX_SEED_ARG_LEN = 32
MAX_SEED_STDIN = 256
MAX_SEED_FILE = 256
MAX_SEED_FILES = 2
# At most this many seeds (the smallest first): each is a concolic run before the search.
MAX_SEEDS = 24
# A captured input file is kept up to this size (a larger one cannot be a seed's file).
CAPTURE_FILE_LIMIT = 4096


def log(msg):
    print(f"prepare-subject: {msg}", file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=None, log_to=None, check=True):
    """Runs cmd; its output goes to log_to (a path) or is returned."""
    full_env = dict(os.environ, **(env or {}))
    if log_to:
        with open(log_to, "ab") as f:
            p = subprocess.run(cmd, cwd=cwd, env=full_env, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    else:
        p = subprocess.run(cmd, cwd=cwd, env=full_env, capture_output=True, stdin=subprocess.DEVNULL)
    if check and p.returncode != 0:
        where = f" (log: {log_to})" if log_to else f":\n{p.stderr.decode(errors='replace')[-3000:]}"
        sys.exit(f"prepare-subject: {' '.join(map(str, cmd))} failed with status {p.returncode}{where}")
    return p


def annotated_lines(patch_text):
    """{file: [line, ...]}: the new-side lines a patch adds (but `#include "penumbra.h"`)."""
    lines, file, new_line = {}, None, 0
    for text in patch_text.splitlines():
        if text.startswith("+++ "):
            file = text[4:].split("\t")[0].strip()
            file = file[2:] if file.startswith("b/") else file
            lines.setdefault(file, [])
        elif text.startswith("@@"):
            new_line = int(re.match(r"@@ -\d+(?:,\d+)? \+(\d+)", text).group(1))
        elif file is None or text.startswith("--- "):
            continue
        elif text.startswith("+"):
            if "penumbra.h" not in text:
                lines[file].append(new_line)
            new_line += 1
        elif text.startswith(" "):
            new_line += 1
    return {f: ls for f, ls in lines.items() if ls}


class PatchedTree:
    """A tree with the annotation patch applied for the duration of a `with` block, held
    under a lock (two preparations never patch one tree at once). The patched files are first
    copied from the pristine source, so a preparation killed while a patch was applied leaves
    nothing that a later one builds on. On leaving, the files are restored and `rebuild` (the
    pristine program again) runs while the lock is still held: run after it, it compiled the
    files another preparation had patched in the meantime (two dd subjects prepared at once:
    `penumbra.h` not found)."""

    def __init__(self, tree, patch, files, pristine, logfile, rebuild):
        self.tree, self.patch, self.files, self.pristine, self.logfile = tree, patch, files, pristine, logfile
        self.rebuild = rebuild

    def restore(self):
        for f in self.files:
            shutil.copy2(self.pristine / f, self.tree / f)
            (self.tree / f).touch()

    def __enter__(self):
        self.lock = open(self.tree / ".penumbra-lock", "w")
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        try:
            self.restore()
            run(["patch", "-p1", "--forward", "--quiet", "-i", str(self.patch)], cwd=self.tree, log_to=self.logfile)
        except BaseException:
            # A patch that does not apply leaves the tree as a `with` block would.
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        try:
            self.restore()
            self.rebuild()
        finally:
            fcntl.flock(self.lock, fcntl.LOCK_UN)
            self.lock.close()


def make_utility(tree, utility, files, cflags, ldflags, logfile, env=None):
    """(Re)builds src/UTILITY with these flags: the annotated files are recompiled, the
    program relinked."""
    for f in files:
        (tree / f).touch()
    (tree / "src" / utility).unlink(missing_ok=True)
    make = ["make", f"src/{utility}", f"CFLAGS={cflags}"]
    if ldflags is not None:
        make.append(f"LDFLAGS={ldflags}")
    run(make, cwd=tree, env=env, log_to=logfile)


def wllvm_env():
    """scripts/wllvm-env.sh musl's variables."""
    out = run(["bash", "-c", f". {shlex.quote(str(ROOT / 'scripts/wllvm-env.sh'))} musl && env -0"]).stdout
    return dict(item.split("=", 1) for item in out.decode().split("\0") if "=" in item)


def build_bitcode(work, subject, patch, out, logfile):
    tree = work / "musl"
    env = wllvm_env()
    cflags = env["PENUMBRA_CFLAGS"]
    utility, files = subject["utility"], subject["files"]

    def pristine():
        make_utility(tree, utility, files, cflags, None, logfile, env)

    with PatchedTree(tree, patch, files, work / "src" / "coreutils-9.1", logfile, pristine):
        make_utility(tree, utility, files, f"{cflags} -I{INCLUDE}", None, logfile, env)
        run(["extract-bc", "-o", str(out / f"{utility}.bc"), f"src/{utility}"], cwd=tree, env=env, log_to=logfile)


# The native builds: old and new for replay, and both with coverage for the tests' runs. Both:
# a line the patch removes runs only in the old version (`change (cond, 0)` compiles to
# nothing in the new), a line it adds only in the new.
COVERAGE_BUILDS = [("old", "OLD", ""), ("new", "NEW", ""), ("old-cov", "OLD", "--coverage"),
                   ("new-cov", "NEW", "--coverage")]


@functools.cache
def native_flags():
    """Replay's native build flags as the binary prints them (`penumbra replay
    --print-build-flags`): (compile flags, with the program's warnings silenced as replay's own
    builds do, link flags)."""
    text = run([penumbra_schema.binary(), "replay", "--print-build-flags"]).stdout.decode()
    flags = dict(line.split(": ", 1) for line in text.splitlines())
    return f"{flags['cflags']} -w", flags["ldflags"]


def build_native(work, subject, patch, out, logfile):
    """The native builds of COVERAGE_BUILDS, each with the replay runtime."""
    tree = work / "asan"
    utility, files = subject["utility"], subject["files"]
    cflags_base, base_ld = native_flags()

    def pristine():
        # The pristine utility again (and no coverage files left behind).
        for f in files:
            for stale in (tree / Path(f).parent).glob(f"*{Path(f).stem}.gc*"):
                stale.unlink()
        make_utility(tree, utility, files, cflags_base, base_ld, logfile, {"ASAN_OPTIONS": ASAN_OPTIONS})

    with PatchedTree(tree, patch, files, work / "src" / "coreutils-9.1", logfile, pristine):
        for name, define, extra in COVERAGE_BUILDS:
            runtime = out / f"runtime-{define.lower()}.o"
            run(["clang-15", *cflags_base.split(), f"-DPENUMBRA_VERSION_{define}", "-I", str(INCLUDE), "-c",
                 str(RUNTIME), "-o", str(runtime)], log_to=logfile)
            cflags = f"{cflags_base} {extra} -DPENUMBRA_VERSION_{define} -I{INCLUDE}"
            make_utility(tree, utility, files, cflags, f"{base_ld} {extra} {runtime}", logfile,
                         {"ASAN_OPTIONS": ASAN_OPTIONS})
            shutil.copy2(tree / "src" / utility, out / name)
            if extra:
                # The build's coverage notes, for reading the tests' runs.
                notes = out / "gcno" / name
                shutil.rmtree(notes, ignore_errors=True)
                notes.mkdir(parents=True)
                for f in files:
                    for gcno in (tree / Path(f).parent).glob(f"*{Path(f).stem}.gcno"):
                        shutil.move(gcno, notes / gcno.name)
        # The annotated files, whose lines the notes name.
        for f in files:
            (out / "annotated" / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(tree / f, out / "annotated" / f)
        seeds = capture_tests(tree, subject, out, logfile)
        if "fixed_patch" in subject:
            build_fixed(tree, subject, out, base_ld, logfile)
    return seeds


def build_fixed(tree, subject, out, base_ld, logfile):
    """The fixed version (replay's `--native-fixed`): subject.toml's `fixed_patch`, a diff
    against the annotated tree whose new version is the later fix, applied on top of it and
    built as the new version. It may change only the annotated files (the tree restores
    those)."""
    fixed_patch = Path(subject["_dir"]) / subject["fixed_patch"]
    changed = {re.sub(r"^b/", "", m) for m in re.findall(r"^\+\+\+ (\S+)", fixed_patch.read_text(), re.M)}
    strays = sorted(set(changed) - set(subject["files"]))
    if strays:
        sys.exit(f"prepare-subject: {fixed_patch} changes {', '.join(strays)}, not among the subject's files")
    run(["patch", "-p1", "--forward", "--quiet", "-i", str(fixed_patch)], cwd=tree, log_to=logfile)
    runtime = out / "runtime-new.o"
    make_utility(tree, subject["utility"], subject["files"], f"{native_flags()[0]} -DPENUMBRA_VERSION_NEW -I{INCLUDE}",
                 f"{base_ld} {runtime}", logfile, {"ASAN_OPTIONS": ASAN_OPTIONS})
    shutil.copy2(tree / "src" / subject["utility"], out / "fixed")


WRAPPER = r'''#!/usr/bin/env python3
# penumbra prepare-subject: records this invocation, then runs the new version's coverage build.
import json, os, signal, subprocess, sys, tempfile
capture = tempfile.mkdtemp(prefix="inv", dir=@CAPTURE@)
args = sys.argv[1:]
data = b""
try:
    if not os.isatty(0):
        data = sys.stdin.buffer.read()
except (OSError, ValueError):
    data = None
files = {}
for a in args:
    if a and not a.startswith("-") and "/" not in a and os.path.isfile(a):
        try:
            with open(a, "rb") as f:
                content = f.read(@LIMIT@ + 1)
            if len(content) <= @LIMIT@:
                files[a] = content.hex()
        except OSError:
            pass
with open(os.path.join(capture, "invocation.json"), "w") as f:
    json.dump({"args": [a.encode("utf-8", "surrogateescape").hex() for a in args],
               "stdin": None if data is None else data.hex(), "files": files}, f)
env = dict(os.environ, GCOV_PREFIX=os.path.join(capture, "new-cov"), GCOV_PREFIX_STRIP="0", ASAN_OPTIONS=@ASAN@)
if data is None:
    p = subprocess.run([sys.argv[0]] + args, executable=@REAL@, stdin=subprocess.DEVNULL, env=env)
else:
    p = subprocess.run([sys.argv[0]] + args, executable=@REAL@, input=data, env=env)
if p.returncode < 0:
    signal.signal(-p.returncode, signal.SIG_DFL)
    os.kill(os.getpid(), -p.returncode)
sys.exit(p.returncode)
'''


def capture_tests(tree, subject, out, logfile):
    """Runs the subject's tests with the utility wrapped; returns the captured invocations
    with their coverage of the annotated lines."""
    utility = subject["utility"]
    capture = out / "captured"
    shutil.rmtree(capture, ignore_errors=True)
    capture.mkdir()
    wrapper = WRAPPER.replace("@CAPTURE@", repr(str(capture))).replace("@REAL@", repr(str(out / "new-cov")))
    wrapper = wrapper.replace("@LIMIT@", str(CAPTURE_FILE_LIMIT)).replace("@ASAN@", repr(ASAN_OPTIONS))
    prog = tree / "src" / utility
    prog.write_text(wrapper)
    prog.chmod(0o755)
    # Newer than the wrapper, so that `make check` does not regenerate the manual page by
    # running the wrapper.
    (tree / "man" / f"{utility}.1").touch()
    tests = subject.get("tests", [])
    results = {}
    for test in tests:
        # One test at a time, to know which invocations each made.
        before = set(capture.iterdir())
        # Other programs built from the annotated files (base64 from basenc.c, `[` from
        # test.c) are rebuilt by `make check`: as the new version, with penumbra.h.
        cflags = f"CFLAGS={native_flags()[0]} -DPENUMBRA_VERSION_NEW -I{INCLUDE}"
        p = run(["make", "check", f"TESTS={test}", "SUBDIRS=.", "VERBOSE=no", "RUN_EXPENSIVE_TESTS=no", cflags],
                cwd=tree, env={"ASAN_OPTIONS": ASAN_OPTIONS}, log_to=logfile, check=False)
        made = sorted(set(capture.iterdir()) - before)
        results[test] = (p.returncode, made)
        log(f"{test}: {len(made)} invocations of {utility} (make check status {p.returncode})")
    added = subject.get("added_tests", [])
    if added:
        results[ADDED] = (0, [run_added_test(t, out, capture) for t in added])
        log(f"{len(added)} invocations of the test upstream added with the fix")
    return results


# The pseudo-test of subject.toml's `added_tests`: the invocations of the test upstream added
# with the fix (in a later release's suite), run as the wrapper would record them.
ADDED = "added with the fix"


def run_added_test(test, out, capture):
    """Runs one `added_tests` entry on both coverage builds, recorded like a wrapped
    invocation; returns its capture directory."""
    inv = Path(tempfile.mkdtemp(prefix="added", dir=capture))
    files = {name: text.encode("utf-8", "surrogateescape").hex() for name, text in test.get("files", {}).items()}
    stdin = test.get("stdin", "").encode("utf-8", "surrogateescape")
    (inv / "invocation.json").write_text(json.dumps({
        "args": [a.encode("utf-8", "surrogateescape").hex() for a in test["args"]],
        "stdin": stdin.hex(), "files": files}))
    for build in ["old-cov", "new-cov"]:
        rerun(inv, out, build)
    return inv


def rerun(inv, out, build):
    """Runs a recorded invocation on `build` (coverage into inv/build), in a scratch directory
    holding its recorded input files. The tests ran only the new version: this gives the old
    version's coverage (a line the patch removes runs only there), away from the test's own
    files and pipes."""
    rec = json.loads((inv / "invocation.json").read_text())
    cwd = inv / f"cwd-{build}"
    cwd.mkdir()
    for name, content in rec["files"].items():
        (cwd / name).write_bytes(bytes.fromhex(content))
    args = [bytes.fromhex(a) for a in rec["args"]]
    stdin = bytes.fromhex(rec["stdin"]) if rec.get("stdin") else b""
    env = dict(os.environ, GCOV_PREFIX=str(inv / build), GCOV_PREFIX_STRIP="0", ASAN_OPTIONS=ASAN_OPTIONS)
    try:
        subprocess.run([str(out / build), *args], input=stdin, cwd=cwd, env=env, capture_output=True, timeout=5)
    except subprocess.TimeoutExpired:
        pass


def executed_lines(invocation_dir, subject, notes, annotated):
    """The annotated lines (file, line) this invocation executed, from its .gcda files (found
    wherever under the invocation's directory the prefix put them)."""
    hit = []
    lines = subject["_annotated"]
    for f, build in [(f, b) for f in subject["files"] for b in ["old-cov", "new-cov"]]:
        stem = Path(f).stem
        for gcda in sorted((invocation_dir / build).rglob(f"*{stem}.gcda")):
            gcno = notes / build / (gcda.name[: -len(".gcda")] + ".gcno")
            if not gcno.exists():
                continue
            shutil.copy2(gcno, gcda.parent / gcno.name)
            # Run where the notes' relative source paths name the annotated files.
            p = run(["llvm-cov-15", "gcov", "-t", "-o", str(gcda)[: -len(".gcda")], f], cwd=annotated, check=False)
            # -t prints every source file of the object (headers too): count f's section only.
            section = None
            for text in p.stdout.decode(errors="replace").splitlines():
                source = re.match(r"\s*-:\s*0:Source:(.*)", text)
                if source:
                    section = source.group(1).strip()
                    continue
                m = re.match(r"\s*([0-9]+)\*?:\s*(\d+):", text)
                if section == f and m and int(m.group(1)) > 0 and int(m.group(2)) in lines.get(f, []):
                    hit.append((f, int(m.group(2))))
    return hit


def seed_of(inv):
    """An invocation as penumbra's seed objects: (args, stdin, files), with input files
    renamed A, B, ... as in penumbra's symbolic file system."""
    args = [bytes.fromhex(a) for a in inv["args"]]
    files = []
    for i, a in enumerate(args):
        name = a.decode("utf-8", "surrogateescape")
        if name in inv["files"]:
            letter = chr(ord("A") + len(files))
            files.append(bytes.fromhex(inv["files"][name]))
            args[i] = letter.encode()
    stdin = bytes.fromhex(inv["stdin"]) if inv.get("stdin") else b""
    return tuple(args), stdin, tuple(files)


def seeded_environment(added, seeds):
    """The smallest environment holding every seed (within the bounds), and the seeds in it
    as `--seed` strings: those of the test added with the fix first (in their order), then the
    others, smallest first, up to MAX_SEEDS."""
    def fits(s):
        return (len(s[0]) <= MAX_SEED_ARGS and all(len(a) <= MAX_SEED_ARG_LEN for a in s[0])
                and len(s[1]) <= MAX_SEED_STDIN and len(s[2]) <= MAX_SEED_FILES
                and all(len(f) <= MAX_SEED_FILE for f in s[2]))
    size = lambda s: (sum(map(len, s[0])) + len(s[1]) + sum(map(len, s[2])), s)
    fitting = []
    for s in [s for s in added if fits(s)] + sorted({s for s in seeds if fits(s)}, key=size):
        if s not in fitting:
            fitting.append(s)
    fitting = fitting[:MAX_SEEDS]
    if not fitting:
        return [], [], 0
    n = max(len(s[0]) for s in fitting)
    length = max((len(a) for s in fitting for a in s[0]), default=1)
    stdin = max(len(s[1]) for s in fitting)
    nfiles = max(len(s[2]) for s in fitting)
    fsize = max((len(f) for s in fitting for f in s[2]), default=0)
    flags = ["--sym-args", "0", str(n), str(max(length, 1))]
    if stdin:
        flags += ["--sym-stdin", str(stdin)]
    if nfiles:
        flags += ["--sym-files", str(nfiles), str(max(fsize, 1))]
    strings = []
    for args, data, files in fitting:
        parts = [f"n_args={len(args)}"] + [f"arg{i:02}=hex:{a.hex()}" for i, a in enumerate(args) if a]
        if data:
            parts.append(f"stdin=hex:{data.hex()}")
        parts += [f"{chr(ord('A') + i)}-data=hex:{f.hex()}" for i, f in enumerate(files) if f]
        strings.append(",".join(parts))
    return flags, strings, len(fitting)


def unified_patch(work, subject, patch, out):
    """The annotation penumbra unify makes from the patch's two versions (the pristine file and
    the annotated file's new projection), as a patch against the pristine source (OUT/unified.patch); the unified files
    are checked by unify itself."""
    pristine = work / "src" / "coreutils-9.1"
    asan = work / "asan"
    makefile = (asan / "Makefile").read_text(errors="replace")
    # The utility's own preprocessor flags (basenc.c is built with -DBASE_TYPE=42).
    m = re.search(rf"^src_{re.escape(subject['utility'])}_CPPFLAGS = (.*)$", makefile, re.M)
    cppflags = [f for f in shlex.split(m.group(1)) if f.startswith("-D")] if m else []
    penumbra = penumbra_schema.binary()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for d in ("annotated", "old", "new", "unified"):
            for f in subject["files"]:
                (tmp / d / f).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(pristine / f, tmp / d / f)
        run(["patch", "-p1", "--forward", "--quiet", "-i", str(patch)], cwd=tmp / "annotated")
        diff = []
        for f in subject["files"]:
            # The old version is the pristine file, the new one the annotation's projection;
            # unless the pristine file is the new version (dd-appenderrors annotates a patch
            # Debian's tree already carries), when the old one is the projection too.
            for version in ("old", "new"):
                run([penumbra, "project", str(tmp / "annotated" / f), "--version", version, "-o", str(tmp / version / f)])
            squeeze = lambda text: "".join(text.replace('#include "penumbra.h"', "").split())
            if squeeze((tmp / "new" / f).read_text()) != squeeze((pristine / f).read_text()):
                shutil.copy2(pristine / f, tmp / "old" / f)
            includes = [f"-I{asan}", f"-I{asan / 'lib'}", f"-I{asan / 'src'}"]
            done = run([penumbra, "unify", str(tmp / "old" / f), str(tmp / "new" / f), "-o", str(tmp / "unified" / f),
                        *includes, *cppflags], check=False)
            (out / "unify.log").write_bytes(done.stdout + done.stderr)
            if done.returncode != 0:
                sys.exit(f"prepare-subject: penumbra unify failed on {f}:\n{done.stderr.decode(errors='replace')[-3000:]}")
            d = run(["diff", "-u", "--label", f"a/{f}", "--label", f"b/{f}", str(pristine / f), str(tmp / "unified" / f)],
                    check=False)
            diff.append(d.stdout.decode())
    result = out / "unified.patch"
    result.write_text("".join(diff))
    return result


def main():
    args = sys.argv[1:]
    unified = "--unified" in args
    args = [a for a in args if a != "--unified"]
    if len(args) != 2:
        sys.exit(__doc__)
    subject_dir, out = Path(args[0]).resolve(), Path(args[1]).resolve()
    project = subject_dir.parent.name
    if project != "coreutils-9.1":
        sys.exit(f"prepare-subject: {subject_dir}: only coreutils-9.1 subjects can be prepared (not {project})")
    subject = tomllib.loads((subject_dir / "subject.toml").read_text())
    subject["_dir"] = subject_dir
    patch = subject_dir / "annotation.patch"
    out.mkdir(parents=True, exist_ok=True)
    inputs = hashlib.sha256()
    fixed = [subject_dir / subject["fixed_patch"]] if "fixed_patch" in subject else []
    for f in [subject_dir / "subject.toml", patch, *fixed, Path(__file__), RUNTIME, INCLUDE / "penumbra.h"]:
        inputs.update(f.read_bytes())
    inputs.update(b"unified" if unified else b"hand")
    inputs.update(" ".join(native_flags()).encode())
    stamp = out / ".inputs"
    if stamp.exists() and stamp.read_text() == inputs.hexdigest() and (out / "prepared.json").exists():
        log(f"{subject_dir.name}: prepared already ({out})")
        return
    stamp.unlink(missing_ok=True)
    work = Path(os.environ.get("WORK", Path.home() / ".cache/penumbra/coreutils-eval"))
    log(f"{subject_dir.name}: the trees in {work}")
    run(["bash", str(ROOT / "scripts/coreutils-tree.sh"), "musl", "asan"], env={"WORK": str(work), "PENUMBRA": penumbra_schema.binary()})
    if unified:
        log(f"{subject_dir.name}: penumbra unify of the patch's two versions")
        patch = unified_patch(work, subject, patch, out)
    subject["_annotated"] = annotated_lines(patch.read_text())
    logfile = out / "prepare.log"
    logfile.unlink(missing_ok=True)
    log(f"{subject_dir.name}: whole-program bitcode ({logfile})")
    build_bitcode(work, subject, patch, out, logfile)
    log(f"{subject_dir.name}: native old and new builds, and the tests' invocations")
    captured = build_native(work, subject, patch, out, logfile)

    notes = out / "gcno"
    tests_touching, invocations, touching, seeds, added = 0, 0, 0, [], []
    for test, (status, made) in sorted(captured.items()):
        any_touch = False
        for inv_dir in made:
            invocations += 1
            inv = json.loads((inv_dir / "invocation.json").read_text())
            if test != ADDED:
                rerun(inv_dir, out, "old-cov")
            if executed_lines(inv_dir, subject, notes, out / "annotated"):
                touching += 1
                any_touch = True
                (added if test == ADDED else seeds).append(seed_of(inv))
        tests_touching += any_touch
    env_flags, seed_strings, used = seeded_environment(added, seeds)
    log(f"{subject_dir.name}: {touching} of {invocations} invocations ({tests_touching} of {len(captured)} tests) "
        f"execute an annotated line; {used} distinct seeds fit seeded mode's bounds")
    shutil.rmtree(out / "captured", ignore_errors=True)

    def environment(spec):
        flags = []
        if "sym_args" in spec:
            flags += ["--sym-args", *map(str, spec["sym_args"])]
        if "sym_stdin" in spec:
            flags += ["--sym-stdin", str(spec["sym_stdin"])]
        if "sym_files" in spec:
            flags += ["--sym-files", *map(str, spec["sym_files"])]
        return flags

    prepared = {
        "source": f"{subject['utility']}.bc",
        "flags": ["--libc", "musl", "--native-old", "old", "--native-new", "new"]
        + (["--native-fixed", "fixed"] if "fixed_patch" in subject else []),
        "mode_flags": {"complete": environment(subject), "seeded": env_flags},
        "seeds": seed_strings,
        "seed_selection": {"tests": len(captured), "invocations": invocations, "touching": touching,
                           "tests_touching": tests_touching},
    }
    (out / "prepared.json").write_text(json.dumps(prepared, indent=2) + "\n")
    stamp.write_text(inputs.hexdigest())
    log(f"{subject_dir.name}: wrote {out / 'prepared.json'}")


if __name__ == "__main__":
    main()
