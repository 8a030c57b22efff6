//! `penumbra replay` and `penumbra shadow --replay`: native builds of both versions with
//! AddressSanitizer and UBSan, every test run on both, and the classes of the examples'
//! `EXPECTED.md` replay rows; `--fixed-version`; argv and stdin reaching the native run; runs
//! that time out or cannot be fed; the report's files and their determinism.

use crate::support::{penumbra, repo_root, write_c, Output};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::Path;

/// One replayed test, reduced to what the expectations name.
#[derive(Debug, Clone)]
struct Replayed {
    /// Inputs as `name=int`, in creation order.
    inputs: Vec<(String, i64)>,
    class: String,
    old: Value,
    new: Value,
}

fn replayed(t: &Value) -> Replayed {
    let inputs = t["inputs"]
        .as_object()
        .expect("inputs is an object")
        .iter()
        .map(|(name, v)| (name.clone(), v["int"].as_i64().unwrap_or(i64::MIN)))
        .collect();
    Replayed {
        inputs,
        class: t["class"].as_str().expect("every replayed test has a class").to_string(),
        old: t["old_outcome"].clone(),
        new: t["new_outcome"].clone(),
    }
}

/// `penumbra shadow FILE --replay --json` into `out`: the replayed tests in test order.
fn shadow_replay(file: &Path, out: &Path, extra: &[&str]) -> Vec<Replayed> {
    let mut args = vec!["shadow".to_string(), file.display().to_string(), "--output-dir".into()];
    args.push(out.display().to_string());
    args.extend(["--replay", "--json"].map(String::from));
    args.extend(extra.iter().map(|s| s.to_string()));
    let run = penumbra(&args);
    run.assert_status(0);
    let summary: Value = serde_json::from_slice(&run.stdout).expect("--json prints one JSON object");
    summary["tests"].as_array().expect("tests is an array").iter().map(replayed).collect()
}

fn example(name: &str) -> std::path::PathBuf {
    repo_root().join("examples").join(name)
}

fn sha256(text: &str) -> String {
    Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn exit(code: i64, stdout: &str) -> Value {
    serde_json::json!({"exit": code, "stdout_sha256": sha256(stdout)})
}

fn error_text(v: &Value) -> &str {
    v["error"].as_str().unwrap_or_else(|| panic!("expected an error outcome, got {v}"))
}

fn find<'a>(tests: &'a [Replayed], name: &str, pick: impl Fn(i64) -> bool) -> &'a Replayed {
    let hits: Vec<&Replayed> = tests.iter().filter(|t| t.inputs.iter().any(|(n, v)| n == name && pick(*v))).collect();
    assert_eq!(hits.len(), 1, "expected exactly one test with a matching {name} among {tests:#?}");
    hits[0]
}

#[test]
fn foo_x0_is_a_regression_and_x_minus_1_a_fix() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tests = shadow_replay(&example("foo.c"), &dir.path().join("out"), &[]);
    assert_eq!(tests.len(), 2, "{tests:#?}");
    let zero = find(&tests, "x", |v| v == 0);
    assert_eq!(zero.class, "regression");
    assert_eq!(zero.old, exit(1, ""));
    assert_eq!(error_text(&zero.new), "assertion failed at foo.c:18");
    let minus_one = find(&tests, "x", |v| v == -1);
    assert_eq!(minus_one.class, "fix");
    assert_eq!(error_text(&minus_one.old), "assertion failed at foo.c:18");
    assert_eq!(minus_one.new, exit(0, ""));
}

#[test]
fn bar_divergences_are_a_regression_and_a_fix() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tests = shadow_replay(&example("bar.c"), &dir.path().join("out"), &[]);
    assert_eq!(tests.len(), 2, "{tests:#?}");
    let regression = find(&tests, "x", |v| v == 105);
    assert_eq!(regression.inputs, vec![("x".to_string(), 105), ("y".to_string(), -100)]);
    assert_eq!((regression.class.as_str(), &regression.old), ("regression", &exit(0, "")));
    assert!(error_text(&regression.new).starts_with("assertion failed at bar.c:"), "{regression:?}");
    let fix = find(&tests, "x", |v| v == -100);
    assert_eq!(fix.inputs, vec![("x".to_string(), -100), ("y".to_string(), 105)]);
    assert_eq!((fix.class.as_str(), &fix.new), ("fix", &exit(0, "")));
}

