//! Where `change(...)` may stand, read off the syntax tree and C's conventions: the context of
//! an expression (a value, a place, a constant), truth-value positions, macro calls (by the
//! file's `#define`s and the capitals convention), constant-looking array sizes.

use crate::syntax::{children, descendants, Source};
use rustc_hash::FxHashSet;
use tree_sitter::Node;

/// Where an expression sits, which decides whether `change(...)` may replace it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ctx {
    /// An rvalue: `change` (a statement expression) may replace it.
    Value,
    /// An lvalue, a call's callee, an expression statement's expression: not this node, but
    /// its operands may change.
    Place,
    /// A constant expression or an unevaluated one (`case`, static initializers, array sizes,
    /// `sizeof`): nothing below may change.
    Constant,
}

/// Where `change` may replace the child `child` (field `field`) of `parent`.
pub fn child_ctx(src: &Source, parent: Node, field: Option<&str>, child: Node) -> Ctx {
    match (parent.kind(), field) {
        ("sizeof_expression" | "alignof_expression" | "offsetof_expression", _)
        | ("case_statement", Some("value"))
        | ("enumerator", _)
        | ("bitfield_clause", _)
        | ("field_declaration" | "parameter_declaration", _)
        | ("preproc_if" | "preproc_elif", Some("condition")) => Ctx::Constant,
        ("assignment_expression", Some("left")) | ("update_expression", _) | ("call_expression", Some("function")) => {
            Ctx::Place
        }
        // `&x` and `s.f` need their operand as an lvalue; `*p` and `p->f` take a value.
        (kind @ ("pointer_expression" | "field_expression"), Some("argument")) => {
            let op = parent.child_by_field_name("operator").map(|o| src.text(o));
            let place_operator = if kind == "pointer_expression" { "&" } else { "." };
            if op == Some(place_operator) {
                Ctx::Place
            } else {
                Ctx::Value
            }
        }
        ("expression_statement", _) => Ctx::Place,
        _ if child.kind() == "comma_expression" => Ctx::Place,
        _ => Ctx::Value,
    }
}

/// Whether only the truth of the expression counts where it stands (a condition, an operand of
/// `!`, `&&`, `||`): there `A` and `A && 1` (or `A || 0`) are the same, and nowhere else.
pub fn is_truth_value(node: Node) -> bool {
    let Some(parent) = node.parent() else { return false };
    match parent.kind() {
        "parenthesized_expression" => {
            parent.parent().is_some_and(|g| {
                matches!(g.kind(), "if_statement" | "while_statement" | "do_statement")
                    && g.child_by_field_name("condition").is_some_and(|c| c.id() == parent.id())
            }) || is_truth_value(parent)
        }
        "for_statement" => parent.child_by_field_name("condition").is_some_and(|c| c.id() == node.id()),
        "conditional_expression" => parent.child_by_field_name("condition").is_some_and(|c| c.id() == node.id()),
        "unary_expression" => parent.child_by_field_name("operator").is_some_and(|o| o.kind() == "!"),
        "binary_expression" => parent.child_by_field_name("operator").is_some_and(|o| matches!(o.kind(), "&&" | "||")),
        _ => false,
    }
}

/// Whether a call's callee is (by C convention) a macro: one the file defines as a
/// function-like macro, or an all-capitals or underscore name. A macro's argument may be
/// stringified, measured with `sizeof` or typed with `_Generic`, so no `change` goes inside it.
pub fn is_macro_call(src: &Source, call: Node, macros: &FxHashSet<String>) -> bool {
    let Some(callee) = call.child_by_field_name("function") else { return false };
    if callee.kind() != "identifier" {
        return false;
    }
    let name = src.text(callee);
    macros.contains(name)
        || name.starts_with('_')
        || (name.chars().any(|c| c.is_ascii_uppercase()) && !name.chars().any(|c| c.is_ascii_lowercase()))
}

/// C library functions that only read their arguments and return a value: no side effect, no
/// `errno`, no output through a pointer.
const PURE_LIBRARY_FUNCTIONS: &[&str] = &[
    "memchr",
    "memcmp",
    "memrchr",
    "strcasecmp",
    "strchr",
    "strchrnul",
    "strcmp",
    "strcspn",
    "strlen",
    "strncasecmp",
    "strncmp",
    "strnlen",
    "strpbrk",
    "strrchr",
    "strspn",
    "strstr",
];

/// Whether `call` calls one of [`PURE_LIBRARY_FUNCTIONS`] with arguments that have no side
/// effect (no assignment, increment or call): evaluating it once per version is the same as
/// evaluating it once. Where such a call's arguments changed (`strcspn (arg, "eExX")` against
/// `strcspn (arg, "xX")`), the whole call is changed: a `change` inside its arguments would run
/// the library's loops over both versions' data at once, and they part there (the reject set's
/// third byte is `x` in one version and its end in the other), a divergence in the library
/// however alike the results.
pub fn is_pure_library_call(src: &Source, call: Node) -> bool {
    let Some(callee) = call.child_by_field_name("function") else { return false };
    if call.kind() != "call_expression" || callee.kind() != "identifier" {
        return false;
    }
    if !PURE_LIBRARY_FUNCTIONS.contains(&src.text(callee)) {
        return false;
    }
    let Some(arguments) = call.child_by_field_name("arguments") else { return false };
    !descendants(arguments)
        .any(|n| matches!(n.kind(), "assignment_expression" | "update_expression" | "call_expression"))
}

/// The function-like macros a file defines.
pub fn function_macros(src: &Source) -> FxHashSet<String> {
    descendants(src.root())
        .filter(|node| node.kind() == "preproc_function_def")
        .filter_map(|node| node.child_by_field_name("name"))
        .map(|name| src.text(name).to_string())
        .collect()
}

/// `p` in `*p` / `**p`: a pointer declarator directly naming a variable.
pub fn find_identifier_child(decl: Node) -> bool {
    match decl.child_by_field_name("declarator") {
        Some(d) if d.kind() == "identifier" => true,
        Some(d) if d.kind() == "pointer_declarator" => find_identifier_child(d),
        _ => false,
    }
}

/// Whether a declarator declares an array whose size is not a literal.
pub fn has_variable_length(src: &Source, decl: Node) -> bool {
    if decl.kind() == "array_declarator" {
        if let Some(size) = decl.child_by_field_name("size") {
            if !looks_constant(src, size) {
                return true;
            }
        }
    }
    decl.child_by_field_name("declarator").is_some_and(|d| has_variable_length(src, d))
}

/// Whether an expression is (by C convention) a constant: literals, `sizeof`, and names and
/// macro calls in capitals (`BUFSIZ`, `INT_BUFSIZE_BOUND (uintmax_t)`), whatever their arguments.
fn looks_constant(src: &Source, node: Node) -> bool {
    let capitals = |t: &str| t.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
    match node.kind() {
        "number_literal" | "char_literal" | "sizeof_expression" => true,
        "identifier" => capitals(src.text(node)),
        "call_expression" => node.child_by_field_name("function").is_some_and(|f| capitals(src.text(f))),
        _ => children(node).iter().all(|(_, c)| !c.is_named() || looks_constant(src, *c)),
    }
}
