//! The unifier proper: walks the old and the new syntax tree together and writes one program.
//!
//! Where the trees have the same shape it descends and copies the new version's text between
//! the children it merges, so an edit ends up as deep as it can go: a changed operand, constant,
//! condition, call argument or assigned value becomes `change(old, new)` around that expression
//! alone (Shadow's patterns; a pure library call such as `strcspn` is changed whole, see
//! [`is_pure_library_call`]), a condition extended by `||`/`&&` keeps the shared part outside
//! (`A || change(0, B)`), and statements only one version has run in `penumbra_execute` blocks.
//! Where an edit cannot be pushed into an expression it climbs: to the statement (both versions'
//! statements, each in its own execute block), and where a statement cannot be split (a changed
//! declaration's type, an added `case` label) to the function, which keeps both bodies as two
//! renamed functions behind a dispatcher. File-scope items only one version has are kept (a
//! local that would hide one from the other version's code climbs to its function), and one
//! both versions have at different places is merged once, at the first of them
//! ([`crate::align::pair_moved`]). A change nothing can express (a global's initializer,
//! a macro's definition, a function's signature) is reported, never guessed.

use crate::align::{align, pair_moved, Item, Step};
use crate::context::{
    child_ctx, find_identifier_child, function_macros, has_variable_length, is_macro_call, is_pure_library_call,
    is_truth_value, Ctx,
};
use crate::globals;
use crate::grown_types::{extends_at_end, has_type_body};
use crate::suffixes::{NEW_SUFFIX, OLD_SUFFIX};
use crate::syntax::{
    children, declared_name, file_scope_item_end, file_scope_items, is_comment, is_expression, is_static,
    is_type_specifier, Source,
};
use crate::{Note, Reason};
use rustc_hash::{FxHashMap, FxHashSet};
use tree_sitter::Node;

/// Why a pair of nodes did not merge at their level.
enum Fail {
    /// Try the enclosing node.
    Here,
    /// Give up on the enclosing function (or the file at top level).
    Inexpressible(Reason),
}

type Merged = Result<String, Fail>;

pub struct Merger<'a> {
    old: &'a Source,
    new: &'a Source,
    /// Functions to keep as two whole bodies (the check found their finer merge unfaithful).
    pub whole_functions: &'a FxHashMap<String, String>,
    /// Functions merged as two whole bodies behind a dispatcher (for any reason), by name.
    pub dispatched: Vec<String>,
    pub notes: Vec<Note>,
    pub reasons: Vec<Reason>,
    /// Static variables kept as two renamed definitions.
    /// The changed static variables kept in both versions, each with how its type changed.
    renamed_globals: Vec<(String, globals::TypeChange)>,
    /// Function-like macros either version defines.
    macros: FxHashSet<String>,
    /// The file-scope variables and functions of each version (old, new), by name.
    file_scope_names: [FxHashSet<String>; 2],
    in_function: bool,
}

impl<'a> Merger<'a> {
    pub fn new(old: &'a Source, new: &'a Source, whole_functions: &'a FxHashMap<String, String>) -> Self {
        Merger {
            old,
            new,
            whole_functions,
            dispatched: Vec::new(),
            notes: Vec::new(),
            reasons: Vec::new(),
            renamed_globals: Vec::new(),
            macros: function_macros(old).into_iter().chain(function_macros(new)).collect(),
            file_scope_names: [globals::file_scope_names(old), globals::file_scope_names(new)],
            in_function: false,
        }
    }

    /// The unified translation unit (`reasons` lists what could not be expressed).
    pub fn translation_unit(&mut self) -> String {
        let (o, n) = (self.old.root(), self.new.root());
        let items_o = children(o).into_iter().map(|(_, c)| c).collect::<Vec<_>>();
        let items_n = children(n).into_iter().map(|(_, c)| c).collect::<Vec<_>>();
        let mut out = match self.sequence(&items_o, o.start_byte(), &items_n, n.start_byte()) {
            Ok(text) => text,
            Err(reason) => {
                self.reasons.push(reason);
                String::new()
            }
        };
        out.push_str(&self.new.text[items_n.last().map_or(n.start_byte(), |c| c.end_byte())..n.end_byte()]);
        if self.renamed_globals.is_empty() || !self.reasons.is_empty() {
            return out;
        }
        match globals::redirect_uses(&out, &self.renamed_globals) {
            Ok(text) => text,
            Err(reasons) => {
                self.reasons.extend(reasons);
                out
            }
        }
    }