#[test]
fn threshold_is_an_output_difference() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tests = shadow_replay(&example("threshold.c"), &dir.path().join("out"), &[]);
    assert_eq!(tests.len(), 1, "{tests:#?}");
    let t = find(&tests, "x", |v| (6..=10).contains(&v));
    assert_eq!(t.class, "output-diff");
    assert_eq!(t.old, exit(0, "1\n"));
    assert_eq!(t.new, exit(0, "0\n"));
}

#[test]
fn offbyone_n4_is_a_regression_and_negative_n_both_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tests = shadow_replay(&example("offbyone.c"), &dir.path().join("out"), &[]);
    assert_eq!(tests.len(), 2, "{tests:#?}");
    let four = find(&tests, "n", |v| v == 4);
    assert_eq!(four.class, "regression");
    assert_eq!(four.old, exit(0, ""));
    let report = error_text(&four.new);
    assert!(report.contains("index 4 out of bounds") && report.contains("offbyone.c:"), "{report}");
    let negative = find(&tests, "n", |v| v < 0);
    assert_eq!(negative.class, "both-error");
    assert!(error_text(&negative.old).contains("out of bounds"), "{negative:?}");
    assert!(error_text(&negative.new).contains("out of bounds"), "{negative:?}");
}

/// A sanitizer report is read from the sanitizers' own log, never from the program's output:
/// a program that prints UBSan's words to stderr has no error (only its stderr differs).
#[test]
fn program_output_that_looks_like_a_sanitizer_report_is_output() {
    let file = write_c(
        "fake_report.c",
        r#"#include <stdio.h>
#include <penumbra.h>
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (change(x > 5, x > 4))
        fprintf(stderr, "fake_report.c:7:9: runtime error: index 4 out of bounds\nSUMMARY: AddressSanitizer: heap-buffer-overflow fake_report.c:7:9 in main\n");
    return 0;
}
"#,
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let tests = shadow_replay(&file.path, &dir.path().join("out"), &[]);
    assert_eq!(tests.len(), 1, "{tests:#?}");
    let five = find(&tests, "x", |v| v == 5);
    assert_eq!((five.class.as_str(), &five.old, &five.new), ("stderr-diff", &exit(0, ""), &exit(0, "")));
}

/// threshold.c with a fixed version `fixed_source` (and its parent, `parent_source`).
fn threshold_with_fixed(fixed_source: &str) -> (Replayed, Value) {
    threshold_with_fix(fixed_source, None)
}

fn threshold_with_fix(fixed_source: &str, parent_source: Option<&str>) -> (Replayed, Value) {
    let dir = tempfile::tempdir().expect("tempdir");
    let fixed = write_c("fixed.c", fixed_source);
    let parent = parent_source.map(|text| write_c("parent.c", text));
    let out = dir.path().join("out");
    let fixed_path = fixed.path.display().to_string();
    let mut flags = vec!["--fixed-version".to_string(), fixed_path];
    if let Some(parent) = &parent {
        flags.extend(["--fix-parent-version".to_string(), parent.path.display().to_string()]);
    }
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let tests = shadow_replay(&example("threshold.c"), &out, &flags);
    assert_eq!(tests.len(), 1, "{tests:#?}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report.json")).expect("JSON");
    (tests[0].clone(), report)
}

#[test]
fn a_fixed_version_decides_output_differences() {
    // The fixed version behaves like the new one: the difference was intended.
    let like_new = r#"#include <stdio.h>
#include "penumbra.h"
int main(void) { int x; penumbra_make_symbolic(&x, sizeof x, "x"); printf("%d\n", x > 10); return 0; }
"#;
    let (t, report) = threshold_with_fixed(like_new);
    assert_eq!(t.class, "expected");
    assert_eq!(report["classes"]["expected"], 1);
    assert_eq!(
        report["tests"][0]["fixes"],
        serde_json::json!([{"fixed_outcome": exit(0, "0\n"), "judgement": "fix-like-new"}])
    );
    // The fixed version went back to the old behaviour: the new one is a regression.
    let like_old = like_new.replace("x > 10", "x > 5");
    let (t, report) = threshold_with_fixed(&like_old);
    assert_eq!(t.class, "regression");
    assert_eq!(report["classes"]["regression"], 1);
    assert_eq!(report["classes"]["output-diff"], 0);
}

