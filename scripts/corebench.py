#!/usr/bin/env python3
"""corebench.py: CoREBench's 22 GNU coreutils regressions (the pairs "Shadow of a doubt", ICSE
2016, evaluated) as one `penumbra batch` manifest.

    COREUTILS_GIT=... GNULIB_GIT=... corebench.py run COREBENCH OUT [--profile shadow|fast] [--only NAME]...
                                                  [--slurm [--sbatch OPTION]...]  # on a SLURM cluster
    corebench.py manifest COREBENCH OUT [--profile shadow|fast] [--only NAME]...  # the manifest only
    corebench.py build COREBENCH OUT [--only NAME]...            # build the trees only
    corebench.py table COREBENCH OUT RESULTS                     # the table of OUT's batch
    corebench.py list COREBENCH                                  # the regressions, one a line

COREBENCH is CoREBench unpacked (`git -C MIRROR show HEAD:corebench.tar.gz | tar xz`): the
directory holding `subjects/coreutils/regressions.txt` (or that file itself). `manifest` writes
OUT/corebench.toml (one subject per regression, complete and seeded mode, replayed) and
OUT/pairs/NAME/pair.toml for each (scripts/commit-pair.py's kind "coreutils": the trees of
old, new, the fix and the fix's parent built by scripts/coreutils-rev.sh, cached by commit);
`run` writes them and runs `penumbra batch OUT/corebench.toml --out OUT/results` (resumable:
run it again to go on); `build` builds every regression's trees ahead (OUT/builds.json: which built,
and for those that did not, the end of the error); `table` writes RESULTS/README.md (one row per
regression: built, annotation, tests touching the patch, per mode the diff paths, classes and the
time to the first `regression` test, whether the regression was exposed, and for every miss
its reason), RESULTS/corebench.json (the same rows) and the batch's plots. Profiles: `shadow` is Shadow's budget (600 s a phase), `fast` a fifth.

regressions.txt, as CoREBench's createCoREBench.sh reads it: a line `INTRODUCING FIXING
REPORT`; `#` comments a line out; a `+` before INTRODUCING says the introducing commit does not
build and the next line names the first revision after it that does (new; old stays
INTRODUCING^); a `+` before FIXING says the same of the fix (the fixed version is the line after
that, its parent stays FIXING^). The utility is the one `tests/NEW8_FIXED8/regression.sh`
runs (`src/UTILITY`), when COREBENCH has its tests.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import penumbra_schema  # noqa: E402
HEX = re.compile(r"^[0-9a-f]{7,40}$")
PROFILES = {"shadow": 600.0, "fast": 120.0}
# Tests a run may write, per profile. A run stops at this cap, so the fast profile's 120 s are
# only spent where the cap is not reached first: seq's complete runs wrote 1,000 tests in 5 s, and
# seq 77f89d01's exposing inputs come after about 1,700 diff paths. Every divergent test is
# replayed natively on four builds: a seq or cut job of 5,000 tests takes 400-770 s with its
# replay on this 2-core machine (two jobs at a time).
MAX_TESTS = {"shadow": 5000, "fast": 5000}
# Tests a run may write per divergence site (`--max-site-tests`): a fifth of the cap. Where main is
# merged whole, every divergence is at its end, and inputs that both versions reject with
# reworded messages took seq 6c5f11fb..86e4b778's 5,000 tests in 21 s; past a site's share, its
# diff paths are counted and the run goes on.
MAX_SITE_TESTS = {"shadow": 1000, "fast": 1000}
# Seeds derived per seed in seeded mode (`--derived-seeds`; complete mode ignores the flag), while
# the run's time lasts: the shadow profile is Shadow's seeded mode (none), the fast profile frees
# the bytes a seed's path pinned before its divergences (seq 86e4b778: the era's `seq -w 1 3.0`
# gives `3.9`, where new prints one number more). The run's time is the bound that matters: 64
# a seed left a job of one seed idle after 8 s (cut 7380cf79's `-c2-3,4-` alone: 64 derived,
# nothing found; 1,000: 568 derived in 120 s, `-c7,8,4-` exposing the regression at 18 s).
DERIVED_SEEDS = {"shadow": 0, "fast": 1000}
# Seconds a native replay run may take. A coreutils run on a test's few bytes ends in
# milliseconds; one that waits is cut here.
REPLAY_TIMEOUT = 3
# A utility's own limits, (replay timeout, tests): most of tail's divergent tests are `tail -f`,
# which follows its input file until killed: at 3 s, 1,000 of them outlasted the job's time limit.
OWN_LIMITS = {"tail": (1, 1000)}
# The name suffix of the subject seeded also with CoREBench's regression.sh (its own column).
WITH_TEST = "+regression-test"
# Complete mode's symbolic environment: KLEE's for coreutils (OSDI 2008), one argument of up to
# ten bytes and up to two of two (`seq -s, 1 3` needs three arguments), eight bytes of stdin,
# one file of eight bytes.
COMPLETE_FLAGS = ["--sym-args", "0", "1", "10", "--sym-args", "0", "2", "2", "--sym-stdin", "8", "--sym-files", "1", "8"]


@dataclass(frozen=True)
class Regression:
    """One line of regressions.txt (with its continuation lines)."""
    introducing: str
    fixing: str
    report: str
    # The first revisions that build: after the introducing commit (new) and after the fix.
    new: str
    fixed: str
    utility: str
    line: int
    # CoREBench's test exposing the regression (tests/NEW8_FIXED8/regression.sh), if it has one.
    regression_test: str = ""

    @property
    def name(self) -> str:
        return f"{self.utility or 'unknown'}-{self.introducing[:8]}-{self.fixing[:8]}"

    @property
    def test_dir(self) -> str:
        """CoREBench's tests/ directory of the regression."""
        return f"{self.new[:8]}_{self.fixed[:8]}"


