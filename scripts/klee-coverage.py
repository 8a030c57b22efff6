#!/usr/bin/env python3
"""klee-coverage.py: issue 38's protocol, KLEE's side (search-coverage.py is penumbra's). Per
utility of Debian's coreutils 9.1: KLEE 3.3 with its POSIX runtime (scripts/build-klee.sh) on the
utility's bitcode (scripts/coreutils-tree.sh's `klee` tree: glibc headers, the KLEE tutorial's
flags) in the same environment as penumbra (--sym-args 0 2 4 --sym-files 1 8 --sym-stdin 8), for
SECONDS, in a memory cgroup of --memory-gib where the machine lets one be made; then KLEE's tests
(every one by default; --sample N: N evenly spaced) replayed on the same gcov build and by the
same harness as penumbra's (coreutils_eval.run_in: a fresh directory with the test's file,
stdin and the file as regular files, pipes or terminals as their stat objects' st_mode says,
regular stdout, an empty environment): line coverage of src/UTIL.c, once over the
tests of ended paths and once with the tests KLEE writes for the states alive at the deadline
(`.early`, its --dump-states-on-halt, on by default). A test KLEE's halt cut short inside its
argument set-up (no argNN for its n_args) cannot be replayed and is counted as skipped.

Rows go to results/klee-runs.jsonl (appended); `table` updates results/klee-coreutils.json, the
figures search-coverage.py's table sets beside penumbra's (the last row per utility and search).

With KEEP_GCOV=PREFIX the run keeps gcov's annotated source as PREFIX.UTIL.gcov (to compare the
lines two runs cover).

    KLEE_GIT=... KLEE_UCLIBC_GIT=... klee-coverage.py run [--search default|dfs] [--seconds 60] UTIL...
    klee-coverage.py table
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coreutils_eval as ce  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.environ.get("WORK", os.path.expanduser("~/.cache/penumbra/coreutils-eval"))
KLEE_WORK = os.environ.get("KLEE_WORK", os.path.expanduser("~/.cache/penumbra/klee"))
RUNS = os.path.join(ROOT, "results", "klee-runs.jsonl")
FIGURES = os.path.join(ROOT, "results", "klee-coreutils.json")
ENVIRONMENT = ["--sym-args", "0", "2", "4", "--sym-files", "1", "8", "--sym-stdin", "8"]


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True, **kw).stdout.strip()


def klee_binary():
    return sh(["bash", os.path.join(ROOT, "scripts", "build-klee.sh")], env={**os.environ, "WORK": KLEE_WORK})


def bitcode(util):
    """The utility's bitcode from the `klee` tree, built once."""
    bc = os.path.join(WORK, "bc-klee", util + ".bc")
    if not os.path.exists(bc):
        tree = sh(["bash", os.path.join(ROOT, "scripts", "coreutils-tree.sh"), "klee"])
        os.makedirs(os.path.dirname(bc), exist_ok=True)
        subprocess.run(". %s && cd %s/src && extract-bc -o %s %s >/dev/null" % (
            os.path.join(ROOT, "scripts", "wllvm-env.sh"), tree, bc, util), shell=True, check=True,
            executable="/bin/bash")
    return bc


def memory_cgroup(gib):
    """A memory cgroup of `gib` GiB (cgroup v1 or v2) and the file a process joins it by; None
    where the machine does not let one be made (then KLEE's own --max-memory is all)."""
    limit = str(gib << 30)
    for base, limit_file in (("/sys/fs/cgroup/memory", "memory.limit_in_bytes"), ("/sys/fs/cgroup", "memory.max")):
        if not os.path.exists(os.path.join(base, limit_file if base.endswith("memory") else "cgroup.controllers")):
            continue
        path = os.path.join(base, "penumbra-klee")
        try:
            os.makedirs(path, exist_ok=True)
            with open(os.path.join(path, limit_file), "w") as f:
                f.write(limit)
            return os.path.join(path, "cgroup.procs")
        except OSError:
            continue
    return None


