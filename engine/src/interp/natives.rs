//! Native models: the heap, bulk memory, process control, and the pure functions of
//! `<ctype.h>` and `<stdlib.h>` as single terms. I/O is in `stdio.rs`.
//!
//! Sizes and lengths are fixed to their model value when symbolic (counted in the summary as
//! `concretized_sizes`), as KLEE does; pointers go through the same resolution as loads and
//! stores, so a `memcpy` past the end of a buffer is an out-of-bounds access at the line of the
//! call, exactly as in the concrete interpreter (which checks the whole source, then the whole
//! destination, before copying).

use super::step::val;
use crate::address::{memcpy_overlap, memcpy_overlap_message, Access, ObjectId, Origin, Segment};
use crate::error::ErrorKind;
use crate::libc::ctype::Class;
use crate::run_error::RunError;
use crate::symbolic::access::{Offset, Target};
use crate::symbolic::context::{Context, Flow};
use crate::symbolic::libc::Native;
use crate::symbolic::state::{Ending, ExecutionState};
use penumbra_ir::{Body, Inst, Value};
use penumbra_solver::TermId;

impl<'p> Context<'p> {
    /// Calls the native model `native` with the caller's `args`.
    pub(crate) fn call_native(
        &mut self,
        st: &mut ExecutionState,
        body: &'p Body,
        inst: Inst,
        native: Native,
        args: &[Value],
    ) -> Result<Flow, RunError> {
        let mut terms = std::mem::take(&mut self.scratch);
        terms.clear();
        terms.extend(args.iter().map(|&a| val(st, a).term(&mut self.store)));
        let name = match body.insts[inst] {
            penumbra_ir::InstData::Call { func, .. } => self.prog.module.funcs[func].name.clone(),
            _ => "a function pointer".to_string(),
        };
        let r = self.native(st, body, inst, native, &name, &terms);
        self.scratch = terms;
        match r? {
            Ok(Some(t)) => {
                self.set_call_result(st, body, inst, t);
                Ok(Flow::Next)
            }
            Ok(None) => Ok(Flow::Next),
            Err(flow) => Ok(flow),
        }
    }

