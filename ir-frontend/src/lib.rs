//! penumbra-ir: the IR, its verifier and text form, and the C frontend.
