//! What the `llvm-ir` crate (0.11.3) leaves out, read from LLVM itself through `llvm-sys`.
//!
//! `llvm-ir` gives a global only the type `ptr` and a constant-expression GEP no source element
//! type, and it has no data layout engine we can trust for struct layouts. This module parses
//! the bitcode with LLVM's C API first and:
//! - rewrites every constant-expression GEP into the byte form `getelementptr (i8, BASE, i64
//!   OFFSET)` over its innermost non-GEP base ([`LlvmInfo::parse`]); the frontend then reads
//!   the rewritten module ([`LlvmInfo::write_bitcode`]) with `llvm-ir`. Without this,
//!   `table[0].fn` (`gep (%struct.entry, @table, 0, 1)`) and `table[1]` (`gep ([2 x
//!   %struct.entry], @table, 0, 1)`) would look the same on the `llvm-ir` side;
//! - answers, exactly as LLVM's `DataLayout` does for the module: the size and alignment of
//!   every global's value type ([`LlvmInfo::global_layout`]); the byte offset of every constant
//!   GEP, keyed structurally ([`LlvmInfo::const_gep_offset`], keys from [`gep_key`] on the
//!   `llvm-ir` side; after the rewrite a key is a base and a byte offset, and two GEPs with one
//!   key and different offsets are still detected as ambiguous); the size, alignment and
//!   struct field offsets of any `llvm-ir` type ([`LlvmInfo::layout`],
//!   [`LlvmInfo::field_offset`]), by rebuilding the type in LLVM's context.
//!
//! All `unsafe` code of the frontend lives here, behind this safe API. The context gets a
//! diagnostic handler so that unreadable bitcode is an `Err`, not LLVM calling `exit(1)`.

use llvm_ir::types::FPType;
use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
use llvm_sys::bit_reader::LLVMParseBitcodeInContext2;
use llvm_sys::bit_writer::LLVMWriteBitcodeToFile;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::{LLVMABIAlignmentOfType, LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMOffsetOfElement};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};
use rustc_hash::FxHashMap;
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::Path;

/// Size and ABI alignment of a type, in bytes (the size is LLVM's *alloc size*: the stride of
/// the type in an array, padding included).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TypeLayout {
    pub size: u64,
    pub align: u32,
}

/// The byte offset a constant GEP adds to its base address.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GepOffset {
    Known(i64),
    /// Two constant GEPs with the same key have different offsets (different source element
    /// types): the key cannot tell them apart, so the use is reported as unsupported.
    Ambiguous,
}

/// The key of a global for [`LlvmInfo::global_layout`] and inside GEP keys: `@name` for named
/// globals, `#n` for unnamed ones numbered as `llvm-ir` numbers them.
pub fn global_key(name: &llvm_ir::Name) -> String {
    match name {
        llvm_ir::Name::Name(s) => format!("@{s}"),
        llvm_ir::Name::Number(n) => format!("#{n}"),
    }
}

/// The structural key of a constant pointer expression on the `llvm-ir` side, matching what
/// this module computes on the LLVM side: a global, `null`, `gep(BASE,i0,i1,...)` with the
/// indices in signed decimal, or `cast(BASE)` for pointer casts. `None` for anything else.
pub fn gep_key(c: &llvm_ir::Constant) -> Option<String> {
    use llvm_ir::Constant as C;
    match c {
        C::GlobalReference { name, .. } => Some(global_key(name)),
        C::Null(_) => Some("null".to_string()),
        C::BitCast(b) => Some(format!("cast({})", gep_key(&b.operand)?)),
        C::AddrSpaceCast(b) => Some(format!("cast({})", gep_key(&b.operand)?)),
        C::GetElementPtr(g) => {
            let mut key = format!("gep({}", gep_key(&g.address)?);
            for index in &g.indices {
                match index.as_ref() {
                    C::Int { bits, value } if *bits <= 64 => {
                        let v = if *bits == 64 { *value as i64 } else { sign_extend(*value, *bits) };
                        key.push_str(&format!(",{v}"));
                    }
                    _ => return None,
                }
            }
            key.push(')');
            Some(key)
        }
        _ => None,
    }
}

