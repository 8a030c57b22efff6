//! The modelled C library, exercised from C.