def ktest_objects(path):
    """A .ktest file's objects, by name."""
    b = open(path, "rb").read()
    if b[:5] not in (b"KTEST", b"BOUT\n"):
        raise ValueError("%s is not a .ktest file" % path)
    o = 5

    def u32():
        nonlocal o
        v = struct.unpack(">I", b[o:o + 4])[0]
        o += 4
        return v

    def blob():
        nonlocal o
        n = u32()
        v = b[o:o + n]
        o += n
        return v
    version = u32()
    for _ in range(u32()):
        blob()
    if version >= 2:
        u32()
        u32()
    objects = {}
    for _ in range(u32()):
        name = blob().decode()
        objects[name] = blob()
    return objects


def stat_kind(stat):
    """The kind of file KLEE's symbolic stat object (`stdin-stat`, `A-data-stat`: a struct stat,
    st_mode at byte 24) gives a test: a FIFO is a pipe, a character device a terminal, anything
    else (a regular file, or a type the solver left free) a regular file."""
    mode = int.from_bytes(stat[24:28], "little") & 0o170000
    return {0o010000: "pipe", 0o020000: "terminal"}.get(mode, "regular")


def environment(objects):
    """argv (after argv[0]), stdin, files and the kinds of file its stat objects make stdin and
    the files of a KLEE test; None for one cut short in KLEE's argument set-up."""
    n_args = int.from_bytes(objects.get("n_args", b"\0\0\0\0")[:4], "little")
    if any("arg%02d" % i not in objects for i in range(n_args)):
        return None
    args = [objects["arg%02d" % i].split(b"\0")[0] for i in range(n_args)]
    files = {k[:-len("-data")]: v for k, v in objects.items() if k.endswith("-data")}
    kinds = {k[:-len("-stat")].replace("-data", ""): stat_kind(v) for k, v in objects.items() if k.endswith("-stat")}
    return args, objects.get("stdin", b""), files, {}, kinds


def coverage(util, out, sample):
    """Line coverage of src/UTIL.c over the run's tests: ended paths' first, then with `.early`."""
    gcov = sh(["bash", os.path.join(ROOT, "scripts", "coreutils-tree.sh"), "gcov"])
    src = os.path.join(gcov, "src")
    for f in os.listdir(src):
        if f.endswith(".gcda"):
            os.remove(os.path.join(src, f))
    tests = sorted(glob.glob(os.path.join(out, "*.ktest")))
    chosen = ce.spaced(tests, sample) if sample else tests
    early = [t for t in chosen if os.path.exists(t[:-len(".ktest")] + ".early")]
    early_set = set(early)  # once: built per test, it made wc's 62,000 tests a quadratic wait
    ended = [t for t in chosen if t not in early_set]
    scratch = tempfile.mkdtemp(prefix="klee-cov-")
    skipped = []

    def one(test):
        env = environment(ktest_objects(test))
        if env is None:
            skipped.append(test)
            return
        args, stdin, files, variables, kinds = env
        ce.run_in(os.path.join(scratch, "c%d" % threading.get_ident()), [util.encode()] + args, stdin, files,
                  variables, executable=os.path.join(src, util), kinds=kinds)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            list(pool.map(one, ended))
            pct_ended, lines = ce.gcov_percent(src, util)
            list(pool.map(one, early))
        pct, lines = ce.gcov_percent(src, util)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {"tests": len(tests), "replayed": len(chosen), "replayed_early": len(early), "skipped": len(skipped),
            "lines": lines, "pct": pct, "pct_ended": pct_ended}


