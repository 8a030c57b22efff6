//! penumbra-engine: interpreters over the IR.
