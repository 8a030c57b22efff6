//! `penumbra report` (issue 39): a replayed run's tests grouped by difference and ranked in
//! `clusters.json`, and `report.html`, a page that renders in a browser (headless Chromium
//! here, as a person would open it) with the clusters and the differing characters marked.

use crate::support::{penumbra, write_c, CFile};
use serde_json::Value;
use std::path::Path;

/// A patch with three differences: new writes past `buf` for x = 100 (a regression), prints
/// `small` where old printed `big` for x in 51..=60 (an output difference), and for x = 99
/// takes another branch to the same output whatever y is (two silent tests: one cluster).
const PATCH: &str = r#"#include <stdio.h>
#include "penumbra.h"
static volatile int sink;
int main(void) {
    int x, y;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_make_symbolic(&y, sizeof y, "y");
    if (x < 0 || x > 100) return 2;
    char buf[4] = {0};
    if (x == change(99, 100)) buf[x - 96] = 1; /* new writes buf[4] */
    if (x > change(50, 60)) {
        if (y > 5) sink = 1; else sink = 2;
        printf("big %d\n", x);
        return buf[0];
    }
    printf("small %d\n", x);
    return 0;
}
"#;

/// `source`, written as `name`, shadowed and replayed: the file and the run's directory.
fn shadowed(name: &str, source: &str) -> (CFile, std::path::PathBuf) {
    let file = write_c(name, source);
    let out = file.dir.path().join("out");
    let shadow = penumbra([
        "shadow".as_ref(),
        file.path.as_os_str(),
        "--output-dir".as_ref(),
        out.as_os_str(),
        "--replay".as_ref(),
    ]);
    shadow.assert_no_panic();
    shadow.assert_status(0);
    (file, out)
}

