#!/usr/bin/env python3
"""Round trip of every hand-annotated program through `penumbra unify`.

For each annotated C file: project it on both versions (`penumbra project`), unify the two
projections (`penumbra unify`, which checks its output against them), and run complete shadow
execution on the hand-annotated and the unified program with the same budget. Writes
OUT/roundtrip.csv (one row per program) and prints a summary; a row's `verdict` is `same`
(same diff-path count), `more`/`fewer` (unified finds more/fewer), `budget` (a run stopped on
its budget, so counts are not comparable), or `unify-failed`.

usage: scripts/unify-roundtrip.py OUT FILE.c...   (PENUMBRA: the binary, default target/release)
"""
import csv, json, os, subprocess, sys, tempfile

import penumbra_schema

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PENUMBRA = penumbra_schema.binary()
BUDGET = ["--max-time", "30", "--max-memory", "2048", "--no-tests", "--json"]


def shadow(path):
    run = subprocess.run([PENUMBRA, "shadow", path] + BUDGET, capture_output=True, text=True, timeout=120)
    try:
        summary = json.loads(run.stdout)
    except json.JSONDecodeError:
        return None, f"shadow failed: {run.stderr.strip()[:200]}"
    return summary, None


def row(path):
    rel = os.path.relpath(path, ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        name = os.path.basename(path)
        versions = {}
        for v in ("old", "new"):
            os.makedirs(os.path.join(tmp, v))
            versions[v] = os.path.join(tmp, v, name)
            subprocess.run([PENUMBRA, "project", path, "--version", v, "-o", versions[v]], check=True)
        unified = os.path.join(tmp, "unified.c")
        run = subprocess.run(
            [PENUMBRA, "unify", versions["old"], versions["new"], "-o", unified, "-I", os.path.dirname(path), "--json"],
            capture_output=True, text=True)
        if run.returncode != 0:
            return {"program": rel, "verdict": "unify-failed", "note": run.stderr.strip().splitlines()[-1][:300]}
        report = json.loads(run.stdout)["files"][0]
        hand, err = shadow(path)
        auto, err2 = shadow(unified)
        if hand is None or auto is None:
            return {"program": rel, "verdict": "shadow-failed", "note": err or err2}
        stopped = hand["stopped_by"] or auto["stopped_by"]
        h, a = hand["diff_paths"], auto["diff_paths"]
        verdict = "budget" if stopped else ("same" if h == a else ("more" if a > h else "fewer"))
        with open(unified) as f:
            text = f.read()
        with open(path) as f:
            hand_text = f.read()
        squeeze = lambda t: "".join(t.split())
        return {
            "program": rel,
            "verdict": verdict,
            "hand_diff_paths": h,
            "unified_diff_paths": a,
            "hand_paths": hand["paths_completed"],
            "unified_paths": auto["paths_completed"],
            "changes": text.count("change("),
            "execute_blocks": text.count("penumbra_execute("),
            "same_as_hand": squeeze(text) == squeeze(hand_text),
            "whole_functions": " ".join(report.get("whole_functions", [])),
            "note": "; ".join(n["message"] for n in report.get("notes", []))[:300],
        }


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: scripts/unify-roundtrip.py OUT FILE.c...")
    out, files = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    rows = []
    for path in files:
        r = row(path)
        rows.append(r)
        print(f"{r['verdict']:13} {r['program']} {r.get('hand_diff_paths', '')} {r.get('unified_diff_paths', '')} {r.get('note', '')}", flush=True)
    fields = ["program", "verdict", "hand_diff_paths", "unified_diff_paths", "hand_paths", "unified_paths",
              "changes", "execute_blocks", "same_as_hand", "whole_functions", "note"]
    with open(os.path.join(out, "roundtrip.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in rows:
            w.writerow(r)
    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    print("summary:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print("unified text identical to the hand annotation (whitespace aside):",
          sum(1 for r in rows if r.get("same_as_hand")), "of", len(rows))


if __name__ == "__main__":
    main()