fn sign_extend(value: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return value as i64;
    }
    let shift = 64 - bits;
    ((value << shift) as i64) >> shift
}

/// An LLVM module parsed from bitcode, with the answers described in the module docs.
pub struct LlvmInfo {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    /// Owned by `module`; valid while it lives.
    data_layout: llvm_sys::target::LLVMTargetDataRef,
    globals: FxHashMap<String, TypeLayout>,
    gep_offsets: FxHashMap<String, GepOffset>,
    /// Where the diagnostic handler writes; must outlive `ctx`. Boxed because the handler
    /// holds its address, which must not move with the `LlvmInfo`.
    #[allow(clippy::box_collection)]
    _diagnostics: Box<String>,
}

impl Drop for LlvmInfo {
    fn drop(&mut self) {
        // SAFETY: `module` and `ctx` were created by `parse` and are disposed exactly once,
        // the module before its context.
        unsafe {
            LLVMDisposeModule(self.module);
            LLVMContextDispose(self.ctx);
        }
    }
}

extern "C" fn record_diagnostic(info: LLVMDiagnosticInfoRef, out: *mut c_void) {
    // SAFETY: `out` is the `Box<String>` owned by the `LlvmInfo` (or the parse in progress)
    // whose context calls us; `info` is valid for the duration of the call.
    unsafe {
        let message = LLVMGetDiagInfoDescription(info);
        if !message.is_null() && !out.is_null() {
            let text = CStr::from_ptr(message).to_string_lossy();
            let out = &mut *(out as *mut String);
            if !out.is_empty() {
                out.push_str("; ");
            }
            out.push_str(&text);
        }
        if !message.is_null() {
            LLVMDisposeMessage(message);
        }
    }
}

impl LlvmInfo {
    /// Parses the bitcode file at `path`. Errors carry LLVM's message.
    pub fn parse(path: &Path) -> Result<LlvmInfo, String> {
        let c_path =
            CString::new(path.to_string_lossy().as_bytes()).map_err(|_| "path contains a NUL byte".to_string())?;
        let mut diagnostics = Box::new(String::new());
        // SAFETY: plain LLVM C API use: every out-pointer is valid, every created object is
        // either disposed here on failure or handed to the returned `LlvmInfo`.
        unsafe {
            let ctx = LLVMContextCreate();
            let diag_ptr = &mut *diagnostics as *mut String as *mut c_void;
            LLVMContextSetDiagnosticHandler(ctx, Some(record_diagnostic), diag_ptr);
            let mut buf: LLVMMemoryBufferRef = std::ptr::null_mut();
            let mut msg: *mut c_char = std::ptr::null_mut();
            if LLVMCreateMemoryBufferWithContentsOfFile(c_path.as_ptr(), &mut buf, &mut msg) != 0 {
                let text = take_message(msg);
                LLVMContextDispose(ctx);
                return Err(text);
            }
            let mut module: LLVMModuleRef = std::ptr::null_mut();
            let failed = LLVMParseBitcodeInContext2(ctx, buf, &mut module) != 0;
            LLVMDisposeMemoryBuffer(buf);
            if failed || module.is_null() {
                let text = if diagnostics.is_empty() { "invalid bitcode".to_string() } else { (*diagnostics).clone() };
                LLVMContextDispose(ctx);
                return Err(text);
            }
            let data_layout = LLVMGetModuleDataLayout(module);
            let mut info = LlvmInfo {
                ctx,
                module,
                data_layout,
                globals: FxHashMap::default(),
                gep_offsets: FxHashMap::default(),
                _diagnostics: diagnostics,
            };
            info.canonicalize_constant_geps();
            info.expose_x87_constants();
            let mut message: *mut c_char = std::ptr::null_mut();
            if LLVMVerifyModule(module, LLVMVerifierFailureAction::LLVMReturnStatusAction, &mut message) != 0 {
                return Err(format!("module invalid after rewriting constant GEPs: {}", take_message(message)));
            }
            if !message.is_null() {
                LLVMDisposeMessage(message);
            }
            info.collect();
            Ok(info)
        }
    }

