//! `<stdio.h>` natives. Output to `stdout`/`stderr` is discarded (a symbolic run prints
//! nothing of the program's; replaying a test shows its real output): the models only compute
//! the return values and perform the reads a real call would (so `printf("%s", p)` with a bad
//! `p` is still an error). In shadow execution a printed number or character whose versions can
//! differ is a divergence ([`Context::observe`]), and so is a printed text (`puts`, `fputs`,
//! `%s`, `fwrite`) whose versions can differ ([`Context::observe_text`]). Symbolic arguments of
//! `printf`, `puts`, ... are read under the
//! state's model *without* constraining the path. `sprintf`/`snprintf` write into memory, so
//! their symbolic arguments are fixed to their model values (added to the path condition).
//! Standard input is the `--sym-stdin` bytes (or empty): `getchar`/`fgetc` return the next
//! byte's term, then `EOF`.

use crate::address::{Access, Resolution};
use crate::error::ErrorKind;
use crate::libc::bindings::{self, LibcFn};
use crate::libc::printf::{self, PrintfArgs, VarArgList};
use crate::libc::stdio::{fwrite_result, Stream, EOF};
use crate::run_error::RunError;
use crate::symbolic::access::Target;
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::{Context, Flow};
use crate::symbolic::state::{Ending, ExecMode, ExecutionState};
use penumbra_ir::{Body, Inst};
use penumbra_solver::{eval_version, TermId, Version as TermVersion};

type NativeResult = Result<Result<Option<TermId>, Flow>, RunError>;

