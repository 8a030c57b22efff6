//! The address space both interpreters share: the fixed [`layout`] of addresses, the objects
//! and every verdict about an access ([`AddressSpace`]: allocation, resolution of an address to
//! an object, permission and bounds checks, and the message of each fault), and the process
//! [`image`] at start-up (globals, the runtime's objects, `argv`).
//!
//! The concrete interpreter keeps bytes in its objects and the symbolic engine byte terms
//! ([`Contents`]); everything else is this one piece of code, so a program sees the same
//! addresses in a concrete run, on every symbolic path, and on replay, and the same bad access
//! gets the same error with the same message in both interpreters. The table of objects is
//! shared between a symbolic state's forks in chunks, copied on write (`chunked.rs`).

mod chunked;
pub mod image;
pub mod layout;
mod space;

pub use image::{lay_out_argv, Argv, Entry, Image, LoadError, Runtime};
pub use layout::{
    bytes_text, check_stack, func_addr, func_at, memcpy_overlap, memcpy_overlap_message, stack_room, Segment,
    FRAME_BYTES, FUNC_BASE, GLOBAL_BASE, HEAP_BASE, MAX_GLOBAL_BYTES, MAX_HEAP_BYTES, MAX_STACK_BYTES, NULL_PAGE_END,
    REDZONE, STACK_BASE, STACK_END, STACK_LIMIT,
};
pub use space::{Access, AddressSpace, Contents, ObjState, Object, ObjectId, Origin, Resolution};
