//! The engine's module structure: no two modules of `engine/src` import each other, directly or
//! through others — neither two files nor two top-level folders — and each folder opens with a
//! `//!` header. The graph is read from the source's `crate::` and `super::` paths (in `use`
//! declarations and in code), so a new import that closes a circle fails here with the circle
//! spelled out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, with its module path (`["symbolic", "fork"]`; `[]` for
/// `lib.rs`).
fn modules(root: &Path) -> Modules {
    let mut out = BTreeMap::new();
    let mut work = vec![root.to_path_buf()];
    while let Some(dir) = work.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable source folder") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                work.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(root).expect("under the root");
            let mut segments: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            let file = segments.pop().expect("a file name");
            match file.as_str() {
                "lib.rs" | "mod.rs" => {}
                other => segments.push(other.trim_end_matches(".rs").to_string()),
            }
            out.insert(segments, path);
        }
    }
    out
}

/// The source without comments and string literals (which may spell paths in prose).
fn code_of(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                }
                out.push_str("\"\"");
            }
            // A char literal: skip it so that '"' does not open a string (lifetimes pass).
            '\'' => {
                let rest: String = chars.clone().take(3).collect();
                let mut it = rest.chars();
                match (it.next(), it.next(), it.next()) {
                    (Some('\\'), _, _) => {
                        for c in chars.by_ref() {
                            if c == '\'' {
                                break;
                            }
                        }
                    }
                    (Some(_), Some('\''), _) => {
                        chars.next();
                        chars.next();
                    }
                    _ => out.push(c),
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// The code without its inline `#[cfg(test)] mod tests { ... }` (whose `super::` is the file's
/// own module, and which is no part of the module structure).
fn without_test_modules(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let after = &out[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let Some(open) = trimmed.starts_with("mod ").then(|| trimmed.find('{')).flatten() else {
            out.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        };
        let start = at + "#[cfg(test)]".len() + (after.len() - trimmed.len()) + open;
        let mut depth = 0;
        let mut end = out.len();
        for (i, c) in out[start..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = start + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.replace_range(at..end, "");
    }
    out
}

/// The paths a file names after `crate::` or `super::` (groups `{a, b::c}` flattened),
/// resolved to absolute module paths of items.
fn referenced_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        let base: Option<(Vec<String>, usize)> = if rest.starts_with("crate::") && (i == 0 || !ident(bytes[i - 1])) {
            Some((Vec::new(), "crate::".len()))
        } else if rest.starts_with("super::") && (i == 0 || !ident(bytes[i - 1])) {
            // `super` of module a::b (`a/b.rs` or `a/b/mod.rs`) is `a`.
            let mut parent = module.to_vec();
            parent.pop();
            Some((parent, "super::".len()))
        } else {
            None
        };
        let Some((mut prefix, skip)) = base else {
            i += 1;
            continue;
        };
        let mut j = i + skip;
        // Further `super::`s climb on.
        while code[j..].starts_with("super::") {
            prefix.pop();
            j += "super::".len();
        }
        let (paths, end) = parse_tree(code, j);
        for p in paths {
            let mut full = prefix.clone();
            full.extend(p);
            out.push(full);
        }
        i = end.max(i + 1);
    }
    out
}

/// Parses a use tree at `at` (`a::b::c`, `a::{b, c::d}`, `{a, b}`); returns its paths and the
/// position after it.
fn parse_tree(code: &str, at: usize) -> (Vec<Vec<String>>, usize) {
    let bytes = code.as_bytes();
    let mut i = at;
    let mut segments = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'{' {
            let mut paths = Vec::new();
            i += 1;
            loop {
                while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'}' {
                    i += 1;
                    break;
                }
                let (inner, end) = parse_tree(code, i);
                for p in inner {
                    let mut full: Vec<String> = segments.clone();
                    full.extend(p);
                    paths.push(full);
                }
                i = end;
            }
            return (paths, i);
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if start == i {
            return (vec![segments], i);
        }
        segments.push(code[start..i].to_string());
        if code[i..].starts_with("::") {
            i += 2;
        } else {
            // `as name`, `;`, `,`, `}`, `(`: the path ends here.
            return (vec![segments], i);
        }
    }
}

/// The module a path names an item of: its longest prefix that is a module.
fn owner(path: &[String], known: &Modules) -> Vec<String> {
    (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| known.contains_key(p)).unwrap_or_default()
}

/// A circle in `graph`, if there is one, as the nodes along it.
fn find_circle<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Option<Vec<N>> {
    fn visit<N: Ord + Clone>(
        n: &N,
        graph: &BTreeMap<N, BTreeSet<N>>,
        state: &mut BTreeMap<N, u8>,
        stack: &mut Vec<N>,
    ) -> Option<Vec<N>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let from = stack.iter().position(|m| m == n).expect("on the stack");
                let mut circle = stack[from..].to_vec();
                circle.push(n.clone());
                return Some(circle);
            }
            _ => {}
        }
        state.insert(n.clone(), 1);
        stack.push(n.clone());
        for m in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, graph, state, stack) {
                return Some(c);
            }
        }
        stack.pop();
        state.insert(n.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    graph.keys().find_map(|n| visit(n, graph, &mut state, &mut Vec::new()))
}

