//! `<stdio.h>` natives. Output to `stdout`/`stderr` is discarded (a symbolic run prints
//! nothing of the program's; replaying a test shows its real output): the models only compute
//! the return values and perform the reads a real call would (so `printf("%s", p)` with a bad
//! `p` is still an error). In shadow execution a printed number or character whose versions can
//! differ is a divergence (`observe`, `shadow::output`), and so is a printed text (`puts`,
//! `fputs`, `%s`, `fwrite`) whose versions can differ (`observe_text`). Symbolic arguments of
//! `printf`, `puts`, ... are read under the state's model *without* constraining the path. `sprintf`/`snprintf` write into memory, so
//! their symbolic arguments are fixed to their model values (added to the path condition).
//! Standard input is the `--sym-stdin` bytes (or empty): `getchar`/`fgetc` return the next
//! byte's term, then `EOF`.

use super::{Model, NativeCall};
use crate::address::{Access, Resolution};
use crate::error::ErrorKind;
use crate::interp::Interp;
use crate::libc::bindings::{self, LibcFn};
use crate::libc::printf::{self, PrintfArgs, VarArgList};
use crate::libc::stdio::{fwrite_result, Stream, EOF};
use crate::run_error::RunError;
use crate::shadow::block_output::Piece;
use crate::shadow::Shadow;
use crate::symbolic::access::Resolver;
use crate::symbolic::access::Target;
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::Flow;
use crate::symbolic::state::{Ending, ExecMode};
use penumbra_solver::{eval_version, TermId, Version as TermVersion};
use std::ops::Range;

