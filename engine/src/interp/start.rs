//! The program's start: the initial states, with `argv` (concrete and symbolic arguments),
//! `envp`, symbolic standard input, and `main`'s frame.
//!
//! Symbolic arguments follow KLEE's `klee_init_env`: `--sym-arg N` is one object `argNN` of
//! `N + 1` bytes whose last byte is overwritten with NUL in memory; `--sym-args MIN MAX N` is an
//! `n_args` object (a 4-byte int) and up to `MAX` such arguments — here one initial state per
//! count, constrained `n_args == k`, the states sharing the argument objects (state `k` has the
//! first `k`), so that the variables made are `MAX * (N + 1)`, not one set per count.
//!
//! Every byte is a solver variable (a few hundred bytes of memory, microseconds to make), so the
//! environment is refused before anything is made when it has more than `--max-sym-bytes`
//! bytes, and making it stops at an interrupt. `--sym-stdin N` is an object `stdin` of `N` bytes that
//! `getchar`/`fgetc`/`fgets` read. These objects come first in every test, in that order, and
//! the test's argument list records the options (`--sym-arg 3`, ...) so replay can rebuild
//! `argv` and stdin from the objects ([`crate::output::replay`]).
//!
//! Memory is laid out as the concrete interpreter lays out `argv` (each string, then the
//! pointer array, then `envp`), so the addresses agree when the strings have the sizes of the
//! symbolic objects.

use super::Interp;
use crate::address::Argv;
use crate::config::{EngineConfig, Mode, SymArg};
use crate::run_error::RunError;
use crate::symbolic::context::Context;
use crate::symbolic::program::Program;
use crate::symbolic::state::{ExecMode, ExecutionState, SymbolicObject};
use penumbra_solver::TermId;
use std::rc::Rc;

/// One `argv` string of a state.
#[derive(Clone, Debug)]
enum ArgString {
    Concrete(String),
    /// `len + 1` bytes of variables from `first_var`; the last byte is NUL in memory.
    Symbolic {
        first_var: u32,
        len: u32,
    },
}

/// The initial states (one, or one per combination of `--sym-args` counts).
pub fn initial_states(ctx: &mut Context<'_>) -> Result<Vec<ExecutionState>, RunError> {
    let prog = ctx.prog;
    let env = &ctx.config.env;
    let mode = match ctx.config.mode {
        Mode::Single(version) => ExecMode::Single(version),
        Mode::Shadow(_) => ExecMode::Both,
    };
    let base = ExecutionState::new(prog.memory.clone(), mode);
    let mut program_args = vec![ArgString::Concrete(env.program_name.clone())];
    program_args.extend(env.args.iter().cloned().map(ArgString::Concrete));
    let mut partial = vec![(base, program_args)];
    let mut arg_no = 0u32;
    for spec in &env.sym_args {
        match *spec {
            SymArg::Arg { len } => {
                for (st, args) in &mut partial {
                    if penumbra_solver::interrupted() {
                        return Ok(Vec::new());
                    }
                    args.push(symbolic_arg(ctx, st, arg_no, len));
                }
                arg_no += 1;
            }
            SymArg::Args { min, max, len } => {
                if min > max {
                    return Err(RunError::Config(format!("--sym-args {min} {max} {len}: MIN is greater than MAX")));
                }
                let mut next = Vec::new();
                for (st, args) in partial {
                    let n_args = new_object(ctx, &st, "n_args", 4);
                    // The argument objects, made once: the state of count k takes the first k.
                    let mut objects = Vec::with_capacity(max as usize);
                    for i in 0..max {
                        if penumbra_solver::interrupted() {
                            return Ok(Vec::new());
                        }
                        objects.push(new_object(ctx, &st, &format!("arg{:02}", arg_no + i), len + 1));
                    }
                    for k in min..=max {
                        let mut st = st.clone();
                        let mut args = args.clone();
                        let value = ctx.store.concat(
                            ctx.store.var(n_args.vars().nth(3).expect("4 bytes")),
                            ctx.store.var(n_args.vars().nth(2).expect("4 bytes")),
                        );
                        let low = ctx.store.concat(
                            ctx.store.var(n_args.vars().nth(1).expect("4 bytes")),
                            ctx.store.var(n_args.vars().next().expect("4 bytes")),
                        );
                        let value = ctx.store.concat(value, low);
                        let kt = ctx.store.constant(32, u64::from(k));
                        let eq = ctx.store.eq(value, kt);
                        st.pc.push(eq);
                        let mut model = (*st.model).clone();
                        for (v, b) in n_args.vars().zip(k.to_le_bytes()) {
                            model.insert(v, u64::from(b));
                        }
                        st.model = Rc::new(model);
                        Rc::make_mut(&mut st.symbolics).push(n_args.clone());
                        for object in &objects[..k as usize] {
                            args.push(ArgString::Symbolic { first_var: object.first_var, len });
                            Rc::make_mut(&mut st.symbolics).push(object.clone());
                        }
                        next.push((st, args));
                    }
                }
                arg_no += max;
                partial = next;
            }
        }
    }
    let mut states = Vec::with_capacity(partial.len());
    for (mut st, args) in partial {
        if penumbra_solver::interrupted() {
            return Ok(Vec::new());
        }
        if let Some(n) = env.sym_stdin {
            let obj = new_object(ctx, &st, "stdin", n);
            let bytes: Vec<TermId> = obj.vars().map(|v| ctx.store.var(v)).collect();
            Rc::make_mut(&mut st.symbolics).push(obj);
            st.stdin.bytes = Rc::new(bytes);
        }
        let main_args = build_argv(ctx, &mut st, &args)?;
        enter_main(ctx, &mut st, &main_args);
        states.push(st);
    }
    Ok(states)
}

