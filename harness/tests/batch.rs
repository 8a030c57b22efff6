//! `penumbra batch`: a small manifest (two bundled examples x complete and seeded modes x caches
//! on and off, one subject replayed and classified) gives the tables and plots with the exact
//! diff-path counts and classes; a rerun recomputes nothing, an interrupted batch (`--limit`,
//! a lost record) completes without recomputing what finished, and shards merge into the same
//! table as one run; jobs over their time or memory limit are killed and recorded as such, and
//! a job whose disk fills or that is killed from outside is recorded with its cause while the
//! rest of the batch goes on.

use crate::support::{penumbra, penumbra_bin, repo_root, run_command};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const MANIFEST: &str = r#"
name = "mini"

[defaults]
mode = ["complete", "seeded"]
configs = ["caches-on", "caches-off"]
max_time = 120

[[subject]]
name = "foo"
source = "foo.c"
seeds = ["x=-1"]
expected_diff_paths = 2

[[subject]]
name = "threshold"
source = "threshold.c"
seeds = ["x=7"]
expected_diff_paths = 1
replay = true
"#;

/// A directory with the manifest and the two examples it names.
fn batch_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["foo.c", "threshold.c"] {
        std::fs::copy(repo_root().join("examples").join(name), dir.path().join(name)).unwrap();
    }
    std::fs::write(dir.path().join("manifest.toml"), MANIFEST).unwrap();
    dir
}

/// Runs `penumbra batch` with `args` on the manifest of `dir`; returns stderr.
fn batch(dir: &Path, args: &[&str]) -> String {
    succeeds(batch_command(dir, args))
}

/// The command `batch` runs, for a test that adds to it.
fn batch_command(dir: &Path, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new(penumbra_bin());
    command.arg("batch").arg(dir.join("manifest.toml")).args(["--jobs", "2"]).args(args);
    command
}

/// Runs `command`, which must succeed without a panic; returns stderr.
fn succeeds(command: std::process::Command) -> String {
    let out = run_command(command);
    out.assert_no_panic();
    out.assert_status(0);
    out.stderr
}

/// Every job record of a results directory, by file name, as bytes (a record being written,
/// `.ID.json.tmp`, is not one yet).
fn records(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(out.join("jobs")) else { return BTreeMap::new() };
    entries
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect()
}

/// `results.csv` as rows of column -> value.
pub fn table(out: &Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines.map(|l| header.iter().map(|h| h.to_string()).zip(l.split(',').map(str::to_string)).collect()).collect()
}

/// The table without the columns that measure time and memory.
pub fn stable_table(out: &Path) -> Vec<BTreeMap<String, String>> {
    let mut rows = table(out);
    for row in &mut rows {
        for volatile in ["first_difference_s", "solver_time_s", "engine_s", "wall_s", "peak_rss_mb"] {
            assert!(row.remove(volatile).is_some(), "column {volatile}");
        }
    }
    rows
}

fn out_dir(dir: &Path, name: &str) -> PathBuf {
    dir.join(name)
}

