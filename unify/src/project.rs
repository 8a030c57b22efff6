//! Projection: the old or the new version of an annotated program, as source text. Every
//! `change(old, new)` (and `penumbra_change`, `klee_change`) becomes its operand of that
//! version, an `if (penumbra_execute(V))` statement keeps the branch of that version, and any
//! other `penumbra_execute(V)` becomes `1` or `0`. Everything else, comments and directives
//! included, is copied, so unifying the two projections of a hand-annotated program is a
//! round trip.

use crate::syntax::{children, Source};
use tree_sitter::Node;

/// The spellings of `change(old, new)`.
pub(crate) const CHANGE_NAMES: [&str; 3] = ["change", "penumbra_change", "klee_change"];

/// The projection of `text` on the old (`new == false`) or the new version.
pub fn project(text: &str, new: bool) -> String {
    let src = Source::parse(text);
    let mut out = String::with_capacity(text.len());
    let root = src.root();
    out.push_str(&text[..root.start_byte()]);
    emit(&src, root, new, &mut out);
    out.push_str(&text[root.end_byte()..]);
    out
}

fn emit(src: &Source, node: Node, new: bool, out: &mut String) {
    if let Some(replacement) = replacement(src, node, new) {
        out.push_str(&replacement);
        return;
    }
    let mut at = node.start_byte();
    for (_, child) in children(node) {
        out.push_str(&src.text[at..child.start_byte()]);
        emit(src, child, new, out);
        at = child.end_byte();
    }
    out.push_str(&src.text[at..node.end_byte()]);
}

fn replacement(src: &Source, node: Node, new: bool) -> Option<String> {
    match node.kind() {
        "call_expression" => {
            let name = src.text(node.child_by_field_name("function")?);
            let args: Vec<Node> = children(node.child_by_field_name("arguments")?)
                .into_iter()
                .map(|(_, c)| c)
                .filter(|c| c.is_named() && c.kind() != "comment")
                .collect();
            if CHANGE_NAMES.contains(&name) && args.len() == 2 {
                let chosen = args[new as usize];
                let mut inner = String::new();
                emit(src, chosen, new, &mut inner);
                let bare = is_primary(chosen) || delimited(node) || binds_tighter(src, node, chosen);
                return Some(if bare { inner } else { format!("({inner})") });
            }
            if name == "penumbra_execute" && args.len() == 1 {
                return Some(if runs_in(src, args[0], new)? { "1" } else { "0" }.to_string());
            }
            None
        }
        "if_statement" => {
            let condition = node.child_by_field_name("condition")?;
            let inner = condition.named_child(0)?;
            if inner.kind() != "call_expression"
                || src.text(inner.child_by_field_name("function")?) != "penumbra_execute"
            {
                return None;
            }
            let arg = inner.child_by_field_name("arguments")?.named_child(0)?;
            let mut out = String::new();
            let branch = if runs_in(src, arg, new)? {
                Some(node.child_by_field_name("consequence")?)
            } else {
                node.child_by_field_name("alternative").and_then(|a| a.named_child(0))
            };
            let in_sequence = node
                .parent()
                .is_some_and(|p| matches!(p.kind(), "compound_statement" | "case_statement" | "translation_unit"));
            match branch {
                Some(b) => emit(src, b, new, &mut out),
                // Gone, where a sequence holds it; an empty statement where one is needed.
                None if in_sequence => {}
                None => out.push(';'),
            }
            Some(out)
        }
        _ => None,
    }
}

/// Whether a `penumbra_execute` argument names the projected version.
fn runs_in(src: &Source, arg: Node, new: bool) -> Option<bool> {
    match src.text(arg) {
        "OLD" | "PENUMBRA_OLD" | "0" => Some(!new),
        "NEW" | "PENUMBRA_NEW" | "1" => Some(new),
        _ => None,
    }
}

/// Whether the node's place already delimits it (an argument, a parenthesised or whole
/// expression, an assigned value), so its replacement needs no parentheses.
fn delimited(node: Node) -> bool {
    let Some(parent) = node.parent() else { return false };
    match parent.kind() {
        "parenthesized_expression"
        | "argument_list"
        | "return_statement"
        | "expression_statement"
        | "init_declarator"
        | "initializer_list"
        | "condition_clause" => true,
        "assignment_expression" => parent.child_by_field_name("right").is_some_and(|r| r.id() == node.id()),
        "for_statement" => true,
        _ => false,
    }
}

/// Whether `chosen`, put where `node` (a `change`) stands, keeps its meaning unparenthesised:
/// a binary operand binding tighter than the operator it stands under (or as tight, on the left).
fn binds_tighter(src: &Source, node: Node, chosen: Node) -> bool {
    let (Some(parent), "binary_expression") = (node.parent(), chosen.kind()) else { return false };
    if parent.kind() != "binary_expression" {
        return false;
    }
    let op = |n: Node| n.child_by_field_name("operator").map_or(0, |o| precedence(src.text(o)));
    let (outer, inner) = (op(parent), op(chosen));
    let is_left = parent.child_by_field_name("left").is_some_and(|l| l.id() == node.id());
    outer > 0 && (inner > outer || (inner == outer && is_left))
}

fn precedence(op: &str) -> u8 {
    match op {
        "*" | "/" | "%" => 10,
        "+" | "-" => 9,
        "<<" | ">>" => 8,
        "<" | "<=" | ">" | ">=" => 7,
        "==" | "!=" => 6,
        "&" => 5,
        "^" => 4,
        "|" => 3,
        "&&" => 2,
        "||" => 1,
        _ => 0,
    }
}

fn is_primary(node: Node) -> bool {
    matches!(
        node.kind(),
        "identifier"
            | "number_literal"
            | "char_literal"
            | "string_literal"
            | "call_expression"
            | "parenthesized_expression"
            | "field_expression"
            | "subscript_expression"
    )
}

#[cfg(test)]
mod tests {
    use super::project;

    #[test]
    fn changes_and_execute_blocks_project_on_each_version() {
        let text = "int f(int x) {\n  if (x > change(5, 10)) /* c */\n    return change(1, x + 1);\n  if (penumbra_execute(NEW)) {\n    x++;\n  }\n  if (penumbra_execute(OLD)) { x--; } else { x -= 2; }\n  return x;\n}\n";
        assert_eq!(
            project(text, false),
            "int f(int x) {\n  if (x > 5) /* c */\n    return 1;\n  \n  { x--; }\n  return x;\n}\n"
        );
        assert_eq!(
            project(text, true),
            "int f(int x) {\n  if (x > 10) /* c */\n    return x + 1;\n  {\n    x++;\n  }\n  { x -= 2; }\n  return x;\n}\n"
        );
    }
}
