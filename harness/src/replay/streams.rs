//! A native run's standard output and error, compared between versions: the process id
//! written `<pid>` in standard error (any two runs differ in it), and the first line where
//! old's and new's differ (an `output-diff` test's `stdout_diff`, a `stderr-diff` test's
//! `stderr_diff`).

/// `bytes` with every decimal number equal to `pid` (one not inside a longer number) written
/// `<pid>`: a message naming its process differs between any two runs.
pub fn without_pid(bytes: &[u8], pid: u32) -> Vec<u8> {
    let pid = pid.to_string();
    let pid = pid.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let number = &bytes[i..i + digits];
        out.extend_from_slice(if number == pid { b"<pid>" } else { number });
        i += digits;
    }
    out
}

/// Where old's and new's standard output, or error (their process ids written `<pid>`), first
/// differ.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct LineDiff {
    /// The line's number, from 1.
    pub line: u32,
    /// Each version's line (its first 200 characters; `(no line)` past its end).
    pub old: String,
    pub new: String,
}

/// Where two runs' output first differs: the line's number (from 1) and each run's line, or
/// `None` when they are the same.
pub fn first_difference(old: &[u8], new: &[u8]) -> Option<LineDiff> {
    if old == new {
        return None;
    }
    let (mut a, mut b) = (old.split(|&c| c == b'\n'), new.split(|&c| c == b'\n'));
    for line in 1.. {
        let (x, y) = (a.next(), b.next());
        if x != y {
            // A line as text, cut to its first 200 characters.
            let text = |l: Option<&[u8]>| {
                l.map_or("(no line)".to_string(), |l| String::from_utf8_lossy(l).chars().take(200).collect())
            };
            return Some(LineDiff { line, old: text(x), new: text(y) });
        }
    }
    unreachable!("two different byte strings differ in some line")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_process_id_is_written_pid_only_where_it_is_a_whole_number() {
        assert_eq!(
            without_pid(b"prog[4242]: 4242 14242 42420 x4242\n", 4242),
            b"prog[<pid>]: <pid> 14242 42420 x<pid>\n"
        );
        assert_eq!(without_pid(b"no number", 7), b"no number");
    }

    #[test]
    fn stderr_differs_at_its_first_differing_line() {
        assert_eq!(first_difference(b"a\nb\n", b"a\nb\n"), None);
        let d = first_difference(b"a\nwarning: x\n", b"a\nwarning: y\n").unwrap();
        assert_eq!((d.line, d.old.as_str(), d.new.as_str()), (2, "warning: x", "warning: y"));
        let d = first_difference(b"", b"seq: extra\n").unwrap();
        assert_eq!((d.line, d.old.as_str(), d.new.as_str()), (1, "", "seq: extra"));
        let d = first_difference(b"a\n", b"a\nb\n").unwrap();
        assert_eq!((d.line, d.old.as_str(), d.new.as_str()), (2, "", "b"));
        let d = first_difference(b"a", b"a\n").unwrap();
        assert_eq!((d.line, d.old.as_str(), d.new.as_str()), (2, "(no line)", ""));
    }
}