    // ----- sequences: the translation unit, blocks, the statements of a case -----

    /// Merges two item sequences; each item is preceded by the whitespace its own version had
    /// before it (from `start` for the first).
    fn sequence(&mut self, old: &[Node], old_start: usize, new: &[Node], new_start: usize) -> Result<String, Reason> {
        let file_scope = !self.in_function;
        let (old, new) =
            if file_scope { (file_scope_items(old), file_scope_items(new)) } else { (old.to_vec(), new.to_vec()) };
        let end = |n: Node| if file_scope { file_scope_item_end(n) } else { n.end_byte() };
        let items = |src: &Source, nodes: &[Node]| -> Vec<Item> {
            nodes
                .iter()
                .map(|&n| Item {
                    key: if is_comment(n) { format!("{}\u{1}", src.text(n)) } else { src.key(n) },
                    identity: declared_name(src, n).map(|name| format!("{}:{name}", n.kind())),
                    kind: n.kind().to_string(),
                })
                .collect()
        };
        let (items_o, items_n) = (items(self.old, &old), items(self.new, &new));
        let mut steps = align(&items_o, &items_n);
        if file_scope {
            steps = pair_moved(steps, &items_o, &items_n);
        }
        let gap = |src: &Source, nodes: &[Node], i: usize, start: usize| {
            let from = if i == 0 { start } else { end(nodes[i - 1]) };
            src.text[from..nodes[i].start_byte()].to_string()
        };
        // What follows an item's node in the item (a type's `;` at file scope).
        let rest = |src: &'a Source, n: Node| &src.text[n.end_byte()..end(n)];
        let mut out = String::new();
        let mut previous_from_old = None;
        for step in steps {
            // Each item comes with the whitespace before it in its own version (a moved item:
            // in the version whose place it takes).
            let (src, nodes, at, start) = match step {
                Step::OldOnly(i) | Step::MovedEdited(i, _) => (self.old, &old, i, old_start),
                Step::Same(_, j) | Step::Edited(_, j) | Step::NewOnly(j) => (self.new, &new, j, new_start),
            };
            let before = gap(src, nodes, at, start);
            // Items of the two versions meet here with no space between them (an old item
            // before the new version's first): a line break keeps them apart.
            let from_old = matches!(step, Step::OldOnly(_) | Step::MovedEdited(..));
            if previous_from_old.is_some_and(|p| p != from_old)
                && before.is_empty()
                && out.ends_with(|c: char| !c.is_whitespace())
            {
                out.push('\n');
            }
            previous_from_old = Some(from_old);
            out += &before;
            match step {
                Step::Same(_, j) => out += &self.new.text[new[j].start_byte()..end(new[j])],
                Step::Edited(i, j) | Step::MovedEdited(i, j) => {
                    out += &self.item(old[i], new[j])?;
                    out += rest(self.new, new[j]);
                }
                Step::OldOnly(i) => {
                    out += &self.only(old[i], Version::Old)?;
                    out += rest(self.old, old[i]);
                }
                Step::NewOnly(j) => {
                    out += &self.only(new[j], Version::New)?;
                    out += rest(self.new, new[j]);
                }
            }
        }
        Ok(out)
    }

    /// An item only one version has.
    fn only(&mut self, node: Node, version: Version) -> Result<String, Reason> {
        let src = self.src(version);
        let text = src.text(node).to_string();
        // A file-scope variable, function or type only one version has is kept as it is. Only
        // that version's code names it (the other's would not compile otherwise; a local of
        // the name that the other version's code would see instead is refused where it is
        // declared, in `only_declaration`), so in the other projection nothing uses it: -O2
        // drops an unused static variable or function, and an external one is a definition
        // the projection has beyond its input, which the check allows.
        if is_comment(node) || !self.in_function {
            return Ok(text);
        }
        match node.kind() {
            "declaration" => self.only_declaration(node, version),
            "case_statement" | "labeled_statement" => Err(Reason::new(
                src.line(node),
                format!(
                    "a `{}` only the {} version has cannot be put in an execute block",
                    label(node),
                    version.name()
                ),
            )),
            _ => Ok(execute_block(version, &text, &indent_of(src, node))),
        }
    }

