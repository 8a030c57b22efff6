//! The commit-pair pipeline end to end, offline (issue 37): a small git repository made here
//! (base, the commit that introduces a heap overflow and two intended output changes, a commit
//! unrelated to the overflow that changes one of them again, the fix), run through `scripts/commit-pair.py` (old = introducing^, new =
//! introducing, `penumbra unify --git`, shadow execution, replay on old, new, the fix's parent
//! and the fix) and through `penumbra batch` with the script as the preparation; and the reader
//! of CoREBench's `regressions.txt` (`scripts/corebench.py`) on a small sample.

use crate::support::{penumbra_bin, repo_root, run_command, Output};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The program before the regression: prints its first argument, at most seven bytes of it.
const BASE: &str = r#"/* prog: prints its first argument, at most seven characters of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *word = argv[1];
  size_t n = strlen(word);
  size_t limit = 7;
  if (n > limit)
    n = limit;
  char *buf = malloc(8);
  memcpy(buf, word, n);
  buf[n] = 0;
  printf("%s\n", buf);
  free(buf);
  return 0;
}
"#;

fn git(repo: &Path, args: &[&str]) -> String {
    let mut cmd = Command::new("git");
    cmd.arg("-C").arg(repo).args(args);
    // No global or system configuration: the test sees the same git everywhere.
    cmd.env("GIT_CONFIG_NOSYSTEM", "1").env("GIT_CONFIG_GLOBAL", "/dev/null");
    cmd.env("GIT_AUTHOR_DATE", "2013-01-01T00:00:00Z").env("GIT_COMMITTER_DATE", "2013-01-01T00:00:00Z");
    let out = run_command(cmd);
    out.assert_status(0);
    out.stdout_str().trim().to_string()
}

fn commit(repo: &Path, file: &str, text: &str, message: &str) -> String {
    std::fs::write(repo.join(file), text).unwrap();
    git(repo, &["add", file]);
    git(repo, &["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", message]);
    git(repo, &["rev-parse", "HEAD"])
}

/// The repository's four commits: (introducing, fixing).
fn history(repo: &Path) -> (String, String) {
    std::fs::create_dir_all(repo).unwrap();
    git(repo, &["init", "-q"]);
    commit(repo, "prog.c", BASE, "base");
    // "An 'x' word may fill the buffer": eight bytes and the terminator in eight (a heap
    // overflow for an 'x' word of eight or more bytes); a 'q' word's 'q' is upper-cased and
    // 'b' words are bracketed (the changes the commit meant).
    let introducing_text = BASE
        .replace("  size_t limit = 7;\n", "  /* An 'x' word may fill the buffer. */\n  size_t limit = word[0] == 'x' ? 8 : 7;\n")
        .replace("  printf(\"%s\\n\", buf);\n", "  if (buf[0] == 'q')\n    buf[0] = 'Q';\n  if (buf[0] == 'b')\n    printf(\"[%s]\\n\", buf);\n  else\n    printf(\"%s\\n\", buf);\n");
    assert_ne!(introducing_text, BASE);
    let introducing =
        commit(repo, "prog.c", &introducing_text, "introducing: x words fill the buffer, b words bracketed");
    // Unrelated to the overflow: a 'q' word starts with 'K' instead; the fix keeps that.
    let later_text = introducing_text.replace("buf[0] = 'Q';", "buf[0] = 'K';");
    assert_ne!(later_text, introducing_text);
    commit(repo, "prog.c", &later_text, "q words start with K");
    commit(repo, "README", "prog prints a word\n", "unrelated");
    let fixed_text = later_text.replace(
        "  /* An 'x' word may fill the buffer. */\n  size_t limit = word[0] == 'x' ? 8 : 7;\n",
        "  size_t limit = 7;\n",
    );
    assert_ne!(fixed_text, later_text);
    let fixing = commit(repo, "prog.c", &fixed_text, "fixing: the overflow");
    (introducing, fixing)
}

