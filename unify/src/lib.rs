//! penumbra-unify: two versions of a C file merged into one program annotated for shadow
//! symbolic execution, and the check that the merge is faithful.
//!
//! [`unify`] parses both versions (tree-sitter's C grammar, on the unpreprocessed text, so
//! comments, directives and macro invocations stay as written), aligns and merges their trees
//! ([`merge`]: Shadow's annotation patterns, as deep in expressions as they go), and checks the
//! result ([`check`]): each projection of the unified file must compile to the same optimised
//! LLVM IR as its input. A function whose finer merge fails the check is merged again as two
//! whole functions behind a dispatcher; if the check still fails, or a change cannot be
//! expressed at all, [`unify`] returns an error naming the lines (of a check, each differing
//! definition's first differing IR lines), and nothing is written.
//! [`project`] goes the other way: from an annotated program to either version's source.

pub mod align;
pub mod check;
mod context;
pub mod dispatch;
pub mod globals;
mod grown_types;
pub mod merge;
pub mod project;
mod signatures;
pub mod suffixes;
pub mod syntax;

use rustc_hash::FxHashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use suffixes::{NEW_SUFFIX, OLD_SUFFIX};

/// Something the user should know about a unified file (a coarser form chosen, both versions of
/// an include kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub line: usize,
    pub message: String,
}

impl Note {
    pub fn new(line: usize, message: impl Into<String>) -> Note {
        Note { line, message: message.into() }
    }
}

/// Why a change could not be expressed (the line is the new version's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub line: usize,
    pub why: String,
}

impl Reason {
    pub fn new(line: usize, why: impl Into<String>) -> Reason {
        Reason { line, why: why.into() }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("{0}")]
    Io(std::io::Error),
    #[error("cannot run {0}: {1}")]
    Tool(String, String),
    #[error("clang rejects it:\n{0}")]
    Compile(String),
}

#[derive(Debug, thiserror::Error)]
pub enum UnifyError {
    #[error("the change cannot be expressed in one program:\n{}", list(.0))]
    Inexpressible(Vec<Reason>),
    #[error("the {which} version does not compile, so the unified file cannot be checked against it: {error}")]
    InputDoesNotCompile { which: &'static str, error: CheckError },
    #[error(
        "the unified program's {which} build does not compile (even with the functions it names kept whole): {error}"
    )]
    ProjectionDoesNotCompile { which: &'static str, error: CheckError },
    #[error(
        "the unified program's {which} projection differs from the {which} version in {}; refusing to write it:\n{}",
        .differing.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", "),
        differences(which, differing, kept_whole)
    )]
    CheckFailed {
        which: &'static str,
        differing: Vec<check::Difference>,
        /// The differing functions merged as two whole bodies, with why their finer merge was not kept.
        kept_whole: Vec<(String, String)>,
    },
    #[error("cannot keep the attempts in {}: {error}", .path.display())]
    KeepAttempts { path: PathBuf, error: std::io::Error },
}

fn list(reasons: &[Reason]) -> String {
    reasons.iter().map(|r| format!("  {r}")).collect::<Vec<_>>().join("\n")
}

/// Each difference's first differing IR lines, input against projection, and why a function
/// that differs is merged whole.
fn differences(which: &str, differing: &[check::Difference], kept_whole: &[(String, String)]) -> String {
    let side = |label: String, lines: &[String]| {
        if lines.is_empty() {
            format!("    {label}: (no such definition)")
        } else {
            format!("    {label}:\n{}", lines.iter().map(|l| format!("      {l}")).collect::<Vec<_>>().join("\n"))
        }
    };
    let mut out = Vec::new();
    for d in differing {
        out.push(format!("  {} (first difference at line {} of its optimised IR):", d.name, d.line));
        out.push(side(format!("{which} version"), &d.input));
        out.push(side(format!("{which} projection"), &d.projection));
        if let Some((name, why)) = kept_whole.iter().find(|(name, _)| Some(name.as_str()) == d.function()) {
            out.push(format!("    ({name} is merged as two whole functions behind a dispatcher: {why})"));
        }
    }
    out.join("\n")
}

/// How [`unify_with`] works beyond its inputs.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A directory to keep every attempt in, for whoever debugs a refusal or a coarse merge:
    /// `attempt-N.c` (the unified text the check was given) and `attempt-N.txt` (its verdict).
    pub keep_attempts: Option<PathBuf>,
    /// Functions whose projections may differ from their inputs: a hand annotation, for a
    /// difference a person has shown changes nothing the version can do (a macro the other
    /// version's `#include` redefines alike, a `case` the version can never be given). Each
    /// difference accepted is a note on the result; nothing else is relaxed.
    pub accept_differences: Vec<String>,
}