impl NativeCall<'_, '_> {
    /// Runs the model of the `<stdio.h>` function `native`.
    pub(super) fn stdio(&mut self, native: LibcFn) -> Model {
        macro_rules! tri {
            ($e:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(ending) => return Ok(Err(Flow::End(Box::new(ending)))),
                }
            };
        }
        let (a, name) = (self.args, self.name);
        let arg = |call: &Self, i: usize| -> Result<TermId, Ending> {
            a.get(i).copied().ok_or_else(|| {
                call.cx.error(call.st, ErrorKind::InvalidCall, bindings::too_few_arguments(name, a.len(), i + 1))
            })
        };
        let int32 = |call: &mut Self, v: u64| Some(call.cx.store.constant(32, v));
        let r = match native {
            LibcFn::Printf => {
                let (text, conversions) = tri!(self.format(0, false)?);
                self.record_printed(Stream::Stdout, &text, conversions);
                int32(self, text.len() as u64)
            }
            LibcFn::Fprintf => {
                let stream = tri!(self.stream(tri!(arg(self, 0)))?);
                let (text, conversions) = tri!(self.format(1, false)?);
                self.record_printed(stream, &text, conversions);
                int32(self, if stream == Stream::Stdin { EOF } else { text.len() as u64 })
            }
            LibcFn::Sprintf | LibcFn::Snprintf => {
                let buf = tri!(arg(self, 0));
                let (limit, fmt_index) = if native == LibcFn::Snprintf {
                    let n = tri!(arg(self, 1));
                    (Some(self.size_arg(n)?), 2)
                } else {
                    (None, 1)
                };
                let (mut text, _) = tri!(self.format(fmt_index, true)?);
                let n = text.len() as u64;
                if limit != Some(0) {
                    if let Some(size) = limit {
                        text.truncate(usize::try_from(size - 1).unwrap_or(usize::MAX));
                    }
                    text.push(0);
                    let (obj, off) = match Resolver::new(self.cx).resolve(
                        self.st,
                        self.inst,
                        buf,
                        text.len() as u64,
                        Access::Write,
                    )? {
                        Target::Obj(o, off) => (o, off),
                        Target::Flow(flow) => return Ok(Err(flow)),
                    };
                    let off = self.const_offset(off)?;
                    let terms: Vec<TermId> = text.iter().map(|&b| self.cx.store.constant(8, u64::from(b))).collect();
                    self.st.mem.write_bytes(obj, off, &terms);
                }
                int32(self, n)
            }
            LibcFn::Puts => {
                let s = tri!(arg(self, 0));
                let s = self.cx.concretize(self.st, s, Fixed::Pointer)?;
                let text = tri!(Interp::new(self.cx).read_cstring(self.st, s, None));
                self.observe_cstring(s, None)?;
                let newline = self.cx.store.constant(8, u64::from(b'\n'));
                self.record_cstring(Stream::Stdout, s, None);
                Shadow::new(self.cx).record(self.st, Stream::Stdout, Piece::Bytes(vec![newline]));
                int32(self, text.len() as u64 + 1)
            }
            LibcFn::Putchar => {
                let c = tri!(arg(self, 0));
                let byte = self.cx.fit(c, 8);
                Shadow::new(self.cx).observe(self.st, self.inst, byte)?;
                Shadow::new(self.cx).record(self.st, Stream::Stdout, Piece::Bytes(vec![byte]));
                let k = self.cx.store.constant(self.cx.store.width(c), 0xff);
                Some(self.cx.store.and(c, k))
            }
            LibcFn::Fputs => {
                let s = tri!(arg(self, 0));
                let s = self.cx.concretize(self.st, s, Fixed::Pointer)?;
                tri!(Interp::new(self.cx).read_cstring(self.st, s, None));
                let stream = tri!(self.stream(tri!(arg(self, 1)))?);
                if stream != Stream::Stdin {
                    self.observe_cstring(s, None)?;
                    self.record_cstring(stream, s, None);
                }
                int32(self, if stream == Stream::Stdin { EOF } else { 1 })
            }
            LibcFn::Fputc => {
                let c = tri!(arg(self, 0));
                let stream = tri!(self.stream(tri!(arg(self, 1)))?);
                if stream == Stream::Stdin {
                    int32(self, EOF)
                } else {
                    let byte = self.cx.fit(c, 8);
                    Shadow::new(self.cx).observe(self.st, self.inst, byte)?;
                    Shadow::new(self.cx).record(self.st, stream, Piece::Bytes(vec![byte]));
                    let k = self.cx.store.constant(self.cx.store.width(c), 0xff);
                    Some(self.cx.store.and(c, k))
                }
            }
            LibcFn::Fwrite => {
                let (p, size, count) = (tri!(arg(self, 0)), tri!(arg(self, 1)), tri!(arg(self, 2)));
                let (size, count) = (self.size_arg(size)?, self.size_arg(count)?);
                let stream = tri!(self.stream(tri!(arg(self, 3)))?);
                let Some(total) = size.checked_mul(count) else {
                    let message = "fwrite of more bytes than memory holds";
                    return Ok(Err(Flow::End(Box::new(self.cx.error(self.st, ErrorKind::OutOfBoundsRead, message)))));
                };
                if total > 0 {
                    let (obj, off) = match Resolver::new(self.cx).resolve(self.st, self.inst, p, total, Access::Read)? {
                        Target::Obj(o, off) => (o, off),
                        Target::Flow(flow) => return Ok(Err(flow)),
                    };
                    if stream != Stream::Stdin && (self.st.mode == ExecMode::Both || Shadow::records_output(self.st)) {
                        let off = self.const_offset(off)?;
                        let bytes = self.st.mem.bytes(obj, off, total);
                        Shadow::new(self.cx).observe_text(self.st, self.inst, &bytes, false)?;
                        Shadow::new(self.cx).record(self.st, stream, Piece::Bytes(bytes));
                    }
                }
                Some(self.cx.store.constant(64, fwrite_result(stream, size, count)))
            }
            LibcFn::Fflush => int32(self, 0),
            LibcFn::Getchar => Some(self.getc()),
            LibcFn::Fgetc => match tri!(self.stream(tri!(arg(self, 0)))?) {
                Stream::Stdin => Some(self.getc()),
                Stream::Stdout | Stream::Stderr => int32(self, EOF),
            },
            LibcFn::IsStdin => {
                let stream = tri!(self.stream(tri!(arg(self, 0)))?);
                int32(self, u64::from(stream == Stream::Stdin))
            }
            other => unreachable!("{other:?} is not a stdio function"),
        };
        Ok(Ok(r))
    }

    /// In shadow execution, the C string at `addr` (at most `max` bytes) is printed: its bytes
    /// as far as either version's text goes under the state's model (and memory holds them)
    /// are observed (`Shadow::observe_text`).
    fn observe_cstring(&mut self, addr: u64, max: Option<u64>) -> Result<(), RunError> {
        if self.st.mode != ExecMode::Both {
            return Ok(());
        }
        let bytes = self.cstring_bytes(addr, max);
        Shadow::new(self.cx).observe_text(self.st, self.inst, &bytes, true)
    }

    /// In one side of an execute block, the C string at `addr` (at most `max` bytes) is
    /// printed to `stream`: recorded (`Shadow::record`).
    fn record_cstring(&mut self, stream: Stream, addr: u64, max: Option<u64>) {
        if Shadow::records_output(self.st) {
            let bytes = self.cstring_bytes(addr, max);
            Shadow::new(self.cx).record(self.st, stream, Piece::CString(bytes));
        }
    }

    /// In a `printf` of one side of an execute block, `text` was printed to `stream`, with
    /// the `conversions` of symbolic values at their places in it: recorded as pieces.
    fn record_printed(&mut self, stream: Stream, text: &[u8], conversions: Vec<(Range<usize>, Piece)>) {
        if !Shadow::records_output(self.st) {
            return;
        }
        let mut shadow = Shadow::new(self.cx);
        let mut at = 0;
        for (range, piece) in conversions {
            let bytes = shadow.constant_bytes(&text[at..range.start]);
            shadow.record(self.st, stream, Piece::Bytes(bytes));
            shadow.record(self.st, stream, piece);
            at = range.end;
        }
        let bytes = shadow.constant_bytes(&text[at..]);
        shadow.record(self.st, stream, Piece::Bytes(bytes));
    }

    /// The bytes of the C string at `addr` (at most `max`), as far as either version's text
    /// goes under the state's model (and memory holds them), terminator included.
    fn cstring_bytes(&mut self, addr: u64, max: Option<u64>) -> Vec<TermId> {
        let module = &self.cx.prog.module;
        let mut bytes = Vec::new();
        for i in 0..max.unwrap_or(u64::MAX) {
            let Resolution::InBounds { obj, offset } =
                self.st.mem.classify(module, addr.wrapping_add(i), 1, Access::Read)
            else {
                break;
            };
            let b = self.cx.view(self.st, self.st.mem.byte(obj, offset));
            bytes.push(b);
            let (o, n) = self.cx.store.projections(b);
            let old_ends = eval_version(&self.cx.store, o, &*self.st.model, TermVersion::Old) & 0xff == 0;
            let new_ends = eval_version(&self.cx.store, n, &*self.st.model, TermVersion::New) & 0xff == 0;
            if old_ends && new_ends {
                break;
            }
        }
        bytes
    }

    /// The next byte of standard input as a 32-bit term, or `EOF`.
    fn getc(&mut self) -> TermId {
        match self.st.stdin.bytes.get(self.st.stdin.pos).copied() {
            Some(b) => {
                self.st.stdin.pos += 1;
                self.cx.store.zext(b, 32)
            }
            None => self.cx.store.constant(32, EOF),
        }
    }

    /// The stream a `FILE *` designates.
    fn stream(&mut self, file: TermId) -> Result<Result<Stream, Ending>, RunError> {
        let f = self.cx.concretize(self.st, file, Fixed::Pointer)?;
        Ok(self.cx.prog.runtime.stream(f).map_err(|message| self.cx.unsupported(self.st, message)))
    }

    /// Formats argument `fmt_index` with the arguments after it. With `constrain`, symbolic
    /// arguments are fixed to their model values; otherwise they are only read, and in one
    /// side of an execute block the conversions of symbolic values come with the text (their
    /// places in it).
    fn format(&mut self, fmt_index: usize, constrain: bool) -> Result<Result<Formatted, Ending>, RunError> {
        let (a, name) = (self.args, self.name);
        let Some(&fmt) = a.get(fmt_index) else {
            let message = bindings::too_few_arguments(name, a.len(), fmt_index + 1);
            return Ok(Err(self.cx.error(self.st, ErrorKind::InvalidCall, message)));
        };
        let fmt = self.cx.concretize(self.st, fmt, Fixed::Pointer)?;
        let fmt = match Interp::new(self.cx).read_cstring(self.st, fmt, None) {
            Ok(fmt) => fmt,
            Err(ending) => return Ok(Err(ending)),
        };
        let mut out = Vec::with_capacity(fmt.len() + 16);
        let list = VarArgList::new(name, &a[fmt_index + 1..]);
        let block = (!constrain && Shadow::records_output(self.st)).then(BlockText::default);
        let mut args = VarArgs { call: self, list, constrain, block };
        match printf::format(&fmt, &mut args, &mut out) {
            Ok(()) => Ok(Ok((out, args.block.map(|b| b.conversions).unwrap_or_default()))),
            Err(Stop::End(ending)) => Ok(Err(ending)),
            Err(Stop::Failed(e)) => Err(e),
        }
    }
}

