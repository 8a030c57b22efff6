//! The engine's layers: the top-level modules of `engine/src`, in the order the crate
//! documentation draws them, each importing only those below it, and none taking names from
//! `lib.rs`'s re-exports. That no two files (or folders) of any crate import each other and
//! that every file opens with a `//!` header is checked for the whole workspace, the engine
//! with it, by `import-graph/tests/workspace.rs`.

use std::path::Path;

use penumbra_import_graph::{code_of, without_test_modules, CrateGraph};

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
        "splitmix",
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

/// `symbolic::Context` holds the machine's state; behaviour lives in the views over it
/// (`interp::Interp`, `shadow::Shadow`, `symbolic::access::Resolver`, the natives' handler).
/// Its methods, in every `impl` block of the crate, stay fewer than 40, and none of its fields
/// is visible outside the crate.
#[test]
fn the_context_holds_state_and_few_methods() {
    let graph = engine();
    let mut methods = Vec::new();
    for (module, path) in graph.files() {
        let code = without_test_modules(&code_of(&std::fs::read_to_string(path).expect("readable source")));
        for (at, _) in code.match_indices("impl") {
            let head = &code[at..];
            let Some(open) = head.find('{') else { continue };
            let header = &head[..open];
            let on_context = header.split_whitespace().any(|w| w.starts_with("Context<")) && !header.contains(" for ");
            if !on_context || !(header.starts_with("impl ") || header.starts_with("impl<")) {
                continue;
            }
            let mut depth = 0;
            for (i, c) in head[open..].char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            let block = &head[open..open + i];
                            for line in block.lines() {
                                let t = line.trim_start();
                                let indent = line.len() - t.len();
                                let t = match t.strip_prefix("pub(") {
                                    Some(rest) => rest.split_once(") ").map_or(rest, |(_, after)| after),
                                    None => t.trim_start_matches("pub "),
                                };
                                if indent == 4 && t.starts_with("fn ") {
                                    methods.push(format!(
                                        "{}: {}",
                                        module.join("::"),
                                        &t[3..t.find('(').unwrap_or(t.len())]
                                    ));
                                }
                            }
                            break;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(methods.len() > 10, "the reader found no Context methods: {methods:?}");
    assert!(methods.len() < 40, "Context has {} methods: {methods:#?}", methods.len());
    let context = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/symbolic/context.rs"))
        .expect("readable source");
    let code = code_of(&context);
    let start = code.find("pub struct Context<").expect("the Context struct");
    let fields = &code[start..start + code[start..].find("\n}").expect("its end")];
    let public: Vec<&str> = fields.lines().skip(1).filter(|l| l.trim_start().starts_with("pub ")).collect();
    assert!(public.is_empty(), "public fields of Context: {public:?}");
}
