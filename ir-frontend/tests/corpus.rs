//! Whole programs lower and pass the verifier: `tests/c/*.c`, the bundled examples and the
//! harness's execution corpus (read from the workspace when present; those programs are
//! also run by `penumbra exec` against native builds there).

use penumbra_ir::{compile_file, module_to_string, verify_module, CompileOptions, InstData};
use std::path::{Path, PathBuf};

fn c_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
    files.sort();
    files
}

/// Lowers every file; returns the `unsupported` messages per file.
fn lower_all(files: &[PathBuf]) -> Vec<(String, Vec<String>)> {
    let mut failures = Vec::new();
    let mut report = Vec::new();
    for path in files {
        match compile_file(path, &CompileOptions::default()) {
            Ok(m) => {
                if let Err(e) = verify_module(&m) {
                    failures.push(format!("{}: verifier: {e:?}", path.display()));
                }
                let mut msgs = Vec::new();
                for (_, f) in m.funcs.iter() {
                    let Some(b) = &f.body else { continue };
                    for &bl in b.layout.blocks() {
                        for &i in b.layout.block_insts(bl) {
                            if let InstData::Unsupported { msg } = b.insts[i] {
                                msgs.push(m.messages[msg].clone());
                            }
                        }
                    }
                }
                report.push((path.display().to_string(), msgs));
                // Deterministic: a second run gives the same text.
                let again = compile_file(path, &CompileOptions::default()).map(|m2| module_to_string(&m2));
                if again.as_deref().ok() != Some(module_to_string(&m).as_str()) {
                    failures.push(format!("{}: two runs differ", path.display()));
                }
            }
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    report
}

#[test]
fn test_programs_lower_without_unsupported_constructs() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c");
    let files = c_files(&dir);
    assert!(!files.is_empty());
    for (file, msgs) in lower_all(&files) {
        assert!(msgs.is_empty(), "{file}: {msgs:?}");
    }
}

#[test]
fn workspace_examples_and_the_exec_corpus_lower_without_unsupported_constructs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = c_files(&root.join("examples"));
    files.extend(c_files(&root.join("harness/tests/corpus")));
    for (file, msgs) in lower_all(&files) {
        assert!(msgs.is_empty(), "{file}: {msgs:?}");
    }
}
