//! The floating-point conversions of `printf` (`%f %F %e %E %g %G %a %A`, `L` for
//! `long double`), exactly as glibc prints them: from the value's exact decimal expansion (a
//! binary float is a finite decimal), rounded to the precision half to even (glibc follows the
//! rounding mode, which is to nearest), `inf`/`nan` with their sign (`-nan` for the x86
//! default NaN), and glibc's `%a` spelling (`0x1.8p+0` for doubles, the x87 significand's
//! first nibble for `long double`: `0x8p-3` is 1.0L).

use super::Spec;

/// A decoded value: sign and magnitude.
enum Magnitude {
    Nan,
    Inf,
    /// `significand * 2^exp2`; `significand == 0` for zero.
    Finite {
        significand: u64,
        exp2: i32,
    },
}

fn decode(bits: u128, long: bool) -> (bool, Magnitude) {
    if long {
        let negative = bits >> 79 & 1 == 1;
        let exp = (bits >> 64) as u32 & 0x7fff;
        let significand = bits as u64;
        let magnitude = match exp {
            0x7fff if significand << 1 == 0 => Magnitude::Inf,
            0x7fff => Magnitude::Nan,
            0 => Magnitude::Finite { significand, exp2: 1 - 16383 - 63 },
            e => Magnitude::Finite { significand, exp2: e as i32 - 16383 - 63 },
        };
        (negative, magnitude)
    } else {
        let bits = bits as u64;
        let negative = bits >> 63 == 1;
        let exp = (bits >> 52) as u32 & 0x7ff;
        let fraction = bits & ((1 << 52) - 1);
        let magnitude = match exp {
            0x7ff if fraction == 0 => Magnitude::Inf,
            0x7ff => Magnitude::Nan,
            0 => Magnitude::Finite { significand: fraction, exp2: -1074 },
            e => Magnitude::Finite { significand: fraction | 1 << 52, exp2: e as i32 - 1075 },
        };
        (negative, magnitude)
    }
}

/// Formats one floating-point conversion `conv` of the value `bits` (a `double`'s 64, or with
/// `long` a `long double`'s 80).
pub(super) fn format(out: &mut Vec<u8>, spec: &Spec, conv: u8, bits: u128, long: bool) {
    let upper = conv.is_ascii_uppercase();
    let (negative, magnitude) = decode(bits, long);
    let sign = spec.sign(negative);
    let (significand, exp2) = match magnitude {
        Magnitude::Nan | Magnitude::Inf => {
            let word: &[u8] = match (matches!(magnitude, Magnitude::Nan), upper) {
                (true, false) => b"nan",
                (true, true) => b"NAN",
                (false, false) => b"inf",
                (false, true) => b"INF",
            };
            let text = [sign, word].concat();
            let fill = spec.width.saturating_sub(text.len());
            emit(out, spec, b"", &text, fill, false);
            return;
        }
        Magnitude::Finite { significand, exp2 } => (significand, exp2),
    };
    let (prefix, body): (&[u8], Vec<u8>) = match conv.to_ascii_lowercase() {
        b'a' => (if upper { b"0X" } else { b"0x" }, hex(spec, significand, exp2, long, upper)),
        c => {
            let (digits, exp10) = exact_decimal(significand, exp2);
            let body = match c {
                b'f' => fixed(spec.alt, &digits, exp10, spec.precision.unwrap_or(6)),
                b'e' => scientific(spec.alt, &digits, exp10, spec.precision.unwrap_or(6), upper),
                _ => general(spec, &digits, exp10, upper),
            };
            (b"", body)
        }
    };
    let head = [sign, prefix].concat();
    let fill = spec.width.saturating_sub(head.len() + body.len());
    emit(out, spec, &head, &body, fill, spec.zero);
}

