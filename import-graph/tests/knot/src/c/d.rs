//! Takes E from e.

pub fn make() -> crate::e::E {
    crate::e::E
}
