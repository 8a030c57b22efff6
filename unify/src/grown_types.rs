//! Type definitions that only gain members at their end (cut 2004's option enum, a struct
//! with a field appended): new's definition can serve both versions, since old's code names
//! none of the added members and the members it names keep their values and offsets; what
//! depends on the size, the check's compilation of each projection sees.

use crate::syntax::Source;
use tree_sitter::Node;

/// The member list of a type definition (an enum's enumerators, a struct's or union's fields)
/// at or below `node`, if it defines one.
fn type_body(node: Node) -> Option<Node> {
    if matches!(node.kind(), "enumerator_list" | "field_declaration_list") {
        return Some(node);
    }
    if matches!(node.kind(), "compound_statement" | "function_definition" | "initializer_list") {
        return None;
    }
    let mut cursor = node.walk();
    let children: Vec<Node> = node.children(&mut cursor).collect();
    children.into_iter().find_map(type_body)
}

/// Whether a declaration or typedef defines a type with a member list.
pub fn has_type_body(node: Node) -> bool {
    matches!(node.kind(), "declaration" | "type_definition") && type_body(node).is_some()
}

/// Whether new's type definition is old's with members added at its end: the same tokens
/// outside the member list, and old's members (enumerators with their values, fields) the
/// first of new's.
pub fn extends_at_end(old: &Source, o: Node, new: &Source, n: Node) -> bool {
    let (Some(bo), Some(bn)) = (type_body(o), type_body(n)) else { return false };
    let outside = |src: &Source, item: Node, body: Node| {
        let text = &src.text[item.start_byte()..item.end_byte()];
        let (start, end) = (body.start_byte() - item.start_byte(), body.end_byte() - item.start_byte());
        format!("{}{}", &text[..start], &text[end..]).split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let members = |src: &Source, body: Node| -> Vec<String> {
        let mut cursor = body.walk();
        let nodes: Vec<Node> = body.named_children(&mut cursor).filter(|c| c.kind() != "comment").collect();
        nodes.into_iter().map(|c| src.key(c)).collect()
    };
    let (mo, mn) = (members(old, bo), members(new, bn));
    outside(old, o, bo) == outside(new, n, bn) && mo.len() < mn.len() && mn.starts_with(&mo)
}

/// Old's text with each file-scope type definition that new's extends at its end replaced by
/// new's: old's code as the unified program compiles it (new's definition serves both), the
/// reference the old projection is checked against. `None` when no type grew.
pub fn old_under_new_types(old: &Source, new: &Source) -> Option<String> {
    let new_items = typed_items(new);
    let mut grown: Vec<(std::ops::Range<usize>, &str)> = typed_items(old)
        .into_iter()
        .filter_map(|o| {
            let n = new_items.iter().find(|&&n| extends_at_end(old, o, new, n))?;
            Some((o.start_byte()..o.end_byte(), new.text(*n)))
        })
        .collect();
    if grown.is_empty() {
        return None;
    }
    grown.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut text = old.text.to_string();
    for (range, replacement) in grown {
        text.replace_range(range, replacement);
    }
    Some(text)
}

/// The file-scope items of `src` that define a type with a member list: declarations and
/// typedefs, and a bare `struct s { ... };` (a type specifier at file scope).
fn typed_items(src: &Source) -> Vec<Node<'_>> {
    let defines =
        |item: Node| has_type_body(item) || (crate::syntax::is_type_specifier(item) && type_body(item).is_some());
    crate::syntax::children(src.root()).into_iter().map(|(_, item)| item).filter(|&item| defines(item)).collect()
}