    /// A local declaration only one version has: the variable is declared in both (where it
    /// was, so its scope is the same) and initialised in its own version's execute block.
    fn only_declaration(&mut self, node: Node, version: Version) -> Result<String, Reason> {
        let src = self.src(version);
        let text = src.text(node);
        let declarators: Vec<Node> = {
            let mut cursor = node.walk();
            node.children_by_field_name("declarator", &mut cursor).collect()
        };
        let has_static = children(node)
            .iter()
            .any(|(_, c)| c.kind() == "storage_class_specifier" && matches!(src.text(*c), "static" | "extern"));
        let initialised: Vec<Node> = declarators.iter().copied().filter(|d| d.kind() == "init_declarator").collect();
        // Declared in both versions, a local of a name the other version has at file scope
        // would hide that variable (or function) from the other version's code here, which
        // names it directly or through a macro: a local that became a global, or the reverse.
        let other = version.other();
        let hidden = declarators
            .iter()
            .filter_map(|d| crate::syntax::declarator_name(src, *d))
            .find(|name| self.file_scope_names[other as usize].contains(name));
        if let Some(name) = hidden {
            return Err(self.unsplittable(
                src,
                node,
                &format!("it would hide the file-scope `{name}` of the {} version", other.name()),
            ));
        }
        if declarators.iter().any(|d| has_variable_length(src, *d)) && !has_static {
            return Err(self.unsplittable(
                src,
                node,
                "it declares a variable-length array, allocated where it is declared",
            ));
        }
        if initialised.is_empty() || has_static {
            // Nothing runs: declaring it in the other version too changes nothing it does.
            return Ok(text.to_string());
        }
        // `const int x` cannot be assigned; `const char *p` can (the pointee is const).
        let is_const = children(node).iter().any(|(_, c)| c.kind() == "type_qualifier" && src.text(*c) == "const")
            && declarators.iter().all(|d| {
                d.kind() != "init_declarator"
                    || d.child_by_field_name("declarator").is_some_and(|x| x.kind() == "identifier")
            });
        let [init] = initialised[..] else {
            return Err(self.unsplittable(src, node, "it initialises more than one variable"));
        };
        if declarators.len() != 1 || is_const {
            return Err(self.unsplittable(src, node, "it is const or declares more than one variable"));
        }
        let (Some(decl), Some(value)) = (init.child_by_field_name("declarator"), init.child_by_field_name("value"))
        else {
            return Err(self.unsplittable(src, node, "its initialiser is not `declarator = value`"));
        };
        // A variable or a pointer (not itself const: `char *const p`) can be assigned later.
        let assignable = match decl.kind() {
            "identifier" => true,
            "pointer_declarator" => {
                !children(decl).iter().any(|(_, c)| c.kind() == "type_qualifier") && find_identifier_child(decl)
            }
            _ => false,
        };
        if !assignable || value.kind() == "initializer_list" {
            return Err(self.unsplittable(src, node, "it declares an array, an aggregate or a const pointer"));
        }
        let head = &src.text[node.start_byte()..init.start_byte()];
        let name = crate::syntax::declarator_name(src, decl).expect("an assignable declarator names its variable");
        let declaration = format!("{head}{};", src.text(decl));
        let assignment = format!("{name} = {};", src.text(value));
        Ok(format!("{declaration} {}", execute_block(version, &assignment, &indent_of(src, node))))
    }

    fn unsplittable(&self, src: &Source, node: Node, why: &str) -> Reason {
        Reason::new(src.line(node), format!("a declaration only one version has cannot be split: {why}"))
    }

    /// A pair of items the alignment paired as one edited item.
    fn item(&mut self, o: Node, n: Node) -> Result<String, Reason> {
        if is_comment(n) {
            return Ok(self.new.text(n).to_string());
        }
        if !self.in_function {
            return self.top_level_item(o, n);
        }
        match self.node(o, n, Ctx::Value) {
            Ok(text) => Ok(text),
            Err(Fail::Inexpressible(reason)) => Err(reason),
            Err(Fail::Here) => {
                if matches!(n.kind(), "declaration" | "case_statement" | "labeled_statement")
                    || matches!(o.kind(), "declaration" | "case_statement" | "labeled_statement")
                {
                    return Err(Reason::new(
                        self.new.line(n),
                        format!("the {} changed in a way no expression-level change expresses", label(n)),
                    ));
                }
                let indent = indent_of(self.new, n);
                Ok(format!(
                    "if (penumbra_execute(OLD)) {} else {}",
                    braced(self.old.text(o), &indent),
                    braced(self.new.text(n), &indent)
                ))
            }
        }
    }

