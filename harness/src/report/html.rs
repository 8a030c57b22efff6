//! `report.html`: one self-contained page (inline style, inline SVG, no script, no external
//! asset) that opens from the file system: the summary, the clusters in rank order, and for each
//! of the first ones its representative input as a command line, old's and new's end and first
//! differing line side by side with the differing characters marked, and the source lines
//! where the versions parted.

use super::clusters::{end, Cluster};
use super::{Command, Page};
use crate::markup::escape;
use crate::replay::record::LineDiff;
use std::fmt::Write as _;

pub const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:80em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}\
th{background:#f3f3f3}pre,code{font-family:monospace;background:#f7f7f7}pre{padding:.5em;overflow-x:auto}\
mark{background:#ffd36b}.site{background:#fff0c0;font-weight:bold}section{border-top:2px solid #ddd;margin-top:1.5em}\
.regression,.unconfirmed{color:#b00020}.output-diff,.fix{color:#0b5394}.muted{color:#777}";

/// The page.
pub fn page(p: &Page) -> String {
    let mut h = String::new();
    let title = format!("penumbra: {}", p.program);
    let _ =
        write!(h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>", escape(&title));
    let _ = write!(h, "<style>{STYLE}</style></head><body>\n<h1>{}</h1>\n", escape(&title));
    summary(&mut h, p);
    overview(&mut h, p.clusters);
    for c in p.clusters.iter().take(p.detailed) {
        card(&mut h, p, c);
    }
    if p.clusters.len() > p.detailed {
        let _ = writeln!(
            h,
            "<p class=\"muted\">{} more clusters are in the table above and in clusters.json.</p>",
            p.clusters.len() - p.detailed
        );
    }
    for (name, svg) in &p.plots {
        let _ = writeln!(h, "<section><h2>{}</h2>{svg}</section>", escape(name));
    }
    h.push_str("</body></html>\n");
    h
}

fn summary(h: &mut String, p: &Page) {
    let tests: u64 = p.clusters.iter().map(|c| c.count).sum();
    let _ = writeln!(
        h,
        "<p>{tests} replayed tests in {} clusters (<code>clusters.json</code> beside this page), ranked: \
         regressions first, then output differences, fixes, standard-error differences, errors in both, \
         unconfirmed, expected, silent; within a class, differences in both the exit and the output first, \
         then those fewer inputs reach.</p>",
        p.clusters.len()
    );
    h.push_str("<table><tr><th>class</th><th>tests</th><th>clusters</th></tr>\n");
    for (class, n) in p.classes.iter().filter(|(_, n)| **n > 0) {
        let clusters = p.clusters.iter().filter(|c| c.class == *class).count();
        let _ = writeln!(h, "<tr><td class=\"{0}\">{0}</td><td>{n}</td><td>{clusters}</td></tr>", class.as_str());
    }
    h.push_str("</table>\n");
}

fn overview(h: &mut String, clusters: &[Cluster]) {
    h.push_str(
        "<h2>Clusters</h2>\n<table><tr><th>rank</th><th>class</th><th>where the versions parted</th>\
                <th>old</th><th>new</th><th>first differing line</th><th>tests</th></tr>\n",
    );
    for c in clusters {
        let _ = writeln!(
            h,
            "<tr><td><a href=\"#c{0}\">{0}</a></td><td class=\"{1}\">{1}</td><td>{2}</td><td>{3}</td><td>{4}</td><td>{5}</td><td>{6}</td></tr>",
            c.rank,
            c.class.as_str(),
            escape(c.site.as_deref().unwrap_or("-")),
            escape(&c.old_end),
            escape(&c.new_end),
            escape(c.difference.as_deref().unwrap_or("-")),
            c.count
        );
    }
    h.push_str("</table>\n");
}

fn card(h: &mut String, p: &Page, c: &Cluster) {
    let _ = writeln!(
        h,
        "<section id=\"c{0}\"><h2>#{0} <span class=\"{1}\">{1}</span> at {2}</h2><p>{3}. Representative: <code>{4}</code> (the simplest of {5}).</p>",
        c.rank,
        c.class.as_str(),
        escape(c.site.as_deref().unwrap_or("no recorded site")),
        escape(&c.why),
        escape(&c.representative),
        c.count
    );
    if let Some(command) = p.commands.get(&c.representative) {
        let _ = writeln!(h, "<pre>{}</pre>", escape(&command_text(command)));
    }
    let test = p.tests.get(&c.representative);
    h.push_str("<table><tr><th></th><th>at the site</th><th>end</th><th>first differing line</th></tr>\n");
    let (old_line, new_line) =
        match test.and_then(|t| t.verdict.stdout_diff.as_ref().or(t.verdict.stderr_diff.as_ref())) {
            Some(LineDiff { line, old, new }) => {
                let (o, n) = marked(old, new);
                (format!("line {line}: <code>{o}</code>"), format!("line {line}: <code>{n}</code>"))
            }
            None => ("-".to_string(), "-".to_string()),
        };
    // The representative's own ends (the cluster's are abstracted).
    let (old_end, new_end) = match test {
        Some(t) => (end(&t.verdict.old_outcome, false), end(&t.verdict.new_outcome, false)),
        None => (c.old_end.clone(), c.new_end.clone()),
    };
    for (version, at, end, line) in
        [("old", &c.old_at_site, &old_end, old_line), ("new", &c.new_at_site, &new_end, new_line)]
    {
        let _ = writeln!(
            h,
            "<tr><th>{version}</th><td>{}</td><td>{}</td><td>{line}</td></tr>",
            escape(at.as_deref().unwrap_or("-")),
            escape(end)
        );
    }
    h.push_str("</table>\n");
    if let Some(lines) = test.and_then(|t| p.source_lines(t)) {
        h.push_str("<pre>");
        for (number, text, is_site) in lines {
            let class = if is_site { " class=\"site\"" } else { "" };
            let _ = writeln!(h, "<span{class}>{number:>5}  {}</span>", escape(&text));
        }
        h.push_str("</pre>\n");
    }
    h.push_str("</section>\n");
}

/// The two lines escaped, with the characters between their common start and common end marked.
pub fn marked(old: &str, new: &str) -> (String, String) {
    let (a, b): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    let start = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let end = a[start..].iter().rev().zip(b[start..].iter().rev()).take_while(|(x, y)| x == y).count();
    let mark = |s: &[char]| {
        let text = |r: &[char]| escape(&r.iter().collect::<String>());
        let middle = &s[start..s.len() - end];
        let marked = if middle.is_empty() { String::new() } else { format!("<mark>{}</mark>", text(middle)) };
        format!("{}{marked}{}", text(&s[..start]), text(&s[s.len() - end..]))
    };
    (mark(&a), mark(&b))
}

/// A test's input as a shell command line: the program and its arguments quoted, then standard
/// input and the files, each with its kind and bytes.
pub fn command_text(c: &Command) -> String {
    let mut line: Vec<String> = vec![c.program.clone()];
    line.extend(c.args.iter().map(|a| shell_word(a)));
    let mut text = line.join(" ");
    if !c.stdin.is_empty() || c.stdin_kind != "regular file" {
        let _ = write!(text, " < stdin\n# stdin ({}): {}", c.stdin_kind, shell_word(&c.stdin));
    }
    for (name, bytes, kind) in &c.files {
        let _ = write!(text, "\n# file {name} ({kind}): {}", shell_word(bytes));
    }
    if !c.objects.is_empty() {
        let _ = write!(text, "\n# symbolic objects: {}", c.objects.join(" "));
    }
    text
}

/// `bytes` as one shell word: bare when it is plain, single-quoted when it is printable, and
/// `$'...'` with escapes otherwise.
pub fn shell_word(bytes: &[u8]) -> String {
    let plain = |b: &u8| b.is_ascii_alphanumeric() || b"_./=:,+-@%^".contains(b);
    if !bytes.is_empty() && bytes.iter().all(plain) {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    if bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        return format!("'{}'", String::from_utf8_lossy(bytes).replace('\'', "'\\''"));
    }
    let mut out = String::from("$'");
    for &b in bytes {
        match b {
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b if b.is_ascii_graphic() || b == b' ' => out.push(char::from(b)),
            b => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_as_a_shell_reads_them() {
        assert_eq!(shell_word(b"-c1-3"), "-c1-3");
        assert_eq!(shell_word(b"a b"), "'a b'");
        assert_eq!(shell_word(b"it's"), "'it'\\''s'");
        assert_eq!(shell_word(b""), "''");
        assert_eq!(shell_word(b"\x01\n'"), "$'\\x01\\n\\''");
    }

    #[test]
    fn the_differing_characters_are_marked() {
        assert_eq!(marked("3 items", "3 item"), ("3 item<mark>s</mark>".to_string(), "3 item".to_string()));
        assert_eq!(marked("a<b", "a>b"), ("a<mark>&lt;</mark>b".to_string(), "a<mark>&gt;</mark>b".to_string()));
        assert_eq!(marked("same", "same"), ("same".to_string(), "same".to_string()));
    }
}