#[test]
fn batch_writes_tables_and_plots_with_exact_counts_and_classes() {
    let dir = batch_dir();
    let out = out_dir(dir.path(), "all");
    let log = batch(dir.path(), &["--out", out.to_str().unwrap()]);
    assert!(log.contains("batch mini: 8 jobs; 0 already finished, running 8"), "{log}");

    let rows = table(&out);
    let got: Vec<(String, String, String, String, String)> = rows
        .iter()
        .map(|r| {
            let g = |k: &str| r.get(k).unwrap_or_else(|| panic!("column {k}: {r:?}")).clone();
            (g("subject"), g("mode"), g("config"), g("outcome"), g("diff_paths"))
        })
        .collect();
    let row = |s: &str, m: &str, c: &str, d: &str| (s.into(), m.into(), c.into(), "ok".into(), d.into());
    // Complete mode finds every diff path. Seeded mode from foo's x = -1 finds only x = -1
    // (the seed's prefix x < 0 hides x = 0: the paper's first limitation); from threshold's
    // x = 7 it finds the one.
    assert_eq!(
        got,
        vec![
            row("foo", "complete", "caches-off", "2"),
            row("foo", "complete", "caches-on", "2"),
            row("foo", "seeded", "caches-off", "1"),
            row("foo", "seeded", "caches-on", "1"),
            row("threshold", "complete", "caches-off", "1"),
            row("threshold", "complete", "caches-on", "1"),
            row("threshold", "seeded", "caches-off", "1"),
            row("threshold", "seeded", "caches-on", "1"),
        ]
    );
    for r in &rows {
        // The expectation is complete mode's count: seeded rows leave it empty.
        let expected = match (r["mode"].as_str(), r["subject"].as_str()) {
            ("complete", "foo") => "2",
            ("complete", _) => "1",
            _ => "",
        };
        assert_eq!(r["expected_diff_paths"], expected, "{r:?}");
        // Only threshold is replayed: its one divergence prints 1 in old and 0 in new.
        let classified = if r["subject"] == "threshold" { "1" } else { "" };
        assert_eq!(r["class_output-diff"], classified, "{r:?}");
        // Caches off: every query reaches Bitwuzla.
        if r["config"] == "caches-off" {
            assert_eq!(r["queries"], r["core_queries"], "{r:?}");
        }
        // Every class has its column whether or not it occurs: zero where replayed.
        for class in ["unconfirmed", "regression", "both-error", "fix", "expected", "silent", "replay-failed"] {
            let zero = if r["subject"] == "threshold" { "0" } else { "" };
            assert_eq!(r[&format!("class_{class}")], zero, "{class}: {r:?}");
        }
        // foo's complete run asks three four-way questions (x * x against 0 and 25, x == 0);
        // with the caches on none of them reaches Bitwuzla.
        if (r["subject"].as_str(), r["mode"].as_str()) == ("foo", "complete") {
            assert_eq!(r["four_way_checks"], "3", "{r:?}");
            let without = if r["config"] == "caches-on" { "3" } else { "0" };
            assert_eq!(r["four_way_without_bitwuzla"], without, "{r:?}");
        }
    }

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(json["batch"], "mini");
    let json_rows = json["rows"].as_array().expect("results.json has rows");
    assert_eq!(json_rows.len(), 8);
    // The same table as the CSV, with numbers as numbers and empty cells as null.
    for (j, r) in json_rows.iter().zip(&rows) {
        assert_eq!(j["subject"], r["subject"].as_str());
        assert_eq!(j["diff_paths"].as_u64().map(|n| n.to_string()).as_deref(), Some(r["diff_paths"].as_str()));
        if r["class_output-diff"].is_empty() {
            assert!(j["class_output-diff"].is_null(), "{j}");
        }
    }

    for plot in ["diff_paths.svg", "wall_time.svg", "engine_time.svg", "divergences_over_time.svg"] {
        let svg = std::fs::read_to_string(out.join(plot)).unwrap();
        assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{plot}: {}", &svg[..svg.len().min(80)]);
        assert!(svg.trim_end().ends_with("</svg>"), "{plot}");
        assert!(svg.contains("threshold") || plot == "divergences_over_time.svg", "{plot} names the subjects");
    }
    // The batch's page lists every job, links the replayed one's page (its one cluster: the
    // output difference at threshold.c's divergence) and holds the plots.
    let index = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(index.matches("<tr><td>").count(), 8, "{index}");
    assert_eq!(index.matches("<a href=\"reports/").count(), 4, "the four threshold jobs: {index}");
    assert!(index.contains("<span class=\"output-diff\">output-diff</span> at threshold.c:"), "{index}");
    assert_eq!(index.matches("<svg").count(), 4, "{index}");
    let pages: Vec<_> = std::fs::read_dir(out.join("reports")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(pages.len(), 8, "a page and clusters.json per replayed job: {pages:?}");
    // Every test carries the time it was found at: nothing on the time plot is approximated.
    let over_time = std::fs::read_to_string(out.join("divergences_over_time.svg")).unwrap();
    assert!(!over_time.contains("approximated"), "{over_time}");
}

#[test]
fn an_interrupted_batch_completes_without_recomputing_finished_jobs() {
    let dir = batch_dir();
    let out = out_dir(dir.path(), "resumed");
    let out_arg = out.to_str().unwrap();

    // Stopped after three jobs (as a kill after three would leave it) ...
    let log = batch(dir.path(), &["--out", out_arg, "--limit", "3"]);
    assert!(log.contains("5 jobs left for a later run"), "{log}");
    let first = records(&out);
    assert_eq!(first.len(), 3);

    // ... the rerun runs the other five and leaves the three records as they were (each holds
    // its wall time, so a recomputed job would not be byte-identical).
    let log = batch(dir.path(), &["--out", out_arg]);
    assert!(log.contains("3 already finished, running 5"), "{log}");
    let all = records(&out);
    assert_eq!(all.len(), 8);
    for (name, bytes) in &first {
        assert_eq!(&all[name], bytes, "{name} was recomputed");
    }

    // A record lost with a kill mid-write is the one job that runs again.
    let lost = all.keys().nth(4).unwrap().clone();
    std::fs::remove_file(out.join("jobs").join(&lost)).unwrap();
    let log = batch(dir.path(), &["--out", out_arg]);
    assert!(log.contains("7 already finished, running 1"), "{log}");
    let again = records(&out);
    for (name, bytes) in &all {
        if name != &lost {
            assert_eq!(&again[name], bytes, "{name} was recomputed");
        }
    }
    assert!(again.contains_key(&lost));

    // With nothing left, nothing runs.
    let log = batch(dir.path(), &["--out", out_arg]);
    assert!(log.contains("8 already finished, running 0"), "{log}");
    assert_eq!(records(&out), again);
}

#[test]
fn shards_merge_into_the_table_of_one_run() {
    let dir = batch_dir();
    let whole = out_dir(dir.path(), "whole");
    batch(dir.path(), &["--out", whole.to_str().unwrap()]);
    let (a, b, merged) = (out_dir(dir.path(), "a"), out_dir(dir.path(), "b"), out_dir(dir.path(), "merged"));
    batch(dir.path(), &["--out", a.to_str().unwrap(), "--shard", "1/2"]);
    batch(dir.path(), &["--out", b.to_str().unwrap(), "--shard", "2/2"]);
    let (ra, rb) = (records(&a), records(&b));
    assert_eq!((ra.len(), rb.len()), (4, 4));
    assert!(ra.keys().all(|k| !rb.contains_key(k)), "the shards share no job");

    let out = penumbra(["batch", "merge", a.to_str().unwrap(), b.to_str().unwrap(), "--out", merged.to_str().unwrap()]);
    out.assert_status(0);
    assert_eq!(stable_table(&merged), stable_table(&whole));
    assert!(merged.join("diff_paths.svg").exists());
}

/// A batch killed (SIGKILL) while a job runs keeps the records of the jobs that finished, and a
/// rerun completes it without running them again.
#[test]
fn a_killed_batch_completes_without_recomputing_finished_jobs() {
    let dir = batch_dir();
    // Four quick jobs, then one that takes seconds (a long concrete loop): the batch is still
    // running it when the test kills the batch.
    std::fs::write(
        dir.path().join("slow.c"),
        "int main(void) { unsigned s = 0; for (unsigned i = 0; i < 5000000; i++) s += i; return s & 1; }\n",
    )
    .unwrap();
    let manifest = format!(
        "{MANIFEST}\n[[subject]]\nname = \"zslow\"\nsource = \"slow.c\"\nmode = [\"complete\"]\nconfigs = [\"caches-on\"]\n"
    )
    .replace("configs = [\"caches-on\", \"caches-off\"]", "configs = [\"caches-on\"]");
    std::fs::write(dir.path().join("manifest.toml"), manifest).unwrap();
    let out = out_dir(dir.path(), "killed");

    let mut child = std::process::Command::new(crate::support::penumbra_bin())
        .args(["batch", dir.path().join("manifest.toml").to_str().unwrap(), "--jobs", "1"])
        .args(["--out", out.to_str().unwrap()])
        // A batch killed cannot remove its jobs' scratch directories: they go in the test's.
        .env("TMPDIR", dir.path())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while records(&out).len() < 4 {
        assert!(started.elapsed() < std::time::Duration::from_secs(120), "the quick jobs did not finish");
        assert!(child.try_wait().unwrap().is_none(), "the batch ended before the slow job was killed");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // The job it was running died with it: no process runs in the batch's directory any more.
    let here = dir.path().canonicalize().unwrap();
    let orphans = || {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| std::fs::read_link(e.unwrap().path().join("cwd")).ok())
            .filter(|cwd| *cwd == here)
            .count()
    };
    let killed = std::time::Instant::now();
    while orphans() > 0 {
        assert!(killed.elapsed() < std::time::Duration::from_secs(2), "the slow job outlived its batch");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let before = records(&out);
    assert_eq!(before.len(), 4, "{:?}", before.keys());
    assert!(!before.keys().any(|k| k.starts_with("zslow")), "{:?}", before.keys());

    let log = batch(dir.path(), &["--out", out.to_str().unwrap()]);
    assert!(log.contains("5 jobs; 4 already finished, running 1"), "{log}");
    let after = records(&out);
    assert_eq!(after.len(), 5);
    for (name, bytes) in &before {
        assert_eq!(&after[name], bytes, "{name} was recomputed");
    }
    let rows = table(&out);
    let slow = rows.iter().find(|r| r["subject"] == "zslow").expect("the slow job's row");
    assert_eq!((slow["outcome"].as_str(), slow["diff_paths"].as_str()), ("ok", "0"));
}

/// A job over its time limit and a job over its memory limit are killed and recorded as
/// `timeout` and `memory-out`, with no counts; the batch itself succeeds, and a rerun does not
/// run them again (a limit reached is a result, not a failure to retry).
#[test]
fn jobs_over_their_limits_are_killed_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    // A change, then 2^40 paths: runs until something stops it. DFS keeps memory flat, so
    // only the time limit stops `spin`; `hog` gets a 1 MiB limit, below any process's RSS, and
    // no limit of its own (a job's run otherwise stops itself at 7/8 of the job's limit).
    std::fs::write(
        dir.path().join("paths.c"),
        "#include \"penumbra.h\"\nint main(void) { unsigned char b[40]; penumbra_make_symbolic(b, sizeof b, \"b\");\n\
         int n = change(b[0] > 5, b[0] > 10); for (int i = 0; i < 40; i++) if (b[i] > 100) n++; return n; }\n",
    )
    .unwrap();
    let manifest = r#"
name = "limits"
[defaults]
mode = ["complete"]
configs = ["caches-on"]
[[subject]]
name = "hog"
source = "paths.c"
max_time = 60
max_memory_mb = 1
flags = ["--max-memory", "0"]
[[subject]]
name = "spin"
source = "paths.c"
max_time = 1
"#;
    std::fs::write(dir.path().join("manifest.toml"), manifest).unwrap();
    let out = out_dir(dir.path(), "limits");
    // The jobs' temporary files, even those of a job killed while compiling, are gone after.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut command = batch_command(dir.path(), &["--out", out.to_str().unwrap()]);
    command.env("TMPDIR", &tmp);
    let log = succeeds(command);
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    let rows = table(&out);
    let got: Vec<(&str, &str, &str, &str)> = rows
        .iter()
        .map(|r| (r["subject"].as_str(), r["outcome"].as_str(), r["diff_paths"].as_str(), r["states"].as_str()))
        .collect();
    assert_eq!(got, [("hog", "memory-out", "", ""), ("spin", "timeout", "", "")], "{log}");
    let spin_wall: f64 = rows[1]["wall_s"].parse().unwrap();
    assert!((1.0..30.0).contains(&spin_wall), "killed soon after its second: {spin_wall}");

    let log = batch(dir.path(), &["--out", out.to_str().unwrap()]);
    assert!(log.contains("2 already finished, running 0"), "{log}");
}

/// The threshold example as the job that must not notice what happens to the other.
const BYSTANDER: &str = r#"
[[subject]]
name = "threshold"
source = "threshold.c"
expected_diff_paths = 1
replay = true
"#;

/// A job whose tests fill their file system (a 4 MiB tmpfs as its scratch output directory)
/// stops writing as a budget would, replays what it wrote (its native builds were
/// made before it explored), and is recorded `ok` with `stopped_by = disk-space`; the next job
/// runs as usual.
#[test]
fn a_job_whose_disk_fills_is_recorded_with_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(repo_root().join("examples/threshold.c"), dir.path().join("threshold.c")).unwrap();
    // Every path diverges and carries a 16 KiB input: a few hundred tests fill 4 MiB.
    std::fs::write(
        dir.path().join("filler.c"),
        "#include \"penumbra.h\"\nint main(void) { unsigned char b[16]; static unsigned char big[16384];\n\
         penumbra_make_symbolic(b, sizeof b, \"b\"); penumbra_make_symbolic(big, sizeof big, \"big\");\n\
         int n = change(b[0] > 5, b[0] > 10); for (int i = 1; i < 16; i++) if (b[i] > 100) n++; return n; }\n",
    )
    .unwrap();
    let manifest = format!(
        "name = \"disk\"\n[defaults]\nmode = [\"complete\"]\nconfigs = [\"caches-on\"]\nmax_time = 120\n\
         [[subject]]\nname = \"filler\"\nsource = \"filler.c\"\nreplay = true\n{BYSTANDER}"
    );
    std::fs::write(dir.path().join("manifest.toml"), manifest).unwrap();
    let out = out_dir(dir.path(), "disk");
    let Some(_small) = crate::support::Tmpfs::mount(&out.join("tmp/filler.complete.caches-on.tests"), "4m") else {
        return;
    };
    // One job at a time: the filler's scratch directory is gone before the next job starts.
    let manifest = dir.path().join("manifest.toml");
    let run = penumbra(["batch", manifest.to_str().unwrap(), "--jobs", "1", "--out", out.to_str().unwrap()]);
    run.assert_no_panic();
    run.assert_status(0);

    let rows = table(&out);
    let (filler, bystander) = (&rows[0], &rows[1]);
    assert_eq!(
        (filler["subject"].as_str(), filler["outcome"].as_str(), filler["stopped_by"].as_str()),
        ("filler", "ok", "disk-space"),
        "{}",
        run.stderr
    );
    let written: u64 = filler["tests_divergence"].parse().unwrap();
    assert!(written >= 10, "{written} tests before the disk filled");
    // Every test it wrote was replayed: exit codes differ, so each is an output difference.
    assert_eq!(filler["class_output-diff"], written.to_string());
    assert_eq!(
        (bystander["subject"].as_str(), bystander["outcome"].as_str(), bystander["diff_paths"].as_str()),
        ("threshold", "ok", "1")
    );
    assert_eq!(bystander["stopped_by"], "");
}