/// Shadow's rule: the fix that went back to old's behaviour (`regression` alone) explains the
/// difference when its parent behaved the same (the fix did not touch it); a parent like new
/// leaves it a regression.
#[test]
fn the_fixs_parent_decides_with_shadows_rule() {
    let like_old = r#"#include <stdio.h>
#include "penumbra.h"
int main(void) { int x; penumbra_make_symbolic(&x, sizeof x, "x"); printf("%d\n", x > 5); return 0; }
"#;
    let like_new = like_old.replace("x > 5", "x > 10");
    let (t, report) = threshold_with_fix(like_old, Some(like_old));
    assert_eq!(t.class, "expected");
    assert_eq!(
        report["tests"][0]["fixes"],
        serde_json::json!([{"fixed_outcome": exit(0, "1\n"), "fix_parent_outcome": exit(0, "1\n"), "judgement": "parent-like-fix"}])
    );
    assert_eq!(report["classes"]["expected"], 1);
    assert_eq!(report["builds"]["fix-parent"]["interpreter"], true, "{report}");
    let (t, report) = threshold_with_fix(like_old, Some(&like_new));
    assert_eq!(t.class, "regression");
    assert_eq!(report["tests"][0]["fixes"][0]["judgement"], "unexplained");
    assert_eq!(report["classes"]["regression"], 1);
}

/// An error in new only stays `regression` whatever the fixes do, and they say whether it is the
/// error the fix removes: offbyone.c's n = 4 overflows in new; a fix whose parent overflows too
/// and that does not is `unexplained` (the fix removes it: this regression's fix); a fix whose
/// parent no longer overflows is `parent-like-fix` (another commit fixed it); a fix that still
/// overflows is `fix-like-new`.
#[test]
fn the_fixes_say_whether_an_error_in_new_is_the_one_they_remove() {
    let source = std::fs::read_to_string(example("offbyone.c")).unwrap();
    let overflows = source.replace("change(", "penumbra_keep_new(");
    let keeps_new = format!("#define penumbra_keep_new(a, b) (b)\n{overflows}");
    let keeps_old = format!("#define penumbra_keep_new(a, b) (a)\n{overflows}");
    assert_ne!(overflows, source, "offbyone.c has a change()");
    for (fixed, parent, judgement) in [
        (&keeps_old, &keeps_new, "unexplained"),
        (&keeps_old, &keeps_old, "parent-like-fix"),
        (&keeps_new, &keeps_new, "fix-like-new"),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let (fixed, parent) = (write_c("fixed.c", fixed), write_c("parent.c", parent));
        let (fixed_path, parent_path) = (fixed.path.display().to_string(), parent.path.display().to_string());
        let flags = ["--fixed-version", fixed_path.as_str(), "--fix-parent-version", parent_path.as_str()];
        let tests = shadow_replay(&example("offbyone.c"), &dir.path().join("out"), &flags);
        let four = find(&tests, "n", |v| v == 4);
        assert_eq!(four.class, "regression", "{four:?}");
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("out/report.json")).unwrap()).expect("JSON");
        let record = report["tests"].as_array().unwrap().iter().find(|t| t["inputs"]["n"]["int"] == 4).unwrap();
        assert_eq!(record["fixes"][0]["judgement"], judgement, "{record}");
    }
}

