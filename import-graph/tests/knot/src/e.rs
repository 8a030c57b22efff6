//! Takes F from c/f.

use crate::c::f::F;

pub struct E;

pub fn make() -> F {
    F
}