    /// Writes the (rewritten) module as bitcode to `path`, for `llvm-ir` to read.
    pub fn write_bitcode(&self, path: &Path) -> Result<(), String> {
        let c_path =
            CString::new(path.to_string_lossy().as_bytes()).map_err(|_| "path contains a NUL byte".to_string())?;
        // SAFETY: `module` is live; the path is a valid C string.
        let status = unsafe { LLVMWriteBitcodeToFile(self.module, c_path.as_ptr()) };
        if status == 0 {
            Ok(())
        } else {
            Err(format!("cannot write {}", path.display()))
        }
    }

    /// Size and alignment of the value type of the global with key `key` (see [`global_key`]).
    pub fn global_layout(&self, key: &str) -> Option<TypeLayout> {
        self.globals.get(key).copied()
    }

    /// The offset of the constant GEP with key `key` (see [`gep_key`]).
    pub fn const_gep_offset(&self, key: &str) -> Option<GepOffset> {
        self.gep_offsets.get(key).copied()
    }

    /// Size and alignment of an `llvm-ir` type; `None` for unsized types (void, functions,
    /// opaque structs, ...).
    pub fn layout(&self, ty: &llvm_ir::Type) -> Option<TypeLayout> {
        let t = self.llvm_type(ty)?;
        self.sized_layout(t)
    }

    /// The byte offset of field `index` of a struct type.
    pub fn field_offset(&self, ty: &llvm_ir::Type, index: u32) -> Option<u64> {
        let t = self.llvm_type(ty)?;
        // SAFETY: `t` is a type of our context; the checks make the query well-defined.
        unsafe {
            if LLVMGetTypeKind(t) != LLVMTypeKind::LLVMStructTypeKind || LLVMTypeIsSized(t) == 0 {
                return None;
            }
            if index >= LLVMCountStructElementTypes(t) {
                return None;
            }
            Some(LLVMOffsetOfElement(self.data_layout, t, index))
        }
    }

    fn sized_layout(&self, t: LLVMTypeRef) -> Option<TypeLayout> {
        // SAFETY: `t` belongs to our context; size queries are only made on sized types.
        unsafe {
            if LLVMTypeIsSized(t) == 0 {
                return None;
            }
            Some(TypeLayout {
                size: LLVMABISizeOfType(self.data_layout, t),
                align: LLVMABIAlignmentOfType(self.data_layout, t),
            })
        }
    }