#[test]
fn symbolic_arguments_and_stdin_reach_the_native_run() {
    // The new version also accepts 'b' as the first character of argv[1], and looks at one
    // byte of stdin; the native builds must see the test's argv and stdin to differ.
    let source = r#"#include <stdio.h>
#include <string.h>
#include "penumbra.h"
int main(int argc, char **argv) {
  if (argc < 2) return 3;
  int c = getchar();
  if (change(argv[1][0] == 'a', argv[1][0] == 'b' && c == 'z')) { printf("yes %s\n", argv[1]); return 1; }
  return 0;
}
"#;
    let file = write_c("args.c", source);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let tests = shadow_replay(&file.path, &out, &["--sym-arg", "1", "--sym-stdin", "1"]);
    assert!(!tests.is_empty());
    for t in &tests {
        assert_eq!(t.class, "output-diff", "{t:?}");
        let (old, new) = (t.old["exit"].as_i64(), t.new["exit"].as_i64());
        assert!(matches!((old, new), (Some(1), Some(0)) | (Some(0), Some(1))), "{t:?}");
    }
    // Exactly: old takes 'a' (any stdin), new takes 'b' with 'z' on stdin.
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report.json")).expect("JSON");
    let mut firsts: Vec<(String, String)> = report["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| {
            let hex =
                |i: usize| t["inputs"].as_object().expect("inputs").values().nth(i).expect("input")["hex"].clone();
            (hex(0).as_str().expect("hex")[..2].to_string(), hex(1).as_str().expect("hex")[..2].to_string())
        })
        .collect();
    firsts.sort();
    let a_new_yes = firsts.iter().filter(|(arg, _)| arg == "61").count();
    let b_z = firsts.iter().filter(|(arg, stdin)| arg == "62" && stdin == "7a").count();
    assert_eq!((a_new_yes, b_z, firsts.len()), (1, 1, 2), "{firsts:?}");

    // A record without a `.ktest` file (plain exits are written so) replays from its line:
    // the same arguments, stdin and classes.
    let sidecar = out.join("tests.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&sidecar)
        .expect("tests.jsonl")
        .lines()
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).expect("a JSON line");
            let file = record.as_object_mut().expect("an object").remove("ktest").expect("a .ktest file");
            std::fs::remove_file(out.join(file.as_str().expect("a name"))).expect("remove the .ktest");
            record.to_string()
        })
        .collect();
    std::fs::write(&sidecar, lines.join("\n") + "\n").expect("rewrite tests.jsonl");
    let (_, again) = replay_json(&out, &[]);
    let outcomes =
        |t: &[Replayed]| t.iter().map(|t| (t.class.clone(), t.old.clone(), t.new.clone())).collect::<Vec<_>>();
    assert_eq!(outcomes(&again), outcomes(&tests));
}

