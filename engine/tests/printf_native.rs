//! One C program full of `printf` formats, run by penumbra and compiled natively with
//! `clang-15`: the outputs must be byte-identical. Skipped (with a note) when `clang-15` is
//! missing.

use crate::support::*;
use penumbra_engine::concrete::Outcome;
use std::process::Command;

/// Every case is well-defined C (argument types match the conversions).
const FORMATS: &str = r#"#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include <limits.h>

int main(void) {
    int ints[] = {0, 1, -1, 42, -42, 7, 255, 65535, INT_MAX, INT_MIN};
    const char *ifmts[] = {"%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%+05d", "%.3d", "%8.3d", "%-8.3d|",
                           "%.0d", "%x", "%#x", "%X", "%#X", "%o", "%#o", "%u", "%08x", "%#010x",
                           "%-#8x|", "%+.2d", "% .0d", "%hhd", "%hd", "%hhx", "%hu", "%c"};
    for (size_t f = 0; f < sizeof ifmts / sizeof ifmts[0]; f++) {
        printf("%-8s:", ifmts[f]);
        for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
            printf(" [");
            printf(ifmts[f], ifmts[f][1] == 'c' ? 'A' + (ints[i] & 15) : ints[i]);
            printf("]");
        }
        printf("\n");
    }
    long longs[] = {0L, -1L, LONG_MAX, LONG_MIN, 1234567890123L};
    const char *lfmts[] = {"%ld", "%lu", "%lx", "%#lo", "%20ld", "%-20ld|", "%+ld", "%.15ld"};
    for (size_t f = 0; f < sizeof lfmts / sizeof lfmts[0]; f++) {
        printf("%-8s:", lfmts[f]);
        for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++) {
            printf(" [");
            printf(lfmts[f], longs[i]);
            printf("]");
        }
        printf("\n");
    }
    long long ll = LLONG_MIN;
    unsigned long long ull = ULLONG_MAX;
    size_t z = (size_t)-1;
    ptrdiff_t t = -5;
    intmax_t j = INTMAX_MIN;
    printf("[%lld] [%llu] [%llx] [%zu] [%zx] [%td] [%jd]\n", ll, ull, ull, z, z, t, j);
    const char *strs[] = {"", "a", "hello", "hello, world"};
    const char *sfmts[] = {"%s", "%8s", "%-8s|", "%.3s", "%8.3s", "%-8.3s|", "%.0s", "%08s"};
    for (size_t f = 0; f < sizeof sfmts / sizeof sfmts[0]; f++) {
        printf("%-8s:", sfmts[f]);
        for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
            printf(" [");
            printf(sfmts[f], strs[i]);
            printf("]");
        }
        printf("\n");
    }
    printf("[%*d] [%-*d] [%*d] [%.*d] [%.*d] [%*.*d]\n", 6, 42, 6, 42, -6, 42, 4, 42, -1, 42, 8, 4, -42);
    printf("[%.*s] [%*s] [%-*s]\n", 2, "abcdef", 5, "ab", 5, "ab");
    printf("[%c%c%c] [%3c] [%-3c]\n", 'x', 'y', 'z', 'q', 'q');
    printf("[%p] [%10p] [%-10p]\n", (void *)0, (void *)0, (void *)0);
    printf("[%%] [%5%] [100%%]\n");
    int n = printf("counted\n");
    printf("%d\n", n);
    return 0;
}
"#;

#[test]
fn printf_formats_match_the_native_c_library() {
    let Some(native) = native_output(FORMATS) else {
        eprintln!("note: clang-15 not available, printf_formats_match_the_native_c_library skipped");
        return;
    };
    let r = run_c(FORMATS);
    assert_eq!(r.outcome, Outcome::Exit(0));
    let ours = r.stdout_text();
    for (i, (a, b)) in ours.lines().zip(native.lines()).enumerate() {
        assert_eq!(a, b, "line {} differs", i + 1);
    }
    assert_eq!(ours, native);
    assert!(ours.lines().count() > 40, "the table should be large:\n{ours}");
}

/// Compiles `source` with `clang-15 -O0 -fwrapv` into a temporary directory and runs it.
fn native_output(source: &str) -> Option<String> {
    let dir = std::env::temp_dir().join(format!("penumbra-engine-printf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let (src, exe) = (dir.join("formats.c"), dir.join("formats"));
    std::fs::write(&src, source).ok()?;
    let built = Command::new("clang-15").args(["-O0", "-fwrapv", "-w", "-o"]).arg(&exe).arg(&src).status().ok()?;
    assert!(built.success(), "clang-15 failed on the format table");
    let out = Command::new(&exe).output().expect("run the native build");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success());
    Some(String::from_utf8(out.stdout).expect("ASCII output"))
}
