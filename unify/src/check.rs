//! The check every unified file passes before it is written: each projection of the unified
//! program (compiled as the native replay builds compile it, with `PENUMBRA_VERSION_OLD` or
//! `PENUMBRA_VERSION_NEW`) must compile to the same optimised LLVM IR as the input it came from.
//!
//! Both sides are compiled by clang-15 at `-O2` from a file of the same name, so layout, names
//! of locals, parentheses and dead `if (0)` blocks vanish, and what is compared is what the code
//! does. The IR is then normalised: attribute-group and metadata numbers, the numbering of
//! private constants (`@.str.7` is replaced by the string it holds) and the suffixes of
//! declarations the unifier renamed (`f__penumbra_old`) are taken out. Every function and global
//! the input defines must be defined alike by the projection; the projection may define more
//! (what only the other version has), which is listed. A function kept whole (both bodies
//! behind a dispatcher) whose projection differs from its input is compared once more, with
//! the input's function forwarded through the same dispatcher
//! ([`crate::dispatch::kept_whole_alike`]): the same code, which -O2 then optimises in the
//! same order. `__LINE__` is pinned to 0 on both sides: the unified file's lines are not the
//! input's, and only the text of an assertion message would tell them apart.

use crate::suffixes::RENAME_SUFFIXES;
use crate::CheckError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How the inputs compile: the user's flags, and where their quoted includes live.
pub struct Compiler {
    pub flags: Vec<String>,
    /// The directory the file came from (searched for its `#include "..."`), if any.
    pub source_dir: Option<PathBuf>,
    /// The file's name, used for every compilation (so `__FILE__` agrees).
    pub file_name: String,
    /// Appended to every text compiled (a header's [`keep_alive`] references).
    pub epilogue: String,
}

/// References that keep every function `text` defines in the IR: a header compiled alone
/// emits no code for its unused `static inline` functions, so the check would compare nothing.
pub fn keep_alive(text: &str) -> String {
    let src = crate::syntax::Source::parse(text);
    let mut out = String::new();
    for (_, item) in crate::syntax::children(src.root()) {
        if item.kind() == "function_definition" {
            if let Some(name) = crate::syntax::declared_name(&src, item) {
                out += &format!("\n__attribute__((used)) static void *const __penumbra_keep_{name} = (void *)&{name};");
            }
        }
    }
    out
}

/// The symbolic `change` with a compile-time check that it converts neither operand; a
/// `change` whose value only counts as true or false ([`truth_changes_marked`]) compares its
/// operands' truth, which the common type keeps.
const TYPED_CHANGE: &str = r#"
#undef penumbra_change
#define __penumbra_truth_change(old, new) penumbra_change(!!(old), !!(new))
#define __penumbra_keeps_type(all, one)                                                           \
  (__builtin_types_compatible_p(__typeof__(all), __typeof__(0 ? (one) : (one))) ||                \
   __builtin_types_compatible_p(__typeof__(0 ? (one) : (one)), void *))
#define penumbra_change(old, new)                                                                 \
  (__extension__({                                                                                \
    _Static_assert(__penumbra_keeps_type(1 ? (old) : (new), old) &&                               \
                   __penumbra_keeps_type(1 ? (old) : (new), new),                                 \
                   "penumbra unify: the operands of change() differ in type");                   \
    __typeof__(1 ? (old) : (new)) __penumbra_changed = __penumbra_execute(PENUMBRA_OLD) ? (old) : (new); \
    __penumbra_changed;                                                                           \
  }))
"#;

/// What one version's comparison found.
#[derive(Debug, Default)]
pub struct Comparison {
    /// Definitions of the input the projection defines differently (or not at all), and
    /// constructors or destructors only the projection has.
    pub differing: Vec<Difference>,
    /// Definitions the projection has and the input does not.
    pub extra: Vec<String>,
}

/// How many IR lines of each side a [`Difference`] keeps.
const SHOWN_LINES: usize = 4;

