//! Imports nothing.

pub struct F;
