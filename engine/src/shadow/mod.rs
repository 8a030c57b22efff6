//! Shadow execution's semantics above the machine's forks: `change(old, new)` values and
//! allocations whose size differs between versions (`values`), accesses through an address
//! that differs between versions (`pairs`), and `penumbra_execute(OLD|NEW)` blocks, where one
//! version runs alone (`execute`), and values whose versions differ where the program outputs
//! them (`output`), and what the sides of an execute block print (`block_output`).
//!
//! Four-way forking itself is part of the machine ([`four_way`](crate::symbolic::four_way)):
//! every check a memory access makes may be a four-way question, so it sits below the
//! accesses. Seeded mode, a way of running (its phases, queue and budgets), is in
//! [`run`](crate::run).

use crate::symbolic::context::Context;

/// Shadow execution's semantics, over the [`Context`] they work in: the methods of the files
/// below, kept off the context.
pub struct Shadow<'c, 'p> {
    cx: &'c mut Context<'p>,
}

impl<'c, 'p> Shadow<'c, 'p> {
    pub fn new(cx: &'c mut Context<'p>) -> Self {
        Shadow { cx }
    }
}

pub mod block_output;
pub mod execute;
mod output;
pub mod pairs;
mod values;
