//! `penumbra run` from the command line: the JSON summary with exact counts, the output
//! directory, replaying a test with `penumbra exec --ktest`, the human summary, and bad input.

use crate::support::{penumbra, write_c, EXIT_PROGRAM_ERROR, EXIT_USAGE};

const PROGRAM: &str = r#"#include <penumbra.h>
#include <stdio.h>
int main(void) {
    char b[3];
    penumbra_make_symbolic(b, sizeof b, "b");
    int n = 0;
    for (int i = 0; i < 3; i++)
        if (b[i] == 'x') n++;
    printf("n=%d\n", n);
    if (n == 3)
        return 10 / (b[0] - 'x');
    return n;
}
"#;

fn json(out: &crate::support::Output) -> serde_json::Value {
    out.assert_no_panic();
    out.assert_status(0);
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}):\n{}", out.stdout_str()))
}

#[test]
fn run_json_reports_exact_counts_and_replayable_tests() {
    let file = write_c("count.c", PROGRAM);
    let out = penumbra(["run".as_ref(), file.path.as_os_str(), "--json".as_ref(), "--all-ktests".as_ref()]);
    let v = json(&out);
    // 2^3 combinations of b[i] == 'x'; all three 'x' divides by zero
    assert_eq!(v["paths_completed"], 7);
    assert_eq!(v["errors"], 1);
    assert_eq!(v["error_kinds"]["division-by-zero"], 1);
    assert_eq!(v["tests"].as_array().unwrap().len(), 8);
    assert!(v["states"].as_u64().unwrap() >= 8);
    assert!(v["instructions"].as_u64().unwrap() > 0);
    assert!(v["wall_s"].as_f64().is_some());
    for key in ["queries", "core_queries", "time_s"] {
        assert!(v["solver"][key].is_number(), "solver.{key} missing: {}", v["solver"]);
    }
    for cache in ["independence", "query_cache", "cex_cache"] {
        assert!(v["solver"][cache]["hits"].is_u64(), "solver.{cache}.hits missing");
    }
    let out_dir = file.dir.path().join("penumbra-out-0");
    assert!(file.dir.path().join("penumbra-last").exists());
    // Each test says when it was found, in the order found; the test files do not (they stay
    // byte-identical from run to run).
    let times: Vec<f64> = v["tests"].as_array().unwrap().iter().map(|t| t["time_s"].as_f64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]) && times[7] <= v["wall_s"].as_f64().unwrap(), "{times:?}");
    let sidecar = std::fs::read_to_string(out_dir.join("tests.jsonl")).unwrap();
    assert_eq!(sidecar.lines().count(), 8);
    assert!(!sidecar.contains("time_s"), "{sidecar}");
    // every test replays with `exec --ktest` to its recorded outcome
    for t in v["tests"].as_array().unwrap() {
        let ktest = out_dir.join(t["ktest"].as_str().unwrap());
        let replay = penumbra(["exec".as_ref(), file.path.as_os_str(), "--ktest".as_ref(), ktest.as_os_str()]);
        replay.assert_no_panic();
        match t["kind"].as_str().unwrap() {
            "path" => {
                let code = t["exit_code"].as_i64().unwrap();
                replay.assert_status(code as i32);
                assert_eq!(replay.stdout_str(), format!("n={code}\n"));
            }
            "error" => {
                replay.assert_status(EXIT_PROGRAM_ERROR);
                assert!(replay.stderr.contains("division-by-zero"), "{}", replay.stderr);
                assert!(replay.stderr.contains(":11"), "{}", replay.stderr);
            }
            other => panic!("unexpected test kind {other}"),
        }
    }
}

#[test]
fn run_is_deterministic_and_prints_a_human_summary() {
    let file = write_c("count.c", PROGRAM);
    let run = |dir: &str| {
        let out = penumbra([
            "run".as_ref(),
            file.path.as_os_str(),
            "--output-dir".as_ref(),
            file.dir.path().join(dir).as_os_str(),
            "--replay-check".as_ref(),
        ]);
        out.assert_no_panic();
        out.assert_status(0);
        out.stdout_str()
    };
    let first = run("a");
    run("b");
    assert!(first.contains("paths completed") && first.contains("replay check: 0 of 8 tests differ"), "{first}");
    let mut names: Vec<_> =
        std::fs::read_dir(file.dir.path().join("a")).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    // Without --all-ktests only the error has a .ktest; every test is in tests.jsonl.
    assert_eq!(names.len(), 3, "the error's .ktest file, tests.jsonl and run.json: {names:?}");
    assert!(names.iter().any(|n| n == "run.json"), "{names:?}");
    for name in names {
        let a = std::fs::read(file.dir.path().join("a").join(&name)).unwrap();
        let b = std::fs::read(file.dir.path().join("b").join(&name)).unwrap();
        assert!(a == b, "{name:?} differs between two runs");
    }
}

