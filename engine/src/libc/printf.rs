//! The `printf` family's formatter, glibc-compatible for every integer, character, string,
//! pointer and floating-point conversion: `%d %i %u %x %X %o %c %s %p %%`, `%f %F %e %E %g %G
//! %a %A` (in [`float`]), flags `- 0 + space #`, field width and precision (both may be `*`),
//! length modifiers `hh h l ll z j t` (and `q` as `ll`), `L` for `long double`.
//!
//! The formatter knows nothing of memory: it asks a [`PrintfArgs`] for the next variadic
//! argument (raw 64 bits, as the caller passed it) and for the bytes of `%s` strings, so the
//! concrete interpreter and the symbolic engine (on concrete values) share it. `%n`, wide
//! characters and `%m` are refused through
//! [`PrintfArgs::unsupported`]; an unknown conversion character is printed literally, as glibc
//! does.

/// The widest field width or precision penumbra formats; a program asking for more (which
/// would print megabytes of padding) ends as unsupported instead of exhausting memory.
pub const MAX_FIELD: usize = 1 << 20;

/// The variadic arguments of a `printf`-family call `name`, taken in order: each interpreter's
/// [`PrintfArgs`] reads its values (register bits, terms) through one.
pub struct VarArgList<'x, T> {
    name: &'x str,
    values: &'x [T],
    next: usize,
}

impl<'x, T: Copy> VarArgList<'x, T> {
    pub fn new(name: &'x str, values: &'x [T]) -> Self {
        VarArgList { name, values, next: 0 }
    }

    /// The next argument, or the invalid-call message when the format wants more than were
    /// given.
    pub fn take(&mut self) -> Result<T, String> {
        let Some(&v) = self.values.get(self.next) else {
            return Err(format!("{}'s format needs more than the {} arguments given", self.name, self.values.len()));
        };
        self.next += 1;
        Ok(v)
    }
}

/// What the formatter needs from its caller.
pub trait PrintfArgs {
    type Error;
    /// The next variadic argument, zero-extended from its type to 64 bits; its value shows in
    /// the output (a number, a character, a width).
    fn next_arg(&mut self) -> Result<u64, Self::Error>;
    /// The next variadic argument as the address of a `%s` string: the string shows, not the
    /// address.
    fn next_string(&mut self) -> Result<u64, Self::Error> {
        self.next_arg()
    }
    /// The next variadic argument as a floating-point value: a `double`'s 64 bits, or with
    /// `long` (`%Lf`) a `long double`'s 80.
    fn next_float(&mut self, long: bool) -> Result<u128, Self::Error>;
    /// Appends the NUL-terminated string at `addr` (never null), at most `max` bytes of it.
    fn string(&mut self, addr: u64, max: Option<u64>, out: &mut Vec<u8>) -> Result<(), Self::Error>;
    /// The error for a conversion penumbra does not model (e.g. `%f`).
    fn unsupported(&mut self, what: String) -> Self::Error;
    /// The conversion `spec` (e.g. `%5d`) wrote `out[text]` from the arguments it took.
    fn converted(&mut self, _spec: &[u8], _text: std::ops::Range<usize>) {}
}

/// One parsed conversion specification.
#[derive(Clone, Copy, Debug, Default)]
struct Spec {
    left: bool,
    zero: bool,
    plus: bool,
    space: bool,
    alt: bool,
    width: usize,
    precision: Option<usize>,
    /// Argument width in bytes for integer conversions.
    bytes: u32,
}

impl Spec {
    /// The sign a signed conversion prints: `-`, or with the flags `+` or a space.
    fn sign(&self, negative: bool) -> &'static [u8] {
        if negative {
            b"-"
        } else if self.plus {
            b"+"
        } else if self.space {
            b" "
        } else {
            b""
        }
    }
}