    fn top_level_item(&mut self, o: Node, n: Node) -> Result<String, Reason> {
        match n.kind() {
            "function_definition" if o.kind() == "function_definition" => Ok(self.function(o, n)),
            "preproc_include" => {
                self.notes.push(Note::new(self.new.line(n), "an #include changed: both versions' includes are kept"));
                Ok(format!("{}{}", self.old.text(o), self.new.text(n)))
            }
            "preproc_ifdef" | "preproc_if" => {
                let (oc, nc) = (o.child_by_field_name("name").or(o.child_by_field_name("condition")), n.child_by_field_name("name").or(n.child_by_field_name("condition")));
                match (oc, nc) {
                    (Some(oc), Some(nc)) if self.old.key(oc) == self.new.key(nc) && o.child_by_field_name("alternative").is_none() && n.child_by_field_name("alternative").is_none() => {
                        let (io, inn) = (conditional_items(o), conditional_items(n));
                        let head_n = &self.new.text[n.start_byte()..inn.first().map_or(n.end_byte(), |c| c.start_byte())];
                        let start_o = io.first().map_or(o.end_byte(), |c| c.start_byte());
                        let start_n = inn.first().map_or(n.end_byte(), |c| c.start_byte());
                        let body = self.sequence(&io, start_o, &inn, start_n)?;
                        let tail_n = &self.new.text[inn.last().map_or(n.end_byte(), |c| file_scope_item_end(*c))..n.end_byte()];
                        Ok(format!("{head_n}{body}{tail_n}"))
                    }
                    _ => Err(Reason::new(self.new.line(n), "a preprocessor conditional's condition or #else branch changed")),
                }
            }
            "preproc_def" | "preproc_function_def" => Err(Reason::new(
                self.new.line(n),
                format!(
                    "the definition of macro `{}` changed: a macro has one definition in the unified program",
                    n.child_by_field_name("name").map_or("?", |m| self.new.text(m))
                ),
            )),
            _ => match self.node(o, n, Ctx::Constant) {
                Ok(text) => Ok(text),
                Err(Fail::Inexpressible(reason)) => Err(reason),
                Err(Fail::Here) if globals::renamable(self.old, o, self.new, n).is_some() => {
                    let name = globals::renamable(self.old, o, self.new, n).expect("checked");
                    self.notes.push(Note::new(
                        self.new.line(n),
                        format!("static `{name}` changed: both definitions are kept ({name}{OLD_SUFFIX}, {name}{NEW_SUFFIX}) and each use reads its version's"),
                    ));
                    let text = format!(
                        "{}\n{}",
                        globals::renamed(self.old, o, &name, OLD_SUFFIX),
                        globals::renamed(self.new, n, &name, NEW_SUFFIX)
                    );
                    let change = globals::type_change(self.old, o, self.new, n);
                    self.renamed_globals.push((name, change));
                    Ok(text)
                }
                Err(Fail::Here) if (is_type_specifier(n) || has_type_body(n)) && extends_at_end(self.old, o, self.new, n) => {
                    self.notes.push(Note::new(
                        self.new.line(n),
                        format!(
                            "type `{}` gained members at its end: new's definition serves both versions (old's code names none of them; the check compares old's code compiled with new's definition)",
                            type_name(self.new, n)
                        ),
                    ));
                    Ok(self.new.text(n).to_string())
                }
                Err(Fail::Here) if is_type_specifier(n) || n.kind() == "type_definition" => Err(Reason::new(
                    self.new.line(n),
                    format!(
                        "the definition of type `{}` changed: a type has one definition in the unified program",
                        type_name(self.new, n)
                    ),
                )),
                Err(Fail::Here) => Err(Reason::new(
                    self.new.line(n),
                    format!(
                        "the {} `{}` changed: a file-scope declaration has one type and a constant initialiser, which `change` cannot vary",
                        label(n),
                        declared_name(self.new, n).unwrap_or_default()
                    ),
                )),
            },
        }
    }

    // ----- functions -----

