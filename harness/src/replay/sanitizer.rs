//! What the sanitizers said of one native run: their log files (`<log>.<pid>`), UBSan's reports
//! in them ([`UbReport`], each once) and the one error that ended the run (an AddressSanitizer
//! summary, or a failed `penumbra_assert` with its caller's line).

use anyhow::{Context, Result};
use std::path::Path;

/// The replay runtime's source file as the native builds compile it: its frames in a stack are
/// not the program's.
pub const RUNTIME_FILE: &str = "penumbra_replay_runtime.c";

/// One UBSan report: `FILE:LINE:COL: runtime error: TEXT`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UbReport {
    /// `FILE:LINE:COL` as UBSan printed it.
    pub place: String,
    pub text: String,
}

impl UbReport {
    /// The error text a report makes (`runtime error: TEXT at file.c:LINE`).
    pub fn as_error(&self) -> String {
        format!("runtime error: {} at {}", self.text, short_place(&self.place))
    }

    /// `file.c:LINE:COL`: the place without its directories.
    pub fn brief_place(&self) -> String {
        Path::new(&self.place).file_name().map_or(self.place.clone(), |n| n.to_string_lossy().into_owned())
    }

    /// The report's line.
    pub fn line(&self) -> Option<u32> {
        self.place.rsplit(':').nth(1)?.parse().ok()
    }

    /// The report's file name, without directories, line and column.
    pub fn file_name(&self) -> Option<&str> {
        let path = self.place.rsplitn(3, ':').nth(2)?;
        Path::new(path).file_name()?.to_str()
    }

    /// Whether the report is of a null pointer passed to a parameter declared never null
    /// (`qsort (NULL, 0, ...)`, `memcpy (d, NULL, 0)`): the C library's declaration, not an
    /// access. Such a report is no error by itself: the callee's accesses are what
    /// AddressSanitizer and the interpreter check (and GNU coreutils of 2004-2012 make it on
    /// paths that end cleanly, such as cut's error exit for `-b0`).
    pub fn is_null_argument(&self) -> bool {
        self.text.ends_with("which is declared to never be null")
    }

    /// Whether `other` is the same report: at the same place; or, between builds of two source
    /// trees (`across_trees`: the revisions of a project, whose lines shift between versions),
    /// the same runtime error in the same file.
    pub fn same_as(&self, other: &UbReport, across_trees: bool) -> bool {
        self == other || (across_trees && self.text == other.text && self.file_name() == other.file_name())
    }

    /// Whether the report is at `line` of the file named `file` (compared by file name; any
    /// file when `file` is empty, unknown).
    pub fn is_at(&self, file: &str, line: u32) -> bool {
        let base = |f: &str| Path::new(f).file_name().map(|n| n.to_os_string());
        let name = self.place.rsplitn(3, ':').nth(2);
        self.line() == Some(line) && (file.is_empty() || name.is_some_and(|n| base(n) == base(file)))
    }
}

/// The text of the sanitizer log files of one run (`<log>.<pid>`, one per process), which are
/// removed.
pub fn take_logs(log: &Path) -> Result<String> {
    let (Some(dir), Some(name)) = (log.parent(), log.file_name()) else { return Ok(String::new()) };
    let prefix = format!("{}.", name.to_string_lossy());
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(&prefix)))
        .collect();
    files.sort();
    let mut text = String::new();
    for file in files {
        let bytes = std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
        text.push_str(&String::from_utf8_lossy(&bytes));
        let _ = std::fs::remove_file(&file);
    }
    Ok(text)
}

/// UBSan's reports in the sanitizers' log (`file.c:10:12: runtime error: index 4 out of bounds
/// for type 'int[4]'`), each once, in order.
pub fn ub_reports(sanitizer_log: &str) -> Vec<UbReport> {
    let mut reports: Vec<UbReport> = Vec::new();
    for line in sanitizer_log.lines() {
        let Some((place, text)) = line.split_once(": runtime error: ") else { continue };
        let report = UbReport { place: place.to_string(), text: text.to_string() };
        if !reports.contains(&report) {
            reports.push(report);
        }
    }
    reports
}