/// A checked unified program.
#[derive(Debug)]
pub struct Unified {
    pub text: String,
    pub notes: Vec<Note>,
    /// Functions merged as two whole bodies.
    pub whole_functions: Vec<String>,
    /// Definitions each projection has beyond its input (the other version's own functions).
    pub extra: [Vec<String>; 2],
}

/// Unifies `old` and `new` (the texts of one C file's two versions); `compilers` compile the
/// old and the new version (and the unified file's projection on each) for the check.
pub fn unify(old: &str, new: &str, compilers: [&check::Compiler; 2]) -> Result<Unified, UnifyError> {
    unify_with(old, new, compilers, &Options::default())
}

/// [`unify`], with `options`.
pub fn unify_with(
    old: &str,
    new: &str,
    compilers: [&check::Compiler; 2],
    options: &Options,
) -> Result<Unified, UnifyError> {
    let attempts = options.keep_attempts.as_deref().map(Attempts::new).transpose()?;
    let (old_src, new_src) = (syntax::Source::parse(old), syntax::Source::parse(new));
    // Functions whose parameter count changed are two functions, one per version's text.
    let arity_changed = signatures::changed_arity(&old_src, &new_src);
    let (old_src, new_src) = if arity_changed.is_empty() {
        (old_src, new_src)
    } else {
        let names: Vec<String> = arity_changed.iter().map(|(name, _)| name.clone()).collect();
        let (o, n) = signatures::renamed(&old_src, &new_src, &names);
        (syntax::Source::parse(&o), syntax::Source::parse(&n))
    };
    let inputs = [
        compilers[0].ir(old, None).map_err(|error| UnifyError::InputDoesNotCompile { which: "old", error })?,
        compilers[1].ir(new, None).map_err(|error| UnifyError::InputDoesNotCompile { which: "new", error })?,
    ];
    // A type that only gained members at its end has new's definition in the unified program:
    // the old projection is old's code under it (sizes included: tail ae494d4b allocates its
    // 104-byte File_specs where old allocated 88), and is checked against old compiled so.
    let inputs = match grown_types::old_under_new_types(&old_src, &new_src) {
        Some(text) => {
            let reference = compilers[0]
                .ir(&text, None)
                .map_err(|error| UnifyError::InputDoesNotCompile { which: "old", error })?;
            [reference, inputs[1].clone()]
        }
        None => inputs,
    };
    // Functions to keep whole, with why (the check's finding on their finer merge).
    let mut whole: FxHashMap<String, String> = FxHashMap::default();
    // Each attempt that does not end keeps one more function whole: there are finitely many.
    let mut attempt = 0;
    loop {
        let verdict = check_attempt(
            [&old_src, &new_src],
            compilers,
            &inputs,
            &mut whole,
            &options.accept_differences,
            attempt,
            attempts.as_ref(),
        );
        if let Some(attempts) = &attempts {
            let text = match &verdict {
                Ok(Some(_)) => "accepted\n".to_string(),
                Ok(None) => {
                    let mut kept: Vec<String> = whole.iter().map(|(f, why)| format!("{f}: {why}")).collect();
                    kept.sort();
                    format!("refused; kept whole for the next attempt:\n{}\n", kept.join("\n"))
                }
                Err(error) => format!("refused: {error}\n"),
            };
            attempts.write(attempt, "txt", &text)?;
        }
        if let Some(mut unified) = verdict? {
            let renamed = arity_changed.iter().map(|(name, line)| {
                Note::new(
                    *line,
                    format!("the parameters of static `{name}` changed: each version keeps its own ({name}{OLD_SUFFIX}, {name}{NEW_SUFFIX}) and its calls call it"),
                )
            });
            unified.notes.splice(0..0, renamed);
            return Ok(unified);
        }
        attempt += 1;
    }
}

/// Attempts kept for debugging.
struct Attempts(PathBuf);

impl Attempts {
    fn new(dir: &Path) -> Result<Attempts, UnifyError> {
        std::fs::create_dir_all(dir).map_err(|error| UnifyError::KeepAttempts { path: dir.to_path_buf(), error })?;
        Ok(Attempts(dir.to_path_buf()))
    }

    fn write(&self, attempt: usize, extension: &str, text: &str) -> Result<(), UnifyError> {
        let path = self.0.join(format!("attempt-{attempt}.{extension}"));
        std::fs::write(&path, text).map_err(|error| UnifyError::KeepAttempts { path, error })
    }
}

