//! Aligning two sequences of items (top-level items, a block's statements): equal items are
//! matched by a longest common subsequence, and in the gaps between them an old item is paired
//! with the new item it was most likely edited into (the same declared name, else the same
//! kind of statement with mostly the same tokens), so unification can descend into the pair.

use rustc_hash::FxHashMap;

/// One item of a sequence, as alignment sees it.
pub struct Item {
    /// The item's tokens (`Source::key`): equal keys, equal code.
    pub key: String,
    /// What the item declares, if anything: items declaring the same name always pair.
    pub identity: Option<String>,
    /// The tree-sitter kind: only items of one kind pair by similarity.
    pub kind: String,
}

/// One step of the merged sequence, in an order that keeps both inputs' orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Same(usize, usize),
    Edited(usize, usize),
    /// An edited pair placed where the old item was ([`pair_moved`]).
    MovedEdited(usize, usize),
    OldOnly(usize),
    NewOnly(usize),
}

/// Below this share of common tokens, two statements of one kind are a removal and an
/// addition rather than an edit.
const SIMILAR: f64 = 0.5;

pub fn align(old: &[Item], new: &[Item]) -> Vec<Step> {
    let matched = lcs(old, new);
    let mut steps = Vec::new();
    let (mut i, mut j) = (0, 0);
    for &(mi, mj) in matched.iter().chain(std::iter::once(&(old.len(), new.len()))) {
        pair_gap(old, new, i..mi, j..mj, &mut steps);
        if mi < old.len() {
            steps.push(Step::Same(mi, mj));
        }
        (i, j) = (mi + 1, mj + 1);
    }
    steps
}

/// File-scope items both versions declare (by [`Item::identity`]) at places the alignment
/// could not pair, another matched item standing between them (a type moved above the globals
/// that now use it): each such pair becomes one edited item at the first of its two places, so
/// it is defined once. Each version's items before that place are still before it, and each
/// version's uses come after its own definition, so there both versions' uses see it. Equal
/// macro definitions keep both places: where a macro is defined decides which lines it expands
/// in, and defining it again alike is allowed.
pub fn pair_moved(steps: Vec<Step>, old: &[Item], new: &[Item]) -> Vec<Step> {
    let mut partners: FxHashMap<usize, usize> = FxHashMap::default();
    let mut taken: FxHashMap<usize, usize> = FxHashMap::default();
    for &step in &steps {
        let Step::OldOnly(i) = step else { continue };
        let Some(identity) = &old[i].identity else { continue };
        let partner = steps.iter().find_map(|s| match *s {
            Step::NewOnly(j) if new[j].identity.as_ref() == Some(identity) && !taken.contains_key(&j) => Some(j),
            _ => None,
        });
        let Some(j) = partner else { continue };
        if old[i].kind.starts_with("preproc_") && old[i].key == new[j].key {
            continue;
        }
        partners.insert(i, j);
        taken.insert(j, i);
    }
    let mut placed = Vec::new();
    let mut out = Vec::with_capacity(steps.len());
    for step in steps {
        let pair = match step {
            Step::OldOnly(i) => partners.get(&i).map(|&j| (i, j)),
            Step::NewOnly(j) => taken.get(&j).map(|&i| (i, j)),
            _ => None,
        };
        match pair {
            Some(pair) if placed.contains(&pair) => {}
            Some((i, j)) => {
                placed.push((i, j));
                out.push(if matches!(step, Step::OldOnly(_)) { Step::MovedEdited(i, j) } else { Step::Edited(i, j) });
            }
            None => out.push(step),
        }
    }
    out
}

