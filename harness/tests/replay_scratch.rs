//! Where replay writes (issue 35 item 4): never through a symbolic link out of the output
//! directory (a symlinked `OUTDIR/replay` is refused, a symlinked `report.json` is replaced,
//! not written through), and the scratch directories of a replay killed with SIGKILL (in
//! `OUTDIR/replay` for `penumbra replay`, in `$TMPDIR` for `shadow --replay`) are removed by
//! the next replay.

use crate::support::{penumbra, penumbra_bin, repo_root, run_command};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// threshold.c explored into `DIR/out`; returns `DIR/out`.
fn explored(dir: &Path) -> PathBuf {
    let source = dir.join("threshold.c");
    std::fs::copy(repo_root().join("examples/threshold.c"), &source).unwrap();
    let out = dir.join("out");
    penumbra(["shadow".as_ref(), source.as_os_str(), "--output-dir".as_ref(), out.as_os_str()]).assert_status(0);
    out
}

/// Every file under `dir` (not following links), by path relative to it, with its contents.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = PathBuf::from(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            files.extend(tree(&entry.path()).into_iter().map(|(p, b)| (name.join(p), b)));
        } else {
            files.insert(name, std::fs::read(entry.path()).unwrap());
        }
    }
    files
}

/// The names in `dir` that start with `prefix`.
fn named(dir: &Path, prefix: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|e| e.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.retain(|n| n.starts_with(prefix));
    names.sort();
    names
}

#[test]
fn replay_writes_nothing_through_a_symbolic_link() {
    let dir = tempfile::tempdir().unwrap();
    let out = explored(dir.path());
    // Somewhere else, holding files with the names replay gives its builds and scratch files.
    let elsewhere = dir.path().join("elsewhere");
    for file in ["old", "new", "probe.probe.stderr", "worker0/cwd/keep", "include/penumbra.h", "victim"] {
        let path = elsewhere.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("{file} is not replay's\n")).unwrap();
    }
    let before = tree(&elsewhere);

    std::os::unix::fs::symlink(&elsewhere, out.join("replay")).unwrap();
    let refused = penumbra(["replay".as_ref(), out.as_os_str()]);
    refused.assert_no_panic();
    refused.assert_status(2);
    let expected = format!(
        "penumbra: error: {} is a symbolic link (to {}): replay keeps its builds and scratch files in the output directory and follows no link out of it; remove the link\n",
        out.join("replay").display(),
        elsewhere.display()
    );
    assert_eq!(refused.stderr, expected);
    assert_eq!(tree(&elsewhere), before, "replay wrote or deleted through the link");

    // Without it, replay works; a `report.json` that is a link is replaced, not written through.
    std::fs::remove_file(out.join("replay")).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("victim"), out.join("report.json")).unwrap();
    let replayed = penumbra(["replay".as_ref(), out.as_os_str()]);
    replayed.assert_status(0);
    assert!(replayed.stdout_str().contains("1 output-diff"), "{}", replayed.stdout_str());
    assert_eq!(tree(&elsewhere), before, "replay wrote through report.json");
    let report = std::fs::symlink_metadata(out.join("report.json")).unwrap();
    assert!(report.is_file(), "report.json is still a link");
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["classes"]["output-diff"], 1);
    // Its scratch files went with it.
    assert!(!out.join("replay").exists(), "{:?}", tree(&out.join("replay")));
}

/// Starts `cmd`, waits until `dir` holds an entry starting with `prefix` (a scratch directory
/// of the replay), kills the process with SIGKILL and returns what it left there.
fn kill_once_scratch_exists(mut cmd: Command, dir: &Path, prefix: &str) -> Vec<String> {
    let mut child = cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    let started = Instant::now();
    while named(dir, prefix).is_empty() {
        assert!(started.elapsed() < Duration::from_secs(60), "no scratch directory within a minute");
        assert!(child.try_wait().unwrap().is_none(), "the replay ended before it was killed");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    named(dir, prefix)
}

#[test]
fn the_scratch_of_a_killed_replay_is_removed_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let out = explored(dir.path());
    let mut replay = Command::new(penumbra_bin());
    replay.arg("replay").arg(&out);
    let left = kill_once_scratch_exists(replay, &out.join("replay"), "penumbra-replay-");
    assert_eq!(left.len(), 1, "{left:?}");
    let replayed = penumbra(["replay".as_ref(), out.as_os_str()]);
    replayed.assert_status(0);
    assert!(replayed.stdout_str().contains("1 output-diff"), "{}", replayed.stdout_str());
    assert!(!out.join("replay").exists(), "left: {:?}", tree(&out.join("replay")));

    // shadow --replay builds in $TMPDIR: its scratch there too.
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let source = dir.path().join("threshold.c");
    let shadow = |out: &str| {
        let mut cmd = Command::new(penumbra_bin());
        cmd.env("TMPDIR", &tmp)
            .arg("shadow")
            .arg(&source)
            .arg("--replay")
            .arg("--output-dir")
            .arg(dir.path().join(out));
        cmd
    };
    let left = kill_once_scratch_exists(shadow("killed"), &tmp, "penumbra-replay");
    assert_eq!(left.len(), 1, "{left:?}");
    let run = run_command(shadow("again"));
    run.assert_status(0);
    assert!(run.stdout_str().contains("1 output-diff"), "{}", run.stdout_str());
    assert_eq!(named(&tmp, "penumbra-replay"), Vec::<String>::new());
    assert_eq!(named(&tmp, ".penumbra-replay"), Vec::<String>::new());
}
