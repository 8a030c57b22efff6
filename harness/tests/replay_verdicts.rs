//! Replay's witnesses (issue 34 items 3 and 4): the concrete interpreter decides errors where
//! the native build has no AddressSanitizer (static musl builds), a test whose engine,
//! interpreter and native run disagree is `unconfirmed` and listed first, and undefined
//! behaviour both versions share is recorded on the test without making it `both-error`.

use crate::support::{include_dir, line_of, penumbra, repo_root, write_c, CFile};
use serde_json::Value;
use std::path::Path;

/// A heap overflow in the new version only, for inputs above 10.
const HEAP_OVERFLOW: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include "penumbra.h"
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  char *p = malloc(4);
  if (x > 10)
    p[change(3, 4)] = 1; /* overflow */
  printf("%d\n", x > 10);
  return 0;
}
"#;

/// `penumbra ARGS... --json` succeeded; its stdout as JSON.
pub fn json_of(args: &[&std::ffi::OsStr]) -> Value {
    let out = penumbra(args);
    out.assert_no_panic();
    out.assert_status(0);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stdout_str()))
}

/// The only test of a replayed test array.
pub fn only(tests: &Value) -> &Value {
    let tests = tests.as_array().expect("an array of tests");
    assert_eq!(tests.len(), 1, "{tests:#?}");
    &tests[0]
}

/// The program's bitcode compiled against musl's headers (scripts/musl-clang-15, as a real
/// build on musl compiles it): its native replay build is a static musl one, without
/// AddressSanitizer.
pub fn musl_bitcode(file: &CFile) -> std::path::PathBuf {
    let bitcode = file.path.with_extension("bc");
    let status = std::process::Command::new(repo_root().join("scripts/musl-clang-15"))
        .args(["-c", "-emit-llvm", "-O0", "-g", "-Xclang", "-disable-O0-optnone", "-I"])
        .arg(include_dir())
        .arg(&file.path)
        .arg("-o")
        .arg(&bitcode)
        .status()
        .expect("run scripts/musl-clang-15");
    assert!(status.success(), "cannot compile {} against musl's headers", file.path.display());
    bitcode
}

/// A heap overflow in new on a static musl build, which has no AddressSanitizer: natively both
/// versions exit cleanly (it used to be `silent`); the interpreter decides, and sees the
/// overflow in new only.
#[test]
fn a_musl_build_without_asan_has_its_errors_decided_by_the_interpreter() {
    let file = write_c("heap.c", HEAP_OVERFLOW);
    let bitcode = musl_bitcode(&file);
    let out = file.dir.path().join("out");
    let s = json_of(&[
        "shadow".as_ref(),
        bitcode.as_os_str(),
        "--libc".as_ref(),
        "musl".as_ref(),
        "--max-time".as_ref(),
        "60".as_ref(),
        "--output-dir".as_ref(),
        out.as_os_str(),
        "--replay".as_ref(),
        "--json".as_ref(),
    ]);
    let t = only(&s["tests"]);
    assert_eq!(t["inputs"]["x"]["int"].as_i64().map(|x| x > 10), Some(true), "{t}");
    assert_eq!((t["class"].as_str(), t["decided_by"].as_str()), (Some("regression"), Some("interpreter")), "{t}");
    let line = line_of(HEAP_OVERFLOW, "overflow");
    let error = format!(
        "out-of-bounds-write: out-of-bounds write of 1 byte at offset 4 of heap object allocated at line 7 (4 bytes) at heap.c:{line}"
    );
    assert_eq!(t["new_outcome"]["error"].as_str(), Some(error.as_str()), "{t}");
    // Old's output is the native run's: it exits 0 after printing 1.
    assert_eq!(t["old_outcome"]["exit"].as_i64(), Some(0), "{t}");
    assert_eq!(t["interpreter"]["old"]["stdout_sha256"], t["old_outcome"]["stdout_sha256"], "{t}");
    assert!(t.get("disagreement").is_none(), "{t}");
    // The report says what each build has and who decides.
    let report: Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let old = &report["builds"]["old"];
    assert_eq!(
        (old["address_sanitizer"].as_bool(), old["decides_errors"].as_str()),
        (Some(false), Some("interpreter"))
    );
    let human = penumbra(["replay".as_ref(), out.as_os_str()]);
    human.assert_status(0);
    let text = human.stdout_str();
    assert!(
        text.contains(
            "  old, new: native static musl, UBSan traps, no AddressSanitizer -> the interpreter decides errors\n"
        ),
        "{text}"
    );
    assert!(text.contains(&format!("      new: error: {error} (interpreter)\n")), "{text}");
}

