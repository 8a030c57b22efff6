//! penumbra's own instructions that need more than a value: `make_symbolic` (fill an object
//! from the run's inputs and record it). `change`, `execute`, `assume` and `assert` are one
//! line each in the loop.

use super::interp::Interp;
use super::result::SymbolicObject;
use super::stop::Fault;

impl Interp<'_> {
    /// `make_symbolic(addr, size, name)`: overwrites the `size` bytes at `addr` with the input
    /// for this object (zero-padded or truncated) and records the object.
    pub(super) fn make_symbolic(&mut self, addr: u64, size: u64, name: u64) -> Result<(), Fault> {
        let name = String::from_utf8_lossy(&self.machine.mem.read_cstr(name)?).into_owned();
        if size == 0 {
            // No object, as in the symbolic engine (a test may not hold an empty one).
            return Ok(());
        }
        let occurrence = self.symbolic_names.get(&name).copied().unwrap_or(0);
        let value = self.config.inputs.value(self.symbolics.len(), &name, occurrence).unwrap_or(&[]);
        let dst = self.machine.mem.write(addr, size)?;
        let n = value.len().min(dst.len());
        dst[..n].copy_from_slice(&value[..n]);
        dst[n..].fill(0);
        let bytes = dst.to_vec();
        *self.symbolic_names.entry(name.clone()).or_insert(0) += 1;
        self.symbolics.push(SymbolicObject { name, bytes });
        Ok(())
    }
}
