//! Changed file-scope variables. A `static` variable whose type or initialiser changed keeps
//! both versions' definitions, renamed (`g__penumbra_old`, `g__penumbra_new`), and every use of
//! it in a function reads and writes the one of its version through
//! `(*change(&g__penumbra_old, &g__penumbra_new))`, an lvalue like the variable itself (where
//! the types differ, see [`redirect_uses`]). A
//! variable other files can see (not `static`) keeps its one name and is refused, as is a use
//! the redirection cannot reach (another global's initialiser, a local of the same name).

use crate::context::{child_ctx, Ctx};
use crate::suffixes::RENAME_SUFFIXES;
use crate::syntax::{children, declarator_name, is_static, Source};
use crate::Reason;
use rustc_hash::FxHashSet;
use tree_sitter::Node;

/// The variables and functions a file declares at file scope (in preprocessor conditionals
/// too), by name.
pub fn file_scope_names(src: &Source) -> FxHashSet<String> {
    let mut out = FxHashSet::default();
    let mut stack = vec![src.root()];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "declaration" | "function_definition" => {
                let mut cursor = node.walk();
                let declarators: Vec<Node> = node.children_by_field_name("declarator", &mut cursor).collect();
                out.extend(declarators.into_iter().filter_map(|d| declarator_name(src, d)));
            }
            "translation_unit"
            | "preproc_if"
            | "preproc_ifdef"
            | "preproc_else"
            | "preproc_elif"
            | "preproc_elifdef"
            | "linkage_specification"
            | "declaration_list" => {
                let mut cursor = node.walk();
                stack.extend(node.children(&mut cursor));
            }
            _ => {}
        }
    }
    out
}

/// The name of a `static` variable both versions define with one declarator, where the
/// definitions differ (`None`: not such a pair).
pub fn renamable(old: &Source, o: Node, new: &Source, n: Node) -> Option<String> {
    let single = |src: &Source, d: Node| -> Option<String> {
        if d.kind() != "declaration" {
            return None;
        }
        let mut cursor = d.walk();
        let declarators: Vec<Node> = d.children_by_field_name("declarator", &mut cursor).collect();
        let [declarator] = declarators[..] else { return None };
        if !is_static(src, d) || declarator.kind() == "function_declarator" {
            return None;
        }
        declarator_name(src, declarator)
    };
    let name = single(old, o)?;
    (single(new, n)? == name).then_some(name)
}

/// How the types of a changed variable's two definitions differ.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TypeChange {
    /// One type (its initialiser changed).
    Same,
    /// Only in qualifiers (`static char *sep` and `static char const *sep`).
    Qualifiers,
    /// Otherwise (`static char *end = "\n"` and `static char const end[] = "\n"`; an array
    /// whose initialiser sizes it).
    Other,
}

/// How two definitions of a variable differ in type: their tokens, initialiser left out, with
/// and without `const` and `volatile`.
pub fn type_change(old: &Source, o: Node, new: &Source, n: Node) -> TypeChange {
    fn tokens(src: &Source, node: Node, qualifiers: bool, out: &mut Vec<String>) {
        if node.kind() == "type_qualifier" && !qualifiers {
            return;
        }
        if node.child_count() == 0 {
            out.push(src.text(node).to_string());
            return;
        }
        let value = (node.kind() == "init_declarator").then(|| node.child_by_field_name("value")).flatten();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if value.is_some_and(|v| v.id() == child.id()) {
                continue;
            }
            tokens(src, child, qualifiers, out);
        }
    }
    let of = |src: &Source, d: Node, qualifiers: bool| {
        let mut out = Vec::new();
        tokens(src, d, qualifiers, &mut out);
        out
    };
    // An array sized by its initialiser (`longopts[] = {...}`) has the type its initialiser gives.
    let unsized_array = |t: &[String]| t.windows(2).any(|w| w[0] == "[" && w[1] == "]");
    let (full_old, full_new) = (of(old, o, true), of(new, n, true));
    if full_old == full_new && !unsized_array(&full_old) {
        TypeChange::Same
    } else if full_old != full_new && of(old, o, false) == of(new, n, false) {
        TypeChange::Qualifiers
    } else {
        TypeChange::Other
    }
}

/// The declaration with its variable renamed `NAME{suffix}`.
pub fn renamed(src: &Source, declaration: Node, name: &str, suffix: &str) -> String {
    let ident = find_named(src, declaration, name).expect("the declaration declares the name");
    let text = src.text(declaration);
    let at = ident.end_byte() - declaration.start_byte();
    format!("{}{suffix}{}", &text[..at], &text[at..])
}

