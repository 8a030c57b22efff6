//! C programs compiled by the frontend and run: the most convincing tests of the semantics.

use crate::support::*;
use penumbra_engine::concrete::{Inputs, Outcome, RunConfig};
use penumbra_engine::ErrorKind;
use penumbra_ir::Version;
use std::collections::BTreeMap;

#[test]
fn hello_world() {
    let r = run_c(
        r#"#include <stdio.h>
int main(void) {
    printf("hello, %s %d\n", "world", 42);
    return 3;
}"#,
    );
    assert_exit(&r, 3, "hello, world 42\n");
}
