//! The SHA-256 of bytes in lowercase hex: how the replay reports name an output
//! (`stdout_sha256`) and how a run's directory fingerprints the sources it was made from.

use sha2::{Digest, Sha256};

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
