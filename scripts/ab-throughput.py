#!/usr/bin/env python3
"""ab-throughput.py: two penumbra binaries side by side on coreutils utilities, in one run on
one machine (A, B, A, B, ...), as results/coreutils.md measures them: `penumbra run --libc musl
UTIL.bc` with KLEE's coreutils environment for SECONDS seconds, tests written; paths/s is every
ended path over the run's wall time.

    ab-throughput.py --a BASE_BINARY [--a-musl DIR] --b NEW_BINARY [--b-musl DIR] \
        --bitcode-dir DIR [--seconds 60] [--repeat 2] UTILITY... > results/ab.md

Each binary may need its own musl bitcode (PENUMBRA_MUSL_DIR: a binary from before a change of
penumbra's musl glue must run with the musl built from that commit's scripts/build-musl.sh).
Each run's output directory is deleted after it is measured. Prints a Markdown table: per
utility and binary, the median over the repetitions of paths, paths/s, peak MiB and what stopped
the run, and B's paths/s as a ratio of A's.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ENVIRONMENT = ["--sym-args", "0", "2", "4", "--sym-stdin", "8", "--sym-files", "1", "8"]


def measure(binary, musl, bitcode, seconds, scratch):
    out = scratch / "out"
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ)
    if musl:
        env["PENUMBRA_MUSL_DIR"] = str(musl)
    cmd = [str(binary), "run", "--libc", "musl", str(bitcode), *ENVIRONMENT, "--max-time", str(seconds),
           "--max-tests", "0", "--max-output-mb", "4096", "--json", "--output-dir", str(out)]
    p = subprocess.run(cmd, env=env, capture_output=True, check=True)
    s = json.loads(p.stdout)
    shutil.rmtree(out, ignore_errors=True)
    ended = s["paths_completed"] + s["errors"] + s["unsupported"] + s["assume_false"] + s["early"]
    return {"paths": ended, "rate": ended / s["wall_s"], "mib": s["peak_rss_mb"], "stop": s["stopped_by"] or "done"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--a-musl")
    ap.add_argument("--b", required=True)
    ap.add_argument("--b-musl")
    ap.add_argument("--bitcode-dir", required=True)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("utilities", nargs="+")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        for u in a.utilities:
            bitcode = Path(a.bitcode_dir) / f"{u}.bc"
            runs = {"A": [], "B": []}
            for i in range(a.repeat):
                for name, binary, musl in [("A", a.a, a.a_musl), ("B", a.b, a.b_musl)]:
                    r = measure(binary, musl, bitcode, a.seconds, scratch)
                    print(f"ab-throughput: {u} {name} #{i + 1}: {r}", file=sys.stderr, flush=True)
                    runs[name].append(r)
            med = {k: {f: statistics.median(r[f] for r in v) for f in ("paths", "rate", "mib")} for k, v in runs.items()}
            stops = {k: "/".join(sorted({r["stop"] for r in v})) for k, v in runs.items()}
            rows.append((u, med, stops))
    print("| utility | A paths | A paths/s | A MiB | B paths | B paths/s | B MiB | B/A paths/s | stopped by (A, B) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for u, med, stops in rows:
        A, B = med["A"], med["B"]
        print(f"| {u} | {A['paths']:,.0f} | {A['rate']:,.0f} | {A['mib']:.0f} | {B['paths']:,.0f} | {B['rate']:,.0f} "
              f"| {B['mib']:.0f} | {B['rate'] / A['rate']:.2f} | {stops['A']}, {stops['B']} |")


if __name__ == "__main__":
    main()
