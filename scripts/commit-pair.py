#!/usr/bin/env python3
"""commit-pair.py: a regression of a C program's git history as a shadow subject, the way
"Shadow of a doubt" (ICSE 2016) evaluated CoREBench: old = the introducing commit's parent,
new = the introducing commit, annotated by `penumbra unify --git`; replayed on old, new, and for
each fixing commit the fix and its parent (replay's Shadow rule: `--fixed-version`,
`--fix-parent-version`).

    commit-pair.py prepare PROJECT OUT     # `penumbra batch`'s preparation (prepared.json)
    commit-pair.py run PROJECT OUT [--mode complete|seeded]... [--max-time S]
    commit-pair.py trees PROJECT           # kind "coreutils": build the trees only

PROJECT is a directory holding `pair.toml`:

    kind = "file"                # "file" (one C file of the repository is the program),
                                 # "coreutils" (a GNU coreutils utility, trees built by
                                 # scripts/coreutils-rev.sh; see scripts/corebench.py) or
                                 # "build" (the recipe's `[build]` commands build it)
    repo = "repo"                # a clone or bare git directory (relative to PROJECT; "$VAR"
                                 # names an environment variable holding it)
    introducing = "5609c0d"      # the commit that introduced the regression (new)
    old = "5609c0d^"             # optional: the old version (default: introducing^)
    new = "..."                  # optional: the new version when the introducing commit does
                                 # not build (CoREBench's `+` lines; default: introducing)
    fixing = ["ddf49c3"]         # the fixing commit(s); each is replayed with its parent
    fix_parents = ["ddf49c3^"]   # optional: each fix's parent (default: FIXING^; CoREBench's
                                 # `+` lines replay a later revision that builds as the fix)
    program = "prog.c"           # kind "file": the program's file in the repository; kind
                                 # "build": the program the build makes, in the tree
    utility = "cut"              # kind "coreutils": the utility (src/UTILITY.c is unified)
    flags = []                   # `penumbra shadow` flags of every mode
    complete_flags = ["--sym-arg", "8"]  # complete mode's symbolic environment
    seeded_flags = []            # seeded mode's (kind "coreutils": sized to hold the seeds)
    seeds = []                   # `--seed` strings for seeded mode (kind "coreutils": taken
                                 # from the era's own test of the utility)
    include = ["."]              # kind "build": include directories of unify's check, in the
                                 # new version's tree
    [build]                      # kind "build": shell commands run in a tree of a commit
    bitcode = "make CC=wllvm {program} && extract-bc {program}"   # makes the tree's PROGRAM.bc
    asan = "make CC=clang-15 CFLAGS='{asan_cflags}' LDFLAGS='{asan_ldflags}' {program}"
    env = {LLVM_COMPILER = "clang"}   # optional: the commands' environment

Kind "build": each commit is checked out (`git archive`) into a tree per purpose, cached under
WORK (default ~/.cache/penumbra/commit-pair)/<repository hash>/rev-<commit>-<purpose> and
reused while its command stays the same. `bitcode` builds old and new; every .c/.h file the
patch changes is unified (`penumbra unify OLD NEW`; a file the patch adds stays as new has it,
one it deletes is refused), written over a copy of new's tree and the command run again: that
tree's PROGRAM.bc is the unified program (CPATH names penumbra.h's directory). `asan` builds old,
new, each fix and its parent, which replay runs (`--native-old`, ...). {program},
{asan_cflags} and {asan_ldflags} (`penumbra replay --print-build-flags`) are filled in. Seeds
are pair.toml's `seeds` only: this kind mines no test suite.

`prepare` writes OUT/prepared.json (`penumbra batch`'s preparation: the unified program, the
flags naming the fixes' versions, the modes' environments and the seeds; paths relative to
OUT) and OUT/pair.json (the resolved commits and how the program was annotated). `run` prepares
and then runs `penumbra shadow --replay --json` in each mode, writing OUT/summary.json: per
mode the run's counts, the tests per class and every test with its inputs (hex), class and
each fix's judgement. PENUMBRA names the binary (a path, or a name on PATH; default
target/release/penumbra).
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import commit_pair_build
import penumbra_schema

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("file", "coreutils", "build")


def log(msg):
    print(f"commit-pair: {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$ " + " ".join(str(c) for c in cmd))
    return subprocess.run([str(c) for c in cmd], check=True, **kw)


def run_or_exit(cmd, what, **kw):
    """Runs `cmd` with its stderr passed on; when it fails, exits with `what` and the last line
    it said (a batch shows the last line of a failed preparation as its reason)."""
    log("$ " + " ".join(str(c) for c in cmd))
    done = subprocess.run([str(c) for c in cmd], stderr=subprocess.PIPE, text=True, **kw)
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.strip()]
        sys.exit(f"commit-pair: {what}: {said[-1].strip() if said else f'exit status {done.returncode}'}")
    return done


@dataclass
class Pair:
    """A regression: pair.toml, checked."""
    kind: str
    repo: Path
    introducing: str
    fixing: list
    fix_parents: list = field(default_factory=list)
    old: str = ""
    new: str = ""
    program: str = ""
    utility: str = ""
    flags: list = field(default_factory=list)
    complete_flags: list = field(default_factory=list)
    seeded_flags: list = field(default_factory=list)
    seeds: list = field(default_factory=list)
    # Kind "coreutils": a test script run as `sh SCRIPT VERSIONDIR` (CoREBench's regression.sh),
    # whose invocations form the suite "corebench"; `seed_suites` names the suites seeded mode
    # takes its seeds from.
    regression_test: str = ""
    seed_suites: list = field(default_factory=lambda: ["era"])
    # A hand annotation where unify refuses: functions whose projections may differ from their
    # inputs (`penumbra unify --accept-difference`), and why that changes nothing.
    accept_differences: list = field(default_factory=list)
    hand_annotation: str = ""
    include: list = field(default_factory=list)
    build: dict = field(default_factory=dict)

    @staticmethod
    def load(project: Path) -> "Pair":
        path = project / "pair.toml"
        raw = tomllib.loads(path.read_text())
        known = set(Pair.__dataclass_fields__)
        unknown = sorted(set(raw) - known)
        if unknown:
            sys.exit(f"commit-pair: {path}: unknown fields {', '.join(unknown)}")
        for key in ("kind", "repo", "introducing", "fixing"):
            if key not in raw:
                sys.exit(f"commit-pair: {path}: `{key}` is missing")
        if raw["kind"] not in KINDS:
            sys.exit(f"commit-pair: {path}: kind `{raw['kind']}` (known: {', '.join(KINDS)})")
        if not raw["fixing"]:
            sys.exit(f"commit-pair: {path}: `fixing` names no commit")
        need = {"file": "program", "coreutils": "utility", "build": "program"}[raw["kind"]]
        if not raw.get(need):
            sys.exit(f"commit-pair: {path}: kind `{raw['kind']}` needs `{need}`")
        if raw["kind"] == "build":
            check_build_table(path, raw.get("build", {}))
        repo = raw["repo"]
        if repo.startswith("$"):
            repo = os.environ.get(repo[1:]) or sys.exit(f"commit-pair: {path}: set {repo[1:]} (repo = \"{repo}\")")
        if raw.get("fix_parents") and len(raw["fix_parents"]) != len(raw["fixing"]):
            sys.exit(f"commit-pair: {path}: `fix_parents` needs one parent for each of `fixing`")
        pair = Pair(**{**raw, "repo": (project / repo).resolve()})
        if pair.regression_test:
            pair.regression_test = str((project / pair.regression_test).resolve())
        pair.old = pair.old or f"{pair.introducing}^"
        pair.new = pair.new or pair.introducing
        return pair


def rev_parse(repo: Path, rev: str) -> str:
    out = subprocess.run(["git", "-C", repo, "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def fix_revisions(pair: Pair):
    """Each fix's (fixed, parent) commits."""
    parents = pair.fix_parents or [f"{fix}^" for fix in pair.fixing]
    return [(rev_parse(pair.repo, fix), rev_parse(pair.repo, parent)) for fix, parent in zip(pair.fixing, parents)]


