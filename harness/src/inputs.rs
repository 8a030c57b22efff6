//! Parsing `--input NAME=VALUE` into the bytes of a symbolic object.
//!
//! Integers are stored as 8 little-endian bytes of their two's complement, so truncation to a
//! smaller object keeps the value (`-1` in a 4-byte `int` is `ff ff ff ff`).

use anyhow::{bail, Context, Result};
use penumbra_engine::concrete::SymbolicObject;
use penumbra_engine::output::testgen::hex_bytes;
use std::collections::BTreeMap;

/// Parses all `--input` flags; a name given twice is an error.
pub fn parse_inputs(flags: &[String]) -> Result<BTreeMap<String, Vec<u8>>> {
    let mut out = BTreeMap::new();
    for flag in flags {
        let (name, value) = parse_one(flag)?;
        if out.insert(name.clone(), value).is_some() {
            bail!("--input {name} is given twice");
        }
    }
    Ok(out)
}

fn parse_one(flag: &str) -> Result<(String, Vec<u8>)> {
    let Some((name, value)) = flag.split_once('=') else {
        bail!("--input expects NAME=VALUE, got `{flag}`");
    };
    if name.is_empty() {
        bail!("--input `{flag}` has an empty name");
    }
    Ok((name.to_string(), parse_value(value).with_context(|| format!("in --input {flag}"))?))
}

/// The bytes of one value: an integer, `hex:BYTES` or `str:TEXT`.
pub fn parse_value(value: &str) -> Result<Vec<u8>> {
    if let Some(hex) = value.strip_prefix("hex:") {
        return parse_hex(hex);
    }
    if let Some(text) = value.strip_prefix("str:") {
        return Ok(text.as_bytes().to_vec());
    }
    Ok(parse_int(value)?.to_le_bytes().to_vec())
}

fn parse_int(s: &str) -> Result<i64> {
    let (negative, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let magnitude = if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16)
    } else {
        digits.parse::<u64>()
    }
    .with_context(|| format!("`{s}` is not an integer, hex:BYTES or str:TEXT"))?;
    if negative {
        if magnitude > 1u64 << 63 {
            bail!("`{s}` is below the 64-bit range");
        }
        Ok((magnitude as i64).wrapping_neg())
    } else {
        Ok(magnitude as i64)
    }
}

fn parse_hex(hex: &str) -> Result<Vec<u8>> {
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("hex:{hex} is not hexadecimal");
    }
    hex_bytes(hex).with_context(|| format!("hex:{hex} has an odd number of digits"))
}

/// Refuses a `--input NAME=hex:BYTES` whose bytes are not as many as its object's (among
/// `made`, the objects a run made): `hex:` gives all of an object's bytes, as a test file
/// does, and is held to the same size. (Integers are sized by their value, strings padded.)
pub fn check_hex_sizes(flags: &[String], made: &[SymbolicObject]) -> Result<()> {
    for flag in flags {
        let Some((name, hex)) = flag.split_once('=').and_then(|(n, v)| Some((n, v.strip_prefix("hex:")?))) else {
            continue;
        };
        // `x#1` is the second object named `x`, as in test files.
        let (base, occurrence) = match name.split_once('#') {
            Some((base, n)) => (base, n.parse().unwrap_or(0)),
            None => (name, 0),
        };
        // A name the program does not make is refused elsewhere, with the names it makes.
        let Some(object) = made.iter().filter(|m| m.name == base).nth(occurrence) else { continue };
        let given = hex.len() / 2;
        if given != object.bytes.len() {
            bail!(
                "object '{name}' has {given} bytes in --input {flag}; the program makes it with {}",
                object.bytes.len()
            );
        }
    }
    Ok(())
}

/// `--sym-files COUNT SIZE` as the engine takes it (files A to Z at most).
pub fn sym_files(values: Option<&[u32]>) -> Result<Option<(u32, u32)>> {
    match values {
        None => Ok(None),
        Some(&[count, size]) if count <= 26 => Ok(Some((count, size))),
        Some(&[count, _]) => bail!("--sym-files {count}: at most 26 files (A to Z)"),
        Some(other) => bail!("--sym-files takes COUNT and SIZE, got {} values", other.len()),
    }
}

/// One input as the reports show it: the symbolic argv and stdin objects (`arg00`, ...,
/// `stdin`) as `name=str:TEXT` when they hold printable text, integer-sized objects (1, 2, 4
/// or 8 bytes) as `name=VALUE` (little-endian signed), others as `name=hex:BYTES` — the
/// spellings `--input` and `--seed` accept back.
pub fn show_input(name: &str, bytes: &[u8]) -> String {
    let is_text_object =
        name == "stdin" || name.strip_prefix("arg").is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
    if is_text_object {
        // An argument ends at its NUL; stdin's bytes are all data.
        let text_len =
            if name == "stdin" { bytes.len() } else { bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len()) };
        let (text, rest) = bytes.split_at(text_len);
        if rest.iter().all(|&b| b == 0) && text.iter().all(|&b| b.is_ascii_graphic() || b == b' ') {
            return format!("{name}=str:{}", String::from_utf8_lossy(text));
        }
    }
    match penumbra_engine::output::ktest::le_int(bytes) {
        Some(v) => format!("{name}={v}"),
        None => format!("{name}=hex:{}", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_eight_little_endian_bytes() {
        assert_eq!(parse_value("1").unwrap(), vec![1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(parse_value("-1").unwrap(), vec![0xff; 8]);
        assert_eq!(parse_value("0x102").unwrap(), vec![2, 1, 0, 0, 0, 0, 0, 0]);
        assert_eq!(parse_value("-9223372036854775808").unwrap(), vec![0, 0, 0, 0, 0, 0, 0, 0x80]);
        assert!(parse_value("-9223372036854775809").is_err());
        assert_eq!(parse_value("18446744073709551615").unwrap(), vec![0xff; 8]);
    }

    #[test]
    fn hex_and_str_values() {
        assert_eq!(parse_value("hex:00ff10").unwrap(), vec![0, 0xff, 0x10]);
        assert_eq!(parse_value("str:hi").unwrap(), b"hi".to_vec());
        assert!(parse_value("hex:0").is_err());
        assert!(parse_value("hex:zz").is_err());
        assert!(parse_value("hex:é0").is_err(), "non-ASCII digits are rejected, not sliced");
        assert!(parse_value("twelve").is_err());
    }

    #[test]
    fn flags_need_a_name_and_are_unique() {
        let ok = parse_inputs(&["x=5".into(), "s=str:ab".into()]).unwrap();
        assert_eq!(ok["x"][0], 5);
        assert_eq!(ok["s"], b"ab".to_vec());
        assert!(parse_inputs(&["x".into()]).is_err());
        assert!(parse_inputs(&["=3".into()]).is_err());
        assert!(parse_inputs(&["x=1".into(), "x=2".into()]).is_err());
    }
}
