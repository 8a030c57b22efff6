//! The readable text form of a module, printed by `penumbra ir FILE.c` and asserted on by tests.
//!
//! ```text
//! global @buf: 4 bytes, align 1 = zeroed
//! const @.str: 6 bytes, align 1 = c"hello\00"
//! declare @printf(i64, ...) -> i32
//!
//! fn @main() -> i32 {
//! block0:
//!     v1 = load.i32 [@buf]                 ; line 7
//!     v2 = icmp.slt v1, 10                 ; line 7
//!     brif v2, block1, block2(v1)          ; line 7
//! ...
//! }
//! ```
//! Operands print as `vN`, as a signed decimal for constants, and as `@name` for the address of
//! a global or function. An instruction's suffix (`.i32`) is its result type, or for `store` the
//! stored type. Square brackets mark memory addresses.

use super::entities::{Dest, Inst, Value};
use super::function::{Body, Function, ValueDef};
use super::instructions::InstData;
use super::module::{GlobalData, GlobalInit, Module, RelocTarget};
use super::types::Type;
use std::fmt::{self, Write};

/// Prints the whole module.
pub fn module_to_string(module: &Module) -> String {
    let mut out = String::new();
    write_module(&mut out, module).expect("writing to a String cannot fail");
    out
}

pub fn write_module(out: &mut impl Write, module: &Module) -> fmt::Result {
    writeln!(out, "; module {}", module.source_file)?;
    for (what, funcs) in [("constructors", &module.ctors), ("destructors", &module.dtors)] {
        if !funcs.is_empty() {
            let names: Vec<String> = funcs.iter().map(|&f| format!("@{}", module.funcs[f].name)).collect();
            writeln!(out, "; {what} (in run order): {}", names.join(" "))?;
        }
    }
    for (_, global) in module.globals.iter() {
        write_global(out, module, global)?;
    }
    for (_, func) in module.funcs.iter() {
        if !func.is_defined() {
            writeln!(out, "declare {}", Header(func))?;
        }
    }
    for (_, func) in module.funcs.iter() {
        if func.is_defined() {
            writeln!(out)?;
            write_function(out, module, func)?;
        }
    }
    Ok(())
}

fn write_global(out: &mut impl Write, module: &Module, g: &GlobalData) -> fmt::Result {
    let kind = if g.constant { "const" } else { "global" };
    write!(out, "{kind} @{}: {} bytes, align {} = ", g.name, g.size, g.align)?;
    match &g.init {
        GlobalInit::Zero => writeln!(out, "zeroed"),
        GlobalInit::External => writeln!(out, "external"),
        GlobalInit::Unsupported(msg) => writeln!(out, "unsupported \"{}\"", module.messages[*msg]),
        GlobalInit::Bytes { bytes, relocs } if relocs.is_empty() => {
            writeln!(out, "c\"{}\"", escape_bytes(bytes))
        }
        GlobalInit::Bytes { bytes, relocs } => {
            write!(out, "c\"{}\" relocs [", escape_bytes(bytes))?;
            for (i, r) in relocs.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                let target = match r.target {
                    RelocTarget::Global(g) => &module.globals[g].name,
                    RelocTarget::Func(f) => &module.funcs[f].name,
                };
                write!(out, "{sep}{}: @{target}", r.offset)?;
                if r.addend != 0 {
                    write!(out, "{:+}", r.addend)?;
                }
            }
            writeln!(out, "]")
        }
    }
}

/// Printable ASCII as is; quotes, backslashes and everything else as `\xx` hex.
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            s.push(b as char);
        } else {
            let _ = write!(s, "\\{b:02x}");
        }
    }
    s
}

struct Header<'a>(&'a Function);

impl fmt::Display for Header<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let func = self.0;
        write!(f, "@{}(", func.name)?;
        for (i, ty) in func.sig.params.iter().enumerate() {
            write!(f, "{}{ty}", if i == 0 { "" } else { ", " })?;
        }
        if func.sig.varargs {
            write!(f, "{}...", if func.sig.params.is_empty() { "" } else { ", " })?;
        }
        write!(f, ")")?;
        if let Some(ret) = func.sig.ret {
            write!(f, " -> {ret}")?;
        }
        Ok(())
    }
}

/// Prints one function (with its body, if defined).
pub fn write_function(out: &mut impl Write, module: &Module, func: &Function) -> fmt::Result {
    let Some(body) = &func.body else {
        return writeln!(out, "declare {}", Header(func));
    };
    write!(out, "fn {} {{", Header(func))?;
    if func.line != 0 {
        write!(out, "  ; line {}", func.line)?;
    }
    writeln!(out)?;
    let printer = Printer { module, body };
    for &block in body.layout.blocks() {
        write!(out, "{block}")?;
        let params = body.block_params(block);
        if !params.is_empty() {
            write!(out, "(")?;
            for (i, &p) in params.iter().enumerate() {
                write!(out, "{}{p}: {}", if i == 0 { "" } else { ", " }, body.value_type(p))?;
            }
            write!(out, ")")?;
        }
        writeln!(out, ":")?;
        for &inst in body.layout.block_insts(block) {
            let mut line = String::new();
            printer.write_inst(&mut line, inst)?;
            let loc = body.srclocs[inst];
            if loc.line != 0 {
                writeln!(out, "    {line:<40} ; line {}", loc.line)?;
            } else {
                writeln!(out, "    {line}")?;
            }
        }
    }
    writeln!(out, "}}")
}

