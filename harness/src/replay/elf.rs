//! Whether an executable defines or needs a symbol, read from its ELF symbol tables (`.symtab`
//! and `.dynsym`): how replay tells a build with AddressSanitizer (`__asan_init`) from one
//! without, and reads which sanitizers the replay runtime was compiled with. A file that is not a 64-bit little-endian ELF
//! file names no symbol.

use std::path::Path;

/// The section types that hold symbols.
const SHT_SYMTAB: u32 = 2;
const SHT_DYNSYM: u32 = 11;
/// The size of a 64-bit symbol table entry.
const SYMBOL_SIZE: usize = 24;

/// Whether `exe`'s symbol tables name `symbol` (`false` for a file that cannot be read or is no
/// ELF file).
#[cfg(test)]
pub fn names_symbol(exe: &Path, symbol: &str) -> bool {
    names_symbols(exe, &[symbol]) == [true]
}

/// Whether `exe`'s symbol tables name each of `symbols`, the file read once.
pub fn names_symbols(exe: &Path, symbols: &[&str]) -> Vec<bool> {
    let bytes = std::fs::read(exe).unwrap_or_default();
    symbols.iter().map(|symbol| symbols_include(&bytes, symbol)).collect()
}

/// Whether the ELF image `elf` has `symbol` in one of its symbol tables.
pub fn symbols_include(elf: &[u8], symbol: &str) -> bool {
    sections(elf)
        .unwrap_or_default()
        .iter()
        .filter(|s| s.kind == SHT_SYMTAB || s.kind == SHT_DYNSYM)
        .any(|table| table_names(elf, table, symbol.as_bytes()).unwrap_or(false))
}

/// One section header, the fields read here.
#[derive(Clone, Copy, Debug, Default)]
struct Section {
    kind: u32,
    offset: usize,
    size: usize,
    /// For a symbol table: the index of its string table.
    link: usize,
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?) as usize)
}

fn u32_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize)
}

fn u64_at(b: &[u8], at: usize) -> Option<usize> {
    usize::try_from(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?)).ok()
}

/// The section headers of a 64-bit little-endian ELF image (`None` for anything else).
fn sections(elf: &[u8]) -> Option<Vec<Section>> {
    // Magic, class 2 (64-bit), data 1 (little-endian).
    if elf.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let (table, entry, count) = (u64_at(elf, 0x28)?, u16_at(elf, 0x3a)?, u16_at(elf, 0x3c)?);
    (0..count)
        .map(|i| {
            let at = table.checked_add(i.checked_mul(entry)?)?;
            Some(Section {
                kind: u32_at(elf, at + 4)? as u32,
                offset: u64_at(elf, at + 24)?,
                size: u64_at(elf, at + 32)?,
                link: u32_at(elf, at + 40)?,
            })
        })
        .collect()
}

/// Whether the symbol table `table` has a symbol named `name`.
fn table_names(elf: &[u8], table: &Section, name: &[u8]) -> Option<bool> {
    let strings = sections(elf)?.get(table.link).copied()?;
    let strings = elf.get(strings.offset..strings.offset.checked_add(strings.size)?)?;
    let symbols = elf.get(table.offset..table.offset.checked_add(table.size)?)?;
    Some(symbols.chunks_exact(SYMBOL_SIZE).any(|symbol| {
        let Some(start) = u32_at(symbol, 0) else { return false };
        strings.get(start..).is_some_and(|rest| rest.split(|&b| b == 0).next() == Some(name))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An executable of this machine's clang, with and without AddressSanitizer.
    fn build(dir: &Path, name: &str, flags: &[&str]) -> std::path::PathBuf {
        let source = dir.join("main.c");
        std::fs::write(&source, "int main(void) { return 0; }\n").unwrap();
        let exe = dir.join(name);
        let status = std::process::Command::new(penumbra_ir::frontend::CLANG)
            .args(flags)
            .arg(&source)
            .arg("-o")
            .arg(&exe)
            .status()
            .unwrap();
        assert!(status.success());
        exe
    }

    #[test]
    fn an_asan_build_names_asan_init_and_a_plain_one_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let asan = build(dir.path(), "asan", &["-fsanitize=address"]);
        assert!(names_symbol(&asan, "__asan_init"));
        let plain = build(dir.path(), "plain", &[]);
        assert!(!names_symbol(&plain, "__asan_init"));
        assert!(names_symbol(&plain, "main"));
        // Stripped of .symtab, the dynamic symbols still tell.
        let stripped = build(dir.path(), "stripped", &["-fsanitize=address", "-s"]);
        assert!(names_symbol(&stripped, "__asan_init"));
    }

    #[test]
    fn what_is_no_elf_file_names_nothing() {
        assert!(!symbols_include(b"#!/bin/sh\nexec true\n", "__asan_init"));
        assert!(!symbols_include(b"\x7fELF\x02\x01", "__asan_init"));
        assert!(!symbols_include(&[], "main"));
        assert!(!names_symbol(Path::new("/nonexistent/exe"), "main"));
    }
}