/// An output directory written by hand: `source`'s `run.json`, one test with `x` = `value`.
fn handmade_dir(source: &Path, value: i32, objects: &[(&str, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = serde_json::json!({"command": "shadow", "source": source, "include_dirs": [], "defines": []});
    std::fs::write(dir.path().join("run.json"), run.to_string()).expect("write run.json");
    let record = serde_json::json!({"name": "test000001", "kind": "divergence", "ktest": "test000001.ktest",
        "inputs": {"x": {"hex": format!("{:08x}", value.swap_bytes()), "int": value}}, "args": ["prog"]});
    std::fs::write(dir.path().join("tests.jsonl"), format!("{record}\n")).expect("write tests.jsonl");
    // KLEE's format: magic, version 3, args, sym_argvs, sym_argv_len, objects.
    let mut k = b"KTEST".to_vec();
    let u32be = |k: &mut Vec<u8>, n: u32| k.extend_from_slice(&n.to_be_bytes());
    u32be(&mut k, 3);
    u32be(&mut k, 1);
    u32be(&mut k, 4);
    k.extend_from_slice(b"prog");
    u32be(&mut k, 0);
    u32be(&mut k, 0);
    u32be(&mut k, objects.len() as u32);
    for (name, bytes) in objects {
        u32be(&mut k, name.len() as u32);
        k.extend_from_slice(name.as_bytes());
        u32be(&mut k, bytes.len() as u32);
        k.extend_from_slice(bytes);
    }
    std::fs::write(dir.path().join("test000001.ktest"), k).expect("write ktest");
    dir
}

fn replay_json(dir: &Path, extra: &[&str]) -> (Output, Vec<Replayed>) {
    let mut args = vec!["replay".to_string(), dir.display().to_string(), "--json".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = penumbra(&args);
    out.assert_status(0);
    let tests: Value = serde_json::from_slice(&out.stdout).expect("--json prints a JSON array");
    let tests = tests.as_array().expect("an array").iter().map(replayed).collect();
    (out, tests)
}

#[test]
fn a_run_past_the_timeout_is_an_error() {
    let source = r#"#include "penumbra.h"
int main(void) { int x; penumbra_make_symbolic(&x, sizeof x, "x"); if (change(0, x == 3)) for (;;) {} return 0; }
"#;
    let file = write_c("loop.c", source);
    let dir = handmade_dir(&file.path, 3, &[("x", 3i32.to_le_bytes().to_vec())]);
    let (_, tests) = replay_json(dir.path(), &["--timeout", "0.5"]);
    assert_eq!(tests.len(), 1);
    assert_eq!(tests[0].class, "regression");
    assert_eq!(tests[0].old, exit(0, ""));
    assert_eq!(error_text(&tests[0].new), "timeout after 0.5 s");
}

#[test]
fn a_test_that_does_not_fit_the_program_is_reported_not_classified_as_an_error() {
    let source = r#"#include "penumbra.h"
int main(void) { int x; penumbra_make_symbolic(&x, sizeof x, "x"); return change(x, x + 1) == 5; }
"#;
    let file = write_c("fit.c", source);
    // A 2-byte object where the program asks for 4.
    let dir = handmade_dir(&file.path, 4, &[("x", vec![4, 0])]);
    let (_, tests) = replay_json(dir.path(), &[]);
    assert_eq!(tests[0].class, "replay-failed");
    let why = tests[0].old["replay_failed"].as_str().expect("replay_failed outcome");
    assert_eq!(why, "the test's object has 2 bytes where make_symbolic asks for 4 (\"x\")");
    // No object at all.
    let dir = handmade_dir(&file.path, 4, &[]);
    let (_, tests) = replay_json(dir.path(), &[]);
    assert_eq!(tests[0].old["replay_failed"], "the test has no object left for make_symbolic (\"x\")");
    // The right object: x = 4 makes the new version return 1.
    let dir = handmade_dir(&file.path, 4, &[("x", 4i32.to_le_bytes().to_vec())]);
    let (_, tests) = replay_json(dir.path(), &[]);
    assert_eq!((tests[0].class.as_str(), &tests[0].old, &tests[0].new), ("output-diff", &exit(0, ""), &exit(1, "")));
}

#[test]
fn the_report_is_grouped_by_class_and_deterministic() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let file = example("foo.c").display().to_string();
    let run = penumbra(["shadow", &file, "--output-dir", &out.display().to_string(), "--replay"]);
    run.assert_status(0);
    let text = run.stdout_str();
    let regression = text.find("regression (error only in new)").expect("a regression section");
    let fix = text.find("fix (error only in old)").expect("a fix section");
    assert!(regression < fix, "most severe first:\n{text}");
    assert!(text.contains("  1 regression, 1 fix\n"), "{text}");
    // The default search (patch-directed, depth-first, random-path and covering-new in turns,
    // seed 0) writes the regression first: its first turn is patch-directed.
    assert!(text.contains("test000001  x=0  (parted at line 17: old false, new true)\n"), "{text}");
    assert!(text.contains("test000002  x=-1  (parted at line 14: old false, new true)\n"), "{text}");
    assert!(text.contains("      new: error: assertion failed at foo.c:18\n"), "{text}");
    // Replaying again gives the same report.json, byte for byte.
    let first = std::fs::read(out.join("report.json")).expect("report.json");
    let again = penumbra(["replay", &out.display().to_string()]);
    again.assert_status(0);
    assert_eq!(std::fs::read(out.join("report.json")).expect("report.json"), first);
    assert!(again.stdout_str().contains("  1 regression, 1 fix\n"), "{}", again.stdout_str());
}

/// `run.json` records the source's SHA-256: replay refuses a source edited since the tests
/// were written (they would be replayed against another program).
#[test]
fn replay_refuses_a_source_that_changed_since_the_run() {
    let file = write_c("edited.c", "#include <penumbra.h>\nint main(void) { int x; penumbra_make_symbolic(&x, sizeof x, \"x\"); return change(x > 1, x > 2); }\n");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    shadow_replay(&file.path, &out, &[]);
    let info: Value = serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(info["source_sha256"].as_str().map(str::len), Some(64), "{info}");
    std::fs::write(&file.path, "int main(void) { return 0; }\n").unwrap();
    let replay = penumbra(["replay".as_ref(), out.as_os_str()]);
    replay.assert_no_panic();
    assert_eq!(replay.status, Some(2), "{}", replay.stderr);
    assert!(replay.stderr.contains("edited.c changed since its tests were written"), "{}", replay.stderr);
}

#[test]
fn replay_explains_what_it_needs() {
    let missing = penumbra(["replay", "/nonexistent/penumbra-out-1"]);
    missing.assert_status(2);
    assert!(missing.stderr.contains("run.json"), "{}", missing.stderr);
    let dir = tempfile::tempdir().expect("tempdir");
    let no_tests = penumbra(["shadow", &example("foo.c").display().to_string(), "--no-tests", "--replay"]);
    no_tests.assert_status(2);
    assert!(no_tests.stderr.contains("drop --no-tests"), "{}", no_tests.stderr);
    let bad_timeout = penumbra(["replay", &dir.path().display().to_string(), "--timeout", "0"]);
    bad_timeout.assert_status(2);
    assert!(bad_timeout.stderr.contains("timeout"), "{}", bad_timeout.stderr);
}

/// Under an address-space limit (as batch schedulers set with `ulimit -v`) AddressSanitizer
/// cannot start: replay says so and classifies nothing (it used to call every test an error in
/// both versions).
#[test]
fn replay_refuses_an_environment_where_the_sanitizers_cannot_start() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let run =
        penumbra(["shadow".as_ref(), example("offbyone.c").as_os_str(), "--output-dir".as_ref(), out.as_os_str()]);
    run.assert_status(0);
    let mut cmd = std::process::Command::new(crate::support::penumbra_bin());
    cmd.arg("replay").arg(&out);
    crate::support::limit_child(&mut cmd, libc::RLIMIT_AS, 8_000_000 << 10);
    let replay = crate::support::run_command(cmd);
    replay.assert_no_panic();
    assert_eq!(replay.status, Some(2), "{}", replay.stderr);
    assert!(replay.stderr.contains("cannot start here"), "{}", replay.stderr);
    assert!(replay.stderr.contains("address-space limit (ulimit -v"), "{}", replay.stderr);
    assert!(replay.stdout.is_empty(), "nothing is classified: {}", replay.stdout_str());
    assert!(!out.join("report.json").exists());
}

/// A symbolic argument's bytes are whatever the solver chose: a byte that is not UTF-8 reaches
/// `penumbra exec --ktest` and the native builds unchanged (not as U+FFFD's three bytes).
#[test]
fn arguments_that_are_not_utf8_replay_byte_for_byte() {
    let source = r#"#include <stdio.h>
#include "penumbra.h"
int main(int argc, char **argv) {
  if (argc < 2) return 3;
  unsigned char c = argv[1][0];
  printf("%s|\n", argv[1]);
  return change(c == 0xff, c >= 0xfe) ? 7 : 0;
}
"#;
    let file = write_c("bytes.c", source);
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let tests = shadow_replay(&file.path, &out, &["--sym-arg", "1"]);
    // One divergence: 0xfe (new 7, old 0), classified from the native runs.
    assert_eq!(tests.len(), 1, "{tests:?}");
    let t = &tests[0];
    assert_eq!(t.class, "output-diff", "{t:?}");
    assert_eq!((t.old["exit"].as_i64(), t.new["exit"].as_i64()), (Some(0), Some(7)), "{t:?}");
    assert_eq!(t.new["stdout_sha256"].as_str(), Some(format!("{:x}", Sha256::digest(b"\xfe|\n")).as_str()));
    let ktest = std::fs::read_dir(&out)
        .expect("out")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|e| e == "ktest"))
        .expect("the divergence's .ktest");
    let exec = penumbra(["exec".as_ref(), file.path.as_os_str(), "--ktest".as_ref(), ktest.as_os_str()]);
    exec.assert_no_panic();
    exec.assert_status(7);
    assert_eq!(exec.stdout, b"\xfe|\n");
}

