//! Replay under a memory limit (`--native-memory-limit`, issue 37): a regression that only
//! exhausts memory (CoREBench's `cut -b2147483648-` under `ulimit -v 20000`) shows natively
//! only when the program's memory is bounded. Without the limit the test below is `silent`;
//! with it the new version's allocation fails, on an AddressSanitizer build (glibc, one
//! allocation larger than the limit returns NULL) and on a static musl build (its address
//! space is limited, as by `ulimit -v`).

use crate::replay_verdicts::{json_of, musl_bitcode, only};
use crate::support::write_c;
use std::ffi::OsStr;

/// New allocates `k` MiB where old allocates nothing, for `k > 100`; both print `ok` when the
/// allocation succeeds.
const ALLOCATES_BY_INPUT: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include "penumbra.h"
int main(void) {
  unsigned char k;
  penumbra_make_symbolic(&k, sizeof k, "k");
  size_t size = change((size_t)1, (size_t)k << 20);
  if (size > ((size_t)100 << 20)) {
    char *p = malloc(size);
    if (!p) {
      fputs("memory exhausted\n", stderr);
      return 1;
    }
    p[size - 1] = 1;
  }
  puts("ok");
  return 0;
}
"#;

/// `penumbra shadow PROGRAM --replay --json` with `extra` flags: its one test's input `k`,
/// class, and the report's recorded limit.
fn replayed(program: &OsStr, out: &std::path::Path, extra: &[&str]) -> (u64, String, serde_json::Value) {
    let mut args: Vec<&OsStr> = vec!["shadow".as_ref(), program, "--max-time".as_ref(), "60".as_ref()];
    args.extend(["--output-dir".as_ref(), out.as_os_str(), "--replay".as_ref(), "--json".as_ref()]);
    args.extend(extra.iter().map(OsStr::new));
    let s = json_of(&args);
    let t = only(&s["tests"]);
    let hex = t["inputs"]["k"]["hex"].as_str().unwrap_or_else(|| panic!("no byte k: {t}"));
    let k = u64::from_str_radix(hex, 16).unwrap_or_else(|e| panic!("k = {hex}: {e}"));
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    (k, t["class"].as_str().unwrap_or_default().to_string(), report["memory_limit_mb"].clone())
}

#[test]
fn an_allocation_beyond_the_memory_limit_fails_on_an_asan_build() {
    let file = write_c("alloc.c", ALLOCATES_BY_INPUT);
    let (k, class, limit) = replayed(file.path.as_os_str(), &file.dir.path().join("free"), &[]);
    assert!(k > 100, "the divergent input allocates more than 100 MiB in new: k = {k}");
    assert_eq!((class.as_str(), &limit), ("silent", &serde_json::Value::Null), "no limit: both print ok");
    let out = file.dir.path().join("bounded");
    let (k, class, limit) = replayed(file.path.as_os_str(), &out, &["--native-memory-limit", "64"]);
    assert!(k > 100, "k = {k}");
    assert_eq!((class.as_str(), limit.as_u64()), ("output-diff", Some(64)), "new's malloc fails under 64 MiB");
}

#[test]
fn a_musl_build_runs_in_an_address_space_of_the_limit() {
    let file = write_c("alloc.c", ALLOCATES_BY_INPUT);
    let bitcode = musl_bitcode(&file);
    let musl = ["--libc", "musl"];
    let (_, class, _) = replayed(bitcode.as_os_str(), &file.dir.path().join("free"), &musl);
    assert_eq!(class, "silent", "no limit: both print ok");
    let (k, class, limit) = replayed(
        bitcode.as_os_str(),
        &file.dir.path().join("bounded"),
        &[musl[0], musl[1], "--native-memory-limit", "64"],
    );
    assert!(k > 100, "k = {k}");
    assert_eq!((class.as_str(), limit.as_u64()), ("output-diff", Some(64)), "new's malloc fails in 64 MiB");
}

#[test]
fn a_memory_limit_of_zero_is_refused() {
    let file = write_c("alloc.c", ALLOCATES_BY_INPUT);
    let out = file.dir.path().join("out");
    let run = crate::support::penumbra([
        "shadow".as_ref(),
        file.path.as_os_str(),
        "--output-dir".as_ref(),
        out.as_os_str(),
        "--replay".as_ref(),
        "--native-memory-limit".as_ref(),
        "0".as_ref(),
    ]);
    run.assert_no_panic();
    assert_ne!(run.status, Some(0));
    assert!(run.stderr.contains("--native-memory-limit must be at least 1"), "{}", run.stderr);
}

/// New allocates `n` bytes where old allocates one: `n` above `--max-object-size` (16 MiB) is
/// too large for the new version only, a divergence whose test ends there (before, the path
/// ended early with no test: CoREBench's `cut -b2147483648-` was never written).
const UNBOUNDED_IN_NEW: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include "penumbra.h"
int main(void) {
  unsigned n;
  penumbra_make_symbolic(&n, sizeof n, "n");
  if (n == 0)
    return 2;
  char *p = malloc(change(1u, n));
  if (!p) {
    fputs("memory exhausted\n", stderr);
    return 1;
  }
  p[0] = 1;
  puts("ok");
  return 0;
}
"#;

#[test]
fn an_object_too_large_in_the_new_version_only_is_a_divergence() {
    let file = write_c("unbounded.c", UNBOUNDED_IN_NEW);
    let line = crate::support::line_of(UNBOUNDED_IN_NEW, "malloc(change");
    for (limit, class) in [(None, "silent"), (Some("8"), "output-diff")] {
        let out = file.dir.path().join(format!("out-{}", limit.unwrap_or("none")));
        let extra: Vec<&str> = limit.map(|l| vec!["--native-memory-limit", l]).unwrap_or_default();
        let mut args: Vec<&OsStr> = vec!["shadow".as_ref(), file.path.as_os_str(), "--output-dir".as_ref()];
        args.extend([out.as_os_str(), "--replay".as_ref(), "--json".as_ref()]);
        args.extend(extra.iter().map(OsStr::new));
        let s = json_of(&args);
        let t = only(&s["tests"]);
        let n = u32::from_le_bytes(crate::support::test_object(t, "n").try_into().expect("a 4-byte n"));
        assert!(n > 16 << 20, "n = {n}: {t}");
        assert_eq!(
            (t["kind"].as_str(), t["reason"].as_str(), t["line"].as_u64(), t["old"].as_str(), t["new"].as_str()),
            (Some("divergence"), Some("object-too-large"), Some(u64::from(line)), Some("passes"), Some("fails")),
            "{t}"
        );
        assert_eq!(t["class"], class, "limit {limit:?}: {t}");
    }
}
