//! The suffixes of a declaration kept in both versions (`name__penumbra_old`,
//! `name__penumbra_new`): the merge writes them, the dispatcher calls them, the global renamer
//! points each version's uses at them, and the check strips them off again.

pub const OLD_SUFFIX: &str = "__penumbra_old";
pub const NEW_SUFFIX: &str = "__penumbra_new";

/// The suffixes renamed declarations carry, old first.
pub const RENAME_SUFFIXES: [&str; 2] = [OLD_SUFFIX, NEW_SUFFIX];