/// The processes running `exe` (by their `/proc/PID/exe`).
fn processes_of(exe: &Path) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else { continue };
        if std::fs::read_link(entry.path().join("exe")).is_ok_and(|p| p == exe) {
            found.push(pid);
        }
    }
    found
}

/// Whether a process is replay's start-up probe (its environment says so), or already gone.
fn is_probe(pid: i32) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .map_or(true, |env| env.split(|&b| b == 0).any(|var| var == b"PENUMBRA_REPLAY_PROBE=1"))
}

/// Kills every run of a program when dropped: a failing test leaves no loop behind.
struct Reaper(std::path::PathBuf);

impl Drop for Reaper {
    fn drop(&mut self) {
        for pid in processes_of(&self.0) {
            // SAFETY: a signal to a process of ours that runs the test's own program.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

/// Replay on prebuilt executables that never end (the replay runtime linked in, so they start):
/// a SIGTERM stops the replay at once (not after the run's timeout) and reports what was not
/// replayed; a SIGKILL leaves no run of the program behind.
#[test]
fn an_interrupted_or_killed_replay_leaves_no_program_running() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("threshold.c");
    std::fs::copy(repo_root().join("examples/threshold.c"), &source).unwrap();
    let out = dir.path().join("out");
    penumbra(["shadow", source.to_str().unwrap(), "--output-dir", out.to_str().unwrap()]).assert_status(0);
    let looper = dir.path().join("looper.c");
    std::fs::write(&looper, "int main(void) { for (;;) {} }\n").unwrap();
    // Canonical, as /proc/PID/exe names it.
    let exe = dir.path().canonicalize().unwrap().join("looper");
    let _reaper = Reaper(exe.clone());
    crate::support::native_with_runtime(&looper, "OLD", &exe);
    for signal in [libc::SIGTERM, libc::SIGKILL] {
        let replay = std::process::Command::new(crate::support::penumbra_bin())
            .args(["replay", out.to_str().unwrap(), "--timeout", "120", "--jobs", "1", "--native-old"])
            .arg(&exe)
            .arg("--native-new")
            .arg(&exe)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        // A run of a test, not the start-up probe (a signal during the probe stops the replay
        // before any test, which is not what this test is about).
        while processes_of(&exe).into_iter().all(is_probe) {
            assert!(started.elapsed().as_secs() < 60, "the replay never ran the program");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(replay.id() as i32, signal) };
        let output = replay.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(started.elapsed().as_secs() < 60, "the replay went on after the signal: {stderr}");
        if signal == libc::SIGTERM {
            assert_eq!(output.status.code(), Some(0), "{stderr}");
            assert!(stderr.contains("replay interrupted: 1 of 1 tests were not replayed"), "{stderr}");
            let report: Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
            assert_eq!((report["not_replayed"].as_u64(), report["tests"].as_array().map(Vec::len)), (Some(1), Some(0)));
        }
        let gone = std::time::Instant::now();
        while !processes_of(&exe).is_empty() {
            assert!(gone.elapsed().as_secs() < 10, "a run of the program outlived the replay (signal {signal})");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// The flags scripts build native executables with (`--native-old`, `--native-new`) come from
/// the binary, which compiles with them itself (unit test in `replay/native.rs`).
#[test]
fn replay_prints_its_build_flags() {
    let out = penumbra(["replay", "--print-build-flags"]);
    out.assert_status(0);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "cflags: -O0 -g -fwrapv -fsanitize=address,undefined -fsanitize-recover=undefined\n\
         ldflags: -fsanitize=address,undefined\n"
    );
    // Nothing else goes with it, and without it OUTDIR is required.
    assert_eq!(penumbra(["replay", "--print-build-flags", "somewhere"]).status, Some(2));
    assert_eq!(penumbra(["replay"]).status, Some(2));
}
