//! `penumbra batch` on `project` subjects (patches of real projects, issue 18): the manifest's
//! `prepare` command runs once per subject and batch run with the subject's directory and its
//! own output directory; its `prepared.json` gives the program, the flags of every job and of
//! each mode, the seeds and the seed selection's counts; replay runs the prebuilt native
//! executables it names (`--native-old`/`--native-new`) instead of building the program; a
//! seeded job without seeds is recorded as `no-seeds`.

use crate::support::{include_dir, penumbra, repo_root};
use std::collections::BTreeMap;
use std::path::Path;

const MANIFEST: &str = r#"
name = "projects"

[defaults]
mode = ["complete", "seeded"]
prepare = ["sh", "prepare.sh"]
replay = true
max_time = 120

[[subject]]
name = "threshold"
project = "subjects/threshold"

[[subject]]
name = "same-builds"
project = "subjects/same-builds"
"#;

/// The preparation: the subject's program, native builds of it (old and new per the subject's
/// `versions` file, so that a test can tell these builds from penumbra's own), the seeds of
/// its `seeds` file, and fixed selection counts. Each run is logged next to the subjects, and
/// whether it saw the other subject's preparation start within 10 s of its own (`together`;
/// `alone` when they run one after the other).
const PREPARE: &str = r#"set -eu
project=$1 out=$2
touch "subjects/started.${project##*/}"
waited=0
while [ "$(ls subjects/started.* | wc -l)" -lt 2 ] && [ $waited -lt 100 ]; do sleep 0.1; waited=$((waited + 1)); done
if [ $waited -lt 100 ]; then echo "$project together"; else echo "$project alone"; fi >>subjects/overlap.log
echo "$project" >>subjects/prepare-runs.log
cp "$project/prog.c" "$out/prog.c"
read old new <"$project/versions"
for build in old new; do
    eval version=\$$build
    clang-15 -O0 -g -fwrapv -fsanitize=address,undefined -fno-sanitize-recover=all -w \
        -DPENUMBRA_VERSION_$version -I INCLUDE "$out/prog.c" RUNTIME -o "$out/$build"
done
seeds=$(cat "$project/seeds")
cat >"$out/prepared.json" <<EOF
{
  "source": "prog.c",
  "flags": ["--native-old", "old", "--native-new", "new"],
  "mode_flags": {"complete": ["--max-paths", "50"]},
  "seeds": [$seeds],
  "seed_selection": {"tests": 3, "invocations": 5, "touching": 2, "tests_touching": 1}
}
EOF
"#;

/// A batch directory: the manifest, the preparation script and two subjects made from the
/// bundled threshold example (the change `x > 5` to `x > 10`): one whose native builds are
/// its old and new version, one whose two builds are both the new version.
pub fn projects_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("manifest.toml"), MANIFEST).unwrap();
    let runtime = repo_root().join("harness/src/replay/runtime.c");
    let prepare =
        PREPARE.replace("INCLUDE", include_dir().to_str().unwrap()).replace("RUNTIME", runtime.to_str().unwrap());
    std::fs::write(root.join("prepare.sh"), prepare).unwrap();
    for (name, versions, seeds) in [("threshold", "OLD NEW\n", "\"x=7\""), ("same-builds", "NEW NEW\n", "")] {
        let subject = root.join("subjects").join(name);
        std::fs::create_dir_all(&subject).unwrap();
        std::fs::copy(repo_root().join("examples/threshold.c"), subject.join("prog.c")).unwrap();
        std::fs::write(subject.join("versions"), versions).unwrap();
        std::fs::write(subject.join("seeds"), seeds).unwrap();
    }
    dir
}

/// The subjects prepared so far, a line per preparation, sorted (they run in parallel).
pub fn prepare_runs(dir: &Path) -> Vec<String> {
    let log = std::fs::read_to_string(dir.join("subjects/prepare-runs.log")).unwrap_or_default();
    let mut runs: Vec<String> = log.lines().map(str::to_string).collect();
    runs.sort();
    runs
}

fn batch(dir: &Path, out: &Path) -> String {
    let manifest = dir.join("manifest.toml");
    let result = penumbra(["batch", manifest.to_str().unwrap(), "--jobs", "2", "--out", out.to_str().unwrap()]);
    result.assert_no_panic();
    result.assert_status(0);
    result.stderr
}

/// `results.csv` as (subject, mode) -> column -> value.
fn table(out: &Path) -> BTreeMap<(String, String), BTreeMap<String, String>> {
    crate::batch::table(out).into_iter().map(|row| ((row["subject"].clone(), row["mode"].clone()), row)).collect()
}

