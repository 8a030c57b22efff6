#!/usr/bin/env python3
"""Summarises a `penumbra batch` results.csv as the Markdown tables of results/suite/README.md.

Usage: python3 scripts/suite-summary.py [results/suite/results.csv]

Prints three tables: totals per mode and configuration (with the replay classes that occur,
as `penumbra schema` lists them); diff paths per program family (complete vs. seeded); and
the solver work of caches on vs. off.
Subjects are grouped into families by the part of their name before the first `_`.
"""
import csv
import sys
from collections import defaultdict

import penumbra_schema

MODES = [("complete", "caches-on"), ("complete", "caches-off"), ("seeded", "caches-on"), ("seeded", "caches-off")]


def number(row, column):
    value = row.get(column) or "0"
    return float(value)


def fmt(value, decimals=0):
    return f"{value:,.{decimals}f}"


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "results/suite/results.csv"
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    by_key = {(r["subject"], r["mode"], r["config"]): r for r in rows}
    subjects = sorted({r["subject"] for r in rows})
    families = sorted({s.split("_")[0] for s in subjects})
    outcomes = defaultdict(int)
    for r in rows:
        outcomes[r["outcome"]] += 1

    print(f"{len(subjects)} subjects, {len(rows)} jobs: "
          + ", ".join(f"{n} {o}" for o, n in sorted(outcomes.items())) + ".")
    print()
    # The classes that occur, most severe first.
    classes = [c for c in penumbra_schema.classes() if any(number(r, c["column"]) for r in rows)]
    print("| mode | caches | diff paths | " + "".join(f"{c['name']} | " for c in classes) + "states | queries "
          "| reaching Bitwuzla | four-way checks | without Bitwuzla | exploration s | solver s | job wall s |")
    print("|---|---|---|" + "---|" * len(classes) + "---|---|---|---|---|---|---|---|")
    for mode, config in MODES:
        rs = [r for r in rows if (r["mode"], r["config"]) == (mode, config)]
        total = lambda c: sum(number(r, c) for r in rs)  # noqa: E731
        checks, without = total("four_way_checks"), total("four_way_without_bitwuzla")
        share = f"{fmt(without)} ({100 * without / checks:.1f} %)" if checks else "0"
        print(f"| {mode} | {config.removeprefix('caches-')} | {fmt(total('diff_paths'))} "
              + " ".join(f"| {fmt(total(c['column']))}" for c in classes)
              + f" | {fmt(total('states'))} | {fmt(total('queries'))} | {fmt(total('core_queries'))} "
              f"| {fmt(checks)} | {share} "
              f"| {fmt(total('engine_s'), 2)} | {fmt(total('solver_time_s'), 2)} | {fmt(total('wall_s'), 1)} |")

    print()
    print("| family | subjects | complete: diff paths | seeded: diff paths | seeded / complete "
          "| subjects where seeded finds none | complete: states | seeded: states |")
    print("|---|---|---|---|---|---|---|---|")
    for fam in families:
        subs = [s for s in subjects if s.split("_")[0] == fam]
        get = lambda s, m, c: number(by_key[(s, m, "caches-on")], c)  # noqa: E731
        comp = sum(get(s, "complete", "diff_paths") for s in subs)
        seed = sum(get(s, "seeded", "diff_paths") for s in subs)
        missed = sum(1 for s in subs if get(s, "complete", "diff_paths") > 0 and get(s, "seeded", "diff_paths") == 0)
        ratio = f"{100 * seed / comp:.0f} %" if comp else "-"
        print(f"| {fam} | {len(subs)} | {fmt(comp)} | {fmt(seed)} | {ratio} | {missed} "
              f"| {fmt(sum(get(s, 'complete', 'states') for s in subs))} "
              f"| {fmt(sum(get(s, 'seeded', 'states') for s in subs))} |")

    print()
    print("| family | complete: queries | reaching Bitwuzla, caches on | caches off "
          "| exploration s, caches on | caches off |")
    print("|---|---|---|---|---|---|")
    for fam in families:
        subs = [s for s in subjects if s.split("_")[0] == fam]
        get = lambda s, c, col: number(by_key[(s, "complete", c)], col)  # noqa: E731
        print(f"| {fam} | {fmt(sum(get(s, 'caches-on', 'queries') for s in subs))} "
              f"| {fmt(sum(get(s, 'caches-on', 'core_queries') for s in subs))} "
              f"| {fmt(sum(get(s, 'caches-off', 'core_queries') for s in subs))} "
              f"| {fmt(sum(get(s, 'caches-on', 'engine_s') for s in subs), 3)} "
              f"| {fmt(sum(get(s, 'caches-off', 'engine_s') for s in subs), 3)} |")


if __name__ == "__main__":
    main()