/// commit-pair.py with PENUMBRA as a bare name found on PATH, as a user with penumbra installed
/// sets it: the script must resolve it on PATH, not against the directory it runs in.
fn script(args: &[&str]) -> Output {
    let bin = penumbra_bin();
    let path = std::env::join_paths(
        std::iter::once(bin.parent().unwrap().to_path_buf())
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(repo_root().join("scripts/commit-pair.py"))
        .args(args)
        .env("PENUMBRA", bin.file_name().unwrap())
        .env("PATH", path);
    run_command(cmd)
}

fn pair_toml(introducing: &str, fixing: &str) -> String {
    format!(
        "kind = \"file\"\nrepo = \"../repo\"\nintroducing = \"{}\"\nfixing = [\"{}\"]\nprogram = \"prog.c\"\ncomplete_flags = [\"--sym-arg\", \"8\"]\n",
        &introducing[..10],
        &fixing[..10]
    )
}

/// The tests' first argument as bytes up to its NUL, and class and judgements, sorted.
fn classified(tests: &[Value]) -> Vec<(Vec<u8>, String, Vec<String>)> {
    let mut out: Vec<(Vec<u8>, String, Vec<String>)> = tests
        .iter()
        .map(|t| {
            let hex = t["inputs"]["arg00"].as_str().expect("arg00");
            let bytes: Vec<u8> =
                (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()).collect();
            let word = bytes.split(|&b| b == 0).next().unwrap().to_vec();
            let judgements =
                t["judgements"].as_array().unwrap().iter().map(|j| j.as_str().unwrap().to_string()).collect();
            (word, t["class"].as_str().unwrap().to_string(), judgements)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_commit_pair_from_git_is_shadowed_and_classified_by_shadows_rule() {
    let dir = tempfile::tempdir().unwrap();
    let (introducing, fixing) = history(&dir.path().join("repo"));
    let project = dir.path().join("pair");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("pair.toml"), pair_toml(&introducing, &fixing)).unwrap();
    let out = dir.path().join("out");
    let run = script(&["run", project.to_str().unwrap(), out.to_str().unwrap(), "--max-time", "60"]);
    run.assert_status(0);

    // The resolved commits: old is the introducing commit's parent; the fix is judged with its
    // parent (the unrelated commit).
    let pair: Value = serde_json::from_slice(&std::fs::read(out.join("pair.json")).unwrap()).unwrap();
    let parent = |rev: &str| git(&dir.path().join("repo"), &["rev-parse", &format!("{rev}^")]);
    assert_eq!(pair["old"], parent(&introducing).as_str());
    assert_eq!(pair["new"], introducing.as_str());
    assert_eq!(pair["fixes"], serde_json::json!([{"fixed": fixing, "fix_parent": parent(&fixing)}]));
    // unify --git annotated both hunks.
    let unified = std::fs::read_to_string(out.join("unified/prog.c")).unwrap();
    assert!(unified.contains("change(7, word[0] == 'x' ? 8 : 7)"), "{unified}");

    let summary: Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let complete = &summary["complete"];
    assert_eq!(complete["classes"], serde_json::json!({"regression": 1, "expected": 16}), "{complete}");
    let tests = classified(complete["tests"].as_array().unwrap());
    // The overflow: an 'x' word of eight bytes (the symbolic argument's other bytes are the
    // solver's choice, never NUL); an error in new only, whatever the fix does.
    let regressions: Vec<_> = tests.iter().filter(|(_, class, _)| class == "regression").collect();
    assert_eq!(regressions.len(), 1);
    let (word, _, judgements) = regressions[0];
    assert_eq!((word.len(), word[0]), (8, b'x'), "{word:?}");
    // The fixes run on it too: the fix removes the overflow its parent has (`unexplained`).
    assert_eq!(judgements, &["unexplained"], "the fix removes the error in new: {judgements:?}");
    // The intended changes: every 'b' word of one to eight bytes, bracketed by new and by the
    // fix; every 'q' word, 'K...' in the fix and its parent alike (the fix did not touch it:
    // Shadow's rule with the fix's parent; the fix alone would make these regressions).
    let expected: Vec<(usize, u8, &[String])> = tests
        .iter()
        .filter(|(_, class, _)| class == "expected")
        .map(|(word, _, judgements)| (word.len(), word[0], &judgements[..]))
        .collect();
    let (like_new, like_parent) = (["fix-like-new".to_string()], ["parent-like-fix".to_string()]);
    let b_words = (1..=8).map(|n| (n, b'b', &like_new[..]));
    let q_words = (1..=8).map(|n| (n, b'q', &like_parent[..]));
    assert_eq!(expected, b_words.chain(q_words).collect::<Vec<_>>());

    // The same pair under `penumbra batch`, the script as the project's preparation.
    let manifest = dir.path().join("pairs.toml");
    let prepare = repo_root().join("scripts/commit-pair.py");
    std::fs::write(
        &manifest,
        format!(
            "name = \"pairs\"\n[[subject]]\nname = \"prog\"\nproject = \"pair\"\nprepare = [\"python3\", \"{}\", \"prepare\"]\nmode = \"complete\"\nreplay = true\nmax_time = 60\n",
            prepare.display()
        ),
    )
    .unwrap();
    let batch_out = dir.path().join("batch");
    let mut cmd = Command::new(penumbra_bin());
    cmd.args(["batch", manifest.to_str().unwrap(), "--out", batch_out.to_str().unwrap()]);
    cmd.env("PENUMBRA", penumbra_bin());
    let batch = run_command(cmd);
    batch.assert_status(0);
    let results: Value = serde_json::from_slice(&std::fs::read(batch_out.join("results.json")).unwrap()).unwrap();
    let row = &results["rows"][0];
    let counts: Vec<(&str, u64)> = ["regression", "expected", "output-diff", "silent", "unconfirmed"]
        .iter()
        .map(|c| (*c, row[format!("class_{c}")].as_u64().unwrap()))
        .collect();
    assert_eq!(counts, [("regression", 1), ("expected", 16), ("output-diff", 0), ("silent", 0), ("unconfirmed", 0)]);
    assert_eq!((row["outcome"].as_str(), row["diff_paths"].as_u64()), (Some("ok"), Some(17)), "{row}");
}

#[test]
fn a_pair_with_a_missing_field_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pair.toml"),
        "kind = \"file\"\nrepo = \".\"\nintroducing = \"HEAD\"\nfixing = [\"HEAD\"]\n",
    )
    .unwrap();
    let run = script(&["prepare", dir.path().to_str().unwrap(), dir.path().join("out").to_str().unwrap()]);
    run.assert_status(1);
    assert!(run.stderr.ends_with("pair.toml: kind `file` needs `program`\n"), "{}", run.stderr);
}

/// A sample of CoREBench's `regressions.txt` (not the real file: CI is offline): a plain line,
/// a commented one, a `+` line whose introducing commit does not build (the next line names the
/// revision that does), a `+` before a fix, and blank lines.
const SAMPLE: &str = "\
ec48beadfa0ae1216788eaf6bf558ee2013eac18 be7932e863de07c4c7e4fc3c1db3eb6d04ba9af5 http://bugs.gnu.org/13627
#ca9e212cf804775f3f460e8b42a4cdb2c74f8ee4 594292a1d89332dd006cd7fe3116cf46ebe9acf6 http://bugs.gnu.org/8374

+6c5f11fbfe56e4fa717953cdc3166d09fd8fd2ea 64d4a2807d46a85cfe5ab7eb99b3e91b9a75d5ab http://bugs.gnu.org/12959
3964d508e210ed4890241289986b14ed6473d39d
7eff5901c419afb8945bd96a5ed12d196802bc79 +6fc0ccf717c09d2dc941ee9d6622e7e987653eeb http://example.org/fix-does-not-build
aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
ae494d4be80df2aff50a2ac46fdc0c23de109ea3 d461bfd2743547360793acd2118d4c08ad7b84a8 http://example.org/tail
";

fn corebench(args: &[&str]) -> Output {
    run_command(corebench_command(args))
}

/// The command `corebench` runs, for a test that changes its environment.
fn corebench_command(args: &[&str]) -> Command {
    let mut cmd = Command::new("python3");
    cmd.arg(repo_root().join("scripts/corebench.py")).args(args).env("PENUMBRA", penumbra_bin());
    cmd
}

/// CoREBench's layout: subjects/coreutils/regressions.txt and tests/NEW8_FIXED8/regression.sh.
fn sample_corebench(dir: &Path, regressions: &str) -> std::path::PathBuf {
    let subjects = dir.join("subjects/coreutils");
    for (test, utility) in [
        ("ec48bead_be7932e8", "cut"),
        ("3964d508_64d4a280", "seq"),
        ("7eff5901_aaaaaaaa", "expr"),
        ("ae494d4b_d461bfd2", "tail"),
    ] {
        std::fs::create_dir_all(subjects.join("tests").join(test)).unwrap();
        let mut script = format!("#! /bin/sh\nversiondir=$1\necho a:b | $versiondir/src/{utility} -d: -f2 > out\n");
        if utility == "cut" {
            // A memory-exhaustion test, as CoREBench's 2e636af1_ec48bead: replay gets its limit.
            script.push_str("(ulimit -v 20000; : | $versiondir/src/cut -b2147483648- > err 2>&1) || fail=1\n");
        }
        std::fs::write(subjects.join("tests").join(test).join("regression.sh"), script).unwrap();
    }
    std::fs::write(subjects.join("regressions.txt"), regressions).unwrap();
    dir.to_path_buf()
}

/// `build` and `run` need the penumbra binary (the trees ask it for replay's build flags):
/// without one they stop at once, saying how to make it, before writing anything.
#[test]
fn corebench_without_a_penumbra_binary_says_how_to_build_one() {
    let dir = tempfile::tempdir().unwrap();
    let corebench_dir = sample_corebench(&dir.path().join("corebench"), SAMPLE);
    let out = dir.path().join("out");
    let missing = dir.path().join("no-such-penumbra");
    for command in ["build", "run"] {
        let mut cmd = corebench_command(&[command, corebench_dir.to_str().unwrap(), out.to_str().unwrap()]);
        cmd.env("PENUMBRA", &missing).env("COREUTILS_GIT", dir.path()).env("GNULIB_GIT", dir.path());
        let done = run_command(cmd);
        done.assert_status(1);
        assert_eq!(
            done.stderr.lines().last().unwrap_or_default(),
            format!(
                "corebench: no penumbra binary at {}: build it (cargo build --release) or set PENUMBRA",
                missing.display()
            ),
            "{command}"
        );
    }
    assert!(!out.exists(), "{} was written", out.display());
}

#[test]
fn corebench_regressions_are_read_and_become_one_batch_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let corebench_dir = sample_corebench(&dir.path().join("corebench"), SAMPLE);
    let list = corebench(&["list", corebench_dir.to_str().unwrap()]);
    list.assert_status(0);
    assert_eq!(
        list.stdout_str(),
        "cut-ec48bead-be7932e8 ec48bead ec48bead be7932e8 be7932e8 http://bugs.gnu.org/13627\n\
         seq-6c5f11fb-64d4a280 6c5f11fb 3964d508 64d4a280 64d4a280 http://bugs.gnu.org/12959\n\
         expr-7eff5901-6fc0ccf7 7eff5901 7eff5901 6fc0ccf7 aaaaaaaa http://example.org/fix-does-not-build\n\
         tail-ae494d4b-d461bfd2 ae494d4b ae494d4b d461bfd2 d461bfd2 http://example.org/tail\n"
    );

    let out = dir.path().join("out");
    let written = corebench(&["manifest", corebench_dir.to_str().unwrap(), out.to_str().unwrap(), "--profile", "fast"]);
    written.assert_status(0);
    let pair = std::fs::read_to_string(out.join("pairs/seq-6c5f11fb-64d4a280/pair.toml")).unwrap();
    // Its hand annotation (subjects/corebench/hand-annotations.toml) comes last.
    let (pair, hand) = pair.split_at(pair.find("accept_differences = ").expect("seq 2006's hand annotation"));
    assert!(
        hand.starts_with(
            "accept_differences = [\"scan_arg\"]\nhand_annotation = \"new's scan_arg reads <math.h>'s isfinite"
        ),
        "{hand}"
    );
    assert_eq!(
        pair,
        "# CoREBench: http://bugs.gnu.org/12959\n\
         kind = \"coreutils\"\n\
         repo = \"$COREUTILS_GIT\"\n\
         introducing = \"6c5f11fbfe56e4fa717953cdc3166d09fd8fd2ea\"\n\
         new = \"3964d508e210ed4890241289986b14ed6473d39d\"\n\
         fixing = [\"64d4a2807d46a85cfe5ab7eb99b3e91b9a75d5ab\"]\n\
         fix_parents = [\"64d4a2807d46a85cfe5ab7eb99b3e91b9a75d5ab^\"]\n\
         utility = \"seq\"\n\
         complete_flags = [\"--sym-args\", \"0\", \"1\", \"10\", \"--sym-args\", \"0\", \"2\", \"2\", \"--sym-stdin\", \"8\", \"--sym-files\", \"1\", \"8\"]\n"
    );
    // A fix that does not build: the revision after it is the fixed version, its parent stays
    // the fixing commit's.
    let pair = std::fs::read_to_string(out.join("pairs/expr-7eff5901-6fc0ccf7/pair.toml")).unwrap();
    assert!(pair.contains("fixing = [\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"]\nfix_parents = [\"6fc0ccf717c09d2dc941ee9d6622e7e987653eeb^\"]\n"), "{pair}");
    let manifest = std::fs::read_to_string(out.join("corebench.toml")).unwrap();
    let prepare = repo_root().join("scripts/commit-pair.py");
    let expected = format!(
        "# CoREBench's coreutils regressions, profile `fast` (written by scripts/corebench.py).\n\
         name = \"corebench\"\n\n\
         [defaults]\n\
         mode = [\"complete\", \"seeded\"]\n\
         replay = true\n\
         flags = [\"--max-time\", \"120\", \"--max-tests\", \"5000\", \"--max-site-tests\", \"1000\", \"--interpreter\", \"errors\", \"--replay-timeout\", \"3\", \"--derived-seeds\", \"1000\"]\n\
         max_time = 1440\n\
         prepare = [\"python3\", \"{}\", \"prepare\"]\n\n\
         [[subject]]\nname = \"cut-ec48bead-be7932e8\"\nproject = \"pairs/cut-ec48bead-be7932e8\"\ndescription = \"http://bugs.gnu.org/13627\"\n\n\
         [[subject]]\nname = \"cut-ec48bead-be7932e8+regression-test\"\nproject = \"pairs/cut-ec48bead-be7932e8+regression-test\"\nmode = \"seeded\"\ndescription = \"http://bugs.gnu.org/13627 (seeds with regression.sh)\"\n\n\
         [[subject]]\nname = \"seq-6c5f11fb-64d4a280\"\nproject = \"pairs/seq-6c5f11fb-64d4a280\"\ndescription = \"http://bugs.gnu.org/12959\"\n\n\
         [[subject]]\nname = \"seq-6c5f11fb-64d4a280+regression-test\"\nproject = \"pairs/seq-6c5f11fb-64d4a280+regression-test\"\nmode = \"seeded\"\ndescription = \"http://bugs.gnu.org/12959 (seeds with regression.sh)\"\n\n\
         [[subject]]\nname = \"expr-7eff5901-6fc0ccf7\"\nproject = \"pairs/expr-7eff5901-6fc0ccf7\"\ndescription = \"http://example.org/fix-does-not-build\"\n\n\
         [[subject]]\nname = \"expr-7eff5901-6fc0ccf7+regression-test\"\nproject = \"pairs/expr-7eff5901-6fc0ccf7+regression-test\"\nmode = \"seeded\"\ndescription = \"http://example.org/fix-does-not-build (seeds with regression.sh)\"\n\n\
         [[subject]]\nname = \"tail-ae494d4b-d461bfd2\"\nproject = \"pairs/tail-ae494d4b-d461bfd2\"\ndescription = \"http://example.org/tail\"\n{tail_flags}\n\n\
         [[subject]]\nname = \"tail-ae494d4b-d461bfd2+regression-test\"\nproject = \"pairs/tail-ae494d4b-d461bfd2+regression-test\"\nmode = \"seeded\"\ndescription = \"http://example.org/tail (seeds with regression.sh)\"\n{tail_flags}\n",
        prepare.display(),
        // tail's `-f` tests wait until the replay timeout cuts them: a shorter one, and fewer tests.
        tail_flags = "flags = [\"--max-time\", \"120\", \"--max-tests\", \"1000\", \"--max-site-tests\", \"1000\", \"--interpreter\", \"errors\", \"--replay-timeout\", \"1\", \"--derived-seeds\", \"1000\"]"
    );
    assert_eq!(manifest, expected);
    // The subject seeded also with CoREBench's exposing test: the same pair, the script's
    // invocations a seed suite of their own.
    let with_test = std::fs::read_to_string(out.join("pairs/cut-ec48bead-be7932e8+regression-test/pair.toml")).unwrap();
    let script = corebench_dir.join("subjects/coreutils/tests/ec48bead_be7932e8/regression.sh").canonicalize().unwrap();
    let plain = std::fs::read_to_string(out.join("pairs/cut-ec48bead-be7932e8/pair.toml")).unwrap();
    // regression.sh's `ulimit -v 20000` (KiB) is replay's limit, in MiB rounded up.
    assert!(plain.ends_with("\nflags = [\"--native-memory-limit\", \"20\"]\n"), "{plain}");
    assert_eq!(
        with_test,
        format!("{plain}regression_test = \"{}\"\nseed_suites = [\"era\", \"corebench\"]\n", script.display())
    );
}

