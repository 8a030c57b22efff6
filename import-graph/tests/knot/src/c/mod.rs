//! A folder whose d imports e, which imports f from here: no two files import each other.

mod d;
pub mod f;
