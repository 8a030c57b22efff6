"""The replay classes and the batch table's columns as `penumbra schema` lists them: the
binary's types are their one source, and no script spells them.

The schema comes from PENUMBRA_SCHEMA (a file `penumbra schema` wrote), else from running the
binary: PENUMBRA, default target/release/penumbra.
"""

import json
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def binary():
    """The penumbra binary's absolute path: PENUMBRA (a path, or a name looked up on PATH),
    default the release build. Absolute, because the builds run it from their own directories."""
    given = os.environ.get("PENUMBRA", str(ROOT / "target" / "release" / "penumbra"))
    if "/" not in given:
        given = shutil.which(given) or given
    return os.path.abspath(given)


@cache
def schema():
    saved = os.environ.get("PENUMBRA_SCHEMA")
    if saved:
        return json.loads(Path(saved).read_text())
    try:
        out = subprocess.run([binary(), "schema"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"cannot run `{binary()} schema` (set PENUMBRA or PENUMBRA_SCHEMA): {e}")
    return json.loads(out)


def classes():
    """Every class, most severe first: {name, column, meaning, observable, bug_candidate}."""
    return schema()["classes"]


def class_columns(pred=lambda c: True):
    """The results.csv columns of the classes `pred` keeps, most severe first."""
    return [c["column"] for c in classes() if pred(c)]


def class_names(pred=lambda c: True):
    return [c["name"] for c in classes() if pred(c)]


def explaining_judgements():
    """The fixes' judgements that explain a test (`penumbra replay`'s `fixes[].judgement`): an
    output difference so judged is expected; an error in new only, another bug than the fix's."""
    return [j["name"] for j in schema()["judgements"] if j["explains"]]


def observable(c):
    """An observable difference between the versions (output, exit status, an error in one)."""
    return c["observable"]


def bug_candidate(c):
    return c["bug_candidate"]


def intended(c):
    """An observable difference the patch may have meant (not a bug candidate)."""
    return c["observable"] and not c["bug_candidate"]


def batch_columns():
    return schema()["batch_columns"]
