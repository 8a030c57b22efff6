//! The native models of the C library: the heap, bulk memory, process control, and the pure
//! functions of `<ctype.h>` and `<stdlib.h>` as single terms; I/O in `stdio`, the system calls
//! of musl programs in `syscalls`, `setjmp` and `longjmp` in `jumps`.
//!
//! The models are a handler beside the interpreter, not part of its [`Context`], in the manner
//! of KLEE's `SpecialFunctionHandler`: each declared function is bound once per program, from
//! the one binding table ([`crate::libc::bindings`]), when the program is prepared
//! (`symbolic::program`, `FuncKind::Native`); a call of one builds a [`NativeCall`] (the
//! context, the state, the call site and the argument terms) and runs its model on it.
//!
//! An allocation's size stays a term (`symbolic::sizes`). A bulk access's length (`memcpy`,
//! `memset`) is checked symbolically against its objects, then fixed to one value, the other
//! values going on as another state (`symbolic::concretize`); pointers go through the same
//! resolution as loads and stores, so a `memcpy` past the end of a buffer is an out-of-bounds
//! access at the line of the call, exactly as in the concrete interpreter (which checks the
//! whole source, then the whole destination, before copying).

mod jumps;
mod stdio;
mod syscalls;

use super::step::val;
use crate::address::{memcpy_overlap, memcpy_overlap_message, Access, ObjectId, Origin, Segment};
use crate::error::ErrorKind;
use crate::interp::Interp;
use crate::libc::bindings::{self, Binding, LibcFn};
use crate::libc::ctype::Class;
use crate::run_error::RunError;
use crate::shadow::Shadow;
use crate::symbolic::access::Resolver;
use crate::symbolic::access::{Offset, Target};
use crate::symbolic::concretize::Fixed;
use crate::symbolic::context::{Context, Flow};
use crate::symbolic::state::{Ending, ExecMode, ExecutionState};
use penumbra_ir::{Body, Inst, Value, Version};
use penumbra_solver::TermId;

/// Calls the native model bound to `binding` (the callee of `inst` in `body`) with the
/// caller's `args`.
pub(super) fn call(
    cx: &mut Context<'_>,
    st: &mut ExecutionState,
    body: &Body,
    inst: Inst,
    binding: &'static Binding,
    args: &[Value],
) -> Result<Flow, RunError> {
    let name = match body.insts[inst] {
        penumbra_ir::InstData::Call { func, .. } => cx.prog.module.funcs[func].name.clone(),
        _ => "a function pointer".to_string(),
    };
    if let Err(message) = binding.check_arity(&name, args.len()) {
        return Ok(Flow::End(Box::new(cx.error(st, ErrorKind::InvalidCall, message))));
    }
    let mut terms = std::mem::take(&mut cx.scratch);
    terms.clear();
    terms.extend(args.iter().map(|&a| val(st, a).term(&mut cx.store)));
    let r = NativeCall { cx: &mut *cx, st: &mut *st, inst, name: &name, args: &terms }.run(binding.func);
    cx.scratch = terms;
    match r? {
        Ok(Some(t)) => {
            Interp::new(cx).set_call_result(st, body, inst, t);
            Ok(Flow::Next)
        }
        Ok(None) => Ok(Flow::Next),
        Err(flow) => Ok(flow),
    }
}

/// One call of a native model.
struct NativeCall<'c, 'p> {
    cx: &'c mut Context<'p>,
    st: &'c mut ExecutionState,
    /// The call instruction.
    inst: Inst,
    /// The callee's name, for messages.
    name: &'c str,
    /// The arguments' terms (as many as the binding's arity, at least).
    args: &'c [TermId],
}

/// What a model gives: `Ok(Ok(result))` to go on, `Ok(Err(flow))` when the instruction ends
/// otherwise (an error, a retry).
type Model = Result<Result<Option<TermId>, Flow>, RunError>;