/// A job killed by SIGKILL from outside the batch while it writes tests (the OOM killer, a
/// user) is recorded as `killed`, naming the signal, with the complete tests it left replayed
/// and classified; the other job finishes as usual.
#[test]
fn a_job_killed_mid_write_is_recorded_and_its_complete_tests_replayed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(repo_root().join("examples/threshold.c"), dir.path().join("threshold.c")).unwrap();
    // Every path diverges after a concrete loop of its own: a few tests a second.
    std::fs::write(
        dir.path().join("slow.c"),
        "#include \"penumbra.h\"\nint main(void) { unsigned char b[8]; penumbra_make_symbolic(b, sizeof b, \"b\");\n\
         int n = 0; for (int i = 0; i < 8; i++) if (b[i] == 'a') n++;\n\
         unsigned h = 0; for (unsigned i = 0; i < 1000000; i++) h = h * 31 + i;\n\
         return change(n, n + (int)(h & 1) + 1); }\n",
    )
    .unwrap();
    let manifest = format!(
        "name = \"killed\"\n[defaults]\nmode = [\"complete\"]\nconfigs = [\"caches-on\"]\nmax_time = 120\n\
         [[subject]]\nname = \"victim\"\nsource = \"slow.c\"\nreplay = true\n{BYSTANDER}"
    );
    std::fs::write(dir.path().join("manifest.toml"), manifest).unwrap();
    let out = out_dir(dir.path(), "killed");
    let mut batch = std::process::Command::new(crate::support::penumbra_bin())
        .arg("batch")
        .arg(dir.path().join("manifest.toml"))
        .args(["--jobs", "2", "--out"])
        .arg(&out)
        // The killed job's scratch directory stays: in the test's, not the machine's /tmp.
        .env("TMPDIR", dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();

    // Wait for the victim's first records, then kill it as the OOM killer would.
    let tests_dir = out.join("tmp/victim.complete.caches-on.tests");
    let started = std::time::Instant::now();
    let lines = || std::fs::read_to_string(tests_dir.join("tests.jsonl")).map_or(0, |t| t.lines().count());
    while lines() < 2 {
        assert!(started.elapsed().as_secs() < 60, "no test written within a minute");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let victim = job_pid(&tests_dir).expect("the victim's process");
    // SAFETY: kill has no memory effects; the pid is the victim job's, found just now.
    assert_eq!(unsafe { libc::kill(victim, libc::SIGKILL) }, 0);
    let mut stderr = String::new();
    std::io::Read::read_to_string(batch.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(batch.wait().unwrap().success(), "{stderr}");

    let rows = table(&out);
    let (victim, bystander) = (&rows[1], &rows[0]);
    assert_eq!((victim["subject"].as_str(), victim["outcome"].as_str()), ("victim", "killed"), "{stderr}");
    let replayed: u64 = victim["tests_divergence"].parse().unwrap();
    assert!(replayed >= 2, "{replayed}");
    // n against n + 1 or n + 2: every test's exit status differs.
    assert_eq!(victim["class_output-diff"], replayed.to_string());
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("jobs/victim.complete.caches-on.json")).unwrap()).unwrap();
    let error = record["error"].as_str().unwrap();
    assert!(
        error.starts_with(&format!(
            "killed by signal 9 (SIGKILL) from outside the batch; replayed the {replayed} complete tests it left"
        )),
        "{error}"
    );
    assert_eq!(record["signal"], 9);
    // The record names the build that ran the job, as `penumbra --version` does: the crate's
    // version and the commit it was built from.
    let version = String::from_utf8(penumbra(["--version"]).stdout).unwrap();
    let recorded = record["penumbra"].as_str().unwrap();
    assert_eq!(version.trim_end(), format!("penumbra {recorded}"));
    assert!(recorded.starts_with(&format!("{} (commit ", env!("CARGO_PKG_VERSION"))), "{recorded}");
    assert_eq!(
        (bystander["subject"].as_str(), bystander["outcome"].as_str(), bystander["diff_paths"].as_str()),
        ("threshold", "ok", "1")
    );
}

/// The pid of the `penumbra shadow` job writing its tests to `tests_dir`.
fn job_pid(tests_dir: &Path) -> Option<libc::pid_t> {
    let wanted = tests_dir.as_os_str().as_encoded_bytes();
    std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
        let pid: libc::pid_t = e.file_name().to_str()?.parse().ok()?;
        let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
        let args: Vec<&[u8]> = cmdline.split(|&b| b == 0).collect();
        (args.get(1) == Some(&&b"shadow"[..]) && args.contains(&wanted)).then_some(pid)
    })
}