/// `head` (sign, `0x`), then `body`, padded with `fill` spaces (or zeros after the head).
fn emit(out: &mut Vec<u8>, spec: &Spec, head: &[u8], body: &[u8], fill: usize, zero: bool) {
    if spec.left {
        out.extend_from_slice(head);
        out.extend_from_slice(body);
        out.resize(out.len() + fill, b' ');
    } else if zero {
        out.extend_from_slice(head);
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(head);
        out.extend_from_slice(body);
    }
}

/// The exact decimal expansion of `significand * 2^exp2`: digits (ASCII, no leading zero, no
/// trailing zero; `"0"` for zero) and `exp10` with value = digits * 10^exp10.
fn exact_decimal(significand: u64, exp2: i32) -> (Vec<u8>, i32) {
    if significand == 0 {
        return (b"0".to_vec(), 0);
    }
    let mut n = Big::from(significand);
    let mut exp10 = 0;
    if exp2 >= 0 {
        n.shl(exp2 as u32);
    } else {
        // m / 2^k = m * 5^k / 10^k
        let mut k = -exp2 as u32;
        while k >= 13 {
            n.mul_small(5u32.pow(13));
            k -= 13;
        }
        n.mul_small(5u32.pow(k));
        exp10 = exp2;
    }
    let mut digits = n.into_decimal();
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
        exp10 += 1;
    }
    (digits, exp10)
}

/// The first `keep` digits of `digits` rounded half to even on the rest, padded with zeros
/// when shorter; `true` when rounding carried into a new leading digit (the result then has
/// `keep + 1` digits, `1` then zeros).
fn round_at(digits: &[u8], keep: usize) -> (Vec<u8>, bool) {
    if keep >= digits.len() {
        let mut v = digits.to_vec();
        v.resize(keep, b'0');
        return (v, false);
    }
    let mut kept = digits[..keep].to_vec();
    let rest = &digits[keep..];
    let up = match rest[0] {
        b'6'..=b'9' => true,
        b'5' => rest[1..].iter().any(|&d| d != b'0') || kept.last().is_some_and(|&d| (d - b'0') % 2 == 1),
        _ => false,
    };
    if !up {
        return (kept, false);
    }
    for d in kept.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return (kept, false);
        }
    }
    kept.insert(0, b'1');
    (kept, true)
}

/// `%f`: `precision` digits after the point.
fn fixed(alt: bool, digits: &[u8], exp10: i32, precision: usize) -> Vec<u8> {
    let scale = i64::from(exp10) + precision as i64;
    let mut r: Vec<u8> = if scale >= 0 {
        let mut v = digits.to_vec();
        v.resize(v.len() + scale as usize, b'0');
        v
    } else {
        let cut = (-scale) as usize;
        if cut > digits.len() {
            b"0".to_vec()
        } else {
            let (v, _) = round_at(digits, digits.len() - cut);
            if v.is_empty() {
                b"0".to_vec()
            } else {
                v
            }
        }
    };
    // Leading zeros (a zero value scaled up) go in one drain: `%.1000000f` of 0 is a long run.
    let leading = r.iter().take(r.len() - 1).take_while(|&&d| d == b'0').count();
    r.drain(..leading);
    if r.len() < precision + 1 {
        let mut padded = vec![b'0'; precision + 1 - r.len()];
        padded.extend_from_slice(&r);
        r = padded;
    }
    let point = r.len() - precision;
    let mut out = r[..point].to_vec();
    if precision > 0 || alt {
        out.push(b'.');
    }
    out.extend_from_slice(&r[point..]);
    out
}

/// The significant digits and decimal exponent of the value rounded to `count` significant
/// digits (`d.ddd * 10^x`).
fn significant(digits: &[u8], exp10: i32, count: usize) -> (Vec<u8>, i32) {
    if digits == b"0" {
        return (vec![b'0'; count], 0);
    }
    let mut x = digits.len() as i32 - 1 + exp10;
    let (mut r, carried) = round_at(digits, count);
    if carried {
        x += 1;
        r.truncate(count);
    }
    (r, x)
}

