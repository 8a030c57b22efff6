//! `penumbra ir FILE.c`: print the IR.

use crate::cli::IrArgs;
use crate::compile::compile;
use anyhow::Result;
use std::io::Write;
use std::process::ExitCode;

pub fn run(args: &IrArgs) -> Result<ExitCode> {
    let module = compile(&args.files, &args.compile)?;
    let text = penumbra_ir::module_to_string(&module);
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