def fix_flags(fixes):
    """`--fixed-version F --fix-parent-version P` for each (F, P), in order."""
    flags = []
    for fixed, parent in fixes:
        flags += ["--fixed-version", str(fixed), "--fix-parent-version", str(parent)]
    return flags


def prepare_file(pair: Pair, out: Path, old: str, new: str):
    """Kind "file": `penumbra unify --git OLD NEW` of the whole tree; the fixes' versions of the
    program's file straight from git."""
    unified = out / "unified"
    if unified.exists():
        shutil.rmtree(unified)
    run([penumbra_schema.binary(), "unify", "--git", old, new, "--repo", pair.repo, "-o", unified])
    fixes_dir = out / "fixes"
    fixes_dir.mkdir(exist_ok=True)
    fixes = []
    for i, (fixed_rev, parent_rev) in enumerate(fix_revisions(pair)):
        paths = []
        for rev, name in ((fixed_rev, "fixed"), (parent_rev, "fix-parent")):
            text = subprocess.run(["git", "-C", pair.repo, "show", f"{rev}:{pair.program}"], check=True,
                                  capture_output=True).stdout
            path = fixes_dir / f"{i + 1}-{name}-{Path(pair.program).name}"
            path.write_bytes(text)
            paths.append(path.relative_to(out))
        fixes.append(((fixed_rev, parent_rev), tuple(paths)))
    source = (unified / pair.program).relative_to(out)
    return str(source), fixes, pair.seeds, {"annotation": "penumbra unify --git"}