    /// Rebuilds an `llvm-ir` type in our context (named structs by name).
    fn llvm_type(&self, ty: &llvm_ir::Type) -> Option<LLVMTypeRef> {
        use llvm_ir::Type as T;
        let ctx = self.ctx;
        // SAFETY: type constructors of the C API on our own live context; element type
        // pointers passed to `LLVMStructTypeInContext` point into a live Vec.
        unsafe {
            Some(match ty {
                T::IntegerType { bits } if *bits >= 1 && *bits <= (1 << 23) => LLVMIntTypeInContext(ctx, *bits),
                T::PointerType { addr_space } => LLVMPointerTypeInContext(ctx, *addr_space),
                T::FPType(fp) => match fp {
                    FPType::Half => LLVMHalfTypeInContext(ctx),
                    FPType::BFloat => LLVMBFloatTypeInContext(ctx),
                    FPType::Single => LLVMFloatTypeInContext(ctx),
                    FPType::Double => LLVMDoubleTypeInContext(ctx),
                    FPType::FP128 => LLVMFP128TypeInContext(ctx),
                    FPType::X86_FP80 => LLVMX86FP80TypeInContext(ctx),
                    FPType::PPC_FP128 => LLVMPPCFP128TypeInContext(ctx),
                },
                T::ArrayType { element_type, num_elements } => {
                    let n = u32::try_from(*num_elements).ok()?;
                    LLVMArrayType(self.llvm_type(element_type)?, n)
                }
                T::VectorType { element_type, num_elements, scalable: false } => {
                    let n = u32::try_from(*num_elements).ok().filter(|&n| n > 0)?;
                    LLVMVectorType(self.llvm_type(element_type)?, n)
                }
                T::StructType { element_types, is_packed } => {
                    let mut elems = element_types.iter().map(|e| self.llvm_type(e)).collect::<Option<Vec<_>>>()?;
                    let n = u32::try_from(elems.len()).ok()?;
                    LLVMStructTypeInContext(ctx, elems.as_mut_ptr(), n, i32::from(*is_packed))
                }
                T::NamedStructType { name } => {
                    let c_name = CString::new(name.as_bytes()).ok()?;
                    let t = LLVMGetTypeByName2(ctx, c_name.as_ptr());
                    if t.is_null() {
                        return None;
                    }
                    t
                }
                _ => return None,
            })
        }
    }

    /// Fills `globals` and `gep_offsets` by walking the module.
    fn collect(&mut self) {
        // SAFETY: iteration over the live module with the C API's own iterators; every value
        // visited belongs to the module.
        unsafe {
            let names = self.number_globals();
            let mut g = LLVMGetFirstGlobal(self.module);
            while !g.is_null() {
                if let Some(key) = names.get(&g) {
                    let value_type = LLVMGlobalGetValueType(g);
                    if let Some(mut layout) = self.sized_layout(value_type) {
                        let explicit = LLVMGetAlignment(g);
                        if explicit != 0 {
                            layout.align = explicit;
                        }
                        self.globals.insert(key.clone(), layout);
                    }
                }
                g = LLVMGetNextGlobal(g);
            }
            let mut visited = FxHashMap::default();
            for root in self.constant_roots() {
                self.visit_constant(root, &names, &mut visited);
            }
        }
    }

    /// Replaces every constant GEP (reachable from an instruction or a global initialiser) by
    /// `getelementptr (i8, ROOT, i64 OFFSET)`, ROOT being the first base that is not a GEP.
    ///
    /// Replacing a constant recreates the constants that use it (LLVM destroys the old
    /// ones), so GEPs are processed users first (reverse postorder of the constant DAG): a
    /// GEP is then only ever destroyed after it has been processed.
    unsafe fn canonicalize_constant_geps(&mut self) {
        let roots = self.constant_roots();
        let mut postorder = Vec::new();
        let mut seen = FxHashMap::default();
        for root in roots {
            if !LLVMIsAGlobalValue(root).is_null() || seen.insert(root, ()).is_some() {
                continue;
            }
            let mut stack = vec![(root, 0u32)];
            while let Some((c, next)) = stack.last_mut() {
                let c = *c;
                let n = u32::try_from(LLVMGetNumOperands(c)).unwrap_or(0);
                if *next < n {
                    let op = LLVMGetOperand(c, *next);
                    *next += 1;
                    let constant = !op.is_null() && !LLVMIsAConstant(op).is_null() && LLVMIsAGlobalValue(op).is_null();
                    if constant && seen.insert(op, ()).is_none() {
                        stack.push((op, 0));
                    }
                } else {
                    stack.pop();
                    if is_constant_gep(c) {
                        postorder.push(c);
                    }
                }
            }
        }
        let i8_type = LLVMInt8TypeInContext(self.ctx);
        let i64_type = LLVMInt64TypeInContext(self.ctx);
        for &gep in postorder.iter().rev() {
            let Some((root, offset)) = self.flatten_gep(gep) else { continue };
            let replacement = if offset == 0 {
                root
            } else {
                let mut index = LLVMConstInt(i64_type, offset as u64, 1);
                LLVMConstGEP2(i8_type, root, &mut index, 1)
            };
            if replacement != gep && LLVMTypeOf(replacement) == LLVMTypeOf(gep) {
                LLVMReplaceAllUsesWith(gep, replacement);
            }
        }
    }

