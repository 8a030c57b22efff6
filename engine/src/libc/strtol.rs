//! `strtol`/`strtoul` (and through them `atoi`, `atol`, `strtoll`, `strtoull`) with glibc's
//! semantics for 64-bit `long`: leading white space, an optional sign, the `0x`/`0` prefixes
//! of bases 16 and 0, saturation on overflow (`LONG_MAX`, `LONG_MIN`, `ULONG_MAX`, with
//! `ERANGE`), and an end offset of 0 when no digits were read.
//!
//! Bytes are fetched one at a time through a callback, in order, never past the first byte
//! that ends the number, so a caller's bounds checks see exactly the bytes glibc would read.

use super::ctype::is_space;

/// The result of a parse.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The value as the C function returns it (two's complement for `strtol`).
    pub value: u64,
    /// How many bytes the number spans from the start of the string (`*endptr - nptr`);
    /// 0 when no digits were found.
    pub end: u64,
    /// The value did not fit: `errno` becomes `ERANGE`.
    pub overflow: bool,
    /// The base was neither 0 nor in `2..=36`: `errno` becomes `EINVAL`.
    pub invalid_base: bool,
}

/// Whether the result is a `long` (`strtol`) or an `unsigned long` (`strtoul`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Signedness {
    Signed,
    Unsigned,
}

fn digit_value(b: u8) -> u32 {
    match b {
        b'0'..=b'9' => u32::from(b - b'0'),
        b'a'..=b'z' => u32::from(b - b'a') + 10,
        b'A'..=b'Z' => u32::from(b - b'A') + 10,
        _ => u32::MAX,
    }
}

/// Parses the number at the start of a string whose `i`-th byte is `byte(i)`.
pub fn parse<E>(mut byte: impl FnMut(u64) -> Result<u8, E>, base: i32, signedness: Signedness) -> Result<Parsed, E> {
    let none = Parsed { value: 0, end: 0, overflow: false, invalid_base: false };
    if base != 0 && !(2..=36).contains(&base) {
        return Ok(Parsed { invalid_base: true, ..none });
    }
    let mut base = base as u32;
    let mut i = 0u64;
    let mut c = byte(i)?;
    while is_space(c) {
        i += 1;
        c = byte(i)?;
    }
    let negative = c == b'-';
    if c == b'-' || c == b'+' {
        i += 1;
        c = byte(i)?;
    }
    if (base == 0 || base == 16) && c == b'0' {
        let x = byte(i + 1)?;
        if x == b'x' || x == b'X' {
            base = 16;
            // "0x" counts as a prefix only when a hex digit follows; otherwise the number is
            // the "0" alone and parsing ends at the 'x'.
            if digit_value(byte(i + 2)?) < 16 {
                i += 2;
                c = byte(i)?;
            }
        } else if base == 0 {
            base = 8;
        }
    } else if base == 0 {
        base = 10;
    }
    let limit: u64 = match (signedness, negative) {
        (Signedness::Signed, false) => i64::MAX as u64,
        (Signedness::Signed, true) => 1 << 63,
        (Signedness::Unsigned, _) => u64::MAX,
    };
    let start = i;
    let mut value: u64 = 0;
    let mut overflow = false;
    loop {
        let d = digit_value(c);
        if d >= base {
            break;
        }
        match value.checked_mul(u64::from(base)).and_then(|v| v.checked_add(u64::from(d))) {
            Some(v) if v <= limit => value = v,
            _ => overflow = true,
        }
        i += 1;
        c = byte(i)?;
    }
    if i == start {
        return Ok(none);
    }
    let value = if overflow {
        match (signedness, negative) {
            (Signedness::Signed, false) => i64::MAX as u64,
            (Signedness::Signed, true) => i64::MIN as u64,
            (Signedness::Unsigned, _) => u64::MAX,
        }
    } else if negative {
        value.wrapping_neg()
    } else {
        value
    };
    Ok(Parsed { value, end: i, overflow, invalid_base: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strtol(s: &str, base: i32) -> (i64, u64, bool) {
        let bytes = s.as_bytes();
        let p = parse::<()>(|i| Ok(bytes.get(i as usize).copied().unwrap_or(0)), base, Signedness::Signed).unwrap();
        (p.value as i64, p.end, p.overflow)
    }

    fn strtoul(s: &str, base: i32) -> (u64, u64, bool) {
        let bytes = s.as_bytes();
        let p = parse::<()>(|i| Ok(bytes.get(i as usize).copied().unwrap_or(0)), base, Signedness::Unsigned).unwrap();
        (p.value, p.end, p.overflow)
    }

    /// Expected values checked against glibc 2.36 (see harness/tests/corpus/strings_strtol.c).
    #[test]
    fn strtol_matches_glibc() {
        assert_eq!(strtol("12345", 10), (12345, 5, false));
        assert_eq!(strtol("-42abc", 10), (-42, 3, false));
        assert_eq!(strtol("   +17", 10), (17, 6, false));
        assert_eq!(strtol("0x1F", 16), (31, 4, false));
        assert_eq!(strtol("0x1F", 0), (31, 4, false));
        assert_eq!(strtol("1F", 16), (31, 2, false));
        assert_eq!(strtol("0755", 0), (493, 4, false));
        assert_eq!(strtol("1019", 8), (0o101, 3, false));
        assert_eq!(strtol("101101", 2), (45, 6, false));
        assert_eq!(strtol("zz", 36), (1295, 2, false));
        assert_eq!(strtol("xyz", 10), (0, 0, false));
        assert_eq!(strtol("", 10), (0, 0, false));
        assert_eq!(strtol("  -", 10), (0, 0, false));
        assert_eq!(strtol("-0", 10), (0, 2, false));
        assert_eq!(strtol("0x", 0), (0, 1, false));
        assert_eq!(strtol("0xg", 16), (0, 1, false));
        assert_eq!(strtol("9223372036854775807", 10), (i64::MAX, 19, false));
        assert_eq!(strtol("9223372036854775808", 10), (i64::MAX, 19, true));
        assert_eq!(strtol("-9223372036854775808", 10), (i64::MIN, 20, false));
        assert_eq!(strtol("-99999999999999999999x", 10), (i64::MIN, 21, true));
    }

    #[test]
    fn strtoul_wraps_negatives_and_saturates() {
        assert_eq!(strtoul("-1", 10), (u64::MAX, 2, false));
        assert_eq!(strtoul("18446744073709551615", 10), (u64::MAX, 20, false));
        assert_eq!(strtoul("18446744073709551616", 10), (u64::MAX, 20, true));
        assert_eq!(strtoul("ff", 16), (255, 2, false));
    }

    #[test]
    fn invalid_base_reads_nothing() {
        let p = parse::<()>(|_| panic!("no byte may be read"), 1, Signedness::Signed).unwrap();
        assert!(p.invalid_base);
        assert_eq!(p.end, 0);
    }
}
