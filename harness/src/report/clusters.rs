//! The replayed tests of a run grouped by what a developer would call the same difference, and
//! the groups ranked (issue 39).
//!
//! Two tests are in one cluster when they have the same class, parted at the same source line
//! with the same branch outcomes, ended the same way in each version (exit status, or the
//! error's kind and place), and differ on the same first output line once numbers and quoted
//! words, which carry the inputs, are abstracted (`cut: invalid byte 'x9'` and `cut: invalid
//! byte 'a'` are one difference). A cluster's representative is its simplest input: the fewest
//! non-zero bytes, then the fewest bytes, then the first name.
//!
//! Rank: regressions first, then output differences, fixes, standard-error differences, errors
//! in both, unconfirmed, expected, silent, replay failures (what a person acts on first);
//! within a class, differences made where code only the new version has starts (statements the
//! patch adds: `penumbra_execute(NEW)` blocks, `if (change(0, c))` branches) before the others, then those seen in both the
//! exit status and the output before those seen in one, then clusters reached by fewer inputs
//! (a rare difference hides among many tests), then by site. Every input to the order is in
//! the cluster, so the order is deterministic.

use crate::replay::classify::Class;
use crate::replay::record::{LineDiff, OutcomeRecord, ReplayedRecord};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The longest abstracted text a cluster keeps of a line.
const TEXT_LIMIT: usize = 160;

/// One cluster of `clusters.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Cluster {
    /// 1 for the cluster to look at first.
    pub rank: u32,
    pub class: Class,
    /// `FILE:LINE` where the versions parted (absent for a test that records none).
    pub site: Option<String>,
    /// What the old and the new version did there (`true`/`false`, `value 1`, `fails`, ...).
    pub old_at_site: Option<String>,
    pub new_at_site: Option<String>,
    /// How each version ended: `exit N`, or its error as replay reported it.
    pub old_end: String,
    pub new_end: String,
    /// The first differing line of standard output (or, for `stderr-diff`, of standard error),
    /// numbers written `N` and quoted words `'…'`: `stdout line 2: 'N item' / 'N items'`.
    pub difference: Option<String>,
    /// `FILE:LINE` where the code only the new version has starts (see the test's
    /// `new_only_code`), if the versions of one of its tests parted there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_only_code: Option<String>,
    /// Tests in the cluster.
    pub count: u64,
    /// The simplest test of the cluster (see the module documentation).
    pub representative: String,
    /// Every test of the cluster, by name, in the run's order.
    pub tests: Vec<String>,
    /// Why the cluster is where it is in the order.
    pub why: String,
}

/// Where a class comes in the order (see the module documentation).
fn class_order(class: Class) -> u8 {
    match class {
        Class::Regression => 0,
        Class::OutputDiff => 1,
        Class::Fix => 2,
        Class::StderrDiff => 3,
        Class::BothError => 4,
        Class::Unconfirmed => 5,
        Class::Expected => 6,
        Class::Silent => 7,
        Class::ReplayFailed => 8,
    }
}

/// The tests grouped and ranked, rank 1 first.
pub fn cluster(tests: &[ReplayedRecord]) -> Vec<Cluster> {
    type Key = (Class, Option<String>, Option<String>, Option<String>, String, String, Option<String>);
    let mut groups: BTreeMap<Key, Vec<&ReplayedRecord>> = BTreeMap::new();
    for t in tests {
        let r = &t.record;
        let site = r.line.map(|line| format!("{}:{line}", r.file.as_deref().map_or("?", file_name)));
        let at = |s: &Option<String>| s.as_deref().map(abstracted);
        let key = (
            t.verdict.class,
            site,
            at(&r.old),
            at(&r.new),
            end(&t.verdict.old_outcome, true),
            end(&t.verdict.new_outcome, true),
            difference(t),
        );
        groups.entry(key).or_default().push(t);
    }
    let mut clusters: Vec<Cluster> = groups
        .into_iter()
        .map(|((class, site, old_at_site, new_at_site, old_end, new_end, difference), members)| {
            let representative =
                members.iter().min_by_key(|t| simplicity(t)).map_or(String::new(), |t| t.record.name.clone());
            let new_only_code = members.iter().find_map(|t| t.record.new_only_code.as_deref()).map(short_site);
            Cluster {
                rank: 0,
                class,
                site,
                old_at_site,
                new_at_site,
                why: String::new(),
                new_only_code,
                count: members.len() as u64,
                representative,
                tests: members.iter().map(|t| t.record.name.clone()).collect(),
                old_end,
                new_end,
                difference,
            }
        })
        .collect();
    let order = |c: &Cluster| {
        (
            class_order(c.class),
            c.new_only_code.is_none(),
            std::cmp::Reverse(visibility(c)),
            c.count,
            c.site.as_deref().map(site_order),
            c.difference.clone(),
            c.old_end.clone(),
        )
    };
    clusters.sort_by_cached_key(order);
    for (i, c) in clusters.iter_mut().enumerate() {
        c.rank = i as u32 + 1;
        c.why = reason(c);
    }
    clusters
}

