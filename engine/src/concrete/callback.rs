//! Library functions that call back into the program: `qsort` and `bsearch`.
//!
//! A callback runs on the same call stack: [`Interp::call_back`] pushes the callee's frame,
//! raises [`Interp::floor`] so that its return hands control back here, and runs the
//! instruction loop. An error inside the callback keeps its own location.
//!
//! `qsort` is glibc 2.36's merge sort (`msort_with_tmp`), so the comparator is called on the
//! same pairs in the same order as natively and equal elements keep their order. (glibc sorts
//! elements over 32 bytes indirectly, passing pointers to their original places; penumbra
//! always passes pointers into the array being sorted. The calls compare the same values.)

use super::interp::Interp;
use super::libc;
use super::stop::{Fault, Stop};
use crate::address::{check_stack, func_at, Segment, FRAME_BYTES};
use crate::error::ErrorKind;
use crate::libc::bindings::{self, LibcFn};
use cranelift_entity::EntityRef;
use penumbra_ir::Func;

impl<'a> Interp<'a> {
    /// Calls `func` with `args` on behalf of a library model and runs it to completion.
    pub(super) fn call_back(&mut self, func: Func, args: &[u64]) -> Result<Option<u64>, Stop> {
        let callee = &self.module.funcs[func];
        if callee.body.is_none() {
            let name = callee.name.as_str();
            let Some(binding) = self.prog.bindings[func.index()] else {
                let message = bindings::unknown_function(name, self.module.library_dir.is_some());
                return Err(Fault::unsupported(message).into());
            };
            binding.check_arity(name, args.len()).map_err(|message| Fault::error(ErrorKind::InvalidCall, message))?;
            return match binding.func {
                LibcFn::Qsort | LibcFn::Bsearch => {
                    Err(Fault::unsupported(format!("{name} as a callback of qsort or bsearch")).into())
                }
                model => {
                    let args: Vec<u128> = args.iter().map(|&a| u128::from(a)).collect();
                    libc::call(&mut self.machine, model, name, &args)
                }
            };
        }
        let locals = self.machine.mem.live_bytes(Segment::Stack);
        check_stack(self.frames.len(), locals, FRAME_BYTES, self.config.stack_limit, || {
            format!("calling '{}'", callee.name)
        })
        .map_err(|message| Fault::error(ErrorKind::StackOverflow, message))?;
        let saved_floor = self.floor;
        self.floor = self.frames.len();
        let frame = self.push_frame(func)?;
        let cur = self.cursor(frame);
        let params = cur.body.blocks[frame.block].params.as_slice(&cur.body.value_lists);
        for (&p, &v) in params.iter().zip(args) {
            self.regs[cur.base + p.index()] = u128::from(v & cur.body.values[p].ty.mask());
        }
        let result = self.run_frames(cur);
        self.floor = saved_floor;
        result.map_err(|halt| Stop::Located(Box::new(halt)))
    }

    /// The comparator at `addr` for `model`: a function taking two arguments and returning
    /// a value.
    fn comparator(&self, addr: u64, model: &str) -> Result<Func, Fault> {
        let invalid = |m: String| Fault::error(ErrorKind::InvalidCall, m);
        let func = func_at(addr, self.module.funcs.len())
            .ok_or_else(|| invalid(format!("{model}'s comparator {addr:#x} is not a function address")))?;
        let callee = &self.module.funcs[func];
        let takes = callee.sig.params.len();
        if takes > 2 || (takes < 2 && !callee.sig.varargs) || callee.sig.ret.is_none() {
            return Err(invalid(format!(
                "{model}'s comparator '{}' does not take two arguments and return a value",
                callee.name
            )));
        }
        Ok(func)
    }

    /// The comparator's result as a C `int`.
    fn compare(&mut self, cmp: Func, a: u64, b: u64) -> Result<i32, Stop> {
        Ok(self.call_back(cmp, &[a, b])?.unwrap_or(0) as u32 as i32)
    }

    /// `qsort(base, n, size, cmp)`.
    pub(super) fn qsort(&mut self, base: u64, n: u64, size: u64, cmp: u64) -> Result<(), Stop> {
        if n <= 1 || size == 0 {
            return Ok(());
        }
        let total = n.checked_mul(size).ok_or_else(|| {
            Fault::error(ErrorKind::OutOfBoundsRead, format!("qsort of {n} elements of {size} bytes"))
        })?;
        // The whole array is read and written, as AddressSanitizer's interceptor checks.
        self.machine.mem.read(base, total)?;
        self.machine.mem.write(base, total)?;
        let cmp = self.comparator(cmp, "qsort")?;
        self.msort(cmp, base, n, size)
    }

    /// glibc's `msort_with_tmp`: sort both halves, then merge taking from the left half while
    /// `cmp(left, right) <= 0`.
    fn msort(&mut self, cmp: Func, b: u64, n: u64, size: u64) -> Result<(), Stop> {
        if n <= 1 {
            return Ok(());
        }
        let (n1, n2) = (n / 2, n - n / 2);
        let b2 = b + n1 * size;
        self.msort(cmp, b, n1, size)?;
        self.msort(cmp, b2, n2, size)?;
        let mut merged = Vec::with_capacity((n * size) as usize);
        let (mut p1, mut p2, mut k1, mut k2) = (b, b2, n1, n2);
        while k1 > 0 && k2 > 0 {
            if self.compare(cmp, p1, p2)? <= 0 {
                merged.extend_from_slice(self.machine.mem.read(p1, size)?);
                (p1, k1) = (p1 + size, k1 - 1);
            } else {
                merged.extend_from_slice(self.machine.mem.read(p2, size)?);
                (p2, k2) = (p2 + size, k2 - 1);
            }
        }
        merged.extend_from_slice(self.machine.mem.read(p1, k1 * size)?);
        // What is left of the right half is already in place.
        self.machine.mem.write(b, merged.len() as u64)?.copy_from_slice(&merged);
        Ok(())
    }

    /// `bsearch(key, base, n, size, cmp)`, glibc's binary search.
    pub(super) fn bsearch(&mut self, key: u64, base: u64, n: u64, size: u64, cmp: u64) -> Result<u64, Stop> {
        let cmp = self.comparator(cmp, "bsearch")?;
        let (mut l, mut u) = (0u64, n);
        while l < u {
            let idx = l + (u - l) / 2;
            let p = base.wrapping_add(idx.wrapping_mul(size));
            match self.compare(cmp, key, p)? {
                c if c < 0 => u = idx,
                c if c > 0 => l = idx + 1,
                _ => return Ok(p),
            }
        }
        Ok(0)
    }
}