/// A `printf`'s text, with its conversions of symbolic values in one side of an execute
/// block (see [`NativeCall::format`]).
type Formatted = (Vec<u8>, Vec<(Range<usize>, Piece)>);

/// What a `printf` in one side of an execute block took from its arguments.
#[derive(Default)]
struct BlockText {
    /// The argument terms (this version's) the conversion being formatted took so far.
    taken: Vec<TermId>,
    /// Whether it took a string (`%s`): its bytes are the last of `taken`.
    string: bool,
    /// The conversions so far that printed symbolic values, at their places in the text.
    conversions: Vec<(Range<usize>, Piece)>,
}

/// Why formatting stopped: the path ended, or the engine failed.
enum Stop {
    End(Ending),
    Failed(RunError),
}

impl From<Ending> for Stop {
    fn from(ending: Ending) -> Self {
        Stop::End(ending)
    }
}

/// The variadic arguments of a `printf`-family call.
struct VarArgs<'x, 'c, 'p> {
    call: &'x mut NativeCall<'c, 'p>,
    list: VarArgList<'c, TermId>,
    constrain: bool,
    /// In one side of an execute block (never with `constrain`).
    block: Option<BlockText>,
}

impl PrintfArgs for VarArgs<'_, '_, '_> {
    type Error = Stop;

    fn next_arg(&mut self) -> Result<u64, Stop> {
        let t = self.next_narrow()?;
        self.printed(t)
    }

    fn next_string(&mut self) -> Result<u64, Stop> {
        let t = self.next_narrow()?;
        self.value_of(t)
    }

    fn next_float(&mut self, long: bool) -> Result<u128, Stop> {
        if !long {
            return self.next_arg().map(u128::from);
        }
        let t = self.next_value()?;
        let w = self.call.cx.store.width(t);
        if w <= 64 {
            return self.printed(t).map(u128::from);
        }
        // An x87 value: its two halves, each as an ordinary argument.
        let mut bits = 0u128;
        for (lo, hi) in [(0, 63), (64, w - 1)] {
            let half = self.call.cx.store.extract(t, hi, lo);
            bits |= u128::from(self.printed(half)?) << lo;
        }
        Ok(bits)
    }

    fn string(&mut self, addr: u64, max: Option<u64>, out: &mut Vec<u8>) -> Result<(), Stop> {
        let bytes = Interp::new(self.call.cx).read_cstring(self.call.st, addr, max)?;
        if !self.constrain {
            self.call.observe_cstring(addr, max).map_err(Stop::Failed)?;
        }
        if self.block.is_some() {
            let taken = self.call.cstring_bytes(addr, max);
            if let Some(block) = self.block.as_mut() {
                block.taken.extend(taken);
                block.string = true;
            }
        }
        out.extend_from_slice(&bytes);
        Ok(())
    }

    fn converted(&mut self, spec: &[u8], text: Range<usize>) {
        let Some(block) = self.block.as_mut() else { return };
        let taken = std::mem::take(&mut block.taken);
        let string = std::mem::take(&mut block.string);
        if taken.iter().all(|&t| self.call.cx.store.as_const(t).is_some()) {
            return;
        }
        let piece = if string && spec == b"%s" {
            Piece::CString(taken)
        } else {
            Piece::Conversion { spec: spec.into(), terms: taken }
        };
        block.conversions.push((text, piece));
    }

    fn unsupported(&mut self, what: String) -> Stop {
        Stop::End(self.call.cx.unsupported(self.call.st, what))
    }
}

