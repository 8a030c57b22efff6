//! penumbra-solver: hash-consed bitvector terms, shadow terms, the Bitwuzla backend and its caches.