#[test]
fn project_subjects_are_prepared_and_replayed_on_their_native_builds() {
    let dir = projects_dir();
    let out = dir.path().join("out");
    let log = batch(dir.path(), &out);
    assert!(log.contains("batch projects: 4 jobs; 0 already finished, running 4"), "{log}");
    assert_eq!(prepare_runs(dir.path()), ["subjects/same-builds", "subjects/threshold"]);
    // With two jobs at a time, the two preparations ran side by side (each saw the other start).
    let overlap = std::fs::read_to_string(dir.path().join("subjects/overlap.log")).unwrap();
    let mut overlap: Vec<&str> = overlap.lines().collect();
    overlap.sort();
    assert_eq!(overlap, ["subjects/same-builds together", "subjects/threshold together"]);

    let rows = table(&out);
    let cell = |subject: &str, mode: &str, column: &str| rows[&(subject.to_string(), mode.to_string())][column].clone();
    // The divergence (x in [6, 10]) is found in both subjects; its replay tells the builds
    // apart: the threshold subject's old and new differ, the other's two builds do not (had
    // replay built the program itself, both would say output-diff).
    for (subject, class) in [("threshold", "class_output-diff"), ("same-builds", "class_silent")] {
        assert_eq!(cell(subject, "complete", "outcome"), "ok", "{subject}");
        assert_eq!(cell(subject, "complete", "diff_paths"), "1", "{subject}");
        assert_eq!(cell(subject, "complete", class), "1", "{subject}");
        assert_eq!(cell(subject, "complete", "tests_touching_patch"), "1/3");
        assert_eq!(cell(subject, "complete", "invocations_touching_patch"), "2/5");
    }
    assert_eq!(cell("threshold", "complete", "class_silent"), "0");
    assert!(!cell("threshold", "complete", "first_difference_s").is_empty());
    assert!(cell("same-builds", "complete", "first_difference_s").is_empty());
    // Seeded mode follows the prepared seed to the divergence; without seeds, it is not run.
    assert_eq!(cell("threshold", "seeded", "outcome"), "ok");
    assert_eq!(cell("threshold", "seeded", "divergence_points"), "1");
    assert_eq!(cell("threshold", "seeded", "class_output-diff"), "1");
    assert_eq!(cell("same-builds", "seeded", "outcome"), "no-seeds");
    assert_eq!(cell("same-builds", "seeded", "diff_paths"), "");

    // The jobs ran the prepared program with the prepared flags (complete mode's own too).
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("jobs/threshold.complete.default.json")).unwrap()).unwrap();
    let args: Vec<&str> = record["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(args[..7], ["prog.c", "--mode", "complete", "--native-old", "old", "--native-new", "new"]);
    assert!(args.windows(2).any(|w| w == ["--max-paths", "50"]), "{args:?}");
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("jobs/threshold.seeded.default.json")).unwrap()).unwrap();
    let args: Vec<&str> = record["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert!(args.windows(2).any(|w| w == ["--seed", "x=7"]) && !args.contains(&"--max-paths"), "{args:?}");

    // A rerun prepares again (the preparation decides what it can reuse) and runs nothing.
    let log = batch(dir.path(), &out);
    assert!(log.contains("4 already finished, running 0"), "{log}");
    assert_eq!(prepare_runs(dir.path()).len(), 4);
    // Native builds that change (same program, same flags) make their subject's jobs stale.
    std::fs::write(dir.path().join("subjects/threshold/versions"), "NEW NEW\n").unwrap();
    let log = batch(dir.path(), &out);
    assert!(log.contains("2 already finished, running 2"), "{log}");
    let rows = table(&out);
    assert_eq!(rows[&("threshold".to_string(), "complete".to_string())]["class_silent"], "1");
}

