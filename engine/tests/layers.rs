//! The engine's layers: the top-level modules of `engine/src`, in the order the crate
//! documentation draws them, each importing only those below it, and none taking names from
//! `lib.rs`'s re-exports. That no two files (or folders) of any crate import each other and
//! that every file opens with a `//!` header is checked for the whole workspace, the engine
//! with it, by `import-graph/tests/workspace.rs`.

use std::path::Path;

use penumbra_import_graph::CrateGraph;

fn engine() -> CrateGraph {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
    CrateGraph::read(&root).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn nothing_in_the_engine_imports_through_lib_rs() {
    // lib.rs re-exports the public API: nothing inside the crate may take it from there.
    let via_root: Vec<String> = engine()
        .file_graph()
        .iter()
        .filter(|(m, edges)| !m.is_empty() && edges.contains(&Vec::new()))
        .map(|(m, _)| m.join("::"))
        .collect();
    assert!(via_root.is_empty(), "modules importing through lib.rs's re-exports: {via_root:?}");
}

#[test]
fn each_layer_of_the_engine_imports_only_those_below_it() {
    // The layers the crate documentation draws, each using only those below it.
    let order = [
        "error",
        "libc",
        "address",
        "concrete",
        "config",
        "run_error",
        "symbolic",
        "shadow",
        "interp",
        "search",
        "output",
        "run",
    ];
    let rank = |m: &str| order.iter().position(|o| *o == m).unwrap_or_else(|| panic!("module {m} is not in a layer"));
    for (from, targets) in &engine().folder_imports(&[]) {
        for to in targets {
            assert!(rank(to) < rank(from), "{from} imports {to}, a layer above it");
        }
    }
}