def run_one(klee, util, search, seconds, sample, gib):
    bc = bitcode(util)
    out = tempfile.mkdtemp(prefix="klee-%s-%s-" % (util, search))
    shutil.rmtree(out)
    sandbox = tempfile.mkdtemp(prefix="klee-sandbox-")
    env_file = sandbox + ".env"
    open(env_file, "w").close()
    stubs = os.path.join(KLEE_WORK, "stubs.bc")
    # An empty environment (penumbra's is empty) and no host files where the program runs.
    cmd = [klee, "--libc=uclibc", "--posix-runtime", "--max-time=%ds" % seconds, "--max-memory=%d" % (gib << 10),
           "--env-file=" + env_file, "--run-in-dir=" + sandbox, "--link-llvm-lib=" + stubs, "--output-dir=" + out]
    if search != "default":
        cmd.append("--search=" + search)
    cmd += [bc] + ENVIRONMENT
    procs = memory_cgroup(gib)

    def join_cgroup():
        if procs:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, cwd=os.path.dirname(bc), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace", preexec_fn=join_cgroup)
    wall = time.monotonic() - t0
    info = open(os.path.join(out, "info")).read() if os.path.exists(os.path.join(out, "info")) else ""
    done = dict((k.strip(), int(v)) for k, v in re.findall(r"KLEE: done: ([a-z .]+?) = (\d+)", info + p.stderr))
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([0-9.]+)", p.stderr))
    row = {"utility": util, "search": search, "seconds": seconds, "rc": p.returncode,
           "paths_completed": done.get("completed paths"), "paths_partial": done.get("partially completed paths"),
           "errors": len(glob.glob(os.path.join(out, "*.err"))), "peak_mib": round(int(peak.group(1)) / 1024) if peak else None,
           "cpu_s": round(cpu, 1), "wall_s": round(wall, 1), "memory_cgroup": bool(procs),
           "klee": os.path.relpath(klee, KLEE_WORK), "date": time.strftime("%Y-%m-%d")}
    try:
        row.update(coverage(util, out, sample) if os.path.isdir(out) else {"pct": None})
    finally:
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(sandbox, ignore_errors=True)
        os.remove(env_file)
    if p.returncode and not row.get("tests"):
        row["stopped"] = "killed (rc %d)" % p.returncode
    print(json.dumps(row), flush=True)
    with open(RUNS, "a") as f:
        f.write(json.dumps(row) + "\n")


def table():
    """Updates results/klee-coreutils.json from the last row per utility and search of
    results/klee-runs.jsonl; figures of utilities and searches not run by this script stay as
    they were (the earlier measurements of ../shared/klee.md's recipe), each figure's origin named
    in `measured_by`."""
    doc = json.load(open(FIGURES)) if os.path.exists(FIGURES) else {"utilities": {}}
    last = {}
    for line in open(RUNS):
        if line.strip():
            r = json.loads(line)
            last[(r["utility"], r["search"])] = r
    figures = doc.setdefault("utilities", {})
    origin = doc.setdefault("measured_by", {})
    for (util, search), r in sorted(last.items()):
        figures.setdefault(util, {})[search] = r.get("pct")
        if r.get("stopped"):
            figures[util]["note"] = r["stopped"]
        origin[f"{util} {search}"] = "scripts/klee-coverage.py, %s: every test replayed (%d of them)" % (
            r.get("date"), r.get("replayed") or 0)
    doc["source"] = ("measured on this 2-core machine, in a 6-GiB memory cgroup: the figures `measured_by` names "
                     "by scripts/klee-coverage.py (results/klee-runs.jsonl), the others by ../shared/klee.md's "
                     "recipe on 2026-11-27 (5,000 tests evenly spaced where there were more)")
    with open(FIGURES, "w") as f:
        f.write(json.dumps(doc, indent=2, sort_keys=True) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--search", default="default", help="default (KLEE's own) or a KLEE --search value (dfs, ...)")
    r.add_argument("--seconds", type=int, default=60)
    r.add_argument("--sample", type=int, default=0, help="replay N evenly spaced tests (0: all)")
    r.add_argument("--memory-gib", type=int, default=6)
    r.add_argument("utilities", nargs="+")
    sub.add_parser("table")
    a = ap.parse_args()
    if a.command == "table":
        return table()
    klee = klee_binary()
    for util in a.utilities:
        run_one(klee, util, a.search, a.seconds, a.sample, a.memory_gib)


if __name__ == "__main__":
    main()
