//! A build's compilation database (`compile_commands.json`, as CMake, Bear or
//! `intercept-build` write it): the flags each C file of a program was compiled with, so that
//! penumbra compiles it the same way (`--compile-commands FILE`).
//!
//! Of a build's command, penumbra keeps what decides the meaning of the code (`-I`, `-D`,
//! `-include`, `-std`, `-f...`, target flags) and drops what decides the output: the compiler,
//! `-c`, `-o FILE`, the source file, `-O` levels (penumbra compiles at `-O0`), dependency files
//! (`-M...`), `-flto`, sanitizers and `-Werror`.

use anyhow::{bail, Context, Result};
use penumbra_ir::BuildFlags;
use std::path::{Path, PathBuf};

/// The build flags of every file `path` lists, by absolute file path.
pub fn load(path: &Path) -> Result<Vec<(PathBuf, BuildFlags)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(&text).with_context(|| format!("{} is not a JSON array of commands", path.display()))?;
    let mut out = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let at = || format!("{}: entry {}", path.display(), i + 1);
        let field = |key: &str| entry.get(key).and_then(|v| v.as_str());
        let (Some(directory), Some(file)) = (field("directory"), field("file")) else {
            bail!("{}: needs `directory` and `file`", at());
        };
        let words: Vec<String> = match (entry.get("arguments").and_then(|a| a.as_array()), field("command")) {
            (Some(args), _) => args.iter().filter_map(|a| a.as_str().map(str::to_string)).collect(),
            (None, Some(command)) => split_command(command).with_context(at)?,
            (None, None) => bail!("{}: needs `arguments` or `command`", at()),
        };
        let directory = PathBuf::from(directory);
        let absolute = std::path::absolute(directory.join(file)).with_context(at)?;
        let flags = kept_flags(&words, file);
        out.push((absolute, BuildFlags { directory, flags, file: file.to_string() }));
    }
    Ok(out)
}

/// The flags of a build's command `words` that penumbra keeps (see the module's header).
fn kept_flags(words: &[String], file: &str) -> Vec<String> {
    let mut kept = Vec::new();
    let mut words = words.iter().skip(1); // the compiler
    while let Some(w) = words.next() {
        match w.as_str() {
            "-c" | "-S" | "-E" | "-emit-llvm" | "-M" | "-MM" | "-MD" | "-MMD" | "-MP" | "-MG" => {}
            "-o" | "-MF" | "-MT" | "-MQ" => {
                words.next();
            }
            _ if w == file => {}
            _ if w.starts_with("-O") || w.starts_with("-flto") || w.starts_with("-fsanitize") => {}
            _ if w.starts_with("-Werror") || w.starts_with("-o") && w.len() > 2 => {}
            _ => kept.push(w.clone()),
        }
    }
    kept
}

/// Splits a shell command line into words: blanks separate, single quotes keep everything,
/// double quotes keep all but `\"` and `\\`, a backslash outside quotes keeps the next
/// character.
fn split_command(command: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => bail!("an unterminated ' in the command"),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => bail!("an unterminated \" in the command"),
                        },
                        Some(c) => w.push(c),
                        None => bail!("an unterminated \" in the command"),
                    }
                }
            }
            '\\' => {
                let next = chars.next().context("a command ending in a backslash")?;
                word.get_or_insert_with(String::new).push(next);
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_as_a_shell_splits_them() {
        let words = split_command(r#"gcc -DMSG="\"hi there\"" -I'a b' x\ y.c -c"#).unwrap();
        assert_eq!(words, ["gcc", r#"-DMSG="hi there""#, "-Ia b", "x y.c", "-c"]);
        assert!(split_command("gcc 'open").is_err());
    }

    #[test]
    fn output_choices_are_dropped_and_meaning_kept() {
        let words: Vec<String> = "clang -std=gnu11 -Ilib -DX=1 -O2 -g -MD -MF dep.d -c src/cut.c -o src/cut.o -Werror -flto -fsanitize=address -include config.h"
            .split(' ')
            .map(String::from)
            .collect();
        assert_eq!(kept_flags(&words, "src/cut.c"), ["-std=gnu11", "-Ilib", "-DX=1", "-g", "-include", "config.h"]);
    }
}
