//! Entity references of the IR: `u32` newtypes indexing the arenas of a [`Module`](super::Module)
//! or a [`Body`](super::Body). `entity_impl!` gives each its text-form spelling (`v12`, `block3`).

use cranelift_entity::entity_impl;

/// A function of the module (defined or only declared).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Func(u32);
entity_impl!(Func, "fn");

/// A global variable of the module.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Global(u32);
entity_impl!(Global, "g");

/// A message describing an unsupported construct, held by the module.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Msg(u32);
entity_impl!(Msg, "msg");

/// A basic block of a function body.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");

/// An instruction of a function body.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");

/// An SSA value: an instruction result, a block parameter, a constant or an address.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

/// A branch destination: a block with the arguments passed to its parameters.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Dest(u32);
entity_impl!(Dest, "dest");

/// The case table of a `switch`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JumpTable(u32);
entity_impl!(JumpTable, "jt");
