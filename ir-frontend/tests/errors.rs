//! What is an error and what is not: C errors are `CompileFailed` with clang's message, never
//! a panic; bitcode that is not bitcode is refused before LLVM sees it.

use penumbra_ir::{compile_file, compile_source, lower_bitcode, CompileOptions, FrontendError};

fn compile(name: &str, source: &[u8]) -> Result<penumbra_ir::Module, FrontendError> {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join(name);
    std::fs::write(&path, source).expect("write");
    compile_file(&path, &CompileOptions::default())
}

#[test]
fn an_empty_file_is_a_compile_error() {
    match compile("empty.c", b"") {
        Err(FrontendError::CompileFailed { tool, stderr, .. }) => {
            assert_eq!(tool, "clang-15");
            assert!(stderr.contains("empty-translation-unit"), "{stderr}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_binary_file_is_a_compile_error() {
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    assert!(matches!(compile("garbage.c", &garbage), Err(FrontendError::CompileFailed { .. })));
}

#[test]
fn syntax_errors_carry_clangs_diagnostics() {
    let err = compile_source("broken.c", "int main(void) { return 1 +; }\n", &CompileOptions::default()).unwrap_err();
    let FrontendError::CompileFailed { stderr, file, .. } = &err else { panic!("{err:?}") };
    assert_eq!(file, "broken.c");
    assert!(stderr.contains("error: expected expression"), "{stderr}");
    assert!(err.to_string().contains("expected expression"), "{err}");
}

#[test]
fn a_missing_file_is_a_compile_error_naming_it() {
    let err = compile_file("no/such/file.c".as_ref(), &CompileOptions::default()).unwrap_err();
    assert!(
        matches!(&err, FrontendError::CompileFailed { stderr, .. } if stderr.contains("no/such/file.c")),
        "{err:?}"
    );
}

#[test]
fn a_file_without_main_is_fine() {
    let m =
        compile_source("lib.c", "int twice(int x) { return 2 * x; }\n", &CompileOptions::default()).expect("lowers");
    assert!(m.func_by_name("main").is_none());
}

#[test]
fn defines_include_dirs_and_extra_flags_reach_clang() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("limits_here.h"), "#define LIMIT 42\n").expect("write");
    let opts = CompileOptions {
        include_dirs: vec![dir.path().to_path_buf()],
        defines: vec!["SCALE=3".into(), "ENABLED".into()],
        extra_flags: vec!["-Werror=unused-variable".into()],
        per_file: Vec::new(),
        libc: None,
    };
    let src = "#include \"limits_here.h\"\n#ifdef ENABLED\nint f(void) { return LIMIT * SCALE; }\n#endif\n";
    let m = compile_source("flags.c", src, &opts).expect("lowers");
    assert!(penumbra_ir::module_to_string(&m).contains("ret 126"));
    let err = compile_source("unused.c", "int g(void) { int unused; return 0; }\n", &opts).unwrap_err();
    assert!(matches!(err, FrontendError::CompileFailed { .. }), "{err:?}");
}

#[test]
fn lowering_a_file_that_is_not_bitcode_is_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, bytes) in
        [("empty.bc", &b""[..]), ("text.bc", &b"int main(void) { return 0; }"[..]), ("short.bc", &b"BC"[..])]
    {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("write");
        let err = lower_bitcode(&path, name).unwrap_err();
        assert!(matches!(err, FrontendError::BitcodeUnreadable { .. }), "{name}: {err:?}");
    }
}

#[test]
fn truncated_bitcode_is_an_error_not_an_exit() {
    // Real bitcode cut in half: LLVM's reader reports it through our diagnostic handler.
    let dir = tempfile::tempdir().expect("tempdir");
    let c = dir.path().join("t.c");
    let bc = dir.path().join("t.bc");
    std::fs::write(&c, "int main(void) { return 0; }\n").expect("write");
    let status = std::process::Command::new("clang-15")
        .args(["-c", "-emit-llvm", "-o"])
        .arg(&bc)
        .arg(&c)
        .status()
        .expect("clang-15 runs");
    assert!(status.success());
    let bytes = std::fs::read(&bc).expect("read");
    std::fs::write(&bc, &bytes[..bytes.len() / 2]).expect("write");
    let err = lower_bitcode(&bc, "t.c").unwrap_err();
    assert!(matches!(err, FrontendError::BitcodeUnreadable { .. }), "{err:?}");
}

#[test]
fn the_missing_tool_message_says_what_to_install() {
    let err = FrontendError::ToolNotFound { tool: "clang-15".into() };
    assert_eq!(
        err.to_string(),
        "`clang-15` was not found on the PATH; install it with `apt-get install clang-15 llvm-15-tools`"
    );
}
