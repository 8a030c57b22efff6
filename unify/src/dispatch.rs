//! The coarsest faithful merge of a function: both versions' bodies as two static functions
//! (`f__penumbra_old`, `f__penumbra_new`) and `f` itself calling the one of its version, for a
//! function whose edits no statement-level form expresses or whose finer merge failed the check.
//! It needs the signature unchanged and every parameter named, so the dispatcher can pass them on.

use crate::suffixes::{NEW_SUFFIX, OLD_SUFFIX};
use crate::syntax::{children, descendants, function_declarator, is_static, parameters, Source};
use crate::Reason;
use tree_sitter::Node;

/// Both versions' bodies as two static functions, and the function itself calling the one
/// of its version: always a faithful merge where the signature did not change.
pub fn dispatch(old: &Source, o: Node, new: &Source, n: Node, name: &str) -> Result<String, Reason> {
    let declarator = n.child_by_field_name("declarator").unwrap();
    let function_declarator = function_declarator(declarator)
        .ok_or_else(|| Reason::new(new.line(n), format!("`{name}`: no parameter list found")))?;
    let params = function_declarator.child_by_field_name("parameters").unwrap();
    let mut args = Vec::new();
    for (_, p) in children(params) {
        match p.kind() {
            "parameter_declaration" => {
                let only_void = new.text(p).trim() == "void";
                if only_void {
                    continue;
                }
                let arg = p.child_by_field_name("declarator").and_then(|d| crate::syntax::declarator_name(new, d));
                args.push(arg.ok_or_else(|| {
                    Reason::new(new.line(p), format!("`{name}` has an unnamed parameter: no dispatcher can pass it on"))
                })?);
            }
            "variadic_parameter" => {
                return Err(Reason::new(
                    new.line(p),
                    format!("`{name}` is variadic: no dispatcher can pass its arguments on"),
                ))
            }
            _ => {}
        }
    }
    // The copies are called with new's parameters: old must name as many.
    let old_count = parameters(old, o).map(|(named, _)| named);
    if old_count != Some(args.len()) {
        return Err(Reason::new(
            new.line(n),
            format!(
                "the signature of `{name}` changed ({} parameters, then {}): no dispatcher can call both versions",
                old_count.map_or("?".to_string(), |c| c.to_string()),
                args.len()
            ),
        ));
    }
    let renamed = |src: &Source, f: Node, suffix: &str| -> String {
        let decl = f.child_by_field_name("declarator").unwrap();
        let ident = find_identifier(decl).expect("a function declarator names the function");
        let text = &src.text[f.start_byte()..f.end_byte()];
        let at = ident.end_byte() - f.start_byte();
        let (head, tail) = text.split_at(at);
        let head = head.replacen("inline ", "", 1);
        let head = if is_static(src, f) { head.replacen("static ", "", 1) } else { head };
        // Always inlined into the dispatcher, so the function keeps its code where it was (the
        // check compares the dispatcher with the input's function), and `__func__` keeps the
        // function's own name.
        let tail = own_name_for_func(src, f, at, tail, name);
        format!("static inline __attribute__((always_inline)) {head}{suffix}{tail}")
    };
    let returns_void =
        new.text(n.child_by_field_name("type").unwrap()) == "void" && declarator.kind() == "function_declarator";
    let call = |suffix: &str| format!("{name}{suffix}({})", args.join(", "));
    let body = if returns_void {
        format!("{{\n  if (penumbra_execute(OLD))\n    {};\n  else\n    {};\n}}", call(OLD_SUFFIX), call(NEW_SUFFIX))
    } else {
        format!("{{\n  return change({}, {});\n}}", call(OLD_SUFFIX), call(NEW_SUFFIX))
    };
    let body_n = n.child_by_field_name("body").unwrap();
    let head = &new.text[n.start_byte()..body_n.start_byte()];
    // The copies call the function itself (recursion), so it is declared before them.
    let prototype = format!("{};", head.trim_end());
    Ok(format!("{prototype}\n{}\n\n{}\n\n{head}{body}", renamed(old, o, OLD_SUFFIX), renamed(new, n, NEW_SUFFIX)))
}

/// `tail` (the function's text from byte `at` on) with `__func__` and `__FUNCTION__` spelled as
/// the function's own name.
fn own_name_for_func(src: &Source, f: Node, at: usize, tail: &str, name: &str) -> String {
    let mut spots: Vec<_> = descendants(f)
        .filter(|node| node.kind() == "identifier" && matches!(src.text(*node), "__func__" | "__FUNCTION__"))
        .map(|node| node.byte_range())
        .collect();
    spots.sort_by_key(|r| r.start);
    let base = f.start_byte() + at;
    let mut out = String::new();
    let mut from = 0;
    for range in spots.into_iter().filter(|r| r.start >= base) {
        out.push_str(&tail[from..range.start - base]);
        out.push_str(&format!("\"{name}\""));
        from = range.end - base;
    }
    out.push_str(&tail[from..]);
    out
}

/// The version's text with each function `names` lists written as a function kept whole is:
/// its prototype, two always-inlined copies of its own body, and the dispatcher calling them.
/// That is the input itself, only forwarded through the dispatcher, and it reaches the optimiser
/// as the unified file's projection does: the check compares a function kept whole with this
/// where the input as written is optimised in another order (an equality the inlined copy's
/// branch lets -O2 fold into a call's argument, which the input's own pipeline leaves alone).
pub fn kept_whole_alike(src: &Source, names: &[String]) -> String {
    let mut edits = Vec::new();
    let mut stack = vec![src.root()];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "function_definition" => {
                let Some(name) = crate::syntax::declared_name(src, node).filter(|n| names.contains(n)) else {
                    continue;
                };
                if let Ok(text) = dispatch(src, node, src, node, &name) {
                    edits.push((node.byte_range(), text));
                }
            }
            "translation_unit" | "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif"
            | "preproc_elifdef" => {
                let mut cursor = node.walk();
                stack.extend(node.children(&mut cursor));
            }
            _ => {}
        }
    }
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(src.text.len());
    let mut at = 0;
    for (range, text) in edits {
        out.push_str(&src.text[at..range.start]);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(&src.text[at..]);
    out
}

fn find_identifier(node: Node) -> Option<Node> {
    if node.kind() == "identifier" {
        return Some(node);
    }
    find_identifier(node.child_by_field_name("declarator")?)
}
