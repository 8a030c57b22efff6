#!/usr/bin/env python3
"""shadow-regression.py: shadow execution of one real coreutils regression from git history, as
"Shadow of a doubt" (ICSE 2016) ran CoREBench's: the commit that introduced the regression
against its parent, seeded by the tests of that era that touch the patch, replayed against the
commit that fixed it.

    COREUTILS_GIT=... GNULIB_GIT=... shadow-regression.py --utility cut \
        --introducing ec48bead --fixing be7932e8 --out results/corebench/cut-ec48bead

Steps (each tree built once and kept under WORK, default ~/.cache/penumbra/corebench):
1. the trees of the parent (old), the introducing commit (new) and the fixing commit (fixed)
   with scripts/coreutils-rev.sh: on musl with wllvm (the README's real-build route: bitcode and
   static binaries) and with gcc --coverage (which tests touch the patch);
2. `penumbra unify` of the utility's source in old and new (checked against both, with the new
   tree's include directories), and the unified program's bitcode: the new musl tree with the
   unified source in place, `make src/UTILITY`, `extract-bc`;
3. the era's own test of the utility run with its invocations recorded
   (scripts/coreutils-rev-invocations.py); those executing a line the commit changes are the
   seeds, most changed lines executed first (the invocations reaching deepest into the patch),
   then smallest, up to --max-seeds, with seeded mode's symbolic environment sized to hold them
   (prepare-subject.py's rule);
4. `penumbra shadow --libc musl --mode seeded` on the unified bitcode within --seconds;
5. `penumbra replay` of its tests with the fixed commit's bitcode as --fixed-version: static
   musl builds have no AddressSanitizer, so the interpreter decides errors.

Writes OUT/README.md (what ran, the command, the machine, the classes, the regressions found with
their inputs as command lines) and OUT/summary.json (the run's summary without its tests, the
replay's classes, the seeds). The run's own output directory is deleted. PENUMBRA names the
binary (default target/release/penumbra).
"""

import argparse
import hashlib
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import commit_pair_build
import penumbra_schema

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = ROOT / "ir-frontend" / "include"


