//! Helpers shared by the frontend tests.

use penumbra_ir::{
    compile_source, module_to_string, verify_module, write_function, Body, CompileOptions, Function, InstData, Module,
};

/// Compiles `source` as a file called `name` with default options; panics with clang's
/// message on failure and checks that the module passes the verifier.
pub fn lower(name: &str, source: &str) -> Module {
    let module = compile_source(name, source, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(verify_module(&module), Ok(()), "verifier findings for {name}");
    module
}

/// The text form of the whole module.
pub fn text(module: &Module) -> String {
    module_to_string(module)
}

/// The defined function `name`.
pub fn func<'m>(module: &'m Module, name: &str) -> &'m Function {
    let id = module.func_by_name(name).unwrap_or_else(|| panic!("no function @{name}"));
    &module.funcs[id]
}

/// The body of the defined function `name`.
pub fn body<'m>(module: &'m Module, name: &str) -> &'m Body {
    func(module, name).body.as_ref().unwrap_or_else(|| panic!("@{name} is only declared"))
}

/// The text form of one function.
pub fn func_text(module: &Module, name: &str) -> String {
    let mut out = String::new();
    write_function(&mut out, module, func(module, name)).expect("writing to a String");
    out
}

/// The instructions of a function in layout order.
pub fn insts<'m>(module: &'m Module, name: &str) -> Vec<&'m InstData> {
    let body = body(module, name);
    body.layout.blocks().iter().flat_map(|&b| body.layout.block_insts(b)).map(|&i| &body.insts[i]).collect()
}

/// The messages of the `unsupported` instructions of a function, with their lines, in layout
/// order.
pub fn unsupported(module: &Module, name: &str) -> Vec<(String, u32)> {
    let body = body(module, name);
    let mut out = Vec::new();
    for &b in body.layout.blocks() {
        for &i in body.layout.block_insts(b) {
            if let InstData::Unsupported { msg } = body.insts[i] {
                out.push((module.messages[msg].clone(), body.srclocs[i].line));
            }
        }
    }
    out
}

/// Prints the IR of the C or bitcode file named by `PENUMBRA_DUMP` (a debugging aid: run with
/// `PENUMBRA_DUMP=x.c cargo test -p penumbra-ir --test main dump -- --ignored --nocapture`).
#[test]
#[ignore]
fn dump() {
    let Ok(path) = std::env::var("PENUMBRA_DUMP") else { return };
    let module = if path.ends_with(".bc") {
        penumbra_ir::lower_bitcode(path.as_ref(), &path)
    } else {
        penumbra_ir::compile_file(path.as_ref(), &CompileOptions::default())
    };
    let module = module.unwrap_or_else(|e| panic!("{e}"));
    print!("{}", text(&module));
    assert_eq!(verify_module(&module), Ok(()));
}