/// A subject whose preparation fails (a tree that does not build) does not stop the batch:
/// its jobs are recorded as `not-prepared` with the error, naming the subject and the manifest
/// line, the other subjects run, and the exit status (1) says the batch is incomplete. The
/// next run prepares it again.
#[test]
fn a_failing_preparation_is_recorded_and_the_others_run() {
    let dir = projects_dir();
    let prepare = std::fs::read_to_string(dir.path().join("prepare.sh")).unwrap();
    let failing = prepare.replace(
        "echo \"$project\" >>subjects/prepare-runs.log\n",
        "echo \"$project\" >>subjects/prepare-runs.log\ncase $project in *same-builds) echo cannot fetch the tree >&2; exit 3;; esac\n",
    );
    assert_ne!(failing, prepare);
    std::fs::write(dir.path().join("prepare.sh"), failing).unwrap();
    let manifest = dir.path().join("manifest.toml");
    let out = dir.path().join("out");
    let result = penumbra(["batch", manifest.to_str().unwrap(), "--jobs", "2", "--out", out.to_str().unwrap()]);
    result.assert_no_panic();
    assert_eq!(result.status, Some(1), "{}", result.stderr);
    assert!(result.stderr.contains("cannot fetch the tree"), "{}", result.stderr);
    assert!(
        result
            .stderr
            .contains("1 subjects could not be prepared (recorded as `not-prepared`, with the error): same-builds"),
        "{}",
        result.stderr
    );
    let rows = table(&out);
    let cell = |subject: &str, mode: &str, column: &str| rows[&(subject.to_string(), mode.to_string())][column].clone();
    assert_eq!(cell("threshold", "complete", "outcome"), "ok");
    assert_eq!(cell("threshold", "complete", "class_output-diff"), "1");
    for mode in ["complete", "seeded"] {
        assert_eq!(cell("same-builds", mode, "outcome"), "not-prepared");
        assert_eq!(cell("same-builds", mode, "diff_paths"), "");
        let record: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join(format!("jobs/same-builds.{mode}.default.json"))).unwrap())
                .unwrap();
        let error = record["error"].as_str().unwrap();
        assert!(
            error.contains("manifest.toml:") && error.contains("subject `same-builds`: cannot prepare the project"),
            "{error}"
        );
    }
    // Prepared again on the next run: once the preparation works, the subject runs.
    std::fs::write(dir.path().join("prepare.sh"), prepare).unwrap();
    let log = batch(dir.path(), &out);
    assert!(log.contains("2 already finished, running 2"), "{log}");
    assert_eq!(table(&out)[&("same-builds".to_string(), "complete".to_string())]["outcome"], "ok");
}

#[test]
fn replay_checks_prebuilt_executables_carry_the_replay_runtime() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("threshold.c");
    std::fs::copy(repo_root().join("examples/threshold.c"), &source).unwrap();
    // A native build without the replay runtime cannot feed the test's own objects (the
    // threshold's `x`): its replay is refused with the reason.
    let hello = dir.path().join("hello.c");
    std::fs::write(&hello, "#include <stdio.h>\nint main(void) { puts(\"hello\"); return 0; }\n").unwrap();
    let plain = dir.path().join("plain");
    let status = std::process::Command::new("clang-15").arg(&hello).arg("-o").arg(&plain).status().unwrap();
    assert!(status.success());
    let p = plain.to_str().unwrap();
    let result = penumbra(["shadow", source.to_str().unwrap(), "--replay", "--native-old", p, "--native-new", p]);
    result.assert_no_panic();
    assert_eq!(result.status, Some(2), "{}", result.stderr);
    assert!(result.stderr.contains("replay runtime"), "{}", result.stderr);
    // Without --replay the flags have no use.
    let result = penumbra(["shadow", source.to_str().unwrap(), "--native-old", p, "--native-new", p]);
    assert_eq!(result.status, Some(2), "{}", result.stderr);
    assert!(result.stderr.contains("add --replay"), "{}", result.stderr);
}

/// The threshold example built natively as `version` (`OLD`/`NEW`) with the replay runtime.
fn native_build(dir: &Path, version: &str, name: &str) -> std::path::PathBuf {
    let exe = dir.join(name);
    crate::support::native_with_runtime(&repo_root().join("examples/threshold.c"), version, &exe);
    exe
}

/// `penumbra shadow SOURCE --replay --json` into `out` with `flags` (the environment and the
/// `--native-*` builds), checked to succeed; its replay's report.json.
fn shadow_replayed(source: &Path, out: &Path, flags: &[&str]) -> serde_json::Value {
    let mut args =
        vec!["shadow", source.to_str().unwrap(), "--output-dir", out.to_str().unwrap(), "--replay", "--json"];
    args.extend_from_slice(flags);
    let result = penumbra(args);
    result.assert_no_panic();
    result.assert_status(0);
    serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap()
}

/// `--native-fixed`: a prebuilt fixed version decides an output difference, as
/// `--fixed-version` does for a C file: `expected` where the new version behaves like it,
/// `regression` where it does not.
#[test]
fn a_prebuilt_fixed_version_decides_output_differences() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (native_build(dir.path(), "OLD", "old"), native_build(dir.path(), "NEW", "new"));
    let source = repo_root().join("examples/threshold.c");
    for (fixed, class) in [(&new, "expected"), (&old, "regression")] {
        let out = dir.path().join(format!("out-{class}"));
        let natives = ["--native-old", old.to_str().unwrap(), "--native-new", new.to_str().unwrap()];
        let report =
            shadow_replayed(&source, &out, &[&natives[..], &["--native-fixed", fixed.to_str().unwrap()]].concat());
        let classes: Vec<&str> =
            report["tests"].as_array().unwrap().iter().map(|t| t["class"].as_str().unwrap()).collect();
        assert_eq!(classes, [class], "{report}");
        assert_eq!(report["fixes"], serde_json::json!([{"fixed": fixed.to_str().unwrap()}]));
    }
}