impl NativeCall<'_, '_> {
    /// Runs the model of `native`.
    fn run(&mut self, native: LibcFn) -> Model {
        let (a, name) = (self.args, self.name);
        let arg = |i: usize| -> Result<TermId, String> {
            a.get(i).copied().ok_or_else(|| bindings::too_few_arguments(name, a.len(), i + 1))
        };
        macro_rules! arg {
            ($i:expr) => {
                match arg($i) {
                    Ok(t) => t,
                    Err(message) => {
                        return Ok(Err(Flow::End(Box::new(self.cx.error(self.st, ErrorKind::InvalidCall, message)))))
                    }
                }
            };
        }
        let r = match native {
            LibcFn::Malloc => match self.heap_alloc(arg!(0), 16)? {
                Ok(p) => Some(p),
                Err(ending) => return Ok(Err(Flow::End(Box::new(ending)))),
            },
            LibcFn::Calloc => {
                let total = match self.calloc_size(arg!(0), arg!(1))? {
                    Ok(Some(total)) => total,
                    // n * m does not fit in a size: NULL.
                    Ok(None) => return Ok(Ok(Some(self.cx.store.zero(64)))),
                    Err(flow) => return Ok(Err(flow)),
                };
                match self.heap_alloc(total, 16)? {
                    Ok(p) => Some(p),
                    Err(ending) => return Ok(Err(Flow::End(Box::new(ending)))),
                }
            }
            LibcFn::AlignedAlloc => {
                let align = arg!(0);
                let align = self.cx.concretize(self.st, align, Fixed::Value)?;
                match self.heap_alloc(arg!(1), align)? {
                    Ok(p) => Some(p),
                    Err(ending) => return Ok(Err(Flow::End(Box::new(ending)))),
                }
            }
            LibcFn::Realloc => {
                let (p, n) = (arg!(0), arg!(1));
                let p = self.cx.concretize(self.st, p, Fixed::Pointer)?;
                return self.realloc(p, n);
            }
            LibcFn::Free => {
                let p = arg!(0);
                let p = self.cx.concretize(self.st, p, Fixed::Pointer)?;
                if p != 0 {
                    let freed = self.heap_block(p, "free").and_then(|id| self.free_heap_object(id, "free"));
                    if let Err(ending) = freed {
                        return Ok(Err(Flow::End(Box::new(ending))));
                    }
                }
                None
            }
            LibcFn::Memcpy | LibcFn::Memmove => {
                let (dst, src, n) = (arg!(0), arg!(1), arg!(2));
                let n = match self.bulk_length(n, &[(src, Access::Read), (dst, Access::Write)])? {
                    Ok(n) => n,
                    Err(flow) => return Ok(Err(flow)),
                };
                if native == LibcFn::Memcpy {
                    if let Some(ending) = self.check_memcpy_overlap(dst, src, n)? {
                        return Ok(Err(Flow::End(Box::new(ending))));
                    }
                }
                if let Err(flow) = self.copy(dst, src, n)? {
                    return Ok(Err(flow));
                }
                Some(dst)
            }
            LibcFn::Memset => {
                let (dst, c, n) = (arg!(0), arg!(1), arg!(2));
                let n = match self.bulk_length(n, &[(dst, Access::Write)])? {
                    Ok(n) => n,
                    Err(flow) => return Ok(Err(flow)),
                };
                if n > 0 {
                    let (obj, off) = match Resolver::new(self.cx).resolve(self.st, self.inst, dst, n, Access::Write)? {
                        Target::Obj(obj, off) => (obj, off),
                        Target::Flow(flow) => return Ok(Err(flow)),
                    };
                    let off = self.const_offset(off)?;
                    let byte = self.cx.fit(c, 8);
                    self.st.mem.fill_bytes(obj, off, n, byte);
                }
                Some(dst)
            }
            LibcFn::Exit | LibcFn::QuickExit => {
                let code = self.exit_status(arg!(0))?;
                let flow = if native == LibcFn::Exit {
                    Interp::new(self.cx).exit(self.st, code)
                } else {
                    Flow::End(Box::new(Ending::Exit(code)))
                };
                return Ok(Err(flow));
            }
            LibcFn::Atexit => {
                if let Err(ending) = Interp::new(self.cx).register_atexit(self.st, arg!(0))? {
                    return Ok(Err(Flow::End(Box::new(ending))));
                }
                Some(self.cx.store.constant(32, 0))
            }
            LibcFn::Setjmp => return self.setjmp(arg!(0)),
            LibcFn::Longjmp => return self.longjmp(arg!(0), arg!(1)),
            LibcFn::Abort => {
                return Ok(Err(Flow::End(Box::new(self.cx.error(self.st, ErrorKind::Abort, "abort() called")))))
            }
            LibcFn::AssertFail => {
                let (e, f) = (arg!(0), arg!(3));
                let (e, f) =
                    (self.cx.concretize(self.st, e, Fixed::Pointer)?, self.cx.concretize(self.st, f, Fixed::Pointer)?);
                let text = |call: &mut Self, addr| {
                    Interp::new(call.cx)
                        .read_cstring(call.st, addr, Some(4096))
                        .map(|b| String::from_utf8_lossy(&b).into_owned())
                };
                let expr = match text(self, e) {
                    Ok(s) => s,
                    Err(ending) => return Ok(Err(Flow::End(Box::new(ending)))),
                };
                let func = match text(self, f) {
                    Ok(s) => s,
                    Err(ending) => return Ok(Err(Flow::End(Box::new(ending)))),
                };
                let message = format!("assertion `{expr}' failed in function '{func}'");
                return Ok(Err(Flow::End(Box::new(self.cx.error(self.st, ErrorKind::AssertionFailed, message)))));
            }
            LibcFn::ErrnoLocation => Some(self.cx.store.constant(64, self.cx.prog.runtime.errno)),
            LibcFn::CtypeBLoc => Some(self.cx.store.constant(64, self.cx.prog.runtime.ctype_b)),
            LibcFn::CtypeToupperLoc => Some(self.cx.store.constant(64, self.cx.prog.runtime.ctype_toupper)),
            LibcFn::CtypeTolowerLoc => Some(self.cx.store.constant(64, self.cx.prog.runtime.ctype_tolower)),
            LibcFn::IsClass(class) => {
                let c = self.cx.fit(arg!(0), 32);
                let yes = self.class_term(class, c);
                Some(self.cx.store.zext(yes, 32))
            }
            LibcFn::Toupper | LibcFn::Tolower => {
                let c = self.cx.fit(arg!(0), 32);
                let (from, delta) = if native == LibcFn::Toupper { (b'a', 32u64.wrapping_neg()) } else { (b'A', 32) };
                // glibc: letters move, negative `char`s -128..=-2 map to 128..=254.
                let inside = self.range(c, u64::from(from), 26);
                let d = self.cx.store.constant(32, delta);
                let moved = self.cx.store.add(c, d);
                let negative_char = self.range(c, (-128i32) as u32 as u64, 127);
                let k256 = self.cx.store.constant(32, 256);
                let wrapped = self.cx.store.add(c, k256);
                let other = self.cx.store.ite(negative_char, wrapped, c);
                Some(self.cx.store.ite(inside, moved, other))
            }
            LibcFn::Abs | LibcFn::Labs => {
                let w = if native == LibcFn::Abs { 32 } else { 64 };
                let x = self.cx.fit(arg!(0), w);
                let zero = self.cx.store.zero(w);
                let negative = self.cx.store.slt(x, zero);
                let neg = self.cx.store.neg(x);
                Some(self.cx.store.ite(negative, neg, x))
            }
            LibcFn::CheckRead => {
                let (p, n) = (arg!(0), arg!(1));
                let n = match self.bulk_length(n, &[(p, Access::Read)])? {
                    Ok(n) => n,
                    Err(flow) => return Ok(Err(flow)),
                };
                if n > 0 {
                    if let Target::Flow(flow) =
                        Resolver::new(self.cx).resolve(self.st, self.inst, p, n, Access::Read)?
                    {
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
            | LibcFn::IsStdin => return self.stdio(native),
            LibcFn::Syscall => return self.syscall(),
            LibcFn::SymFiles => {
                let env = &self.cx.config.env;
                let spec = crate::libc::syscall::pack_sym_files(env.sym_files, env.sym_file_types);
                Some(self.cx.store.constant(64, spec))
            }
            LibcFn::Destructor => {
                let i = arg!(0);
                let i = self.cx.concretize(self.st, i, Fixed::Value)?;
                let dtors = &self.cx.prog.module.dtors;
                let addr =
                    usize::try_from(i).ok().and_then(|i| dtors.get(i)).map_or(0, |&f| crate::address::func_addr(f));
                Some(self.cx.store.constant(64, addr))
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
                let message = bindings::unknown_function(name, self.cx.prog.module.library_dir.is_some());
                return Ok(Err(Flow::End(Box::new(self.cx.unsupported(self.st, message)))));
            }
        };
        Ok(Ok(r))
    }

    /// The status of `exit(t)` (its low byte), which the user sees: observed, then its value.
    fn exit_status(&mut self, t: TermId) -> Result<i32, RunError> {
        let status = self.cx.fit(t, 8);
        if Shadow::records_output(self.st) {
            // One side of a block exiting: its status is compared with the other side's
            // (`shadow::execute`), so it is one value on this path (the others another state).
            return Ok((self.cx.concretize(self.st, status, Fixed::Value)? & 0xff) as i32);
        }
        Shadow::new(self.cx).observe(self.st, self.inst, status)?;
        Ok((self.cx.model_value(self.st, status) & 0xff) as i32)
    }

    /// A size argument, fixed to one value if symbolic (`symbolic::concretize`: the other
    /// values are another state).
    fn size_arg(&mut self, t: TermId) -> Result<u64, RunError> {
        self.cx.concretize(self.st, t, Fixed::Size)
    }

    /// A resolved offset as a constant (a symbolic one is fixed to one value).
    fn const_offset(&mut self, off: Offset) -> Result<u64, RunError> {
        match off {
            Offset::Const(o) => Ok(o),
            Offset::Sym(t) => self.cx.concretize(self.st, t, Fixed::Offset),
        }
    }

    /// The length of a bulk access (`memcpy`, `memset`, ...) over `ranges` (each an address and
    /// how it is accessed), as a number. A symbolic length is checked first, symbolically,
    /// against each range's object (so every overflow any length allows is an error test),
    /// then fixed to one value, the other values going on as another state.
    fn bulk_length(&mut self, n: TermId, ranges: &[(TermId, Access)]) -> Result<Result<u64, Flow>, RunError> {
        let n = self.cx.view(self.st, n);
        if let Some(c) = self.cx.store.as_const(n) {
            return Ok(Ok(c));
        }
        let zero = self.cx.store.zero(64);
        let n = self.cx.fit(n, 64);
        let empty = self.cx.store.eq(n, zero);
        match self.cx.decide(self.st, empty, self.inst)? {
            Ok(true) => return Ok(Ok(0)),
            Ok(false) => {}
            Err(flow) => return Ok(Err(flow)),
        }
        for &(addr, access) in ranges {
            let (obj, off) = match Resolver::new(self.cx).resolve(self.st, self.inst, addr, 1, access)? {
                Target::Obj(obj, off) => (obj, off),
                Target::Flow(flow) => return Ok(Err(flow)),
            };
            let off = match off {
                Offset::Const(c) => self.cx.store.constant(64, c),
                Offset::Sym(t) => t,
            };
            // `off + n > size`, without wrapping: `n > size - off` (off < size here).
            let size = match self.st.mem.size_term(obj) {
                Some(t) => t,
                None => self.cx.store.constant(64, self.st.mem.object(obj).size),
            };
            let room = self.cx.store.sub(size, off);
            let fail = self.cx.store.ugt(n, room);
            let failed = self.cx.check(self.st, fail, |ex, st| {
                let len = ex.model_value(st, n);
                let offset = ex.model_value(st, off) as i64;
                let size = ex.model_value(st, size);
                let message = st.mem.out_of_bounds_message(&ex.prog.module, obj, access, len, offset, size);
                ex.error(st, access.out_of_bounds(), message)
            })?;
            if let Some(ending) = failed {
                return Ok(Err(Flow::End(Box::new(ending))));
            }
        }
        Ok(Ok(self.size_arg(n)?))
    }

    /// `(c - lo) <u n`: `c` in `lo .. lo + n` (32-bit `c`).
    fn range(&mut self, c: TermId, lo: u64, n: u64) -> TermId {
        let lo = self.cx.store.constant(32, lo);
        let d = self.cx.store.sub(c, lo);
        let n = self.cx.store.constant(32, n);
        self.cx.store.ult(d, n)
    }

    /// The `<ctype.h>` class of the 32-bit `c` as a width-1 term (C locale: ASCII only).
    fn class_term(&mut self, class: Class, c: TermId) -> TermId {
        let eq = |call: &mut Self, k: u64| {
            let k = call.cx.store.constant(32, k);
            call.cx.store.eq(c, k)
        };
        match class {
            Class::Digit => self.range(c, 48, 10),
            Class::XDigit => {
                let d = self.range(c, 48, 10);
                let l = self.range(c, 97, 6);
                let u = self.range(c, 65, 6);
                let du = self.cx.store.or(d, u);
                self.cx.store.or(du, l)
            }
            Class::Space => {
                let sp = eq(self, 32);
                let ctl = self.range(c, 9, 5);
                self.cx.store.or(sp, ctl)
            }
            Class::Alpha => self.alpha(c),
            Class::Alnum => {
                let a = self.alpha(c);
                let d = self.range(c, 48, 10);
                self.cx.store.or(a, d)
            }
            Class::Upper => self.range(c, 65, 26),
            Class::Lower => self.range(c, 97, 26),
            Class::Print => self.range(c, 32, 95),
            Class::Graph => self.range(c, 33, 94),
            Class::Punct => {
                let g = self.range(c, 33, 94);
                let a = self.alpha(c);
                let d = self.range(c, 48, 10);
                let an = self.cx.store.or(a, d);
                let not_an = self.cx.store.not(an);
                self.cx.store.and(g, not_an)
            }
            Class::Cntrl => {
                let low = self.range(c, 0, 32);
                let del = eq(self, 127);
                self.cx.store.or(low, del)
            }
            Class::Blank => {
                let sp = eq(self, 32);
                let tab = eq(self, 9);
                self.cx.store.or(sp, tab)
            }
        }
    }

    fn alpha(&mut self, c: TermId) -> TermId {
        let k = self.cx.store.constant(32, 32);
        let folded = self.cx.store.or(c, k);
        self.range(folded, 97, 26)
    }

    /// A fresh heap block of `size` bytes (a term: see `symbolic::sizes`) aligned to `align`
    /// (a power of two), its address as a term, or NULL when the heap budget is spent; `Err`
    /// when every size the path allows is too large to back.
    fn heap_alloc(&mut self, size: TermId, align: u64) -> Result<Result<TermId, Ending>, RunError> {
        let size = self.cx.fit(size, 64);
        let extent = match Resolver::new(self.cx).extent(self.st, size)? {
            Ok(extent) => extent,
            Err(ending) => return Ok(Err(ending)),
        };
        let line = self.cx.location(self.st).line;
        Ok(Ok(
            match self.st.mem.allocate(
                Segment::Heap,
                extent.capacity,
                align,
                Origin::Heap { line },
                self.cx.prog.zero_byte,
            ) {
                Some(id) => {
                    Resolver::new(self.cx).set_extent(self.st, id, extent);
                    self.cx.store.constant(64, self.st.mem.object(id).base)
                }
                None => self.cx.store.zero(64),
            },
        ))
    }

    /// `calloc(n, m)`'s size: `Some(n * m)`, or `None` when the product does not fit in 64
    /// bits (glibc returns NULL); a decision when symbolic.
    fn calloc_size(&mut self, n: TermId, m: TermId) -> Result<Result<Option<TermId>, Flow>, RunError> {
        let (n, m) = (self.cx.fit(n, 64), self.cx.fit(m, 64));
        let (nv, mv) = (self.cx.view(self.st, n), self.cx.view(self.st, m));
        if let (Some(a), Some(b)) = (self.cx.store.as_const(nv), self.cx.store.as_const(mv)) {
            return Ok(Ok(a.checked_mul(b).map(|t| self.cx.store.constant(64, t))));
        }
        // Overflow: m != 0 and n > UINT64_MAX / m.
        let (zero, all) = (self.cx.store.zero(64), self.cx.store.constant(64, u64::MAX));
        let m_zero = self.cx.store.eq(m, zero);
        let m_nonzero = self.cx.store.not(m_zero);
        let quotient = self.cx.store.udiv(all, m);
        let above = self.cx.store.ugt(n, quotient);
        let overflow = self.cx.store.and(m_nonzero, above);
        Ok(match self.cx.decide(self.st, overflow, self.inst)? {
            Ok(true) => Ok(None),
            Ok(false) => Ok(Some(self.cx.store.mul(n, m))),
            Err(flow) => Err(flow),
        })
    }

    /// `realloc(p, n)` with the concrete interpreter's (glibc's) semantics: `n == 0` frees,
    /// and the new block holds the old one's bytes up to the smaller size (the bytes of an
    /// object past its size term are its fill, never written, so copying the smaller capacity
    /// copies exactly that).
    fn realloc(&mut self, p: u64, n: TermId) -> Result<Result<Option<TermId>, Flow>, RunError> {
        let ended = |e| Ok(Err(Flow::End(Box::new(e))));
        if p == 0 {
            return match self.heap_alloc(n, 16)? {
                Ok(q) => Ok(Ok(Some(q))),
                Err(ending) => ended(ending),
            };
        }
        let old = match self.heap_block(p, "realloc") {
            Ok(id) => id,
            Err(ending) => return ended(ending),
        };
        let n = self.cx.fit(n, 64);
        let zero = self.cx.store.zero(64);
        let is_zero = self.cx.store.eq(n, zero);
        match self.cx.decide(self.st, is_zero, self.inst)? {
            Ok(true) => {
                if let Err(ending) = self.free_heap_object(old, "realloc") {
                    return ended(ending);
                }
                return Ok(Ok(Some(self.cx.store.zero(64))));
            }
            Ok(false) => {}
            Err(flow) => return Ok(Err(flow)),
        }
        let q = match self.heap_alloc(n, 16)? {
            Ok(q) => q,
            Err(ending) => return ended(ending),
        };
        if let Some(qa) = self.cx.store.as_const(q).filter(|&a| a != 0) {
            if let Some((new, 0)) = self.st.mem.resolve(qa) {
                let keep = self.st.mem.object(old).size.min(self.st.mem.object(new).size);
                self.st.mem.copy_bytes(new, 0, old, 0, keep);
            }
            if let Err(ending) = self.free_heap_object(old, "realloc") {
                return ended(ending);
            }
        }
        Ok(Ok(Some(q)))
    }

    /// Frees the live heap block `id` (`op`: `free` or `realloc`), or, in the old version's
    /// side of an execute block, records it there (see [`ExecuteBlock::old_frees`]): freeing it
    /// twice there is still a double free.
    ///
    /// [`ExecuteBlock::old_frees`]: crate::symbolic::state::ExecuteBlock::old_frees
    fn free_heap_object(&mut self, id: ObjectId, op: &str) -> Result<(), Ending> {
        let line = self.cx.location(self.st).line;
        let Some(block) = self.st.execute.as_deref_mut().filter(|_| self.st.mode == ExecMode::Block(Version::Old))
        else {
            self.st.mem.free_heap_object(id, line);
            return Ok(());
        };
        if !block.old_frees.contains(&id) {
            block.old_frees.push(id);
            return Ok(());
        }
        let what = self.st.mem.describe(&self.cx.prog.module, id);
        let message = format!("{op} of {what}, which was already freed");
        Err(self.cx.error(self.st, ErrorKind::DoubleFree, message))
    }

    /// The live heap block starting exactly at `addr`, else the `free`/`realloc` error (the
    /// concrete interpreter's verdicts).
    fn heap_block(&self, addr: u64, op: &str) -> Result<ObjectId, Ending> {
        self.st
            .mem
            .heap_block(&self.cx.prog.module, addr, op)
            .map_err(|(kind, message)| self.cx.error(self.st, kind, message))
    }

    /// `memcpy(dst, src, n)`'s check that the ranges do not overlap (unless they are the same),
    /// made before the copy as AddressSanitizer makes it.
    fn check_memcpy_overlap(&mut self, dst: TermId, src: TermId, n: u64) -> Result<Option<Ending>, RunError> {
        let (d, s) = (self.cx.view(self.st, dst), self.cx.view(self.st, src));
        if let (Some(d), Some(s)) = (self.cx.store.as_const(d), self.cx.store.as_const(s)) {
            return Ok(memcpy_overlap(d, s, n).map(|m| self.cx.error(self.st, ErrorKind::MemcpyParamOverlap, m)));
        }
        let n_k = self.cx.store.constant(64, n);
        let (ds, sd) = (self.cx.store.sub(d, s), self.cx.store.sub(s, d));
        let (near_after, near_before) = (self.cx.store.ult(ds, n_k), self.cx.store.ult(sd, n_k));
        let near = self.cx.store.or(near_after, near_before);
        let same = self.cx.store.eq(d, s);
        let different = self.cx.store.not(same);
        let fail = self.cx.store.and(different, near);
        self.cx.check(self.st, fail, |ex, st| ex.error(st, ErrorKind::MemcpyParamOverlap, memcpy_overlap_message(n)))
    }

    /// `memmove(dst, src, n)`: checks the whole source (read), then the whole destination
    /// (write), then copies the byte terms.
    fn copy(&mut self, dst: TermId, src: TermId, n: u64) -> Result<Result<(), Flow>, RunError> {
        if n == 0 {
            return Ok(Ok(()));
        }
        let (sobj, soff) = match Resolver::new(self.cx).resolve(self.st, self.inst, src, n, Access::Read)? {
            Target::Obj(o, off) => (o, off),
            Target::Flow(flow) => return Ok(Err(flow)),
        };
        let (dobj, doff) = match Resolver::new(self.cx).resolve(self.st, self.inst, dst, n, Access::Write)? {
            Target::Obj(o, off) => (o, off),
            Target::Flow(flow) => return Ok(Err(flow)),
        };
        let soff = self.const_offset(soff)?;
        let doff = self.const_offset(doff)?;
        self.st.mem.copy_bytes(dobj, doff, sobj, soff, n);
        Ok(Ok(()))
    }
}