#[test]
fn run_with_symbolic_arguments_and_budgets() {
    let file = write_c(
        "args.c",
        r#"#include <string.h>
int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "go") == 0) return 1;
    return 0;
}
"#,
    );
    let out = penumbra([
        "run".as_ref(),
        file.path.as_os_str(),
        "--json".as_ref(),
        "--no-tests".as_ref(),
        "--sym-arg".as_ref(),
        "3".as_ref(),
        "--max-paths".as_ref(),
        "2".as_ref(),
    ]);
    let v = json(&out);
    assert_eq!(v["tests"].as_array().unwrap().len(), 2);
    assert_eq!(v["stopped_by"], "max-paths");
    assert!(v["unexplored_states"].as_u64().unwrap() > 0);
    assert_eq!(v["tests"][0]["inputs"]["arg00"]["hex"].as_str().unwrap().len(), 8);
    assert!(!file.dir.path().join("penumbra-out-0").exists());
}

#[test]
fn bad_input_is_a_clear_error() {
    let missing = penumbra(["run", "/nonexistent/x.c"]);
    missing.assert_no_panic();
    missing.assert_status(EXIT_USAGE);
    assert!(missing.stderr.contains("no such file"), "{}", missing.stderr);
    let file = write_c("bad.c", "int main(void) { return 0 }\n");
    let out = penumbra(["run".as_ref(), file.path.as_os_str()]);
    out.assert_no_panic();
    out.assert_status(EXIT_USAGE);
    let file = write_c("ok.c", "int main(void) { return 0; }\n");
    let out = penumbra([
        "run".as_ref(),
        file.path.as_os_str(),
        "--sym-args".as_ref(),
        "3".as_ref(),
        "1".as_ref(),
        "2".as_ref(),
    ]);
    out.assert_no_panic();
    out.assert_status(EXIT_USAGE);
    let garbage = write_c("t.ktest", "not a ktest");
    let out = penumbra(["exec".as_ref(), file.path.as_os_str(), "--ktest".as_ref(), garbage.path.as_os_str()]);
    out.assert_no_panic();
    out.assert_status(EXIT_USAGE);
}

/// Durations too large for a deadline are clamped (a century is no limit), not a panic; those
/// that are no durations are usage errors.
#[test]
fn huge_durations_are_clamped_and_bad_ones_refused() {
    let file = write_c("durations.c", PROGRAM);
    let path = file.path.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out_s = out.to_str().unwrap();
    let runs: [&[&str]; 4] = [
        &["run", path, "--max-time", "1e20", "--no-tests"],
        &["shadow", path, "--mode", "seeded", "--seed", "b=str:xy", "--bse-budget", "1e300", "--no-tests"],
        &["shadow", path, "--output-dir", out_s, "--replay", "--replay-timeout", "1e20"],
        &["replay", out_s, "--timeout", "1e20"],
    ];
    for args in runs {
        let r = penumbra(args);
        r.assert_no_panic();
        assert_eq!(r.status, Some(0), "{args:?}: {}", r.stderr);
    }
    for bad in ["nan", "-1", "inf"] {
        let flag = format!("--max-time={bad}");
        let r = penumbra(["run", path, &flag, "--no-tests"]);
        r.assert_no_panic();
        assert_eq!(r.status, Some(EXIT_USAGE), "--max-time {bad}: {}", r.stderr);
        assert!(r.stderr.contains("--max-time expects a number of seconds"), "{}", r.stderr);
    }
}

/// SIGINT or SIGTERM ends a run as a budget would: the test being written is finished, the
/// summary says `interrupted`, and the directory has `run.json` and one record per `.ktest`.
#[test]
fn an_interrupted_run_leaves_a_complete_directory() {
    let file = write_c("long.c", crate::support::MILLIONS_OF_PATHS);
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let process = std::process::Command::new(crate::support::penumbra_bin())
            .arg("run")
            .arg(&file.path)
            .args(["--json", "--all-ktests", "--max-time", "60", "--max-paths", "5000000", "--output-dir"])
            .arg(&out)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Interrupt once exploring has written its first test (compiling may take a while).
        let started = std::time::Instant::now();
        while std::fs::read_to_string(out.join("tests.jsonl")).map_or(true, |s| !s.contains('\n')) {
            assert!(started.elapsed().as_secs() < 60, "no test written within a minute");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
        // SAFETY: the pid is our own running child.
        unsafe { libc::kill(process.id() as libc::pid_t, signal) };
        // Read while waiting: the JSON summary lists every test and outgrows a pipe's buffer.
        let output = process.wait_with_output().unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(0), "signal {signal}");
        let summary: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON summary");
        assert_eq!(summary["stopped_by"], "interrupted", "signal {signal}");
        let ktests = std::fs::read_dir(&out)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension() == Some("ktest".as_ref()))
            .count();
        let records = std::fs::read_to_string(out.join("tests.jsonl")).unwrap().lines().count();
        assert!(ktests > 0 && ktests == records, "signal {signal}: {ktests} .ktest files, {records} records");
        assert_eq!(summary["tests_count"].as_u64(), Some(records as u64));
        assert!(out.join("run.json").is_file(), "signal {signal}");
    }
}

