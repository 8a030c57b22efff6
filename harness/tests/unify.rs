//! `penumbra unify` and `penumbra project` from the command line: a file pair unified and
//! explored, a tree and two git revisions unified file by file, an inexpressible change refused
//! with nothing written, and every hand-annotated shadow test program's round trip (its two
//! projections unified again) finding the same diff paths.

use crate::support::{penumbra, repo_root};
use std::path::Path;

const OLD: &str = "#include <stdio.h>\n#include \"penumbra.h\"\n\nint classify(int x) {\n  if (x > 5) /* the threshold */\n    return 1;\n  return 0;\n}\n\nint main(void) {\n  int x;\n  penumbra_make_symbolic(&x, sizeof x, \"x\");\n  printf(\"%d\\n\", classify(x));\n  return 0;\n}\n";

fn new_version() -> String {
    OLD.replace("x > 5", "x > 10")
}

#[test]
fn two_versions_unify_into_a_program_whose_shadow_run_finds_the_divergence() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new, out) = (dir.path().join("old.c"), dir.path().join("new.c"), dir.path().join("u.c"));
    std::fs::write(&old, OLD).unwrap();
    std::fs::write(&new, new_version()).unwrap();
    let run = penumbra(["unify".as_ref(), old.as_os_str(), new.as_os_str(), "-o".as_ref(), out.as_os_str()]);
    run.assert_status(0);
    let unified = std::fs::read_to_string(&out).unwrap();
    assert_eq!(unified, OLD.replace("x > 5", "x > change(5, 10)"));
    let shadow =
        penumbra(["shadow".as_ref(), out.as_os_str(), "--json".as_ref(), "--max-time".as_ref(), "30".as_ref()]);
    shadow.assert_status(0);
    let summary: serde_json::Value = serde_json::from_slice(&shadow.stdout).unwrap();
    let tests = summary["tests"].as_array().unwrap();
    assert_eq!(summary["diff_paths"], 1, "{summary}");
    assert_eq!(tests.len(), 1);
    let x = tests[0]["inputs"]["x"]["int"].as_i64().unwrap();
    assert!((6..=10).contains(&x), "the divergent input is in [6, 10], not {x}");
    assert_eq!(tests[0]["line"], 5);
    std::fs::remove_dir_all(dir.path().join("penumbra-out-1")).ok();
}

