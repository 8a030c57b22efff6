//! A crate with a circle of files (a, b) and one of folders (c/, e) for the test to find.

mod a;
mod b;
mod c;
mod e;
