#!/usr/bin/env python3
"""coreutils-rev-invocations.py: the invocations of a utility that a coreutils revision's own
test makes, and which of them execute the lines a commit changes.

    coreutils-rev-invocations.py --git COREUTILS_GIT --commit REV --utility cut \
        --old OLD_TREE --new NEW_TREE [--fixed FIXED_TREE] [--suite NAME=TREE:TEST]... \
        [--extra NAME=FILE]... [--penumbra BINARY] --out FILE.json

OLD_TREE and NEW_TREE are trees of scripts/coreutils-rev.sh for REV^ and REV (their `gcov`
kind: OLD_TREE/gcov/src/UTILITY built with gcc --coverage). Each suite (default: `era=NEW_TREE:`
the tests of the utility in REV itself, era_tests below; TEST may list several, comma-separated,
each by its make rule; an absolute TEST is a script run
as `sh TEST TREE/gcov`, as CoREBench runs its regression.sh) is run in TREE/gcov with
src/UTILITY replaced by a wrapper that records each invocation (argv, stdin, the files named in
argv, the file its stdout goes to, which names the test case) and then runs the real program, so
the test still checks its outputs. The test case is named by the file its stdout went to
(`NAME.O`; `UTILITY.log` is the suite's own `UTILITY --version`, which Coreutils.pm runs since
the Makefile sets VERBOSE=yes). `--extra NAME=FILE` adds invocations written by hand (a JSON
list of {"name", "args", "stdin"}), e.g. CoREBench's regression.sh.

Every invocation is then run again, in a scratch directory holding its files, on the old and the
new coverage build (and on --fixed TREE's, for its output only); gcc's gcov (JSON) says which
lines of src/UTILITY.c each executed. An invocation touches the patch when the old build
executed a line the commit removes or changes, or the new build one it adds or changes
(`git diff OLD REV -- src/UTILITY.c`, OLD the commit OLD_TREE was built from, and of each
--source FILE: a patch to rm's remove.c). With --penumbra BINARY, each distinct invocation also
runs, files renamed A, B, ... as penumbra's --sym-files, on each tree's static musl binary
(TREE/musl/src/UTILITY) and under `penumbra exec --libc musl TREE/musl/src/UTILITY.bc`.

The JSON list written holds, per invocation: suite, case, first_seen_in (the first suite that
made the same invocation), args, stdin and files (text, and exact bytes as *_hex), lc_all,
VERSION_status and VERSION_stdout of each coverage build (a negative status: killed by that
signal), old_changed_lines_run, new_changed_lines_run, touches_patch, seed (the invocation as
`penumbra shadow --seed` takes it, as prepare-subject.py writes seeds; null beyond seeded mode's
bounds) and, with --penumbra, VERSION_musl_status, VERSION_musl_stdout, VERSION_exec_status,
VERSION_exec_stdout and VERSION_exec_error (penumbra's first diagnostic line). The log ends with
counts per suite, each suite's seeded-mode environment for its touching invocations, and how
often `penumbra exec` agreed with the musl binary.
"""

import argparse
import contextlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# Loaded by path as a module too (its tests, commit-pair.py): its neighbours are found from here.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import commit_pair_build  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# The recording wrapper: written over TREE/gcov/src/UTILITY while a suite runs.
WRAPPER = r'''#!/usr/bin/env python3
# coreutils-rev-invocations: records this invocation, then runs the real program.
import json, os, signal, subprocess, sys, time
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
        with open(a, "rb") as f:
            content = f.read(@LIMIT@ + 1)
        if len(content) <= @LIMIT@:
            files[a] = content.hex()
try:
    stdout_file = os.path.basename(os.readlink("/proc/self/fd/1"))
except OSError:
    stdout_file = None
record = {"args": [os.fsencode(a).hex() for a in args], "stdin": None if data is None else data.hex(),
          "files": files, "stdout_file": stdout_file, "lc_all": os.environ.get("LC_ALL")}
with open(os.path.join(@CAPTURE@, "%020d-%d.json" % (time.time_ns(), os.getpid())), "w") as f:
    json.dump(record, f)
# The kernel gave the interpreter the path it found on PATH; the test ran plain `UTILITY` (its
# expected diagnostics say `cut: ...`).
argv0 = os.path.basename(sys.argv[0])
if data is None:
    p = subprocess.run([argv0] + args, executable=@REAL@, stdin=subprocess.DEVNULL)
else:
    p = subprocess.run([argv0] + args, executable=@REAL@, input=data)
if p.returncode < 0:
    signal.signal(-p.returncode, signal.SIG_DFL)
    os.kill(os.getpid(), -p.returncode)
sys.exit(p.returncode)
'''
# A recorded input file is kept up to this size (as prepare-subject.py's CAPTURE_FILE_LIMIT).
FILE_LIMIT = 4096


