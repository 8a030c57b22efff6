//! Globals: their sizes (from LLVM, since `llvm-ir` types every global as `ptr`) and their
//! initial contents, evaluated into bytes plus relocations for the addresses of globals and
//! functions (constant GEPs become addends). Initialisers that cannot be evaluated (half or
//! quadruple floating point, address arithmetic beyond `+`/`-` of a constant)
//! become `GlobalInit::Unsupported`, so only a path that touches the global is affected.

use super::ModuleCx;
use crate::frontend::llvm_info::{gep_key, global_key, x87_marker_bits, GepOffset, X87_MARKER};
use crate::ir::{GlobalData, GlobalInit, Reloc, RelocTarget};
use llvm_ir::constant::Float;
use llvm_ir::{Constant, IntPredicate, Name};

/// Globals larger than this are not materialised as bytes (a zero initialiser is fine).
const MAX_INIT_BYTES: u64 = 1 << 28;

/// A scalar constant: an integer of `bits` bits, or the address of a global or function
/// plus an addend.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Scalar {
    Int { value: u64, bits: u32 },
    Addr { target: RelocTarget, addend: i64 },
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sext(value: u64, bits: u32) -> i64 {
    if bits >= 64 || bits == 0 {
        value as i64
    } else {
        let shift = 64 - bits;
        ((value << shift) as i64) >> shift
    }
}

fn int(value: u64, bits: u32) -> Scalar {
    Scalar::Int { value: value & mask(bits), bits }
}

/// The IR name of an LLVM global.
pub(super) fn global_name(name: &Name) -> String {
    match name {
        Name::Name(s) => s.to_string(),
        Name::Number(n) => format!("__unnamed_{n}"),
    }
}

impl<'m> ModuleCx<'m> {
    /// Adds every global variable, in LLVM's order, with a zero initialiser for now (the real
    /// one may refer to globals and functions declared later).
    pub(super) fn declare_globals(&mut self) {
        let llvm = self.llvm;
        for g in &llvm.global_vars {
            if matches!(&g.name, Name::Name(n) if super::lifecycle::TABLES.contains(&n.as_str()) || n.starts_with(X87_MARKER))
            {
                continue;
            }
            let key = global_key(&g.name);
            let layout = self.info.global_layout(&key);
            let size = layout.map_or(0, |l| l.size);
            let align = layout.map_or(g.alignment.max(1), |l| l.align.max(1));
            let init = if g.initializer.is_some() { GlobalInit::Zero } else { GlobalInit::External };
            let id = self.module.add_global(GlobalData {
                name: global_name(&g.name),
                size,
                align,
                constant: g.is_constant,
                init,
            });
            self.globals.insert(key, id);
        }
    }

    /// Makes every alias name the function or global it stands for (C libraries define most
    /// of their names as aliases: musl's `weak_alias(__stdio_write, ...)`), following chains of
    /// aliases. An alias of anything else (an offset into an object) stays unknown: a reference
    /// to it is unsupported where it is reached.
    pub(super) fn declare_aliases(&mut self) {
        let llvm = self.llvm;
        fn target(mut c: &Constant) -> Option<&Name> {
            loop {
                match c {
                    Constant::GlobalReference { name, .. } => return Some(name),
                    Constant::BitCast(b) => c = b.operand.as_ref(),
                    Constant::AddrSpaceCast(b) => c = b.operand.as_ref(),
                    _ => return None,
                }
            }
        }
        // Aliases may name later aliases: repeat until a pass resolves nothing new.
        let mut pending: Vec<&'m llvm_ir::module::GlobalAlias> = llvm.global_aliases.iter().collect();
        loop {
            let before = pending.len();
            pending.retain(|&a| {
                let Some(to) = target(a.aliasee.as_ref()) else { return false };
                let Name::Name(alias) = &a.name else { return false };
                if let Name::Name(to_name) = to {
                    if let Some(&f) = self.funcs.get(to_name.as_str()) {
                        self.funcs.insert(alias.as_str(), f);
                        return false;
                    }
                }
                if let Some(g) = self.global(to) {
                    self.globals.insert(global_key(&a.name), g);
                    return false;
                }
                true
            });
            if pending.len() == before {
                break;
            }
        }
    }

