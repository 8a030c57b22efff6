//! Lowering an LLVM module (read with the `llvm-ir` crate) into penumbra's IR.
//!
//! [`lower_bitcode`] reads the bitcode with `LlvmInfo` (LLVM's C API), which rewrites
//! constant GEPs into byte offsets and answers what `llvm-ir` lacks (global value types,
//! constant GEP offsets, exact type layouts), then reads the rewritten module with `llvm-ir`
//! for the instructions. [`ModuleCx`] then declares every global and function, fills
//! the global initialisers ([`globals`]) and lowers each function body ([`function`], with
//! instructions in [`inst`], memory and address arithmetic in [`memory`], constants in
//! [`consts`], calls and intrinsics in [`calls`] and [`intrinsics`]). Three conventions go
//! beyond one LLVM instruction per IR instruction: integers of odd widths live in wider IR
//! types ([`widths`]); aggregate values are lists of scalar leaves, and functions returning
//! one take a hidden result buffer first ([`aggregates`]); variadic functions defined in the
//! program take their variable arguments in a memory area passed last ([`varargs`]).
//!
//! Constructs the IR does not model lower to `unsupported` instructions (see [`types::Unsup`]);
//! only a module the frontend cannot read or a verifier failure (a frontend bug) is an error.
//! Output is deterministic: everything is visited in LLVM's own order; hash maps are used for
//! lookups only.

mod aggregates;
mod calls;
mod change;
mod consts;
mod describe;
mod float;
mod function;
mod globals;
mod inst;
mod intrinsics;
mod lifecycle;
mod memory;
mod types;
mod varargs;
mod widths;

use super::error::FrontendError;
use super::llvm_info::{global_key, LlvmInfo};
use crate::ir::{verify_module, Func, Function, Global, Module, Msg, Signature, Type};
use llvm_ir::function::FunctionDeclaration;
use rustc_hash::FxHashMap;
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use types::{sig_type, stand_in, Unsup};

/// Reads the LLVM bitcode file at `path` and lowers it; `source_name` becomes
/// [`Module::source_file`]. The file must be bitcode from `clang-15`/`opt-15`; anything else
/// is reported as [`FrontendError::BitcodeUnreadable`] (LLVM's reader is not hardened against
/// arbitrary bytes, so only feed it what the tools produced).
pub fn lower_bitcode(path: &Path, source_name: &str) -> Result<Module, FrontendError> {
    check_bitcode_magic(path)?;
    let unreadable = |message: String| FrontendError::BitcodeUnreadable { path: path.to_path_buf(), message };
    let info = LlvmInfo::parse(path).map_err(unreadable)?;
    // llvm-ir reads the module as LlvmInfo rewrote it (constant GEPs as byte offsets).
    let dir = tempfile::Builder::new()
        .prefix("penumbra-bc-")
        .tempdir()
        .map_err(|e| FrontendError::io("cannot create a temporary directory", e))?;
    let canonical = dir.path().join("canonical.bc");
    info.write_bitcode(&canonical).map_err(unreadable)?;
    // llvm-ir panics on constructs it does not know; that is an unreadable file, not a crash.
    let llvm = catch_unwind(|| llvm_ir::Module::from_bc_path(&canonical))
        .map_err(|panic| unreadable(format!("llvm-ir could not convert it: {}", panic_message(&panic))))?
        .map_err(unreadable)?;
    catch_unwind(AssertUnwindSafe(|| lower_module(&llvm, &info, source_name)))
        .map_err(|panic| FrontendError::Internal(format!("lowering panicked: {}", panic_message(&panic))))?
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Refuses files that do not start like LLVM bitcode (raw or wrapped), before LLVM sees them.
fn check_bitcode_magic(path: &Path) -> Result<(), FrontendError> {
    let mut magic = [0u8; 4];
    let mut file =
        std::fs::File::open(path).map_err(|e| FrontendError::io(format!("cannot open {}", path.display()), e))?;
    let ok = file.read_exact(&mut magic).is_ok() && (magic == *b"BC\xC0\xDE" || magic == [0xDE, 0xC0, 0x17, 0x0B]);
    if ok {
        Ok(())
    } else {
        Err(FrontendError::BitcodeUnreadable { path: path.to_path_buf(), message: "not an LLVM bitcode file".into() })
    }
}

/// Lowers a parsed module and verifies the result.
fn lower_module(llvm: &llvm_ir::Module, info: &LlvmInfo, source_name: &str) -> Result<Module, FrontendError> {
    let mut cx = ModuleCx::new(llvm, info, source_name);
    cx.declare_globals();
    cx.declare_functions();
    cx.declare_aliases();
    cx.init_globals();
    cx.collect_constructors();
    for f in &llvm.functions {
        let Some(id) = cx.funcs.get(f.name.as_str()).copied() else { continue };
        let (body, line, file) = function::lower_function(&mut cx, f)?;
        let func = &mut cx.module.funcs[id];
        func.body = Some(body);
        func.line = line;
        func.file = file;
    }
    let module = cx.module;
    if let Err(errors) = verify_module(&module) {
        let findings: Vec<String> = errors.iter().take(20).map(|e| e.to_string()).collect();
        return Err(FrontendError::Internal(format!(
            "the lowered module fails the IR verifier ({} findings): {}",
            errors.len(),
            findings.join("; ")
        )));
    }
    Ok(module)
}

/// Module-wide lowering state: the IR module under construction and the maps from LLVM
/// names to IR entities.
struct ModuleCx<'m> {
    llvm: &'m llvm_ir::Module,
    info: &'m LlvmInfo,
    module: Module,
    /// By [`global_key`].
    globals: FxHashMap<String, Global>,
    funcs: FxHashMap<&'m str, Func>,
    /// Variadic functions defined in the program, with their number of fixed parameters
    /// (they take their variable arguments in memory: see [`varargs`]).
    defined_variadic: FxHashMap<&'m str, usize>,
    /// Functions added by the frontend itself (`memcpy` for `llvm.memcpy`, ...).
    extra_funcs: FxHashMap<&'static str, Func>,
    /// Declarations of penumbra's intrinsics: they become IR instructions, so they are
    /// declared as IR functions only if their address is taken.
    intrinsic_decls: FxHashMap<&'m str, &'m FunctionDeclaration>,
    messages: FxHashMap<String, Msg>,
}

