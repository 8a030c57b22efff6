//! What a run leaves on disk when writing goes wrong (issue 21): the default cap on tests, a
//! write that fails (a file-size limit), a file system that fills, and a run killed with
//! SIGKILL. Each leaves its summary, a `run.json`, and a directory `penumbra replay` accepts,
//! replaying exactly the complete tests.

use crate::support::{penumbra, penumbra_bin, run_command, write_c, Output, MILLIONS_OF_PATHS as HUGE};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// 4,096 diff paths whose records are each over 8 KB (a 4 KiB input in hex).
const WIDE: &str = r#"#include "penumbra.h"
int main(void) {
    char b[4096];
    penumbra_make_symbolic(b, sizeof b, "b");
    int n = 0;
    for (int i = 0; i < 12; i++)
        if (b[i * 300] == 'a') n++;
    return change(n, n + 1);
}
"#;

fn summary(out: &Output) -> Value {
    summary_ending(out, 0)
}

/// The `--json` summary of a run that ended with exit status `status`.
fn summary_ending(out: &Output, status: i32) -> Value {
    out.assert_no_panic();
    out.assert_status(status);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not one JSON object ({e}): {}", out.stdout_str()))
}

fn records(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("tests.jsonl")).unwrap().lines().count()
}

fn ktests(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().filter(|e| e.as_ref().unwrap().path().extension() == Some("ktest".as_ref())).count()
}

