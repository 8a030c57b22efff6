//! penumbra-import-graph: the import graph of a crate, read from its source, and the circles in
//! it. Its test (`tests/workspace.rs`) holds every crate of the workspace to it: no two files
//! of a crate import each other, directly or through others, nor two folders of any folder
//! (a folder counting as one part), and every file opens with a `//!` header.
//!
//! The graph is read from the source's `crate::`, `super::` and `self::` paths, in `use`
//! declarations and in code; comments, literals and `#[cfg(test)]` test modules are no part of
//! it. The modules are found by following the `mod name;` declarations from the crate's root
//! file, as the compiler does.
//!
//! ```text
//!   workspace  the crates of a workspace and their root files
//!   graph      one crate's module tree and imports; its file and folder circles
//!   circles    strongly connected components, a shortest circle through each; Circle's report
//!   paths      `mod name;` declarations and the paths a file names
//!   code       the source without comments, literals and test modules
//!   error      why a crate could not be read
//! ```

mod circles;
mod code;
mod error;
mod graph;
mod paths;
mod workspace;

pub use circles::{Circle, Graph, Tie};
pub use code::{code_of, without_test_modules};
pub use error::ReadError;
pub use graph::CrateGraph;
pub use paths::ModulePath;
pub use workspace::crate_roots;
