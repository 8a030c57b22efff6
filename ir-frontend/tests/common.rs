//! Helpers shared by the frontend tests.

use penumbra_ir::{compile_source, module_to_string, verify_module, CompileOptions, Module};

/// Compiles `source` (named `name`) with default options; panics with clang's message on
/// failure, and checks the verifier.
pub fn lower(name: &str, source: &str) -> Module {
    let module = compile_source(name, source, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(verify_module(&module), Ok(()));
    module
}

/// The text form of the module.
pub fn text(module: &Module) -> String {
    module_to_string(module)
}

/// Prints the IR of the file named by `PENUMBRA_DUMP` (a debugging aid: run with
/// `cargo test -p penumbra-ir --test main dump -- --ignored --nocapture`).
#[test]
#[ignore]
fn dump() {
    let Ok(path) = std::env::var("PENUMBRA_DUMP") else { return };
    let module = penumbra_ir::compile_file(path.as_ref(), &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    print!("{}", text(&module));
    assert_eq!(verify_module(&module), Ok(()));
}