    fn function(&mut self, o: Node, n: Node) -> String {
        let name = declared_name(self.new, n).unwrap_or_default();
        let signature = |src: &Source, f: Node| -> String {
            src.key(f.child_by_field_name("declarator").expect("a function definition has a declarator"))
                + &children(f)
                    .iter()
                    .filter(|(field, _)| *field != Some("body") && *field != Some("declarator"))
                    .map(|(_, c)| src.key(*c))
                    .collect::<String>()
        };
        // Why the function is kept as two whole bodies (the note says it), unless it merges.
        let (why, reason) = if signature(self.old, o) != signature(self.new, n) {
            let reason = Reason::new(self.new.line(n), format!("the signature of `{name}` changed"));
            (format!("line {}: {}", reason.line, reason.why), Some(reason))
        } else if let Some(why) = self.whole_functions.get(&name) {
            (why.clone(), None)
        } else {
            let (bo, bn) = (o.child_by_field_name("body").unwrap(), n.child_by_field_name("body").unwrap());
            self.in_function = true;
            let body = self.block(bo, bn);
            self.in_function = false;
            match body {
                Ok(body) => {
                    let head = &self.new.text[n.start_byte()..bn.start_byte()];
                    return format!("{head}{body}");
                }
                Err(reason) => (format!("line {}: {}", reason.line, reason.why), Some(reason)),
            }
        };
        match crate::dispatch::dispatch(self.old, o, self.new, n, &name) {
            Ok(text) => {
                self.dispatched.push(name.clone());
                self.notes.push(Note::new(
                    self.new.line(n),
                    format!("`{name}` is kept as two whole functions ({name}{OLD_SUFFIX}, {name}{NEW_SUFFIX}) behind a dispatcher: {why}"),
                ));
                text
            }
            Err(dispatch_reason) => {
                self.reasons.push(reason.unwrap_or_else(|| Reason::new(self.new.line(n), why)));
                self.reasons.push(dispatch_reason);
                String::new()
            }
        }
    }

    // ----- statements and expressions -----

    /// A block (or a single statement standing where the other version has a block).
    fn block(&mut self, o: Node, n: Node) -> Result<String, Reason> {
        let ((io, so), (inn, sn)) = (block_items(o), block_items(n));
        let body = self.sequence(&io, so, &inn, sn)?;
        if n.kind() == "compound_statement" {
            let close = n.child(n.child_count() - 1).unwrap();
            let before_close = &self.new.text[inn.last().map_or(sn, |c| c.end_byte())..close.start_byte()];
            Ok(format!("{{{body}{before_close}}}"))
        } else {
            Ok(format!("{{ {body} }}"))
        }
    }

    fn node(&mut self, o: Node, n: Node, ctx: Ctx) -> Merged {
        if self.old.key(o) == self.new.key(n) {
            return Ok(self.new.text(n).to_string());
        }
        let is_block = |k: &str| k == "compound_statement";
        if self.in_function && (is_block(o.kind()) || is_block(n.kind())) && is_statement(o) && is_statement(n) {
            return self.block(o, n).map_err(Fail::Inexpressible);
        }
        if n.kind() == "case_statement" && o.kind() == "case_statement" {
            return self.case(o, n);
        }
        if n.kind() == "if_statement" && o.kind() == "if_statement" {
            if let Some(merged) = self.if_else_added(o, n) {
                return merged;
            }
        }
        if self.in_function && is_statement(o) && is_statement(n) {
            if let Some(merged) = self.if_wrapped(o, n) {
                return merged;
            }
        }
        if ctx == Ctx::Value
            && self.in_function
            && is_pure_library_call(self.old, o)
            && is_pure_library_call(self.new, n)
        {
            return Ok(format!("change({}, {})", self.old.text(o), self.new.text(n)));
        }
        if ctx == Ctx::Value && is_expression(o) && is_expression(n) && is_truth_value(n) {
            if let Some(merged) = self.condition_extended(o, n) {
                return Ok(merged);
            }
        }
        match self.same_shape(o, n, ctx) {
            Ok(text) => Ok(text),
            Err(Fail::Inexpressible(reason)) => Err(Fail::Inexpressible(reason)),
            Err(Fail::Here) if ctx == Ctx::Value && is_expression(o) && is_expression(n) && self.in_function => {
                Ok(format!("change({}, {})", self.old.text(o), self.new.text(n)))
            }
            Err(Fail::Here) => Err(Fail::Here),
        }
    }