/// Refuses, before anything is made, an environment the program cannot have: more than
/// `--max-sym-bytes` symbolic bytes, or symbolic files without the C library's POSIX layer.
pub fn check_environment(prog: &Program, config: &EngineConfig) -> Result<(), RunError> {
    let env = &config.env;
    let limit = config.max_sym_bytes;
    let args: u64 = env
        .sym_args
        .iter()
        .map(|spec| match *spec {
            SymArg::Arg { len } => u64::from(len) + 1,
            SymArg::Args { max, len, .. } => 4 + u64::from(max) * (u64::from(len) + 1),
        })
        .sum();
    let files = env.sym_files.map_or(0, |(count, size)| u64::from(count) * u64::from(size));
    let total = args + env.sym_stdin.map_or(0, u64::from) + files;
    if total > limit {
        return Err(RunError::Config(format!(
            "the symbolic arguments, files and standard input make {total} symbolic bytes, more than --max-sym-bytes \
             {limit}: each byte is a solver variable (about 200 bytes of memory); raise --max-sym-bytes to allow it"
        )));
    }
    let has_posix_layer = prog.module.func_by_name(crate::libc::syscall::SYM_FILES).is_some();
    for (asked, option) in [(env.sym_files.is_some(), "--sym-files"), (env.sym_file_types, "--sym-file-types")] {
        if asked && !has_posix_layer {
            return Err(RunError::Config(format!(
                "{option} needs the C library's POSIX layer, which penumbra's models lack: add --libc musl"
            )));
        }
    }
    Ok(())
}

/// A fresh symbolic object (not yet recorded in the state) of `len` bytes named `name`.
fn new_object(ctx: &mut Context<'_>, st: &ExecutionState, name: &str, len: u32) -> SymbolicObject {
    let object = st.new_symbolic(name, None, ctx.store.num_vars() as u32, len);
    for i in 0..len {
        ctx.store.new_var(&format!("{}[{i}]", object.name), 8);
    }
    object
}

fn symbolic_arg(ctx: &mut Context<'_>, st: &mut ExecutionState, index: u32, len: u32) -> ArgString {
    let obj = new_object(ctx, st, &format!("arg{index:02}"), len + 1);
    let first_var = obj.first_var;
    Rc::make_mut(&mut st.symbolics).push(obj);
    ArgString::Symbolic { first_var, len }
}

/// Allocates the argument strings, `argv` and `envp` (laid out as the concrete interpreter lays
/// them out); returns `main`'s argument terms.
fn build_argv(ctx: &mut Context<'_>, st: &mut ExecutionState, args: &[ArgString]) -> Result<Vec<TermId>, RunError> {
    let sizes: Vec<u64> = args
        .iter()
        .map(|arg| match arg {
            ArgString::Concrete(s) => s.len() as u64 + 1,
            ArgString::Symbolic { len, .. } => u64::from(*len) + 1,
        })
        .collect();
    let Argv { strings, values } = st
        .mem
        .lay_out_argv(&mut ctx.store, &sizes, &ctx.config.env.env, ctx.prog.entry.main_params)
        .ok_or_else(|| RunError::Load("the program arguments do not fit in memory".into()))?;
    for (arg, &id) in args.iter().zip(&strings) {
        let bytes: Vec<TermId> = match arg {
            ArgString::Concrete(s) => s.bytes().map(|b| ctx.store.constant(8, u64::from(b))).collect(),
            ArgString::Symbolic { first_var, len } => {
                if let Some(s) = Rc::make_mut(&mut st.symbolics).iter_mut().find(|s| s.first_var == *first_var) {
                    s.obj = Some(id);
                }
                (0..*len).map(|k| ctx.store.var(penumbra_solver::VarId::from_u32(first_var + k))).collect()
            }
        };
        st.mem.write_bytes(id, 0, &bytes);
    }
    // argc is an int.
    let widths = [32, 64, 64];
    Ok(values.iter().zip(widths).map(|(&v, w)| ctx.store.constant(w, v)).collect())
}

/// Starts the program (its constructors, then `main` with its arguments).
fn enter_main(ctx: &mut Context<'_>, st: &mut ExecutionState, args: &[TermId]) {
    Interp::new(ctx).start_program(st, args);
    debug_assert!(penumbra_solver::satisfies(&ctx.store, &st.pc.to_vec(), &*st.model), "the model satisfies the path");
}