    /// Runs a model: `Ok(Ok(result))` to go on, `Ok(Err(flow))` when the instruction ends
    /// otherwise (an error, a retry).
    fn native(
        &mut self,
        st: &mut ExecutionState,
        body: &'p Body,
        inst: Inst,
        native: Native,
        name: &str,
        a: &[TermId],
    ) -> Result<Result<Option<TermId>, Flow>, RunError> {
        let arg = |i: usize| -> Result<TermId, String> {
            a.get(i)
                .copied()
                .ok_or_else(|| format!("{name} called with {} arguments, needs at least {}", a.len(), i + 1))
        };
        macro_rules! arg {
            ($i:expr) => {
                match arg($i) {
                    Ok(t) => t,
                    Err(message) => return Ok(Err(Flow::End(self.error(st, ErrorKind::InvalidCall, message)))),
                }
            };
        }
        let r = match native {
            Native::Malloc => {
                let (old, new) = self.alloc_sizes(st, arg!(0));
                let p = self.malloc(st, old.max(new));
                if old != new {
                    if let Some((obj, 0)) = self.store.as_const(p).and_then(|a| st.mem.resolve(a)) {
                        self.record_shadow_size(st, obj, old, new);
                    }
                }
                Some(p)
            }
            Native::Calloc => {
                let (n, m) = (self.size_arg(st, arg!(0)), self.size_arg(st, arg!(1)));
                Some(match n.checked_mul(m) {
                    Some(total) => self.malloc(st, total),
                    None => self.store.zero(64),
                })
            }
            Native::AlignedAlloc => {
                let align = arg!(0);
                let align = self.concretize(st, align);
                let n = self.size_arg(st, arg!(1));
                Some(self.aligned_alloc(st, n, align))
            }
            Native::Realloc => {
                let (p, n) = (arg!(0), arg!(1));
                let p = self.concretize(st, p);
                let n = self.size_arg(st, n);
                return self.realloc(st, p, n);
            }
            Native::Free => {
                let p = arg!(0);
                let p = self.concretize(st, p);
                if p != 0 {
                    match self.heap_block(st, p, "free") {
                        Ok(id) => {
                            let line = self.location(st).line;
                            st.mem.free_heap_object(id, line);
                        }
                        Err(ending) => return Ok(Err(Flow::End(ending))),
                    }
                }
                None
            }
            Native::Memcpy | Native::Memmove => {
                let (dst, src, n) = (arg!(0), arg!(1), arg!(2));
                let n = self.size_arg(st, n);
                if native == Native::Memcpy {
                    if let Some(ending) = self.check_memcpy_overlap(st, dst, src, n)? {
                        return Ok(Err(Flow::End(ending)));
                    }
                }
                if let Err(flow) = self.copy(st, inst, dst, src, n)? {
                    return Ok(Err(flow));
                }
                Some(dst)
            }
            Native::Memset => {
                let (dst, c, n) = (arg!(0), arg!(1), arg!(2));
                let n = self.size_arg(st, n);
                if n > 0 {
                    let (obj, off) = match self.resolve(st, inst, dst, n, Access::Write)? {
                        Target::Obj(obj, off) => (obj, off),
                        Target::Flow(flow) => return Ok(Err(flow)),
                    };
                    let off = self.const_offset(st, off);
                    let byte = self.fit(c, 8);
                    st.mem.fill_bytes(obj, off, n, byte);
                }
                Some(dst)
            }
            Native::Exit | Native::QuickExit => {
                let code = self.exit_status(st, inst, arg!(0))?;
                let flow = if native == Native::Exit { self.exit(st, code) } else { Flow::End(Ending::Exit(code)) };
                return Ok(Err(flow));
            }
            Native::Atexit => {
                if let Err(ending) = self.register_atexit(st, arg!(0)) {
                    return Ok(Err(Flow::End(ending)));
                }
                Some(self.store.constant(32, 0))
            }
            Native::Abort => return Ok(Err(Flow::End(self.error(st, ErrorKind::Abort, "abort() called")))),
            Native::Trap => return Ok(Err(Flow::End(self.error(st, ErrorKind::Abort, "trap (llvm.trap)")))),
            Native::AssertFail => {
                let (e, f) = (arg!(0), arg!(3));
                let (e, f) = (self.concretize(st, e), self.concretize(st, f));
                let text = |ex: &mut Self, st: &ExecutionState, addr| {
                    ex.read_cstring(st, addr, Some(4096)).map(|b| String::from_utf8_lossy(&b).into_owned())
                };
                let expr = match text(self, st, e) {
                    Ok(s) => s,
                    Err(ending) => return Ok(Err(Flow::End(ending))),
                };
                let func = match text(self, st, f) {
                    Ok(s) => s,
                    Err(ending) => return Ok(Err(Flow::End(ending))),
                };
                let message = format!("assertion `{expr}' failed in function '{func}'");
                return Ok(Err(Flow::End(self.error(st, ErrorKind::AssertionFailed, message))));
            }
            Native::ErrnoLocation => Some(self.store.constant(64, self.prog.runtime.errno)),
            Native::CtypeB => Some(self.store.constant(64, self.prog.runtime.ctype_b)),
            Native::CtypeToupper => Some(self.store.constant(64, self.prog.runtime.ctype_toupper)),
            Native::CtypeTolower => Some(self.store.constant(64, self.prog.runtime.ctype_tolower)),
            Native::IsClass(class) => {
                let c = self.fit(arg!(0), 32);
                let yes = self.class_term(class, c);
                Some(self.store.zext(yes, 32))
            }
            Native::Toupper | Native::Tolower => {
                let c = self.fit(arg!(0), 32);
                let (from, delta) = if native == Native::Toupper { (b'a', 32u64.wrapping_neg()) } else { (b'A', 32) };
                // glibc: letters move, negative `char`s -128..=-2 map to 128..=254.
                let inside = self.range(c, u64::from(from), 26);
                let d = self.store.constant(32, delta);
                let moved = self.store.add(c, d);
                let negative_char = self.range(c, (-128i32) as u32 as u64, 127);
                let k256 = self.store.constant(32, 256);
                let wrapped = self.store.add(c, k256);
                let other = self.store.ite(negative_char, wrapped, c);
                Some(self.store.ite(inside, moved, other))
            }
            Native::Abs | Native::Labs => {
                let w = if native == Native::Abs { 32 } else { 64 };
                let x = self.fit(arg!(0), w);
                let zero = self.store.zero(w);
                let negative = self.store.slt(x, zero);
                let neg = self.store.neg(x);
                Some(self.store.ite(negative, neg, x))
            }
            Native::Nop => None,
            Native::StackSave => Some(self.store.zero(64)),
            Native::CheckRead => {
                let (p, n) = (arg!(0), arg!(1));
                let n = self.size_arg(st, n);
                if n > 0 {
                    if let Target::Flow(flow) = self.resolve(st, inst, p, n, Access::Read)? {
                        return Ok(Err(flow));
                    }
                }
                None
            }
            Native::Printf
            | Native::Fprintf
            | Native::Sprintf
            | Native::Snprintf
            | Native::Puts
            | Native::Putchar
            | Native::Fputs
            | Native::Fputc
            | Native::Fwrite
            | Native::Fflush
            | Native::Getchar
            | Native::Fgetc
            | Native::IsStdin => return self.stdio(st, body, inst, native, name, a),
            Native::Syscall => return self.syscall(st, inst, a),
            Native::SymFiles => {
                let spec = self.config.env.sym_files.map_or(0, crate::libc::syscall::pack_sym_files);
                Some(self.store.constant(64, spec))
            }
            Native::Destructor => {
                let i = arg!(0);
                let i = self.concretize(st, i);
                let dtors = &self.prog.module.dtors;
                let addr =
                    usize::try_from(i).ok().and_then(|i| dtors.get(i)).map_or(0, |&f| crate::address::func_addr(f));
                Some(self.store.constant(64, addr))
            }
        };
        Ok(Ok(r))
    }