/// A definition the projection has otherwise than its input, by the first lines where the
/// two differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// `function f` or `global g`.
    pub name: String,
    /// The 1-based line of the definition's normalised IR where the two first differ.
    pub line: usize,
    /// The input's lines from there, a few (none: the input does not define it).
    pub input: Vec<String>,
    /// The projection's lines from there, a few (none: the projection does not define it).
    pub projection: Vec<String>,
}

impl Difference {
    fn between(name: &str, input: Option<&String>, projection: Option<&String>) -> Difference {
        fn lines(def: Option<&String>) -> Vec<&str> {
            def.map_or_else(Vec::new, |d| d.lines().collect())
        }
        let (input, projection) = (lines(input), lines(projection));
        let first = input.iter().zip(&projection).take_while(|(a, b)| a == b).count();
        let from = |lines: &[&str]| lines.iter().skip(first).take(SHOWN_LINES).map(|l| shortened(l)).collect();
        Difference { name: name.to_string(), line: first + 1, input: from(&input), projection: from(&projection) }
    }

    /// The function's name, for a function.
    pub fn function(&self) -> Option<&str> {
        self.name.strip_prefix("function ")
    }
}

/// An IR line cut to a readable length (a string constant's can be kilobytes).
fn shortened(line: &str) -> String {
    const MAX: usize = 160;
    match line.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_string(),
    }
}

impl Compiler {
    /// Optimised, normalised IR of `text`, as (name, definition) in name order: of an input
    /// (`projection` None), or of a unified text's projection on version 0 (old) or 1 (new).
    pub fn ir(&self, text: &str, projection: Option<usize>) -> Result<BTreeMap<String, String>, CheckError> {
        let define = projection.map(|v| ["PENUMBRA_VERSION_OLD", "PENUMBRA_VERSION_NEW"][v]);
        let stdout = self.clang(text, define, &["-S", "-emit-llvm", "-O2", "-g0", "-o", "-"])?;
        Ok(normalise(&stdout, projection))
    }

    /// Whether `text` compiles as penumbra's symbolic build compiles it (no version macro, so
    /// `change` is the statement expression that runs each operand in its own version).
    ///
    /// `change` there has the type of `1 ? (old) : (new)`: where the operands' types differ
    /// (`2` and `2u`, `0.1f` and `0.1`, two arrays of different lengths) one version would
    /// compute in the other's type, which neither native projection shows. So this build also
    /// asserts that every `change` keeps each operand's own type (a `void *`, such as `NULL`,
    /// excepted: it converts without loss). Clang cannot tell an enumeration from its
    /// underlying type, so an enumerator (`int`) against an enumeration-typed call (`unsigned`)
    /// fails too, and its function is kept whole: coarser, never wrong.
    ///
    /// Where only the truth of a `change` counts (a condition, an operand of `!`, `&&`, `||`:
    /// `if (change(1, n))` with a `size_t n`, Shadow's guard for a newly guarded statement),
    /// the conversion to the common type keeps each operand's truth, so the operands' types
    /// may differ there: the assertion is made on their truth values instead.
    pub fn symbolic_build_compiles(&self, text: &str) -> Result<(), CheckError> {
        self.clang_with(&truth_changes_marked(text), None, &["-fsyntax-only"], TYPED_CHANGE).map(|_| ())
    }

    fn clang(&self, text: &str, define: Option<&str>, mode: &[&str]) -> Result<String, CheckError> {
        self.clang_with(text, define, mode, "")
    }