#[test]
fn an_inexpressible_change_is_reported_with_its_line_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.c"), "#define N 3\nint f(void) { return N; }\n").unwrap();
    std::fs::write(dir.path().join("new.c"), "#define N 4\nint f(void) { return N; }\n").unwrap();
    let out = dir.path().join("u.c");
    let run = penumbra([
        "unify".as_ref(),
        dir.path().join("old.c").as_os_str(),
        dir.path().join("new.c").as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    run.assert_status(2);
    run.assert_no_panic();
    assert!(
        run.stderr
            .contains("line 1: the definition of macro `N` changed: a macro has one definition in the unified program"),
        "{}",
        run.stderr
    );
    assert!(!out.exists(), "a refused unification writes nothing");
}

fn write_tree(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// `penumbra unify --old OLD --new NEW --out OUT EXTRA...`.
fn unify_trees(old: &Path, new: &Path, out: &Path, extra: &[&str]) -> crate::support::Output {
    let mut args = vec!["unify".into(), "--old".into(), old.as_os_str().to_owned(), "--new".into()];
    args.extend([new.as_os_str().to_owned(), "--out".into(), out.as_os_str().to_owned()]);
    args.extend(extra.iter().map(std::ffi::OsString::from));
    penumbra::<_, std::ffi::OsString>(args)
}

const LIB_H: &str = "int limit(void);\n";
const LIB_OLD: &str = "#include \"lib.h\"\nint limit(void) { return 5; }\n";
const LIB_NEW: &str = "#include \"lib.h\"\nint limit(void) { return 7; }\n";

#[test]
fn a_tree_is_unified_file_by_file_and_the_rest_is_copied() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new, out) = (dir.path().join("old"), dir.path().join("new"), dir.path().join("out"));
    write_tree(&old, &[("src/lib.h", LIB_H), ("src/lib.c", LIB_OLD), ("Makefile", "all:\n"), ("gone.txt", "x")]);
    write_tree(
        &new,
        &[("src/lib.h", LIB_H), ("src/lib.c", LIB_NEW), ("Makefile", "all: lib\n"), ("added.c", "int a;\n")],
    );
    let run = unify_trees(&old, &new, &out, &["-I", "src", "--json"]);
    run.assert_status(0);
    let read = |p: &str| std::fs::read_to_string(out.join(p)).unwrap();
    assert_eq!(
        read("src/lib.c"),
        "#include \"lib.h\"\n#include \"penumbra.h\"\nint limit(void) { return change(5, 7); }\n"
    );
    assert_eq!(read("src/lib.h"), LIB_H);
    assert_eq!(read("Makefile"), "all: lib\n");
    assert_eq!(read("added.c"), "int a;\n");
    assert_eq!(read("gone.txt"), "x");
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let statuses: Vec<(String, String)> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["path"].as_str().unwrap().to_string(), f["status"].as_str().unwrap().to_string()))
        .collect();
    let expected =
        [("Makefile", "changed-copied"), ("added.c", "new-only"), ("src/lib.c", "unified"), ("gone.txt", "old-only")];
    assert_eq!(statuses, expected.map(|(a, b)| (a.to_string(), b.to_string())));
    // A second run does not write over the tree.
    let again = unify_trees(&old, &new, &out, &[]);
    again.assert_status(2);
    assert!(again.stderr.contains("exists and is not empty"), "{}", again.stderr);
}

#[test]
fn two_git_revisions_are_unified_as_two_trees() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    two_commits(&repo, &[("lib.h", LIB_H), ("lib.c", LIB_OLD)], &[("lib.c", LIB_NEW)]);
    let out = dir.path().join("out");
    let run = penumbra([
        "unify".as_ref(),
        "--git".as_ref(),
        "HEAD~1".as_ref(),
        "HEAD".as_ref(),
        "--repo".as_ref(),
        repo.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    run.assert_status(0);
    assert_eq!(
        std::fs::read_to_string(out.join("lib.c")).unwrap(),
        "#include \"lib.h\"\n#include \"penumbra.h\"\nint limit(void) { return change(5, 7); }\n"
    );
    assert!(!out.join(".git").exists());
}

/// A git checkout at `repo` with two commits: `old` files, then `new` files written over them.
fn two_commits(repo: &Path, old: &[(&str, &str)], new: &[(&str, &str)]) {
    let git = |args: &[&str]| {
        let status = std::process::Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"])
            .args(args)
            .output()
            .expect("run git");
        assert!(status.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&status.stderr));
    };
    write_tree(repo, old);
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "old"]);
    write_tree(repo, new);
    git(&["commit", "-qam", "new"]);
}

#[test]
fn a_refused_file_leaves_no_tree_behind() {
    // a.c unifies (and was written before b.c was refused), b.c changes a macro.
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let macro_old = "#define N 3\nint f(void) { return N; }\n";
    two_commits(
        &repo,
        &[("a.c", LIB_OLD), ("lib.h", LIB_H), ("b.c", macro_old)],
        &[("a.c", LIB_NEW), ("b.c", &macro_old.replace('3', "4"))],
    );
    let out = dir.path().join("out");
    let mut args: Vec<&std::ffi::OsStr> = vec!["unify".as_ref(), "--git".as_ref(), "HEAD~1".as_ref()];
    args.extend(["HEAD".as_ref(), "--repo".as_ref(), repo.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    let run = penumbra(&args);
    run.assert_status(2);
    run.assert_no_panic();
    assert!(!out.exists(), "a refusal leaves no tree");
    assert!(
        run.stderr.contains(
            "1 file(s) could not be unified (no tree written):\nb.c: the change cannot be expressed in one program:\n  line 1: the definition of macro `N` changed"
        ),
        "{}",
        run.stderr
    );
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("repo")], "nothing staged is left beside it");
    // An empty directory given as --out stays as it was.
    std::fs::create_dir(&out).unwrap();
    penumbra(&args).assert_status(2);
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
}