#[test]
fn a_malformed_regressions_file_is_refused_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "+6c5f11fbfe56e4fa717953cdc3166d09fd8fd2ea 64d4a2807d46a85cfe5ab7eb99b3e91b9a75d5ab http://x\n",
            "regressions.txt:1: `+` before the introducing commit but no line after it naming the revision that builds",
        ),
        ("ec48bead be7932e8\n", "regressions.txt:1: expected `INTRODUCING FIXING REPORT`, got `ec48bead be7932e8`"),
        ("# c\nec48bead zz7932e8 http://x\n", "regressions.txt:2: `zz7932e8` is not a commit hash"),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let corebench_dir = sample_corebench(&dir.path().join(format!("c{i}")), text);
        let run = corebench(&["list", corebench_dir.to_str().unwrap()]);
        run.assert_status(1);
        assert!(run.stderr.starts_with("corebench: ") && run.stderr.trim_end().ends_with(message), "{}", run.stderr);
    }
}

/// `corebench.py table`: one row per regression from the build record and the batch's job
/// records, whether it was exposed (a `regression` test no fix explains, the earliest one's time
/// and mode) and
/// for every miss its reason: not built, a failed preparation (unify's refusal named), no
/// divergence, or divergences none of which is a regression.
#[test]
fn the_corebench_table_says_what_was_exposed_and_why_the_rest_was_not() {
    let dir = tempfile::tempdir().unwrap();
    let regressions = "\
ec48beadfa0ae1216788eaf6bf558ee2013eac18 be7932e863de07c4c7e4fc3c1db3eb6d04ba9af5 http://bugs.gnu.org/13627
3964d508e210ed4890241289986b14ed6473d39d 64d4a2807d46a85cfe5ab7eb99b3e91b9a75d5ab http://bugs.gnu.org/12959
7eff5901c419afb8945bd96a5ed12d196802bc79 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa http://example.org/x
";
    let subjects = dir.path().join("corebench/subjects/coreutils");
    for (test, utility) in [
        ("ec48bead_be7932e8", "cut"),
        ("3964d508_64d4a280", "seq"),
        ("7eff5901_aaaaaaaa", "expr"),
        ("ae494d4b_d461bfd2", "tail"),
    ] {
        std::fs::create_dir_all(subjects.join("tests").join(test)).unwrap();
        std::fs::write(subjects.join("tests").join(test).join("regression.sh"), format!("$1/src/{utility} x\n"))
            .unwrap();
    }
    std::fs::write(subjects.join("regressions.txt"), regressions).unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(out.join("results/jobs")).unwrap();
    std::fs::create_dir_all(out.join("results/prepared/cut-ec48bead-be7932e8")).unwrap();
    std::fs::write(
        out.join("builds.json"),
        r#"{"cut-ec48bead-be7932e8": {"built": true, "trees": []},
            "seq-3964d508-64d4a280": {"built": true, "trees": []},
            "expr-7eff5901-aaaaaaaa": {"built": false, "error": "coreutils-rev: bootstrap of 7eff5901^ failed"}}"#,
    )
    .unwrap();
    std::fs::write(
        out.join("results/prepared/cut-ec48bead-be7932e8/pair.json"),
        r#"{"annotation": "penumbra unify", "unified": ["src/cut.c"]}"#,
    )
    .unwrap();
    let job = |subject: &str, mode: &str, body: &str| {
        let record = format!(
            r#"{{"subject": "{subject}", "mode": "{mode}", "penumbra": "0.1.0 (commit 0123456789ab)", "wall_s": 10.0, {body}}}"#
        );
        std::fs::write(out.join(format!("results/jobs/{subject}.{mode}.default.json")), record).unwrap();
    };
    let summary = |diff_paths: u32| {
        format!(r#""summary": {{"diff_paths": {diff_paths}, "stopped_by": "max-time", "unsupported": 0, "early": 0}}"#)
    };
    let selection = r#""seed_selection": {"tests": 1, "invocations": 228, "touching": 121, "tests_touching": 1}"#;
    job(
        "cut-ec48bead-be7932e8",
        "complete",
        // An error in new only that the fix's parent no longer has: another bug's regression.
        &format!(
            r#""outcome": "ok", {}, {selection}, "tests": [{{"class": "silent", "time_s": 1.0}}, {{"class": "regression", "time_s": 0.5, "fixes": [{{"judgement": "parent-like-fix"}}]}}]"#,
            summary(2)
        ),
    );
    job(
        "cut-ec48bead-be7932e8",
        "seeded",
        &format!(
            r#""outcome": "ok", {}, {selection}, "tests": [{{"class": "expected", "time_s": 0.5}}, {{"class": "regression", "time_s": 7.25}}, {{"class": "regression", "time_s": 3.5}}]"#,
            summary(3)
        ),
    );
    let unify_refused = r#""outcome": "not-prepared", "error": "corebench.toml:12: subject `seq-3964d508-64d4a280`: cannot prepare the project: python3 commit-pair.py prepare pairs/seq failed (exit status: 1): penumbra unify refused src/seq.c: the unified program's new projection differs from the new version in global n""#;
    job("seq-3964d508-64d4a280", "complete", unify_refused);
    job("seq-3964d508-64d4a280", "seeded", unify_refused);

    let results = dir.path().join("table");
    // A note written by hand after reading a miss joins its reason.
    std::fs::create_dir_all(&results).unwrap();
    std::fs::write(results.join("notes.toml"), "\"expr-7eff5901-aaaaaaaa\" = \"a 2005 tree\"\n").unwrap();
    let made = corebench(&[
        "table",
        dir.path().join("corebench").to_str().unwrap(),
        out.to_str().unwrap(),
        results.to_str().unwrap(),
    ]);
    made.assert_status(0);
    let rows: serde_json::Value =
        serde_json::from_slice(&std::fs::read(results.join("corebench.json")).unwrap()).unwrap();
    let brief: Vec<(String, bool, serde_json::Value, serde_json::Value)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["regression"].as_str().unwrap().to_string(),
                r["exposed"].as_bool().unwrap(),
                r["exposed_by"].clone(),
                r["miss_reason"].clone(),
            )
        })
        .collect();
    assert_eq!(
        brief,
        [
            ("cut-ec48bead-be7932e8".to_string(), true, serde_json::json!(["seeded"]), serde_json::Value::Null),
            (
                "seq-3964d508-64d4a280".to_string(),
                false,
                serde_json::json!([]),
                "penumbra unify refused src/seq.c: the unified program's new projection differs from the new version in global n".into()
            ),
            (
                "expr-7eff5901-aaaaaaaa".to_string(),
                false,
                serde_json::json!([]),
                "not built: coreutils-rev: bootstrap of 7eff5901^ failed; a 2005 tree".into()
            ),
        ]
    );
    let cut = &rows[0];
    assert_eq!(cut["seeded"]["first_regression_s"], 3.5);
    assert_eq!(
        (&cut["complete"]["first_regression_s"], &cut["complete"]["exposing"]),
        (&serde_json::Value::Null, &serde_json::json!(0))
    );
    assert_eq!(cut["seeded"]["classes"], serde_json::json!({"expected": 1, "regression": 2}));
    assert_eq!((cut["touching"].as_u64(), cut["invocations"].as_u64()), (Some(121), Some(228)));
    let readme = std::fs::read_to_string(results.join("README.md")).unwrap();
    assert!(readme.contains("3 regressions, 2 built, 1 exposed"), "{readme}");
    assert!(readme.contains(" Jobs run by penumbra 0.1.0 (commit 0123456789ab).\n"), "{readme}");
    let cut_line = "| cut-ec48bead-be7932e8 | cut | yes | penumbra unify (src/cut.c) | 121/228 | 2 diff paths, 1 regression (1 of another bug: its fix is not this one) | 3 diff paths, 2 regression, first at 3.5 s | yes (seeded) |  |";
    assert!(readme.contains(cut_line), "{readme}");
    // The same table from an OUT that ran only some jobs (another machine): with --keep-earlier
    // a cell OUT did not run keeps the earlier table's, and a row it ran nothing of the whole
    // row, marked; without, they are "not run".
    let args = |keep: bool| {
        let mut a = vec!["table".to_string(), dir.path().join("corebench").display().to_string()];
        a.extend([out.display().to_string(), results.display().to_string()]);
        a.extend(keep.then(|| "--keep-earlier".to_string()));
        a
    };
    let job_file = |mode: &str| out.join(format!("results/jobs/cut-ec48bead-be7932e8.{mode}.default.json"));
    std::fs::remove_file(job_file("seeded")).unwrap();
    corebench(&args(true).iter().map(String::as_str).collect::<Vec<_>>()).assert_status(0);
    let readme = std::fs::read_to_string(results.join("README.md")).unwrap();
    assert!(readme.contains("1 exposed") && readme.contains("Rows marked † (0), and cells marked †"), "{readme}");
    assert!(readme.contains("| 3 diff paths, 2 regression, first at 3.5 s † | yes (seeded) |"), "{readme}");
    // The next table from that OUT keeps the merged row's cells again; then without its
    // complete job too, the whole row is the earlier one.
    std::fs::remove_file(job_file("complete")).unwrap();
    // OUT's other jobs ran on a newer build: the header counts the kept cells' build too.
    for mode in ["complete", "seeded"] {
        let seq_job = out.join(format!("results/jobs/seq-3964d508-64d4a280.{mode}.default.json"));
        let record = std::fs::read_to_string(&seq_job).unwrap().replace("0123456789ab", "fedcba987654");
        std::fs::write(&seq_job, record).unwrap();
    }
    let kept = corebench(&args(true).iter().map(String::as_str).collect::<Vec<_>>());
    kept.assert_status(0);
    let readme = std::fs::read_to_string(results.join("README.md")).unwrap();
    assert!(readme.contains("3 regressions, 2 built, 1 exposed") && readme.contains("Rows marked † (1)"), "{readme}");
    assert!(readme.contains(&cut_line.replacen("be7932e8 |", "be7932e8 † |", 1)), "{readme}");
    let builds = " Jobs run by 2 builds of penumbra (0.1.0 (commit 0123456789ab): 2 jobs; 0.1.0 (commit fedcba987654): 2 jobs).\n";
    assert!(readme.contains(builds), "{readme}");
    let rows: serde_json::Value =
        serde_json::from_slice(&std::fs::read(results.join("corebench.json")).unwrap()).unwrap();
    assert_eq!((rows[0]["earlier"].as_bool(), rows[2]["earlier"].as_bool()), (Some(true), None));
    assert_eq!(rows[2]["miss_reason"], "not built: coreutils-rev: bootstrap of 7eff5901^ failed; a 2005 tree");
    let plain = corebench(&args(false).iter().map(String::as_str).collect::<Vec<_>>());
    plain.assert_status(0);
    let readme = std::fs::read_to_string(results.join("README.md")).unwrap();
    assert!(readme.contains("3 regressions, 2 built, 0 exposed") && !readme.contains("†"), "{readme}");
}

