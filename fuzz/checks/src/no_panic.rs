//! Target 4, robustness on arbitrary bytes: the `.ktest` reader ([`ktest`]) and the C frontend
//! ([`frontend`]) must return an error, never panic, whatever they are given.
//!
//! - `ktest`: the bytes as a file, raw or behind a valid header (random bytes almost never
//!   begin with `KTEST`); and a valid test built from the bytes, written, read back (the same
//!   test), then cut short or with a byte changed (an error or some test, no panic). A test that
//!   reads must print (the `ktest-tool` listing) and write back to a file that reads as itself.
//! - `frontend`: C source, either the bytes themselves or a program put together from fragments
//!   that cover the C the lowering must handle or reject (floats, aggregates, bit-fields,
//!   varargs, `goto`, function pointers, VLAs, wide integers, inline assembly, ...), sometimes
//!   with a few byte-level edits. clang rejects most edited source (and must accept every
//!   unedited fragment program, with penumbra's headers); what it accepts must lower to a module that
//!   verifies or to a frontend error, and a module must load and run in the concrete
//!   interpreter for a bounded number of steps without a panic. Each input starts clang and
//!   `opt`, so this target runs tens of inputs per second, not thousands. clang's and `opt`'s
//!   rejections are expected; any other frontend error (an internal error, bitcode that does
//!   not read) is a finding.

use crate::source::Source;
use penumbra_engine::concrete::{Program, RunConfig};
use penumbra_engine::output::ktest::{KTest, KTestObject};
use penumbra_ir::{compile_source, CompileOptions, FrontendError};

/// The `ktest` target (see the module documentation).
pub fn ktest(data: &[u8]) -> Result<&'static str, String> {
    let mut u = arbitrary::Unstructured::new(data);
    match u.below(3) {
        0 => {
            let rest = u.take_rest();
            read_and_check(rest)
        }
        1 => {
            let version = u.below(5) as u32;
            let magic: &[u8] = if u.chance(80) { b"KTEST" } else { b"BOUT\n" };
            let mut file = magic.to_vec();
            file.extend_from_slice(&version.to_be_bytes());
            file.extend_from_slice(u.take_rest());
            read_and_check(&file)
        }
        _ => {
            let test = arbitrary_ktest(&mut u);
            let file = test.to_bytes();
            match KTest::from_bytes(&file) {
                Ok(back) if back == test => {}
                other => return Err(format!("{test:?} written and read back is {other:?}")),
            }
            // Damaged: cut short, or a byte changed.
            let mut damaged = file.clone();
            if u.chance(50) && !damaged.is_empty() {
                damaged.truncate(u.index(damaged.len()));
            } else if !damaged.is_empty() {
                let at = u.index(damaged.len());
                damaged[at] = u.below(256) as u8;
            }
            read_and_check(&damaged)?;
            Ok("valid")
        }
    }
}

/// A test with up to 3 arguments and 5 objects, from the bytes.
fn arbitrary_ktest(u: &mut arbitrary::Unstructured) -> KTest {
    let text = |u: &mut arbitrary::Unstructured| {
        let n = u.below(12) as usize;
        (0..n).map(|_| char::from(u.below(128) as u8)).collect::<String>()
    };
    let args = (0..u.below(4)).map(|_| text(u)).collect();
    let objects = (0..u.below(6))
        .map(|_| {
            let name = text(u);
            let n = u.below(20) as usize;
            let bytes = (0..n).map(|_| u.below(256) as u8).collect();
            KTestObject { name, bytes }
        })
        .collect();
    KTest { args, sym_argvs: u.below(3) as u32, sym_argv_len: u.below(9) as u32, objects }
}

/// Reads `file`; a test that reads must list and write back to itself.
fn read_and_check(file: &[u8]) -> Result<&'static str, String> {
    match KTest::from_bytes(file) {
        Err(e) => {
            // The message must be printable too.
            let _ = e.to_string();
            Ok("rejected")
        }
        Ok(test) => {
            let _ = test.to_string();
            match KTest::from_bytes(&test.to_bytes()) {
                Ok(back) if back == test => Ok("read"),
                other => Err(format!("{file:?} reads as {test:?}, which written and read back is {other:?}")),
            }
        }
    }
}