impl<'p> Context<'p> {
    pub(super) fn stdio(
        &mut self,
        st: &mut ExecutionState,
        _body: &'p Body,
        inst: Inst,
        native: LibcFn,
        name: &str,
        a: &[TermId],
    ) -> NativeResult {
        macro_rules! tri {
            ($e:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(ending) => return Ok(Err(Flow::End(ending))),
                }
            };
        }
        let arg = |ex: &Self, st: &ExecutionState, i: usize| -> Result<TermId, Ending> {
            a.get(i)
                .copied()
                .ok_or_else(|| ex.error(st, ErrorKind::InvalidCall, bindings::too_few_arguments(name, a.len(), i + 1)))
        };
        let int32 = |ex: &mut Self, v: u64| Some(ex.store.constant(32, v));
        let r = match native {
            LibcFn::Printf => {
                let text = tri!(self.format(st, inst, a, 0, name, false)?);
                int32(self, text.len() as u64)
            }
            LibcFn::Fprintf => {
                let stream = tri!(self.stream(st, tri!(arg(self, st, 0)))?);
                let text = tri!(self.format(st, inst, a, 1, name, false)?);
                int32(self, if stream == Stream::Stdin { EOF } else { text.len() as u64 })
            }
            LibcFn::Sprintf | LibcFn::Snprintf => {
                let buf = tri!(arg(self, st, 0));
                let (limit, fmt_index) = if native == LibcFn::Snprintf {
                    let n = tri!(arg(self, st, 1));
                    (Some(self.size_arg(st, n)?), 2)
                } else {
                    (None, 1)
                };
                let mut text = tri!(self.format(st, inst, a, fmt_index, name, true)?);
                let n = text.len() as u64;
                if limit != Some(0) {
                    if let Some(size) = limit {
                        text.truncate(usize::try_from(size - 1).unwrap_or(usize::MAX));
                    }
                    text.push(0);
                    let (obj, off) = match self.resolve(st, inst, buf, text.len() as u64, Access::Write)? {
                        Target::Obj(o, off) => (o, off),
                        Target::Flow(flow) => return Ok(Err(flow)),
                    };
                    let off = self.const_offset(st, off)?;
                    let terms: Vec<TermId> = text.iter().map(|&b| self.store.constant(8, u64::from(b))).collect();
                    st.mem.write_bytes(obj, off, &terms);
                }
                int32(self, n)
            }
            LibcFn::Puts => {
                let s = tri!(arg(self, st, 0));
                let s = self.concretize(st, s, Fixed::Pointer)?;
                let text = tri!(self.read_cstring(st, s, None));
                self.observe_cstring(st, inst, s, None)?;
                int32(self, text.len() as u64 + 1)
            }
            LibcFn::Putchar => {
                let c = tri!(arg(self, st, 0));
                let byte = self.fit(c, 8);
                self.observe(st, inst, byte)?;
                let k = self.store.constant(self.store.width(c), 0xff);
                Some(self.store.and(c, k))
            }
            LibcFn::Fputs => {
                let s = tri!(arg(self, st, 0));
                let s = self.concretize(st, s, Fixed::Pointer)?;
                tri!(self.read_cstring(st, s, None));
                let stream = tri!(self.stream(st, tri!(arg(self, st, 1)))?);
                if stream != Stream::Stdin {
                    self.observe_cstring(st, inst, s, None)?;
                }
                int32(self, if stream == Stream::Stdin { EOF } else { 1 })
            }
            LibcFn::Fputc => {
                let c = tri!(arg(self, st, 0));
                let stream = tri!(self.stream(st, tri!(arg(self, st, 1)))?);
                if stream == Stream::Stdin {
                    int32(self, EOF)
                } else {
                    let byte = self.fit(c, 8);
                    self.observe(st, inst, byte)?;
                    let k = self.store.constant(self.store.width(c), 0xff);
                    Some(self.store.and(c, k))
                }
            }
            LibcFn::Fwrite => {
                let (p, size, count) = (tri!(arg(self, st, 0)), tri!(arg(self, st, 1)), tri!(arg(self, st, 2)));
                let (size, count) = (self.size_arg(st, size)?, self.size_arg(st, count)?);
                let stream = tri!(self.stream(st, tri!(arg(self, st, 3)))?);
                let Some(total) = size.checked_mul(count) else {
                    let message = "fwrite of more bytes than memory holds";
                    return Ok(Err(Flow::End(self.error(st, ErrorKind::OutOfBoundsRead, message))));
                };
                if total > 0 {
                    let (obj, off) = match self.resolve(st, inst, p, total, Access::Read)? {
                        Target::Obj(o, off) => (o, off),
                        Target::Flow(flow) => return Ok(Err(flow)),
                    };
                    if stream != Stream::Stdin && st.mode == ExecMode::Both {
                        let off = self.const_offset(st, off)?;
                        let bytes = st.mem.bytes(obj, off, total);
                        self.observe_text(st, inst, &bytes, false)?;
                    }
                }
                Some(self.store.constant(64, fwrite_result(stream, size, count)))
            }
            LibcFn::Fflush => int32(self, 0),
            LibcFn::Getchar => Some(self.getc(st)),
            LibcFn::Fgetc => match tri!(self.stream(st, tri!(arg(self, st, 0)))?) {
                Stream::Stdin => Some(self.getc(st)),
                Stream::Stdout | Stream::Stderr => int32(self, EOF),
            },
            LibcFn::IsStdin => {
                let stream = tri!(self.stream(st, tri!(arg(self, st, 0)))?);
                int32(self, u64::from(stream == Stream::Stdin))
            }
            other => unreachable!("{other:?} is not a stdio function"),
        };
        Ok(Ok(r))
    }

    /// In shadow execution, the C string at `addr` (at most `max` bytes) is printed: its bytes
    /// as far as either version's text goes under the state's model (and memory holds them)
    /// are observed ([`Context::observe_text`]).
    fn observe_cstring(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        addr: u64,
        max: Option<u64>,
    ) -> Result<(), RunError> {
        if st.mode != ExecMode::Both {
            return Ok(());
        }
        let module = &self.prog.module;
        let mut bytes = Vec::new();
        for i in 0..max.unwrap_or(u64::MAX) {
            let Resolution::InBounds { obj, offset } = st.mem.classify(module, addr.wrapping_add(i), 1, Access::Read)
            else {
                break;
            };
            let b = st.mem.byte(obj, offset);
            bytes.push(b);
            let (o, n) = self.store.projections(b);
            let old_ends = eval_version(&self.store, o, &*st.model, TermVersion::Old) & 0xff == 0;
            let new_ends = eval_version(&self.store, n, &*st.model, TermVersion::New) & 0xff == 0;
            if old_ends && new_ends {
                break;
            }
        }
        self.observe_text(st, inst, &bytes, true)
    }

    /// The next byte of standard input as a 32-bit term, or `EOF`.
    fn getc(&mut self, st: &mut ExecutionState) -> TermId {
        match st.stdin.bytes.get(st.stdin.pos).copied() {
            Some(b) => {
                st.stdin.pos += 1;
                self.store.zext(b, 32)
            }
            None => self.store.constant(32, EOF),
        }
    }

    /// The stream a `FILE *` designates.
    fn stream(&mut self, st: &mut ExecutionState, file: TermId) -> Result<Result<Stream, Ending>, RunError> {
        let f = self.concretize(st, file, Fixed::Pointer)?;
        Ok(self.prog.runtime.stream(f).map_err(|message| self.unsupported(st, message)))
    }

    /// Formats argument `fmt_index` with the arguments after it. With `constrain`, symbolic
    /// arguments are fixed to their model values; otherwise they are only read.
    fn format(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        a: &[TermId],
        fmt_index: usize,
        name: &str,
        constrain: bool,
    ) -> Result<Result<Vec<u8>, Ending>, RunError> {
        let Some(&fmt) = a.get(fmt_index) else {
            let message = bindings::too_few_arguments(name, a.len(), fmt_index + 1);
            return Ok(Err(self.error(st, ErrorKind::InvalidCall, message)));
        };
        let fmt = self.concretize(st, fmt, Fixed::Pointer)?;
        let fmt = match self.read_cstring(st, fmt, None) {
            Ok(fmt) => fmt,
            Err(ending) => return Ok(Err(ending)),
        };
        let mut out = Vec::with_capacity(fmt.len() + 16);
        let list = VarArgList::new(name, &a[fmt_index + 1..]);
        let mut args = VarArgs { ex: self, st, inst, list, constrain };
        match printf::format(&fmt, &mut args, &mut out) {
            Ok(()) => Ok(Ok(out)),
            Err(Stop::End(ending)) => Ok(Err(ending)),
            Err(Stop::Failed(e)) => Err(e),
        }
    }
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
struct VarArgs<'x, 'p> {
    ex: &'x mut Context<'p>,
    st: &'x mut ExecutionState,
    inst: Inst,
    list: VarArgList<'x, TermId>,
    constrain: bool,
}