    /// Compiles `text`; `header_tail` is appended to the `penumbra.h` it includes.
    fn clang_with(
        &self,
        text: &str,
        define: Option<&str>,
        mode: &[&str],
        header_tail: &str,
    ) -> Result<String, CheckError> {
        let dir = tempfile::tempdir().map_err(CheckError::Io)?;
        let path = dir.path().join(&self.file_name);
        std::fs::write(&path, format!("{text}{}", self.epilogue)).map_err(CheckError::Io)?;
        penumbra_ir::frontend::write_headers(dir.path())
            .map_err(|e| CheckError::Io(std::io::Error::other(e.to_string())))?;
        if !header_tail.is_empty() {
            let header = format!("{}\n{header_tail}", penumbra_ir::PENUMBRA_H);
            std::fs::write(dir.path().join("penumbra.h"), header).map_err(CheckError::Io)?;
        }
        let mut clang = Command::new(penumbra_ir::frontend::CLANG);
        clang
            .current_dir(dir.path())
            .args(mode)
            .args(["-w", "-D__LINE__=0", "-Wno-builtin-macro-redefined"])
            .arg("-I")
            .arg(dir.path());
        if let Some(source_dir) = &self.source_dir {
            clang.arg("-iquote").arg(source_dir);
        }
        clang.args(&self.flags);
        if let Some(define) = define {
            clang.arg(format!("-D{define}"));
        }
        clang.arg(&self.file_name);
        let output =
            clang.output().map_err(|e| CheckError::Tool(penumbra_ir::frontend::CLANG.into(), e.to_string()))?;
        if !output.status.success() {
            return Err(CheckError::Compile(first_lines(&String::from_utf8_lossy(&output.stderr), 20)));
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }
}

/// `text` with each `change` whose value only counts as true or false called
/// `__penumbra_truth_change` (same lines, so clang's errors still name the unified file's).
fn truth_changes_marked(text: &str) -> String {
    let src = crate::syntax::Source::parse(text);
    let mut callees = Vec::new();
    for node in crate::syntax::descendants(src.root()) {
        if node.kind() == "call_expression" && crate::context::is_truth_value(node) {
            if let Some(callee) = node.child_by_field_name("function") {
                if crate::project::CHANGE_NAMES.contains(&src.text(callee)) {
                    callees.push(callee.byte_range());
                }
            }
        }
    }
    callees.sort_by_key(|r| r.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for callee in callees {
        out.push_str(&text[at..callee.start]);
        out.push_str("__penumbra_truth_change");
        at = callee.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Compares the IR of a projection with that of its input.
pub fn compare(input: &BTreeMap<String, String>, projection: &BTreeMap<String, String>) -> Comparison {
    let mut out = Comparison::default();
    for (name, def) in input {
        if projection.get(name) != Some(def) {
            out.differing.push(Difference::between(name, Some(def), projection.get(name)));
        }
    }
    for (name, def) in projection.iter().filter(|(k, _)| !input.contains_key(*k)) {
        // Constructors and destructors run whether or not anything calls them.
        if name.starts_with("global llvm.global_ctors") || name.starts_with("global llvm.global_dtors") {
            out.differing.push(Difference::between(name, None, Some(def)));
        } else {
            out.extra.push(name.clone());
        }
    }
    out
}

/// Whether two definitions hold the same instructions up to their layout: the same lines once
/// value and block numbers are left out, in any order. For a function kept whole behind a
/// dispatcher, whose copies are each version's own code, a different block order is the
/// optimiser's, not a different program.
pub fn same_up_to_layout(a: &str, b: &str) -> bool {
    fn shape(def: &str) -> Vec<String> {
        let mut lines: Vec<String> = def
            .lines()
            .map(|line| {
                let line = line.split(", !llvm.loop").next().unwrap_or(line);
                let label =
                    line.split_once(':').is_some_and(|(l, _)| !l.is_empty() && l.bytes().all(|c| c.is_ascii_digit()));
                if label {
                    return "BLOCK:".to_string();
                }
                let mut out = String::with_capacity(line.len());
                let mut chars = line.chars().peekable();
                while let Some(c) = chars.next() {
                    out.push(c);
                    if c == '%' && chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                        while chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                            chars.next();
                        }
                        out.push('N');
                    }
                }
                out
            })
            .collect();
        lines.sort();
        lines
    }
    shape(a) == shape(b)
}

fn first_lines(text: &str, n: usize) -> String {
    text.lines().take(n).collect::<Vec<_>>().join("\n")
}

/// The module's definitions (functions and named globals) by name, normalised; `version`'s
/// renamed declarations (0 old, 1 new) under their original names, except functions: a
/// renamed function body stands beside the dispatcher that keeps the name.
fn normalise(ir: &str, version: Option<usize>) -> BTreeMap<String, String> {
    let original = ir;
    let ir = match version {
        Some(v) => strip_suffix(ir, RENAME_SUFFIXES[v]),
        None => ir.to_string(),
    };
    // Private constants (string literals, compound literals) are numbered module-wide: refer
    // to them by content.
    let mut constants: Vec<(String, String)> = Vec::new();
    for line in ir.lines() {
        if let Some(rest) = line.strip_prefix("@.") {
            if let Some((name, def)) = rest.split_once(" = ") {
                constants.push((format!("@.{name}"), def.to_string()));
            }
        }
    }
    // Longest names first: `@.str.1` before `@.str`.
    constants.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
    let by_content = |text: &str| -> String {
        let mut text = text.to_string();
        for (name, def) in &constants {
            text = replace_symbol(&text, name, &format!("<{}>", array_length_free(def)));
        }
        text
    };
    let mut defs = BTreeMap::new();
    let mut names = original.lines();
    let mut lines = ir.lines();
    while let Some(line) = lines.next() {
        let unstripped = names.next().unwrap_or_default();
        if line.starts_with("define ") {
            let name = symbol_after_at(unstripped);
            let mut body = vec![clean(line)];
            for l in lines.by_ref() {
                names.next();
                body.push(clean(l));
                if l == "}" {
                    break;
                }
            }
            defs.insert(format!("function {name}"), by_content(&body.join("\n")));
        } else if line.starts_with('@') && !line.starts_with("@.") {
            let name = symbol_after_at(line);
            defs.insert(format!("global {name}"), by_content(&array_length_free(&clean(line))));
        }
    }
    defs
}

/// The IR with the version's rename suffix taken off its symbols (never inside string
/// constants: a renamed function's `__PRETTY_FUNCTION__` is a real difference).
fn strip_suffix(ir: &str, suffix: &str) -> String {
    let mut out = String::with_capacity(ir.len());
    let mut rest = ir;
    while let Some(start) = rest.find("c\"") {
        out.push_str(&rest[..start].replace(suffix, ""));
        let after = &rest[start + 2..];
        let end = after.find('"').map_or(after.len(), |e| e + 1);
        out.push_str(&rest[start..start + 2 + end]);
        rest = &after[end..];
    }
    out.push_str(&rest.replace(suffix, ""));
    out
}

/// The name after the first `@` of a line.
fn symbol_after_at(line: &str) -> String {
    let rest = &line[line.find('@').map_or(0, |i| i + 1)..];
    if let Some(quoted) = rest.strip_prefix('"') {
        return quoted.split('"').next().unwrap_or_default().to_string();
    }
    rest.chars().take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$')).collect()
}

/// A line without attribute-group and metadata references and trailing comments.
fn clean(line: &str) -> String {
    let line = match line.find("; preds") {
        Some(i) => line[..i].trim_end(),
        None => line,
    };
    let mut out = String::with_capacity(line.len());
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        // ` #12` (attribute group) and `!tbaa !7` / `!llvm.loop !3` style references.
        if bytes[i] == b' ' && i + 1 < bytes.len() && (bytes[i + 1] == b'#' || bytes[i + 1] == b'!') {
            let mut j = i + 2;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || matches!(bytes[j], b'.' | b'_')) {
                j += 1;
            }
            if bytes[i + 1] == b'!' && j + 2 < bytes.len() && bytes[j] == b' ' && bytes[j + 1] == b'!' {
                j += 2;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
            }
            if out.ends_with(',') {
                out.pop();
            }
            i = j;
            continue;
        }
        out.push(bytes[i] as char);
        i += 1;
    }
    out
}

