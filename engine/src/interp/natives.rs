//! Native models: the heap, bulk memory, process control, and the pure functions of
//! `<ctype.h>` and `<stdlib.h>` as single terms. I/O is in `stdio.rs`.
//!
//! An allocation's size stays a term (`symbolic::sizes`). A bulk access's length (`memcpy`,
//! `memset`) is checked symbolically against its objects, then fixed to one value, the other
//! values going on as another state (`symbolic::concretize`); pointers go through the same
//! resolution as loads and stores, so a `memcpy` past the end of a buffer is an out-of-bounds
//! access at the line of the call, exactly as in the concrete interpreter (which checks the
//! whole source, then the whole destination, before copying).

use super::step::val;
use crate::address::{memcpy_overlap, memcpy_overlap_message, Access, ObjectId, Origin, Segment};
use crate::error::ErrorKind;
use crate::libc::bindings::{self, Binding, LibcFn};
use crate::libc::ctype::Class;
use crate::run_error::RunError;
use crate::symbolic::access::{Offset, Target};
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::{Context, Flow};
use crate::symbolic::state::{Ending, ExecutionState};
use penumbra_ir::{Body, Inst, Value};
use penumbra_solver::TermId;

impl<'p> Context<'p> {
    /// Calls the native model bound to `binding` with the caller's `args`.
    pub(crate) fn call_native(
        &mut self,
        st: &mut ExecutionState,
        body: &'p Body,
        inst: Inst,
        binding: &'static Binding,
        args: &[Value],
    ) -> Result<Flow, RunError> {
        let name = match body.insts[inst] {
            penumbra_ir::InstData::Call { func, .. } => self.prog.module.funcs[func].name.clone(),
            _ => "a function pointer".to_string(),
        };
        if let Err(message) = binding.check_arity(&name, args.len()) {
            return Ok(Flow::End(self.error(st, ErrorKind::InvalidCall, message)));
        }
        let mut terms = std::mem::take(&mut self.scratch);
        terms.clear();
        terms.extend(args.iter().map(|&a| val(st, a).term(&mut self.store)));
        let r = self.native(st, body, inst, binding.func, &name, &terms);
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
        native: LibcFn,
        name: &str,
        a: &[TermId],
    ) -> Result<Result<Option<TermId>, Flow>, RunError> {
        let arg = |i: usize| -> Result<TermId, String> {
            a.get(i).copied().ok_or_else(|| bindings::too_few_arguments(name, a.len(), i + 1))
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
            LibcFn::Malloc => match self.heap_alloc(st, arg!(0), 16)? {
                Ok(p) => Some(p),
                Err(ending) => return Ok(Err(Flow::End(ending))),
            },
            LibcFn::Calloc => {
                let total = match self.calloc_size(st, inst, arg!(0), arg!(1))? {
                    Ok(Some(total)) => total,
                    // n * m does not fit in a size: NULL.
                    Ok(None) => return Ok(Ok(Some(self.store.zero(64)))),
                    Err(flow) => return Ok(Err(flow)),
                };
                match self.heap_alloc(st, total, 16)? {
                    Ok(p) => Some(p),
                    Err(ending) => return Ok(Err(Flow::End(ending))),
                }
            }
            LibcFn::AlignedAlloc => {
                let align = arg!(0);
                let align = self.concretize(st, align, Fixed::Value)?;
                match self.heap_alloc(st, arg!(1), align)? {
                    Ok(p) => Some(p),
                    Err(ending) => return Ok(Err(Flow::End(ending))),
                }
            }
            LibcFn::Realloc => {
                let (p, n) = (arg!(0), arg!(1));
                let p = self.concretize(st, p, Fixed::Pointer)?;
                return self.realloc(st, inst, p, n);
            }
            LibcFn::Free => {
                let p = arg!(0);
                let p = self.concretize(st, p, Fixed::Pointer)?;
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
            LibcFn::Memcpy | LibcFn::Memmove => {
                let (dst, src, n) = (arg!(0), arg!(1), arg!(2));
                let n = match self.bulk_length(st, inst, n, &[(src, Access::Read), (dst, Access::Write)])? {
                    Ok(n) => n,
                    Err(flow) => return Ok(Err(flow)),
                };
                if native == LibcFn::Memcpy {
                    if let Some(ending) = self.check_memcpy_overlap(st, dst, src, n)? {
                        return Ok(Err(Flow::End(ending)));
                    }
                }
                if let Err(flow) = self.copy(st, inst, dst, src, n)? {
                    return Ok(Err(flow));
                }
                Some(dst)
            }
            LibcFn::Memset => {
                let (dst, c, n) = (arg!(0), arg!(1), arg!(2));
                let n = match self.bulk_length(st, inst, n, &[(dst, Access::Write)])? {
                    Ok(n) => n,
                    Err(flow) => return Ok(Err(flow)),
                };
                if n > 0 {
                    let (obj, off) = match self.resolve(st, inst, dst, n, Access::Write)? {
                        Target::Obj(obj, off) => (obj, off),
                        Target::Flow(flow) => return Ok(Err(flow)),
                    };
                    let off = self.const_offset(st, off)?;
                    let byte = self.fit(c, 8);
                    st.mem.fill_bytes(obj, off, n, byte);
                }
                Some(dst)
            }
            LibcFn::Exit | LibcFn::QuickExit => {
                let code = self.exit_status(st, inst, arg!(0))?;
                let flow = if native == LibcFn::Exit { self.exit(st, code) } else { Flow::End(Ending::Exit(code)) };
                return Ok(Err(flow));
            }
            LibcFn::Atexit => {
                if let Err(ending) = self.register_atexit(st, arg!(0))? {
                    return Ok(Err(Flow::End(ending)));
                }
                Some(self.store.constant(32, 0))
            }
            LibcFn::Abort => return Ok(Err(Flow::End(self.error(st, ErrorKind::Abort, "abort() called")))),
            LibcFn::AssertFail => {
                let (e, f) = (arg!(0), arg!(3));
                let (e, f) = (self.concretize(st, e, Fixed::Pointer)?, self.concretize(st, f, Fixed::Pointer)?);
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
            LibcFn::ErrnoLocation => Some(self.store.constant(64, self.prog.runtime.errno)),
            LibcFn::CtypeBLoc => Some(self.store.constant(64, self.prog.runtime.ctype_b)),
            LibcFn::CtypeToupperLoc => Some(self.store.constant(64, self.prog.runtime.ctype_toupper)),
            LibcFn::CtypeTolowerLoc => Some(self.store.constant(64, self.prog.runtime.ctype_tolower)),
            LibcFn::IsClass(class) => {
                let c = self.fit(arg!(0), 32);
                let yes = self.class_term(class, c);
                Some(self.store.zext(yes, 32))
            }
            LibcFn::Toupper | LibcFn::Tolower => {
                let c = self.fit(arg!(0), 32);
                let (from, delta) = if native == LibcFn::Toupper { (b'a', 32u64.wrapping_neg()) } else { (b'A', 32) };
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
            LibcFn::Abs | LibcFn::Labs => {
                let w = if native == LibcFn::Abs { 32 } else { 64 };
                let x = self.fit(arg!(0), w);
                let zero = self.store.zero(w);
                let negative = self.store.slt(x, zero);
                let neg = self.store.neg(x);
                Some(self.store.ite(negative, neg, x))
            }
            LibcFn::CheckRead => {
                let (p, n) = (arg!(0), arg!(1));
                let n = match self.bulk_length(st, inst, n, &[(p, Access::Read)])? {
                    Ok(n) => n,
                    Err(flow) => return Ok(Err(flow)),
                };
                if n > 0 {
                    if let Target::Flow(flow) = self.resolve(st, inst, p, n, Access::Read)? {
                        return Ok(Err(flow));
                    }
                }
                None
            }
            LibcFn::Printf
            | LibcFn::Fprintf
            | LibcFn::Sprintf
            | LibcFn::Snprintf
            | LibcFn::Puts
            | LibcFn::Putchar
            | LibcFn::Fputs
            | LibcFn::Fputc
            | LibcFn::Fwrite
            | LibcFn::Fflush
            | LibcFn::Getchar
            | LibcFn::Fgetc
            | LibcFn::IsStdin => return self.stdio(st, body, inst, native, name, a),
            LibcFn::Syscall => return self.syscall(st, inst, a),
            LibcFn::SymFiles => {
                let spec = self.config.env.sym_files.map_or(0, crate::libc::syscall::pack_sym_files);
                Some(self.store.constant(64, spec))
            }
            LibcFn::Destructor => {
                let i = arg!(0);
                let i = self.concretize(st, i, Fixed::Value)?;
                let dtors = &self.prog.module.dtors;
                let addr =
                    usize::try_from(i).ok().and_then(|i| dtors.get(i)).map_or(0, |&f| crate::address::func_addr(f));
                Some(self.store.constant(64, addr))
            }
            // C code (`libc.c`) or missing in this engine: the table never binds these here.
            LibcFn::Fgets
            | LibcFn::Strlen
            | LibcFn::Strnlen
            | LibcFn::Strcmp
            | LibcFn::Strncmp
            | LibcFn::Strcpy
            | LibcFn::Strncpy
            | LibcFn::Strcat
            | LibcFn::Strncat
            | LibcFn::Strchr
            | LibcFn::Strrchr
            | LibcFn::Strstr
            | LibcFn::Strdup
            | LibcFn::Strndup
            | LibcFn::Strspn
            | LibcFn::Strcspn
            | LibcFn::Strtok
            | LibcFn::Memcmp
            | LibcFn::Memchr
            | LibcFn::Atoi
            | LibcFn::Atol
            | LibcFn::Strtol
            | LibcFn::Strtoul
            | LibcFn::Rand
            | LibcFn::Srand
            | LibcFn::Qsort
            | LibcFn::Bsearch => {
                let message = bindings::unknown_function(name, self.prog.module.library_dir.is_some());
                return Ok(Err(Flow::End(self.unsupported(st, message))));
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

    /// A size argument, fixed to one value if symbolic (`symbolic::concretize`: the other
    /// values are another state).
    pub(crate) fn size_arg(&mut self, st: &mut ExecutionState, t: TermId) -> Result<u64, RunError> {
        self.concretize(st, t, Fixed::Size)
    }

    /// A resolved offset as a constant (a symbolic one is fixed to one value).
    pub(crate) fn const_offset(&mut self, st: &mut ExecutionState, off: Offset) -> Result<u64, RunError> {
        match off {
            Offset::Const(o) => Ok(o),
            Offset::Sym(t) => self.concretize(st, t, Fixed::Offset),
        }
    }

    /// The length of a bulk access (`memcpy`, `memset`, ...) over `ranges` (each an address and
    /// how it is accessed), as a number. A symbolic length is checked first, symbolically,
    /// against each range's object (so every overflow any length allows is an error test),
    /// then fixed to one value, the other values going on as another state.
    pub(crate) fn bulk_length(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        n: TermId,
        ranges: &[(TermId, Access)],
    ) -> Result<Result<u64, Flow>, RunError> {
        let n = self.view(st, n);
        if let Some(c) = self.store.as_const(n) {
            return Ok(Ok(c));
        }
        let zero = self.store.zero(64);
        let n = self.fit(n, 64);
        let empty = self.store.eq(n, zero);
        match self.decide(st, empty, inst)? {
            Ok(true) => return Ok(Ok(0)),
            Ok(false) => {}
            Err(flow) => return Ok(Err(flow)),
        }
        for &(addr, access) in ranges {
            let (obj, off) = match self.resolve(st, inst, addr, 1, access)? {
                Target::Obj(obj, off) => (obj, off),
                Target::Flow(flow) => return Ok(Err(flow)),
            };
            let off = match off {
                Offset::Const(c) => self.store.constant(64, c),
                Offset::Sym(t) => t,
            };
            // `off + n > size`, without wrapping: `n > size - off` (off < size here).
            let size = match st.mem.size_term(obj) {
                Some(t) => t,
                None => self.store.constant(64, st.mem.object(obj).size),
            };
            let room = self.store.sub(size, off);
            let fail = self.store.ugt(n, room);
            let failed = self.check(st, fail, |ex, st| {
                let len = ex.model_value(st, n);
                let offset = ex.model_value(st, off) as i64;
                let size = ex.model_value(st, size);
                let message = st.mem.out_of_bounds_message(&ex.prog.module, obj, access, len, offset, size);
                ex.error(st, access.out_of_bounds(), message)
            })?;
            if let Some(ending) = failed {
                return Ok(Err(Flow::End(ending)));
            }
        }
        Ok(Ok(self.size_arg(st, n)?))
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

    /// A fresh heap block of `size` bytes (a term: see `symbolic::sizes`) aligned to `align`
    /// (a power of two), its address as a term, or NULL when the heap budget is spent; `Err`
    /// when every size the path allows is too large to back.
    fn heap_alloc(
        &mut self,
        st: &mut ExecutionState,
        size: TermId,
        align: u64,
    ) -> Result<Result<TermId, Ending>, RunError> {
        let size = self.fit(size, 64);
        let extent = match self.extent(st, size)? {
            Ok(extent) => extent,
            Err(ending) => return Ok(Err(ending)),
        };
        let line = self.location(st).line;
        Ok(Ok(
            match st.mem.allocate(Segment::Heap, extent.capacity, align, Origin::Heap { line }, self.prog.zero_byte) {
                Some(id) => {
                    self.set_extent(st, id, extent);
                    self.store.constant(64, st.mem.object(id).base)
                }
                None => self.store.zero(64),
            },
        ))
    }

    /// `calloc(n, m)`'s size: `Some(n * m)`, or `None` when the product does not fit in 64
    /// bits (glibc returns NULL); a decision when symbolic.
    fn calloc_size(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        n: TermId,
        m: TermId,
    ) -> Result<Result<Option<TermId>, Flow>, RunError> {
        let (n, m) = (self.fit(n, 64), self.fit(m, 64));
        let (nv, mv) = (self.view(st, n), self.view(st, m));
        if let (Some(a), Some(b)) = (self.store.as_const(nv), self.store.as_const(mv)) {
            return Ok(Ok(a.checked_mul(b).map(|t| self.store.constant(64, t))));
        }
        // Overflow: m != 0 and n > UINT64_MAX / m.
        let (zero, all) = (self.store.zero(64), self.store.constant(64, u64::MAX));
        let m_zero = self.store.eq(m, zero);
        let m_nonzero = self.store.not(m_zero);
        let quotient = self.store.udiv(all, m);
        let above = self.store.ugt(n, quotient);
        let overflow = self.store.and(m_nonzero, above);
        Ok(match self.decide(st, overflow, inst)? {
            Ok(true) => Ok(None),
            Ok(false) => Ok(Some(self.store.mul(n, m))),
            Err(flow) => Err(flow),
        })
    }

    /// `realloc(p, n)` with the concrete interpreter's (glibc's) semantics: `n == 0` frees,
    /// and the new block holds the old one's bytes up to the smaller size (the bytes of an
    /// object past its size term are its fill, never written, so copying the smaller capacity
    /// copies exactly that).
    fn realloc(
        &mut self,
        st: &mut ExecutionState,
        inst: Inst,
        p: u64,
        n: TermId,
    ) -> Result<Result<Option<TermId>, Flow>, RunError> {
        let ended = |e| Ok(Err(Flow::End(e)));
        if p == 0 {
            return match self.heap_alloc(st, n, 16)? {
                Ok(q) => Ok(Ok(Some(q))),
                Err(ending) => ended(ending),
            };
        }
        let old = match self.heap_block(st, p, "realloc") {
            Ok(id) => id,
            Err(ending) => return ended(ending),
        };
        let n = self.fit(n, 64);
        let zero = self.store.zero(64);
        let is_zero = self.store.eq(n, zero);
        let line = self.location(st).line;
        match self.decide(st, is_zero, inst)? {
            Ok(true) => {
                st.mem.free_heap_object(old, line);
                return Ok(Ok(Some(self.store.zero(64))));
            }
            Ok(false) => {}
            Err(flow) => return Ok(Err(flow)),
        }
        let q = match self.heap_alloc(st, n, 16)? {
            Ok(q) => q,
            Err(ending) => return ended(ending),
        };
        if let Some(qa) = self.store.as_const(q).filter(|&a| a != 0) {
            if let Some((new, 0)) = st.mem.resolve(qa) {
                let keep = st.mem.object(old).size.min(st.mem.object(new).size);
                st.mem.copy_bytes(new, 0, old, 0, keep);
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
        let soff = self.const_offset(st, soff)?;
        let doff = self.const_offset(st, doff)?;
        st.mem.copy_bytes(dobj, doff, sobj, soff, n);
        Ok(Ok(()))
    }
}
