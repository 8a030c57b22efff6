//! Standard error in replay (issue 39 item 3): a test whose versions print the same stdout and
//! exit alike but write different standard error is `stderr-diff`, with the first differing
//! line (a process id it names is written `<pid>`: replay/native.rs's unit tests).

use crate::replay_verdicts::{json_of, only};
use crate::support::write_c;

/// New warns on stderr for `x > 10`; both print the same stdout and exit 0.
const WARNS: &str = r#"#include <stdio.h>
#include "penumbra.h"
int main(void) {
  int x;
  penumbra_make_symbolic(&x, sizeof x, "x");
  fputs("prog: starting\n", stderr);
  if (change(0, x > 10))
    fputs("prog: warning: x is large\n", stderr);
  puts("done");
  return 0;
}
"#;

#[test]
fn a_difference_only_in_standard_error_is_stderr_diff() {
    let file = write_c("warns.c", WARNS);
    let out = file.dir.path().join("out");
    let s = json_of(&[
        "shadow".as_ref(),
        file.path.as_os_str(),
        "--max-time".as_ref(),
        "60".as_ref(),
        "--output-dir".as_ref(),
        out.as_os_str(),
        "--replay".as_ref(),
        "--json".as_ref(),
    ]);
    let t = only(&s["tests"]);
    assert!(t["inputs"]["x"]["int"].as_i64().unwrap() > 10, "{t}");
    assert_eq!(t["class"], "stderr-diff", "{t}");
    assert_eq!(t["stderr_diff"], serde_json::json!({"line": 2, "old": "", "new": "prog: warning: x is large"}), "{t}");
    let report = crate::support::penumbra(["replay".as_ref(), out.as_os_str()]);
    report.assert_status(0);
    let text = report.stdout_str();
    assert!(text.contains("1 stderr-diff") && text.contains("stderr-diff (only standard error differs):"), "{text}");
    assert!(text.contains("stderr line 2: new \"prog: warning: x is large\""), "{text}");
}
