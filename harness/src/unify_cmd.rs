//! `penumbra unify` (two versions of a file or a tree into one annotated program, checked) and
//! `penumbra project` (an annotated program back to either version).

use crate::cli::{ProjectArgs, ProjectVersion, UnifyArgs};
use anyhow::{bail, Context, Result};
use penumbra_unify::check::{compiler_for, keep_alive, Compiler};
use penumbra_unify::{unify_with, Options, Unified};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn project(args: &ProjectArgs) -> Result<ExitCode> {
    if let Some(path) = &args.out {
        check_output(path, &[&args.file])?;
    }
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let out = penumbra_unify::project::project(&text, args.version == ProjectVersion::New);
    match &args.out {
        Some(path) => write_file(path, &out)?,
        None => print!("{out}"),
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: &UnifyArgs) -> Result<ExitCode> {
    if !args.git.is_empty() {
        let trees = tempfile::tempdir().context("cannot create a temporary directory")?;
        let (old, new) = (trees.path().join("old"), trees.path().join("new"));
        for (rev, dir) in args.git.iter().zip([&old, &new]) {
            export_revision(&args.repo, rev, dir)?;
        }
        return unify_trees(args, &old, &new);
    }
    if let (Some(old), Some(new)) = (&args.old_dir, &args.new_dir) {
        return unify_trees(args, old, new);
    }
    let [old, new] = &args.files[..] else {
        bail!("give the old and the new version: `penumbra unify OLD.c NEW.c -o OUT.c`, --old DIR --new DIR, or --git OLD_REV NEW_REV");
    };
    check_output(&args.out, &[old, new])?;
    let read = |p: &Path| std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()));
    let (old_text, new_text) = (read(old)?, read(new)?);
    let flags = flags(args, None);
    // Both compile under the new file's name, so `__FILE__` agrees between input and projection.
    let name = new.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut old_compiler = compiler_for(Some(old), flags.clone());
    old_compiler.file_name = name;
    let new_compiler = compiler_for(Some(new), flags);
    let options = Options { keep_attempts: keep_attempts(args), accept_differences: args.accept_differences.clone() };
    let unified = unify_with(&old_text, &new_text, [&old_compiler, &new_compiler], &options)
        .map_err(|e| anyhow::anyhow!("cannot unify {} and {}: {e}", old.display(), new.display()))?;
    report_notes(&new.display().to_string(), &unified);
    write_file(&args.out, &unified.text)?;
    if args.json {
        println!(
            "{}",
            serde_json::json!({ "files": [file_json(&args.out.display().to_string(), "unified", Some(&unified))] })
        );
    } else {
        let except = if args.accept_differences.is_empty() {
            ""
        } else {
            ", except the differences accepted by hand (the notes above)"
        };
        eprintln!(
            "penumbra: unified {} and {} into {} (checked: both projections compile to their inputs' IR{except})",
            old.display(),
            new.display(),
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Where to keep the attempts: --keep-attempts, else $PENUMBRA_UNIFY_ATTEMPTS.
fn keep_attempts(args: &UnifyArgs) -> Option<PathBuf> {
    args.keep_attempts.clone().or_else(|| std::env::var_os("PENUMBRA_UNIFY_ATTEMPTS").map(PathBuf::from))
}

/// The check's clang flags; relative include directories are taken inside `root` in tree form,
/// else in the current directory (the check compiles elsewhere).
fn flags(args: &UnifyArgs, root: Option<&Path>) -> Vec<String> {
    let mut out = Vec::new();
    for dir in &args.include {
        let dir = match root {
            Some(root) if dir.is_relative() => root.join(dir),
            _ => std::path::absolute(dir).unwrap_or_else(|_| dir.clone()),
        };
        out.push(format!("-I{}", dir.display()));
    }
    out.extend(args.define.iter().map(|d| format!("-D{d}")));
    out.extend(args.cflags.iter().cloned());
    out
}

fn unify_trees(args: &UnifyArgs, old_root: &Path, new_root: &Path) -> Result<ExitCode> {
    for dir in [old_root, new_root] {
        if !dir.is_dir() {
            bail!("{} is not a directory", dir.display());
        }
    }
    if args.out.exists() && std::fs::read_dir(&args.out).map(|mut d| d.next().is_some()).unwrap_or(true) {
        bail!("{} exists and is not empty: give a new directory for the unified tree", args.out.display());
    }
    let parent = output_parent(&args.out)?;
    // Inside an input tree, the unified tree would become part of that tree.
    let out = parent.canonicalize()?.join(args.out.file_name().unwrap_or_default());
    for root in [old_root, new_root] {
        if root.canonicalize().is_ok_and(|root| out.starts_with(root)) {
            bail!("{} is inside the tree {}: give a directory outside both trees", args.out.display(), root.display());
        }
    }
    // The tree is written beside its place and moved there once every file is unified, so a
    // refusal (or an error) leaves no partial tree behind.
    let staging = tempfile::Builder::new()
        .prefix(".penumbra-unify-")
        // As create_dir_all would make it (the umask applies), not a private temporary's 0700.
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777))
        .tempdir_in(parent)
        .with_context(|| format!("cannot create a directory in {}", parent.display()))?;
    let out_root = staging.path();
    let attempts = keep_attempts(args);
    let old_files = files_under(old_root)?;
    let new_files = files_under(new_root)?;
    let mut reports = Vec::new();
    let mut failed = Vec::new();
    let (old_flags, new_flags) = (flags(args, Some(old_root)), flags(args, Some(new_root)));
    for rel in &new_files {
        let (old_path, new_path, out_path) = (old_root.join(rel), new_root.join(rel), out_root.join(rel));
        let new_bytes = std::fs::read(&new_path).with_context(|| format!("cannot read {}", new_path.display()))?;
        let old_bytes = if old_files.contains(rel) { Some(std::fs::read(&old_path)?) } else { None };
        let is_c = matches!(rel.extension().and_then(|e| e.to_str()), Some("c" | "h"));
        let status = match &old_bytes {
            None => "new-only",
            Some(old) if *old == new_bytes => "identical",
            Some(_) if !is_c => "changed-copied",
            Some(old) => {
                let name = rel.display().to_string();
                let (Ok(old_text), Ok(new_text)) =
                    (String::from_utf8(old.clone()), String::from_utf8(new_bytes.clone()))
                else {
                    failed.push(format!("{name}: not UTF-8 text"));
                    continue;
                };
                let mut old_compiler = compiler_for(Some(&old_path), old_flags.clone());
                let mut new_compiler: Compiler = compiler_for(Some(&new_path), new_flags.clone());
                if rel.extension().is_some_and(|e| e == "h") {
                    old_compiler.flags.extend(["-x".to_string(), "c".to_string()]);
                    new_compiler.flags.extend(["-x".to_string(), "c".to_string()]);
                    old_compiler.epilogue = keep_alive(&old_text);
                    new_compiler.epilogue = keep_alive(&new_text);
                }
                old_compiler.file_name = new_compiler.file_name.clone();
                let options = Options {
                    keep_attempts: attempts.as_ref().map(|dir| dir.join(rel)),
                    accept_differences: args.accept_differences.clone(),
                };
                match unify_with(&old_text, &new_text, [&old_compiler, &new_compiler], &options) {
                    Ok(unified) => {
                        report_notes(&name, &unified);
                        write_file(&out_path, &unified.text)?;
                        eprintln!("penumbra: unified {name}");
                        reports.push(file_json(&name, "unified", Some(&unified)));
                        continue;
                    }
                    Err(e) => {
                        failed.push(format!("{name}: {e}"));
                        continue;
                    }
                }
            }
        };
        if status == "changed-copied" {
            eprintln!("penumbra: note: {} changed and is not C: the new version is copied", rel.display());
        }
        copy_file(&new_path, &out_path)?;
        if status != "identical" {
            reports.push(file_json(&rel.display().to_string(), status, None));
        }
    }
    for rel in old_files.iter().filter(|r| !new_files.contains(*r)) {
        eprintln!("penumbra: note: {} exists only in the old tree: copied", rel.display());
        copy_file(&old_root.join(rel), &out_root.join(rel))?;
        reports.push(file_json(&rel.display().to_string(), "old-only", None));
    }
    if args.json {
        println!("{}", serde_json::json!({ "files": reports, "failed": failed }));
    }
    if !failed.is_empty() {
        bail!("{} file(s) could not be unified (no tree written):\n{}", failed.len(), failed.join("\n"));
    }
    if args.out.exists() {
        // Empty (checked above): the staged tree takes its place.
        std::fs::remove_dir(&args.out).with_context(|| format!("cannot replace {}", args.out.display()))?;
    }
    let staged = staging.keep();
    if let Err(error) = std::fs::rename(&staged, &args.out) {
        let _ = std::fs::remove_dir_all(&staged);
        bail!("cannot move the unified tree to {}: {error}", args.out.display());
    }
    eprintln!("penumbra: unified tree written to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

fn file_json(path: &str, status: &str, unified: Option<&Unified>) -> serde_json::Value {
    let mut value = serde_json::json!({ "path": path, "status": status });
    if let Some(u) = unified {
        value["notes"] = u.notes.iter().map(|n| serde_json::json!({ "line": n.line, "message": n.message })).collect();
        value["whole_functions"] = serde_json::json!(u.whole_functions);
        value["old_projection_extra"] = serde_json::json!(u.extra[0]);
        value["new_projection_extra"] = serde_json::json!(u.extra[1]);
    }
    value
}

fn report_notes(name: &str, unified: &Unified) {
    for note in &unified.notes {
        eprintln!("penumbra: note: {name}:{}: {}", note.line, note.message);
    }
}

/// Every file under `root`, relative, sorted (`.git` left out).
fn files_under(root: &Path) -> Result<std::collections::BTreeSet<PathBuf>> {
    let mut out = std::collections::BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).with_context(|| format!("cannot read {}", dir.display()))? {
            let entry = entry?;
            let path = entry.path();
            let kind = entry.file_type()?;
            if kind.is_dir() {
                if entry.file_name() != ".git" {
                    stack.push(path);
                }
            } else if kind.is_file() {
                out.insert(path.strip_prefix(root).expect("walked under root").to_path_buf());
            }
        }
    }
    Ok(out)
}