# Every coreutils tree of a CoREBench evaluation prints this for `--version`: a version string
# per commit would make `--version` an output difference between old and new (and between the
# fix and its parent), and derived trees (coreutils-rev.sh --from) need one string to share.
VERSION_STRING = "corebench"
# What each revision of a pair is built for: old and new are analysed (musl bitcode), their era's
# tests measured (gcov) and replayed (asan); the fix and its parent are only replayed.
ANALYSED_KINDS = ("musl", "gcov", "asan")
REPLAYED_KINDS = ("asan",)


def trees_dir() -> Path:
    work = Path(os.environ.get("WORK", Path.home() / ".cache" / "penumbra" / "corebench"))
    return work / "trees"


def derivable_files() -> re.Pattern:
    """The files a derived tree may differ in: coreutils-rev.sh's own pattern (--derivable-files)."""
    pattern = subprocess.run(["bash", ROOT / "scripts" / "coreutils-rev.sh", "--derivable-files"],
                             check=True, capture_output=True, text=True).stdout.strip()
    return re.compile(pattern)


def derivable_from(repo: Path, base: str, commit: str, files: re.Pattern):
    """How many files `commit` changes against `base` when coreutils-rev.sh can derive its tree
    from base's (None when it cannot)."""
    out = subprocess.run(["git", "-C", repo, "diff", "--no-renames", "--name-only", base, commit],
                         check=True, capture_output=True, text=True).stdout.split()
    return None if any(not files.match(path) for path in out) else len(out)


