//! The C syntax trees unification works on: tree-sitter's concrete trees of the unpreprocessed
//! source, so every byte (comments, directives, macro invocations) keeps its place and the
//! output can be written from the inputs' own text.

use tree_sitter::{Node, Parser, Tree};

/// One version's source and its syntax tree.
pub struct Source {
    pub text: String,
    pub tree: Tree,
}

impl Source {
    pub fn parse(text: &str) -> Source {
        let mut parser = Parser::new();
        parser
            .set_language(&tree_sitter_c::LANGUAGE.into())
            .expect("the bundled tree-sitter C grammar matches the tree-sitter runtime");
        let tree = parser.parse(text, None).expect("tree-sitter parses without a timeout or cancellation");
        Source { text: text.to_string(), tree }
    }

    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    /// The node's source text.
    pub fn text<'s>(&'s self, node: Node<'_>) -> &'s str {
        &self.text[node.byte_range()]
    }

    /// The 1-based line the node starts on.
    pub fn line(&self, node: Node<'_>) -> usize {
        node.start_position().row + 1
    }

    /// The node's tokens without comments, one string: two nodes with the same key are the
    /// same code whatever their layout and comments.
    pub fn key(&self, node: Node<'_>) -> String {
        let mut out = String::new();
        self.push_tokens(node, &mut out);
        out
    }

    fn push_tokens(&self, node: Node<'_>, out: &mut String) {
        if is_comment(node) {
            return;
        }
        // A string literal, char literal or directive argument is one token however tree-sitter
        // splits it (its children leave out the spaces inside).
        if node.child_count() == 0 || matches!(node.kind(), "string_literal" | "char_literal" | "preproc_arg") {
            out.push_str(self.text(node).trim());
            out.push('\u{1}');
            return;
        }
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            self.push_tokens(child, out);
        }
    }
}

/// Where a file-scope item ends. A type defined alone (`struct s { ... };`) is two siblings in
/// tree-sitter's grammar (it has no node for that declaration), the specifier and its `;`: the
/// item is both, so it moves, merges and is kept whole with its `;`.
pub fn file_scope_item_end(node: Node<'_>) -> usize {
    match node.next_sibling() {
        Some(semicolon) if is_type_specifier(node) && semicolon.kind() == ";" => semicolon.end_byte(),
        _ => node.end_byte(),
    }
}

/// The items of a file-scope sequence, the `;` of each type defined alone left to the type
/// ([`file_scope_item_end`]).
pub fn file_scope_items<'t>(nodes: &[Node<'t>]) -> Vec<Node<'t>> {
    let ends_a_type = |n: &Node| n.kind() == ";" && n.prev_sibling().is_some_and(is_type_specifier);
    nodes.iter().copied().filter(|n| !ends_a_type(n)).collect()
}

/// A struct, union or enum specifier.
pub fn is_type_specifier(node: Node<'_>) -> bool {
    matches!(node.kind(), "struct_specifier" | "union_specifier" | "enum_specifier")
}

pub fn is_comment(node: Node<'_>) -> bool {
    node.kind() == "comment"
}

/// Every node of `node`'s subtree, `node` first (depth-first, the last child first).
pub fn descendants(node: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    let mut stack = vec![node];
    std::iter::from_fn(move || {
        let node = stack.pop()?;
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
        Some(node)
    })
}

/// The node's children with their field names.
pub fn children<'t>(node: Node<'t>) -> Vec<(Option<&'t str>, Node<'t>)> {
    let mut out = Vec::with_capacity(node.child_count() as usize);
    for i in 0..node.child_count() {
        let child = node.child(i).expect("index below child_count");
        out.push((node.field_name_for_child(i), child));
    }
    out
}

/// The name a top-level or block item declares (a function's, a variable's, a struct tag's,
/// a macro's), used to pair an item of the old version with its edited counterpart.
pub fn declared_name(src: &Source, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "function_definition" => declarator_name(src, node.child_by_field_name("declarator")?),
        "declaration" => {
            let mut names = Vec::new();
            let mut cursor = node.walk();
            for d in node.children_by_field_name("declarator", &mut cursor) {
                names.push(declarator_name(src, d)?);
            }
            if names.is_empty() {
                return type_tag(src, node);
            }
            Some(names.join(","))
        }
        "type_definition" => {
            let mut cursor = node.walk();
            let names: Vec<String> = node
                .children_by_field_name("declarator", &mut cursor)
                .filter_map(|d| declarator_name(src, d))
                .collect();
            Some(format!("typedef {}", names.join(",")))
        }
        "struct_specifier" | "union_specifier" | "enum_specifier" => type_tag(src, node),
        "preproc_def" | "preproc_function_def" => {
            Some(format!("#define {}", src.text(node.child_by_field_name("name")?)))
        }
        _ => None,
    }
}

fn type_tag(src: &Source, node: Node<'_>) -> Option<String> {
    let ty = if node.kind().ends_with("_specifier") { node } else { node.child_by_field_name("type")? };
    let name = ty.child_by_field_name("name")?;
    Some(format!("{} {}", ty.kind(), src.text(name)))
}

/// Whether a declaration or definition is `static`.
pub fn is_static(src: &Source, node: Node<'_>) -> bool {
    children(node).iter().any(|(_, c)| c.kind() == "storage_class_specifier" && src.text(*c) == "static")
}

/// The function declarator of a declarator (`*f(int)`, `f(int)`), if it declares a function.
pub fn function_declarator(node: Node<'_>) -> Option<Node<'_>> {
    if node.kind() == "function_declarator" {
        return Some(node);
    }
    function_declarator(node.child_by_field_name("declarator")?)
}

/// A function definition's parameters: how many are named (`(void)` has none), and whether it
/// is variadic.
pub fn parameters(src: &Source, function: Node<'_>) -> Option<(usize, bool)> {
    let params = function_declarator(function.child_by_field_name("declarator")?)?.child_by_field_name("parameters")?;
    let list = children(params);
    let named =
        list.iter().filter(|(_, p)| p.kind() == "parameter_declaration" && src.text(*p).trim() != "void").count();
    Some((named, list.iter().any(|(_, p)| p.kind() == "variadic_parameter")))
}

/// The identifier a declarator declares (`*p`, `a[3]`, `f(int)`, `x = 1` all name their
/// identifier).
pub fn declarator_name(src: &Source, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "identifier" | "field_identifier" | "type_identifier" => Some(src.text(node).to_string()),
        _ => declarator_name(src, node.child_by_field_name("declarator")?),
    }
}

/// Whether the node is an expression tree-sitter's C grammar knows.
pub fn is_expression(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "identifier"
            | "number_literal"
            | "char_literal"
            | "string_literal"
            | "concatenated_string"
            | "true"
            | "false"
            | "null"
            | "binary_expression"
            | "unary_expression"
            | "update_expression"
            | "assignment_expression"
            | "conditional_expression"
            | "call_expression"
            | "cast_expression"
            | "pointer_expression"
            | "field_expression"
            | "subscript_expression"
            | "parenthesized_expression"
            | "comma_expression"
            | "sizeof_expression"
            | "alignof_expression"
            | "compound_literal_expression"
            | "generic_expression"
    )
}
