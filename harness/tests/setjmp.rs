//! `setjmp` and `longjmp` in the symbolic engine: `longjmp` unwinds to the frame of the `setjmp`
//! that filled the buffer (the frames above die with their stack objects) and that call
//! returns the value again (1 for 0), with glibc's headers and with musl's; a jump to a
//! `setjmp` whose function returned ends as unsupported; in shadow execution a value passed
//! differently by the versions is a divergence. (ls's sort_files guards strcoll with setjmp.)

use crate::support::{line_of, penumbra_json_run, write_c, CFile};
use serde_json::Value;
use std::collections::BTreeSet;

/// `penumbra CMD FILE ARGS... --json`'s summary.
fn summary(cmd: &str, file: &CFile, args: &[&str]) -> Value {
    let out = penumbra_json_run(cmd, file, args);
    out.assert_no_panic();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stderr))
}

/// The first byte of a test's first argument (`None`: no argument).
fn first_byte(test: &Value) -> Option<u8> {
    test["inputs"]["arg00"]["hex"].as_str().map(|h| u8::from_str_radix(&h[..2], 16).unwrap())
}

const DIVE: &str = r#"#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
static char *kept;
static void dive(int n, int limit) {
    char local[8];
    local[0] = (char)n;
    kept = local;
    if (n == limit)
        longjmp(env, n);
    dive(n + 1, limit);
}
int main(int argc, char **argv) {
    int limit = argc > 1 ? argv[1][0] - '0' : 0;
    if (limit < 0 || limit > 4)
        return 9;
    int r = setjmp(env);
    if (r == 0) {
        dive(0, limit);
        return 8;
    }
    if (r == 4)
        return kept[0]; /* dead frame */
    printf("jumped %d\n", r);
    return r;
}
"#;

/// From `limit + 1` frames deep, back to main: `longjmp(env, 0)` returns 1, `longjmp(env, k)`
/// k, never 8 (dive does not return); the frames' stack objects are dead after the jump.
#[test]
fn longjmp_unwinds_to_its_setjmp_with_either_c_library() {
    for libc in [&[][..], &["--libc", "musl"][..]] {
        let file = write_c("dive.c", DIVE);
        let mut args = vec!["--sym-args", "0", "1", "1", "--max-time", "60"];
        args.extend(libc);
        let s = summary("run", &file, &args);
        assert_eq!((s["errors"].as_u64(), s["unsupported"].as_u64()), (Some(1), Some(0)), "{libc:?}: {s}");
        let mut exits = BTreeSet::new();
        for t in s["tests"].as_array().unwrap() {
            let byte = first_byte(t);
            if t["kind"] == "error" {
                assert_eq!(byte, Some(b'4'), "{t}");
                assert_eq!(
                    (t["error"]["kind"].as_str(), t["error"]["line"].as_u64()),
                    (Some("use-after-free"), Some(line_of(DIVE, "dead frame").into()))
                );
                continue;
            }
            let expected = match byte {
                None | Some(b'0') | Some(b'1') => 1,
                Some(b @ b'2'..=b'3') => i64::from(b - b'0'),
                Some(_) => 9,
            };
            assert_eq!(t["exit_code"].as_i64(), Some(expected), "{libc:?}: {t}");
            exits.insert(expected);
        }
        assert_eq!(exits, BTreeSet::from([1, 2, 3, 9]), "{libc:?}");
    }
}

/// A `longjmp` to a `setjmp` whose function has returned (undefined in C) ends the path as
/// unsupported at the `longjmp`; the path without it exits.
#[test]
fn longjmp_to_a_returned_setjmp_is_unsupported() {
    let src = r#"#include <setjmp.h>
static jmp_buf env;
static int arm(void) { return setjmp(env); }
int main(int argc, char **argv) {
    if (arm() == 0 && argc > 1)
        longjmp(env, 1); /* too late */
    return 0;
}
"#;
    let file = write_c("late.c", src);
    let s = summary("run", &file, &["--sym-args", "0", "1", "1", "--max-time", "60"]);
    assert_eq!((s["paths_completed"].as_u64(), s["unsupported"].as_u64()), (Some(1), Some(1)), "{s}");
    let site = &s["unsupported_sites"][0];
    assert_eq!(site["line"].as_u64(), Some(line_of(src, "too late").into()), "{s}");
    assert!(
        site["construct"].as_str().unwrap().contains("no setjmp filled this jmp_buf in a function still running"),
        "{s}"
    );
}

/// The versions pass different values to `longjmp`: the one input that jumps is a divergence.
#[test]
fn a_value_longjmp_passes_differently_is_a_divergence() {
    let src = r#"#include <penumbra.h>
#include <setjmp.h>
static jmp_buf env;
static void fail(int code) { longjmp(env, change(code, code + 1)); }
int main(int argc, char **argv) {
    int r = setjmp(env);
    if (r)
        return r;
    if (argc > 1 && argv[1][0] == 'x')
        fail(2);
    return 0;
}
"#;
    let file = write_c("fail.c", src);
    let s = summary("shadow", &file, &["--sym-args", "1", "1", "1", "--max-time", "60"]);
    let diverging: Vec<&Value> = s["tests"].as_array().unwrap().iter().filter(|t| t["kind"] == "divergence").collect();
    assert_eq!(diverging.len(), 1, "{s}");
    assert_eq!(first_byte(diverging[0]), Some(b'x'), "{s}");
}
