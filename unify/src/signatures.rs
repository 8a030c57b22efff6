//! Static functions whose parameter count changed (seq of 2006: `print_numbers (fmt)` became
//! `print_numbers (fmt, first, step, last)` when its globals became parameters). No dispatcher
//! can call both bodies with one argument list, so before the merge each version's text names
//! its own function (`f__penumbra_old` in old's text, `f__penumbra_new` in new's, every use):
//! the merge then keeps both definitions, as items only one version has, and each changed call
//! calls its version's. The check strips each projection's suffix, so every function still
//! compares with its input under its own name.

use crate::suffixes::{NEW_SUFFIX, OLD_SUFFIX};
use crate::syntax::{children, declared_name, descendants, is_static, parameters, Source};

/// The static functions both texts define with a different number of parameters: each name
/// with its definition's line in new.
pub fn changed_arity(old: &Source, new: &Source) -> Vec<(String, usize)> {
    let old_arity = static_functions(old);
    let mut out: Vec<(String, usize)> = static_functions(new)
        .into_iter()
        .filter(|(name, count, _)| old_arity.iter().any(|(o, c, _)| o == name && c != count))
        .map(|(name, _, line)| (name, line))
        .collect();
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The texts with each of `names` renamed in each version's text (`NAME__penumbra_old` in
/// old's, `NAME__penumbra_new` in new's).
pub fn renamed(old: &Source, new: &Source, names: &[String]) -> (String, String) {
    (rename(old, names, OLD_SUFFIX), rename(new, names, NEW_SUFFIX))
}

fn rename(src: &Source, names: &[String], suffix: &str) -> String {
    let mut ends: Vec<usize> = descendants(src.root())
        .filter(|node| node.kind() == "identifier" && names.iter().any(|n| n == src.text(*node)))
        .map(|node| node.end_byte())
        .collect();
    ends.sort_unstable();
    let mut out = String::with_capacity(src.text.len() + ends.len() * suffix.len());
    let mut at = 0;
    for end in ends {
        out.push_str(&src.text[at..end]);
        out.push_str(suffix);
        at = end;
    }
    out.push_str(&src.text[at..]);
    out
}

/// Each static function definition at file scope with its parameter count and line.
fn static_functions(src: &Source) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for (_, item) in children(src.root()) {
        if item.kind() != "function_definition" {
            continue;
        }
        if !is_static(src, item) {
            continue;
        }
        let (Some(name), Some((named, variadic))) = (declared_name(src, item), parameters(src, item)) else {
            continue;
        };
        let count = named + usize::from(variadic);
        out.push((name, count, src.line(item)));
    }
    out
}
