//! The module structure of every crate of the workspace (each library and binary): no two of
//! its files import each other, directly or through others; no two parts of any of its folders
//! do (a folder counting as one part); and every file opens with a `//!` header saying what it
//! is for. A new import that closes a circle fails here with the circle spelled out, file by
//! file, with the names each file takes.

use std::path::{Path, PathBuf};

use penumbra_import_graph::{crate_roots, Circle, CrateGraph};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the crate is in the workspace").to_path_buf()
}

fn crates() -> Vec<CrateGraph> {
    let roots = crate_roots(&workspace()).unwrap_or_else(|e| panic!("{e}"));
    roots.iter().map(|root| CrateGraph::read(root).unwrap_or_else(|e| panic!("{e}"))).collect()
}

/// Every circle, numbered, in words.
fn report(circles: &[Circle], base: &Path) -> String {
    let lines: Vec<String> =
        circles.iter().enumerate().map(|(i, c)| format!("circle {}: {}", i + 1, c.describe(base))).collect();
    lines.join("\n")
}

#[test]
fn every_crate_of_the_workspace_is_read() {
    let roots = crate_roots(&workspace()).unwrap_or_else(|e| panic!("{e}"));
    let shown: Vec<String> =
        roots.iter().map(|r| r.strip_prefix(workspace()).unwrap_or(r).display().to_string()).collect();
    assert_eq!(
        shown,
        [
            "ir-frontend/src/lib.rs",
            "solver/src/lib.rs",
            "engine/src/lib.rs",
            "unify/src/lib.rs",
            "harness/src/main.rs",
            "benches/src/lib.rs",
            "fuzz/checks/src/lib.rs",
            "fuzz/checks/src/bin/fuzz-driver.rs",
            "import-graph/src/lib.rs",
        ]
    );
}

#[test]
fn no_two_files_of_any_crate_import_each_other() {
    let circles: Vec<Circle> = crates().iter().flat_map(CrateGraph::file_circles).collect();
    assert!(circles.is_empty(), "import circles among files:\n{}", report(&circles, &workspace()));
}

#[test]
fn no_two_folders_of_any_crate_import_each_other() {
    let circles: Vec<Circle> = crates().iter().flat_map(CrateGraph::folder_circles).collect();
    assert!(circles.is_empty(), "import circles among folders:\n{}", report(&circles, &workspace()));
}

#[test]
fn every_file_says_what_it_is_for() {
    let mut silent = Vec::new();
    for graph in crates() {
        for file in graph.files().values() {
            let source = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            if !source.starts_with("//! ") {
                silent.push(file.strip_prefix(workspace()).unwrap_or(file).display().to_string());
            }
        }
    }
    assert!(silent.is_empty(), "files that do not open with a //! header: {silent:?}");
}

#[test]
fn a_circle_is_spelled_out_file_by_file() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/knot");
    let graph = CrateGraph::read(&fixture.join("src/lib.rs")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        report(&graph.file_circles(), &fixture),
        "circle 1: src/a.rs -> src/b.rs -> src/a.rs\n    src/a.rs -> src/b.rs: B\n    src/b.rs -> src/a.rs: A"
    );
    assert_eq!(
        report(&graph.folder_circles(), &fixture),
        "circle 1: src/c/ -> src/e.rs -> src/c/\n    src/c/d.rs -> src/e.rs: E\n    src/e.rs -> src/c/f.rs: F"
    );
}