/// Formats `fmt` (without its NUL) into `out`.
pub fn format<A: PrintfArgs>(fmt: &[u8], args: &mut A, out: &mut Vec<u8>) -> Result<(), A::Error> {
    let mut i = 0;
    while i < fmt.len() {
        let Some(pct) = fmt[i..].iter().position(|&b| b == b'%') else {
            out.extend_from_slice(&fmt[i..]);
            break;
        };
        out.extend_from_slice(&fmt[i..i + pct]);
        let start = i + pct;
        let text_start = out.len();
        i = start + 1;
        let mut spec = Spec { bytes: 4, ..Spec::default() };
        while let Some(&c) = fmt.get(i) {
            match c {
                b'-' => spec.left = true,
                b'0' => spec.zero = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'#' => spec.alt = true,
                _ => break,
            }
            i += 1;
        }
        if fmt.get(i) == Some(&b'*') {
            i += 1;
            let w = args.next_arg()? as u32 as i32;
            if w < 0 {
                spec.left = true;
            }
            spec.width = w.unsigned_abs() as usize;
        } else {
            spec.width = parse_number(fmt, &mut i);
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                i += 1;
                let p = args.next_arg()? as u32 as i32;
                spec.precision = (p >= 0).then_some(p as usize);
            } else {
                spec.precision = Some(parse_number(fmt, &mut i));
            }
        }
        if spec.width > MAX_FIELD || spec.precision.is_some_and(|p| p > MAX_FIELD) {
            return Err(args.unsupported("printf field width or precision above 1 MiB".into()));
        }
        let mut wide = false;
        let long_double = fmt.get(i) == Some(&b'L');
        match (fmt.get(i), fmt.get(i + 1)) {
            (Some(b'h'), Some(b'h')) => (spec.bytes, i) = (1, i + 2),
            (Some(b'h'), _) => (spec.bytes, i) = (2, i + 1),
            (Some(b'l'), Some(b'l')) => (spec.bytes, i) = (8, i + 2),
            (Some(b'l'), _) => (spec.bytes, wide, i) = (8, true, i + 1),
            (Some(b'z' | b'j' | b't' | b'L' | b'q'), _) => (spec.bytes, i) = (8, i + 1),
            _ => {}
        }
        let Some(&conv) = fmt.get(i) else {
            // A lone `%` at the end: glibc prints it as is.
            out.extend_from_slice(&fmt[start..]);
            break;
        };
        i += 1;
        match conv {
            b'd' | b'i' => {
                let v = sign_extend(args.next_arg()?, spec.bytes);
                let sign = spec.sign(v < 0);
                let digits = v.unsigned_abs().to_string().into_bytes();
                integer(out, &spec, sign, &digits, false);
            }
            b'u' | b'x' | b'X' | b'o' => {
                let v = zero_extend(args.next_arg()?, spec.bytes);
                let digits = match conv {
                    b'u' => v.to_string(),
                    b'x' => format!("{v:x}"),
                    b'X' => format!("{v:X}"),
                    _ => format!("{v:o}"),
                };
                let prefix: &[u8] = match conv {
                    b'x' if spec.alt && v != 0 => b"0x",
                    b'X' if spec.alt && v != 0 => b"0X",
                    _ => b"",
                };
                integer(out, &spec, prefix, digits.as_bytes(), conv == b'o' && spec.alt);
            }
            b'p' => {
                let v = args.next_arg()?;
                if v == 0 {
                    pad(out, &spec, b"(nil)", false);
                } else {
                    let digits = format!("{v:x}");
                    let sign: &[u8] = if spec.plus {
                        b"+0x"
                    } else if spec.space {
                        b" 0x"
                    } else {
                        b"0x"
                    };
                    integer(out, &spec, sign, digits.as_bytes(), false);
                }
            }
            b'c' if !wide => {
                let c = args.next_arg()? as u8;
                pad(out, &spec, &[c], false);
            }
            b's' if !wide => {
                let addr = args.next_string()?;
                let mut s = Vec::new();
                if addr == 0 {
                    // glibc prints "(null)" unless the precision is too small for it.
                    if spec.precision.is_none_or(|p| p >= 6) {
                        s.extend_from_slice(b"(null)");
                    }
                } else {
                    args.string(addr, spec.precision.map(|p| p as u64), &mut s)?;
                }
                pad(out, &spec, &s, false);
            }
            b'%' => out.push(b'%'),
            b'c' | b's' | b'C' | b'S' => return Err(args.unsupported("printf of wide characters".into())),
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                let bits = args.next_float(long_double)?;
                float::format(out, &spec, conv, bits, long_double);
            }
            b'n' => return Err(args.unsupported("printf conversion %n".into())),
            b'm' => return Err(args.unsupported("printf conversion %m".into())),
            _ => out.extend_from_slice(&fmt[start..i]),
        }
        args.converted(&fmt[start..i], text_start..out.len());
    }
    Ok(())
}