/// A pair whose finer merge clang rejects (`change` cannot initialise an array), so the
/// function is merged whole at the second attempt.
const ARRAY_OLD: &str = "int f(int i) {\n  char s[] = \"ab\";\n  return s[i];\n}\n";

fn unify_array_pair(dir: &Path, extra: &[&str], env: Option<&Path>) -> crate::support::Output {
    std::fs::write(dir.join("old.c"), ARRAY_OLD).unwrap();
    std::fs::write(dir.join("new.c"), ARRAY_OLD.replace("\"ab\"", "\"abc\"")).unwrap();
    let mut cmd = std::process::Command::new(crate::support::penumbra_bin());
    cmd.current_dir(dir).args(["unify", "old.c", "new.c", "-o", "u.c"]).args(extra);
    cmd.env_remove("PENUMBRA_UNIFY_ATTEMPTS");
    if let Some(env) = env {
        cmd.env("PENUMBRA_UNIFY_ATTEMPTS", env);
    }
    crate::support::run_command(cmd)
}

#[test]
fn keep_attempts_writes_every_attempt_and_its_verdict() {
    let dir = tempfile::tempdir().unwrap();
    // Relative to the current directory, like every path on the command line.
    unify_array_pair(dir.path(), &["--keep-attempts", "attempts"], None).assert_status(0);
    let read = |name: &str| std::fs::read_to_string(dir.path().join("attempts").join(name)).unwrap();
    assert_eq!(
        read("attempt-0.c"),
        "#include \"penumbra.h\"\nint f(int i) {\n  char s[] = change(\"ab\", \"abc\");\n  return s[i];\n}\n"
    );
    assert_eq!(
        read("attempt-0.txt"),
        "refused; kept whole for the next attempt:\nf: the symbolic build rejects its finer merge (array initializer must be an initializer list or string literal)\n"
    );
    assert_eq!(read("attempt-1.c"), std::fs::read_to_string(dir.path().join("u.c")).unwrap());
    assert_eq!(read("attempt-1.txt"), "accepted\n");
    let mut names: Vec<_> =
        std::fs::read_dir(dir.path().join("attempts")).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["attempt-0.c", "attempt-0.txt", "attempt-1.c", "attempt-1.txt"]);
    // The environment variable is an alias of the flag.
    let other = tempfile::tempdir().unwrap();
    unify_array_pair(other.path(), &[], Some(&dir.path().join("from-env"))).assert_status(0);
    assert_eq!(std::fs::read_to_string(dir.path().join("from-env/attempt-1.txt")).unwrap(), "accepted\n");
    // Without either, nothing is kept.
    let plain = tempfile::tempdir().unwrap();
    unify_array_pair(plain.path(), &[], None).assert_status(0);
    let names: Vec<_> = std::fs::read_dir(plain.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
}

#[test]
fn relative_include_directories_are_the_current_directorys() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), &[("inc/lib.h", LIB_H), ("v1/lib.c", LIB_OLD), ("v2/lib.c", LIB_NEW)]);
    let mut cmd = std::process::Command::new(crate::support::penumbra_bin());
    cmd.current_dir(dir.path()).args(["unify", "v1/lib.c", "v2/lib.c", "-o", "u.c", "-I", "inc"]);
    crate::support::run_command(cmd).assert_status(0);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("u.c")).unwrap(),
        "#include \"lib.h\"\n#include \"penumbra.h\"\nint limit(void) { return change(5, 7); }\n"
    );
}