/// A module by its path (`["symbolic", "fork"]`), and what each module imports.
type Modules = BTreeMap<Vec<String>, PathBuf>;
type Graph = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

fn import_graph() -> (Modules, Graph) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let known = modules(&root);
    let mut graph = Graph::new();
    for (module, path) in &known {
        let source = std::fs::read_to_string(path).expect("readable source");
        let edges = graph.entry(module.clone()).or_default();
        for referenced in referenced_paths(&without_test_modules(&code_of(&source)), module) {
            let target = owner(&referenced, &known);
            if &target != module {
                edges.insert(target);
            }
        }
    }
    (known, graph)
}

fn show(path: &[String]) -> String {
    if path.is_empty() {
        "lib.rs".to_string()
    } else {
        path.join("::")
    }
}

#[test]
fn no_two_files_of_the_engine_import_each_other() {
    let (_, graph) = import_graph();
    // lib.rs re-exports the public API: nothing inside the crate may take it from there.
    let via_root: Vec<String> =
        graph.iter().filter(|(m, edges)| !m.is_empty() && edges.contains(&Vec::new())).map(|(m, _)| show(m)).collect();
    assert!(via_root.is_empty(), "modules importing through lib.rs's re-exports: {via_root:?}");
    if let Some(circle) = find_circle(&graph) {
        let names: Vec<String> = circle.iter().map(|m| show(m)).collect();
        panic!("import circle: {}", names.join(" -> "));
    }
}

#[test]
fn no_two_folders_of_the_engine_import_each_other() {
    let (_, graph) = import_graph();
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, edges) in &graph {
        let Some(from) = module.first() else { continue };
        let entry = folders.entry(from.clone()).or_default();
        for to in edges.iter().filter_map(|t| t.first()) {
            if to != from {
                entry.insert(to.clone());
            }
        }
    }
    if let Some(circle) = find_circle(&folders) {
        panic!("import circle between top-level modules: {}", circle.join(" -> "));
    }
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
    for (from, targets) in &folders {
        for to in targets {
            assert!(rank(to) < rank(from), "{from} imports {to}, a layer above it");
        }
    }
}

#[test]
fn every_folder_says_what_it_owns() {
    let (known, _) = import_graph();
    for (module, path) in &known {
        let folder = path.file_name().is_some_and(|f| f == "mod.rs" || f == "lib.rs");
        if folder {
            let source = std::fs::read_to_string(path).expect("readable source");
            assert!(source.starts_with("//! "), "{} does not open with a //! header", show(module));
        }
    }
}

#[test]
fn the_graph_reader_sees_groups_super_and_inline_paths() {
    let source = "use crate::{a::{b, c::D}, e};\nfn f() { super::g::h(); x::crate_y(); let s = \"crate::z\"; }\n\
                  #[cfg(test)]\nmod tests { use super::*; fn t() { crate::q::r(); } }\n";
    let code = without_test_modules(&code_of(source));
    let paths = referenced_paths(&code, &["m".into(), "n".into()]);
    let shown: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(shown, ["a::b", "a::c::D", "e", "m::g::h"]);
}

/// `symbolic::Context` holds the machine's state; behaviour lives in the views over it
/// (`interp::Interp`, `shadow::Shadow`, `symbolic::access::Resolver`, the natives' handler).
/// Its methods, in every `impl` block of the crate, stay fewer than 40, and none of its fields
/// is visible outside the crate.
#[test]
fn the_context_holds_state_and_few_methods() {
    let (known, _) = import_graph();
    let mut methods = Vec::new();
    for (module, path) in &known {
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
                                        show(module),
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
    let context = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/symbolic/context.rs"))
        .expect("readable source");
    let code = code_of(&context);
    let start = code.find("pub struct Context<").expect("the Context struct");
    let fields = &code[start..start + code[start..].find("\n}").expect("its end")];
    let public: Vec<&str> = fields.lines().skip(1).filter(|l| l.trim_start().starts_with("pub ")).collect();
    assert!(public.is_empty(), "public fields of Context: {public:?}");
}
