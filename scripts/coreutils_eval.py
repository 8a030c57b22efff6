#!/usr/bin/env python3
"""The per-utility measurements and the report of scripts/eval-coreutils.sh (issue 16).

`utility`: runs penumbra on one utility's bitcode (--libc musl, KLEE's coreutils environment),
reads the run's figures from its run.json, replays SAMPLE of its tests natively (the static musl
binary of the same build) and under `penumbra exec --ktest`, compares stdout and exit status,
measures gcov line coverage of the utility's source over up to COVERAGE_TESTS tests, and prints
one JSON line.

`throughput`: CPU time of a utility's first N paths with tests written and without (issue 15).

`report`: renders the JSON lines as results/coreutils.md and results/coreutils.json.
"""
import argparse
import concurrent.futures
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ENVIRONMENT = ["--sym-args", "0", "2", "4", "--sym-stdin", "8", "--sym-files", "1", "8"]
NATIVE_TIMEOUT = 10


def figure(summary, label):
    """The number after `label` in a human summary (`  wall time   10.034 s`)."""
    m = re.search(r"^\s*%s\s+([0-9.]+)" % label, summary, re.M)
    if not m:
        sys.exit("coreutils_eval: no '%s' in the summary:\n%s" % (label, summary))
    return float(m.group(1))


def spaced(items, n):
    """n items evenly spaced over items (all of them if there are no more than n)."""
    if len(items) <= n:
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


def covering_sample(records, n):
    """Every test whose path entered code first (`new_code`: KLEE's covering-new states), then
    evenly spaced others up to n in all. The first alone cover every block the run entered, so
    a long run's coverage no longer depends on which of its tests an even sample happens to
    pick (one binary's cut measured 80.1 % and 87.4 % so)."""
    first = [r for r in records if r.get("new_code")]
    rest = [r for r in records if not r.get("new_code")]
    return first + spaced(rest, max(0, n - len(first)))


def test_environment(record):
    """A test's argv (after argv[0]), stdin, files, environment and the kinds --sym-file-types
    gave stdin and the files ({"stdin": "pipe", "A": "terminal"}; regular where absent), from its
    tests.jsonl line."""
    inputs = record["inputs"]
    data = {name: bytes.fromhex(value["hex"]) for name, value in inputs.items()}
    n_args = int.from_bytes(data.get("n_args", b"\0\0\0\0"), "little")
    args = [data["arg%02d" % i].split(b"\0")[0] for i in range(n_args)]
    files = {name[: -len("-data")]: value for name, value in data.items() if name.endswith("-data")}
    words = record.get("args", [])
    env = {}
    for i, word in enumerate(words):
        if word == "--env" and i + 1 < len(words):
            name, _, value = words[i + 1].partition("=")
            env[name] = value
    kinds = {name[: -len("-type")]: TYPE_OBJECT_KINDS.get(value[:1], "regular")
             for name, value in data.items() if name.endswith("-type")}
    return args, data.get("stdin", b""), files, env, kinds


# penumbra's type objects (--sym-file-types; runtime/musl/penumbra_posix.c reads them so).
TYPE_OBJECT_KINDS = {b"\x01": "pipe", b"\x02": "terminal"}
# A terminal holds its bytes, then this many ends of file (as harness/src/replay/file_kinds.rs).
TERMINAL_EOFS = 4


def terminal(contents):
    """A pseudo-terminal holding contents unchanged, a line at a time, then ends of file (as
    `penumbra replay` makes one: canonical mode, every special character off but end of file,
    which is a byte contents lacks): (master, slave) descriptors."""
    import termios
    unused = [b for b in range(1, 256) if b != 10 and b not in contents]
    eof, other = unused[0], unused[1]
    master, slave = os.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[0] = attrs[1] = 0
    attrs[3] = termios.ICANON
    for special in (termios.VERASE, termios.VKILL, termios.VEOL, termios.VEOL2, termios.VWERASE,
                    termios.VREPRINT, termios.VLNEXT):
        attrs[6][special] = bytes([other])
    attrs[6][termios.VEOF] = bytes([eof])
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    os.write(master, contents + bytes([eof]) * TERMINAL_EOFS)
    return master, slave


