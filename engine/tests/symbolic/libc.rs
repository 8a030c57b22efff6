//! The symbolic C library: every modelled function on symbolic data, each test replayed
//! concretely against the concrete interpreter's own models (which are the reference).

use super::support::*;

/// Explores `src` and returns (paths completed, errors); every test replays identically.
fn counts(src: &str) -> (u64, u64) {
    let s = explore(src);
    assert_eq!(s.unsupported, 0, "{}", s.human());
    (s.paths_completed, s.errors)
}

#[test]
fn string_functions_on_symbolic_strings() {
    let (paths, errors) = counts(
        r#"#include <penumbra.h>
#include <string.h>
int main(void) {
    char s[5], t[5];
    penumbra_make_symbolic(s, sizeof s, "s");
    penumbra_make_symbolic(t, sizeof t, "t");
    s[4] = 0; t[2] = 0;
    int r = 0;
    if (strncmp(s, "ab", 2) == 0) r += 1;
    if (strchr(s, 'z')) r += 2;
    if (strrchr(t, 'q')) r += 4;
    if (strstr(s, "b") == s + 1) r += 8;
    r += (int)strspn(t, "xy") * 16;
    return r;
}"#,
    );
    assert!(paths > 50, "{paths}");
    assert_eq!(errors, 0);
}

#[test]
fn copying_and_comparing_memory() {
    let (paths, errors) = counts(
        r#"#include <penumbra.h>
#include <string.h>
#include <stdlib.h>
int main(void) {
    char a[4], b[4], c[8];
    penumbra_make_symbolic(a, sizeof a, "a");
    penumbra_make_symbolic(b, sizeof b, "b");
    memcpy(c, a, 4);
    memmove(c + 4, b, 4);
    memset(a, 'x', 2);
    char *d = malloc(8);
    memcpy(d, c, 8);
    int r = memcmp(d, c, 8) == 0;
    if (memcmp(a, "xxzz", 4) == 0) r += 2;
    if (memchr(b, 'k', 4)) r += 4;
    char *e = realloc(d, 16);
    if (e[7] == 'w') r += 8;
    char *f = calloc(2, 4);
    r += f[3];
    free(e);
    free(f);
    return r;
}"#,
    );
    // memcmp(d, c) compares equal terms: no fork. memcmp(a, "xxzz") differs at byte 2, at
    // byte 3, or not at all: 3. memchr finds 'k' at 0..3 or not: 5; then e[7] (= b[3]) == 'w'
    // forks unless b[3] == 'k' is known: 2 + 2 + 2 + 1 + 2 = 9. 3 * 9 = 27.
    assert_eq!((paths, errors), (27, 0));
}

#[test]
fn number_parsing_matches_the_concrete_models() {
    let (paths, errors) = counts(
        r#"#include <penumbra.h>
#include <stdlib.h>
#include <errno.h>
int main(void) {
    char s[4];
    penumbra_make_symbolic(s, sizeof s, "s");
    s[3] = 0;
    char *end;
    long v = strtol(s, &end, 0);
    int r = (int)(v % 50) + (int)(end - s) * 64;
    r += atoi(s + 1) > 5;
    unsigned long u = strtoul("0x1f", 0, 16);
    return r + (int)u + errno;
}"#,
    );
    assert!(paths > 100, "{paths}");
    assert_eq!(errors, 0);
}

#[test]
fn ctype_functions_on_a_symbolic_int_index_glibc_tables() {
    // glibc's isalpha(c) reads a table at c: an int outside -128..=255 is an out-of-bounds
    // read (as on replay); the rest goes on with one term per call.
    let s = explore(
        r#"#include <penumbra.h>
#include <ctype.h>
int main(void) {
    int c;
    penumbra_make_symbolic(&c, sizeof c, "c");
    int r = 0;
    if (isalpha(c)) r += 1;
    if (toupper(c) == 'Q') r += 8;
    return r;
}"#,
    );
    assert_eq!(s.errors, 1, "{}", s.human());
    assert!(of_kind(&s, "error")[0].error.as_ref().unwrap().kind.starts_with("out-of-bounds-read"));
    // not a letter; a letter other than q/Q; q or Q
    assert_eq!(s.paths_completed, 3, "{}", s.human());
}

#[test]
fn printing_symbolic_values_adds_no_constraints() {
    let s = explore(
        r#"#include <penumbra.h>
#include <stdio.h>
int main(void) {
    int x;
    char buf[16];
    penumbra_make_symbolic(&x, sizeof x, "x");
    printf("x = %d, %s\n", x, "text");
    puts("done");
    int n = snprintf(buf, sizeof buf, "%d", 42);
    if (x > 0) return n;
    return 0;
}"#,
    );
    assert_eq!(s.paths_completed, 2, "{}", s.human());
}

#[test]
fn symbolic_index_into_a_large_object() {
    let s = explore(
        r#"#include <penumbra.h>
static char big[100000];
int main(void) {
    unsigned i;
    penumbra_make_symbolic(&i, sizeof i, "i");
    big[500] = 7;
    big[70000] = 9;
    if (i >= sizeof big) return 0;
    char v = big[i];
    if (v == 7) return 1;
    if (v == 9) return 2;
    big[i] = 3;
    return big[i] == 3 ? 3 : 4;
}"#,
    );
    let mut codes: Vec<i32> = s.tests.iter().filter_map(|t| t.exit_code).collect();
    codes.sort();
    // The read used an ite chain; the write into 100,000 bytes fixed the index to one value at
    // a time: eight values wrote, then the values left ended early, reported at the line.
    assert_eq!(codes, vec![0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3], "{}", s.human());
    assert_eq!(s.early_reasons.get("concretized"), Some(&1), "{:?}", s.early_reasons);
    let sites: Vec<(&str, u32, u64, u64, u64)> =
        s.concretized_sites.iter().map(|c| (c.what.as_str(), c.line, c.times, c.forked, c.paths_ended)).collect();
    assert_eq!(sites, vec![("offset", 12, 8, 7, 1)], "{}", s.human());
    assert!(s.warnings.iter().any(|w| w.contains("fixed to one value")), "{:?}", s.warnings);
}

#[test]
fn symbolic_index_write_into_a_small_object() {
    let s = explore(
        r#"#include <penumbra.h>
int main(void) {
    int a[8] = {0};
    unsigned char i, j;
    penumbra_make_symbolic(&i, 1, "i");
    penumbra_make_symbolic(&j, 1, "j");
    if (i >= 8 || j >= 8) return 0;
    a[i] = 5;
    if (a[j] == 5)
        return 1;
    return 2;
}"#,
    );
    let mut codes: Vec<i32> = s.tests.iter().filter_map(|t| t.exit_code).collect();
    codes.sort();
    assert_eq!(codes, vec![0, 0, 1, 2], "{}", s.human());
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}
