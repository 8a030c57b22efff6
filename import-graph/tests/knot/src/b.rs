//! Takes A from a.

use super::a::A;

pub struct B;

pub fn make() -> A {
    A
}