/// Fragments of C, each defining `int fK(int x)` (K its index), for [`frontend`] to combine.
const FRAGMENTS: &[&str] = &[
    "int fK(int x) { return x * 3 + 1; }",
    "int fK(int x) { double d = x / 3.0; return (int)(d * 2.5); }",
    "int fK(int x) { float f = (float)x; return f > 1.5f ? 1 : 0; }",
    "struct sK { char c; int i; long l; short s[3]; };\nint fK(int x) { struct sK s = { 1, x, 3, { 4, 5, 6 } }; struct sK t = s; return t.i + t.s[x & 1]; }",
    "union uK { int i; char c[4]; float f; };\nint fK(int x) { union uK u; u.i = x; return u.c[0] + u.c[3]; }",
    "struct bK { unsigned a : 3; signed b : 5; unsigned c : 24; };\nint fK(int x) { struct bK b = { 0 }; b.a = x; b.b = -x; b.c = x << 4; return b.a + b.b + b.c; }",
    "#include <stdarg.h>\nint vK(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }\nint fK(int x) { return vK(3, x, 2, 1); }",
    "int fK(int x) { int i = 0; again: i++; if (i < (x & 7)) goto again; return i; }",
    "static int hK(int y) { return y - 1; }\nint fK(int x) { int (*p)(int) = hK; return p(x); }",
    "int fK(int x) { int n = (x & 7) + 1; int a[n]; for (int i = 0; i < n; i++) a[i] = i; return a[n - 1]; }",
    "int fK(int x) { __int128 w = (__int128)x * x; return (int)(w >> 3); }",
    "int fK(int x) { long long a = x; unsigned long long b = (unsigned long long)a * 0x9e3779b97f4a7c15ULL; return (int)(b >> 60); }",
    "int fK(int x) { switch (x) { case 0: return 1; case 1: case 2: return 7; case 100: return 3; default: return -1; } }",
    "int fK(int x) { int r = 0; while (x > 0) { r += x % 10; x /= 10; } return r; }",
    "int rK(int x) { return x <= 0 ? 0 : 1 + rK(x - 2); }\nint fK(int x) { return rK(x & 31); }",
    "static const char *tK = \"table\";\nstatic int gK[4] = { 1, 2, 3, 4 };\nstatic int *pK = &gK[2];\nint fK(int x) { return tK[x & 3] + *pK; }",
    "#include <string.h>\nint fK(int x) { char buf[16]; memset(buf, 'a', sizeof buf); buf[15] = 0; return (int)strlen(buf) + x; }",
    "#include <stdlib.h>\nint fK(int x) { int *p = malloc(4 * sizeof(int)); if (!p) return 0; p[x & 3] = x; int r = p[x & 3]; free(p); return r; }",
    "int fK(int x) { int r; __asm__(\"\" : \"=r\"(r) : \"0\"(x)); return r; }",
    "typedef int vK __attribute__((vector_size(16)));\nint fK(int x) { vK a = { x, 1, 2, 3 }; vK b = a + a; return b[0]; }",
    "#include <setjmp.h>\nstatic jmp_buf jK;\nint fK(int x) { if (setjmp(jK)) return 1; if (x > 3) longjmp(jK, 1); return 0; }",
    "int fK(int x) { long double d = x; return (int)(d * d); }",
    "int fK(int x) { _Atomic int a = x; a += 1; return a; }",
    "int fK(int x) { unsigned char c = (unsigned char)x; signed char s = (signed char)x; return c + s + (x << 3) + ((unsigned)x >> 29); }",
    "struct qK { int a[2]; };\nstatic struct qK mK(int x) { struct qK q = { { x, x + 1 } }; return q; }\nint fK(int x) { return mK(x).a[1]; }",
    "#include <stdio.h>\nint fK(int x) { printf(\"%d %s %c\\n\", x, \"s\", 'c'); return 0; }",
    "int fK(int x) { return __builtin_popcount(x) + __builtin_clz(x | 1) + __builtin_expect(x, 0); }",
    "int fK(int x) { int s = 0; for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) { if (j > i) break; if ((i ^ j) & 1) continue; s += i * j; } return s + x; }",
];

/// Tokens the byte-level edits insert.
const TOKENS: &[&str] =
    &["(", ")", "{", "}", ";", "*", "&", "[0]", "-1", "int ", "x", ",", "\"", "'", "/*", "\\", "#", "0x", "1e", "..."];

/// The `frontend` target (see the module documentation).
pub fn frontend(data: &[u8]) -> Result<&'static str, String> {
    let mut u = arbitrary::Unstructured::new(data);
    let mut edited = true;
    let source = if u.chance(15) {
        String::from_utf8_lossy(u.take_rest()).into_owned()
    } else {
        let mut program = String::new();
        let count = 1 + u.below(3);
        let mut calls = Vec::new();
        for k in 0..count {
            let fragment = u.pick(FRAGMENTS).replace('K', &k.to_string());
            program.push_str(&fragment);
            program.push('\n');
            calls.push(format!("f{k}(argc)"));
        }
        program.push_str(&format!("int main(int argc, char **argv) {{ return {}; }}\n", calls.join(" + ")));
        edited = u.chance(30);
        if edited {
            edit(&mut u, program)
        } else {
            program
        }
    };
    // clang's and opt's rejections are the program's fault; any other error is the frontend's
    // (an internal error is a bug by definition; unreadable bitcode is LLVM's own output).
    let module = match compile_source("fuzz.c", &source, &CompileOptions::default()) {
        Err(FrontendError::CompileFailed { .. }) if edited => return Ok("rejected"),
        Err(e) => return Err(format!("{e}\nsource:\n{source}")),
        Ok(m) => m,
    };
    if let Err(errors) = penumbra_ir::verify_module(&module) {
        return Err(format!("the frontend's module does not verify: {errors:?}\nsource:\n{source}"));
    }
    // An edit can leave a module the interpreter refuses (no `main` any more); a program put
    // together from the fragments as they are must load.
    let program = match Program::new(&module) {
        Ok(p) => p,
        Err(_) if edited => return Ok("not loaded"),
        Err(e) => {
            return Err(format!(
                "the module does not load: {e}
source:
{source}"
            ))
        }
    };
    let config = RunConfig { max_steps: Some(20_000), stack_limit: 16_000, ..RunConfig::default() };
    let _ = program.run(&config);
    Ok("compiled")
}

/// One to three byte-level edits of `source` (deletions, duplications, inserted tokens); a
/// `K` in a fragment is its index (the fragments use no other capital K).
fn edit(u: &mut arbitrary::Unstructured, source: String) -> String {
    let mut bytes = source.into_bytes();
    for _ in 0..1 + u.below(3) {
        let at = u.index(bytes.len() + 1);
        match u.below(3) {
            0 => {
                let end = (at + 1 + u.index(8)).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
            1 => {
                let end = (at + 1 + u.index(16)).min(bytes.len());
                let copy = bytes[at.min(end)..end].to_vec();
                bytes.splice(at.min(end)..at.min(end), copy);
            }
            _ => {
                let token = u.pick(TOKENS).as_bytes().to_vec();
                bytes.splice(at..at, token);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