impl VarArgs<'_, '_, '_> {
    fn next_value(&mut self) -> Result<TermId, Stop> {
        self.list.take().map_err(|message| Stop::End(self.call.cx.error(self.call.st, ErrorKind::InvalidCall, message)))
    }

    /// The next argument as a 64-bit register holds it: a `long double` where the format
    /// wants something else gives its low 64 bits, as the concrete interpreter reads it.
    fn next_narrow(&mut self) -> Result<TermId, Stop> {
        let t = self.next_value()?;
        Ok(if self.call.cx.store.width(t) > 64 { self.call.cx.store.extract(t, 63, 0) } else { t })
    }

    /// The value of an argument that is printed (of at most 64 bits).
    fn printed(&mut self, t: TermId) -> Result<u64, Stop> {
        if !self.constrain {
            // Printed to a stream: the user sees it (sprintf's bytes are observed where they
            // are printed, if ever).
            Shadow::new(self.call.cx).observe(self.call.st, self.call.inst, t).map_err(Stop::Failed)?;
        }
        if let Some(block) = self.block.as_mut() {
            block.taken.push(self.call.cx.view(self.call.st, t));
        }
        self.value_of(t)
    }

    /// The argument's value: symbolic ones under the state's model, fixed to one value for
    /// `sprintf` (`symbolic::concretize`: the other values are another state).
    fn value_of(&mut self, t: TermId) -> Result<u64, Stop> {
        if self.call.cx.store.as_const(t).is_none() {
            self.call.cx.stats.printed_symbolic += 1;
            if self.constrain {
                return self.call.cx.concretize(self.call.st, t, Fixed::Value).map_err(Stop::Failed);
            }
        }
        Ok(self.call.cx.model_value(self.call.st, t))
    }
}