/// Complete shadow execution's diff-path count (budgeted; `None` if a budget stopped it).
fn diff_paths(program: &Path) -> Option<i64> {
    let run = penumbra([
        "shadow".as_ref(),
        program.as_os_str(),
        "--json".as_ref(),
        "--no-tests".as_ref(),
        "--max-time".as_ref(),
        "30".as_ref(),
    ]);
    let summary: serde_json::Value = serde_json::from_slice(&run.stdout)
        .unwrap_or_else(|e| panic!("{}: no summary ({e}): {}", program.display(), run.stderr));
    summary["stopped_by"].is_null().then(|| summary["diff_paths"].as_i64().unwrap())
}

/// Every hand-annotated program of the engine's shadow tests, projected on both versions and
/// unified again: the unified program is checked by unify, and complete shadow execution finds
/// as many diff paths on it as on the hand annotation (scripts/unify-roundtrip.py does the same
/// for every annotated program of the repository: results/unify-roundtrip/).
#[test]
fn hand_annotated_programs_round_trip_with_the_same_diff_paths() {
    let programs = repo_root().join("engine/tests/shadow/programs");
    let mut files: Vec<_> = std::fs::read_dir(&programs).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "c"));
    files.sort();
    assert!(files.len() >= 60, "the corpus is there");
    let mut wrong = Vec::new();
    for file in &files {
        let dir = tempfile::tempdir().unwrap();
        let name = file.file_name().unwrap();
        let (old, new, unified) = (dir.path().join("old"), dir.path().join("new"), dir.path().join("unified.c"));
        for (version, d) in [("old", &old), ("new", &new)] {
            std::fs::create_dir(d).unwrap();
            penumbra([
                "project".as_ref(),
                file.as_os_str(),
                "--version".as_ref(),
                version.as_ref(),
                "-o".as_ref(),
                d.join(name).as_os_str(),
            ])
            .assert_status(0);
        }
        let run = penumbra([
            "unify".as_ref(),
            old.join(name).as_os_str(),
            new.join(name).as_os_str(),
            "-o".as_ref(),
            unified.as_os_str(),
        ]);
        if run.status != Some(0) {
            wrong.push(format!("{}: unify failed: {}", name.to_string_lossy(), run.stderr));
            continue;
        }
        let (hand, auto) = (diff_paths(file), diff_paths(&unified));
        if hand.is_none() || hand != auto {
            wrong.push(format!("{}: hand {hand:?} diff paths, unified {auto:?}", name.to_string_lossy()));
        }
    }
    assert!(wrong.is_empty(), "{} of {} programs:\n{}", wrong.len(), files.len(), wrong.join("\n"));
}

#[test]
fn project_prints_either_version() {
    let file = repo_root().join("examples/threshold.c");
    let old = penumbra(["project".as_ref(), file.as_os_str(), "--version".as_ref(), "old".as_ref()]);
    old.assert_status(0);
    let text = old.stdout_str();
    assert!(text.contains("  if (x > 5)\n") && !text.contains("change("), "{text}");
    let new = penumbra(["project".as_ref(), file.as_os_str(), "--version".as_ref(), "new".as_ref()]);
    assert!(new.stdout_str().contains("  if (x > 10)\n"), "{}", new.stdout_str());
}

#[test]
fn a_changed_static_variable_is_explored_through_both_definitions() {
    let dir = tempfile::tempdir().unwrap();
    let old_text = "#include \"penumbra.h\"\nstatic int limit = 5;\nint main(void) {\n  int x;\n  penumbra_make_symbolic(&x, sizeof x, \"x\");\n  limit++;\n  if (x > limit)\n    return 1;\n  return 0;\n}\n";
    let (old, new, out) = (dir.path().join("old.c"), dir.path().join("new.c"), dir.path().join("u.c"));
    std::fs::write(&old, old_text).unwrap();
    std::fs::write(&new, old_text.replace("limit = 5", "limit = 7")).unwrap();
    penumbra(["unify".as_ref(), old.as_os_str(), new.as_os_str(), "-o".as_ref(), out.as_os_str()]).assert_status(0);
    let shadow = penumbra([
        "shadow".as_ref(),
        out.as_os_str(),
        "--json".as_ref(),
        "--no-tests".as_ref(),
        "--max-time".as_ref(),
        "30".as_ref(),
    ]);
    shadow.assert_status(0);
    let summary: serde_json::Value = serde_json::from_slice(&shadow.stdout).unwrap();
    assert_eq!(summary["diff_paths"], 1, "{summary}");
    // Old compares x with 6, new with 8: x in [7, 8] is true in old only.
    let test = &summary["tests"][0];
    let x = test["inputs"]["x"]["int"].as_i64().unwrap();
    assert!((7..=8).contains(&x), "{test}");
    assert_eq!((test["old"].as_str(), test["new"].as_str()), (Some("true"), Some("false")));
}