    /// The status of `exit(t)` (its low byte), which the user sees: observed, then its value.
    pub(crate) fn exit_status(&mut self, st: &mut ExecutionState, inst: Inst, t: TermId) -> Result<i32, RunError> {
        let status = self.fit(t, 8);
        self.observe(st, inst, status)?;
        Ok((self.model_value(st, status) & 0xff) as i32)
    }

    /// A size argument, fixed to its model value if symbolic.
    pub(crate) fn size_arg(&mut self, st: &mut ExecutionState, t: TermId) -> u64 {
        if self.store.as_const(t).is_none() {
            self.stats.concretized_sizes += 1;
        }
        self.concretize(st, t)
    }

    /// A resolved offset as a constant (a symbolic one is fixed to its model value).
    pub(crate) fn const_offset(&mut self, st: &mut ExecutionState, off: Offset) -> u64 {
        match off {
            Offset::Const(o) => o,
            Offset::Sym(t) => {
                self.stats.concretized_offsets += 1;
                self.concretize(st, t)
            }
        }
    }

    /// `(c - lo) <u n`: `c` in `lo .. lo + n` (32-bit `c`).
    fn range(&mut self, c: TermId, lo: u64, n: u64) -> TermId {
        let lo = self.store.constant(32, lo);
        let d = self.store.sub(c, lo);
        let n = self.store.constant(32, n);
        self.store.ult(d, n)
    }

    /// The `<ctype.h>` class of the 32-bit `c` as a width-1 term (C locale: ASCII only).
    fn class_term(&mut self, class: Class, c: TermId) -> TermId {
        let eq = |ex: &mut Self, k: u64| {
            let k = ex.store.constant(32, k);
            ex.store.eq(c, k)
        };
        match class {
            Class::Digit => self.range(c, 48, 10),
            Class::XDigit => {
                let d = self.range(c, 48, 10);
                let l = self.range(c, 97, 6);
                let u = self.range(c, 65, 6);
                let du = self.store.or(d, u);
                self.store.or(du, l)
            }
            Class::Space => {
                let sp = eq(self, 32);
                let ctl = self.range(c, 9, 5);
                self.store.or(sp, ctl)
            }
            Class::Alpha => self.alpha(c),
            Class::Alnum => {
                let a = self.alpha(c);
                let d = self.range(c, 48, 10);
                self.store.or(a, d)
            }
            Class::Upper => self.range(c, 65, 26),
            Class::Lower => self.range(c, 97, 26),
            Class::Print => self.range(c, 32, 95),
            Class::Graph => self.range(c, 33, 94),
            Class::Punct => {
                let g = self.range(c, 33, 94);
                let a = self.alpha(c);
                let d = self.range(c, 48, 10);
                let an = self.store.or(a, d);
                let not_an = self.store.not(an);
                self.store.and(g, not_an)
            }
            Class::Cntrl => {
                let low = self.range(c, 0, 32);
                let del = eq(self, 127);
                self.store.or(low, del)
            }
            Class::Blank => {
                let sp = eq(self, 32);
                let tab = eq(self, 9);
                self.store.or(sp, tab)
            }
        }
    }

    fn alpha(&mut self, c: TermId) -> TermId {
        let k = self.store.constant(32, 32);
        let folded = self.store.or(c, k);
        self.range(folded, 97, 26)
    }