/// The engine and the interpreter see the overflow in new; the native new build (with
/// AddressSanitizer, but built from a source that writes in bounds) exits cleanly: the test
/// is `unconfirmed`, listed first, with what each witness said (it used to be `silent`).
#[test]
fn witnesses_that_disagree_make_a_test_unconfirmed() {
    let file = write_c("heap.c", HEAP_OVERFLOW);
    let dir = file.dir.path();
    let out = dir.join("out");
    let shadow = penumbra(["shadow".as_ref(), file.path.as_os_str(), "--output-dir".as_ref(), out.as_os_str()]);
    shadow.assert_status(0);
    let in_bounds = dir.join("in_bounds.c");
    std::fs::write(&in_bounds, HEAP_OVERFLOW.replace("change(3, 4)", "change(3, 3)")).unwrap();
    let (old, new) = (dir.join("old"), dir.join("new"));
    crate::support::native_with_runtime(&file.path, "OLD", &old);
    crate::support::native_with_runtime(&in_bounds, "NEW", &new);
    let prebuilt = ["--native-old".as_ref(), old.as_os_str(), "--native-new".as_ref(), new.as_os_str()];
    let mut args: Vec<&std::ffi::OsStr> = vec!["replay".as_ref(), out.as_os_str(), "--json".as_ref()];
    args.extend(prebuilt);
    let replayed = json_of(&args);
    let t = only(&replayed);
    assert_eq!((t["class"].as_str(), t["decided_by"].as_str()), (Some("unconfirmed"), Some("native")), "{t}");
    let line = line_of(HEAP_OVERFLOW, "overflow");
    let expected = format!(
        "new: engine out-of-bounds-write at heap.c:{line}, interpreter out-of-bounds-write at heap.c:{line}, native (AddressSanitizer) exit 0"
    );
    assert_eq!(t["disagreement"].as_str(), Some(expected.as_str()), "{t}");
    assert_eq!(t["new_outcome"]["exit"].as_i64(), Some(0), "{t}");
    // Listed first, before the other classes, in the counts and in the report.
    let report: Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["classes"]["unconfirmed"], 1);
    assert_eq!(report["builds"]["new"]["address_sanitizer"], true, "prebuilt with ASan: {report}");
    let mut human_args: Vec<&std::ffi::OsStr> = vec!["replay".as_ref(), out.as_os_str()];
    human_args.extend(prebuilt);
    let human = penumbra(human_args);
    human.assert_status(0);
    let text = human.stdout_str();
    assert!(
        text.contains("  1 unconfirmed\nunconfirmed (the engine, the interpreter and the native run disagree):\n"),
        "{text}"
    );
    assert!(text.contains(&format!("    disagree: {expected}\n")), "{text}");
}

/// `qsort(NULL, 0, ...)` in both versions is undefined behaviour UBSan reports in each: it is
/// recorded on the test and the test is classified by its output (it used to end both runs:
/// `both-error`); a report in new only is new's error.
#[test]
fn undefined_behaviour_both_versions_share_does_not_hide_the_class() {
    let source = r#"#include <stdio.h>
#include <stdlib.h>
#include "penumbra.h"
static int cmp(const void *a, const void *b) { return *(const char *)a - *(const char *)b; }
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  qsort(NULL, 0, 1, cmp); /* shared */
  if (x > 100)
    printf("%d\n", 1 << change(3, 40)); /* new only */
  printf("%d\n", change(x > 5, x > 6));
  return 0;
}
"#;
    let file = write_c("sorted.c", source);
    let out = file.dir.path().join("out");
    // musl as code for qsort; the native builds are glibc's, with AddressSanitizer and UBSan.
    let s = json_of(&[
        "shadow".as_ref(),
        file.path.as_os_str(),
        "--libc".as_ref(),
        "musl".as_ref(),
        "--max-time".as_ref(),
        "60".as_ref(),
        "--output-dir".as_ref(),
        out.as_os_str(),
        "--replay".as_ref(),
        "--json".as_ref(),
    ]);
    let tests = s["tests"].as_array().expect("tests");
    let x = |t: &Value| t["inputs"]["x"]["int"].as_i64().expect("x");
    let shared = serde_json::json!([{"place": format!("sorted.c:{}:9", line_of(source, "shared")),
        "text": "null pointer passed as argument 1, which is declared to never be null"}]);
    let six: Vec<&Value> = tests.iter().filter(|t| x(t) == 6).collect();
    assert_eq!(six.len(), 1, "{tests:#?}");
    assert_eq!(six[0]["class"], "output-diff", "{}", six[0]);
    assert_eq!(six[0]["shared_ub"], shared, "{}", six[0]);
    let above: Vec<&Value> = tests.iter().filter(|t| x(t) > 100).collect();
    assert_eq!(above.len(), 1, "{tests:#?}");
    assert_eq!((above[0]["class"].as_str(), above[0]["decided_by"].as_str()), (Some("regression"), Some("native")));
    let shift = format!(
        "runtime error: shift exponent 40 is too large for 32-bit type 'int' at sorted.c:{}",
        line_of(source, "new only")
    );
    assert_eq!(above[0]["new_outcome"]["error"].as_str(), Some(shift.as_str()), "{}", above[0]);
    assert_eq!(above[0]["shared_ub"], shared, "{}", above[0]);
    assert!(tests.iter().all(|t| t["class"] != "both-error"), "{tests:#?}");
}