    /// Replaces every `x86_fp80` constant by `bitcast (i80 ptrtoint (ptr @MARKER to i80) to
    /// x86_fp80)`, `MARKER` being [`X87_MARKER`] followed by the constant's 20 hex digits
    /// (LLVM's `0xK` spelling: sign and exponent, then the significand). `llvm-ir` 0.11 reads
    /// such constants as a bare `Float::X86_FP80`, without their value; the frontend reads the
    /// value back from the marker's name ([`x87_marker_bits`]). LLVM does not fold the
    /// `bitcast` of a `ptrtoint`, so the expression survives the round trip through bitcode.
    unsafe fn expose_x87_constants(&mut self) {
        let fp80 = LLVMX86FP80TypeInContext(self.ctx);
        let i80 = LLVMIntTypeInContext(self.ctx, 80);
        let i8_type = LLVMInt8TypeInContext(self.ctx);
        let mut found = Vec::new();
        let mut seen = FxHashMap::default();
        let mut stack = self.constant_roots();
        while let Some(c) = stack.pop() {
            if c.is_null() || LLVMIsAConstant(c).is_null() || !LLVMIsAGlobalValue(c).is_null() {
                continue;
            }
            if seen.insert(c, ()).is_some() {
                continue;
            }
            if !LLVMIsAConstantFP(c).is_null() && LLVMTypeOf(c) == fp80 {
                found.push(c);
                continue;
            }
            for i in 0..u32::try_from(LLVMGetNumOperands(c)).unwrap_or(0) {
                stack.push(LLVMGetOperand(c, i));
            }
        }
        for c in found {
            let text = take_message(LLVMPrintValueToString(c));
            let Some(hex) = text.strip_prefix("x86_fp80 0xK").filter(|h| h.len() == 20) else { continue };
            let Ok(name) = CString::new(format!("{X87_MARKER}{hex}")) else { continue };
            let mut marker = LLVMGetNamedGlobal(self.module, name.as_ptr());
            if marker.is_null() {
                marker = LLVMAddGlobal(self.module, i8_type, name.as_ptr());
            }
            let replacement = LLVMConstBitCast(LLVMConstPtrToInt(marker, i80), fp80);
            LLVMReplaceAllUsesWith(c, replacement);
        }
    }