def log(msg):
    print(f"coreutils-rev-invocations: {msg}", file=sys.stderr, flush=True)


def prepare_subject():
    """scripts/prepare-subject.py as a module: its seed format is the one `penumbra batch` reads."""
    spec = importlib.util.spec_from_file_location("prepare_subject", ROOT / "scripts" / "prepare-subject.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def changed_lines(git, base, commit, path):
    """(old lines, new lines) of `path` that base..commit removes/changes and adds/changes."""
    diff = subprocess.run(["git", "-C", git, "diff", "-U0", base, commit, "--", path],
                          capture_output=True, text=True, check=True).stdout
    old, new = [], []
    for text in diff.splitlines():
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", text)
        if m:
            o, oc, n, nc = int(m[1]), int(m[2] or 1), int(m[3]), int(m[4] or 1)
            old += range(o, o + oc)
            new += range(n, n + nc)
    return old, new


def real_binary(build, utility):
    """BUILD/src/UTILITY.penumbra-real: a copy of the program as built (a wrapper a killed run
    left in its place is put back first)."""
    prog = build / "src" / utility
    real = build / "src" / f"{utility}.penumbra-real"
    if real.exists() and prog.read_bytes()[:2] == b"#!":
        shutil.copy2(real, prog)
    shutil.copy2(prog, real)
    return real


def makefile_list(text, variable):
    """The words of a makefile variable's definition (`VAR = a b \\` and its continued lines)."""
    m = re.search(rf"^{variable}\s*\+?=((?:[^\n]*\\\n)*[^\n]*)", text, re.M)
    return m[1].replace("\\\n", " ").split() if m else []


def era_tests(tree, utility):
    """The tests of UTILITY in a coreutils source tree, as paths from its top, each run by its own
    make rule: tests/misc/UTILITY.pl (2010 on) or tests/misc/UTILITY (2007-2011), and the tests
    of the directory tests/UTILITY/ (the TESTS of its own Makefile.am in 2004-2007, the entries
    under it of tests/Makefile.am or tests/local.mk later: ls, du, cp, rm)."""
    tree = Path(tree)
    found = [name for name in (f"tests/misc/{utility}.pl", f"tests/misc/{utility}") if (tree / name).is_file()]
    own = tree / "tests" / utility / "Makefile.am"
    if own.is_file():
        text = own.read_text(errors="replace")
        x = re.search(r"^x\s*=\s*(\S+)", text, re.M)
        # Its TESTS may be made by make (`$x-tests`, by tests/mk-script from Test.pm).
        for word in makefile_list(text, "TESTS"):
            word = word.replace("$(x)", x[1] if x else "").replace("$x", x[1] if x else "")
            found.append(f"tests/{utility}/{word}")
    for makefile in ("tests/Makefile.am", "tests/local.mk"):
        path = tree / makefile
        if path.is_file():
            for word in path.read_text(errors="replace").split():
                m = re.fullmatch(rf"(?:tests/)?({re.escape(utility)}/[\w.+-]+)", word)
                if m and (tree / "tests" / m[1]).is_file():
                    found.append(f"tests/{m[1]}")
    return list(dict.fromkeys(found))


def test_rule(build, test):
    """(directory, target): where `make TARGET` runs TEST (a path from the tree's top) by its own
    rule: the deepest directory above it whose Makefile knows `REL.log` (tests/UTILITY/ of
    2004-2007, tests/ of 2008-2011, the top since)."""
    path = Path(test)
    log_name = re.sub(r"\.(pl|sh|xpl)$", "", path.name) + ".log"
    for directory in path.parents:
        if not (build / directory / "Makefile").is_file():
            continue
        target = str((path.parent / log_name).relative_to(directory))
        known = subprocess.run(["make", "-n", target], cwd=build / directory, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=120)
        if known.returncode == 0:
            return build / directory, target
    sys.exit(f"coreutils-rev-invocations: no makefile of {build} has a rule for {test}'s log")


def run_suite(tree, utility, tests, capture):
    """Runs the test scripts of a suite (a comma-separated list) in the tree's gcov build with the
    utility wrapped, each into its own directory of CAPTURE (tests[i]): a test of the tree
    (`tests/...`, by its make rule), or a script outside it (an absolute path, such as CoREBench's
    regression.sh), run as `sh SCRIPT BUILD` in a scratch directory, as CoREBench runs it with
    the version's directory. Returns each test's result."""
    build = Path(tree) / "gcov"
    prog = build / "src" / utility
    real = real_binary(build, utility)
    wrapper = WRAPPER.replace("@REAL@", repr(str(real))).replace("@LIMIT@", str(FILE_LIMIT))
    results = {}
    for i, test in enumerate(tests.split(",")):
        into = capture / str(i)
        into.mkdir(parents=True)
        prog.write_text(wrapper.replace("@CAPTURE@", repr(str(into))))
        prog.chmod(0o755)
        try:
            results[test] = run_test(build, utility, test, into)
        finally:
            shutil.copy2(real, prog)
    return results


# 2009-2011's tests/check.mk: the test itself, a Perl or a shell script, chosen as its
# TESTS_ENVIRONMENT's shell_or_perl_ chose (which ran only its first argument: the test, under
# the automake of its day).
SHELL_OR_PERL = r'''#!/bin/sh
if grep '^#!/usr/bin/perl' "$1" >/dev/null; then
  grep '^#!/usr/bin/perl -T' "$1" >/dev/null && T_=T || T_=
  exec perl -w$T_ -I"$srcdir" -MCoreutils -M"CuTmpdir qw($(basename "$1"))" -- "$1"
fi
exec /bin/sh "$1"
'''


def era_makefile(directory):
    """The makefile to run a test's rule with in DIRECTORY: its Makefile, or for 2009-2011's
    tests/check.mk, whose TESTS_ENVIRONMENT ends in `shell_or_perl_` and expects the test as
    the next word, where today's automake puts its test driver (`/bin/bash: /bin/bash: cannot
    execute binary file`), a copy without that word whose LOG_COMPILER does what it did."""
    makefile = directory / "Makefile"
    text = makefile.read_text(errors="replace")
    if not re.search(r"^\s*; shell_or_perl_\s*$", text, re.M):
        return "Makefile"
    wrapper = directory / ".penumbra-shell-or-perl"
    wrapper.write_text(SHELL_OR_PERL)
    wrapper.chmod(0o755)
    text = re.sub(r"^(\s*); shell_or_perl_\s*$", r"\1;", text, flags=re.M)
    text += f"\nLOG_COMPILER = {wrapper}\n"
    (directory / "Makefile.penumbra").write_text(text)
    return "Makefile.penumbra"


def run_test(build, utility, test, capture):
    """One test of run_suite, the utility already wrapped."""
    if Path(test).is_absolute():
        with tempfile.TemporaryDirectory(prefix="cu-script-") as scratch:
            p = subprocess.run(["sh", test, str(build)], cwd=scratch, stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=600)
        # CoREBench's regression.sh fails (status 1) on a version with the regression.
        log(f"{build}: {test}: exit status {p.returncode}, {len(list(capture.iterdir()))} invocations of {utility}")
        return "fail" if p.returncode else "pass"
    directory, target = test_rule(build, test)
    log_file = directory / target
    trs = log_file.with_suffix(".trs")
    log_file.unlink(missing_ok=True)
    trs.unlink(missing_ok=True)
    # The test's own rule (not `make check`, which would build every program first).
    p = subprocess.run(["make", "-f", era_makefile(directory), target], cwd=directory, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=600)
    status = re.search(r"^:test-result: (\S+)", trs.read_text(errors="replace"), re.M) if trs.exists() else None
    log(f"{build}: {test}: {status[1] if status else 'no result'} (make status {p.returncode}), "
        f"{len(list(capture.iterdir()))} invocations of {utility}")
    if p.returncode != 0 and not status:
        said = [line for line in p.stderr.decode(errors="replace").splitlines() if line.strip()]
        # The test's own complaint, above make's `Error N` line, is the reason.
        why = next((line for line in reversed(said) if not line.startswith("make")), said[-1] if said else "")
        sys.exit(f"coreutils-rev-invocations: make {target} in {directory} failed:\n"
                 + "\n".join(said[-30:]) + f"\n{test}: {why}")
    return status[1] if status else None


def text(data):
    return data.decode("utf-8", "backslashreplace")


def run_on(build, utility, inv, scratch, sources):
    """Runs an invocation on a tree's gcov build: (status, stdout, {(source, line): count} for
    each of `sources`, the program's files whose changes count, e.g. src/UTILITY.c)."""
    cwd = scratch / "cwd"
    shutil.rmtree(scratch, ignore_errors=True)
    cwd.mkdir(parents=True)
    for name, content in inv["files"].items():
        (cwd / name).write_bytes(bytes.fromhex(content))
    args = [bytes.fromhex(a) for a in inv["args"]]
    env = dict(os.environ, LC_ALL=inv.get("lc_all") or "C", GCOV_PREFIX=str(scratch / "gcda"), GCOV_PREFIX_STRIP="0")
    real = build / "src" / f"{utility}.penumbra-real"
    try:
        p = subprocess.run([utility.encode(), *args], executable=real, input=bytes.fromhex(inv["stdin"] or ""),
                           cwd=cwd, env=env, capture_output=True, timeout=10)
        status, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired:
        status, out = "timeout", b""
    counts = {}
    # Each object's counts land under GCOV_PREFIX at the object's own absolute path; its notes
    # (.gcno) are beside the object in the build. An object of SOURCE is named after its stem,
    # possibly with automake's per-program prefix (src/src_rm-remove.o).
    stems = {Path(source).stem for source in sources}
    gcda_root = scratch / "gcda"
    for gcda in gcda_root.rglob("*.gcda"):
        if not any(gcda.stem == stem or gcda.stem.endswith(f"-{stem}") for stem in stems):
            continue
        obj = gcda.parent
        notes = Path("/") / gcda.relative_to(gcda_root).with_suffix(".gcno")
        if not notes.is_file():
            continue
        shutil.copy2(notes, obj / notes.name)
        g = subprocess.run(["gcov", "--json-format", "--stdout", "-o", str(obj), str(gcda)],
                           cwd=obj, capture_output=True, check=True)
        for line in g.stdout.decode().splitlines():
            for f in json.loads(line)["files"]:
                # A recursive-make tree (before 2012) compiled in src/: its paths are relative.
                path = os.path.normpath(notes.parent / f["file"])
                source = next((s for s in sources if path.endswith("/" + s)), None)
                if source is not None:
                    for ln in f["lines"]:
                        key = (source, ln["line_number"])
                        counts[key] = counts.get(key, 0) + ln["count"]
    return status, out, counts


def run_musl(tree, utility, penumbra, inv, seed, scratch):
    """Runs an invocation as penumbra's seed (files renamed A, B, ...) on the tree's static musl
    binary and under `penumbra exec` of its bitcode: {musl_status, musl_stdout, exec_status,
    exec_stdout, exec_error}, or {exec_skipped: why}."""
    args, stdin, files = seed
    if len(set(map(len, files))) > 1:
        return {"exec_skipped": "input files of different sizes (--sym-files has one size)"}
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    for i, content in enumerate(files):
        (scratch / chr(ord("A") + i)).write_bytes(content)
    (scratch / "penumbra-stdin").write_bytes(stdin)
    env = {"LC_ALL": inv["lc_all"]} if inv.get("lc_all") else {}
    native = subprocess.run([utility.encode(), *args], executable=tree / "musl" / "src" / utility, input=stdin,
                            cwd=scratch, env=env, capture_output=True, timeout=10)
    cmd = [penumbra, "exec", "--libc", "musl", str(tree / "musl" / "src" / f"{utility}.bc"),
           "--stdin", "penumbra-stdin"] + [f"--env={k}={v}" for k, v in env.items()]
    if files:
        cmd += ["--sym-files", str(len(files)), str(len(files[0]))]
        cmd += [f"--input={chr(ord('A') + i)}-data=hex:{c.hex()}" for i, c in enumerate(files) if c]
    try:
        p = subprocess.run([os.fsencode(c) for c in cmd] + [b"--", *args], cwd=scratch, capture_output=True,
                           timeout=120)
    except subprocess.TimeoutExpired:
        return {"musl_status": native.returncode, "musl_stdout": text(native.stdout), "exec_status": "timeout"}
    errors = [ln for ln in p.stderr.decode(errors="replace").splitlines() if ln.startswith("penumbra:")]
    return {"musl_status": native.returncode, "musl_stdout": text(native.stdout),
            "exec_status": p.returncode, "exec_stdout": text(p.stdout), "exec_error": errors[0] if errors else None}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--git", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--utility", default="cut")
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--fixed")
    ap.add_argument("--suite", action="append", default=[], help="NAME=TREE:TEST[,TEST]...")
    ap.add_argument("--extra", action="append", default=[], help="NAME=FILE.json")
    ap.add_argument("--source", action="append", default=[],
                    help="a file of the program whose changed lines count (repeatable; default src/UTILITY.c)")
    ap.add_argument("--penumbra", help="also run each invocation under `penumbra exec` of TREE/musl's bitcode")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    utility = a.utility
    suites = a.suite or [f"era={a.new}:{','.join(era_tests(Path(a.new) / 'src', utility))}"]
    sources = a.source or [f"src/{utility}.c"]
    # The old tree's own commit (coreutils-rev.sh records it): REV^ unless REV is the first
    # revision after the introducing commit that builds.
    recorded = Path(a.old) / "src" / ".penumbra-commit"
    base = recorded.read_text().strip() if recorded.is_file() else f"{a.commit}^"
    old_lines, new_lines = [], []
    for source in sources:
        old, new = changed_lines(a.git, base, a.commit, source)
        old_lines += [(source, line) for line in old]
        new_lines += [(source, line) for line in new]
    log(f"lines changed by {a.commit}: old {old_lines}, new {new_lines}")
    builds = {"old": Path(a.old) / "gcov", "new": Path(a.new) / "gcov"}
    if a.fixed:
        builds["fixed"] = Path(a.fixed) / "gcov"
    # A suite runs with the wrapper written over the build's program, and every run resets and
    # reads the build's coverage counters: two preparations sharing a tree (a regression and
    # its `+regression-test` twin, prepared in parallel by `penumbra batch --jobs`) would read
    # each other's. Each build is held for the whole script, in one order (no deadlock).
    suite_builds = {Path(spec.split("=", 1)[1].split(":", 1)[0]) / "gcov" for spec in suites}
    locks = contextlib.ExitStack()
    for b in sorted({b.resolve() for b in [*builds.values(), *suite_builds]}):
        locks.enter_context(commit_pair_build.locked(b))
    for b in builds.values():
        real_binary(b, utility)

    work = Path(tempfile.mkdtemp(prefix="cu-inv-"))
    invocations = []
    suite_status = {}
    for spec in suites:
        name, rest = spec.split("=", 1)
        tree, test = rest.split(":", 1)
        capture = work / "capture" / name
        suite_status[name] = run_suite(tree, utility, test, capture)
        several = len(suite_status[name]) > 1
        for i, one in enumerate(suite_status[name]):
            for rec in sorted((capture / str(i)).iterdir()):
                inv = json.loads(rec.read_text())
                case = re.sub(r"\.O$", "", inv.pop("stdout_file") or "")
                # A suite of several scripts names the script too (`rm/r-1:out`).
                inv["case"] = f"{Path(one).parent.name}/{Path(one).name}:{case}" if several else case
                inv["suite"] = name
                invocations.append(inv)
    for spec in a.extra:
        name, path = spec.split("=", 1)
        for e in json.loads(Path(path).read_text()):
            invocations.append({"suite": name, "case": e["name"], "args": [os.fsencode(x).hex() for x in e["args"]],
                                "stdin": os.fsencode(e.get("stdin", "")).hex(), "files": {}})

    ps = prepare_subject()
    trees = {"old": Path(a.old), "new": Path(a.new)} | ({"fixed": Path(a.fixed)} if a.fixed else {})
    exec_cache = {}
    first_seen = {}
    result = []
    seeds_of = []
    for i, inv in enumerate(invocations):
        entry = {"suite": inv["suite"], "case": inv["case"],
                 "args": [text(bytes.fromhex(x)) for x in inv["args"]], "args_hex": inv["args"],
                 "stdin": None if inv["stdin"] is None else text(bytes.fromhex(inv["stdin"])),
                 "stdin_hex": inv["stdin"],
                 "files": {n: text(bytes.fromhex(c)) for n, c in inv["files"].items()},
                 "files_hex": inv["files"], "lc_all": inv.get("lc_all")}
        same = json.dumps([inv["args"], inv["stdin"], inv["files"], inv.get("lc_all")])
        entry["first_seen_in"] = first_seen.setdefault(same, inv["suite"])
        hits = {}
        for version, build in builds.items():
            status, out, counts = run_on(build, utility, inv, work / "run" / f"{i}-{version}", sources)
            entry[f"{version}_status"] = status
            entry[f"{version}_stdout"] = text(out)
            hits[version] = counts
        # Lines of src/UTILITY.c as numbers, of other sources as "FILE:LINE".
        named = lambda key: key[1] if key[0] == f"src/{utility}.c" else f"{key[0]}:{key[1]}"
        entry["old_changed_lines_run"] = [named(k) for k in sorted(old_lines) if hits["old"].get(k, 0) > 0]
        entry["new_changed_lines_run"] = [named(k) for k in sorted(new_lines) if hits["new"].get(k, 0) > 0]
        entry["touches_patch"] = bool(entry["old_changed_lines_run"] or entry["new_changed_lines_run"])
        seed = ps.seed_of({"args": inv["args"], "stdin": inv["stdin"], "files": inv["files"]})
        _, strings, _ = ps.seeded_environment([seed], [])
        entry["seed"] = strings[0] if strings else None
        seeds_of.append(seed)
        if a.penumbra:
            for version, tree in trees.items():
                if (version, same) not in exec_cache:
                    exec_cache[version, same] = run_musl(tree, utility, a.penumbra, inv, seed,
                                                         work / "musl" / f"{i}-{version}")
                for k, v in exec_cache[version, same].items():
                    entry[f"{version}_{k}"] = v
        result.append(entry)

    Path(a.out).write_text(json.dumps(result, indent=1) + "\n")
    shutil.rmtree(work)
    locks.close()
    touching = [e for e in result if e["touches_patch"]]
    log(f"wrote {a.out}: {len(result)} invocations, {len(touching)} touch the patch; suites {suite_status}")
    for suite in dict.fromkeys(e["suite"] for e in result):
        n = [e for e in result if e["suite"] == suite]
        seeds = [seed for e, seed in zip(result, seeds_of) if e["suite"] == suite and e["touches_patch"]]
        flags, strings, _ = ps.seeded_environment([], seeds)
        log(f"  {suite}: {len(n)} invocations ({sum(e['first_seen_in'] == suite for e in n)} not in an earlier "
            f"suite), {len(seeds)} touching ({len(set(seeds))} distinct); seeded mode: {' '.join(flags)}, "
            f"{len(strings)} seeds")
    if a.penumbra:
        for version in trees:
            ran = [e for e in result if f"{version}_exec_status" in e]
            same = [e for e in ran if (e[f"{version}_exec_status"], e.get(f"{version}_exec_stdout"))
                    == (e[f"{version}_musl_status"], e[f"{version}_musl_stdout"])]
            errors = [e for e in ran if e.get(f"{version}_exec_error")]
            log(f"  penumbra exec, {version}: {len(ran)} run ({len(result) - len(ran)} skipped), {len(same)} "
                f"with the musl binary's exit status and stdout, {len(errors)} reported by penumbra")


if __name__ == "__main__":
    main()