impl<'m> ModuleCx<'m> {
    fn new(llvm: &'m llvm_ir::Module, info: &'m LlvmInfo, source_name: &str) -> Self {
        ModuleCx {
            llvm,
            info,
            module: Module::new(source_name),
            globals: FxHashMap::default(),
            funcs: FxHashMap::default(),
            defined_variadic: FxHashMap::default(),
            extra_funcs: FxHashMap::default(),
            intrinsic_decls: FxHashMap::default(),
            messages: FxHashMap::default(),
        }
    }

    /// The module's message for `text` (one message per distinct text).
    fn message(&mut self, text: String) -> Msg {
        if let Some(&m) = self.messages.get(&text) {
            return m;
        }
        let m = self.module.add_message(text.clone());
        self.messages.insert(text, m);
        m
    }

    /// Declares every defined function, then every declared one (in LLVM's order), except
    /// LLVM intrinsics and penumbra's annotation functions, which become instructions.
    fn declare_functions(&mut self) {
        let llvm = self.llvm;
        for f in &llvm.functions {
            let mut sig = self.signature(&f.parameters, &f.return_type, f.is_var_arg);
            if f.is_var_arg {
                sig.params.push(crate::ir::PTR);
                sig.varargs = false;
                self.defined_variadic.insert(&f.name, f.parameters.len());
            }
            self.add_function(&f.name, sig);
        }
        for d in &llvm.func_declarations {
            if d.name.starts_with("llvm.") {
                continue;
            }
            if calls::PenumbraOp::from_name(&d.name).is_some() {
                self.intrinsic_decls.insert(&d.name, d);
                continue;
            }
            let sig = self.signature(&d.parameters, &d.return_type, d.is_var_arg);
            self.add_function(&d.name, sig);
        }
    }

    fn add_function(&mut self, name: &'m str, sig: Signature) -> Func {
        let id =
            self.module.add_func(Function { name: name.to_string(), sig, body: None, line: 0, file: String::new() });
        self.funcs.insert(name, id);
        id
    }

    /// The IR function named `name`, for calls and function addresses. Penumbra's
    /// annotation functions are declared on first use here (only when their address is taken).
    fn func(&mut self, name: &str) -> Option<Func> {
        if let Some(&f) = self.funcs.get(name) {
            return Some(f);
        }
        let d = *self.intrinsic_decls.get(name)?;
        let sig = self.signature(&d.parameters, &d.return_type, d.is_var_arg);
        Some(self.add_function(&d.name, sig))
    }

    fn global(&self, name: &llvm_ir::Name) -> Option<Global> {
        self.globals.get(&global_key(name)).copied()
    }

    /// An IR signature from LLVM parameter and return types (stand-ins for types the IR does
    /// not model: a call passing such a value is unsupported at the call). A function
    /// returning an aggregate takes the address of its result buffer first and returns nothing
    /// (see [`aggregates`]).
    fn signature(&self, params: &[llvm_ir::function::Parameter], ret: &llvm_ir::TypeRef, varargs: bool) -> Signature {
        let mut sig = Signature { params: Vec::with_capacity(params.len() + 1), ret: sig_type(ret), varargs };
        if self.leaves(ret).is_some() {
            sig.params.push(crate::ir::PTR);
            sig.ret = None;
        }
        sig.params.extend(params.iter().map(|p| stand_in(&p.ty)));
        sig
    }

    /// A libc function the lowering calls on its own (`memcpy` for `llvm.memcpy`, ...):
    /// the program's own declaration or definition if its signature matches, else a fresh
    /// declaration. A different signature under that name is unsupported.
    fn libc_func(&mut self, name: &'static str, sig: Signature) -> Result<Func, Unsup> {
        let existing = self.funcs.get(name).or_else(|| self.extra_funcs.get(name)).copied();
        if let Some(f) = existing {
            return if self.module.funcs[f].sig == sig {
                Ok(f)
            } else {
                Err(Unsup::msg(format!("{name} is defined with a signature other than the C library's")))
            };
        }
        let f =
            self.module.add_func(Function { name: name.to_string(), sig, body: None, line: 0, file: String::new() });
        self.extra_funcs.insert(name, f);
        Ok(f)
    }
}

/// `(i64, i64, i64) -> i64`, the shape of `memcpy` and `memmove`.
fn libc_sig(params: &[Type], ret: Option<Type>) -> Signature {
    Signature { params: params.to_vec(), ret, varargs: false }
}
