//! Linking the symbolic C library ([`LIBC_C`](super::LIBC_C)) into a program, at the IR level.
//!
//! The library is compiled once per process by penumbra's own frontend. Linking fills every
//! function the program *declares* and the library *defines* with the library's body, and
//! pulls in what those bodies call (other library functions, helpers, natives), transitively.
//! Function ids of the program are unchanged (new functions are appended), so function
//! addresses agree with a concrete run of the unlinked program; the library has no globals, so
//! global addresses agree too.

use crate::run_error::RunError;
use cranelift_entity::EntityRef;
use penumbra_ir::{compile_source, CompileOptions, Func, Function, InstData, Module, ValueDef};
use rustc_hash::FxHashMap;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The library compiled once per process (or why it failed).
fn library() -> Result<&'static Module, RunError> {
    static LIB: OnceLock<Result<Module, String>> = OnceLock::new();
    LIB.get_or_init(|| {
        let module =
            compile_source("penumbra-libc.c", super::LIBC_C, &CompileOptions::default()).map_err(|e| e.to_string())?;
        if !module.globals.is_empty() {
            return Err("the library must not define globals".into());
        }
        Ok(module)
    })
    .as_ref()
    .map_err(|e| RunError::Libc(e.clone()))
}

/// `module` with the library functions it needs; also the set of functions whose bodies came
/// from the library.
pub fn link(module: &Module) -> Result<(Module, BTreeSet<Func>), RunError> {
    let mut out = module.clone();
    let mut internal = BTreeSet::new();
    let wanted: Vec<Func> =
        module.funcs.iter().filter(|(_, f)| !f.is_defined() && super::is_c_code(&f.name)).map(|(id, _)| id).collect();
    if wanted.is_empty() {
        return Ok((out, internal));
    }
    let lib = library()?;
    // lib function -> program function, created on demand by name
    let mut map: FxHashMap<Func, Func> = FxHashMap::default();
    let mut work: Vec<Func> = Vec::new();
    for f in wanted {
        if let Some(lf) = lib.func_by_name(&out.funcs[f].name) {
            map.insert(lf, f);
            work.push(lf);
        }
    }
    while let Some(lf) = work.pop() {
        let target = map[&lf];
        let Some(body) = &lib.funcs[lf].body else { continue };
        if out.funcs[target].is_defined() {
            continue;
        }
        let mut body = body.clone();
        // Remap function references (calls and addresses); the library has no globals.
        let mut resolve = |callee: Func, out: &mut Module, work: &mut Vec<Func>| -> Func {
            if let Some(&f) = map.get(&callee) {
                return f;
            }
            let lfunc = &lib.funcs[callee];
            let f = match out.func_by_name(&lfunc.name) {
                Some(f) => f,
                None => out.add_func(Function {
                    name: lfunc.name.clone(),
                    sig: lfunc.sig.clone(),
                    body: None,
                    line: 0,
                    file: String::new(),
                }),
            };
            map.insert(callee, f);
            if lfunc.is_defined() && !out.funcs[f].is_defined() {
                work.push(callee);
            }
            f
        };
        for inst in body.insts.values_mut() {
            match inst {
                InstData::Call { func, .. } => *func = resolve(*func, &mut out, &mut work),
                InstData::Unsupported { msg } => {
                    let text = lib.messages.get(*msg).cloned().unwrap_or_default();
                    *msg = out.add_message(text);
                }
                _ => {}
            }
        }
        for v in body.values.values_mut() {
            match &mut v.def {
                ValueDef::FuncAddr(f) => *f = resolve(*f, &mut out, &mut work),
                ValueDef::GlobalAddr(_) => {
                    return Err(RunError::Libc("a library function refers to a global".into()));
                }
                _ => {}
            }
        }
        if out.funcs[target].sig != lib.funcs[lf].sig {
            // The program declared it with another signature: leave it to the native models.
            continue;
        }
        out.funcs[target].body = Some(body);
        out.funcs[target].line = 0;
        internal.insert(target);
    }
    debug_assert!(internal.iter().all(|f| f.index() < out.funcs.len()));
    Ok((out, internal))
}
