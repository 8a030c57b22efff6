//! What a file's code says about modules: the `mod name;` items it declares, and the paths it
//! names (in `use` declarations and in code) resolved to absolute module paths.

use crate::code::is_ident;

/// A module by its path from the crate root: `["symbolic", "fork"]`; `[]` is the root.
pub type ModulePath = Vec<String>;

/// The modules that `code` declares with `mod name;` (items with a body are part of the file).
pub fn declared_modules(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("mod") {
        let at = from + found;
        from = at + "mod".len();
        let starts_word = code[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        let rest = &code[from..];
        if !starts_word || !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let rest = rest.trim_start();
        let name_length = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if name_length > 0 && rest[name_length..].trim_start().starts_with(';') {
            out.push(rest[..name_length].to_string());
        }
    }
    out
}

/// The paths `code` (of the module `module`) names after `crate::`, `super::` or `self::`
/// (groups `{a, b::c}` flattened), as absolute paths of items. A path relative to the module
/// (`fork::run()` where the module declares `fork`) is not read: it leads to a child, and a
/// child's `super::` back is what a circle needs. An inline `mod name { ... }` counts as part
/// of its file (a `super::` inside one would be read one level too high).
pub fn referenced_paths(code: &str, module: &[String]) -> Vec<ModulePath> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts_path = code.is_char_boundary(i)
            && (i == 0 || !(is_ident(bytes[i - 1] as char) || matches!(bytes[i - 1], b':' | b'.')));
        let Some((mut prefix, skip)) = starts_path.then(|| path_base(&code[i..], module)).flatten() else {
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

/// Where a path that starts `text` is rooted, and the length of its root (`crate::`, ...);
/// `None` where `text` starts no such path.
fn path_base(text: &str, module: &[String]) -> Option<(ModulePath, usize)> {
    if text.starts_with("crate::") {
        return Some((Vec::new(), "crate::".len()));
    }
    if text.starts_with("super::") {
        // `super` of module a::b (`a/b.rs` or `a/b/mod.rs`) is `a`.
        let mut parent = module.to_vec();
        parent.pop();
        return Some((parent, "super::".len()));
    }
    if text.starts_with("self::") {
        return Some((module.to_vec(), "self::".len()));
    }
    None
}

/// Parses a use tree at `at` (`a::b::c`, `a::{b, c::d}`, `{a, b}`); returns its paths and the
/// position after it.
fn parse_tree(code: &str, at: usize) -> (Vec<ModulePath>, usize) {
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
                    let mut full = segments.clone();
                    full.extend(p);
                    paths.push(full);
                }
                // A `*` or anything else the tree reader does not know: step over it.
                i = end.max(i + 1);
            }
            return (paths, i);
        }
        let start = i;
        while i < bytes.len() && is_ident(bytes[i] as char) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::{code_of, without_test_modules};

    fn paths_of(source: &str, module: &[&str]) -> Vec<String> {
        let module: ModulePath = module.iter().map(|s| s.to_string()).collect();
        let code = without_test_modules(&code_of(source));
        referenced_paths(&code, &module).iter().map(|p| p.join("::")).collect()
    }

    #[test]
    fn the_reader_sees_groups_super_self_and_inline_paths() {
        let source = "use crate::{a::{b, c::D}, e};\nfn f() { super::g::h(); x::crate_y(); let s = \"crate::z\"; }\n\
                      fn g() { self::k::l(); x.self_m(); super::super::t::U; fork::run(); \"\u{e9}\"; é::x(); }\n\
                      #[cfg(test)]\nmod tests { use super::*; fn t() { crate::q::r(); } }\n";
        assert_eq!(paths_of(source, &["m", "n"]), ["a::b", "a::c::D", "e", "m::g::h", "m::n::k::l", "t::U"]);
    }

    #[test]
    fn only_file_modules_are_declared() {
        let code = "pub mod a;\nmod b ;\npub(crate) mod c;\nmod inline { }\nfn module() {}\nlet mode = 1;";
        assert_eq!(declared_modules(code), ["a", "b", "c"]);
    }
}