    /// Evaluates every initialiser.
    pub(super) fn init_globals(&mut self) {
        let llvm = self.llvm;
        for g in &llvm.global_vars {
            let Some(c) = &g.initializer else { continue };
            let Some(id) = self.global(&g.name) else { continue };
            let size = self.module.globals[id].size;
            let init = match self.evaluate(c, size) {
                Ok(init) => init,
                Err(why) => {
                    let name = global_name(&g.name);
                    GlobalInit::Unsupported(self.message(format!("initializer of global @{name}: {why}")))
                }
            };
            self.module.globals[id].init = init;
        }
    }

    fn evaluate(&mut self, c: &Constant, size: u64) -> Result<GlobalInit, String> {
        if is_zero(c) {
            return Ok(GlobalInit::Zero);
        }
        if size > MAX_INIT_BYTES {
            return Err(format!("{size} bytes is too large to initialise"));
        }
        let mut bytes = vec![0u8; size as usize];
        let mut relocs = Vec::new();
        self.write(c, 0, &mut bytes, &mut relocs)?;
        if relocs.is_empty() && bytes.iter().all(|&b| b == 0) {
            return Ok(GlobalInit::Zero);
        }
        Ok(GlobalInit::Bytes { bytes, relocs })
    }

    /// Writes constant `c` at `offset`.
    fn write(&mut self, c: &Constant, offset: u64, bytes: &mut [u8], relocs: &mut Vec<Reloc>) -> Result<(), String> {
        match c {
            Constant::Null(_) | Constant::AggregateZero(_) | Constant::Undef(_) | Constant::Poison(_) => Ok(()),
            Constant::Struct { values, .. } => {
                let ty = self.llvm.types.type_of(c);
                for (i, v) in values.iter().enumerate() {
                    let field = self
                        .info
                        .field_offset(&ty, i as u32)
                        .ok_or_else(|| format!("no layout for struct type {ty}"))?;
                    self.write(v, offset + field, bytes, relocs)?;
                }
                Ok(())
            }
            Constant::Array { element_type, elements } => {
                let stride = self
                    .info
                    .layout(element_type)
                    .ok_or_else(|| format!("no layout for array element type {element_type}"))?
                    .size;
                for (i, e) in elements.iter().enumerate() {
                    self.write(e, offset + i as u64 * stride, bytes, relocs)?;
                }
                Ok(())
            }
            Constant::Float(f) => match f {
                Float::Single(x) => put(bytes, offset, u64::from(x.to_bits()), 4),
                Float::Double(x) => put(bytes, offset, x.to_bits(), 8),
                other => Err(format!("floating-point constant {other:?}")),
            },
            Constant::BitCast(_) if x87_marker_bits(c).is_some() => {
                let bits = x87_marker_bits(c).expect("checked");
                put(bytes, offset, bits as u64, 8)?;
                put(bytes, offset + 8, (bits >> 64) as u64, 2)
            }
            Constant::Vector(_) => Err("vector constant".to_string()),
            _ => match self.scalar(c)? {
                Scalar::Int { value, bits } => put(bytes, offset, value, bits.div_ceil(8) as usize),
                Scalar::Addr { target, addend } => {
                    if offset + 8 > bytes.len() as u64 {
                        return Err("address outside the global".to_string());
                    }
                    relocs.push(Reloc { offset, target, addend });
                    Ok(())
                }
            },
        }
    }

