//! Why execution stops early: [`Fault`]s raised by memory, arithmetic and the modelled C
//! library (an error or an unsupported construct, located later by the interpreter), and the
//! other ways a run ends before `main` returns ([`Stop`]).
//!
//! Faults carry no location: they are raised deep inside memory accesses and library models,
//! and the interpreter attaches the function and line of the instruction being executed.

use crate::error::ErrorKind;
use penumbra_ir::{Func, Inst};

/// An error or an unsupported construct, not yet located.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    Error(ErrorKind, String),
    Unsupported(String),
}

impl Fault {
    pub fn error(kind: ErrorKind, message: impl Into<String>) -> Fault {
        Fault::Error(kind, message.into())
    }

    pub fn unsupported(message: impl Into<String>) -> Fault {
        Fault::Unsupported(message.into())
    }
}

/// Why the instruction loop stopped before `main` returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Fault(Fault),
    /// `exit(status)`: the status as the OS reports it (`status & 0xff`).
    Exit(i32),
    /// A `penumbra_assume` / `klee_assume` condition was false.
    AssumptionViolated,
    /// The step budget ran out.
    StepLimit,
    /// The run stopped inside a function a library model called back (`qsort`'s comparator),
    /// where it was already located.
    Located(Box<Halt>),
}

/// Why the loop stopped, and at which instruction (`None`: before the first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Halt {
    pub stop: Stop,
    pub func: Func,
    pub inst: Option<Inst>,
}

impl From<Fault> for Stop {
    fn from(fault: Fault) -> Stop {
        Stop::Fault(fault)
    }
}