fn export_revision(repo: &Path, rev: &str, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let archive = std::process::Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["archive", "--format=tar", rev])
        .output()
        .context("cannot run git")?;
    if !archive.status.success() {
        bail!("git archive {rev} in {}: {}", repo.display(), String::from_utf8_lossy(&archive.stderr).trim());
    }
    let mut tar = std::process::Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dir)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .context("cannot run tar")?;
    use std::io::Write;
    tar.stdin.take().expect("piped").write_all(&archive.stdout)?;
    if !tar.wait()?.success() {
        bail!("tar could not unpack revision {rev}");
    }
    Ok(())
}

fn copy_file(from: &Path, to: &Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::copy(from, to).with_context(|| format!("cannot copy {} to {}", from.display(), to.display()))?;
    Ok(())
}

/// The directory `out` goes into, which must exist (a mistyped path would otherwise make a
/// tree of directories, where no other command does).
fn output_parent(out: &Path) -> Result<&Path> {
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        bail!("cannot write {}: the directory {} does not exist", out.display(), parent.display());
    }
    Ok(parent)
}

/// Refuses an output file whose directory does not exist, or that is one of the `inputs` (the
/// same file, by any path: it would be overwritten).
fn check_output(out: &Path, inputs: &[&PathBuf]) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    output_parent(out)?;
    let Ok(target) = std::fs::metadata(out) else { return Ok(()) };
    for input in inputs {
        if std::fs::metadata(input).is_ok_and(|i| (i.dev(), i.ino()) == (target.dev(), target.ino())) {
            bail!(
                "{} is the input {}: give another output file (-o), the inputs are not overwritten",
                out.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// Writes through a temporary file, so a failed write leaves no half a program.
fn write_file(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let tmp = path.with_extension("penumbra-tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