/// `%e`: one digit, the point, `precision` digits, the exponent (at least two digits).
fn scientific(alt: bool, digits: &[u8], exp10: i32, precision: usize, upper: bool) -> Vec<u8> {
    let (r, x) = significant(digits, exp10, precision + 1);
    let mut out = vec![r[0]];
    if precision > 0 || alt {
        out.push(b'.');
    }
    out.extend_from_slice(&r[1..]);
    out.push(if upper { b'E' } else { b'e' });
    out.push(if x < 0 { b'-' } else { b'+' });
    out.extend_from_slice(format!("{:02}", x.unsigned_abs()).as_bytes());
    out
}

/// `%g`: `%e` or `%f` by the exponent, trailing zeros removed unless `#`.
fn general(spec: &Spec, digits: &[u8], exp10: i32, upper: bool) -> Vec<u8> {
    let p = match spec.precision {
        None => 6,
        Some(0) => 1,
        Some(p) => p,
    };
    let (_, x) = significant(digits, exp10, p);
    let mut out = if (x as i64) < p as i64 && x >= -4 {
        fixed(spec.alt, digits, exp10, (p as i64 - 1 - x as i64) as usize)
    } else {
        scientific(spec.alt, digits, exp10, p - 1, upper)
    };
    if !spec.alt {
        let exp_at = out.iter().position(|&c| c == b'e' || c == b'E').unwrap_or(out.len());
        if out[..exp_at].contains(&b'.') {
            let mut end = exp_at;
            while out[end - 1] == b'0' {
                end -= 1;
            }
            if out[end - 1] == b'.' {
                end -= 1;
            }
            out.drain(end..exp_at);
        }
    }
    out
}

/// `%a` after the `0x`: glibc's hexadecimal spelling. A `double` prints its implicit leading
/// bit (`1.8p+0`, `0.0000000000001p-1022` for subnormals); a `long double` its significand's
/// first four bits then the other 60 (`8p-3` for 1.0L).
fn hex(spec: &Spec, significand: u64, exp2: i32, long: bool, upper: bool) -> Vec<u8> {
    // value = lead.fraction (in `frac_digits` hex digits) * 2^exp
    let (mut lead, mut fraction, frac_digits, mut exp) = if long {
        let exp = if significand == 0 { 0 } else { exp2 + 63 - 3 };
        (significand >> 60, significand & ((1 << 60) - 1), 15usize, exp)
    } else if significand == 0 {
        (0, 0, 13, 0)
    } else {
        (significand >> 52, significand & ((1 << 52) - 1), 13, exp2 + 52)
    };
    let mut shown = frac_digits;
    match spec.precision {
        Some(p) if p < frac_digits => {
            let drop_bits = 4 * (frac_digits - p) as u32;
            let rest = fraction & ((1u64 << drop_bits) - 1);
            let half = 1u64 << (drop_bits - 1);
            fraction >>= drop_bits;
            if rest > half || (rest == half && (fraction & 1 == 1 || (p == 0 && lead & 1 == 1))) {
                fraction += 1;
                if fraction >> (4 * p as u32) != 0 {
                    fraction = 0;
                    lead += 1;
                    if lead == 16 {
                        // A long double's nibble overflowed: glibc renormalises (0xf.f -> 0x1.0p+4).
                        lead = 1;
                        exp += 4;
                    }
                }
            }
            shown = p;
        }
        Some(_) => {}
        None => {
            while shown > 0 && fraction & 0xf == 0 {
                fraction >>= 4;
                shown -= 1;
            }
        }
    }
    let mut out = if upper { format!("{lead:X}") } else { format!("{lead:x}") }.into_bytes();
    let extra = spec.precision.map_or(0, |p| p.saturating_sub(frac_digits));
    if shown > 0 || extra > 0 || spec.alt {
        out.push(b'.');
    }
    if shown > 0 {
        let text = if upper { format!("{fraction:0shown$X}") } else { format!("{fraction:0shown$x}") };
        out.extend_from_slice(text.as_bytes());
    }
    out.resize(out.len() + extra, b'0');
    out.push(if upper { b'P' } else { b'p' });
    out.extend_from_slice(format!("{exp:+}").as_bytes());
    out
}