def coreutils_tree(repo: Path, gnulib: str, commit: str, utility: str, kinds) -> Path:
    """The tree of `commit` with `kinds` built (scripts/coreutils-rev.sh), under trees_dir(),
    derived from the built tree of the nearest commit it can be (--from), else from scratch."""
    root = trees_dir()
    root.mkdir(parents=True, exist_ok=True)
    out = root / f"rev-{commit[:12]}"
    cmd = ["bash", ROOT / "scripts" / "coreutils-rev.sh", "--version-string", VERSION_STRING, "--prog", utility]
    for kind in kinds:
        cmd += ["--kind", kind]
    if not (out / "src" / ".penumbra-bootstrapped").exists():
        bases, files = [], derivable_files()
        for built in sorted(root.glob("rev-*/src/.penumbra-bootstrapped")):
            base = built.parent.parent
            changed = derivable_from(repo, (base / "src" / ".penumbra-commit").read_text().strip(), commit, files)
            if changed is not None and base != out:
                bases.append((changed, base.name, base))
        if bases:
            cmd += ["--from", min(bases)[2]]
    # One autoconf cache per kind for the trees of a year (coreutils-rev.sh's
    # PENUMBRA_CONFIG_CACHE): configure then takes a minute instead of five, and a 2005 tree's
    # macros never read a 2013 tree's answers under the same name.
    year = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%cd", "--date=format:%Y", commit],
                          check=True, capture_output=True, text=True).stdout.strip()
    env = {**os.environ, "PENUMBRA_CONFIG_CACHE": str(root / "config-cache" / year)}
    run_or_exit(cmd + [repo, gnulib, commit, out], f"not built: {commit[:12]}", stdout=subprocess.DEVNULL, env=env)
    return out


def coreutils_trees(pair: Pair, old: str, new: str):
    """The trees of old and new (analysed) and of each fix and its parent (replayed), built in
    that order so that each can derive from the one before."""
    gnulib = os.environ.get("GNULIB_GIT") or sys.exit("commit-pair: set GNULIB_GIT (a clone or bare git directory)")
    old_tree, new_tree = (coreutils_tree(pair.repo, gnulib, rev, pair.utility, ANALYSED_KINDS) for rev in (old, new))
    fixes = [tuple(coreutils_tree(pair.repo, gnulib, rev, pair.utility, REPLAYED_KINDS) for rev in (fixed, parent))
             for fixed, parent in fix_revisions(pair)]
    return old_tree, new_tree, fixes


def prepare_coreutils(pair: Pair, out: Path, old: str, new: str):
    """Kind "coreutils": the trees of old, new and each fix and its parent built by
    scripts/coreutils-rev.sh (cached by commit under WORK/trees), the utility's source unified
    with the new tree's include directories, every version replayed natively from its
    AddressSanitizer build, seeds from the era's test (scripts/shadow-regression.py's steps)."""
    sr = commit_pair_build.script_module("shadow-regression.py")
    utility = pair.utility
    old_tree, new_tree, fix_trees = coreutils_trees(pair, old, new)
    invocations_script = commit_pair_build.script_module("coreutils-rev-invocations.py")
    era_tests = invocations_script.era_tests(new_tree / "src", utility)
    if not era_tests:
        sys.exit(f"commit-pair: no era test: {new[:12]} has no tests/misc/{utility}.pl, tests/misc/{utility} "
                 f"nor tests under tests/{utility}/")
    work = trees_dir().parent
    sources = sr.changed_sources(pair.repo, old, new, new_tree / "musl", utility)
    if not sources:
        sys.exit(f"commit-pair: {old[:12]}..{new[:12]} changes none of the files src/{utility} is made of")
    bitcode = sr.unified_bitcode(penumbra_schema.binary(), work, old_tree, new_tree, utility, sources, out,
                                 pair.accept_differences)
    shutil.copy2(bitcode, out / "unified.bc")
    asan = lambda tree: tree / "asan" / "src" / utility
    native = ["--native-old", asan(old_tree), "--native-new", asan(new_tree)]
    for fixed_tree, parent_tree in fix_trees:
        native += ["--native-fixed", asan(fixed_tree), "--native-fix-parent", asan(parent_tree)]
    fixes = [((fixed, parent), ()) for fixed, parent in fix_revisions(pair)]
    suites = [f"era={new_tree}:{','.join(era_tests)}"]
    if pair.regression_test:
        suites.append(f"corebench={pair.regression_test}")
    invocations_file = out / "invocations.json"
    run_or_exit([sys.executable, ROOT / "scripts" / "coreutils-rev-invocations.py", "--git", pair.repo, "--commit", new,
                 "--utility", utility, "--old", old_tree, "--new", new_tree,
                 *[x for source in sources if source.endswith(".c") for x in ("--source", source)],
                 *[x for suite in suites for x in ("--suite", suite.replace("corebench=", f"corebench={new_tree}:", 1))],
                 "--out", invocations_file], "the era's tests did not run", stdout=subprocess.DEVNULL)
    invocations = json.loads(invocations_file.read_text())
    seed_flags, seeds, touching = sr.seeds_of(invocations, 24, tuple(pair.seed_suites))
    pair.flags = ["--libc", "musl", *pair.flags, *map(str, native)]
    pair.seeded_flags = pair.seeded_flags or seed_flags
    # The era's tests of the utility: one script of many cases (tests/misc/UTILITY.pl), or a
    # directory of scripts, whose invocations' cases are `DIR/SCRIPT:CASE`.
    distinct = {(tuple(e["args_hex"]), e["stdin_hex"], json.dumps(e.get("files_hex"), sort_keys=True)) for e in invocations}
    script = (lambda e: e["case"].split(":", 1)[0]) if len(era_tests) > 1 else (lambda e: era_tests[0])
    tests_touching = len({script(e) for e in invocations if e["suite"] == "era" and e["touches_patch"]})
    selection = {"tests": len(era_tests), "invocations": len(distinct), "touching": touching,
                 "tests_touching": tests_touching}
    annotation = "penumbra unify"
    if pair.accept_differences:
        annotation += (f" and by hand: {', '.join(pair.accept_differences)} may differ from its input"
                       f" ({pair.hand_annotation or 'no reason given'})")
    return "unified.bc", fixes, pair.seeds or seeds, {"annotation": annotation, "unified": sources,
                                                        "touching_invocations": touching, "seed_selection": selection}