impl PrintfArgs for VarArgs<'_, '_> {
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
        let w = self.ex.store.width(t);
        if w <= 64 {
            return self.printed(t).map(u128::from);
        }
        // An x87 value: its two halves, each as an ordinary argument.
        let mut bits = 0u128;
        for (lo, hi) in [(0, 63), (64, w - 1)] {
            let half = self.ex.store.extract(t, hi, lo);
            bits |= u128::from(self.printed(half)?) << lo;
        }
        Ok(bits)
    }

    fn string(&mut self, addr: u64, max: Option<u64>, out: &mut Vec<u8>) -> Result<(), Stop> {
        let bytes = self.ex.read_cstring(self.st, addr, max)?;
        if !self.constrain {
            self.ex.observe_cstring(self.st, self.inst, addr, max).map_err(Stop::Failed)?;
        }
        out.extend_from_slice(&bytes);
        Ok(())
    }

    fn unsupported(&mut self, what: String) -> Stop {
        Stop::End(self.ex.unsupported(self.st, what))
    }
}

impl VarArgs<'_, '_> {
    fn next_value(&mut self) -> Result<TermId, Stop> {
        self.list.take().map_err(|message| Stop::End(self.ex.error(self.st, ErrorKind::InvalidCall, message)))
    }

    /// The next argument as a 64-bit register holds it: a `long double` where the format
    /// wants something else gives its low 64 bits, as the concrete interpreter reads it.
    fn next_narrow(&mut self) -> Result<TermId, Stop> {
        let t = self.next_value()?;
        Ok(if self.ex.store.width(t) > 64 { self.ex.store.extract(t, 63, 0) } else { t })
    }

    /// The value of an argument that is printed (of at most 64 bits).
    fn printed(&mut self, t: TermId) -> Result<u64, Stop> {
        if !self.constrain {
            // Printed to a stream: the user sees it (sprintf's bytes are observed where they
            // are printed, if ever).
            self.ex.observe(self.st, self.inst, t).map_err(Stop::Failed)?;
        }
        self.value_of(t)
    }

    /// The argument's value: symbolic ones under the state's model, fixed to one value for
    /// `sprintf` (`symbolic::concretize`: the other values are another state).
    fn value_of(&mut self, t: TermId) -> Result<u64, Stop> {
        if self.ex.store.as_const(t).is_none() {
            self.ex.stats.printed_symbolic += 1;
            if self.constrain {
                return self.ex.concretize(self.st, t, Fixed::Value).map_err(Stop::Failed);
            }
        }
        Ok(self.ex.model_value(self.st, t))
    }
}