/// `--native-fix-parent`: Shadow's rule with prebuilt executables. The fix went back to the
/// old behaviour (`regression` without a parent); a parent that already behaved like the fix
/// says the fix did not touch it: `expected`, judged `parent-like-fix`.
#[test]
fn a_prebuilt_fix_parent_decides_with_shadows_rule() {
    let dir = tempfile::tempdir().unwrap();
    let (old, new) = (native_build(dir.path(), "OLD", "old"), native_build(dir.path(), "NEW", "new"));
    let source = repo_root().join("examples/threshold.c");
    for (parent, class, judgement) in [(&old, "expected", "parent-like-fix"), (&new, "regression", "unexplained")] {
        let out = dir.path().join(format!("out-{class}"));
        let (old, new, parent) = (old.to_str().unwrap(), new.to_str().unwrap(), parent.to_str().unwrap());
        let natives = ["--native-old", old, "--native-new", new, "--native-fixed", old, "--native-fix-parent", parent];
        let report = shadow_replayed(&source, &out, &natives);
        let classes: Vec<&str> =
            report["tests"].as_array().unwrap().iter().map(|t| t["class"].as_str().unwrap()).collect();
        assert_eq!(classes, [class], "{report}");
        assert_eq!(report["tests"][0]["fixes"][0]["judgement"], judgement, "{report}");
        assert_eq!(report["fixes"], serde_json::json!([{"fixed": old, "fix_parent": parent}]));
        assert_eq!(report["builds"]["fix-parent"]["address_sanitizer"], true, "{report}");
    }
}

/// A program taking its input from its arguments, and its own plain native builds
/// (AddressSanitizer, no replay runtime: as a project's `configure && make` makes them):
/// argv[1] = "a" hits in old, "b" in new, "z" overflows a buffer in new only.
fn plain_builds(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let source = dir.join("args.c");
    std::fs::write(
        &source,
        "#include <penumbra.h>\n#include <stdio.h>\n#include <stdlib.h>\nint main(int argc, char **argv) {\n  if (argc < 2) { fputs(\"usage: args X\\n\", stderr); return 1; }\n  if (argv[1][0] == change('a', 'b')) { puts(\"hit\"); return 3; }\n  if (argv[1][0] == 'z') { char *p = malloc(2); p[change(1, 2)] = 'z'; free(p); }\n  return 0;\n}\n",
    )
    .unwrap();
    let build = |version: &str| {
        let exe = dir.join(version.to_lowercase());
        crate::support::native_without_runtime(&source, version, &exe);
        exe
    };
    let (old, new) = (build("OLD"), build("NEW"));
    (source, old, new)
}

/// `shadow --replay` of plain_builds' program on its plain builds; the report's tests as
/// (argv[1], class, whether the interpreter ran the test).
fn replay_plain(dir: &Path, extra: &[&str]) -> (serde_json::Value, Vec<(String, String, bool)>) {
    let (source, old, new) = plain_builds(dir);
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let environment = ["--libc", "musl", "--sym-args", "1", "1", "1", "--native-old", old, "--native-new", new];
    let report = shadow_replayed(&source, &dir.join("out"), &[&environment[..], extra].concat());
    let mut seen: Vec<(String, String, bool)> = report["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let arg = t["inputs"]["arg00"]["hex"].as_str().unwrap()[..2].to_string();
            (arg, t["class"].as_str().unwrap().to_string(), t.get("interpreter").is_some())
        })
        .collect();
    seen.sort();
    (report, seen)
}

/// A project's own build of the program (no replay runtime: `configure && make` with
/// AddressSanitizer) replays tests made of arguments, stdin and files only: the probe accepts a
/// program that ends with a usage message, each test's argv goes to it directly.
#[test]
fn prebuilt_programs_without_the_runtime_replay_argument_tests() {
    let dir = tempfile::tempdir().unwrap();
    let (report, seen) = replay_plain(dir.path(), &[]);
    // "a" (61), "b" (62): output differences; "z" (7a): new overflows its buffer.
    let expected = [("61", "output-diff", true), ("62", "output-diff", true), ("7a", "regression", true)];
    assert_eq!(seen, expected.map(|(a, c, i)| (a.to_string(), c.to_string(), i)), "{report}");
    assert_eq!(report["builds"]["old"]["build"], "prebuilt without the replay runtime, AddressSanitizer", "{report}");
}

/// `--interpreter errors`: with AddressSanitizer builds the interpreter runs only where a native
/// run or the engine reports an error; the classes stay the same.
#[test]
fn the_interpreter_can_run_only_where_an_error_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (report, seen) = replay_plain(dir.path(), &["--interpreter", "errors"]);
    let expected = [("61", "output-diff", false), ("62", "output-diff", false), ("7a", "regression", true)];
    assert_eq!(seen, expected.map(|(a, c, i)| (a.to_string(), c.to_string(), i)), "{report}");
}