def check_build_table(path: Path, build: dict):
    """Kind "build"'s `[build]`: the two commands, and an environment of strings."""
    unknown = sorted(set(build) - {"bitcode", "asan", "env"})
    if unknown:
        sys.exit(f"commit-pair: {path}: unknown fields build.{', build.'.join(unknown)}")
    for purpose in ("bitcode", "asan"):
        if not isinstance(build.get(purpose), str) or not build[purpose].strip():
            sys.exit(f"commit-pair: {path}: kind `build` needs `build.{purpose}` (a shell command)")
    env = build.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        sys.exit(f"commit-pair: {path}: `build.env` is a table of strings")


def built_tree(pair: Pair, commit: str, purpose: str, values: dict) -> Path:
    """Kind "build": the tree of COMMIT built by the recipe's PURPOSE command ("bitcode" or
    "asan"), cached by commit and purpose and rebuilt only when the command changed."""
    cpb = commit_pair_build
    command = cpb.fill(pair.build[purpose], values)
    recipe_env = pair.build.get("env", {})
    env = {**os.environ, **recipe_env}
    if purpose == "bitcode":
        env = cpb.bitcode_env(env)
    made = pair.program + (".bc" if purpose == "bitcode" else "")
    tree = cpb.trees_root(pair.repo) / f"rev-{commit[:12]}-{purpose}"
    key = cpb.build_key(command, recipe_env)
    with cpb.locked(tree):
        if cpb.is_built(tree, key):
            log(f"{tree}: built before, reused")
            return tree
        cpb.checkout(pair.repo, commit, tree)
        what = f"not built: {commit[:12]} ({purpose})"
        run_or_exit(["sh", "-c", command], what, cwd=tree, env=env, stdout=subprocess.DEVNULL)
        if not (tree / made).is_file():
            sys.exit(f"commit-pair: {what}: the command made no {made}")
        cpb.mark_built(tree, key)
    return tree


