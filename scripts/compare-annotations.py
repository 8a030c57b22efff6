#!/usr/bin/env python3
"""compare-annotations.py HAND_RESULTS UNIFIED_RESULTS: the same patch subjects run with the
hand annotation (subjects/coreutils.toml) and with penumbra unify's (coreutils-unified.toml),
side by side as Markdown: per subject and mode, the divergent tests, those replayed as an
observable difference (the classes `penumbra schema` marks observable: what the patch changes
that a user sees) and the seconds to the first one; then whether both, one or neither annotation exposed
the patch.
"""

import csv
import sys
from pathlib import Path

import penumbra_schema


def load(d):
    return {(r["subject"], r["mode"]): r for r in csv.DictReader(open(Path(d) / "results.csv"))}


def observable(r):
    return sum(int(r.get(k) or 0) for k in penumbra_schema.class_columns(penumbra_schema.observable))


def cell(r):
    if r is None:
        return "-", "-", "-"
    if r["outcome"] != "ok":
        return r["outcome"], "", ""
    return r["tests_divergence"] or "0", str(observable(r)), r["first_difference_s"] or "-"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    hand, auto = load(sys.argv[1]), load(sys.argv[2])
    print("| subject | mode | hand: divergences | observable | first (s) | unified: divergences | observable | first (s) | exposed by |")
    print("|---|---|---|---|---|---|---|---|---|")
    exposed = {"both": 0, "hand only": 0, "unified only": 0, "neither": 0}
    for key in sorted(set(hand) | set(auto)):
        h, a = hand.get(key), auto.get(key)
        hc, ac = cell(h), cell(a)
        eh = h is not None and h["outcome"] == "ok" and observable(h) > 0
        ea = a is not None and a["outcome"] == "ok" and observable(a) > 0
        verdict = "both" if eh and ea else "hand only" if eh else "unified only" if ea else "neither"
        exposed[verdict] += 1
        print(f"| {key[0]} | {key[1]} | {' | '.join(hc)} | {' | '.join(ac)} | {verdict} |")
    print()
    print("Jobs exposing the patch: " + ", ".join(f"{k} {v}" for k, v in exposed.items()) + ".")


if __name__ == "__main__":
    main()