def log(msg):
    print(f"shadow-regression: {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    log("$ " + " ".join(shlex.quote(str(c)) for c in cmd))
    return subprocess.run([str(c) for c in cmd], check=True, **kw)


def rev_parse(git, rev):
    out = subprocess.run(["git", f"--git-dir={git}", "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def tree(work, cu_git, gl_git, rev, utility):
    """The coreutils-rev.sh tree of `rev` (musl and gcov kinds)."""
    out = work / f"rev-{rev[:12]}"
    run(["bash", ROOT / "scripts" / "coreutils-rev.sh", "--kind", "musl", "--kind", "gcov", "--prog", utility,
         cu_git, gl_git, rev, out], stdout=subprocess.DEVNULL)
    return out


def wllvm_env():
    """The environment `. scripts/wllvm-env.sh musl` sets up."""
    script = f". {shlex.quote(str(ROOT / 'scripts' / 'wllvm-env.sh'))} musl && env -0"
    out = subprocess.run(["bash", "-c", script], check=True, capture_output=True)
    return dict(item.split("=", 1) for item in out.stdout.decode().split("\0") if "=" in item)


def program_sources(tree, utility):
    """The C files `make src/UTILITY` compiles into the program itself (its _SOURCES, as the
    tree's own make expands them; lib/ is linked as a library), relative to the tree."""
    probe = "penumbra-print-sources:\n\t@echo $(PENUMBRA_SOURCES)\n"
    found = []
    # Non-recursive makefiles (2011 on) name src_UTIL_SOURCES at the top; recursive ones
    # UTIL_SOURCES in src/ (relative names).
    for directory, variable, prefix in ((tree, f"src_{utility}_SOURCES", ""), (tree / "src", f"{utility}_SOURCES", "src/")):
        if not (directory / "Makefile").is_file():
            continue
        out = subprocess.run(["make", "-s", "-f", "Makefile", "-f", "-", "penumbra-print-sources",
                              f"PENUMBRA_SOURCES=$({variable})"], cwd=directory, input=probe, capture_output=True,
                             text=True)
        names = [prefix + name for name in out.stdout.split() if name.endswith(".c")] if out.returncode == 0 else []
        if names:
            found = names
            break
    return sorted(set(found) | {f"src/{utility}.c"})


def changed_sources(cu_git, old_rev, new_rev, tree, utility):
    """The files the patch changes that the program is made of: its own C files, and every
    header under src/ and lib/ (they may be included anywhere)."""
    own = set(program_sources(tree, utility))
    return [f for f in sorted(sum(commit_pair_build.changed_c_files(Path(cu_git), old_rev, new_rev), []))
            if f in own or (f.endswith(".h") and f.split("/")[0] in ("src", "lib"))]


def unified_bitcode(penumbra, work, old, new, utility, sources, out, accept=()):
    """Unifies `sources` (files relative to the trees) of the old and new musl trees, each
    checked with the new tree's include directories (the functions of `accept` allowed to
    differ: a hand annotation), and builds the program's bitcode from the new musl tree with the
    unified files in place: OUT/unified/<file> and the bitcode's path."""
    inc = new / "musl"
    unified_dir = out / "unified"
    # Checked against musl's headers, as the trees were configured (a 2011 config.h says
    # HAVE_STROPTS_H, which glibc's headers lack).
    musl_cflags = subprocess.run([str(ROOT / "scripts" / "musl-clang-15"), "--print-cflags"], check=True,
                                 capture_output=True, text=True).stdout.split()
    commit_pair_build.unify_each(penumbra, old / "musl", inc, sources, unified_dir, [inc / "lib", inc / "src", inc],
                                 accept, musl_cflags)
    env = wllvm_env()
    cflags = f"{env['PENUMBRA_CFLAGS']} -I{INCLUDE}"
    bitcode = work / f"{utility}-unified-{new.name}.bc"
    # The same unified files in the same tree make the same program: built once (a subject's
    # variants, a rerun after a change elsewhere). The tree's own bitcode of the program stands
    # for the rest of the tree: a tree made again (coreutils-rev.sh's steps on its library, such
    # as fpucw.h's) makes the unified program again.
    # A recursive-make tree (before 2012) makes its programs in src/ (its top knows no src/PROG).
    target = ["-C", "src", utility] if (inc / "src" / "Makefile").is_file() else [f"src/{utility}"]
    own = inc / "src" / f"{utility}.bc"
    tree_state = hashlib.sha256(own.read_bytes()).hexdigest() if own.is_file() else "-"
    key = hashlib.sha256("\0".join([cflags, str(inc), tree_state, *target, *sources,
                                    *((unified_dir / s).read_text(errors="replace") for s in sources)]).encode()).hexdigest()
    key_file = bitcode.with_suffix(".key")
    build = work / f"unified-{new.name}"
    # Subjects sharing a new tree (a regression and its +regression-test twin, prepared in
    # parallel) build in one directory: one at a time, the second then reusing the first's.
    with commit_pair_build.locked(build):
        if bitcode.is_file() and key_file.is_file() and key_file.read_text() == key:
            log(f"{bitcode}: built before from the same unified files, reused")
            return bitcode
        key_file.unlink(missing_ok=True)
        if build.exists():
            shutil.rmtree(build)
        shutil.copytree(inc, build, symlinks=True)
        for source in sources:
            shutil.copy2(unified_dir / source, build / source)
            # Newer than every object, so that make recompiles what includes it.
            os.utime(build / source)
        run(["make", *target, f"CFLAGS={cflags}"], cwd=build, env=env, stdout=subprocess.DEVNULL)
        run(["extract-bc", "-o", bitcode, f"src/{utility}"], cwd=build, env=env, stdout=subprocess.DEVNULL)
        shutil.rmtree(build)
        key_file.write_text(key)
    return bitcode


def seeds_of(invocations, max_seeds, suites=("era",)):
    """The seeded-mode flags and seeds: the invocations of `suites` (the era's test) touching
    the patch, those executing the most changed lines first, then the smallest."""
    ps = commit_pair_build.script_module("prepare-subject.py")
    depth = {}
    for e in invocations:
        if e["suite"] not in suites or not e["touches_patch"]:
            continue
        files = e.get("files_hex") or {name: data.encode().hex() for name, data in e["files"].items()}
        seed = ps.seed_of({"args": e["args_hex"], "stdin": e["stdin_hex"], "files": files})
        lines = len(set(e["old_changed_lines_run"])) + len(set(e["new_changed_lines_run"]))
        depth[seed] = max(depth.get(seed, 0), lines)
    size = lambda s: sum(map(len, s[0])) + len(s[1]) + sum(map(len, s[2]))
    ranked = sorted(depth, key=lambda s: (-depth[s], size(s), s))
    flags, strings, used = ps.seeded_environment(ranked[:max_seeds], [])
    return flags, strings, len(depth)


def inputs_of(test):
    """A test's program inputs: (args, stdin bytes, {file name: bytes}) from its record."""
    inputs = test.get("inputs", {})
    n = inputs.get("n_args", {}).get("int", 0)
    args = [bytes.fromhex(inputs.get(f"arg{i:02}", {}).get("hex", "")).split(b"\0", 1)[0].decode("latin-1")
            for i in range(n)]
    stdin = bytes.fromhex(inputs.get("stdin", {}).get("hex", ""))
    files = {name[: -len("-data")]: bytes.fromhex(v["hex"]) for name, v in inputs.items() if name.endswith("-data")}
    return args, stdin, files


def c_string(data):
    """Bytes as a printf-safe shell word: 'abc\\n'."""
    text = "".join(c if 32 <= ord(c) < 127 and c not in "\\'%" else f"\\{ord(c):03o}" if c != "\n" else "\\n"
                   for c in data.decode("latin-1"))
    return f"'{text}'"


def command_line(utility, args, stdin, files):
    """A test's input as a shell command: `printf STDIN | UTILITY ARGS...`, with the symbolic
    files (A, B, ...) it names shown after it."""
    line = " ".join([utility] + [shlex.quote(a) for a in args])
    stdin = stdin.rstrip(b"\0")
    if stdin:
        line = f"printf {c_string(stdin)} | {line}"
    nul = b"\0"
    named = [f"{name} holds {c_string(data.rstrip(nul))}" for name, data in sorted(files.items()) if name in args]
    return line + (f" ({'; '.join(named)})" if named else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--utility", required=True)
    ap.add_argument("--introducing", required=True, help="the commit that introduced the regression")
    ap.add_argument("--fixing", required=True, help="the commit that fixed it")
    ap.add_argument("--source", help="the changed file to unify (default src/UTILITY.c)")
    ap.add_argument("--test", help="the era's test of the utility (default tests/misc/UTILITY.pl)")
    ap.add_argument("--seconds", type=float, default=600, help="seeded mode's whole budget (Shadow's: 600 s a phase)")
    ap.add_argument("--bse-budget", type=float, default=10, help="seconds of bounded symbolic execution (penumbra's default)")
    ap.add_argument("--max-seeds", type=int, default=24)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    cu_git, gl_git = os.environ.get("COREUTILS_GIT"), os.environ.get("GNULIB_GIT")
    if not cu_git or not gl_git:
        sys.exit("shadow-regression: set COREUTILS_GIT and GNULIB_GIT (clones or bare git directories)")
    penumbra = Path(penumbra_schema.binary())
    work = Path(os.environ.get("WORK", Path.home() / ".cache" / "penumbra" / "corebench"))
    work.mkdir(parents=True, exist_ok=True)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    utility = a.utility
    source = a.source or f"src/{utility}.c"
    new_rev = rev_parse(cu_git, a.introducing)
    old_rev = rev_parse(cu_git, f"{new_rev}^")
    fixed_rev = rev_parse(cu_git, a.fixing)
    start = time.time()
    old, new, fixed = (tree(work, cu_git, gl_git, r, utility) for r in (old_rev, new_rev, fixed_rev))
    bitcode = unified_bitcode(penumbra, work, old, new, utility, [source], out)
    invocations_file = work / f"invocations-{new_rev[:12]}.json"
    test = a.test or f"tests/misc/{utility}.pl"
    run([sys.executable, ROOT / "scripts" / "coreutils-rev-invocations.py", "--git", cu_git, "--commit", new_rev,
         "--utility", utility, "--old", old, "--new", new, "--suite", f"era={new}:{test}", "--out", invocations_file],
        stdout=subprocess.DEVNULL)
    invocations = json.loads(invocations_file.read_text())
    flags, seeds, touching = seeds_of(invocations, a.max_seeds)
    if not seeds:
        sys.exit("shadow-regression: no test of the era touches the patch")
    run_dir = work / f"run-{new_rev[:12]}"
    if run_dir.exists():
        shutil.rmtree(run_dir)
    shadow = [penumbra, "shadow", "--libc", "musl", bitcode, "--mode", "seeded", *flags,
              *[x for s in seeds for x in ("--seed", s)], "--max-time", str(a.seconds), "--bse-budget", str(a.bse_budget), "--json",
              "--output-dir", run_dir]
    summary = json.loads(run(shadow, capture_output=True).stdout)
    fixed_bc = fixed / "musl" / "src" / f"{utility}.bc"
    replay = [penumbra, "replay", run_dir, "--fixed-version", fixed_bc, "--json", "--jobs", "2"]
    replayed = json.loads(run(replay, capture_output=True).stdout)
    shutil.rmtree(run_dir)
    classes = {}
    for t in replayed:
        classes[t["class"]] = classes.get(t["class"], 0) + 1
    bugs = penumbra_schema.class_names(penumbra_schema.bug_candidate)
    regressions = [t for t in replayed if t["class"] in bugs]
    shown = sorted({(command_line(utility, *inputs_of(t)), t.get("new_outcome", {}).get("error", "")) for t in regressions})
    summary.pop("tests", None)
    record = {"utility": utility, "old": old_rev, "new": new_rev, "fixed": fixed_rev, "seconds": a.seconds,
              "bse_budget": a.bse_budget,
              "touching_invocations": touching, "seed_flags": flags, "seeds": seeds, "summary": summary,
              "classes": classes, "regressions": [{"command": c, "new": e} for c, e in shown]}
    (out / "summary.json").write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    write_readme(out, record, a, time.time() - start)
    log(f"classes {classes}; {len(shown)} distinct regression inputs; {out}/README.md")


def write_readme(out, r, a, elapsed):
    s = r["summary"]
    order = penumbra_schema.class_names()
    counts = ", ".join(f"{r['classes'][c]} {c}" for c in order if r["classes"].get(c))
    lines = [
        f"# {r['utility']}: the regression of {r['new'][:8]} (fixed by {r['fixed'][:8]}), shadowed",
        "",
        f"Regenerate with `COREUTILS_GIT=... GNULIB_GIT=... python3 scripts/shadow-regression.py --utility "
        f"{r['utility']} --introducing {r['new'][:8]} --fixing {r['fixed'][:8]} --seconds {a.seconds:g} "
        f"--bse-budget {a.bse_budget:g} --out {a.out}` "
        f"(this run: {elapsed / 60:.0f} minutes with the trees already built; building three trees takes about 25).",
        "",
        f"Old = {r['old'][:8]} (the parent), new = {r['new'][:8]}, fixed = {r['fixed'][:8]}; each built from git on "
        "musl with wllvm (scripts/coreutils-rev.sh), the changed source unified by `penumbra unify`, "
        f"seeded mode from the era's own test: {r['touching_invocations']} distinct invocations touch the patch, "
        f"the {len(r['seeds'])} executing the most changed lines are the seeds (`{' '.join(r['seed_flags'])}`), "
        f"within {a.seconds:g} s and {a.bse_budget:g} s of bounded symbolic execution. "
        "Replay builds old, new and fixed natively on static musl (no AddressSanitizer: the interpreter decides "
        "errors) and classifies against the fixed version.",
        "",
        f"Machine: 2 cores, 24 GiB, {platform.platform()}; {time.strftime('%Y-%m-%d')}.",
        "",
        "| diff paths | divergence points | tests | errors | wall s | peak MiB | stopped by | classes |",
        "|---|---|---|---|---|---|---|---|",
        f"| {s['diff_paths']} | {s['divergence_points']} | {s['tests_count']} | {s['errors']} | {s['wall_s']:.1f} | "
        f"{s['peak_rss_mb']:.0f} | {s.get('stopped_by') or 'explored'} | {counts} |",
        "",
        f"Regressions (error in the new version only), {len(r['regressions'])} distinct inputs:",
        "",
    ]
    for reg in r["regressions"][:20]:
        lines.append(f"- `{reg['command']}`: {reg['new']}")
    if len(r["regressions"]) > 20:
        lines.append(f"- ... and {len(r['regressions']) - 20} more (summary.json)")
    (out / "README.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