    /// The node with every child merged with its counterpart, where both have the same children
    /// (kinds and fields) and the tokens between them agree.
    fn same_shape(&mut self, o: Node, n: Node, ctx: Ctx) -> Merged {
        let (co, cn) = (children(o), children(n));
        let leaf = |x: Node| x.child_count() == 0 || matches!(x.kind(), "string_literal" | "char_literal");
        if o.kind() != n.kind() || co.len() != cn.len() || leaf(o) || leaf(n) {
            return Err(Fail::Here);
        }
        // Tokens and punctuation must agree; named children may differ in kind (an operand
        // that became another expression), which merging them decides.
        let mismatched = |(fo, a): &(Option<&str>, Node), (fnn, b): &(Option<&str>, Node)| {
            fo != fnn || a.is_named() != b.is_named() || (!a.is_named() && a.kind() != b.kind())
        };
        if co.iter().zip(&cn).any(|(a, b)| mismatched(a, b)) {
            return Err(Fail::Here);
        }
        // An expression whose every operand changed is changed whole: pushing `change` into each
        // operand would only add divergences inside it (each `&&` operand a branch of its own).
        let named: Vec<(Node, Node)> =
            co.iter().zip(&cn).filter(|(_, (_, b))| b.is_named()).map(|((_, a), (_, b))| (*a, *b)).collect();
        if is_expression(n) && named.len() >= 2 && named.iter().all(|(a, b)| self.old.key(*a) != self.new.key(*b)) {
            return Err(Fail::Here);
        }
        let constant = ctx == Ctx::Constant || self.is_static_declaration(n);
        let mut out = String::new();
        let mut at = n.start_byte();
        for ((_, a), (field, b)) in co.iter().zip(&cn) {
            out += &self.new.text[at..b.start_byte()];
            let in_macro = n.kind() == "call_expression"
                && *field == Some("arguments")
                && is_macro_call(self.new, n, &self.macros);
            let child_ctx = if constant || in_macro { Ctx::Constant } else { child_ctx(self.new, n, *field, *b) };
            out += &self.node(*a, *b, child_ctx)?;
            at = b.end_byte();
        }
        out += &self.new.text[at..n.end_byte()];
        Ok(out)
    }

    fn is_static_declaration(&self, n: Node) -> bool {
        n.kind() == "declaration" && (!self.in_function || is_static(self.new, n))
    }

    /// A `case` whose label stayed: its statements merge as a sequence.
    fn case(&mut self, o: Node, n: Node) -> Merged {
        let ((so, start_o), (sn, start_n)) = (case_items(o), case_items(n));
        let label_n = &self.new.text[n.start_byte()..start_n];
        let value_key = |src: &Source, node: Node| node.child_by_field_name("value").map(|v| src.key(v));
        if value_key(self.old, o) != value_key(self.new, n) {
            return Err(Fail::Inexpressible(Reason::new(self.new.line(n), "a case label changed")));
        }
        let body = self.sequence(&so, start_o, &sn, start_n).map_err(Fail::Inexpressible)?;
        let end = sn.last().map_or(start_n, |c| c.end_byte());
        Ok(format!("{label_n}{body}{}", &self.new.text[end..n.end_byte()]))
    }

    /// `if (c) A` against `if (c) A else B` (an else branch added or removed): the shared part
    /// stays, the branch runs in its version's execute block.
    fn if_else_added(&mut self, o: Node, n: Node) -> Option<Merged> {
        let (eo, en) = (o.child_by_field_name("alternative"), n.child_by_field_name("alternative"));
        let (with, without, version) = match (eo, en) {
            (None, Some(_)) => (n, o, Version::New),
            (Some(_), None) => (o, n, Version::Old),
            _ => return None,
        };
        let (src_with, src_without) = (self.src(version), self.src(version.other()));
        let cond_with = with.child_by_field_name("condition")?;
        let cond_without = without.child_by_field_name("condition")?;
        if src_with.key(cond_with) != src_without.key(cond_without) {
            return None;
        }
        let (then_o, then_n) = (o.child_by_field_name("consequence")?, n.child_by_field_name("consequence")?);
        let then = match self.node(then_o, then_n, Ctx::Value) {
            Ok(text) => text,
            Err(fail) => return Some(Err(fail)),
        };
        let alternative = with.child_by_field_name("alternative")?;
        // The else clause's statement (after the `else` keyword).
        let branch = alternative.named_child(0)?;
        let indent = indent_of(self.new, n);
        // The new version's layout up to the branch, and its own before `else` where it has one.
        let head = &self.new.text[n.start_byte()..then_n.start_byte()];
        let before_else = match n.child_by_field_name("alternative") {
            Some(else_clause) => &self.new.text[then_n.end_byte()..else_clause.start_byte()],
            None => " ",
        };
        Some(Ok(format!(
            "{head}{then}{before_else}else if (penumbra_execute({})) {}",
            version.macro_name(),
            braced(src_with.text(branch), &indent)
        )))
    }

