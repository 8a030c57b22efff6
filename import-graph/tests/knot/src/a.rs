//! Takes B from b, which takes A from here.

pub struct A;

pub fn make() -> crate::b::B {
    crate::b::B
}