class FormatError(Exception):
    pass


def parse(text: str, path: str = "regressions.txt") -> list:
    """The regressions of `text` (utilities left empty; see `with_utilities`)."""
    lines = list(enumerate(text.splitlines(), start=1))
    out = []
    i = 0

    def revision(token, number):
        if not HEX.match(token):
            raise FormatError(f"{path}:{number}: `{token}` is not a commit hash")
        return token

    def continuation(after, what):
        nonlocal i
        if i >= len(lines):
            raise FormatError(f"{path}:{after}: `+` before the {what} commit but no line after it naming the revision that builds")
        number, text = lines[i]
        i += 1
        tokens = text.split()
        if len(tokens) != 1:
            raise FormatError(f"{path}:{number}: expected one commit hash (the {what} revision that builds), got `{text}`")
        return revision(tokens[0], number)

    while i < len(lines):
        number, text = lines[i]
        i += 1
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        tokens = text.split()
        if len(tokens) != 3:
            raise FormatError(f"{path}:{number}: expected `INTRODUCING FIXING REPORT`, got `{text}`")
        intro, fix, report = tokens
        intro_plus, fix_plus = intro.startswith("+"), fix.startswith("+")
        intro = revision(intro.lstrip("+"), number)
        fix = revision(fix.lstrip("+"), number)
        new = continuation(number, "introducing") if intro_plus else intro
        fixed = continuation(number, "fixing") if fix_plus else fix
        out.append(Regression(intro, fix, report, new, fixed, "", number))
    return out


def with_utilities(regressions: list, tests: Path) -> list:
    """The regressions with the utility each one's regression.sh runs (`src/UTILITY`)."""
    out = []
    for r in regressions:
        script = tests / r.test_dir / "regression.sh"
        utilities = sorted(set(re.findall(r"\bsrc/([a-z0-9_]+)\b", script.read_text()))) if script.is_file() else []
        if len(utilities) > 1:
            raise FormatError(f"{script}: runs several utilities ({', '.join(utilities)})")
        out.append(Regression(**{**r.__dict__, "utility": utilities[0] if utilities else "",
                                  "regression_test": str(script.resolve()) if script.is_file() else ""}))
    return out