    /// A statement one version guards with a new `if` (Shadow's added and removed conditions):
    /// new `if (c) S else T` where old had just `T'` becomes `if (change(0, c)) S else T''` (T
    /// merged with T'), new `if (c) T` where old had `T'` becomes `if (change(1, c)) T''`, and
    /// the same the other way round. The edit is then a condition that differs, which shadow
    /// execution checks along every path (two execute blocks would be explored only where a
    /// path makes the versions differ already). Taken only where the wrapped statement is more
    /// like the other version's than the two statements are like each other.
    fn if_wrapped(&mut self, o: Node, n: Node) -> Option<Merged> {
        let condition_key = |src: &Source, node: Node| node.child_by_field_name("condition").map(|c| src.key(c));
        if o.kind() == "if_statement"
            && n.kind() == "if_statement"
            && condition_key(self.old, o) == condition_key(self.new, n)
        {
            // The same test: an edit inside it, which merging the two ifs finds.
            return None;
        }
        let similarity = |a: &str, b: &str| crate::align::similarity(a, b);
        let (ko, kn) = (self.old.key(o), self.new.key(n));
        let direct = similarity(&ko, &kn);
        // (the version with the `if`, its inner statement, whether that is the else branch)
        let candidates = [(Version::New, n, ko.as_str()), (Version::Old, o, kn.as_str())];
        for (version, wrapper, other_key) in candidates {
            if wrapper.kind() != "if_statement" {
                continue;
            }
            let src = self.src(version);
            let cond = wrapper.child_by_field_name("condition")?;
            let consequence = wrapper.child_by_field_name("consequence")?;
            let alternative = wrapper.child_by_field_name("alternative").and_then(|a| a.named_child(0));
            if alternative.is_none() && o.kind() == "if_statement" && n.kind() == "if_statement" {
                // Two ifs without a new arm: their conditions differ, which merging them says.
                continue;
            }
            // The statement the other version has: the else branch, or (no else) the branch.
            let inner = alternative.unwrap_or(consequence);
            if similarity(&src.key(inner), other_key) <= direct.max(0.5) {
                continue;
            }
            let (o_inner, n_inner) = match version {
                Version::New => (o, inner),
                Version::Old => (inner, n),
            };
            let merged_inner = match self.node(o_inner, n_inner, Ctx::Value) {
                Ok(text) => text,
                Err(Fail::Inexpressible(reason)) => return Some(Err(Fail::Inexpressible(reason))),
                Err(Fail::Here) => continue,
            };
            let inner_cond = &src.text[cond.start_byte() + 1..cond.end_byte() - 1];
            let neutral = if alternative.is_some() { "0" } else { "1" };
            let changed = match version {
                Version::New => format!("change({neutral}, {})", inner_cond.trim()),
                Version::Old => format!("change({}, {neutral})", inner_cond.trim()),
            };
            let indent = indent_of(self.new, n);
            let text = match alternative {
                Some(_) => {
                    format!("if ({changed}) {}\n{indent}else {merged_inner}", braced(src.text(consequence), &indent))
                }
                None => format!("if ({changed}) {merged_inner}"),
            };
            return Some(Ok(text));
        }
        None
    }

