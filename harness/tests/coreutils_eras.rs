//! Where each era of GNU coreutils keeps the tests of a utility, as the CoREBench seed step
//! finds them (`era_tests` and `test_rule` of scripts/coreutils-rev-invocations.py, issue 37):
//! tests/misc/UTIL.pl (2010 on), tests/misc/UTIL (2007-2011), a directory tests/UTIL/ with its
//! own Makefile.am (2004-2007, its TESTS possibly made by make) or listed by tests/Makefile.am
//! (2008-2012), and the makefile whose rule runs each one. Small trees made here stand in for
//! the real ones (which take minutes to build).

use crate::support::{repo_root, run_command};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn write(root: &Path, file: &str, text: &str) {
    let path = root.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `era_tests(TREE, UTILITY)` and, for each test, the (directory from TREE, make target) of
/// `test_rule` run in the same tree (it stands for both the source and the build here).
fn era(tree: &Path, utility: &str) -> Value {
    let code = r#"
import importlib.util, json, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("inv", sys.argv[1])
inv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(inv)
tree = Path(sys.argv[2])
tests = inv.era_tests(tree, sys.argv[3])
rules = [[str(d.relative_to(tree)), target] for d, target in (inv.test_rule(tree, t) for t in tests)]
print(json.dumps({"tests": tests, "rules": rules}))
"#;
    let mut cmd = Command::new("python3");
    cmd.arg("-c").arg(code);
    cmd.arg(repo_root().join("scripts/coreutils-rev-invocations.py")).arg(tree).arg(utility);
    let out = run_command(cmd);
    assert_eq!(out.status, Some(0), "{}", out.stderr);
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_tests_of_a_utility_are_found_in_each_era_and_run_by_their_own_makefile() {
    let dir = tempfile::tempdir().unwrap();

    // 2013: tests/misc/cut.pl, run from the top (one non-recursive makefile).
    let t2013 = dir.path().join("2013");
    write(&t2013, "tests/misc/cut.pl", "#!/usr/bin/perl\n");
    write(&t2013, "tests/misc/cut-other.pl", "#!/usr/bin/perl\n");
    write(&t2013, "Makefile", "tests/misc/cut.log:\n\ttrue\n");
    let found = era(&t2013, "cut");
    assert_eq!(found["tests"], serde_json::json!(["tests/misc/cut.pl"]));
    assert_eq!(found["rules"], serde_json::json!([[".", "tests/misc/cut.log"]]));

    // 2007: tests/misc/cut (one case) and tests/cut/, whose Makefile.am's TESTS is made by
    // make from Test.pm (`$x-tests`); each run by its own directory's makefile.
    let t2007 = dir.path().join("2007");
    write(&t2007, "tests/misc/cut", "#!/bin/sh\n");
    write(&t2007, "tests/misc/Makefile", "cut.log:\n\ttrue\n");
    write(&t2007, "tests/cut/Makefile.am", "x = cut\nTESTS_ENVIRONMENT = \\\n  PATH=x\n\nTESTS = $x-tests\n");
    write(&t2007, "tests/cut/Makefile", "cut-tests.log:\n\ttrue\n");
    write(&t2007, "tests/Makefile", "");
    write(&t2007, "Makefile", "");
    let found = era(&t2007, "cut");
    assert_eq!(found["tests"], serde_json::json!(["tests/misc/cut", "tests/cut/cut-tests"]));
    assert_eq!(found["rules"], serde_json::json!([["tests/misc", "cut.log"], ["tests/cut", "cut-tests.log"]]));

    // 2011: tests/ls/ scripts listed by tests/Makefile.am (those that exist), run from tests/.
    let t2011 = dir.path().join("2011");
    write(&t2011, "tests/ls/color-dtype-dir", "#!/bin/sh\n");
    write(&t2011, "tests/ls/stat-free-symlinks", "#!/bin/sh\n");
    write(
        &t2011,
        "tests/Makefile.am",
        "TESTS = \\\n  misc/help-version \\\n  ls/color-dtype-dir \\\n  ls/gone \\\n  lsx/other \\\n  ls/stat-free-symlinks\n",
    );
    write(&t2011, "tests/Makefile", "ls/color-dtype-dir.log ls/stat-free-symlinks.log:\n\ttrue\n");
    write(&t2011, "Makefile", "");
    let found = era(&t2011, "ls");
    assert_eq!(found["tests"], serde_json::json!(["tests/ls/color-dtype-dir", "tests/ls/stat-free-symlinks"]));
    assert_eq!(
        found["rules"],
        serde_json::json!([["tests", "ls/color-dtype-dir.log"], ["tests", "ls/stat-free-symlinks.log"]])
    );

    // A utility without tests has none (the preparation then says so).
    assert_eq!(era(&t2011, "du")["tests"], serde_json::json!([]));
}

/// 2009-2011: tests/check.mk's TESTS_ENVIRONMENT ends in `shell_or_perl_`, expecting the test as
/// its next word; today's automake puts its test driver there (`$(SHELL) test-driver ...`), so
/// shell_or_perl_ ran the shell as a script. `era_makefile` writes a copy without that word whose
/// LOG_COMPILER runs the test as shell_or_perl_ did; other makefiles are used as they are.
#[test]
fn the_2011_tests_run_under_todays_test_driver() {
    let dir = tempfile::tempdir().unwrap();
    let tests = dir.path().join("tests");
    // As automake's parallel driver runs a test: TESTS_ENVIRONMENT, then the driver and the
    // compiled command with the test.
    let makefile = "SHELL = /bin/sh\n\
        LOG_DRIVER = $(SHELL) ./driver\n\
        LOG_COMPILE = $(LOG_COMPILER)\n\
        TESTS_ENVIRONMENT = \\\n  shell_or_perl_() { $(SHELL) \"$$1\"; }; \\\n  export srcdir=. \\\n  ; shell_or_perl_\n\
        misc/cut.log:\n\t$(TESTS_ENVIRONMENT) $(LOG_DRIVER) -- $(LOG_COMPILE) misc/cut > misc/cut.log\n";
    write(&tests, "Makefile", makefile);
    write(&tests, "driver", "shift; \"$@\"\n");
    write(&tests, "misc/cut", "echo cut-test-ran\n");
    let code = r#"
import importlib.util, subprocess, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("inv", sys.argv[1])
inv = importlib.util.module_from_spec(spec)
spec.loader.exec_module(inv)
d = Path(sys.argv[2])
name = inv.era_makefile(d)
p = subprocess.run(["make", "-s", "-f", name, "misc/cut.log"], cwd=d, capture_output=True, text=True)
print(name, p.returncode, (d / "misc/cut.log").read_text().strip() if (d / "misc/cut.log").exists() else "-")
"#;
    let run = |tests: &Path| {
        let mut cmd = Command::new("python3");
        cmd.arg("-c").arg(code).arg(repo_root().join("scripts/coreutils-rev-invocations.py")).arg(tests);
        let out = run_command(cmd);
        assert_eq!(out.status, Some(0), "{}", out.stderr);
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    assert_eq!(run(&tests), "Makefile.penumbra 0 cut-test-ran");
    // The makefile as it is: shell_or_perl_ runs the shell itself as the test.
    std::fs::remove_file(tests.join("misc/cut.log")).unwrap();
    let plain = Command::new("make").args(["-s", "misc/cut.log"]).current_dir(&tests).output().unwrap();
    assert_ne!(
        String::from_utf8_lossy(&std::fs::read(tests.join("misc/cut.log")).unwrap()).trim(),
        "cut-test-ran",
        "{plain:?}"
    );
    // A makefile without shell_or_perl_ is run as it is.
    let other = dir.path().join("other");
    write(&other, "Makefile", "misc/cut.log:\n\techo other > misc/cut.log\n");
    write(&other, "misc/cut", "");
    assert_eq!(run(&other), "Makefile 0 other");
}

/// Two preparations sharing a coverage build (a regression and its `+regression-test` twin,
/// prepared in parallel) take turns with it: coreutils-rev-invocations.py holds each build
/// under `commit_pair_build.locked`, and the second waits, and says so, until the first is
/// done, so that neither reads the other's recorded invocations or coverage counters.
#[test]
fn preparations_sharing_a_coverage_build_take_turns() {
    let dir = tempfile::tempdir().unwrap();
    // Each holds the build, writes when it got it and when it let go, and holds it 1 s.
    let code = r#"
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import commit_pair_build
here, name = Path(sys.argv[2]), sys.argv[3]
with commit_pair_build.locked(here / "gcov"):
    with open(here / "turns.log", "a") as f:
        f.write(f"{name} in\n")
    time.sleep(1)
    with open(here / "turns.log", "a") as f:
        f.write(f"{name} out\n")
"#;
    let (turns, first_said, second_said) = first_then_second(dir.path(), code);
    assert_eq!(turns, "first in\nfirst out\nsecond in\nsecond out\n");
    assert!(second_said.contains("waiting for another preparation using"), "{second_said}");
    assert!(first_said.is_empty());
}

/// Runs the Python `code` (given the scripts' directory, `dir` and its name) as "first", and
/// once it has written "first in" to `dir`/turns.log, as "second"; both must succeed. Returns
/// the log and what each wrote to stderr.
fn first_then_second(dir: &Path, code: &str) -> (String, String, String) {
    let spawn = |name: &str| {
        Command::new("python3")
            .arg("-c")
            .arg(code)
            .arg(repo_root().join("scripts"))
            .arg(dir)
            .arg(name)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = spawn("first");
    // The first holds what they share before the second asks for it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !std::fs::read_to_string(dir.join("turns.log")).unwrap_or_default().contains("first in") {
        assert!(std::time::Instant::now() < deadline, "the first never got in");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let second = spawn("second");
    let (first, second) = (first.wait_with_output().unwrap(), second.wait_with_output().unwrap());
    let (first_said, second_said) =
        (String::from_utf8_lossy(&first.stderr).into_owned(), String::from_utf8_lossy(&second.stderr).into_owned());
    assert!(first.status.success(), "{first_said}");
    assert!(second.status.success(), "{second_said}");
    (std::fs::read_to_string(dir.join("turns.log")).unwrap(), first_said, second_said)
}

/// Two subjects of one utility (dd-appenderrors and dd-multipliers, prepared in parallel by
/// `penumbra batch`) patch and build the same trees: prepare-subject.py's `PatchedTree`
/// rebuilds the pristine program before it lets the tree go. Rebuilt after, the first
/// compiled the file the second had just patched, without the second's flags.
#[test]
fn a_patched_tree_is_rebuilt_before_another_preparation_patches_it() {
    let dir = tempfile::tempdir().unwrap();
    let (tree, pristine) = (dir.path().join("tree"), dir.path().join("pristine"));
    for d in [&tree, &pristine] {
        std::fs::create_dir(d).unwrap();
        std::fs::write(d.join("f.c"), "int x;\n").unwrap();
    }
    std::fs::write(dir.path().join("p.patch"), "--- a/f.c\n+++ b/f.c\n@@ -1 +1 @@\n-int x;\n+int y;\n").unwrap();
    // Each holds the tree 1 s, then takes 0.5 s to rebuild; each writes when it got the tree
    // (and what f.c held) and when its rebuild ended.
    let code = r#"
import importlib.util, sys, time
from pathlib import Path
scripts, here, name = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
sys.path.insert(0, str(scripts))
spec = importlib.util.spec_from_file_location("prepare_subject", scripts / "prepare-subject.py")
ps = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ps)
def say(what):
    with open(here / "turns.log", "a") as f:
        f.write(f"{name} {what}\n")
def rebuild():
    time.sleep(0.5)
    say("rebuilt " + (here / "tree" / "f.c").read_text().strip())
with ps.PatchedTree(here / "tree", here / "p.patch", ["f.c"], here / "pristine", here / "log", rebuild):
    say("in " + (here / "tree" / "f.c").read_text().strip())
    time.sleep(1)
"#;
    let (turns, _, _) = first_then_second(dir.path(), code);
    assert_eq!(turns, "first in int y;\nfirst rebuilt int x;\nsecond in int y;\nsecond rebuilt int x;\n");
}
