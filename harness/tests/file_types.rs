//! `--sym-file-types` (issue 38, item 6): standard input and the symbolic files are regular
//! files, pipes or terminals as their type objects say, which `fstat`, `lseek` and `isatty`
//! answer in the symbolic run (musl's C layer), in the concrete replay, and natively (replay
//! gives the program a pipe, a named pipe or a pseudo-terminal).

use crate::musl::{musl_json, object};
use crate::support::write_c;
use std::collections::BTreeMap;

/// One exit status for each kind standard input can be, each reached with its type object
/// and replayed concretely to the same status.
#[test]
fn standard_input_is_a_file_a_pipe_or_a_terminal() {
    let file = write_c(
        "kinds.c",
        r#"#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    struct stat st;
    if (fstat(0, &st) != 0) return 9;
    if (isatty(0)) return S_ISCHR(st.st_mode) ? 3 : 6;
    if (S_ISFIFO(st.st_mode)) return lseek(0, 0, SEEK_CUR) < 0 ? 2 : 8;
    if (S_ISREG(st.st_mode)) return st.st_size == 2 && lseek(0, 1, SEEK_SET) == 1 ? 1 : 7;
    return 5;
}
"#,
    );
    let s = musl_json("run", &file, &["--sym-stdin", "2", "--sym-file-types", "--replay-check"]);
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    let by_status: BTreeMap<i64, u8> = s["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["exit_code"].as_i64().unwrap(), object(t, "stdin-type")[0]))
        .collect();
    assert_eq!(by_status.keys().copied().collect::<Vec<_>>(), [1, 2, 3], "{s}");
    assert_eq!((by_status[&2], by_status[&3]), (1, 2), "a pipe is 1, a terminal 2: {s}");
    assert!(![1, 2].contains(&by_status[&1]), "any other value is a regular file: {s}");
}

/// Without the option nothing changes: standard input is a regular file and no type object is
/// made.
#[test]
fn without_the_option_standard_input_is_a_regular_file() {
    let file = write_c(
        "plain.c",
        "#include <sys/stat.h>\n#include <unistd.h>\nint main(void) {\n    struct stat st;\n    fstat(0, &st);\n    return isatty(0) * 2 + S_ISFIFO(st.st_mode);\n}\n",
    );
    let s = musl_json("run", &file, &["--sym-stdin", "2"]);
    let tests = s["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 1, "{s}");
    assert_eq!(tests[0]["exit_code"].as_i64(), Some(0));
    assert!(tests[0]["inputs"]["stdin-type"].is_null(), "{s}");
}

/// The versions differ only where standard input or file A is not a regular file: each such
/// divergence replays natively with the kind it was found with (a pipe, a pseudo-terminal, a
/// named pipe, a link to a pseudo-terminal), as an output difference with the exit statuses the
/// symbolic run claimed.
#[test]
fn native_replay_gives_each_kind_its_file() {
    let file = write_c(
        "kinds_diff.c",
        r#"#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include "penumbra.h"
int main(void) {
    char buf[2];
    struct stat st;
    if (fstat(0, &st) != 0 || read(0, buf, 1) != 1) return 9;
    if (isatty(0)) return change(0, 10);
    if (S_ISFIFO(st.st_mode)) return change(0, 11);
    int fd = open("A", O_RDONLY);
    if (fd < 0 || fstat(fd, &st) != 0) return 8;
    ssize_t n = read(fd, buf, 2);
    if (isatty(fd)) return change(0, 12);
    if (S_ISFIFO(st.st_mode)) return change(0, n == 2 && lseek(fd, 0, SEEK_SET) < 0 ? 13 : 6);
    return 0;
}
"#,
    );
    let s = musl_json("shadow", &file, &["--sym-stdin", "1", "--sym-files", "1", "2", "--sym-file-types", "--replay"]);
    let mut found = BTreeMap::new();
    for t in s["tests"].as_array().unwrap() {
        assert_eq!(t["class"], "output-diff", "{t}");
        let (old, new) = (t["old_outcome"]["exit"].as_i64(), t["new_outcome"]["exit"].as_i64());
        assert_eq!(old, Some(0), "{t}");
        found.insert(new.unwrap(), (object(t, "stdin-type")[0], object(t, "A-type")[0]));
    }
    assert_eq!(found.keys().copied().collect::<Vec<_>>(), [10, 11, 12, 13], "{s}");
    assert_eq!(found[&10].0, 2, "stdin a terminal");
    assert_eq!(found[&11].0, 1, "stdin a pipe");
    assert_eq!(found[&12].1, 2, "A a terminal");
    assert_eq!(found[&13].1, 1, "A a named pipe");
}
