//! The program's start: the initial states, with `argv` (concrete and symbolic arguments),
//! `envp`, symbolic standard input, and `main`'s frame.
//!
//! Symbolic arguments follow KLEE's `klee_init_env`: `--sym-arg N` is one object `argNN` of
//! `N + 1` bytes whose last byte is overwritten with NUL in memory; `--sym-args MIN MAX N` is an
//! `n_args` object (a 4-byte int) and up to `MAX` such arguments — here one initial state per
//! count, constrained `n_args == k`. `--sym-stdin N` is an object `stdin` of `N` bytes that
//! `getchar`/`fgetc`/`fgets` read. These objects come first in every test, in that order, and
//! the test's argument list records the options (`--sym-arg 3`, ...) so replay can rebuild
//! `argv` and stdin from the objects ([`crate::replay`]).
//!
//! Memory is laid out as the concrete interpreter lays out `argv` (each string, then the
//! pointer array, then `envp`), so the addresses agree when the strings have the sizes of the
//! symbolic objects.

use crate::config::SymArg;
use crate::executor::Executor;
use crate::address::Argv;
use crate::run_error::RunError;
use crate::state::{ExecMode, ExecutionState, Frame, SymbolicObject};
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

/// The option words recorded in every test's argument list, after the program name and the
/// concrete arguments.
pub fn option_words(env: &crate::config::Environment) -> Vec<String> {
    let mut words = Vec::new();
    for spec in &env.sym_args {
        match *spec {
            SymArg::Arg { len } => words.extend(["--sym-arg".to_string(), len.to_string()]),
            SymArg::Args { min, max, len } => {
                words.extend(["--sym-args".to_string(), min.to_string(), max.to_string(), len.to_string()])
            }
        }
    }
    if let Some(n) = env.sym_stdin {
        words.extend(["--sym-stdin".to_string(), n.to_string()]);
    }
    words
}

