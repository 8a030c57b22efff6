//! The penumbra IR: SSA over fixed-width bitvectors and IEEE floats, in arenas of `u32` entities.
//!
//! A [`Module`] holds [`Function`]s and globals. A defined function has a [`Body`]: arenas of
//! values, instructions ([`InstData`], 16 bytes each), blocks with parameters (instead of phis),
//! and branch destinations, plus a [`Layout`] giving program order. Build bodies with
//! [`FunctionBuilder`]; check them with [`verify_module`]; print them with [`module_to_string`].

mod builder;
mod entities;
mod function;
mod instructions;
mod module;
mod postdom;
mod text;
mod types;
mod verifier;

pub use builder::FunctionBuilder;
pub use entities::{Block, Dest, Func, Global, Inst, JumpTable, Msg, Value};
pub use function::{BlockData, Body, Function, Layout, Signature, SrcLoc, ValueData, ValueDef};
pub use instructions::{
    BinaryOp, CastOp, DestData, FCastOp, FUnaryOp, FloatCC, FloatOp, InstData, IntCC, JumpTableData, ValueList, Version,
};
pub use module::{GlobalData, GlobalInit, Module, Reloc, RelocTarget};
pub use postdom::{
    can_return, execute_join, guards_added_code, immediate_post_dominators, reaches_any, returning_post_dominators,
    returns, tests_execute,
};
pub use text::{escape_bytes, inst_to_string, module_to_string, write_function, write_module};
pub use types::{Type, PTR};
pub use verifier::{verify_function, verify_module, VerifierError};

#[cfg(test)]
mod tests;