def load(corebench: Path) -> list:
    """The regressions of CoREBench at `corebench` (a directory or regressions.txt itself)."""
    path = corebench if corebench.is_file() else corebench / "subjects" / "coreutils" / "regressions.txt"
    if not path.is_file():
        raise FormatError(f"{corebench}: no subjects/coreutils/regressions.txt (unpack corebench.tar.gz there)")
    return with_utilities(parse(path.read_text(), str(path)), path.parent / "tests")


def toml_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def toml_list(items) -> str:
    return "[" + ", ".join(toml_string(x) for x in items) + "]"


# Hand annotations where unify refuses: functions allowed to differ, and why (the table shows them).
HAND_ANNOTATIONS = ROOT / "subjects" / "corebench" / "hand-annotations.toml"


def hand_annotations() -> dict:
    """NAME -> {"accept_differences": [...], "why": "..."} from HAND_ANNOTATIONS."""
    return tomllib.loads(HAND_ANNOTATIONS.read_text()) if HAND_ANNOTATIONS.is_file() else {}


def memory_limit_mb(regression_test: str) -> int:
    """The memory CoREBench's test gives the utility (`ulimit -v KIB` in regression.sh), in MiB
    rounded up; 0 where it sets none. Its memory-exhaustion regression (`cut -b2147483648-`
    under `ulimit -v 20000`) shows natively only so."""
    script = Path(regression_test) if regression_test else None
    limits = re.findall(r"\bulimit -v (\d+)", script.read_text()) if script and script.is_file() else []
    return max(-(-int(kib) // 1024) for kib in limits) if limits else 0


def pair_toml(r: Regression, regression_test: Path = None, hand: dict = None) -> str:
    """The pair of `r`; with `regression_test` (CoREBench's regression.sh), seeded mode's seeds
    also come from the invocations that script makes; `hand` is its hand annotation, if any.
    Replay runs the builds under the memory limit that script sets, if any (both subjects of
    the regression: the limit is the regression's environment, not a seed)."""
    limit = memory_limit_mb(r.regression_test)
    extra = [f"flags = {toml_list(['--native-memory-limit', str(limit)])}"] if limit else []
    if regression_test:
        extra += [f"regression_test = {toml_string(str(regression_test))}", 'seed_suites = ["era", "corebench"]']
    if hand:
        extra += [f"accept_differences = {toml_list(hand['accept_differences'])}",
                  f"hand_annotation = {toml_string(hand['why'])}"]
    return "\n".join([
        f"# CoREBench: {r.report}",
        'kind = "coreutils"',
        'repo = "$COREUTILS_GIT"',
        f"introducing = {toml_string(r.introducing)}",
        f"new = {toml_string(r.new)}",
        f"fixing = {toml_list([r.fixed])}",
        f"fix_parents = {toml_list([r.fixing + '^'])}",
        f"utility = {toml_string(r.utility)}",
        f"complete_flags = {toml_list(COMPLETE_FLAGS)}",
        *extra,
        "",
    ])


def flags(profile: str, utility: str = "") -> list:
    """A job's flags: the profile's budgets, replay's timeout per native run (a utility's own
    limits where it has them)."""
    timeout, tests = OWN_LIMITS.get(utility, (REPLAY_TIMEOUT, MAX_TESTS[profile]))
    site_tests = min(tests, MAX_SITE_TESTS[profile])
    derived = ['--derived-seeds', str(DERIVED_SEEDS[profile])] if DERIVED_SEEDS[profile] else []
    return ['--max-time', f'{PROFILES[profile]:g}', '--max-tests', str(tests), '--max-site-tests', str(site_tests),
            '--interpreter', 'errors', '--replay-timeout', f'{timeout:g}', *derived]


def manifest_toml(regressions: list, profile: str) -> str:
    seconds = PROFILES[profile]
    lines = [
        f"# CoREBench's coreutils regressions, profile `{profile}` (written by scripts/corebench.py).",
        'name = "corebench"',
        "",
        "[defaults]",
        'mode = ["complete", "seeded"]',
        "replay = true",
        # Replay runs the interpreter only where a native run or the engine reports an error:
        # the natives are AddressSanitizer builds of the real revisions, and interpreting every
        # divergent test of a coreutils utility costs more than exploring.
        f"flags = {toml_list(flags(profile))}",
        # The job's wall-time limit: the run's own budget, then its replay (up to 5,000 tests on
        # four AddressSanitizer builds: cut ae571715's 4,856 took 670 s beside a tree build).
        f"max_time = {seconds * 2 + 1200:g}",
        f"prepare = {toml_list(['python3', str(ROOT / 'scripts' / 'commit-pair.py'), 'prepare'])}",
    ]
    for r in regressions:
        # A utility with limits of its own: its subjects' flags say so.
        own_flags = [f"flags = {toml_list(flags(profile, r.utility))}"] if r.utility in OWN_LIMITS else []
        lines += ["", "[[subject]]", f"name = {toml_string(r.name)}", f"project = {toml_string('pairs/' + r.name)}",
                  f"description = {toml_string(r.report)}", *own_flags]
        if r.regression_test:
            # Seeded also with the invocations of CoREBench's exposing test: reported apart, as
            # a run seeded with the test that exposes the regression proves little.
            name = r.name + WITH_TEST
            lines += ["", "[[subject]]", f"name = {toml_string(name)}", f"project = {toml_string('pairs/' + name)}",
                      'mode = "seeded"', f"description = {toml_string(r.report + ' (seeds with regression.sh)')}",
                      *own_flags]
    return "\n".join(lines) + "\n"


def write(regressions: list, out: Path, profile: str) -> Path:
    unknown = [r for r in regressions if not r.utility]
    if unknown:
        raise FormatError("no utility known for " + ", ".join(f"line {r.line} ({r.test_dir})" for r in unknown)
                          + ": CoREBench's tests/ directory names it")
    names = [r.name for r in regressions]
    if len(set(names)) != len(names):
        raise FormatError("two regressions share a name: " + ", ".join(sorted({n for n in names if names.count(n) > 1})))
    hands = hand_annotations()
    for r in regressions:
        project = out / "pairs" / r.name
        project.mkdir(parents=True, exist_ok=True)
        (project / "pair.toml").write_text(pair_toml(r, hand=hands.get(r.name)))
        if r.regression_test:
            project = out / "pairs" / (r.name + WITH_TEST)
            project.mkdir(parents=True, exist_ok=True)
            (project / "pair.toml").write_text(pair_toml(r, Path(r.regression_test), hands.get(r.name)))
    manifest = out / "corebench.toml"
    manifest.write_text(manifest_toml(regressions, profile))
    return manifest


def build(regressions: list, out: Path, only: list) -> int:
    """Builds the trees of each regression (scripts/commit-pair.py trees), one after the other,
    going on past failures; OUT/builds.json records each one's result. Returns the exit status."""
    unknown = sorted(set(only) - {r.name for r in regressions})
    if unknown:
        raise FormatError("no regression named " + ", ".join(unknown))
    write(regressions, out, "fast")
    record_path = out / "builds.json"
    record = json.loads(record_path.read_text()) if record_path.is_file() else {}
    failed = 0
    for r in regressions:
        if only and r.name not in only:
            continue
        print(f"corebench: building the trees of {r.name}", file=sys.stderr, flush=True)
        done = subprocess.run([sys.executable, str(ROOT / "scripts" / "commit-pair.py"), "trees",
                               str(out / "pairs" / r.name)], capture_output=True, text=True)
        if done.returncode == 0:
            record[r.name] = {"built": True, "trees": done.stdout.split()}
        else:
            failed += 1
            errors = [line for line in done.stderr.splitlines() if not line.startswith("commit-pair: $")]
            record[r.name] = {"built": False, "error": "\n".join(errors[-5:])}
            print(f"corebench: {r.name} did not build: {errors[-1] if errors else done.returncode}", file=sys.stderr)
        record_path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return 1 if failed else 0


MODES = ("complete", "seeded")


def job_records(results: Path) -> dict:
    """The batch's job records by (subject, mode)."""
    records = {}
    for path in sorted((results / "jobs").glob("*.json")):
        record = json.loads(path.read_text())
        records[(record["subject"], record["mode"])] = record
    return records


def builds_text(rows: list) -> str:
    """Which penumbra ran the table's jobs (each cell's `penumbra`: version and commit, kept
    with the cells a table takes from an earlier one), as a sentence for the table: the one
    build, or each build with its count of jobs. Cells of tables written before 2026-12-04
    did not record it."""
    builds = collections.Counter(
        c.get("penumbra") or "not recorded" for r in rows for c in (r[k] for k in CELLS) if c.get("outcome") != "not run"
    )
    if len(builds) == 1 and "not recorded" not in builds:
        return f" Jobs run by penumbra {next(iter(builds))}."
    if not builds:
        return ""
    listed = "; ".join(f"{b}: {n} jobs" for b, n in sorted(builds.items()))
    return f" Jobs run by {len(builds)} builds of penumbra ({listed})."


def exposes(test: dict) -> bool:
    """Whether a job's test exposes the regression: `regression` by Shadow's rule, and for an
    error in new only (which stays `regression` whatever the fixes do) the fix removes it (its
    parent has it, the fix not): an error another commit fixed, or one the fix keeps, is some
    other bug of the introducing commit (cut 7380cf79's out-of-bounds read is the bug 2e636af1
    fixes, not the one 06aeeecb fixes)."""
    explained = penumbra_schema.explaining_judgements()
    return test["class"] == "regression" and not any(f["judgement"] in explained for f in test.get("fixes", []))


def mode_cell(record) -> dict:
    """One mode's numbers: outcome, diff paths, classes, first regression test's time."""
    if record is None:
        return {"outcome": "not run"}
    cell = {"outcome": record["outcome"]}
    if record.get("penumbra"):
        cell["penumbra"] = record["penumbra"]
    summary = record.get("summary") or {}
    if summary:
        cell.update(diff_paths=summary.get("diff_paths", 0), untested=summary.get("diff_paths_untested", 0),
                    stopped_by=summary.get("stopped_by"),
                    unsupported=summary.get("unsupported", 0), early=summary.get("early", 0),
                    engine_s=record.get("wall_s"))
    tests = record.get("tests") or []
    classes = {}
    for t in tests:
        classes[t["class"]] = classes.get(t["class"], 0) + 1
    cell["classes"] = dict(sorted(classes.items()))
    cell["exposing"] = sum(1 for t in tests if exposes(t))
    times = [t["time_s"] for t in tests if exposes(t) and t.get("time_s") is not None]
    cell["first_regression_s"] = round(min(times), 3) if times else None
    if record["outcome"] in ("not-prepared", "no-seeds", "error"):
        cell["error"] = record.get("error") or ""
    return cell


def miss_reason(row: dict) -> str:
    """Why a regression was not exposed, from what its build, preparation and runs recorded."""
    if not row["built"]:
        error = (row.get("build_error") or "").strip()
        return "not built: " + error.splitlines()[-1] if error else "not built yet"
    cells = [row[mode] for mode in MODES]
    unprepared = [c for c in cells if c["outcome"] == "not-prepared"]
    if unprepared:
        # `MANIFEST:LINE: subject `NAME`: cannot prepare the project: COMMAND failed (exit
        # status: N): WHAT THE PREPARATION SAID LAST`
        error = (unprepared[0].get("error") or "").strip()
        said = re.split(r"cannot prepare the project: |failed \(exit status: \d+\): ", error)[-1] if error else ""
        if said.startswith("penumbra unify refused"):
            return said
        if said.startswith("commit-pair: not built"):
            return said.removeprefix("commit-pair: ")
        return f"not prepared: {said}" if said else "not prepared"
    if all(c["outcome"] == "not run" for c in cells):
        return "not run yet"
    ran = [c for c in cells if "diff_paths" in c]
    diverged = sum(c.get("diff_paths", 0) for c in ran)
    unsupported = sum(c.get("unsupported", 0) for c in ran)
    seeded = row["seeded"]
    no_seeds = "no test of the era touches the patch (seeded mode not run); " if seeded["outcome"] == "no-seeds" else ""
    if diverged == 0:
        extra = f" ({unsupported} paths ended at unsupported code)" if unsupported else ""
        return no_seeds + "the search reached no divergence within the budget" + extra
    classes = {}
    for c in ran:
        for k, v in c["classes"].items():
            classes[k] = classes.get(k, 0) + v
    shown = ", ".join(f"{v} {k}" for k, v in sorted(classes.items()))
    untested = sum(c.get("untested", 0) for c in ran)
    # Diff paths past their site's --max-site-tests were counted without a test.
    tested = f", {untested} of them without a test (--max-site-tests)" if untested else ""
    return no_seeds + f"diverged ({diverged} diff paths{tested}) but no test is a regression by Shadow's rule ({shown})"


def table(regressions: list, out: Path, records: dict) -> list:
    """The rows of the evaluation in OUT (builds.json, results/, its job `records`), one per
    regression."""
    builds = json.loads((out / "builds.json").read_text()) if (out / "builds.json").is_file() else {}
    results = out / "results"
    rows = []
    for r in regressions:
        build = builds.get(r.name)
        pair_file = results / "prepared" / r.name / "pair.json"
        pair = json.loads(pair_file.read_text()) if pair_file.is_file() else {}
        any_record = records.get((r.name, "complete")) or records.get((r.name, "seeded"))
        selection = (any_record or {}).get("seed_selection") or {}
        row = {
            "regression": r.name, "utility": r.utility, "introducing": r.introducing[:8], "fixing": r.fixing[:8],
            "report": r.report,
            "built": bool(build and build["built"]) or bool(pair),
            "annotation": pair.get("annotation", ""), "unified": pair.get("unified", []),
            "touching": selection.get("touching"), "invocations": selection.get("invocations"),
        }
        if build and not build["built"]:
            row["build_error"] = build.get("error", "")
        for mode in MODES:
            row[mode] = mode_cell(records.get((r.name, mode)))
        row["seeded_with_regression_test"] = mode_cell(records.get((r.name + WITH_TEST, "seeded")))
        settle(row)
        rows.append(row)
    return rows


def settle(row: dict):
    """Whether the row's regression was exposed, by which modes (the first to do so first), and
    for a miss its reason, from its cells."""
    exposing = [(row[m]["first_regression_s"], m) for m in MODES if row[m].get("first_regression_s") is not None]
    row["exposed"] = bool(exposing)
    row["exposed_by"] = [mode for _, mode in sorted(exposing)]
    row["miss_reason"] = None if exposing else miss_reason(row)


def markdown(rows: list, profile_note: str) -> str:
    def mode_text(c):
        mark = " †" if c.get("earlier") else ""
        if "diff_paths" not in c:
            return c["outcome"] + mark
        regression = c["classes"].get("regression", 0)
        first = f", first at {c['first_regression_s']:g} s" if c.get("first_regression_s") is not None else ""
        other = regression - c.get("exposing", regression)
        other_bug = f" ({other} of another bug: its fix is not this one)" if other else ""
        return f"{c['diff_paths']} diff paths, {regression} regression{other_bug}{first}{mark}"
    exposed = sum(r["exposed"] for r in rows)
    built = sum(r["built"] for r in rows)
    lines = [
        "# CoREBench: the 22 GNU coreutils regressions",
        "",
        profile_note,
        "",
        f"{len(rows)} regressions, {built} built, {exposed} exposed (a test classified `regression` by Shadow's rule:"
        " it behaves differently in old and new, and the fix's parent and the fix do not explain the difference;"
        " an error in new only counts where the fix removes it).",
        "",
        *([f"Rows marked † ({sum(r.get('earlier', False) for r in rows)}), and cells marked †, are those of an "
           "earlier table: this run's OUT ran no job of them (`table --keep-earlier`).", ""]
          if any(r.get("earlier") or any(r[k].get("earlier") for k in CELLS) for r in rows) else []),
        "| regression | utility | built | annotation | invocations touching | complete | seeded | exposed | reason of a miss | seeded with regression.sh |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        touching = f"{r['touching']}/{r['invocations']}" if r["touching"] is not None else "-"
        annotation = r["annotation"] + (f" ({', '.join(r['unified'])})" if r["unified"] else "") if r["annotation"] else "-"
        lines.append(f"| {r['regression']}{' †' if r.get('earlier') else ''} | {r['utility']} | {'yes' if r['built'] else 'no'} | {annotation} | {touching} | "
                     f"{mode_text(r['complete'])} | {mode_text(r['seeded'])} | "
                     f"{('yes (' + ', '.join(r['exposed_by']) + ')') if r['exposed'] else 'no'} | {r['miss_reason'] or ''} | "
                     f"{mode_text(r['seeded_with_regression_test'])} |")
    return "\n".join(lines) + "\n"


CELLS = (*MODES, "seeded_with_regression_test")


def keep_earlier(rows: list, results_dir: Path) -> int:
    """Takes what OUT did not run from RESULTS/corebench.json (a table written before, from
    another OUT: a batch resumed on another machine, or run for some regressions again): a
    regression OUT ran no job of (and did not fail to build) keeps its whole row, marked
    `earlier`, its note taken off again; one OUT ran some jobs of keeps the cells of the others,
    each marked `earlier`, and is settled again. Returns how many rows took something."""
    earlier_file = results_dir / "corebench.json"
    if not earlier_file.is_file():
        return 0
    earlier = {r["regression"]: r for r in json.loads(earlier_file.read_text())}
    kept = 0
    for i, row in enumerate(rows):
        old = earlier.get(row["regression"])
        missing = [k for k in CELLS if row[k]["outcome"] == "not run"]
        # A build that failed here is news too; an earlier row that ran nothing either adds nothing.
        if old is None or row.get("build_error") or not missing:
            continue
        kept += 1
        if len(missing) == len(CELLS):
            # The row is marked as a whole (its cells' marks are those of a table before it).
            old = dict(old, earlier=True, **{k: {n: v for n, v in old[k].items() if n != "earlier"} for k in CELLS if k in old})
            note = old.pop("note", None)
            if note and old.get("miss_reason"):
                old["miss_reason"] = old["miss_reason"].removesuffix(f"; {note}")
            rows[i] = old
            continue
        for k in missing:
            if old.get(k, {}).get("outcome", "not run") != "not run":
                row[k] = dict(old[k], earlier=True)
        settle(row)
    return kept


def write_table(regressions: list, out: Path, results_dir: Path, keep: bool = False):
    """Writes the table; RESULTS/notes.toml (`NAME = "why"`, written by hand after reading a
    miss's tests and its bug report) adds to each miss what the recorded numbers cannot say.
    With `keep`, regressions OUT ran nothing of keep their rows of the table there before
    ([`keep_earlier`]), and the plots, which would show only OUT's jobs, are left as they were."""
    records = job_records(out / "results") if (out / "results").is_dir() else {}
    rows = table(regressions, out, records)
    kept = keep_earlier(rows, results_dir) if keep else 0
    notes_file = results_dir / "notes.toml"
    notes = tomllib.loads(notes_file.read_text()) if notes_file.is_file() else {}
    unknown = sorted(set(notes) - {r["regression"] for r in rows})
    if unknown:
        raise FormatError(f"{notes_file}: no regression named " + ", ".join(unknown))
    for row in rows:
        if row["regression"] in notes:
            row["note"] = notes[row["regression"]]
            if row["miss_reason"]:
                row["miss_reason"] += f"; {row['note']}"
    results_dir.mkdir(parents=True, exist_ok=True)
    manifest = out / "corebench.toml"
    profile = re.search(r"profile `(\w+)`", manifest.read_text()).group(1) if manifest.is_file() else "?"
    note = (f"Profile `{profile}` ({PROFILES.get(profile, 0):g} s a mode). Regenerate: `COREUTILS_GIT=... GNULIB_GIT=... "
            f"python3 scripts/corebench.py run COREBENCH OUT --profile {profile}`, then "
            f"`python3 scripts/corebench.py table COREBENCH OUT {results_dir}`."
            + builds_text(rows))
    (results_dir / "README.md").write_text(markdown(rows, note))
    (results_dir / "corebench.json").write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
    if not kept:
        for plot in sorted((out / "results").glob("*.svg")):
            shutil.copy2(plot, results_dir / plot.name)
    return rows


def penumbra_or_exit() -> str:
    """The penumbra binary the batch and the builds run (PENUMBRA: a path, or a name on PATH;
    default the release build), or exit saying how to make it: the trees ask it for replay's
    build flags, minutes into each build."""
    penumbra = penumbra_schema.binary()
    if not os.access(penumbra, os.X_OK):
        sys.exit(f"corebench: no penumbra binary at {penumbra}: build it (cargo build --release) or set PENUMBRA")
    # The builds (commit-pair.py, coreutils-rev.sh) read it too: the path, not the name.
    os.environ["PENUMBRA"] = penumbra
    return penumbra


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    for name in ("run", "manifest"):
        p = sub.add_parser(name)
        p.add_argument("corebench", type=Path)
        p.add_argument("out", type=Path)
        p.add_argument("--profile", choices=sorted(PROFILES), default="fast")
        if name == "run":
            p.add_argument("--slurm", action="store_true",
                           help="submit the batch to SLURM (`penumbra batch --slurm`: a preparation job builds the "
                                "trees, an array task per job, a collection job); OUT must be on a file system the "
                                "nodes share; follow it with `penumbra batch OUT/corebench.toml --out OUT/results --status`")
            p.add_argument("--sbatch", action="append", default=[], metavar="OPTION",
                           help="an option for every sbatch (repeatable: --sbatch=--partition=long)")
        p.add_argument("--only", action="append", default=[],
                       help="a regression's name (repeatable): the manifest holds only these (the job records of "
                            "earlier runs stay in OUT/results/jobs, and `table` reads them all)")
    sub.add_parser("list").add_argument("corebench", type=Path)
    b = sub.add_parser("build")
    b.add_argument("corebench", type=Path)
    b.add_argument("out", type=Path)
    b.add_argument("--only", action="append", default=[], help="a regression's name (repeatable)")
    t = sub.add_parser("table")
    t.add_argument("corebench", type=Path)
    t.add_argument("out", type=Path)
    t.add_argument("results", type=Path)
    t.add_argument("--keep-earlier", action="store_true",
                   help="a regression OUT ran no job of keeps its row of RESULTS/corebench.json (marked earlier)")
    a = ap.parse_args()
    penumbra = penumbra_or_exit() if a.command in ("run", "build") else None
    try:
        regressions = load(a.corebench)
        if a.command == "list":
            for r in regressions:
                print(f"{r.name} {r.introducing[:8]} {r.new[:8]} {r.fixing[:8]} {r.fixed[:8]} {r.report}")
            return
        if a.command == "build":
            sys.exit(build(regressions, a.out.resolve(), a.only))
        if a.command == "table":
            rows = write_table(regressions, a.out.resolve(), a.results, a.keep_earlier)
            print(f"corebench: {sum(r['exposed'] for r in rows)} of {len(rows)} exposed; {a.results}/README.md",
                  file=sys.stderr)
            return
        unknown = sorted(set(a.only) - {r.name for r in regressions})
        if unknown:
            raise FormatError("no regression named " + ", ".join(unknown))
        chosen = [r for r in regressions if not a.only or r.name in a.only]
        manifest = write(chosen, a.out.resolve(), a.profile)
    except FormatError as e:
        sys.exit(f"corebench: {e}")
    print(f"corebench: {len(chosen)} regressions in {manifest}", file=sys.stderr)
    if a.command == "run":
        for var in ("COREUTILS_GIT", "GNULIB_GIT"):
            if not os.environ.get(var):
                sys.exit(f"corebench: set {var} (a clone or bare git directory)")
        command = [penumbra, "batch", str(manifest), "--out", str(a.out.resolve() / "results")]
        if a.slurm:
            command += ["--slurm", "--", *a.sbatch]
        sys.exit(subprocess.run(command).returncode)


if __name__ == "__main__":
    main()