/// One merge, with the functions `whole` names kept whole, and its check: the checked program,
/// or None where the check found functions to keep whole as well (added to `whole`), or why
/// no merge can pass.
fn check_attempt(
    sources: [&syntax::Source; 2],
    compilers: [&check::Compiler; 2],
    inputs: &[std::collections::BTreeMap<String, String>; 2],
    whole: &mut FxHashMap<String, String>,
    accepted: &[String],
    attempt: usize,
    attempts: Option<&Attempts>,
) -> Result<Option<Unified>, UnifyError> {
    let [old_src, new_src] = sources;
    let mut merger = merge::Merger::new(old_src, new_src, whole);
    let body = merger.translation_unit();
    if !merger.reasons.is_empty() {
        return Err(UnifyError::Inexpressible(merger.reasons));
    }
    let text = with_penumbra_header(&body);
    if let Some(attempts) = attempts {
        attempts.write(attempt, "c", &text)?;
    }
    let (mut notes, dispatched) = (merger.notes, merger.dispatched);
    let mut extra: [Vec<String>; 2] = Default::default();
    if let Err(error) = compilers[1].symbolic_build_compiles(&text) {
        let why = format!("the symbolic build rejects its finer merge ({})", first_error(&error));
        if !keep_whole(whole, functions_at_errors(&text, &error), &why) {
            return Err(UnifyError::ProjectionDoesNotCompile { which: "symbolic", error });
        }
        return Ok(None);
    }
    for (index, which) in ["old", "new"].into_iter().enumerate() {
        let projection = match compilers[index].ir(&text, Some(index)) {
            Ok(ir) => ir,
            Err(error) => {
                // A finer merge clang rejects (a `change` where the language wants a constant
                // or an lvalue the grammar did not show): keep the functions it names whole.
                let why = format!("its finer merge's {which} projection does not compile ({})", first_error(&error));
                if !keep_whole(whole, functions_at_errors(&text, &error), &why) {
                    return Err(UnifyError::ProjectionDoesNotCompile { which, error });
                }
                return Ok(None);
            }
        };
        let mut comparison = check::compare(&inputs[index], &projection);
        let dispatcher_differs =
            comparison.differing.iter().any(|d| d.function().is_some_and(|f| dispatched.iter().any(|g| g == f)));
        if dispatcher_differs {
            // Compared with the input kept whole alike (the same code, forwarded through the
            // same dispatcher), the optimiser's order is the projection's.
            let src = [old_src, new_src][index];
            let alike = with_penumbra_header(&dispatch::kept_whole_alike(src, &dispatched));
            if let Ok(reference) = compilers[index].ir(&alike, Some(index)) {
                comparison = check::compare(&reference, &projection);
                // Whole copies the optimiser laid out in another order are the same code.
                comparison.differing.retain(|d| {
                    let dispatched_here = d.function().is_some_and(|f| dispatched.iter().any(|g| g == f));
                    let same = || match (reference.get(&d.name), projection.get(&d.name)) {
                        (Some(a), Some(b)) => check::same_up_to_layout(a, b),
                        _ => false,
                    };
                    !(dispatched_here && same())
                });
            }
        }
        // The version's function definitions, by name.
        let src = [old_src, new_src][index];
        let defined = definitions(src);
        let definition = |name: &str| defined.iter().find(|(n, _)| n == name).map(|&(_, item)| item);
        // Differences accepted by hand: noted, not checked.
        comparison.differing.retain(|d| {
            let accept = d.function().is_some_and(|f| accepted.iter().any(|a| a == f));
            if accept {
                let line = d.function().and_then(definition).map_or(1, |item| src.line(item));
                notes.push(Note::new(
                    line,
                    format!("{}: its {which} projection differs from the {which} version, accepted by hand", d.name),
                ));
            }
            !accept
        });
        let functions: Vec<String> =
            comparison.differing.iter().filter_map(|d| d.function()).map(str::to_string).collect();
        // A function that differs may only hold the difference of a changed function -O2
        // inlined into it (the input's IR has no definition of it): that one is kept whole
        // first (seq 86e4b778's get_default_format, inlined into main).
        let inlined = changed_functions(old_src, new_src)
            .into_iter()
            .filter(|g| !whole.contains_key(g) && !inputs[index].contains_key(&format!("function {g}")))
            .filter(|g| functions.iter().any(|f| definition(f).is_some_and(|item| mentions(src.text(item), g))))
            .collect();
        let why = format!("-O2 inlines it into a function whose {which} projection differs");
        if keep_whole(whole, inlined, &why) {
            return Ok(None);
        }
        let why = format!("its finer merge's {which} projection compiles to other code than the {which} version");
        // A global that differs alongside functions may only be their doing (written by no
        // code left in the projection, -O2 folds it away): the functions are kept whole first,
        // and the next attempt's check decides.
        if keep_whole(whole, functions, &why) {
            return Ok(None);
        }
        if !comparison.differing.is_empty() {
            let kept_whole: Vec<(String, String)> = comparison
                .differing
                .iter()
                .filter_map(|d| d.function())
                .filter_map(|f| Some((f.to_string(), whole.get(f)?.clone())))
                .collect();
            return Err(UnifyError::CheckFailed { which, differing: comparison.differing, kept_whole });
        }
        extra[index] = comparison.extra;
    }
    let mut whole_functions: Vec<String> = whole.keys().cloned().collect();
    whole_functions.sort();
    Ok(Some(Unified { text, notes, whole_functions, extra }))
}

