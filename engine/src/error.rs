//! Runtime errors a program can hit, shared by the concrete interpreter and the symbolic engine.
//!
//! An [`ErrorKind`] is what went wrong, with a stable kebab-case name ([`ErrorKind::as_str`])
//! that appears in JSON output and tests; a [`RuntimeError`] adds a human message and the
//! [`Location`] (function and source line) of the instruction that failed.

use std::fmt;

/// The errors penumbra detects. The names returned by [`ErrorKind::as_str`] are part of the
/// user-visible contract: do not rename them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    /// A read past the end (or before the start) of an object.
    OutOfBoundsRead,
    /// A write past the end (or before the start) of an object.
    OutOfBoundsWrite,
    /// An access to an address in the first page (below 4096).
    NullDereference,
    /// An access to a freed heap object or to a stack object of a returned function.
    UseAfterFree,
    /// `free` (or `realloc`) of an already freed block.
    DoubleFree,
    /// `free` of something `malloc` did not return (a global, a stack object, an interior
    /// pointer).
    InvalidFree,
    /// An address in no object (or a write to read-only memory).
    InvalidPointer,
    /// A call through an address that is not a function, or with the wrong number of arguments.
    InvalidCall,
    /// Division or remainder by zero.
    DivisionByZero,
    /// `INT_MIN / -1` or `INT_MIN % -1` at the operand width.
    SignedDivisionOverflow,
    /// A shift by the operand width or more.
    ShiftOutOfRange,
    /// A failing `assert`, `penumbra_assert` or `klee_assert`.
    AssertionFailed,
    /// A call of `abort()`.
    Abort,
    /// Reaching an `unreachable` instruction (e.g. falling off a non-void function).
    Unreachable,
    /// The stack limit (8 MiB of frames and stack objects) was exceeded.
    StackOverflow,
    /// `memcpy` between overlapping ranges (AddressSanitizer's `memcpy-param-overlap`).
    MemcpyParamOverlap,
    /// A floating-point value converted to an integer type that cannot hold its truncation
    /// (or a NaN): undefined in C; UndefinedBehaviorSanitizer's `float-cast-overflow`.
    FloatCastOverflow,
}

impl ErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [ErrorKind; 17] = [
        ErrorKind::OutOfBoundsRead,
        ErrorKind::OutOfBoundsWrite,
        ErrorKind::NullDereference,
        ErrorKind::UseAfterFree,
        ErrorKind::DoubleFree,
        ErrorKind::InvalidFree,
        ErrorKind::InvalidPointer,
        ErrorKind::InvalidCall,
        ErrorKind::DivisionByZero,
        ErrorKind::SignedDivisionOverflow,
        ErrorKind::ShiftOutOfRange,
        ErrorKind::AssertionFailed,
        ErrorKind::Abort,
        ErrorKind::Unreachable,
        ErrorKind::StackOverflow,
        ErrorKind::MemcpyParamOverlap,
        ErrorKind::FloatCastOverflow,
    ];

    /// The stable kebab-case name used in JSON and diagnostics.
    pub fn as_str(&self) -> &'static str {
        match self {
            ErrorKind::OutOfBoundsRead => "out-of-bounds-read",
            ErrorKind::OutOfBoundsWrite => "out-of-bounds-write",
            ErrorKind::NullDereference => "null-dereference",
            ErrorKind::UseAfterFree => "use-after-free",
            ErrorKind::DoubleFree => "double-free",
            ErrorKind::InvalidFree => "invalid-free",
            ErrorKind::InvalidPointer => "invalid-pointer",
            ErrorKind::InvalidCall => "invalid-call",
            ErrorKind::DivisionByZero => "division-by-zero",
            ErrorKind::SignedDivisionOverflow => "signed-division-overflow",
            ErrorKind::ShiftOutOfRange => "shift-out-of-range",
            ErrorKind::AssertionFailed => "assertion-failed",
            ErrorKind::Abort => "abort",
            ErrorKind::Unreachable => "unreachable",
            ErrorKind::StackOverflow => "stack-overflow",
            ErrorKind::MemcpyParamOverlap => "memcpy-param-overlap",
            ErrorKind::FloatCastOverflow => "float-cast-overflow",
        }
    }

    /// The kind named `name` (the inverse of [`ErrorKind::as_str`]).
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where something happened: the function, its source file (empty when unknown: the
/// program's main file) and the C source line (0 when unknown).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    pub func: String,
    pub line: u32,
    pub file: String,
}

impl Location {
    pub fn new(func: impl Into<String>, line: u32) -> Self {
        Location { func: func.into(), line, file: String::new() }
    }

    /// The location of `line` in the function `func` of the module.
    pub fn of(func: &penumbra_ir::Function, line: u32) -> Self {
        Location { func: func.name.clone(), line, file: func.file.clone() }
    }

    /// `file:line`, the form diagnostics use; `main_file` when the location has no file.
    pub fn in_file(&self, main_file: &str) -> String {
        let file = if self.file.is_empty() { main_file } else { &self.file };
        format!("{file}:{}", self.line)
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.func, self.line)
    }
}

/// A detected error: its kind, a human message and where it happened.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}: {message} (in '{}', line {})", location.func, location.line)]
pub struct RuntimeError {
    pub kind: ErrorKind,
    pub message: String,
    pub location: Location,
}

impl RuntimeError {
    /// The one-line diagnostic the CLI prints: `penumbra: error: <kind>: <message> at
    /// <file>:<line>`.
    pub fn diagnostic(&self, source_file: &str) -> String {
        format!("penumbra: error: {}: {} at {}", self.kind, self.message, self.location.in_file(source_file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_are_stable_and_round_trip() {
        let names: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(
            names,
            [
                "out-of-bounds-read",
                "out-of-bounds-write",
                "null-dereference",
                "use-after-free",
                "double-free",
                "invalid-free",
                "invalid-pointer",
                "invalid-call",
                "division-by-zero",
                "signed-division-overflow",
                "shift-out-of-range",
                "assertion-failed",
                "abort",
                "unreachable",
                "stack-overflow",
                "memcpy-param-overlap",
                "float-cast-overflow",
            ]
        );
        for kind in ErrorKind::ALL {
            assert_eq!(ErrorKind::from_name(kind.as_str()), Some(kind));
        }
        assert_eq!(ErrorKind::from_name("segfault"), None);
    }

    #[test]
    fn diagnostic_names_kind_message_file_and_line() {
        let e = RuntimeError {
            kind: ErrorKind::OutOfBoundsWrite,
            message: "write of 1 byte at offset 4 of global 'buf' (4 bytes)".into(),
            location: Location::new("main", 12),
        };
        assert_eq!(
            e.diagnostic("offbyone.c"),
            "penumbra: error: out-of-bounds-write: write of 1 byte at offset 4 of global 'buf' (4 bytes) \
             at offbyone.c:12"
        );
    }
}
