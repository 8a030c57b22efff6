//! The commit penumbra is built from, as `PENUMBRA_COMMIT` for `--version` and for the batch's
//! job records: a table says which build measured each row. Outside a git checkout (a source
//! archive, a machine without git) it is `unknown`. It names the commit HEAD was at when the
//! crate was built, not whether the working tree differed from it.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=PENUMBRA_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    // Build again when HEAD moves: HEAD itself (another branch), the branch's ref (a commit),
    // packed-refs (a ref packed by gc). A path that does not exist would run this every build.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        let dir = Path::new(&dir);
        let branch = git(&["symbolic-ref", "-q", "HEAD"]);
        let watched = ["HEAD".to_string(), "packed-refs".to_string()].into_iter().chain(branch);
        for file in watched.map(|f| dir.join(f)).filter(|p| p.exists()) {
            println!("cargo:rerun-if-changed={}", file.display());
        }
    }
}