/// The patch shadowed, replayed and reported: its directory.
fn reported() -> (CFile, std::path::PathBuf) {
    let (file, out) = shadowed("patch.c", PATCH);
    let report = penumbra(["report".as_ref(), out.as_os_str()]);
    report.assert_no_panic();
    report.assert_status(0);
    assert!(report.stdout_str().contains("4 tests in 3 clusters"), "{}", report.stdout_str());
    (file, out)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn divergent_tests_cluster_by_difference_in_rank_order() {
    let (_file, out) = reported();
    let clusters = read_json(&out.join("clusters.json"));
    let row = |c: &Value| {
        let s = |k: &str| c[k].as_str().unwrap_or("-").to_string();
        [
            s("class"),
            s("site"),
            s("old_at_site"),
            s("new_at_site"),
            s("old_end"),
            s("new_end"),
            s("difference"),
            c["count"].to_string(),
        ]
    };
    let rows: Vec<_> = clusters.as_array().unwrap().iter().map(row).collect();
    let expected = [
        [
            "regression",
            "patch.c:10",
            "false",
            "true",
            "exit 0",
            "runtime error: index N out of bounds for type '…' at patch.c:10",
            "-",
            "1",
        ],
        ["output-diff", "patch.c:11", "true", "false", "exit 0", "exit 0", "stdout line 1: 'big N' / 'small N'", "1"],
        ["silent", "patch.c:10", "true", "false", "exit 0", "exit 0", "-", "2"],
    ];
    assert_eq!(rows, expected.map(|r| r.map(str::to_string)), "{clusters:#}");
    for (i, c) in clusters.as_array().unwrap().iter().enumerate() {
        assert_eq!(c["rank"].as_u64(), Some(i as u64 + 1));
    }
    // The silent cluster's representative is its simplest test: the fewest non-zero bytes.
    let report = read_json(&out.join("report.json"));
    let nonzero = |name: &str| {
        let t = report["tests"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap();
        ["x", "y"].iter().map(|o| crate::support::test_object(t, o).iter().filter(|&&b| b != 0).count()).sum::<usize>()
    };
    let silent = &clusters[2];
    let members: Vec<&str> = silent["tests"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    let simplest = members.iter().min_by_key(|n| (nonzero(n), **n)).unwrap();
    assert_eq!(silent["representative"].as_str(), Some(*simplest), "{silent}");
    assert_ne!(nonzero(members[0]), nonzero(members[1]), "y differs between the two: {silent}");
}

#[test]
fn the_report_renders_in_a_headless_browser() {
    let (file, out) = reported();
    let page = out.join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"), "self-contained");
    let profile = file.dir.path().join("chromium-profile");
    let chromium = |extra: &[&std::ffi::OsStr]| {
        let mut cmd = std::process::Command::new("chromium");
        cmd.args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,1400"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .arg(format!("file://{}", page.display()));
        let out = cmd.output().expect("chromium (Debian's chromium package, installed by scripts/install-deps.sh)");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    let dom = String::from_utf8(chromium(&["--dump-dom".as_ref()])).unwrap();
    for text in [
        "4 replayed tests in 3 clusters",
        "#1 <span class=\"regression\">regression</span> at patch.c:10",
        "#2 <span class=\"output-diff\">output-diff</span> at patch.c:11",
        "<mark>big</mark> ",
        "<mark>small</mark> ",
        "<span class=\"site\">   11      if (x &gt; change(50, 60)) {</span>",
        "# symbolic objects: x=",
    ] {
        assert!(dom.contains(text), "the rendered page lacks {text:?}:\n{dom}");
    }
    let shot = file.dir.path().join("report.png");
    chromium(&[format!("--screenshot={}", shot.display()).as_ref()]);
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "a screenshot of the page ({} bytes)", png.len());
}

#[test]
fn a_run_not_replayed_is_explained() {
    let file = write_c("plain.c", "#include \"penumbra.h\"\nint main(void) { return change(0, 1); }\n");
    let out = file.dir.path().join("out");
    penumbra(["shadow".as_ref(), file.path.as_os_str(), "--output-dir".as_ref(), out.as_os_str()]).assert_status(0);
    let report = penumbra(["report".as_ref(), out.as_os_str()]);
    report.assert_no_panic();
    assert_ne!(report.status, Some(0));
    assert!(report.stderr.contains("has no report.json: replay the run first"), "{}", report.stderr);
}

/// Five output differences: three made by statements the patch adds (the `penumbra_execute(NEW)`
/// block of line 8, Shadow's `if (change(0, c))` of line 11, and of line 12 with a condition that
/// branches itself), two by changed code both versions have (a value, line 7; a condition,
/// line 13): the three rank first, though their sites come later and each is one input, and
/// say why.
const ADDED_CODE: &str = r#"#include <stdio.h>
#include "penumbra.h"
int main(void) {
    int x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (x < 0 || x > 10) return 2;
    printf("%d\n", change(x, x == 1 ? 5 : x));
    if (penumbra_execute(NEW)) {
        if (x > 7) printf("warning: large\n");
    }
    if (change(0, x == 3)) printf("three\n");
    if (change(0, x == 5 && x != 4)) printf("five\n");
    if (change(x == 6, x == 6 || x == 2)) printf("six\n");
    return 0;
}
"#;

#[test]
fn differences_made_by_added_code_rank_first_in_their_class() {
    let (_file, out) = shadowed("added.c", ADDED_CODE);
    let dir = out.as_os_str();
    let tests = std::fs::read_to_string(out.join("tests.jsonl")).unwrap();
    let marked: Vec<(u64, String)> = tests
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|t| t["kind"] == "divergence")
        .map(|t| {
            (
                t["line"].as_u64().unwrap(),
                t["new_only_code"].as_str().unwrap_or("-").rsplit('/').next().unwrap().to_string(),
            )
        })
        .collect();
    let mut marked = marked;
    marked.sort();
    let expected = [(7, "-"), (8, "added.c:8"), (11, "added.c:11"), (12, "added.c:12"), (13, "-")];
    assert_eq!(marked, expected.map(|(line, at)| (line, at.to_string())), "{tests}");

    penumbra(["report".as_ref(), dir]).assert_status(0);
    let clusters = read_json(&out.join("clusters.json"));
    let rows: Vec<[String; 4]> = clusters
        .as_array()
        .unwrap()
        .iter()
        .map(|c| ["class", "site", "new_only_code", "why"].map(|k| c[k].as_str().unwrap_or("-").to_string()))
        .collect();
    assert_eq!(
        rows,
        [
            [
                "output-diff",
                "added.c:8",
                "added.c:8",
                "output-diff: runs code only the new version has (added.c:8); their output differs; 1 input"
            ],
            [
                "output-diff",
                "added.c:11",
                "added.c:11",
                "output-diff: runs code only the new version has (added.c:11); their output differs; 1 input"
            ],
            [
                "output-diff",
                "added.c:12",
                "added.c:12",
                "output-diff: runs code only the new version has (added.c:12); their output differs; 1 input"
            ],
            ["output-diff", "added.c:7", "-", "output-diff: their output differs; 1 input"],
            ["output-diff", "added.c:13", "-", "output-diff: their output differs; 1 input"],
        ]
        .map(|r| r.map(str::to_string)),
        "{clusters:#}"
    );
}
