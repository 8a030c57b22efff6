//! Source lines survive however the file is named: clang records a file below its working
//! directory as a relative name plus a directory, which the frontend must join back.

use penumbra_ir::{compile_file, CompileOptions};
use std::path::Path;

/// The line of `main` and of its `return`, compiled from `path`.
fn lines(path: &Path) -> (u32, Vec<u32>) {
    let m = compile_file(path, &CompileOptions::default()).expect("compiles");
    let main = m.func_by_name("main").expect("main");
    let f = &m.funcs[main];
    let body = f.body.as_ref().expect("main has a body");
    let mut inst_lines: Vec<u32> = body.srclocs.values().map(|l| l.line).filter(|&l| l != 0).collect();
    inst_lines.sort_unstable();
    inst_lines.dedup();
    (f.line, inst_lines)
}

#[test]
fn absolute_and_relative_paths_below_the_working_directory_keep_their_lines() {
    // A directory below the crate (the tests' working directory) and above it.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = manifest.join("target-paths-test");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("prog.c");
    std::fs::write(&file, "int g;\n\nint main(void) {\n    g = 4;\n    return g;\n}\n").unwrap();
    let absolute = lines(&file);
    let relative = lines(Path::new("target-paths-test/prog.c"));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(absolute.0, 3);
    assert_eq!(absolute.1, vec![4, 5]);
    assert_eq!(relative, absolute);
}