def prepare_build(pair: Pair, out: Path, old: str, new: str):
    """Kind "build": the recipe's bitcode trees of old and new, the .c/.h files the patch changes
    unified and written over a copy of new's tree, whose bitcode command then makes the unified
    program; the recipe's AddressSanitizer builds of every version replayed natively."""
    cpb = commit_pair_build
    penumbra = penumbra_schema.binary()
    values = {"program": pair.program, **cpb.asan_flags(penumbra)}
    modified, added, deleted = cpb.changed_c_files(pair.repo, old, new)
    if deleted:
        sys.exit(f"commit-pair: {old[:12]}..{new[:12]} deletes {', '.join(deleted)}: unify needs both versions")
    if not modified:
        sys.exit(f"commit-pair: {old[:12]}..{new[:12]} changes no .c or .h file both versions have")
    old_tree, new_tree = (built_tree(pair, rev, "bitcode", values) for rev in (old, new))
    cpb.unify_each(penumbra, old_tree, new_tree, modified, out / "unified", [new_tree / d for d in pair.include],
                   pair.accept_differences)
    unified_tree = cpb.trees_root(pair.repo) / f"unified-{old[:12]}-{new[:12]}"
    with cpb.locked(unified_tree):
        if unified_tree.exists():
            shutil.rmtree(unified_tree)
        shutil.copytree(new_tree, unified_tree, symlinks=True)
        # The command must make the unified program afresh, not leave new's in place.
        (unified_tree / f"{pair.program}.bc").unlink()
        for source in modified:
            shutil.copy2(out / "unified" / source, unified_tree / source)
            # Newer than every object, so that make recompiles what includes it.
            os.utime(unified_tree / source)
        env = cpb.bitcode_env({**os.environ, **pair.build.get("env", {})})
        command = cpb.fill(pair.build["bitcode"], values)
        what = "not built: the unified program"
        run_or_exit(["sh", "-c", command], what, cwd=unified_tree, env=env, stdout=subprocess.DEVNULL)
        if not (unified_tree / f"{pair.program}.bc").is_file():
            sys.exit(f"commit-pair: {what}: the command made no {pair.program}.bc")
        shutil.copy2(unified_tree / f"{pair.program}.bc", out / "unified.bc")
        shutil.rmtree(unified_tree)
    asan = lambda rev: built_tree(pair, rev, "asan", values) / pair.program
    fixes = fix_revisions(pair)
    native = ["--native-old", asan(old), "--native-new", asan(new)]
    for fixed, parent in fixes:
        native += ["--native-fixed", asan(fixed), "--native-fix-parent", asan(parent)]
    pair.flags = [*pair.flags, *map(str, native)]
    notes = {"annotation": "penumbra unify", "unified": modified, "added": added}
    return "unified.bc", [(fix, ()) for fix in fixes], pair.seeds, notes


