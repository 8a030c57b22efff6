//! Build script: link Debian's static CaDiCaL into whatever links Bitwuzla.
//!
//! bitwuzla-sys builds `libbitwuzla.a` against Debian's static-only `libcadical.a`
//! but does not tell cargo to link it. This crate is the one crate of the
//! workspace that depends on bitwuzla-sys, so the link directive lives here
//! (a second copy elsewhere would give duplicate symbols). See
//! `/work/shared/bitwuzla.md`.

fn main() {
    println!("cargo:rustc-link-search=native=/usr/lib/x86_64-linux-gnu");
    println!("cargo:rustc-link-lib=static:+whole-archive=cadical");
    println!("cargo:rerun-if-changed=build.rs");
}