/// A little unsigned big integer (32-bit limbs, least significant first): just what exact
/// decimal expansion needs.
struct Big(Vec<u32>);

impl Big {
    fn from(v: u64) -> Big {
        Big(vec![v as u32, (v >> 32) as u32])
    }

    fn mul_small(&mut self, k: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(k) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn shl(&mut self, bits: u32) {
        let (limbs, rest) = ((bits / 32) as usize, bits % 32);
        if rest != 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let v = (*limb << rest) | carry;
                carry = *limb >> (32 - rest);
                *limb = v;
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    /// Decimal digits, most significant first.
    fn into_decimal(mut self) -> Vec<u8> {
        const CHUNK: u32 = 1_000_000_000;
        let mut chunks = Vec::new();
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        while !self.0.is_empty() {
            let mut rem = 0u64;
            for limb in self.0.iter_mut().rev() {
                let v = (rem << 32) | u64::from(*limb);
                *limb = (v / u64::from(CHUNK)) as u32;
                rem = v % u64::from(CHUNK);
            }
            chunks.push(rem as u32);
            while self.0.last() == Some(&0) {
                self.0.pop();
            }
        }
        let mut out = match chunks.pop() {
            Some(top) => top.to_string().into_bytes(),
            None => return b"0".to_vec(),
        };
        for c in chunks.iter().rev() {
            out.extend_from_slice(format!("{c:09}").as_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `conv` with `precision` on the `long double` of `bits`.
    fn long(conv: u8, precision: Option<usize>, bits: u128) -> String {
        let mut out = Vec::new();
        format(&mut out, &Spec { precision, ..Spec::default() }, conv, bits, true);
        String::from_utf8(out).unwrap()
    }

    /// glibc 2.36's output for the same `long double`s (checked natively): `%La` prints the
    /// x87 significand's first nibble, renormalising when rounding overflows it.
    #[test]
    fn long_doubles_print_as_glibc_prints_them() {
        let table: &[(u128, [&str; 5])] = &[
            (0x3FFF_8000_0000_0000_0000, ["0x8p-3", "0x8.00p-3", "0X8P-3", "1e+00", "1"]),
            (0xC000_B000_0000_0000_0000, ["-0xbp-2", "-0xb.00p-2", "-0XBP-2", "-3e+00", "-2.75"]),
            (
                0x3FFB_CCCC_CCCC_CCCC_CCCD,
                [
                    "0xc.ccccccccccccccdp-7",
                    "0xc.cdp-7",
                    "0XC.CCCCCCCCCCCCCCDP-7",
                    "1e-01",
                    "0.1000000000000000000013553",
                ],
            ),
            (
                0x7FFE_FFFF_FFFF_FFFF_FFFF,
                [
                    "0xf.fffffffffffffffp+16380",
                    "0x1.00p+16384",
                    "0XF.FFFFFFFFFFFFFFFP+16380",
                    "1e+4932",
                    "1.189731495357231765021264e+4932",
                ],
            ),
            (
                0x0000_0020_0000_0000_0000,
                ["0x0.02p-16385", "0x0.02p-16385", "0X0.02P-16385", "3e-4935", "3.283303850695403814709646e-4935"],
            ),
            (0, ["0x0p+0", "0x0.00p+0", "0X0P+0", "0e+00", "0"]),
        ];
        for &(bits, want) in table {
            let got = [
                long(b'a', None, bits),
                long(b'a', Some(2), bits),
                long(b'A', None, bits),
                long(b'e', Some(0), bits),
                long(b'g', Some(25), bits),
            ];
            assert_eq!(got, want, "{bits:#x}");
        }
    }
}