/// The initial states (one, or one per combination of `--sym-args` counts).
pub fn initial_states(ex: &mut Executor<'_>) -> Result<Vec<ExecutionState>, RunError> {
    let prog = ex.prog;
    let env = &ex.config.env;
    let mode = if ex.config.shadow.is_some() { ExecMode::Both } else { ExecMode::Single(ex.config.version) };
    let base = ExecutionState::new(prog.memory.clone(), mode);
    let mut program_args = vec![ArgString::Concrete(env.program_name.clone())];
    program_args.extend(env.args.iter().cloned().map(ArgString::Concrete));
    let mut partial = vec![(base, program_args)];
    let mut arg_no = 0u32;
    for spec in &env.sym_args {
        match *spec {
            SymArg::Arg { len } => {
                for (st, args) in &mut partial {
                    args.push(symbolic_arg(ex, st, arg_no, len));
                }
                arg_no += 1;
            }
            SymArg::Args { min, max, len } => {
                if min > max {
                    return Err(RunError::Config(format!("--sym-args {min} {max} {len}: MIN is greater than MAX")));
                }
                let mut next = Vec::new();
                for (st, args) in partial {
                    let n_args = new_object(ex, &st, "n_args", 4);
                    for k in min..=max {
                        let mut st = st.clone();
                        let mut args = args.clone();
                        let value = ex.store.concat(
                            ex.store.var(n_args.vars().nth(3).expect("4 bytes")),
                            ex.store.var(n_args.vars().nth(2).expect("4 bytes")),
                        );
                        let low = ex.store.concat(
                            ex.store.var(n_args.vars().nth(1).expect("4 bytes")),
                            ex.store.var(n_args.vars().next().expect("4 bytes")),
                        );
                        let value = ex.store.concat(value, low);
                        let kt = ex.store.constant(32, u64::from(k));
                        let eq = ex.store.eq(value, kt);
                        st.pc.push(eq);
                        let mut model = (*st.model).clone();
                        for (v, b) in n_args.vars().zip(k.to_le_bytes()) {
                            model.insert(v, u64::from(b));
                        }
                        st.model = Rc::new(model);
                        Rc::make_mut(&mut st.symbolics).push(n_args.clone());
                        for i in 0..k {
                            args.push(symbolic_arg(ex, &mut st, arg_no + i, len));
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
        if let Some(n) = env.sym_stdin {
            let obj = new_object(ex, &st, "stdin", n);
            let bytes: Vec<TermId> = obj.vars().map(|v| ex.store.var(v)).collect();
            Rc::make_mut(&mut st.symbolics).push(obj);
            st.stdin.bytes = Rc::new(bytes);
        }
        let main_args = build_argv(ex, &mut st, &args)?;
        enter_main(ex, &mut st, &main_args);
        states.push(st);
    }
    Ok(states)
}

/// A fresh symbolic object (not yet recorded in the state) of `len` bytes named `name`.
fn new_object(ex: &mut Executor<'_>, st: &ExecutionState, name: &str, len: u32) -> SymbolicObject {
    let unique = st.unique_symbolic_name(name);
    let first_var = ex.store.num_vars() as u32;
    for i in 0..len {
        ex.store.new_var(&format!("{unique}[{i}]"), 8);
    }
    SymbolicObject { name: Rc::from(unique), obj: None, first_var, len }
}

fn symbolic_arg(ex: &mut Executor<'_>, st: &mut ExecutionState, index: u32, len: u32) -> ArgString {
    let obj = new_object(ex, st, &format!("arg{index:02}"), len + 1);
    let first_var = obj.first_var;
    Rc::make_mut(&mut st.symbolics).push(obj);
    ArgString::Symbolic { first_var, len }
}

/// Allocates the argument strings, `argv` and `envp` (laid out as the concrete interpreter lays
/// them out); returns `main`'s argument terms.
fn build_argv(ex: &mut Executor<'_>, st: &mut ExecutionState, args: &[ArgString]) -> Result<Vec<TermId>, RunError> {
    let sizes: Vec<u64> = args
        .iter()
        .map(|arg| match arg {
            ArgString::Concrete(s) => s.len() as u64 + 1,
            ArgString::Symbolic { len, .. } => u64::from(*len) + 1,
        })
        .collect();
    let Argv { strings, values } = st
        .mem
        .lay_out_argv(&mut ex.store, &sizes, ex.prog.main_params)
        .ok_or_else(|| RunError::Load("the program arguments do not fit in memory".into()))?;
    for (arg, &id) in args.iter().zip(&strings) {
        let bytes: Vec<TermId> = match arg {
            ArgString::Concrete(s) => s.bytes().map(|b| ex.store.constant(8, u64::from(b))).collect(),
            ArgString::Symbolic { first_var, len } => {
                if let Some(s) = Rc::make_mut(&mut st.symbolics).iter_mut().find(|s| s.first_var == *first_var) {
                    s.obj = Some(id);
                }
                (0..*len).map(|k| ex.store.var(penumbra_solver::VarId::from_u32(first_var + k))).collect()
            }
        };
        st.mem.write_bytes(id, 0, &bytes);
    }
    // argc is an int.
    let widths = [32, 64, 64];
    Ok(values.iter().zip(widths).map(|(&v, w)| ex.store.constant(w, v)).collect())
}

/// Pushes `main`'s frame with its arguments.
fn enter_main(ex: &mut Executor<'_>, st: &mut ExecutionState, args: &[TermId]) {
    let prog = ex.prog;
    let main = prog.main;
    let body = prog.module.funcs[main].body.as_ref().expect("main is defined");
    let entry = body.layout.entry_block().expect("main has an entry block");
    let mut values = prog.info(main).template.clone();
    for (&p, &a) in body.block_params(entry).iter().zip(args) {
        values[p.as_u32() as usize] = a;
    }
    st.stack.push(Frame { func: main, block: entry, idx: 0, values, ret_to: None, allocas: Vec::new() });
    debug_assert!(penumbra_solver::satisfies(&ex.store, &st.pc, &*st.model), "the model satisfies the path");
}