/// The function definitions of `src`, with their names, in order.
fn definitions(src: &syntax::Source) -> Vec<(String, tree_sitter::Node<'_>)> {
    syntax::children(src.root())
        .into_iter()
        .filter(|(_, item)| item.kind() == "function_definition")
        .filter_map(|(_, item)| Some((syntax::declared_name(src, item)?, item)))
        .collect()
}

/// The functions both versions define whose text differs, in the new version's order.
fn changed_functions(old_src: &syntax::Source, new_src: &syntax::Source) -> Vec<String> {
    let old = definitions(old_src);
    definitions(new_src)
        .into_iter()
        .filter(|(name, n)| old.iter().any(|(o, item)| o == name && old_src.text(*item) != new_src.text(*n)))
        .map(|(name, _)| name)
        .collect()
}

/// Whether `text` holds the identifier `name` as a whole word (a call, most likely).
fn mentions(text: &str, name: &str) -> bool {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// Marks the functions among `names` not yet kept whole as kept whole, for `why`; false if
/// there was none (a coarser merge cannot help, so the check fails).
fn keep_whole(whole: &mut FxHashMap<String, String>, names: Vec<String>, why: &str) -> bool {
    let fresh: Vec<String> = names.into_iter().filter(|f| !whole.contains_key(f)).collect();
    let any = !fresh.is_empty();
    whole.extend(fresh.into_iter().map(|f| (f, why.to_string())));
    any
}

/// Clang's first error message, without its location.
fn first_error(error: &CheckError) -> String {
    let CheckError::Compile(diagnostics) = error else { return error.to_string() };
    let message = diagnostics
        .lines()
        .find_map(|l| l.split_once(": error: ").map(|(_, message)| message.to_string()))
        .unwrap_or_else(|| diagnostics.lines().next().unwrap_or_default().to_string());
    // The type check's static assertion: its own message, not the expanded requirement.
    match message.find("penumbra unify: ") {
        Some(at) => message[at + "penumbra unify: ".len()..].to_string(),
        None => message,
    }
}

/// The functions of `text` (by their name in the inputs) holding the lines clang's errors name.
fn functions_at_errors(text: &str, error: &CheckError) -> Vec<String> {
    let CheckError::Compile(diagnostics) = error else { return Vec::new() };
    let lines: Vec<usize> = diagnostics
        .lines()
        .filter(|l| l.contains(": error:"))
        .filter_map(|l| l.split(':').nth(1)?.parse().ok())
        .collect();
    let src = syntax::Source::parse(text);
    let mut out = Vec::new();
    for (_, item) in syntax::children(src.root()) {
        let (first, last) = (item.start_position().row + 1, item.end_position().row + 1);
        if item.kind() == "function_definition" && lines.iter().any(|l| (first..=last).contains(l)) {
            if let Some(name) = syntax::declared_name(&src, item) {
                let name = suffixes::RENAME_SUFFIXES.iter().fold(name, |n, s| n.trim_end_matches(s).to_string());
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// The text with `#include "penumbra.h"` after its last top-level include (or first), unless
/// it has one.
fn with_penumbra_header(text: &str) -> String {
    let src = syntax::Source::parse(text);
    let root = src.root();
    let mut last_include = None;
    for (_, child) in syntax::children(root) {
        if child.kind() == "preproc_include" {
            if src.text(child).contains("penumbra.h") || src.text(child).contains("klee/klee.h") {
                return text.to_string();
            }
            last_include = Some(child.end_byte());
        }
    }
    let line = "#include \"penumbra.h\"\n";
    match last_include {
        // A preproc_include node ends after its newline.
        Some(at) => format!("{}{line}{}", &text[..at], &text[at..]),
        None => format!("{line}{text}"),
    }
}