    /// Every global initialiser and every constant operand of an instruction, in module order.
    unsafe fn constant_roots(&self) -> Vec<LLVMValueRef> {
        let mut roots = Vec::new();
        let mut g = LLVMGetFirstGlobal(self.module);
        while !g.is_null() {
            let init = LLVMGetInitializer(g);
            if !init.is_null() {
                roots.push(init);
            }
            g = LLVMGetNextGlobal(g);
        }
        let mut f = LLVMGetFirstFunction(self.module);
        while !f.is_null() {
            let mut bb = LLVMGetFirstBasicBlock(f);
            while !bb.is_null() {
                let mut inst = LLVMGetFirstInstruction(bb);
                while !inst.is_null() {
                    for i in 0..u32::try_from(LLVMGetNumOperands(inst)).unwrap_or(0) {
                        let op = LLVMGetOperand(inst, i);
                        if !op.is_null() && !LLVMIsAConstant(op).is_null() {
                            roots.push(op);
                        }
                    }
                    inst = LLVMGetNextInstruction(inst);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
            f = LLVMGetNextFunction(f);
        }
        roots
    }

    /// The first non-GEP base of a (possibly nested) constant GEP, and the total offset.
    unsafe fn flatten_gep(&self, gep: LLVMValueRef) -> Option<(LLVMValueRef, i64)> {
        if LLVMGetTypeKind(LLVMTypeOf(gep)) != LLVMTypeKind::LLVMPointerTypeKind {
            return None; // a vector of pointers
        }
        let mut cur = gep;
        let mut total = 0i64;
        while is_constant_gep(cur) {
            total = total.wrapping_add(self.gep_offset(cur)?);
            cur = LLVMGetOperand(cur, 0);
            if cur.is_null() {
                return None;
            }
        }
        Some((cur, total))
    }

    /// Global keys as `llvm-ir` names them: unnamed global objects are numbered in the order
    /// defined functions, declared functions, globals, aliases, ifuncs.
    unsafe fn number_globals(&self) -> FxHashMap<LLVMValueRef, String> {
        let mut names = FxHashMap::default();
        let mut counter = 0usize;
        let mut add = |v: LLVMValueRef, names: &mut FxHashMap<LLVMValueRef, String>| {
            let name = value_name(v);
            let key = if name.is_empty() {
                counter += 1;
                format!("#{}", counter - 1)
            } else {
                format!("@{name}")
            };
            names.insert(v, key);
        };
        for defined in [true, false] {
            let mut f = LLVMGetFirstFunction(self.module);
            while !f.is_null() {
                if (LLVMIsDeclaration(f) == 0) == defined {
                    add(f, &mut names);
                }
                f = LLVMGetNextFunction(f);
            }
        }
        let mut g = LLVMGetFirstGlobal(self.module);
        while !g.is_null() {
            add(g, &mut names);
            g = LLVMGetNextGlobal(g);
        }
        let mut a = LLVMGetFirstGlobalAlias(self.module);
        while !a.is_null() {
            add(a, &mut names);
            a = LLVMGetNextGlobalAlias(a);
        }
        let mut i = LLVMGetFirstGlobalIFunc(self.module);
        while !i.is_null() {
            add(i, &mut names);
            i = LLVMGetNextGlobalIFunc(i);
        }
        names
    }

    /// Records every constant GEP reachable from `c` (not through globals, which are visited
    /// on their own).
    unsafe fn visit_constant(
        &mut self,
        c: LLVMValueRef,
        names: &FxHashMap<LLVMValueRef, String>,
        visited: &mut FxHashMap<LLVMValueRef, ()>,
    ) {
        let mut stack = vec![c];
        while let Some(c) = stack.pop() {
            if visited.insert(c, ()).is_some() || !LLVMIsAGlobalValue(c).is_null() {
                continue;
            }
            if is_constant_gep(c) {
                if let (Some(key), Some(offset)) = (self.key_of(c, names), self.gep_offset(c)) {
                    let entry = self.gep_offsets.entry(key).or_insert(GepOffset::Known(offset));
                    if *entry != GepOffset::Known(offset) {
                        *entry = GepOffset::Ambiguous;
                    }
                }
            }
            let n = u32::try_from(LLVMGetNumOperands(c)).unwrap_or(0);
            for i in 0..n {
                let op = LLVMGetOperand(c, i);
                if !op.is_null() && !LLVMIsAConstant(op).is_null() {
                    stack.push(op);
                }
            }
        }
    }

    /// The same key [`gep_key`] computes on the `llvm-ir` side.
    unsafe fn key_of(&self, c: LLVMValueRef, names: &FxHashMap<LLVMValueRef, String>) -> Option<String> {
        if !LLVMIsAGlobalValue(c).is_null() {
            return names.get(&c).cloned();
        }
        if !LLVMIsAConstantPointerNull(c).is_null() {
            return Some("null".to_string());
        }
        if LLVMIsAConstantExpr(c).is_null() {
            return None;
        }
        match LLVMGetConstOpcode(c) {
            LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast => {
                Some(format!("cast({})", self.key_of(LLVMGetOperand(c, 0), names)?))
            }
            LLVMOpcode::LLVMGetElementPtr => {
                let mut key = format!("gep({}", self.key_of(LLVMGetOperand(c, 0), names)?);
                let n = u32::try_from(LLVMGetNumOperands(c)).ok()?;
                for i in 1..n {
                    key.push_str(&format!(",{}", const_index(LLVMGetOperand(c, i))?));
                }
                key.push(')');
                Some(key)
            }
            _ => None,
        }
    }

    /// The byte offset of a constant GEP, walking its indices over its source element type.
    unsafe fn gep_offset(&self, c: LLVMValueRef) -> Option<i64> {
        let mut ty = LLVMGetGEPSourceElementType(c);
        if ty.is_null() {
            return None;
        }
        let n = u32::try_from(LLVMGetNumOperands(c)).ok()?;
        if n < 2 {
            return Some(0);
        }
        let first = const_index(LLVMGetOperand(c, 1))?;
        let mut offset = first.wrapping_mul(self.sized_layout(ty)?.size as i64);
        for i in 2..n {
            let index = const_index(LLVMGetOperand(c, i))?;
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let field = u32::try_from(index).ok()?;
                    if field >= LLVMCountStructElementTypes(ty) || LLVMTypeIsSized(ty) == 0 {
                        return None;
                    }
                    offset = offset.wrapping_add(LLVMOffsetOfElement(self.data_layout, ty, field) as i64);
                    ty = LLVMStructGetTypeAtIndex(ty, field);
                }
                LLVMTypeKind::LLVMArrayTypeKind => {
                    ty = LLVMGetElementType(ty);
                    offset = offset.wrapping_add(index.wrapping_mul(self.sized_layout(ty)?.size as i64));
                }
                _ => return None,
            }
        }
        Some(offset)
    }
}

