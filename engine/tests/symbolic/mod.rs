//! Tests of the symbolic engine (`penumbra_engine::run`): exact path counts, errors with their
//! inputs and lines, replay of every generated test through the concrete interpreter,
//! determinism, searchers and budgets.

pub mod support;

mod basics;
mod errors;
mod growth;
mod libc;
mod paths;
mod pointers;
mod runs;
mod search;