/// `[25 x i8] c"..."` without its length, which a renamed function's `__func__` changes.
fn array_length_free(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('[') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        match tail.find(" x i8] c\"") {
            Some(j) if tail[1..j].chars().all(|c| c.is_ascii_digit()) => {
                out.push_str("[_ x i8] c\"");
                rest = &tail[j + " x i8] c\"".len()..];
            }
            _ => {
                out.push('[');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Replaces whole occurrences of the symbol `name` (not `@.str.1` when replacing `@.str`).
fn replace_symbol(text: &str, name: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(name) {
        let after = &rest[i + name.len()..];
        let continues = after.chars().next().is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '$'));
        out.push_str(&rest[..i]);
        out.push_str(if continues { name } else { with });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The directory and file name a path's compilations use.
pub fn compiler_for(path: Option<&Path>, flags: Vec<String>) -> Compiler {
    let file_name =
        path.and_then(|p| p.file_name()).map_or_else(|| "unified.c".to_string(), |n| n.to_string_lossy().into_owned());
    let source_dir =
        path.and_then(|p| p.parent())
            .map(|d| if d.as_os_str().is_empty() { PathBuf::from(".") } else { d.to_path_buf() });
    let source_dir = source_dir.map(|d| std::fs::canonicalize(&d).unwrap_or(d));
    Compiler { flags, source_dir, file_name, epilogue: String::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_constants_are_compared_by_content_and_references_by_name() {
        let a = "@.str = private unnamed_addr constant [3 x i8] c\"hi\\00\", align 1\n@.str.1 = private unnamed_addr constant [3 x i8] c\"yo\\00\", align 1\ndefine i32 @f() #0 {\n  call i32 @puts(ptr @.str.1), !tbaa !4\n  ret i32 0\n}\n";
        let b = "@.str = private unnamed_addr constant [3 x i8] c\"yo\\00\", align 1\ndefine i32 @f() #3 {\n  call i32 @puts(ptr @.str)\n  ret i32 0\n}\n";
        let (na, nb) = (normalise(a, None), normalise(b, None));
        assert_eq!(na.get("function f"), nb.get("function f"));
        assert!(na["function f"].contains("c\"yo\\00\""), "{}", na["function f"]);
    }

    #[test]
    fn the_same_instructions_in_another_block_order_are_the_same_up_to_layout() {
        let a = "define i32 @f(i32 %0) {\n  br i1 %c, label %3, label %5\n3:\n  %4 = add i32 %0, 1\n  ret i32 %4\n5:\n  ret i32 0\n}";
        let b = "define i32 @f(i32 %0) {\n  br i1 %c, label %4, label %3\n3:\n  ret i32 0\n4:\n  %5 = add i32 %0, 1\n  ret i32 %5\n}";
        assert!(same_up_to_layout(a, b));
        let c = "define i32 @f(i32 %0) {\n  br i1 %c, label %4, label %3\n3:\n  ret i32 0\n4:\n  %5 = add i32 %0, 2\n  ret i32 %5\n}";
        assert!(!same_up_to_layout(a, c));
    }

    #[test]
    fn renamed_globals_compare_under_their_original_name_and_renamed_functions_do_not() {
        let projection = "@g__penumbra_old = internal global i32 5\n@g__penumbra_new = internal global i32 7\ndefine i32 @f__penumbra_old(i32 %0) #1 {\n  %2 = load i32, ptr @g__penumbra_old\n  ret i32 %2\n}\n@.str = private constant [17 x i8] c\"f__penumbra_old\\00\"\n";
        let defs = normalise(projection, Some(0));
        assert_eq!(defs["global g"], "@g = internal global i32 5");
        assert!(defs.contains_key("global g__penumbra_new"), "the other version's stays apart: {defs:?}");
        assert!(defs["function f__penumbra_old"].contains("load i32, ptr @g\n"), "{defs:?}");
        assert!(!defs.contains_key("function f"));
    }
}
