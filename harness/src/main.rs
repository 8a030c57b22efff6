//! The `penumbra` command line.
fn main() {}