/// Kind "build"'s project: a program of two C files, a header and a makefile.
const WORD_H: &str = "#include <stddef.h>\nsize_t copy_word(char *dst, const char *src, size_t cap);\n";
const WORD_C: &str = r#"/* word.c: a bounded copy of a word. */
#include <string.h>
#include "word.h"

/* Copies at most CAP - 1 bytes of SRC and a terminator into DST; returns the bytes copied. */
size_t copy_word(char *dst, const char *src, size_t cap) {
  size_t n = strlen(src);
  if (n > cap - 1)
    n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = 0;
  return n;
}
"#;
const MAIN_C: &str = r#"/* prog: prints its first argument, at most seven bytes of it. */
#include <stdio.h>
#include <stdlib.h>
#include "word.h"

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  char *buf = malloc(8);
  copy_word(buf, argv[1], 8);
  printf("%s\n", buf);
  free(buf);
  return 0;
}
"#;
const MAKEFILE: &str = "prog: main.o word.o\n\t$(CC) $(CFLAGS) $(LDFLAGS) -o prog main.o word.o\n";

/// Writes `files` into the repository and commits all of it: the new commit.
fn commit_files(repo: &Path, files: &[(&str, &str)], message: &str) -> String {
    for (file, text) in files {
        std::fs::write(repo.join(file), text).unwrap();
    }
    git(repo, &["add", "-A"]);
    git(repo, &["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", message]);
    git(repo, &["rev-parse", "HEAD"])
}

