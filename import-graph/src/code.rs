//! The part of a Rust source file that can name a module: the text without comments, string
//! and char literals (which may spell paths in prose) and without its `#[cfg(test)]` test
//! modules (whose `super::` is the file's own module, and which are no part of the module
//! structure).

/// The source without comments and literals: a string becomes `""`, a char literal vanishes,
/// and line breaks stay where they were.
pub fn code_of(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let after_ident = i > 0 && is_ident(chars[i - 1]);
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = end_of_block_comment(&chars, i);
        } else if c == 'r' && !after_ident && raw_string_hashes(&chars, i + 1).is_some() {
            i = end_of_raw_string(&chars, i + 1);
            out.push_str("\"\"");
        } else if c == '"' {
            i = end_of_string(&chars, i + 1);
            out.push_str("\"\"");
        } else if c == '\'' {
            // A char literal ('a', '\n', '\u{7f}'); a lifetime ('a, 'static) stays.
            match (next, chars.get(i + 2)) {
                (Some('\\'), _) => i = end_of_char(&chars, i + 2),
                (Some(_), Some('\'')) => i += 3,
                _ => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The code without its `#[cfg(test)] mod name { ... }` and `#[cfg(test)] mod name;` items;
/// any other `#[cfg(test)]` item stays (a helper the tests use is part of the file).
pub fn without_test_modules(code: &str) -> String {
    const ATTRIBUTE: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(ATTRIBUTE) {
        out.push_str(&rest[..at]);
        let after = &rest[at + ATTRIBUTE.len()..];
        match test_module_length(after) {
            Some(length) => rest = &after[length..],
            None => rest = after,
        }
    }
    out.push_str(rest);
    out
}

/// The length of the `mod name { ... }` or `mod name;` item that `text` opens with (after
/// white space and a `pub`), if it does.
fn test_module_length(text: &str) -> Option<usize> {
    let trimmed = text.trim_start();
    let trimmed = trimmed.strip_prefix("pub ").map_or(trimmed, str::trim_start);
    let body = trimmed.strip_prefix("mod ")?.trim_start();
    let name_length = body.find(|c: char| !is_ident(c))?;
    let after_name = body[name_length..].trim_start();
    let item_end = if after_name.starts_with(';') {
        1
    } else if after_name.starts_with('{') {
        matching_brace(after_name)?
    } else {
        return None;
    };
    Some(text.len() - after_name.len() + item_end)
}

/// The position after the `}` that closes the `{` that `text` opens with.
fn matching_brace(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

pub fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Block comments nest in Rust.
fn end_of_block_comment(chars: &[char], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < chars.len() {
        if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// The position after the closing `"` of a string whose text starts at `start`.
fn end_of_string(chars: &[char], start: usize) -> usize {
    let mut i = start;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// The position after the closing `'` of an escaped char literal whose escape starts at `start`.
fn end_of_char(chars: &[char], start: usize) -> usize {
    let mut i = start + 1;
    while i < chars.len() && chars[i] != '\'' {
        i += 1;
    }
    i + 1
}

/// How many `#` open a raw string at `at` (just after its `r`), if one opens there.
fn raw_string_hashes(chars: &[char], at: usize) -> Option<usize> {
    let hashes = chars[at.min(chars.len())..].iter().take_while(|c| **c == '#').count();
    (chars.get(at + hashes) == Some(&'"')).then_some(hashes)
}

/// The position after a raw string that opens at `at` (just after its `r`).
fn end_of_raw_string(chars: &[char], at: usize) -> usize {
    let hashes = raw_string_hashes(chars, at).unwrap_or(0);
    let mut i = at + hashes + 1;
    while i < chars.len() {
        if chars[i] == '"' && chars[i + 1..].iter().take(hashes).filter(|c| **c == '#').count() == hashes {
            return i + 1 + hashes;
        }
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_literals_are_no_code() {
        let source = "a /* crate::x /* nested */ */ b // crate::y\nc \"crate::z \\\" q\" r#\"crate::\"w\"# \
                      '\"' '\\'' 'static d";
        assert_eq!(code_of(source), "a  b \nc \"\" \"\"   'static d");
    }

    #[test]
    fn test_modules_go_whole_and_nothing_else_does() {
        let code = "a\n#[cfg(test)]\nmod tests;\nb { c }\n#[cfg(test)]\nfn helper() {}\n\
                    #[cfg(test)]\nmod tests { fn t() { { x } } }\nd";
        assert_eq!(without_test_modules(code), "a\n\nb { c }\n\nfn helper() {}\n\nd");
    }
}