    /// A fresh heap block of `n` bytes (its address as a term), or NULL when the heap budget
    /// is spent.
    fn malloc(&mut self, st: &mut ExecutionState, n: u64) -> TermId {
        self.aligned_alloc(st, n, 16)
    }

    /// A fresh heap block of `n` bytes aligned to `align` (a power of two), or NULL.
    fn aligned_alloc(&mut self, st: &mut ExecutionState, n: u64, align: u64) -> TermId {
        let line = self.location(st).line;
        match st.mem.allocate(Segment::Heap, n, align, Origin::Heap { line }, self.prog.zero_byte) {
            Some(id) => self.store.constant(64, st.mem.object(id).base),
            None => self.store.zero(64),
        }
    }

    /// `realloc(p, n)` with the concrete interpreter's (glibc's) semantics.
    fn realloc(&mut self, st: &mut ExecutionState, p: u64, n: u64) -> Result<Result<Option<TermId>, Flow>, RunError> {
        if p == 0 {
            return Ok(Ok(Some(self.malloc(st, n))));
        }
        let old = match self.heap_block(st, p, "realloc") {
            Ok(id) => id,
            Err(ending) => return Ok(Err(Flow::End(ending))),
        };
        let line = self.location(st).line;
        if n == 0 {
            st.mem.free_heap_object(old, line);
            return Ok(Ok(Some(self.store.zero(64))));
        }
        let q = self.malloc(st, n);
        if let Some(qa) = self.store.as_const(q).filter(|&a| a != 0) {
            let keep = st.mem.object(old).size.min(n);
            let bytes = st.mem.bytes(old, 0, keep);
            if let Some((new, 0)) = st.mem.resolve(qa) {
                st.mem.write_bytes(new, 0, &bytes);
            }
            st.mem.free_heap_object(old, line);
        }
        Ok(Ok(Some(q)))
    }

    /// The live heap block starting exactly at `addr`, else the `free`/`realloc` error (the
    /// concrete interpreter's verdicts).
    fn heap_block(&self, st: &ExecutionState, addr: u64, op: &str) -> Result<ObjectId, Ending> {
        st.mem.heap_block(&self.prog.module, addr, op).map_err(|(kind, message)| self.error(st, kind, message))
    }

    /// `memcpy(dst, src, n)`'s check that the ranges do not overlap (unless they are the same),
    /// made before the copy as AddressSanitizer makes it.
    fn check_memcpy_overlap(
        &mut self,
        st: &mut ExecutionState,
        dst: TermId,
        src: TermId,
        n: u64,
    ) -> Result<Option<Ending>, RunError> {
        let (d, s) = (self.view(st, dst), self.view(st, src));
        if let (Some(d), Some(s)) = (self.store.as_const(d), self.store.as_const(s)) {
            return Ok(memcpy_overlap(d, s, n).map(|m| self.error(st, ErrorKind::MemcpyParamOverlap, m)));
        }
        let n_k = self.store.constant(64, n);
        let (ds, sd) = (self.store.sub(d, s), self.store.sub(s, d));
        let (near_after, near_before) = (self.store.ult(ds, n_k), self.store.ult(sd, n_k));
        let near = self.store.or(near_after, near_before);
        let same = self.store.eq(d, s);
        let different = self.store.not(same);
        let fail = self.store.and(different, near);
        self.check(st, fail, |ex, st| ex.error(st, ErrorKind::MemcpyParamOverlap, memcpy_overlap_message(n)))
    }

    /// `memmove(dst, src, n)`: checks the whole source (read), then the whole destination
    /// (write), then copies the byte terms.
    fn copy(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        dst: TermId,
        src: TermId,
        n: u64,
    ) -> Result<Result<(), Flow>, RunError> {
        if n == 0 {
            return Ok(Ok(()));
        }
        let (sobj, soff) = match self.resolve(st, inst, src, n, Access::Read)? {
            Target::Obj(o, off) => (o, off),
            Target::Flow(flow) => return Ok(Err(flow)),
        };
        let (dobj, doff) = match self.resolve(st, inst, dst, n, Access::Write)? {
            Target::Obj(o, off) => (o, off),
            Target::Flow(flow) => return Ok(Err(flow)),
        };
        let soff = self.const_offset(st, soff);
        let doff = self.const_offset(st, doff);
        st.mem.copy_bytes(dobj, doff, sobj, soff, n);
        Ok(Ok(()))
    }
}