    /// Shadow's weakened and strengthened conditions: `A` against `A || B` (or `A && B`, and
    /// the other way round) keeps `A` shared and changes `B` alone against the operator's
    /// neutral value, so no divergence is reported where `A` decides both versions alike.
    fn condition_extended(&mut self, o: Node, n: Node) -> Option<String> {
        if let Some((right, neutral)) = extended(self.new, n, &self.old.key(o)) {
            let text = &self.new.text;
            return Some(format!(
                "{}change({neutral}, {}){}",
                &text[n.start_byte()..right.start_byte()],
                self.new.text(right),
                &text[right.end_byte()..n.end_byte()]
            ));
        }
        if let Some((right, neutral)) = extended(self.old, o, &self.new.key(n)) {
            let text = &self.old.text;
            return Some(format!(
                "{}change({}, {neutral}){}",
                &text[o.start_byte()..right.start_byte()],
                self.old.text(right),
                &text[right.end_byte()..o.end_byte()]
            ));
        }
        None
    }

    fn src(&self, version: Version) -> &'a Source {
        match version {
            Version::Old => self.old,
            Version::New => self.new,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Version {
    Old,
    New,
}

impl Version {
    fn name(self) -> &'static str {
        match self {
            Version::Old => "old",
            Version::New => "new",
        }
    }
    fn macro_name(self) -> &'static str {
        match self {
            Version::Old => "OLD",
            Version::New => "NEW",
        }
    }
    fn other(self) -> Version {
        match self {
            Version::Old => Version::New,
            Version::New => Version::Old,
        }
    }
}

fn is_statement(node: Node) -> bool {
    node.kind().ends_with("_statement") && node.kind() != "case_statement"
}

/// A type's name as C spells it (`struct pair`, `enum mode`, a typedef's names).
fn type_name(src: &Source, node: Node) -> String {
    match (node.kind().strip_suffix("_specifier"), node.child_by_field_name("name")) {
        (Some(keyword), Some(name)) => format!("{keyword} {}", src.text(name)),
        _ => declared_name(src, node).map_or_else(String::new, |n| n.trim_start_matches("typedef ").to_string()),
    }
}

fn label(node: Node) -> String {
    node.kind().replace('_', " ")
}

/// The whitespace the node's line starts with.
fn indent_of(src: &Source, node: Node) -> String {
    let line_start = src.text[..node.start_byte()].rfind('\n').map_or(0, |i| i + 1);
    src.text[line_start..node.start_byte()].chars().take_while(|c| c.is_whitespace()).collect()
}

/// `{ text }`, over several lines where the text spans lines or could swallow the brace (a
/// line comment, a directive).
fn braced(text: &str, indent: &str) -> String {
    if text.starts_with('{') {
        return text.to_string();
    }
    if text.contains('\n') || text.contains("//") || text.starts_with('#') {
        format!("{{\n{indent}  {text}\n{indent}}}")
    } else {
        format!("{{ {text} }}")
    }
}

fn execute_block(version: Version, text: &str, indent: &str) -> String {
    format!("if (penumbra_execute({})) {}", version.macro_name(), braced(text, indent))
}

/// `A || B` (or `&&`) whose left operand is `short_key`: its right operand and the operator's
/// neutral value.
fn extended<'t>(src: &Source, long: Node<'t>, short_key: &str) -> Option<(Node<'t>, &'static str)> {
    if long.kind() != "binary_expression" {
        return None;
    }
    let neutral = match src.text(long.child_by_field_name("operator")?) {
        "||" => "0",
        "&&" => "1",
        _ => return None,
    };
    let (left, right) = (long.child_by_field_name("left")?, long.child_by_field_name("right")?);
    (src.key(left) == short_key).then_some((right, neutral))
}

/// The statements of a block (a single statement standing for a block is its only item), and
/// where they start.
fn block_items(node: Node<'_>) -> (Vec<Node<'_>>, usize) {
    if node.kind() == "compound_statement" {
        let all: Vec<Node> = children(node).into_iter().map(|(_, c)| c).collect();
        let items = all[1..all.len().saturating_sub(1)].to_vec();
        (items, all[0].end_byte())
    } else {
        (vec![node], node.start_byte())
    }
}

/// The statements after a case label, and where they start.
fn case_items(node: Node<'_>) -> (Vec<Node<'_>>, usize) {
    let all = children(node);
    let colon = all.iter().position(|(_, c)| c.kind() == ":").expect("a case has a colon");
    (all[colon + 1..].iter().map(|(_, c)| *c).collect(), all[colon].1.end_byte())
}

/// The items inside `#if`/`#ifdef` (without the condition).
fn conditional_items(node: Node<'_>) -> Vec<Node<'_>> {
    children(node).into_iter().filter(|(f, c)| f.is_none() && c.is_named()).map(|(_, c)| c).collect()
}