fn parse_number(fmt: &[u8], i: &mut usize) -> usize {
    let mut n: usize = 0;
    while let Some(&c @ b'0'..=b'9') = fmt.get(*i) {
        n = n.saturating_mul(10).saturating_add(usize::from(c - b'0'));
        *i += 1;
    }
    n
}

fn sign_extend(v: u64, bytes: u32) -> i64 {
    let shift = 64 - 8 * bytes;
    ((v << shift) as i64) >> shift
}

fn zero_extend(v: u64, bytes: u32) -> u64 {
    if bytes >= 8 {
        v
    } else {
        v & ((1u64 << (8 * bytes)) - 1)
    }
}

/// Emits an integer: `prefix` (sign and/or `0x`), the digits padded with zeros to the
/// precision, all padded to the width with spaces (or zeros after the prefix with `0` and no
/// precision). `octal_alt` makes sure the first digit is a zero (`%#o`).
fn integer(out: &mut Vec<u8>, spec: &Spec, prefix: &[u8], digits: &[u8], octal_alt: bool) {
    // Precision 0 with the value 0 prints no digits.
    let digits: &[u8] = if spec.precision == Some(0) && digits == b"0" { b"" } else { digits };
    let mut zeros = spec.precision.map_or(0, |p| p.saturating_sub(digits.len()));
    if octal_alt && zeros == 0 && digits.first() != Some(&b'0') {
        zeros = 1;
    }
    let len = prefix.len() + zeros + digits.len();
    let fill = spec.width.saturating_sub(len);
    if spec.left {
        out.extend_from_slice(prefix);
        out.resize(out.len() + zeros, b'0');
        out.extend_from_slice(digits);
        out.resize(out.len() + fill, b' ');
    } else if spec.zero && spec.precision.is_none() {
        out.extend_from_slice(prefix);
        out.resize(out.len() + zeros + fill, b'0');
        out.extend_from_slice(digits);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(prefix);
        out.resize(out.len() + zeros, b'0');
        out.extend_from_slice(digits);
    }
}

/// Pads `text` to the field width (spaces; `0` pads `%c` and `%s` with spaces too, as glibc).
fn pad(out: &mut Vec<u8>, spec: &Spec, text: &[u8], _zero: bool) {
    let fill = spec.width.saturating_sub(text.len());
    if spec.left {
        out.extend_from_slice(text);
        out.resize(out.len() + fill, b' ');
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(text);
    }
}

mod float;

/// A `double` as the shortest decimal that reads back to it, spelt as C prints the special
/// values (`nan`, `-nan`, `inf`, `-inf`, `-0`).
pub(crate) fn shortest(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    format!("{x:?}").trim_end_matches(".0").to_string()
}

/// A `long double` (its 80 bits) as `printf("%.21Lg")` prints it: enough digits to read back.
pub(crate) fn long_double_text(bits: u128) -> String {
    let mut out = Vec::new();
    let spec = Spec { precision: Some(21), ..Spec::default() };
    float::format(&mut out, &spec, b'g', bits, true);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests;