def run_in(scratch, argv, stdin, files, env, executable=None, kinds=None):
    """Runs argv in a fresh directory holding the test's files, its standard input and output
    (as penumbra models them and `penumbra replay` gives them: regular files, or the pipes and
    terminals `kinds` names): (status, stdout)."""
    kinds = kinds or {}
    shutil.rmtree(scratch, ignore_errors=True)
    cwd = os.path.join(scratch, "cwd")
    os.makedirs(cwd)
    held, writers = [], []
    for name, contents in files.items():
        path = os.path.join(cwd, name)
        kind = kinds.get(name, "regular")
        if kind == "pipe":
            os.mkfifo(path)

            def write(path=path, contents=contents):
                with open(path, "wb") as f:  # waits for the program to open it
                    f.write(contents)
            writers.append((path, threading.Thread(target=write, daemon=True)))
            writers[-1][1].start()
        elif kind == "terminal":
            master, slave = terminal(contents)
            held += [master, slave]
            os.symlink(os.ttyname(slave), path)
        else:
            with open(path, "wb") as f:
                f.write(contents)
    stdin_path = os.path.join(scratch, "stdin")
    with open(stdin_path, "wb") as f:
        f.write(stdin)
    stdout_path = os.path.join(scratch, "stdout")
    stdin_kind = kinds.get("stdin", "regular")
    try:
        with open(stdin_path, "rb") as stdin_file, open(stdout_path, "wb") as stdout_file:
            if stdin_kind == "terminal":
                master, slave = terminal(stdin)
                held += [master, slave]
                source, given = slave, None
            else:
                source, given = (subprocess.PIPE, stdin) if stdin_kind == "pipe" else (stdin_file, None)
            p = subprocess.Popen(argv, stdin=source, cwd=cwd, env=env, executable=executable,
                                 stdout=stdout_file, stderr=subprocess.DEVNULL)
            try:
                p.communicate(given, timeout=NATIVE_TIMEOUT)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                return "timeout", b""
    finally:
        for path, writer in writers:
            if writer.is_alive():  # never opened: a reader of ours lets the writer end
                fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
                writer.join()
                os.close(fd)
        for fd in held:
            os.close(fd)
    with open(stdout_path, "rb") as f:
        return p.returncode, f.read()


def check_test(a, record, scratch):
    """One sampled test: native binary vs penumbra exec vs the recorded status."""
    args, stdin, files, env, kinds = test_environment(record)
    argv0 = os.path.basename(a.bitcode)
    native = run_in(scratch + "-native", [argv0.encode()] + args, stdin, files, env, executable=a.native,
                    kinds=kinds)
    ktest = os.path.join(os.path.abspath(a.out), record["name"] + ".ktest")
    exec_argv = [a.penumbra, "exec", "--libc", "musl", argv0, "--ktest", ktest]
    p = subprocess.run(exec_argv, cwd=os.path.dirname(os.path.abspath(a.bitcode)), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    engine = (p.returncode, p.stdout)
    recorded = record.get("exit_code")
    problems = []
    if record.get("kind") != "path":
        problems.append("penumbra ended it as %s" % record.get("kind"))
    if native[0] != recorded:
        problems.append("native status %s, penumbra recorded %s" % (native[0], recorded))
    if native != engine:
        problems.append("native (%s, %d stdout bytes) != exec (%s, %d stdout bytes%s)" % (
            native[0], len(native[1]), engine[0], len(engine[1]),
            ", " + p.stderr.decode(errors="replace").strip()[:200] if p.returncode in (69, 70) else ""))
    return {"name": record["name"], "ok": not problems, "problems": problems}


def coverage(a, records):
    """gcov line coverage of src/UTILITY.c over the tests that entered code first and others up
    to --coverage-tests in all (covering_sample): (covered, lines, n)."""
    src = os.path.join(a.gcov_tree, "src")
    for f in os.listdir(src):
        if f.endswith(".gcda"):
            os.remove(os.path.join(src, f))
    chosen = covering_sample(records, a.coverage_tests)
    binary = os.path.join(src, a.utility)
    argv0 = os.path.basename(a.bitcode).encode()

    def one(record):
        # A directory per worker thread; gcov merges the counters of concurrent runs under a lock.
        args, stdin, files, env, kinds = test_environment(record)
        scratch = os.path.join(a.scratch, "cov-%d" % threading.get_ident())
        run_in(scratch, [argv0] + args, stdin, files, env, executable=binary, kinds=kinds)

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(one, chosen))
    pct, lines = gcov_percent(src, a.utility)
    if pct is None:
        return None, None, len(chosen)
    return round(pct * lines / 100), lines, len(chosen)