/// A prebuilt executable's AddressSanitizer is read from its symbols: without it, the
/// interpreter decides; the report says which decided, version by version where they differ.
#[test]
fn a_prebuilt_executable_without_asan_leaves_errors_to_the_interpreter() {
    let file = write_c("heap.c", HEAP_OVERFLOW);
    let dir = file.dir.path();
    let out = dir.join("out");
    penumbra(["shadow".as_ref(), file.path.as_os_str(), "--output-dir".as_ref(), out.as_os_str()]).assert_status(0);
    let (old, new) = (dir.join("old"), dir.join("new"));
    crate::support::native_with_runtime(&file.path, "OLD", &old);
    plain_native(&file.path, "NEW", &new);
    let replayed = json_of(&[
        "replay".as_ref(),
        out.as_os_str(),
        "--json".as_ref(),
        "--native-old".as_ref(),
        old.as_os_str(),
        "--native-new".as_ref(),
        new.as_os_str(),
    ]);
    let t = only(&replayed);
    assert_eq!(t["class"], "regression", "{t}");
    assert_eq!(t["decided_by"], serde_json::json!({"old": "native", "new": "interpreter"}), "{t}");
}

/// `source` built natively as `version` without sanitizers, the replay runtime linked in.
fn plain_native(source: &Path, version: &str, exe: &Path) {
    crate::support::native_with_runtime_and(&["-DPENUMBRA_NO_SANITIZERS"], source, version, exe);
}

/// A `clang-15` first on the PATH that drops `address` from every `-fsanitize` list: replay's
/// builds then lack AddressSanitizer though replay asked for it. Replay reads that from the
/// executables: the interpreter decides the heap overflow (`regression`; it used to be taken
/// from the unsanitized native run, which exits cleanly), and the banner claims no
/// AddressSanitizer.
#[test]
fn a_compiler_that_drops_asan_leaves_errors_to_the_interpreter() {
    let file = write_c("heap.c", HEAP_OVERFLOW);
    let dir = file.dir.path();
    let out = dir.join("out");
    penumbra(["shadow".as_ref(), file.path.as_os_str(), "--output-dir".as_ref(), out.as_os_str()]).assert_status(0);
    let bin = dir.join("bin");
    std::fs::create_dir(&bin).unwrap();
    let wrapper = bin.join("clang-15");
    std::fs::write(
        &wrapper,
        "#!/bin/sh\n# clang-15 without AddressSanitizer: `address` dropped from every -fsanitize list.\n\
         for a in \"$@\"; do\n  shift\n  case \"$a\" in\n\
         \x20   -fsanitize=*) list=$(printf '%s\\n' \"${a#-fsanitize=}\" | tr , '\\n' | grep -vx address | paste -sd, -)\n\
         \x20     [ -n \"$list\" ] && set -- \"$@\" \"-fsanitize=$list\" ;;\n\
         \x20   *) set -- \"$@\" \"$a\" ;;\n  esac\ndone\nexec /usr/bin/clang-15 \"$@\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let replay = |json: bool| {
        let mut cmd = std::process::Command::new(crate::support::penumbra_bin());
        cmd.env("PATH", &path).arg("replay").arg(&out);
        if json {
            cmd.arg("--json");
        }
        let run = crate::support::run_command(cmd);
        run.assert_no_panic();
        run.assert_status(0);
        run
    };

    let run = replay(true);
    let replayed: Value = serde_json::from_slice(&run.stdout).unwrap();
    let t = only(&replayed);
    assert_eq!((t["class"].as_str(), t["decided_by"].as_str()), (Some("regression"), Some("interpreter")), "{t}");
    let line = line_of(HEAP_OVERFLOW, "overflow");
    let error = format!(
        "out-of-bounds-write: out-of-bounds write of 1 byte at offset 4 of heap object allocated at line 7 (4 bytes) at heap.c:{line}"
    );
    assert_eq!(t["new_outcome"]["error"].as_str(), Some(error.as_str()), "{t}");
    assert!(t.get("disagreement").is_none(), "{t}");
    for version in ["old", "new"] {
        let warning = format!(
            "penumbra: warning: the native {version} build of {} has no AddressSanitizer, though it was built with -fsanitize=address (is the clang-15 on the PATH a wrapper?): the interpreter decides whether a test errs on it\n",
            file.path.display()
        );
        assert!(run.stderr.contains(&warning), "{}", run.stderr);
    }
    assert!(!run.stderr.contains("no UBSan"), "{}", run.stderr);
    let report: Value = serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    for version in ["old", "new"] {
        let build = &report["builds"][version];
        assert_eq!(
            (build["build"].as_str(), build["address_sanitizer"].as_bool(), build["decides_errors"].as_str()),
            (Some("native glibc, UBSan, no AddressSanitizer"), Some(false), Some("interpreter")),
            "{report}"
        );
    }
    let text = replay(false).stdout_str();
    assert!(
        text.contains("  old, new: native glibc, UBSan, no AddressSanitizer -> the interpreter decides errors\n"),
        "{text}"
    );
    assert!(!text.contains("AddressSanitizer +"), "{text}");
}