/// The name prefix of the globals that carry `x86_fp80` constants (see
/// [`LlvmInfo::expose_x87_constants`]); the frontend lowers no global of that name.
pub const X87_MARKER: &str = "__penumbra_x87_K";

/// The bits of an `x86_fp80` constant as the rewritten module spells it, if `c` is one.
pub fn x87_marker_bits(c: &llvm_ir::Constant) -> Option<u128> {
    use llvm_ir::Constant as C;
    let C::BitCast(b) = c else { return None };
    let C::PtrToInt(p) = b.operand.as_ref() else { return None };
    let C::GlobalReference { name: llvm_ir::Name::Name(name), .. } = p.operand.as_ref() else { return None };
    u128::from_str_radix(name.strip_prefix(X87_MARKER)?, 16).ok()
}

unsafe fn is_constant_gep(c: LLVMValueRef) -> bool {
    !LLVMIsAConstantExpr(c).is_null() && LLVMGetConstOpcode(c) == LLVMOpcode::LLVMGetElementPtr
}

/// A GEP index that is a constant integer of at most 64 bits, sign-extended.
unsafe fn const_index(v: LLVMValueRef) -> Option<i64> {
    if v.is_null() || LLVMIsAConstantInt(v).is_null() {
        return None;
    }
    if LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64 {
        return None;
    }
    Some(LLVMConstIntGetSExtValue(v))
}

unsafe fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    let p = LLVMGetValueName2(v, &mut len);
    if p.is_null() || len == 0 {
        return String::new();
    }
    let bytes = std::slice::from_raw_parts(p as *const u8, len);
    String::from_utf8_lossy(bytes).into_owned()
}

unsafe fn take_message(msg: *mut c_char) -> String {
    if msg.is_null() {
        return "unknown error".to_string();
    }
    let text = CStr::from_ptr(msg).to_string_lossy().into_owned();
    LLVMDisposeMessage(msg);
    text
}