/// The project's history: (old, introducing, fixing). The introducing commit lets a word fill
/// the buffer (word.c: eight bytes and the terminator in eight, a heap overflow for a word of
/// eight bytes) and brackets 'b' words (main.c, the change it meant); the fix restores word.c.
fn build_history(repo: &Path) -> (String, String, String) {
    std::fs::create_dir_all(repo).unwrap();
    git(repo, &["init", "-q"]);
    let old = commit_files(
        repo,
        &[("word.h", WORD_H), ("word.c", WORD_C), ("main.c", MAIN_C), ("Makefile", MAKEFILE)],
        "base",
    );
    let overflowing = WORD_C.replace("n > cap - 1)", "n > cap)").replace("n = cap - 1;", "n = cap;");
    let bracketing = MAIN_C.replace(
        "  printf(\"%s\\n\", buf);\n",
        "  if (buf[0] == 'b')\n    printf(\"[%s]\\n\", buf);\n  else\n    printf(\"%s\\n\", buf);\n",
    );
    assert!(overflowing != WORD_C && bracketing != MAIN_C);
    let introducing =
        commit_files(repo, &[("word.c", &overflowing), ("main.c", &bracketing)], "introducing: words fill the buffer");
    let fixing = commit_files(repo, &[("word.c", WORD_C)], "fixing: the overflow");
    (old, introducing, fixing)
}