def preparation_key(project: Path) -> str:
    """What a preparation depends on besides the (commit-addressed) trees: pair.toml, this
    script and commit_pair_build.py, and the penumbra binary that unified the sources."""
    binary = Path(penumbra_schema.binary())
    stat = binary.stat() if binary.exists() else None
    parts = [(project / "pair.toml").read_text(), Path(__file__).read_text(),
             Path(commit_pair_build.__file__).read_text(),
             f"{binary}:{stat.st_size}:{stat.st_mtime_ns}" if stat else str(binary)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def prepare(project: Path, out: Path) -> dict:
    """Prepares the pair in OUT, or reuses OUT's preparation when nothing it depends on changed
    (a batch prepares every subject on every run)."""
    key, key_file = preparation_key(project), out / ".prepared-key"
    if key_file.is_file() and key_file.read_text() == key and (out / "prepared.json").is_file():
        log(f"{out}: prepared before, reused")
        return json.loads((out / "prepared.json").read_text())
    key_file.unlink(missing_ok=True)
    prepared = prepare_afresh(project, out)
    key_file.write_text(key)
    return prepared


def prepare_afresh(project: Path, out: Path) -> dict:
    pair = Pair.load(project)
    out.mkdir(parents=True, exist_ok=True)
    old, new = rev_parse(pair.repo, pair.old), rev_parse(pair.repo, pair.new)
    how = {"file": prepare_file, "coreutils": prepare_coreutils, "build": prepare_build}[pair.kind]
    source, fixes, seeds, notes = how(pair, out, old, new)
    prepared = {
        "source": source,
        "flags": pair.flags + fix_flags(paths for _, paths in fixes if paths),
        "mode_flags": {"complete": pair.complete_flags, "seeded": pair.seeded_flags},
        "seeds": seeds,
    }
    if "seed_selection" in notes:
        prepared["seed_selection"] = notes["seed_selection"]
    (out / "prepared.json").write_text(json.dumps(prepared, indent=1) + "\n")
    record = {"kind": pair.kind, "old": old, "new": new, "introducing": rev_parse(pair.repo, pair.introducing),
              "fixes": [{"fixed": f, "fix_parent": p} for (f, p), _ in fixes], **notes}
    (out / "pair.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return prepared


def shadow(out: Path, prepared: dict, mode: str, max_time: float) -> dict:
    """`penumbra shadow --replay --json` of the prepared program in `mode`, in OUT."""
    run_dir = out / f"run-{mode}"
    if run_dir.exists():
        shutil.rmtree(run_dir)
    seeds = [x for s in prepared["seeds"] for x in ("--seed", s)] if mode == "seeded" else []
    cmd = [penumbra_schema.binary(), "shadow", prepared["source"], "--mode", mode, *prepared["flags"],
           *prepared["mode_flags"].get(mode, []), *seeds, "--max-time", str(max_time), "--replay", "--json",
           "--output-dir", run_dir.name]
    summary = json.loads(run(cmd, cwd=out, capture_output=True).stdout)
    shutil.rmtree(run_dir)
    tests = [{"name": t["name"], "class": t["class"],
              "inputs": {name: v["hex"] for name, v in t.get("inputs", {}).items()},
              "judgements": [f["judgement"] for f in t.get("fixes", [])]}
             for t in summary.get("tests", [])]
    classes = {}
    for t in tests:
        classes[t["class"]] = classes.get(t["class"], 0) + 1
    return {"diff_paths": summary["diff_paths"], "errors": summary["errors"],
            "stopped_by": summary.get("stopped_by"), "classes": classes, "tests": tests}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="penumbra batch's preparation: PROJECT OUT")
    p.add_argument("project", type=Path)
    p.add_argument("out", type=Path)
    r = sub.add_parser("run", help="prepare, then shadow --replay in each mode")
    r.add_argument("project", type=Path)
    r.add_argument("out", type=Path)
    r.add_argument("--mode", action="append", choices=["complete", "seeded"])
    r.add_argument("--max-time", type=float, default=600, help="seconds per mode (Shadow's: 600)")
    t = sub.add_parser("trees", help="kind coreutils: build the trees of old, new and the fixes")
    t.add_argument("project", type=Path)
    a = ap.parse_args()
    if a.command == "trees":
        pair = Pair.load(a.project.resolve())
        if pair.kind != "coreutils":
            sys.exit(f"commit-pair: kind `{pair.kind}` builds no trees")
        old_tree, new_tree, fixes = coreutils_trees(pair, rev_parse(pair.repo, pair.old), rev_parse(pair.repo, pair.new))
        for tree in [old_tree, new_tree, *(t for fix in fixes for t in fix)]:
            print(tree)
        return
    out = a.out.resolve()
    prepared = prepare(a.project.resolve(), out)
    if a.command == "prepare":
        return
    modes = a.mode or ["complete"]
    if "seeded" in modes and not prepared["seeds"]:
        sys.exit("commit-pair: seeded mode needs seeds (pair.toml `seeds`)")
    summary = {mode: shadow(out, prepared, mode, a.max_time) for mode in modes}
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    for mode, s in summary.items():
        log(f"{mode}: {s['diff_paths']} diff paths, classes {s['classes']}")


if __name__ == "__main__":
    main()