/// Prints a single instruction of `body` without location (for diagnostics and tests).
pub fn inst_to_string(module: &Module, body: &Body, inst: Inst) -> String {
    let mut s = String::new();
    Printer { module, body }.write_inst(&mut s, inst).expect("writing to a String cannot fail");
    s
}

/// A floating-point constant operand: the shortest decimal that reads back to it, with its type
/// (`1.5f64`), or the bits when that is not exact (NaNs and their payloads).
fn float_text(x: f64, bits: u64, ty: &str) -> String {
    if x.is_nan() {
        format!("nan:{ty}:0x{bits:X}")
    } else {
        format!("{x:?}{ty}")
    }
}

struct Printer<'a> {
    module: &'a Module,
    body: &'a Body,
}

impl Printer<'_> {
    fn value(&self, v: Value) -> String {
        let data = self.body.values[v];
        match data.def {
            ValueDef::Const(c) => match data.ty {
                Type::F32 => float_text(f64::from(f32::from_bits(c as u32)), c, "f32"),
                Type::F64 => float_text(f64::from_bits(c), c, "f64"),
                ty => ty.sign_extend(c).to_string(),
            },
            ValueDef::ConstF80 { hi, lo } => format!("0xK{hi:04X}{lo:016X}"),
            ValueDef::GlobalAddr(g) => format!("@{}", self.module.globals[g].name),
            ValueDef::FuncAddr(f) => format!("@{}", self.module.funcs[f].name),
            ValueDef::Result(_) | ValueDef::Param(..) => v.to_string(),
        }
    }

    fn values(&self, vs: &[Value]) -> String {
        vs.iter().map(|&v| self.value(v)).collect::<Vec<_>>().join(", ")
    }

    fn dest(&self, d: Dest) -> String {
        let data = &self.body.dests[d];
        let args = self.body.dest_args(d);
        if args.is_empty() {
            data.block.to_string()
        } else {
            format!("{}({})", data.block, self.values(args))
        }
    }

    fn write_inst(&self, out: &mut String, inst: Inst) -> fmt::Result {
        let body = self.body;
        let data = &body.insts[inst];
        let result = body.inst_result(inst);
        let ty = result.map(|r| format!(".{}", body.value_type(r))).unwrap_or_default();
        if let Some(r) = result {
            write!(out, "{r} = ")?;
        }
        let m = data.mnemonic();
        match data {
            InstData::Binary { args, .. } | InstData::Change { args } => {
                write!(out, "{m}{ty} {}", self.values(args))
            }
            InstData::Icmp { cc, args } => write!(out, "icmp.{} {}", cc.name(), self.values(args)),
            InstData::Fcmp { cc, args } => write!(out, "fcmp.{} {}", cc.name(), self.values(args)),
            InstData::FBinary { args, .. } => write!(out, "{m}{ty} {}", self.values(args)),
            InstData::Fma { args } => write!(out, "{m}{ty} {}", self.values(args)),
            InstData::Cast { arg, .. } | InstData::FUnary { arg, .. } | InstData::FCast { arg, .. } => {
                write!(out, "{m}{ty} {}", self.value(*arg))
            }
            InstData::Select { args } => write!(out, "{m}{ty} {}", self.values(args)),
            InstData::Load { addr } => write!(out, "{m}{ty} [{}]", self.value(*addr)),
            InstData::Store { addr, value } => {
                write!(out, "store.{} {}, [{}]", body.value_type(*value), self.value(*value), self.value(*addr))
            }
            InstData::Alloca { size, align } => write!(out, "{m} {size}, align {align}"),
            InstData::DynAlloca { bytes } => write!(out, "{m} {}", self.value(*bytes)),
            InstData::Call { func, args } => {
                let name = &self.module.funcs[*func].name;
                write!(out, "{m}{ty} @{name}({})", self.values(body.list(*args)))
            }
            InstData::CallIndirect { args } => {
                let args = body.list(*args);
                write!(out, "{m}{ty} {}({})", self.value(args[0]), self.values(&args[1..]))
            }
            InstData::Execute { version } => write!(out, "{m} {version}"),
            InstData::MakeSymbolic { args, float: None } => write!(out, "{m} {}", self.values(args)),
            InstData::MakeSymbolic { args, float: Some(ty) } => write!(out, "{m}.{ty} {}", self.values(args)),
            InstData::Assume { cond } | InstData::Assert { cond } => write!(out, "{m} {}", self.value(*cond)),
            InstData::Jump { dest } => write!(out, "{m} {}", self.dest(*dest)),
            InstData::Brif { cond, then_dest, else_dest } => {
                write!(out, "{m} {}, {}, {}", self.value(*cond), self.dest(*then_dest), self.dest(*else_dest))
            }
            InstData::Switch { arg, table } => {
                let jt = &body.jump_tables[*table];
                let arg_ty = body.value_type(*arg);
                write!(out, "{m}.{arg_ty} {}, {} [", self.value(*arg), self.dest(jt.default))?;
                for (i, (v, d)) in jt.cases.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(out, "{sep}{}: {}", arg_ty.sign_extend(*v), self.dest(*d))?;
                }
                write!(out, "]")
            }
            InstData::Return { value: Some(v) } => write!(out, "{m} {}", self.value(*v)),
            InstData::Return { value: None } | InstData::Unreachable => write!(out, "{m}"),
            InstData::Unsupported { msg } => write!(out, "{m} \"{}\"", self.module.messages[*msg]),
        }
    }
}