/// Filling or copying a large buffer costs a pointer per 1,024 bytes, not a term per byte:
/// `memset` of 128 MiB explores all its paths under `--max-memory 200` (it took 1 GiB).
#[test]
fn a_large_memset_fits_the_memory_budget() {
    let file = write_c(
        "memset.c",
        r#"#include <penumbra.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
    char *p = malloc(128 << 20), *q = malloc(128 << 20);
    if (!p || !q) return 2;
    memset(p, 7, 128 << 20);
    memcpy(q, p, 128 << 20);
    int k;
    penumbra_make_symbolic(&k, sizeof k, "k");
    if (k > 5 && k < (128 << 20)) return q[k];
    return 0;
}
"#,
    );
    let r = penumbra(["run", file.path.to_str().unwrap(), "--max-memory", "200", "--no-tests", "--json"]);
    r.assert_no_panic();
    assert_eq!(r.status, Some(0), "{}", r.stderr);
    let summary: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(summary["stopped_by"], serde_json::Value::Null);
    assert_eq!(summary["paths_completed"], 3);
    let mut exits: Vec<i64> =
        summary["tests"].as_array().unwrap().iter().map(|t| t["exit_code"].as_i64().unwrap()).collect();
    exits.sort();
    assert_eq!(exits, [0, 0, 7]);
    assert!(summary["peak_rss_mb"].as_f64().unwrap() < 200.0, "{}", summary["peak_rss_mb"]);
}

/// `penumbra exec --stdin FILE` feeds the program FILE's bytes (`-`: exec's own standard
/// input); without it standard input is empty, whatever exec's own is.
#[test]
fn exec_reads_standard_input_only_when_told() {
    let file = write_c(
        "cat2.c",
        "#include <stdio.h>\nint main(void) {\n    int a = getchar(), b = getchar();\n    printf(\"%d %d\\n\", a, b);\n    return 0;\n}\n",
    );
    let input = file.dir.path().join("input");
    std::fs::write(&input, b"\xffz").unwrap();
    let from_file = penumbra(["exec".as_ref(), file.path.as_os_str(), "--stdin".as_ref(), input.as_os_str()]);
    from_file.assert_no_panic();
    from_file.assert_status(0);
    assert_eq!(from_file.stdout_str(), "255 122\n");
    let mut cmd = std::process::Command::new(crate::support::penumbra_bin());
    cmd.args(["exec".as_ref(), file.path.as_os_str(), "--stdin".as_ref(), "-".as_ref()]);
    let child = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.as_ref().unwrap(), b"q").unwrap();
    let piped = child.wait_with_output().unwrap();
    assert_eq!((piped.status.code(), piped.stdout.as_slice()), (Some(0), b"113 -1\n".as_slice()));
    let empty = penumbra(["exec".as_ref(), file.path.as_os_str()]);
    assert_eq!(empty.stdout_str(), "-1 -1\n");
    let missing = penumbra(["exec".as_ref(), file.path.as_os_str(), "--stdin".as_ref(), "/no/such/file".as_ref()]);
    missing.assert_no_panic();
    assert_ne!(missing.status, Some(0));
    assert!(missing.stderr.contains("--stdin: cannot read /no/such/file"), "{}", missing.stderr);
}

/// A query log that cannot be created is said in one line, its cause once.
#[test]
fn a_query_log_that_cannot_be_created_is_one_line() {
    let file = write_c("count.c", PROGRAM);
    let log = file.dir.path().join("missing").join("q.smt2");
    let out = penumbra([
        "run".as_ref(),
        file.path.as_os_str(),
        "--no-tests".as_ref(),
        "--query-log".as_ref(),
        log.as_os_str(),
    ]);
    out.assert_no_panic();
    assert_eq!(out.status, Some(EXIT_USAGE));
    assert_eq!(
        out.stderr.trim_end(),
        format!(
            "penumbra: error: symbolic execution failed: solver failure: query log {}: No such file or directory (os error 2)",
            log.display()
        )
    );
}

/// A program "file" that is a directory or a device is named for what it is.
#[test]
fn a_directory_or_a_device_is_not_called_a_missing_file() {
    let dir = tempfile::tempdir().unwrap();
    for (path, what) in [(dir.path(), "a directory"), (std::path::Path::new("/dev/null"), "a character device")] {
        for command in ["shadow", "run", "exec"] {
            let out = penumbra([command.as_ref(), path.as_os_str()]);
            out.assert_no_panic();
            assert_eq!(out.status, Some(EXIT_USAGE));
            assert_eq!(
                out.stderr.trim_end(),
                format!("penumbra: error: cannot read {}: it is {what}, not a regular file", path.display()),
                "{command}"
            );
        }
    }
}