def gcov_percent(src, utility):
    """gcov's line coverage of src/UTILITY.c from the counters in `src` (the gcov tree's src/):
    (percent, lines), or (None, None) when gcov says nothing of it."""
    source = "%s.c" % utility
    p = subprocess.run(["gcov", "-n", "-o", src, os.path.join(src, source)], cwd=src, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    keep = os.environ.get("KEEP_GCOV")
    if keep:
        # The annotated source (each line's count) for comparing two tools' covered lines:
        # KEEP_GCOV=PREFIX writes PREFIX.UTILITY.gcov (the last measurement of a run).
        # From the tree's root: the object files name their source `src/UTILITY.c`.
        annotated = subprocess.run(["gcov", "-t", "-o", src, os.path.join(src, source)], cwd=os.path.dirname(src),
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
        with open("%s.%s.gcov" % (keep, utility), "w") as f:
            f.write(annotated)
    # "File 'src/cut.c'\nLines executed:45.12% of 400"
    m = re.search(r"File '[^']*%s'\s*\nLines executed:([0-9.]+)%% of (\d+)" % re.escape(source), p.stdout)
    return (float(m.group(1)), int(m.group(2))) if m else (None, None)


def utility(a):
    bitcode_dir = os.path.dirname(os.path.abspath(a.bitcode))
    a.out = os.path.abspath(a.out)
    shutil.rmtree(a.out, ignore_errors=True)
    cmd = [a.penumbra, "run", "--libc", "musl", os.path.basename(a.bitcode)] + ENVIRONMENT + [
        "--max-time", str(a.seconds), "--max-tests", "0", "--max-output-mb", "4096", "--search", a.search,
        "--output-dir", a.out]
    start = time.monotonic()
    p = subprocess.run(cmd, cwd=bitcode_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    if p.returncode != 0:
        sys.exit("coreutils_eval: %s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-2000:]))
    with open(os.path.join(a.out, "run.json")) as f:
        summary = json.load(f)["summary"]
    # The machine's figures are in the human summary only (run.json stays deterministic).
    summary["wall_s"] = figure(p.stdout, r"wall time")
    summary["peak_rss_mb"] = figure(p.stdout, r"peak memory")
    summary["solver"]["core_time_s"] = figure(p.stdout, r"solver time\s+[0-9.]+ s \(Bitwuzla")
    with open(os.path.join(a.out, "tests.jsonl")) as f:
        records = [json.loads(line) for line in f if line.strip()]
    a.scratch = tempfile.mkdtemp(prefix="coreutils-eval-")
    try:
        # A path that ended at an unsupported construct has nothing to compare (it is listed).
        sampled = spaced([r for r in records if r.get("kind") != "unsupported"], a.sample)
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            checks = list(pool.map(lambda ir: check_test(a, ir[1], os.path.join(a.scratch, "t%d" % ir[0])),
                                   enumerate(sampled)))
        covered, lines, coverage_n = coverage(a, records)
    finally:
        shutil.rmtree(a.scratch, ignore_errors=True)
    paths = sum(summary.get(k, 0) for k in ("paths_completed", "errors", "unsupported", "early", "assume_false"))
    result = {
        "utility": a.utility,
        "paths": paths,
        "paths_completed": summary["paths_completed"],
        "errors": summary["errors"],
        "unsupported": summary["unsupported"],
        "unsupported_sites": summary.get("unsupported_sites", []),
        "tests": summary["tests_count"],
        "wall_s": round(summary["wall_s"], 2),
        "command_wall_s": round(wall, 2),
        "paths_per_s": round(paths / summary["wall_s"]) if summary["wall_s"] else None,
        "peak_rss_mb": round(summary["peak_rss_mb"]),
        "queries": summary["solver"]["queries"],
        "bitwuzla_queries": summary["solver"]["core_queries"],
        "bitwuzla_s": round(summary["solver"].get("core_time_s", 0.0), 2),
        "stopped_by": summary.get("stopped_by"),
        "warnings": summary.get("warnings", []),
        "sampled": len(checks),
        "replayed_ok": sum(c["ok"] for c in checks),
        "mismatches": [c for c in checks if not c["ok"]][:10],
        "covered_lines": covered,
        "source_lines": lines,
        "coverage_tests": coverage_n,
    }
    print(json.dumps(result), flush=True)


def throughput(a):
    """CPU seconds for the first --paths paths of one utility, tests written and not (median of
    --repeat runs each): issue 15's whole-utility figure."""
    import resource
    import statistics
    rows = []
    for mode, flags in (("no tests", ["--no-tests"]), ("tests written", ["--max-tests", "0"])):
        cpu, wall, rss, paths = [], [], [], None
        for _ in range(a.repeat):
            out = tempfile.mkdtemp(prefix="coreutils-throughput-")
            cmd = [a.penumbra, "run", "--libc", "musl", os.path.basename(a.bitcode)] + ENVIRONMENT + [
                "--max-paths", str(a.paths), "--output-dir", os.path.join(out, "o")] + flags
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.monotonic()
            # The human summary (--json would keep every test's record for printing).
            p = subprocess.run(cmd, cwd=os.path.dirname(os.path.abspath(a.bitcode)), stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
            wall.append(time.monotonic() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            shutil.rmtree(out, ignore_errors=True)
            if p.returncode != 0:
                sys.exit("coreutils_eval: %s failed (%d)" % (" ".join(cmd), p.returncode))
            paths = int(figure(p.stdout, "paths completed") + figure(p.stdout, "errors"))
            rss.append(figure(p.stdout, "peak memory"))
        rows.append({"mode": mode, "paths": paths, "cpu_s": round(statistics.median(cpu), 2),
                     "wall_s": round(statistics.median(wall), 2), "peak_rss_mb": round(statistics.median(rss))})
    print(json.dumps({"utility": a.utility, "repeat": a.repeat, "rows": rows}), flush=True)


def machine():
    cores = os.cpu_count()
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = ", %d GiB RAM" % round(kb / 2**20)
    except OSError:
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, text=True,
                            cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    return "%d cores%s, %s, commit %s" % (cores, mem, platform.platform(), commit)


def report(a):
    with open(a.results) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    with open(a.json, "w") as f:
        json.dump(rows, f, indent=1)
        f.write("\n")
    out = []
    w = out.append
    w("# GNU coreutils 9.1 under penumbra (musl as code%s)\n"
      % ("" if a.search == "dfs" else ", %s search" % a.search))
    w("Regenerate with `%s` (about 3 minutes per utility after two builds of about 5 minutes each)."
      % a.command.strip())
    w("Each utility: `penumbra run --libc musl UTIL.bc %s --max-time %s --max-tests 0 --search %s`, tests"
      % (" ".join(ENVIRONMENT), a.seconds, a.search))
    w("written;")
    w("then %d of its tests, evenly spaced over all of them, run on the native static musl binary of the same" % a.sample)
    w("build and under `penumbra exec --ktest` (the concrete interpreter over the same bitcode): *replayed* counts")
    w("the tests whose native stdout and exit status equal penumbra's, and whose native status is the one the")
    w("symbolic run recorded. *Coverage* is gcov's line coverage of `src/UTIL.c` (a gcc --coverage build of the")
    w("same source, glibc) over every test whose path entered code first (`new_code`) and others, evenly spaced,")
    w("up to %d tests in all." % a.coverage_tests)
    w("*Bitwuzla* counts the queries that reached the SMT solver (the rest were decided by the caches, the")
    w("independence split and the range solver). Paths/s counts every ended path with its test written.\n")
    w("Machine: %s; %s.\n" % (machine(), time.strftime("%Y-%m-%d")))
    clean = [r["utility"] for r in rows if not r["unsupported"] and not r["errors"]]
    compared, matched = sum(r["sampled"] for r in rows), sum(r["replayed_ok"] for r in rows)
    stopped = ["%s (%s)" % (r["utility"], "; ".join(sorted({s["construct"] for s in r["unsupported_sites"]})))
               for r in rows if r["unsupported"]]
    w("In short: %d of %d utilities ran with no unsupported path and no error; %s of %s compared tests gave the"
      % (len(clean), len(rows), format(matched, ","), format(compared, ",")))
    w("native binary's stdout and exit status%s.\n" % (
        "; paths stop at: " + ", ".join(stopped) if stopped else ""))
    w("| utility | paths | paths/s | tests | peak MiB | Bitwuzla queries (s) | errors | unsupported | replayed | coverage | stopped by |")
    w("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        cov = "n/a"
        if r["source_lines"]:
            cov = "%.1f%% (%d/%d, %d tests)" % (100.0 * r["covered_lines"] / r["source_lines"], r["covered_lines"],
                                                r["source_lines"], r["coverage_tests"])
        w("| %s | %s | %s | %s | %s | %s (%.1f) | %s | %s | %s | %s | %s |" % (
            r["utility"], format(r["paths"], ","), format(r["paths_per_s"] or 0, ","), format(r["tests"], ","),
            r["peak_rss_mb"], format(r["bitwuzla_queries"], ","), r["bitwuzla_s"], r["errors"], r["unsupported"],
            "%d/%d" % (r["replayed_ok"], r["sampled"]) if r["sampled"] else "none to compare", cov,
            r["stopped_by"] or "explored completely"))
    if a.throughput:
        with open(a.throughput) as f:
            t = json.loads(f.readline())
        base = t["rows"][0]["cpu_s"]
        w("\n## Writing tests on a whole utility (issue 15)\n")
        w("The first %s paths of `%s` (same environment; `--max-paths`), median of %d runs. CPU includes"
          % (format(t["rows"][0]["paths"], ","), t["utility"], t["repeat"]))
        w("compiling and linking the bitcode with musl (about 0.5 s).\n")
        w("| tests | paths | CPU s | wall s | peak MiB | CPU ratio |")
        w("|---|---|---|---|---|---|")
        for row in t["rows"]:
            w("| %s | %s | %.2f | %.2f | %d | %.2fx |" % (row["mode"], format(row["paths"], ","), row["cpu_s"],
                                                        row["wall_s"], row["peak_rss_mb"], row["cpu_s"] / base))
    problems = [r for r in rows if r["mismatches"] or r["unsupported_sites"] or r["errors"]]
    if problems:
        w("\n## Where a utility's tests or paths did not end cleanly\n")
        for r in problems:
            for site in r["unsupported_sites"]:
                w("- %s: %s path(s) end unsupported at %s:%s (%s): %s" % (
                    r["utility"], site.get("paths"), os.path.basename(site.get("file", "?")), site.get("line"),
                    site.get("func"), site.get("construct")))
            for m in r["mismatches"]:
                w("- %s %s: %s" % (r["utility"], m["name"], "; ".join(m["problems"])))
    warned = [r for r in rows if r["warnings"]]
    if warned:
        w("\n## Warnings of the runs\n")
        for r in warned:
            for warning in r["warnings"]:
                w("- %s: %s" % (r["utility"], warning))
    with open(a.markdown, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    u = sub.add_parser("utility")
    for flag in ("--penumbra", "--bitcode", "--native", "--gcov-tree", "--utility", "--out"):
        u.add_argument(flag, required=True)
    for flag in ("--seconds", "--sample", "--coverage-tests"):
        u.add_argument(flag, type=int, required=True)
    u.add_argument("--search", default="dfs")
    t = sub.add_parser("throughput")
    for flag in ("--penumbra", "--bitcode", "--utility"):
        t.add_argument(flag, required=True)
    for flag in ("--paths", "--repeat"):
        t.add_argument(flag, type=int, required=True)
    r = sub.add_parser("report")
    for flag in ("--results", "--command", "--markdown", "--json"):
        r.add_argument(flag, required=True)
    r.add_argument("--throughput")
    for flag in ("--seconds", "--sample", "--coverage-tests"):
        r.add_argument(flag, type=int, required=True)
    r.add_argument("--search", default="dfs")
    a = parser.parse_args()
    {"utility": utility, "throughput": throughput, "report": report}[a.cmd](a)


if __name__ == "__main__":
    main()