/// The index pairs of a longest common subsequence of equal keys.
fn lcs(old: &[Item], new: &[Item]) -> Vec<(usize, usize)> {
    let (n, m) = (old.len(), new.len());
    // table[i][j]: the LCS length of old[i..] and new[j..].
    let mut table = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[at(i, j)] = if old[i].key == new[j].key {
                table[at(i + 1, j + 1)] + 1
            } else {
                table[at(i + 1, j)].max(table[at(i, j + 1)])
            };
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if old[i].key == new[j].key {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if table[at(i + 1, j)] >= table[at(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Pairs the items of one gap between matched items, in order, and lists the rest as added or
/// removed.
fn pair_gap(
    old: &[Item],
    new: &[Item],
    olds: std::ops::Range<usize>,
    news: std::ops::Range<usize>,
    steps: &mut Vec<Step>,
) {
    let (mut i, mut j) = (olds.start, news.start);
    for oi in olds.clone() {
        let partner = (j..news.end).find(|&nj| pairs(&old[oi], &new[nj]));
        if let Some(nj) = partner {
            steps.extend((i..oi).map(Step::OldOnly));
            steps.extend((j..nj).map(Step::NewOnly));
            steps.push(Step::Edited(oi, nj));
            (i, j) = (oi + 1, nj + 1);
        }
    }
    steps.extend((i..olds.end).map(Step::OldOnly));
    steps.extend((j..news.end).map(Step::NewOnly));
}

fn pairs(a: &Item, b: &Item) -> bool {
    match (&a.identity, &b.identity) {
        (Some(x), Some(y)) => x == y,
        (None, None) => (a.kind == b.kind && similarity(&a.key, &b.key) >= SIMILAR) || guards(a, b) || guards(b, a),
        _ => false,
    }
}

/// Whether `outer` is an `if` holding `inner` unchanged (a guard one version added).
fn guards(outer: &Item, inner: &Item) -> bool {
    outer.kind == "if_statement" && !inner.key.is_empty() && outer.key.contains(&format!("\u{1}{}", inner.key))
}

/// The share of tokens two keys have in common (Dice's coefficient over token multisets).
pub fn similarity(a: &str, b: &str) -> f64 {
    let mut counts: FxHashMap<&str, i64> = FxHashMap::default();
    let (mut na, mut nb) = (0usize, 0usize);
    for t in a.split('\u{1}').filter(|t| !t.is_empty()) {
        *counts.entry(t).or_default() += 1;
        na += 1;
    }
    let mut common = 0usize;
    for t in b.split('\u{1}').filter(|t| !t.is_empty()) {
        nb += 1;
        if let Some(c) = counts.get_mut(t) {
            if *c > 0 {
                *c -= 1;
                common += 1;
            }
        }
    }
    if na + nb == 0 {
        return 1.0;
    }
    2.0 * common as f64 / (na + nb) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(key: &str, kind: &'static str, identity: Option<&str>) -> Item {
        let key = key.split(' ').map(|t| format!("{t}\u{1}")).collect();
        Item { key, identity: identity.map(str::to_string), kind: kind.to_string() }
    }

    #[test]
    fn equal_items_match_and_edits_pair_in_the_gaps() {
        let old = [item("a = 1 ;", "e", None), item("b = x + 1 ;", "e", None), item("return b ;", "r", None)];
        let new = [
            item("a = 1 ;", "e", None),
            item("b = x + 2 ;", "e", None),
            item("log ( ) ;", "e", None),
            item("return b ;", "r", None),
        ];
        assert_eq!(align(&old, &new), vec![Step::Same(0, 0), Step::Edited(1, 1), Step::NewOnly(2), Step::Same(2, 3)]);
    }

    #[test]
    fn a_moved_declaration_is_one_edited_item_at_its_first_place() {
        let old = [item("f", "f", Some("f")), item("g", "f", Some("g")), item("struct s", "s", Some("s"))];
        let new = [item("struct s", "s", Some("s")), item("f", "f", Some("f")), item("g", "f", Some("g"))];
        let steps = align(&old, &new);
        assert_eq!(steps, vec![Step::NewOnly(0), Step::Same(0, 1), Step::Same(1, 2), Step::OldOnly(2)]);
        assert_eq!(pair_moved(steps, &old, &new), vec![Step::Edited(2, 0), Step::Same(0, 1), Step::Same(1, 2)]);
        // An equal macro definition stays at both places.
        // Placed where the old one was, when that comes first.
        let steps = align(&new, &old);
        assert_eq!(pair_moved(steps, &new, &old), vec![Step::MovedEdited(0, 2), Step::Same(1, 0), Step::Same(2, 1)]);
        let old =
            [item("f", "f", Some("f")), item("g", "f", Some("g")), item("# define N 1", "preproc_def", Some("N"))];
        let new =
            [item("# define N 1", "preproc_def", Some("N")), item("f", "f", Some("f")), item("g", "f", Some("g"))];
        let steps = align(&old, &new);
        assert_eq!(steps, vec![Step::NewOnly(0), Step::Same(0, 1), Step::Same(1, 2), Step::OldOnly(2)]);
        assert_eq!(pair_moved(steps.clone(), &old, &new), steps);
    }

    #[test]
    fn declarations_pair_by_name_and_dissimilar_statements_do_not_pair() {
        let old = [item("int f ( ) { return 1 ; }", "f", Some("f")), item("x = y ;", "e", None)];
        let new = [item("p ( q , r , s ) ;", "e", None), item("int f ( ) { g ( ) ; return 2 ; }", "f", Some("f"))];
        assert_eq!(align(&old, &new), vec![Step::NewOnly(0), Step::Edited(0, 1), Step::OldOnly(1)]);
    }
}