/// An output that is one of the inputs (by any path: the same name, a symbolic link) is
/// refused before anything is written, by `unify` and `project` alike; the input is intact.
#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new, link) = (dir.path().join("old.c"), dir.path().join("new.c"), dir.path().join("link.c"));
    std::fs::write(&old, OLD).unwrap();
    std::fs::write(&new, new_version()).unwrap();
    std::os::unix::fs::symlink(&old, &link).unwrap();
    let refused = |args: &[&std::ffi::OsStr], output: &Path, input: &Path| {
        let run = penumbra(args);
        run.assert_no_panic();
        run.assert_status(2);
        assert_eq!(
            run.stderr.trim_end(),
            format!(
                "penumbra: error: {} is the input {}: give another output file (-o), the inputs are not overwritten",
                output.display(),
                input.display()
            )
        );
    };
    for out in [&old, &link] {
        refused(&["unify".as_ref(), old.as_os_str(), new.as_os_str(), "-o".as_ref(), out.as_os_str()], out, &old);
    }
    refused(&["unify".as_ref(), old.as_os_str(), new.as_os_str(), "-o".as_ref(), new.as_os_str()], &new, &new);
    refused(
        &["project".as_ref(), old.as_os_str(), "--version".as_ref(), "new".as_ref(), "-o".as_ref(), old.as_os_str()],
        &old,
        &old,
    );
    assert_eq!(std::fs::read_to_string(&old).unwrap(), OLD);
    assert_eq!(std::fs::read_to_string(&new).unwrap(), new_version());
}

/// An output in a directory that does not exist is refused (a mistyped path is not made into
/// a tree of directories), for a file, a tree and a projection alike.
#[test]
fn an_output_in_a_missing_directory_is_refused_and_nothing_created() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (dir.path().join("old.c"), dir.path().join("new.c"));
    std::fs::write(&old, OLD).unwrap();
    std::fs::write(&new, new_version()).unwrap();
    let (trees_old, trees_new) = (dir.path().join("a"), dir.path().join("b"));
    for (tree, text) in [(&trees_old, OLD.to_string()), (&trees_new, new_version())] {
        std::fs::create_dir(tree).unwrap();
        std::fs::write(tree.join("m.c"), text).unwrap();
    }
    let missing = dir.path().join("missing");
    let out = missing.join("dir").join("u.c");
    let cases: [Vec<&std::ffi::OsStr>; 3] = [
        vec!["unify".as_ref(), old.as_os_str(), new.as_os_str(), "-o".as_ref(), out.as_os_str()],
        vec![
            "unify".as_ref(),
            "--old".as_ref(),
            trees_old.as_os_str(),
            "--new".as_ref(),
            trees_new.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ],
        vec!["project".as_ref(), old.as_os_str(), "--version".as_ref(), "old".as_ref(), "-o".as_ref(), out.as_os_str()],
    ];
    for args in cases {
        let run = penumbra(&args);
        run.assert_no_panic();
        run.assert_status(2);
        assert_eq!(
            run.stderr.trim_end(),
            format!(
                "penumbra: error: cannot write {}: the directory {} does not exist",
                out.display(),
                missing.join("dir").display()
            ),
            "{args:?}"
        );
        assert!(!missing.exists(), "{args:?} created {}", missing.display());
    }
}