    /// Evaluates a scalar constant expression.
    fn scalar(&mut self, c: &Constant) -> Result<Scalar, String> {
        Ok(match c {
            Constant::Int { bits, value } if *bits <= 64 => int(*value, *bits),
            Constant::Int { bits, .. } => return Err(format!("{bits}-bit integer")),
            Constant::Null(_) => int(0, 64),
            Constant::Undef(t) | Constant::Poison(t) | Constant::AggregateZero(t) => match t.as_ref() {
                llvm_ir::Type::IntegerType { bits } if *bits <= 64 => int(0, *bits),
                llvm_ir::Type::PointerType { .. } => int(0, 64),
                other => return Err(format!("constant of type {other}")),
            },
            Constant::GlobalReference { name, .. } => {
                let target = if let Some(g) = self.global(name) {
                    RelocTarget::Global(g)
                } else if let Some(f) = match name {
                    Name::Name(s) => self.func(s),
                    Name::Number(_) => None,
                } {
                    RelocTarget::Func(f)
                } else {
                    return Err(format!(
                        "address of {}, which is not a global variable or function",
                        global_name(name)
                    ));
                };
                Scalar::Addr { target, addend: 0 }
            }
            Constant::GetElementPtr(g) => {
                let offset = match gep_key(c).and_then(|k| self.info.const_gep_offset(&k)) {
                    Some(GepOffset::Known(o)) => o,
                    _ => return Err("constant getelementptr with an unknown offset".to_string()),
                };
                match self.scalar(&g.address)? {
                    Scalar::Addr { target, addend } => Scalar::Addr { target, addend: addend.wrapping_add(offset) },
                    Scalar::Int { value, .. } => int(value.wrapping_add(offset as u64), 64),
                }
            }
            Constant::BitCast(b) => self.scalar(&b.operand)?,
            Constant::AddrSpaceCast(b) => self.scalar(&b.operand)?,
            Constant::PtrToInt(p) => {
                let s = self.scalar(&p.operand)?;
                resize(s, &p.to_type, false)?
            }
            Constant::IntToPtr(p) => {
                let s = self.scalar(&p.operand)?;
                resize(s, &p.to_type, false)?
            }
            Constant::Trunc(t) => {
                let s = self.scalar(&t.operand)?;
                resize(s, &t.to_type, false)?
            }
            Constant::ZExt(t) => {
                let s = self.scalar(&t.operand)?;
                resize(s, &t.to_type, false)?
            }
            Constant::SExt(t) => {
                let s = self.scalar(&t.operand)?;
                resize(s, &t.to_type, true)?
            }
            Constant::Add(a) => match (self.scalar(&a.operand0)?, self.scalar(&a.operand1)?) {
                (Scalar::Int { value: x, bits }, Scalar::Int { value: y, .. }) => int(x.wrapping_add(y), bits),
                (Scalar::Addr { target, addend }, Scalar::Int { value, bits })
                | (Scalar::Int { value, bits }, Scalar::Addr { target, addend }) => {
                    Scalar::Addr { target, addend: addend.wrapping_add(sext(value, bits)) }
                }
                _ => return Err("sum of two addresses".to_string()),
            },
            Constant::Sub(s) => match (self.scalar(&s.operand0)?, self.scalar(&s.operand1)?) {
                (Scalar::Int { value: x, bits }, Scalar::Int { value: y, .. }) => int(x.wrapping_sub(y), bits),
                (Scalar::Addr { target, addend }, Scalar::Int { value, bits }) => {
                    Scalar::Addr { target, addend: addend.wrapping_sub(sext(value, bits)) }
                }
                (Scalar::Addr { target: t1, addend: a1 }, Scalar::Addr { target: t2, addend: a2 }) if t1 == t2 => {
                    int(a1.wrapping_sub(a2) as u64, 64)
                }
                _ => return Err("difference of addresses of different objects".to_string()),
            },
            Constant::Mul(m) => self.int_op(&m.operand0, &m.operand1, |x, y, _| x.wrapping_mul(y))?,
            Constant::And(m) => self.int_op(&m.operand0, &m.operand1, |x, y, _| x & y)?,
            Constant::Or(m) => self.int_op(&m.operand0, &m.operand1, |x, y, _| x | y)?,
            Constant::Xor(m) => self.int_op(&m.operand0, &m.operand1, |x, y, _| x ^ y)?,
            Constant::Shl(m) => {
                self.int_op(&m.operand0, &m.operand1, |x, y, bits| if y >= u64::from(bits) { 0 } else { x << y })?
            }
            Constant::LShr(m) => {
                self.int_op(&m.operand0, &m.operand1, |x, y, bits| if y >= u64::from(bits) { 0 } else { x >> y })?
            }
            Constant::AShr(m) => self.int_op(&m.operand0, &m.operand1, |x, y, bits| {
                let s = sext(x, bits);
                (s >> y.min(63)) as u64
            })?,
            Constant::ICmp(i) => match (self.scalar(&i.operand0)?, self.scalar(&i.operand1)?) {
                (Scalar::Int { value: x, bits }, Scalar::Int { value: y, .. }) => {
                    int(u64::from(compare(i.predicate, x, y, bits)), 1)
                }
                _ => return Err("comparison of addresses".to_string()),
            },
            Constant::Select(s) => match self.scalar(&s.condition)? {
                Scalar::Int { value, .. } if value != 0 => self.scalar(&s.true_value)?,
                Scalar::Int { .. } => self.scalar(&s.false_value)?,
                Scalar::Addr { .. } => return Err("select on an address".to_string()),
            },
            Constant::Float(_) => return Err("floating point".to_string()),
            Constant::BlockAddress => return Err("block address (computed goto)".to_string()),
            other => return Err(format!("constant expression {other}")),
        })
    }