/// How much of the behaviour a person sees differs: the exit (or error) and the output.
fn visibility(c: &Cluster) -> u8 {
    u8::from(c.old_end != c.new_end) + u8::from(c.difference.is_some())
}

fn reason(c: &Cluster) -> String {
    let seen = match (c.old_end != c.new_end, c.difference.is_some()) {
        (true, true) => "the versions end differently and their output differs",
        (true, false) => "the versions end differently",
        (false, true) => "their output differs",
        (false, false) => "both end the same way",
    };
    let inputs = if c.count == 1 { "1 input".to_string() } else { format!("{} inputs", c.count) };
    let new_code = match &c.new_only_code {
        Some(at) => format!("runs code only the new version has ({at}); "),
        None => String::new(),
    };
    format!("{}: {new_code}{seen}; {inputs}", c.class.as_str())
}

/// A version's end as a cluster tells it (`abstract`: an error's numbers and quoted words
/// abstracted, its place kept) or a test does.
pub fn end(outcome: &OutcomeRecord, abstract_: bool) -> String {
    let text = |s: &str| if abstract_ { abstracted(s) } else { s.to_string() };
    match outcome {
        OutcomeRecord::Exit { exit, .. } => format!("exit {exit}"),
        OutcomeRecord::Error { error } if abstract_ => abstracted_error(error),
        OutcomeRecord::Error { error } => error.clone(),
        OutcomeRecord::ReplayFailed { replay_failed } => format!("replay failed: {}", text(replay_failed)),
        OutcomeRecord::NoVerdict { no_verdict } => format!("no verdict: {}", text(no_verdict)),
    }
}

/// An error keeps its kind and its place (`FILE:LINE`), and loses the numbers that vary with the
/// input (sizes, addresses, offsets).
fn abstracted_error(error: &str) -> String {
    let (what, place) = match error.rsplit_once(" at ") {
        Some((what, place)) if place.contains(':') => (what, Some(place)),
        _ => (error, None),
    };
    let what = abstracted(what);
    match place {
        Some(place) => format!("{what} at {place}"),
        None => what,
    }
}

/// The first differing output line of a test, abstracted: standard output for a test whose
/// versions both exited, standard error for `stderr-diff`.
fn difference(t: &ReplayedRecord) -> Option<String> {
    let (stream, diff) = match (&t.verdict.stdout_diff, &t.verdict.stderr_diff) {
        (Some(d), _) => ("stdout", d),
        (None, Some(d)) => ("stderr", d),
        (None, None) => return None,
    };
    let LineDiff { line, old, new } = diff;
    Some(format!("{stream} line {line}: '{}' / '{}'", abstracted(old), abstracted(new)))
}

/// `text` with what carries a test's input abstracted: a quoted part (as coreutils quotes the
/// words of its input, shell escapes and all: `'a'$'\n'`; from a quote to the line's last such
/// quote, in any quotes) written `'…'`, a run of digits `N`, a
/// run of characters that are no text (control characters, bytes that are not UTF-8, characters
/// beyond ASCII but quotes) `?`; cut to [`TEXT_LIMIT`] characters.
pub fn abstracted(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (done, left) = abstract_chars(rest);
        out.push_str(&done);
        rest = left;
    }
    if out.chars().count() > TEXT_LIMIT {
        out = out.chars().take(TEXT_LIMIT).chain(std::iter::once('…')).collect();
    }
    out
}

