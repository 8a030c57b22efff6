#!/usr/bin/env python3
"""search-coverage.py: issue 38's protocol, penumbra's side. Per utility of Debian's coreutils 9.1
and per searcher: `penumbra run --libc musl UTIL.bc` in KLEE's environment (--sym-args 0 2 4
--sym-files 1 8 --sym-stdin 8, and --sym-file-types: stdin and the file may be pipes or terminals,
as KLEE's symbolic stat lets them be) for SECONDS, then every test whose path entered code first
(`new_code`, KLEE's covering-new states: together they cover every block the run entered) and
evenly spaced others up to SAMPLE in all (halt tests included, as KLEE's figure includes its
.early tests) replayed on the gcov build by
coreutils_eval's harness (fresh directory, stdin and the file of the test's kinds, regular stdout,
empty environment): line
coverage of src/UTIL.c, paths, tests, peak memory. Results go to OUT.jsonl (one line per run,
appended, so an interrupted batch resumes) and, with --table, results/search.md, KLEE's figures
beside them from results/klee-coreutils.json (scripts/klee-coverage.py measures them).

The builds are scripts/coreutils-tree.sh's musl and gcov trees (WORK, default
~/.cache/penumbra/coreutils-eval); the bitcode is extracted from the musl tree.

With KEEP_GCOV=PREFIX the run keeps gcov's annotated source as PREFIX.UTIL.gcov (to compare the
lines two runs cover).

usage: search-coverage.py run --search S[,S...] [--seconds 60] [--sample 5000] UTIL...
       search-coverage.py table [--note TEXT]   (TEXT: a new bullet of the runs section)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import coreutils_eval as ce  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.environ.get("WORK", os.path.expanduser("~/.cache/penumbra/coreutils-eval"))
RUNS = os.path.join(ROOT, "results", "search.jsonl")
KLEE = os.path.join(ROOT, "results", "klee-coreutils.json")
UTILITIES = ["echo", "basename", "cut", "head", "wc", "tr", "printf", "sort", "expr", "fold"]


def bitcode(util):
    bc = os.path.join(WORK, "bc", util + ".bc")
    if not os.path.exists(bc):
        os.makedirs(os.path.dirname(bc), exist_ok=True)
        subprocess.run(". %s musl && cd %s && extract-bc -o %s %s >/dev/null" % (
            os.path.join(ROOT, "scripts", "wllvm-env.sh"), os.path.join(WORK, "musl", "src"), bc, util),
            shell=True, check=True, executable="/bin/bash")
    return bc


def commit():
    """The checkout's commit (the binary is assumed built from it)."""
    p = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, text=True)
    return p.stdout.strip() or None