/// The one-line description of the error that ended a run, if any: an AddressSanitizer summary
/// in the sanitizers' log, or a failed `penumbra_assert` (reported by the replay runtime on
/// stderr) with the line of the call. (UBSan's reports do not end a run: [`ub_reports`].)
pub fn error_report(sanitizer_log: &str, stderr: &str) -> Option<String> {
    let lines: Vec<&str> = sanitizer_log.lines().collect();
    // ASan: "SUMMARY: AddressSanitizer: stack-buffer-overflow /path/file.c:10:12 in main".
    if let Some(line) = lines.iter().find_map(|l| l.strip_prefix("SUMMARY: AddressSanitizer: ")) {
        let mut words = line.split_whitespace();
        let kind = words.next().unwrap_or("error");
        return Some(match words.next() {
            Some(place) if place.contains(':') => format!("AddressSanitizer: {kind} at {}", short_place(place)),
            _ => format!("AddressSanitizer: {kind}"),
        });
    }
    let err: Vec<&str> = stderr.lines().collect();
    if let Some(i) = err.iter().position(|l| l.starts_with("penumbra-replay: assertion failed")) {
        // The first stack frame in the program (below the runtime and the sanitizer's own);
        // the sanitizer prints the stack into its log.
        let frames = lines.iter().chain(&err[i + 1..]);
        let caller = frames.filter(|l| l.trim_start().starts_with('#')).find_map(|l| {
            let place = l.split_whitespace().last()?;
            (place.contains(".c:") && !place.contains(RUNTIME_FILE) && !place.contains("sanitizer"))
                .then(|| short_place(place))
        });
        return Some(match caller {
            Some(place) => format!("assertion failed at {place}"),
            None => "assertion failed".to_string(),
        });
    }
    None
}

/// `/long/path/file.c:10:12` as `file.c:10`.
fn short_place(place: &str) -> String {
    let mut parts = place.rsplitn(3, ':');
    let (col, line, file) = (parts.next(), parts.next(), parts.next());
    match (file, line, col) {
        (Some(file), Some(line), Some(_)) if line.parse::<u32>().is_ok() => {
            let name = Path::new(file).file_name().map_or(file.into(), |n| n.to_string_lossy());
            format!("{name}:{line}")
        }
        _ => Path::new(place).file_name().map_or(place.to_string(), |n| n.to_string_lossy().into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ubsan_reports_name_the_check_and_line() {
        let log = "/tmp/x/offbyone.c:10:5: runtime error: index 4 out of bounds for type 'int[4]'\nSUMMARY: UndefinedBehaviorSanitizer: undefined-behavior /tmp/x/offbyone.c:10:5 in \n";
        let reports = ub_reports(log);
        assert_eq!(
            reports,
            [UbReport {
                place: "/tmp/x/offbyone.c:10:5".into(),
                text: "index 4 out of bounds for type 'int[4]'".into()
            }]
        );
        assert_eq!(reports[0].as_error(), "runtime error: index 4 out of bounds for type 'int[4]' at offbyone.c:10");
        assert_eq!(reports[0].brief_place(), "offbyone.c:10:5");
        assert_eq!(reports[0].line(), Some(10));
        assert!(reports[0].is_at("/elsewhere/offbyone.c", 10) && reports[0].is_at("", 10));
        assert!(!reports[0].is_at("offbyone.c", 5) && !reports[0].is_at("other.c", 10));
        // A report does not end the run: it is no error by itself.
        assert_eq!(error_report(log, ""), None);
        // The same text printed by the program is output, not a report.
        assert_eq!(ub_reports(""), []);
    }

    #[test]
    fn a_place_reports_once() {
        let log = "t.c:6:3: runtime error: null pointer passed as argument 1, which is declared to never be null\n\
                   t.c:9:3: runtime error: shift exponent 40 is too large for 32-bit type 'int'\n\
                   t.c:6:3: runtime error: null pointer passed as argument 1, which is declared to never be null\n";
        let places: Vec<String> = ub_reports(log).iter().map(UbReport::brief_place).collect();
        assert_eq!(places, ["t.c:6:3", "t.c:9:3"]);
    }

    #[test]
    fn asan_summaries_name_the_kind_and_line() {
        let stderr = "==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1\n    #0 0x1 in main /a/b/t.c:7:3\nSUMMARY: AddressSanitizer: heap-buffer-overflow /a/b/t.c:7:3 in main\n";
        assert_eq!(error_report(stderr, "").as_deref(), Some("AddressSanitizer: heap-buffer-overflow at t.c:7"));
        assert_eq!(error_report("", stderr), None);
    }

    #[test]
    fn failed_assertions_name_the_caller() {
        let stderr = "penumbra-replay: assertion failed\n    #0 0x4 in __sanitizer_print_stack_trace /x/asan_stack.cpp:87:3\n    #1 0x5 in penumbra_assert /o/penumbra_replay_runtime.c:114:5\n    #2 0x6 in foo /src/foo.c:16:7\n";
        assert_eq!(error_report("", stderr).as_deref(), Some("assertion failed at foo.c:16"));
        // The stack in the sanitizer's log, the marker on stderr.
        let (marker, stack) = stderr.split_once('\n').unwrap();
        assert_eq!(error_report(stack, marker).as_deref(), Some("assertion failed at foo.c:16"));
        assert_eq!(error_report("", "hello\n"), None);
    }
}