/// A kind "build" recipe: bitcode by clang and llvm-link, the AddressSanitizer build by the
/// project's makefile with the compiler from the recipe's environment.
fn build_pair_toml(introducing: &str, fixing: &str) -> String {
    format!(
        r#"kind = "build"
repo = "../repo"
introducing = "{introducing}"
fixing = ["{fixing}"]
program = "prog"
complete_flags = ["--sym-arg", "8"]
[build]
bitcode = "clang-15 -c -emit-llvm -O0 -g -Xclang -disable-O0-optnone main.c word.c && llvm-link-15 main.bc word.bc -o {{program}}.bc"
asan = "make CFLAGS='{{asan_cflags}}' LDFLAGS='{{asan_ldflags}}' {{program}}"
env = {{CC = "clang-15"}}
"#
    )
}

/// `commit-pair.py ARGS` with the trees cached under `work`.
fn script_in(work: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new("python3");
    cmd.arg(repo_root().join("scripts/commit-pair.py")).args(args).env("PENUMBRA", penumbra_bin()).env("WORK", work);
    run_command(cmd)
}

#[test]
fn a_build_recipe_builds_each_commit_and_its_regression_is_classified() {
    let dir = tempfile::tempdir().unwrap();
    let (old, introducing, fixing) = build_history(&dir.path().join("repo"));
    let project = dir.path().join("pair");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("pair.toml"), build_pair_toml(&introducing, &fixing)).unwrap();
    let (work, out) = (dir.path().join("work"), dir.path().join("out"));
    let run = script_in(&work, &["run", project.to_str().unwrap(), out.to_str().unwrap(), "--max-time", "20"]);
    run.assert_status(0);

    // Both changed files unified, each against its own tree's header.
    let pair: Value = serde_json::from_slice(&std::fs::read(out.join("pair.json")).unwrap()).unwrap();
    assert_eq!((pair["kind"].as_str(), pair["old"].as_str()), (Some("build"), Some(old.as_str())));
    assert_eq!(pair["unified"], serde_json::json!(["main.c", "word.c"]));
    let unified = std::fs::read_to_string(out.join("unified/word.c")).unwrap();
    assert!(unified.contains("if (n > change(cap - 1, cap))"), "{unified}");

    let summary: Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let complete = &summary["complete"];
    assert_eq!(complete["classes"], serde_json::json!({"regression": 1, "expected": 7}), "{complete}");
    assert_eq!(complete["stopped_by"], Value::Null, "explored to the end: {complete}");
    let tests = classified(complete["tests"].as_array().unwrap());
    // The overflow: a word of eight bytes (its bytes are the solver's choice, never NUL) errs
    // in new only; each 'b' word of one to seven bytes is bracketed by new and by the fix.
    let regressions: Vec<usize> =
        tests.iter().filter(|(_, class, _)| class == "regression").map(|(word, _, _)| word.len()).collect();
    assert_eq!(regressions, [8]);
    let expected: Vec<(usize, u8, &[String])> = tests
        .iter()
        .filter(|(_, class, _)| class == "expected")
        .map(|(word, _, judgements)| (word.len(), word[0], &judgements[..]))
        .collect();
    let like_new = ["fix-like-new".to_string()];
    assert_eq!(expected, (1..=7).map(|n| (n, b'b', &like_new[..])).collect::<Vec<_>>());

    // A second preparation builds nothing: old and new's bitcode trees and the AddressSanitizer
    // trees of old, new (the fix's parent too) and the fix are reused.
    let again = script_in(&work, &["prepare", project.to_str().unwrap(), dir.path().join("out2").to_str().unwrap()]);
    again.assert_status(0);
    let reused: Vec<String> = again
        .stderr
        .lines()
        .filter_map(|l| l.strip_suffix(": built before, reused"))
        .map(|l| l.rsplit('/').next().unwrap().to_string())
        .collect();
    let tree = |rev: &str, purpose: &str| format!("rev-{}-{purpose}", &rev[..12]);
    assert_eq!(
        reused,
        [
            tree(&old, "bitcode"),
            tree(&introducing, "bitcode"),
            tree(&old, "asan"),
            tree(&introducing, "asan"),
            tree(&fixing, "asan"),
            tree(&introducing, "asan"),
        ]
    );
    assert!(!again.stderr.contains("$ sh -c make"), "{}", again.stderr);
}