/// The quote that closes one opened by `c`, if `c` opens one.
fn closing_quote(c: char) -> Option<char> {
    match c {
        '\'' | '`' => Some('\''),
        '"' => Some('"'),
        '‘' => Some('’'),
        '“' => Some('”'),
        _ => None,
    }
}

/// Whether `c` is no text a program prints as such (see [`abstracted`]).
fn is_binary(c: char) -> bool {
    c.is_control() || (!c.is_ascii() && !matches!(c, '‘' | '’' | '“' | '”'))
}

/// Abstracts `text` up to its first quoted part (which ends at the line's last such quote): the
/// part done and the rest.
fn abstract_chars(text: &str) -> (String, &str) {
    let mut out = String::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if let Some(close) = closing_quote(c) {
            let after = i + c.len_utf8();
            // To the line's last such quote: a quoted name may hold quotes and spaces of its own
            // (`' -in'`, shell-escaped), and two quoted words in a row are input both.
            if let Some(end) = text[after..].rfind(close) {
                // One spelling whatever the quotes: `'x'` and `"x'y"` name input alike.
                out.push_str("'…'");
                return (out, &text[after + end + close.len_utf8()..]);
            }
        }
        if c.is_ascii_digit() {
            while chars.peek().is_some_and(|(_, d)| d.is_ascii_digit()) {
                chars.next();
            }
            out.push('N');
        } else if is_binary(c) {
            while chars.peek().is_some_and(|&(_, d)| is_binary(d)) {
                chars.next();
            }
            out.push('?');
        } else {
            out.push(c);
        }
    }
    (out, "")
}

/// How simple a test's input is: (non-zero bytes, bytes, name).
fn simplicity(t: &ReplayedRecord) -> (usize, usize, &str) {
    let inputs = &t.record.inputs.0;
    let nonzero = inputs.iter().map(|i| i.bytes.iter().filter(|&&b| b != 0).count()).sum();
    let bytes = inputs.iter().map(|i| i.bytes.len()).sum();
    (nonzero, bytes, t.record.name.as_str())
}

/// A site's place in the order: its file, then its line as a number (`cut.c:9` before `cut.c:10`).
fn site_order(site: &str) -> (String, u32) {
    match site.rsplit_once(':') {
        Some((file, line)) => (file.to_string(), line.parse().unwrap_or(u32::MAX)),
        None => (site.to_string(), 0),
    }
}

/// `FILE:LINE` with the file's name only (`src/cut.c:12` -> `cut.c:12`).
fn short_site(site: &str) -> String {
    match site.rsplit_once(':') {
        Some((file, line)) => format!("{}:{line}", file_name(file)),
        None => site.to_string(),
    }
}

/// The file name of a path (`src/cut.c` -> `cut.c`).
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_quoted_words_are_abstracted() {
        assert_eq!(abstracted("cut: invalid byte 'x9', line 12"), "cut: invalid byte '…', line N");
        assert_eq!(
            abstracted("seq: invalid floating point argument: ‘1e’"),
            "seq: invalid floating point argument: '…'"
        );
        assert_eq!(abstracted("a\u{1}\u{2}b 0x1f"), "a?b NxNf", "a run of control characters is one ?");
        assert_eq!(abstracted("it's"), "it's", "a lone quote stays");
        assert_eq!(
            abstracted(r"dd: failed to open ''\''x'\'''$'\n': No such file"),
            "dd: failed to open '…': No such file",
            "a word quoted with shell escapes is one quoted word"
        );
        assert_eq!(abstracted("say 'a b' now"), "say '…' now", "a quoted phrase");
        assert_eq!(
            abstracted("dd: failed to open ' \"-in': No such file"),
            "dd: failed to open '…': No such file",
            "a quoted name with a space and a quote of its own"
        );
        assert_eq!(abstracted("\u{fffd}\u{fffd}?\u{465}"), "???", "characters that are no text");
    }

    #[test]
    fn errors_keep_their_place() {
        assert_eq!(
            abstracted_error("AddressSanitizer: heap-buffer-overflow READ of size 4 at cut.c:264"),
            "AddressSanitizer: heap-buffer-overflow READ of size N at cut.c:264"
        );
        assert_eq!(abstracted_error("timeout after 10.0 s"), "timeout after N.N s");
    }
}
