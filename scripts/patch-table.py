#!/usr/bin/env python3
"""patch-table.py RESULTS_DIR SUBJECTS_DIR: the results table of a batch of patch subjects
(subjects/coreutils.toml) as Markdown, in the shape of Shadow's table: per subject, the tests
touching the patch, then per mode the divergent tests (seeded mode: all, after bounded
symbolic execution, then in parentheses the divergence points its concolic phase reached),
the tests replayed, the observable
differences split into expected ones and bugs, and the time to the first observable
difference (HyDiff's metric).

Expected or bug: every subject here is a fix or an intended change of behaviour (its
subject.toml's `expect`), so an output difference or an error only in the old version is what
the patch meant; an error only in the new version is a bug candidate (`penumbra schema` marks
each class observable or not and a bug candidate or not). The classes shown are those that
occur in the batch and the bug candidates, most severe first.
"""

import csv
import sys
import tomllib
from pathlib import Path

import penumbra_schema


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    results, subjects = Path(sys.argv[1]), Path(sys.argv[2])
    rows = list(csv.DictReader(open(results / "results.csv")))
    configs = {r["config"] for r in rows}
    if len(configs) > 1:
        sys.exit(f"patch-table: one config per batch, not {sorted(configs)}")
    by = {(r["subject"], r["mode"]): r for r in rows}
    # A subject's directory: the manifest's project names it (subjects/coreutils.toml).
    manifest = tomllib.loads((subjects / "coreutils.toml").read_text())
    projects = {s["name"]: s["project"] for s in manifest["subject"]}
    names = sorted({r["subject"] for r in rows})
    # The classes that occur, and the bug candidates' whether or not they do, most severe first.
    occurs = lambda c: any(r.get(c["column"], "") not in ("", "0") for r in rows)  # noqa: E731
    classes = [c for c in penumbra_schema.classes() if c["bug_candidate"] or occurs(c)]
    print("| subject | utility | expected | tests touching | invocations touching | mode | outcome | "
          "divergences (concolic) | replayed | " + "".join(f"{c['name']} | " for c in classes)
          + "expected / bugs | first difference (s) |")
    print("|" + "---|" * (11 + len(classes)))
    for name in names:
        spec = tomllib.loads((subjects / projects[name] / "subject.toml").read_text())
        for mode in ["complete", "seeded"]:
            r = by.get((name, mode))
            if r is None:
                continue
            n = lambda col: int(r[col]) if r.get(col) else 0
            replayed = sum(n(c) for c in penumbra_schema.class_columns())
            expected = sum(n(c) for c in penumbra_schema.class_columns(penumbra_schema.intended))
            bugs = sum(n(c) for c in penumbra_schema.class_columns(penumbra_schema.bug_candidate))
            points = f" ({r['divergence_points']})" if r.get("divergence_points") else ""
            divergences = f"{r['tests_divergence'] or '-'}{points}"
            outcome = r["outcome"] + (f" ({r['stopped_by']})" if r.get("stopped_by") else "")
            first = r.get("first_difference_s") or "-"
            cells = [name if mode == "complete" else "", spec["utility"] if mode == "complete" else "",
                     spec.get("expect", "") if mode == "complete" else "",
                     r["tests_touching_patch"] if mode == "complete" else "",
                     r["invocations_touching_patch"] if mode == "complete" else "",
                     mode, outcome, divergences, str(replayed) if r["outcome"] != "no-seeds" else "-",
                     *(r.get(c["column"], "") for c in classes), f"{expected} / {bugs}", first]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