#[test]
fn a_build_recipe_whose_patch_unify_refuses_says_so_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    let program = |margin: u32| format!("int margin = {margin};\nint main(void) {{ return margin; }}\n");
    commit_files(&repo, &[("main.c", &program(1))], "base");
    let introducing = commit_files(&repo, &[("main.c", &program(2))], "a global's initialiser changes");
    let project = dir.path().join("pair");
    std::fs::create_dir_all(&project).unwrap();
    let toml = format!(
        "kind = \"build\"\nrepo = \"../repo\"\nintroducing = \"{introducing}\"\nfixing = [\"{introducing}\"]\nprogram = \"prog\"\n\
         [build]\nbitcode = \"clang-15 -c -emit-llvm -O0 main.c -o {{program}}.bc\"\nasan = \"false\"\n"
    );
    std::fs::write(project.join("pair.toml"), toml).unwrap();
    let run = script_in(
        &dir.path().join("work"),
        &["prepare", project.to_str().unwrap(), dir.path().join("out").to_str().unwrap()],
    );
    run.assert_status(1);
    assert!(
        run.stderr.ends_with(
            "\npenumbra unify refused main.c: the change cannot be expressed in one program: line 1: the declaration \
             `margin` changed: a file-scope declaration has one type and a constant initialiser, which `change` cannot vary\n"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn a_build_pair_without_its_commands_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let head = "kind = \"build\"\nrepo = \".\"\nintroducing = \"HEAD\"\nfixing = [\"HEAD\"]\nprogram = \"prog\"\n";
    let cases = [
        ("", "pair.toml: kind `build` needs `build.bitcode` (a shell command)"),
        ("[build]\nbitcode = \"make\"\n", "pair.toml: kind `build` needs `build.asan` (a shell command)"),
        ("[build]\nbitcode = \"make\"\nasan = \"make\"\ncflags = \"-O0\"\n", "pair.toml: unknown fields build.cflags"),
    ];
    for (build, message) in cases {
        std::fs::write(dir.path().join("pair.toml"), format!("{head}{build}")).unwrap();
        let run = script(&["prepare", dir.path().to_str().unwrap(), dir.path().join("out").to_str().unwrap()]);
        run.assert_status(1);
        assert!(run.stderr.ends_with(&format!("{message}\n")), "{}", run.stderr);
    }
}