def run_one(penumbra, util, search, seconds, sample, file_types, flags=()):
    bc = bitcode(util)
    out = tempfile.mkdtemp(prefix="search-%s-%s-" % (util, search))
    shutil.rmtree(out)
    cmd = [penumbra, "run", "--libc", "musl", os.path.basename(bc)] + ce.ENVIRONMENT + [
        "--max-time", str(seconds), "--max-tests", "0", "--max-output-mb", "4096", "--search", search,
        "--output-dir", out] + (["--sym-file-types"] if file_types else []) + list(flags)
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "peak_kb=%M"] + cmd, cwd=os.path.dirname(bc),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("search-coverage: %s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-1500:]))
    summary = json.load(open(os.path.join(out, "run.json")))["summary"]
    records = [json.loads(line) for line in open(os.path.join(out, "tests.jsonl")) if line.strip()]

    class A:
        pass
    a = A()
    a.gcov_tree, a.coverage_tests, a.utility, a.bitcode = os.path.join(WORK, "gcov"), sample, util, bc
    a.scratch = tempfile.mkdtemp(prefix="search-cov-")
    try:
        covered, lines, n = ce.coverage(a, records)
    finally:
        shutil.rmtree(a.scratch, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    peak = int(re.search(r"peak_kb=(\d+)", p.stderr).group(1)) / 1024
    row = {
        "utility": util, "search": search, "seconds": seconds,
        "paths": sum(summary.get(k, 0) for k in ("paths_completed", "errors", "unsupported", "early", "assume_false")),
        "paths_completed": summary["paths_completed"], "early": summary.get("early", 0),
        "unsupported": summary["unsupported"], "dropped": summary.get("dropped_states", 0),
        "tests": summary["tests_count"], "replayed": n, "covered": covered, "lines": lines,
        "pct": round(100.0 * covered / lines, 1) if lines else None,
        "peak_mib": round(peak), "wall_s": round(wall, 1), "stopped_by": summary.get("stopped_by"),
        "new_code_tests": sum(1 for r in records if r.get("new_code")), "commit": commit(),
        "file_types": file_types,
    }
    if flags:
        row["flags"] = " ".join(flags)  # an experiment's, not the protocol's: table leaves it out
    print(json.dumps(row), flush=True)
    with open(RUNS, "a") as f:
        f.write(json.dumps(row) + "\n")


RUNS_HEADING = "## Runs"


def earlier_runs():
    """The runs section of the current results/search.md (each set of runs, a bullet), kept as it
    is by `table`, which appends --note to it."""
    try:
        text = open(os.path.join(ROOT, "results", "search.md")).read()
    except FileNotFoundError:
        return []
    if "\n" + RUNS_HEADING + "\n" not in text:
        return []
    section = text.split("\n" + RUNS_HEADING + "\n", 1)[1]
    return [line for line in section.strip("\n").split("\n")]


def table(note):
    rows = {}
    for line in open(RUNS):
        r = json.loads(line)
        if r.get("flags"):
            continue  # an experiment's extra options: not the protocol
        rows[(r["utility"], r["search"])] = r  # the last run of a pair counts
    klee = json.load(open(KLEE))
    searches = sorted({s for (_, s) in rows}, key=lambda s: (s != "interleaved", s))
    out = ["# Search: penumbra's searchers beside KLEE on coreutils 9.1", "",
           "Protocol (issue 38): each utility 60 s in KLEE's environment (`--sym-args 0 2 4 --sym-files 1 8 "
           "--sym-stdin 8`; for penumbra also `--sym-file-types`, as KLEE's symbolic stat lets standard input "
           "and the file be pipes or terminals), one run at a time, gcov line coverage of `src/UTIL.c` from "
           "one gcov build replaying the run's tests, with tests for the states alive at the deadline (KLEE's "
           ".early files, penumbra's `early` tests), standard input and the file made the kind each test "
           "says (penumbra's type objects; KLEE's stat objects' `st_mode`): KLEE's every test (`python3 "
           "scripts/klee-coverage.py run UTIL...`, KLEE built by scripts/build-klee.sh); penumbra's every "
           "test that entered code first (`new_code`: together they cover every block the run entered) and "
           "others evenly spaced up to 5,000. KLEE 3.3 (POSIX runtime, klee-uclibc, Z3), default search and "
           "depth-first: %s. penumbra: `python3 scripts/search-coverage.py run --search %s UTIL...`, then "
           "`python3 scripts/search-coverage.py table`; the runs are in results/search.jsonl, each row with "
           "its commit." % (klee["source"], ",".join(searches)), "",
           "Cells: line coverage (peak memory), the last run of each utility and search (the runs are "
           "listed below). The default search is `interleaved`, which in a single-version run is "
           "random-path alone (forking held back once resident memory reaches 320 MiB, `--fork-memory`, "
           "and a test for each state alive at the deadline), so its column is also random-path's.", "",
           "| utility | KLEE default | KLEE dfs | " + " | ".join("penumbra " + s for s in searches) + " |",
           "|---|---|---|" + "---|" * len(searches)]
    wins = 0
    for u in UTILITIES:
        k = klee["utilities"].get(u, {})
        cells = []
        for s in searches:
            r = rows.get((u, s))
            cells.append("%.1f %% (%d MiB)" % (r["pct"], r["peak_mib"]) if r else "-")
        kd = k.get("default")
        out.append("| %s | %s | %s | %s |" % (u, "%.1f %%" % kd if kd is not None else k.get("note", "-"),
                                              "%.1f %%" % k["dfs"] if k.get("dfs") is not None else "-",
                                              " | ".join(cells)))
        d = rows.get((u, "interleaved"))
        if d and (kd is None or d["pct"] >= kd):
            wins += 1
    runs = earlier_runs() + (["- " + note] if note else [])
    out += ["", "penumbra's default at least KLEE's default on %d of %d utilities (a utility where KLEE "
            "failed counts)." % (wins, len(UTILITIES)), "", RUNS_HEADING, ""] + runs + [""]
    with open(os.path.join(ROOT, "results", "search.md"), "w") as f:
        f.write("\n".join(out))
    print("\n".join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp = ap.add_subparsers(dest="cmd", required=True)
    r = sp.add_parser("run")
    r.add_argument("--search", required=True)
    r.add_argument("--seconds", type=int, default=60)
    r.add_argument("--sample", type=int, default=5000)
    r.add_argument("--penumbra", default=os.path.join(ROOT, "target", "release", "penumbra"))
    r.add_argument("--no-file-types", action="store_true",
                   help="standard input and the file regular files only (without --sym-file-types; KLEE's "
                        "symbolic stat lets them be pipes or terminals too)")
    r.add_argument("--flag", action="append", default=[], dest="flags",
                   help="an extra `penumbra run` option (repeatable, `--flag=--max-states=20000`): an experiment, "
                        "recorded in the row as `flags`, which the table leaves out")
    r.add_argument("utilities", nargs="*")
    t = sp.add_parser("table")
    t.add_argument("--note", default="", help="a bullet for the runs section: which runs, at which commit, "
                   "on how loaded a machine (the earlier bullets stay)")
    a = ap.parse_args()
    if a.cmd == "table":
        return table(a.note)
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "coreutils-tree.sh"), "musl", "gcov"], check=True,
                   stdout=subprocess.DEVNULL)
    for u in a.utilities or UTILITIES:
        for s in a.search.split(","):
            run_one(a.penumbra, u, s, a.seconds, a.sample, not a.no_file_types, a.flags)


if __name__ == "__main__":
    main()