fn run_json(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

/// `penumbra replay DIR --json`: the classes of the tests it replayed, and its stderr.
fn replay(dir: &Path) -> (Vec<String>, String) {
    let out = penumbra(["replay".as_ref(), dir.as_os_str(), "--json".as_ref()]);
    out.assert_no_panic();
    out.assert_status(0);
    let tests: Value = serde_json::from_slice(&out.stdout).expect("a JSON array");
    let classes = tests.as_array().unwrap().iter().map(|t| t["class"].as_str().unwrap().to_string()).collect();
    (classes, out.stderr)
}

#[test]
fn the_default_cap_stops_a_run_of_millions_of_tests() {
    let file = write_c("huge.c", HUGE);
    let out_dir = file.dir.path().join("out");
    // Depth-first: the default search's live-state cap would drop most of the 2^24 paths
    // (followed to their ends one side at a time) before 100,000 tests.
    let args = ["run".as_ref(), file.path.as_os_str(), "--search".as_ref(), "dfs".as_ref()];
    let out = penumbra(args.into_iter().chain(["--output-dir".as_ref(), out_dir.as_os_str()]));
    out.assert_no_panic();
    out.assert_status(0);
    assert!(out.stdout_str().contains("stopped by max-tests"), "{}", out.stdout_str());
    assert!(out.stdout_str().contains("tests                   100000\n"), "{}", out.stdout_str());
    assert_eq!(records(&out_dir), 100_000);
    let info = run_json(&out_dir);
    assert_eq!((info["status"].as_str(), info["stopped_by"].as_str()), (Some("finished"), Some("max-tests")));
    assert_eq!(info["tests"], 100_000);
    // The summary's figures, without the tests.
    let summary = &info["summary"];
    assert_eq!((summary["tests_count"].as_u64(), summary["stopped_by"].as_str()), (Some(100_000), Some("max-tests")));
    assert!(summary["paths_completed"].as_u64() >= Some(100_000) && summary.get("tests").is_none(), "{summary}");
}

/// A test cap stops a shadow run at exactly that many tests, and replay replays them.
#[test]
fn a_capped_run_replays() {
    let file = write_c("wide.c", WIDE);
    let out_dir = file.dir.path().join("out");
    let s = summary(&penumbra([
        "shadow".as_ref(),
        file.path.as_os_str(),
        "--max-tests".as_ref(),
        "3".as_ref(),
        "--json".as_ref(),
        "--output-dir".as_ref(),
        out_dir.as_os_str(),
    ]));
    assert_eq!((s["stopped_by"].as_str(), s["tests_count"].as_u64()), (Some("max-tests"), Some(3)));
    assert_eq!((records(&out_dir), ktests(&out_dir)), (3, 3));
    let (classes, _) = replay(&out_dir);
    assert_eq!(classes, ["output-diff"; 3]);
}

/// A write that fails (here a file-size limit: `tests.jsonl` may not pass 64 KiB) stops the run
/// as a budget: `io-error`, the OS error said once, the sidecar cut back to whole records, the
/// summary and `run.json` written, and the directory replays; the run ends with an error.
#[test]
fn a_failed_write_stops_the_run_and_keeps_what_was_written() {
    let file = write_c("wide.c", WIDE);
    let out_dir = file.dir.path().join("out");
    let mut cmd = Command::new(penumbra_bin());
    cmd.arg("shadow").arg(&file.path).args(["--json", "--output-dir"]).arg(&out_dir);
    crate::support::limit_child(&mut cmd, libc::RLIMIT_FSIZE, 64 << 10);
    let out = run_command(cmd);
    let s = summary_ending(&out, EXIT_OUTPUT_ERROR);
    assert!(
        out.stderr.contains(&format!("penumbra: error: writing into {} failed", out_dir.display())),
        "{}",
        out.stderr
    );
    assert_eq!(s["stopped_by"], "io-error");
    let error = s["output_error"].as_str().unwrap();
    assert!(error.ends_with("tests.jsonl: File too large (os error 27)"), "{error}");
    let written = s["tests_count"].as_u64().unwrap();
    // 64 KiB hold 7 whole records of a little over 8 KiB.
    assert_eq!(written, 7);
    let sidecar = std::fs::read_to_string(out_dir.join("tests.jsonl")).unwrap();
    assert!(sidecar.ends_with('\n'));
    assert_eq!(sidecar.lines().count(), 7);
    assert_eq!(s["tests"].as_array().unwrap().len(), 7, "the summary lists the tests on disk");
    assert_eq!(run_json(&out_dir)["stopped_by"], "io-error");
    let (classes, stderr) = replay(&out_dir);
    assert_eq!(classes.len(), 7);
    // The .ktest files of the records that did not fit are left out, and said.
    let extra = ktests(&out_dir) - 7;
    assert!(extra >= 1, "{extra}");
    assert!(stderr.contains(&format!("left out {extra} .ktest file")), "{stderr}");
}

/// A file system that is nearly full: writing stops while a tenth of it is still free
/// (`disk-space`), so the summary and the final `run.json` fit. Needs a tmpfs mount (root).
#[test]
fn a_small_file_system_is_never_filled() {
    let file = write_c("huge.c", HUGE);
    let Some(mount) = crate::support::Tmpfs::mount(&file.dir.path().join("small"), "2m") else { return };
    let out_dir = mount.path().join("out");
    let s = summary(&penumbra([
        "run".as_ref(),
        file.path.as_os_str(),
        "--all-ktests".as_ref(),
        "--json".as_ref(),
        "--output-dir".as_ref(),
        out_dir.as_os_str(),
    ]));
    assert_eq!(s["stopped_by"], "disk-space");
    let written = s["tests_count"].as_u64().unwrap() as usize;
    assert!(written > 100, "{written}");
    assert_eq!((records(&out_dir), ktests(&out_dir)), (written, written));
    let info = run_json(&out_dir);
    assert_eq!((info["status"].as_str(), info["stopped_by"].as_str()), (Some("finished"), Some("disk-space")));
}

/// SIGKILL (what follows SIGTERM's grace period on clusters) leaves a directory replay accepts:
/// `run.json` says `running`, every record has its `.ktest`, and at most the one `.ktest` being
/// written when the signal came has no record.
#[test]
fn a_killed_run_leaves_a_replayable_directory() {
    // Each path runs a concrete loop of its own: a few paths a second.
    let file = write_c(
        "slow.c",
        r#"#include "penumbra.h"
int main(void) {
    unsigned char b[8];
    penumbra_make_symbolic(b, sizeof b, "b");
    int n = 0;
    for (int i = 0; i < 8; i++)
        if (b[i] == 'a') n++;
    unsigned h = 0;
    for (unsigned i = 0; i < 1000000; i++)
        h = h * 31 + i;
    return change(n, n + (int)(h & 1) + 1);
}
"#,
    );
    let out_dir = file.dir.path().join("out");
    let mut child = Command::new(penumbra_bin())
        .arg("shadow")
        .arg(&file.path)
        .args(["--max-time", "60", "--output-dir"])
        .arg(&out_dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !out_dir.join("tests.jsonl").is_file() || records(&out_dir) == 0 {
        assert!(started.elapsed().as_secs() < 60, "no test written within a minute");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_secs(1));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(run_json(&out_dir)["status"], "running");
    let (written, files) = (records(&out_dir), ktests(&out_dir));
    assert!(files == written || files == written + 1, "{files} .ktest files, {written} records");
    let (classes, stderr) = replay(&out_dir);
    assert_eq!(classes.len(), written);
    assert!(classes.iter().all(|c| c == "output-diff"), "{classes:?}");
    assert!(stderr.contains("did not finish (killed?)"), "{stderr}");
}

/// Exit status of `run` and `shadow` when writing into the output directory failed.
const EXIT_OUTPUT_ERROR: i32 = 74;

/// `penumbra shadow WIDE --output-dir DIR` (the human report, which says whether a divergence
/// was found).
fn shadow_wide_into(file: &crate::support::CFile, out_dir: &Path) -> Output {
    let out = penumbra(["shadow".as_ref(), file.path.as_os_str(), "--output-dir".as_ref(), out_dir.as_os_str()]);
    out.assert_no_panic();
    out
}

/// A file system full before the run starts (issue 35): the run cannot keep anything, so it
/// does not start, says why naming the directory, leaves the directory empty (a rerun may use
/// it) and never says "no divergence found"; `run` as `shadow`.
#[test]
fn a_full_disk_refuses_the_run_with_an_error() {
    let file = write_c("wide.c", WIDE);
    let Some(mount) = crate::support::Tmpfs::mount(&file.dir.path().join("small"), "4m") else { return };
    mount.fill_leaving(0);
    let out_dir = mount.path().join("out");
    for command in ["shadow", "run"] {
        let out = penumbra([command.as_ref(), file.path.as_os_str(), "--output-dir".as_ref(), out_dir.as_os_str()]);
        out.assert_no_panic();
        out.assert_status(EXIT_OUTPUT_ERROR);
        assert_eq!(
            out.stderr.trim_end(),
            format!(
                "penumbra: error: cannot start writing into {0}: cannot reserve space for {0}/run.json: No space left on device (os error 28)",
                out_dir.display()
            )
        );
        assert_eq!(out.stdout_str(), "", "{command}");
        assert_eq!(std::fs::read_dir(&out_dir).unwrap().count(), 0, "{command} leaves the directory empty");
    }
}

/// A file system that fills during the run (another writer took the space; here it is left
/// with just the room of `run.json`): the run stops at the first test that does not fit,
/// ends with an error naming the directory, and its `run.json` is whole and says `io-error`.
#[test]
fn a_disk_that_fills_ends_the_run_with_an_error_and_a_whole_run_json() {
    let file = write_c("wide.c", WIDE);
    let Some(mount) = crate::support::Tmpfs::mount(&file.dir.path().join("small"), "4m") else { return };
    // The 32 KiB reserved for the final run.json, a page for the first one, and one more page:
    // less than a test's `.ktest` file (a 4 KiB input and its header).
    mount.fill_leaving((32 << 10) + 8192);
    let out_dir = mount.path().join("out");
    let out = shadow_wide_into(&file, &out_dir);
    out.assert_status(EXIT_OUTPUT_ERROR);
    let dir = out_dir.display();
    assert_eq!(
        out.stderr.trim_end(),
        format!(
            "penumbra: error: writing into {dir} failed: cannot write {dir}/test000001.ktest: No space left on device (os error 28); \
             the run stopped there with 0 tests written; run.json says so (stopped_by io-error)"
        )
    );
    let stdout = out.stdout_str();
    assert!(stdout.contains("stopped by io-error"), "{stdout}");
    assert!(!stdout.contains("no divergence found"), "{stdout}");
    assert!(stdout.ends_with("1 diff paths, none written as a test before io-error stopped the run\n"), "{stdout}");
    let info = run_json(&out_dir);
    assert_eq!(
        (info["status"].as_str(), info["stopped_by"].as_str(), info["tests"].as_u64()),
        (Some("finished"), Some("io-error"), Some(0))
    );
    assert_eq!(
        info["summary"]["output_error"].as_str(),
        Some(format!("cannot write {dir}/test000001.ktest: No space left on device (os error 28)").as_str())
    );
    let mut left: Vec<String> =
        std::fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    left.sort();
    assert_eq!(left, ["run.json", "tests.jsonl"], "no reserve and no partial file is left");
}

/// A file system out of inodes (40: the mount's own, the output directory, `tests.jsonl`,
/// `run.json` and the space reserved for its last text leave 35 for `.ktest` files): the run
/// stops at the 36th test with an error naming the directory, and `run.json` is whole, says
/// `io-error` and counts the 35 tests on disk, which replay accepts.
#[test]
fn running_out_of_inodes_ends_the_run_with_an_error_and_a_whole_run_json() {
    let file = write_c("wide.c", WIDE);
    let Some(mount) = crate::support::Tmpfs::mount_with(&file.dir.path().join("few"), "size=20m,nr_inodes=40") else {
        return;
    };
    let out_dir = mount.path().join("out");
    let out = shadow_wide_into(&file, &out_dir);
    out.assert_status(EXIT_OUTPUT_ERROR);
    let dir = out_dir.display();
    assert_eq!(
        out.stderr.trim_end(),
        format!(
            "penumbra: error: writing into {dir} failed: cannot write {dir}/test000036.ktest: No space left on device (os error 28); \
             the run stopped there with 35 tests written; run.json says so (stopped_by io-error)"
        )
    );
    let stdout = out.stdout_str();
    assert!(stdout.contains("the first 25 of 35 tests"), "{stdout}");
    assert!(!stdout.contains("no divergence found"), "{stdout}");
    let info = run_json(&out_dir);
    assert_eq!(
        (info["status"].as_str(), info["stopped_by"].as_str(), info["tests"].as_u64()),
        (Some("finished"), Some("io-error"), Some(35))
    );
    assert_eq!((records(&out_dir), ktests(&out_dir)), (35, 35));
    assert!(!out_dir.join("run.json.reserve").exists() && !out_dir.join("run.json.part").exists());
}

/// A run refused for its environment (more symbolic bytes than `--max-sym-bytes`, issue 35)
/// is refused before its output directory is made: no directory whose `run.json` says
/// `running` for ever.
#[test]
fn a_refused_environment_makes_no_output_directory() {
    let file = write_c("empty.c", "int main(void) { return 0; }\n");
    let out_dir = file.dir.path().join("out");
    for command in ["run", "shadow"] {
        let out = penumbra([
            command.as_ref(),
            file.path.as_os_str(),
            "--sym-stdin".as_ref(),
            "100000000".as_ref(),
            "--output-dir".as_ref(),
            out_dir.as_os_str(),
        ]);
        out.assert_no_panic();
        out.assert_status(2);
        assert!(
            out.stderr.contains("make 100000000 symbolic bytes, more than --max-sym-bytes 262144"),
            "{command}: {}",
            out.stderr
        );
        assert!(!out_dir.exists(), "{command} made {}", out_dir.display());
    }
}

/// A run that fails after its directory was made (here the solver's query log cannot be
/// written) leaves a `run.json` that says `failed` and why, not `running`.
#[test]
fn a_run_that_fails_says_so_in_run_json() {
    let file = write_c(
        "product.c",
        r#"#include "penumbra.h"
int main(void) {
    int x, y;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_make_symbolic(&y, sizeof y, "y");
    if (x * y == 1234567)
        return 1;
    return 0;
}
"#,
    );
    let out_dir = file.dir.path().join("out");
    let out = penumbra([
        "run".as_ref(),
        file.path.as_os_str(),
        "--query-log".as_ref(),
        "/dev/full".as_ref(),
        "--output-dir".as_ref(),
        out_dir.as_os_str(),
    ]);
    out.assert_no_panic();
    out.assert_status(2);
    let info = run_json(&out_dir);
    assert_eq!(info["status"], "failed", "{info}");
    assert_eq!(
        info["error"],
        "symbolic execution failed: solver failure: query log /dev/full: No space left on device (os error 28)"
    );
}
