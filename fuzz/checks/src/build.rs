//! Building IR modules function by function, as the IR generators here and the engine's tests
//! do: [`ModuleBuilder`] declares functions (so bodies can call each other), then defines them;
//! [`ModuleBuilder::finish`] verifies the result.

use penumbra_ir::{
    Body, Func, FunctionBuilder, Global, GlobalData, GlobalInit, Module, Signature, SrcLoc, Type, Value,
};

/// Builds a module: declare functions first (so bodies can call each other), then define.
pub struct ModuleBuilder {
    pub module: Module,
}

impl Default for ModuleBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ModuleBuilder {
    pub fn new() -> Self {
        ModuleBuilder { module: Module::new("test.c") }
    }

    /// A global with the given initial bytes.
    pub fn global(&mut self, name: &str, bytes: &[u8], constant: bool) -> Global {
        self.module.add_global(GlobalData {
            name: name.into(),
            size: bytes.len() as u64,
            align: 1,
            constant,
            init: GlobalInit::Bytes { bytes: bytes.to_vec(), relocs: Vec::new() },
        })
    }

    /// A global with arbitrary initialisation.
    pub fn global_init(&mut self, name: &str, size: u64, init: GlobalInit) -> Global {
        self.module.add_global(GlobalData { name: name.into(), size, align: 8, constant: false, init })
    }

    /// A NUL-terminated read-only string.
    pub fn string(&mut self, name: &str, text: &str) -> Global {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        self.global(name, &bytes, true)
    }

    /// Declares a function (defined later with [`ModuleBuilder::define`], or external).
    pub fn declare(&mut self, name: &str, params: &[Type], ret: Option<Type>) -> Func {
        self.declare_sig(name, Signature { params: params.to_vec(), ret, varargs: false })
    }

    pub fn declare_varargs(&mut self, name: &str, params: &[Type], ret: Option<Type>) -> Func {
        self.declare_sig(name, Signature { params: params.to_vec(), ret, varargs: true })
    }

    fn declare_sig(&mut self, name: &str, sig: Signature) -> Func {
        self.module.add_func(penumbra_ir::Function { name: name.into(), sig, body: None, line: 0, file: String::new() })
    }

    /// Gives `func` a body: `build` gets the builder positioned in the entry block and the
    /// parameters.
    pub fn define(&mut self, func: Func, build: impl FnOnce(&mut FunctionBuilder, &[Value])) {
        let mut body = Body::default();
        {
            let mut b = FunctionBuilder::new(&mut body);
            let entry = b.create_block();
            let params: Vec<Value> = self.module.funcs[func]
                .sig
                .params
                .clone()
                .into_iter()
                .map(|t| b.append_block_param(entry, t))
                .collect();
            b.switch_to_block(entry);
            build(&mut b, &params);
        }
        self.module.funcs[func].body = Some(body);
    }

    /// Declares and defines `int main(void)`.
    pub fn main(&mut self, build: impl FnOnce(&mut FunctionBuilder, &[Value])) -> Func {
        let main = self.declare("main", &[], Some(Type::I32));
        self.define(main, build);
        main
    }

    pub fn finish(self) -> Module {
        if let Err(errors) = penumbra_ir::verify_module(&self.module) {
            panic!("test module does not verify: {errors:?}\n{}", penumbra_ir::module_to_string(&self.module));
        }
        self.module
    }
}

/// Sets the source line of the instructions appended next.
pub fn line(b: &mut FunctionBuilder, line: u32) {
    b.set_srcloc(SrcLoc { line, col: 1 });
}