fn find_named<'t>(src: &Source, node: Node<'t>, name: &str) -> Option<Node<'t>> {
    if node.kind() == "identifier" && src.text(node) == name {
        return Some(node);
    }
    let declarator = node.child_by_field_name("declarator")?;
    find_named(src, declarator, name)
}

/// The unified text with every use of the renamed variables redirected to their version's
/// definition, each variable with how its type changed. A use as a place (assigned, `&g`,
/// `g++`) is the lvalue `(*change(&g__penumbra_old, &g__penumbra_new))` (old's address cast to
/// new's pointer type where only qualifiers differ: `change` needs one type); where the types
/// differ otherwise, a use as a value reads `change` of both values converted to their common
/// type (`char *` and a `char const []` read as `char const *`): the check's compilation of
/// each projection says whether the conversion changed anything.
pub fn redirect_uses(text: &str, renamed: &[(String, TypeChange)]) -> Result<String, Vec<Reason>> {
    let src = Source::parse(text);
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut reasons = Vec::new();
    let names: Vec<String> = renamed.iter().map(|(name, _)| name.clone()).collect();
    let mut redirect = |name: &str, ctx: Ctx| {
        let [old, new] = RENAME_SUFFIXES;
        let change = renamed.iter().find(|(n, _)| n == name).map_or(TypeChange::Same, |(_, c)| *c);
        match (change, ctx) {
            (TypeChange::Qualifiers, _) => {
                format!("(*change((__typeof__(&{name}{new}))&{name}{old}, &{name}{new}))")
            }
            (TypeChange::Other, Ctx::Value) => {
                let common = format!("__typeof__(0 ? {name}{old} : {name}{new})");
                format!("change(({common}){name}{old}, ({common}){name}{new})")
            }
            _ => format!("(*change(&{name}{old}, &{name}{new}))"),
        }
    };
    collect(&src, src.root(), &names, false, &mut redirect, &mut edits, &mut reasons);
    if !reasons.is_empty() {
        return Err(reasons);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, replacement) in edits {
        out.push_str(&text[at..start]);
        out.push_str(&replacement);
        at = end;
    }
    out.push_str(&text[at..]);
    Ok(out)
}

fn collect(
    src: &Source,
    node: Node,
    names: &[String],
    in_body: bool,
    redirect: &mut dyn FnMut(&str, Ctx) -> String,
    edits: &mut Vec<(usize, usize, String)>,
    reasons: &mut Vec<Reason>,
) {
    let name = src.text(node);
    if node.kind() == "identifier" && names.iter().any(|n| n == name) {
        let parent = node.parent().map(|p| p.kind()).unwrap_or_default();
        let declares =
            matches!(
                parent,
                "init_declarator" | "declaration" | "array_declarator" | "pointer_declarator" | "parameter_declaration"
            ) && node.parent().and_then(|p| p.child_by_field_name("declarator")).is_some_and(|d| d.id() == node.id());
        if declares && in_body {
            reasons.push(Reason::new(
                src.line(node),
                format!("a local `{name}` hides the changed static variable `{name}`"),
            ));
        } else if !declares && in_body {
            let ctx = node.parent().map_or(Ctx::Value, |p| {
                let field = children(p).into_iter().find(|(_, c)| c.id() == node.id()).and_then(|(f, _)| f);
                child_ctx(src, p, field, node)
            });
            edits.push((node.start_byte(), node.end_byte(), redirect(name, ctx)));
        } else if !declares {
            reasons.push(Reason::new(
                src.line(node),
                format!("`{name}` changed and is used outside a function, where its version cannot be chosen"),
            ));
        }
        return;
    }
    let body = in_body
        || (node.kind() == "compound_statement" && node.parent().is_some_and(|p| p.kind() == "function_definition"));
    // A function whose parameter has the name means its parameter there.
    let names: Vec<String> = if node.kind() == "function_definition" {
        let params = parameter_names(src, node);
        names.iter().filter(|n| !params.contains(n)).cloned().collect()
    } else {
        names.to_vec()
    };
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect(src, child, &names, body, redirect, edits, reasons);
    }
}

fn parameter_names(src: &Source, function: Node) -> Vec<String> {
    let mut out = Vec::new();
    let mut declarator = function.child_by_field_name("declarator");
    while let Some(d) = declarator {
        if let Some(params) = d.child_by_field_name("parameters") {
            for (_, p) in children(params) {
                if let Some(name) = p.child_by_field_name("declarator").and_then(|x| declarator_name(src, x)) {
                    out.push(name);
                }
            }
            break;
        }
        declarator = d.child_by_field_name("declarator");
    }
    out
}