    fn int_op(&mut self, a: &Constant, b: &Constant, op: impl Fn(u64, u64, u32) -> u64) -> Result<Scalar, String> {
        match (self.scalar(a)?, self.scalar(b)?) {
            (Scalar::Int { value: x, bits }, Scalar::Int { value: y, .. }) => Ok(int(op(x, y, bits), bits)),
            _ => Err("arithmetic on an address".to_string()),
        }
    }
}

/// Converts a scalar to an integer or pointer type (`sign` for `sext`).
fn resize(s: Scalar, to: &llvm_ir::Type, sign: bool) -> Result<Scalar, String> {
    let bits = match to {
        llvm_ir::Type::IntegerType { bits } if *bits <= 64 => *bits,
        llvm_ir::Type::PointerType { .. } => 64,
        other => return Err(format!("conversion to {other}")),
    };
    match s {
        Scalar::Int { value, bits: from } => {
            let v = if sign { sext(value, from) as u64 } else { value };
            Ok(int(v, bits))
        }
        Scalar::Addr { .. } if bits == 64 => Ok(s),
        Scalar::Addr { .. } => Err(format!("address truncated to {bits} bits")),
    }
}

fn compare(p: IntPredicate, x: u64, y: u64, bits: u32) -> bool {
    let (sx, sy) = (sext(x, bits), sext(y, bits));
    match p {
        IntPredicate::EQ => x == y,
        IntPredicate::NE => x != y,
        IntPredicate::UGT => x > y,
        IntPredicate::UGE => x >= y,
        IntPredicate::ULT => x < y,
        IntPredicate::ULE => x <= y,
        IntPredicate::SGT => sx > sy,
        IntPredicate::SGE => sx >= sy,
        IntPredicate::SLT => sx < sy,
        IntPredicate::SLE => sx <= sy,
    }
}

/// Writes the low `n` bytes of `value`, little-endian.
fn put(bytes: &mut [u8], offset: u64, value: u64, n: usize) -> Result<(), String> {
    let start = usize::try_from(offset).map_err(|_| "offset out of range".to_string())?;
    let end = start.checked_add(n).filter(|&e| e <= bytes.len()).ok_or("initializer larger than the global")?;
    bytes[start..end].copy_from_slice(&value.to_le_bytes()[..n]);
    Ok(())
}

/// Whether a constant is all zero bytes without evaluating it (large zeroed arrays).
fn is_zero(c: &Constant) -> bool {
    match c {
        Constant::AggregateZero(_) | Constant::Null(_) => true,
        Constant::Int { value, .. } => *value == 0,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_writes_little_endian_and_refuses_overflow() {
        let mut b = [0u8; 4];
        assert_eq!(put(&mut b, 0, 0x0102_0304, 4), Ok(()));
        assert_eq!(b, [4, 3, 2, 1]);
        assert!(put(&mut b, 2, 1, 4).is_err());
    }

    #[test]
    fn integer_helpers_mask_and_sign_extend() {
        assert_eq!(int(0x1ff, 8), Scalar::Int { value: 0xff, bits: 8 });
        assert_eq!(sext(0x80, 8), -128);
        assert!(compare(IntPredicate::SLT, 0xff, 0, 8));
        assert!(!compare(IntPredicate::ULT, 0xff, 0, 8));
    }
}
