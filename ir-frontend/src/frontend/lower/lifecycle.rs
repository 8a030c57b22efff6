//! Constructors and destructors (`__attribute__((constructor))`, `destructor`), from LLVM's
//! `llvm.global_ctors` and `llvm.global_dtors` tables, in the order the native C runtime runs
//! them: constructors by ascending priority, in table order within one priority; destructors
//! in the reverse of that (glibc runs `.fini_array` backwards).

use super::ModuleCx;
use crate::ir::Func;
use llvm_ir::{Constant, Name};

/// The names of the two tables, which are not program data.
pub(super) const TABLES: [&str; 2] = ["llvm.global_ctors", "llvm.global_dtors"];

impl ModuleCx<'_> {
    /// Fills the module's constructor and destructor lists.
    pub(super) fn collect_constructors(&mut self) {
        let llvm = self.llvm;
        for g in &llvm.global_vars {
            let Name::Name(name) = &g.name else { continue };
            let Some(init) = &g.initializer else { continue };
            let mut entries = self.table_entries(init);
            // Stable: table order within one priority.
            entries.sort_by_key(|&(priority, _)| priority);
            let funcs = entries.into_iter().map(|(_, f)| f);
            match name.as_str() {
                "llvm.global_ctors" => self.module.ctors = funcs.collect(),
                "llvm.global_dtors" => self.module.dtors = funcs.rev().collect(),
                _ => {}
            }
        }
    }

    /// `(priority, function)` of each `{ i32, ptr, ptr }` entry of a table, in table order
    /// (entries that name no function of the module, such as a null, are skipped).
    fn table_entries(&mut self, init: &Constant) -> Vec<(u64, Func)> {
        let Constant::Array { elements, .. } = init else { return Vec::new() };
        elements
            .iter()
            .filter_map(|e| {
                let Constant::Struct { values, .. } = e.as_ref() else { return None };
                let Constant::Int { value: priority, .. } = values.first()?.as_ref() else { return None };
                let Constant::GlobalReference { name: Name::Name(f), .. } = values.get(1)?.as_ref() else {
                    return None;
                };
                Some((*priority, self.func(f)?))
            })
            .collect()
    }
}
