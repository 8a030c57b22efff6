//! Formatting tables. Expected strings are glibc 2.36's output for the same calls (checked
//! natively; the integration tests compare a larger table against a compiled C program).

use super::*;

/// Arguments: integers as given, strings at fake addresses `1000 + i`.
struct Mock {
    args: Vec<u64>,
    next: usize,
    strings: Vec<&'static [u8]>,
}

#[derive(Debug, PartialEq)]
enum MockError {
    Missing,
    Unsupported(String),
}

impl PrintfArgs for Mock {
    type Error = MockError;
    fn next_arg(&mut self) -> Result<u64, MockError> {
        let v = self.args.get(self.next).copied().ok_or(MockError::Missing)?;
        self.next += 1;
        Ok(v)
    }
    fn next_float(&mut self, _long: bool) -> Result<u128, MockError> {
        self.next_arg().map(u128::from)
    }
    fn string(&mut self, addr: u64, max: Option<u64>, out: &mut Vec<u8>) -> Result<(), MockError> {
        let s = self.strings[(addr - 1000) as usize];
        let n = s.iter().position(|&b| b == 0).unwrap_or(s.len());
        let n = max.map_or(n, |m| n.min(m as usize));
        out.extend_from_slice(&s[..n]);
        Ok(())
    }
    fn unsupported(&mut self, what: String) -> MockError {
        MockError::Unsupported(what)
    }
}

fn fmt_with(fmt: &str, args: &[u64], strings: &[&'static [u8]]) -> Result<String, MockError> {
    let mut mock = Mock { args: args.to_vec(), next: 0, strings: strings.to_vec() };
    let mut out = Vec::new();
    format(fmt.as_bytes(), &mut mock, &mut out)?;
    Ok(String::from_utf8(out).unwrap())
}

fn f(fmt: &str, args: &[u64]) -> String {
    fmt_with(fmt, args, &[]).unwrap()
}

fn int(v: i32) -> u64 {
    v as u32 as u64
}

#[test]
fn signed_and_unsigned_integers() {
    let table: &[(&str, &[u64], &str)] = &[
        ("%d", &[int(-42)], "-42"),
        ("%i", &[int(i32::MIN)], "-2147483648"),
        ("%u", &[int(-1)], "4294967295"),
        ("%x", &[int(-1)], "ffffffff"),
        ("%X", &[0xabc], "ABC"),
        ("%o", &[8], "10"),
        ("%ld", &[u64::MAX], "-1"),
        ("%lld", &[1 << 63], "-9223372036854775808"),
        ("%lu", &[u64::MAX], "18446744073709551615"),
        ("%zu", &[u64::MAX], "18446744073709551615"),
        ("%jd", &[-7i64 as u64], "-7"),
        ("%td", &[-8i64 as u64], "-8"),
        ("%llx", &[0xdead_beef_0000_0001], "deadbeef00000001"),
        ("%hhd", &[300], "44"),
        ("%hd", &[70000], "4464"),
        ("%hhu", &[int(-1)], "255"),
        ("%hx", &[int(-1)], "ffff"),
        ("%d", &[0x1_0000_0005], "5"),
    ];
    for (fmt, args, want) in table {
        assert_eq!(f(fmt, args), *want, "{fmt}");
    }
}

#[test]
fn flags_width_and_precision() {
    let table: &[(&str, &[u64], &str)] = &[
        ("[%5d]", &[42], "[   42]"),
        ("[%-5d]", &[42], "[42   ]"),
        ("[%05d]", &[int(-42)], "[-0042]"),
        ("[%+d]", &[5], "[+5]"),
        ("[% d]", &[5], "[ 5]"),
        ("[% d]", &[int(-5)], "[-5]"),
        ("[%+ d]", &[5], "[+5]"),
        ("[% 05d]", &[3], "[ 0003]"),
        ("[%-+5d]", &[int(-5)], "[-5   ]"),
        ("[%-05d]", &[42], "[42   ]"),
        ("[%.3d]", &[7], "[007]"),
        ("[%08.3d]", &[7], "[     007]"),
        ("[%.0d]", &[0], "[]"),
        ("[%+.0d]", &[0], "[+]"),
        ("[%5.0d]", &[0], "[     ]"),
        ("[%#x]", &[255], "[0xff]"),
        ("[%#X]", &[255], "[0XFF]"),
        ("[%#x]", &[0], "[0]"),
        ("[%#08x]", &[255], "[0x0000ff]"),
        ("[%#08x]", &[0], "[00000000]"),
        ("[%#o]", &[8], "[010]"),
        ("[%#o]", &[0], "[0]"),
        ("[%#.0o]", &[0], "[0]"),
        ("[%#.3o]", &[8], "[010]"),
        ("[%02x]", &[5], "[05]"),
        ("[%08x]", &[0xbeef], "[0000beef]"),
        ("[%-8x]", &[0xbeef], "[beef    ]"),
        ("[%*d]", &[5, 42], "[   42]"),
        ("[%-*d]", &[4, 3], "[3   ]"),
        ("[%*d]", &[int(-4), 3], "[3   ]"),
        ("[%.*d]", &[3, 7], "[007]"),
        ("[%.*d]", &[int(-3), 7], "[7]"),
        ("[%*.*d]", &[6, 3, 7], "[   007]"),
        ("[%2d]", &[12345], "[12345]"),
    ];
    for (fmt, args, want) in table {
        assert_eq!(f(fmt, args), *want, "{fmt}");
    }
}

#[test]
fn characters_strings_pointers_and_percent() {
    let strings: &[&'static [u8]] = &[b"hello\0", b"hi\0"];
    let s = |fmt: &str, args: &[u64]| fmt_with(fmt, args, strings).unwrap();
    assert_eq!(s("%s, %s!", &[1000, 1001]), "hello, hi!");
    assert_eq!(s("[%10s]", &[1001]), "[        hi]");
    assert_eq!(s("[%-6s]", &[1001]), "[hi    ]");
    assert_eq!(s("[%05s]", &[1001]), "[   hi]");
    assert_eq!(s("[%.3s]", &[1000]), "[hel]");
    assert_eq!(s("[%5.1s]", &[1000]), "[    h]");
    assert_eq!(s("[%.*s]", &[2, 1000]), "[he]");
    assert_eq!(s("[%s]", &[0]), "[(null)]");
    assert_eq!(s("[%8s]", &[0]), "[  (null)]");
    assert_eq!(s("[%.2s]", &[0]), "[]");
    assert_eq!(s("[%c%c]", &[u64::from(b'a'), 0x141]), "[aA]");
    assert_eq!(s("[%3c]", &[u64::from(b'z')]), "[  z]");
    assert_eq!(s("[%-3c]", &[u64::from(b'z')]), "[z  ]");
    assert_eq!(s("%p", &[0x1234]), "0x1234");
    assert_eq!(s("[%10p]", &[0x1234]), "[    0x1234]");
    assert_eq!(s("[%-10p]", &[0x1234]), "[0x1234    ]");
    assert_eq!(s("[%020p]", &[0x1234]), "[0x000000000000001234]");
    assert_eq!(s("[%.3p]", &[0x10]), "[0x010]");
    assert_eq!(s("[%+5p]", &[0x1234]), "[+0x1234]");
    assert_eq!(s("[%p]", &[0]), "[(nil)]");
    assert_eq!(s("[%7p]", &[0]), "[  (nil)]");
    assert_eq!(s("100%%", &[]), "100%");
    assert_eq!(s("[%5%]", &[]), "[%]");
    assert_eq!(s("[%y]", &[]), "[%y]");
    assert_eq!(s("ends with %", &[]), "ends with %");
    assert_eq!(s("no conversions", &[]), "no conversions");
}

/// Floating-point conversions (arguments are a double's bits; the table's strings are glibc
/// 2.36's output, checked natively, as the corpus checks many more).
#[test]
fn floating_point_conversions() {
    let d = |x: f64| x.to_bits();
    assert_eq!(f("[%f|%.0f|%.0f|%#.0f]", &[d(0.1), d(0.5), d(2.5), d(3.0)]), "[0.100000|0|2|3.]");
    assert_eq!(
        f("[%e|%.2E|%g|%g|%.3g]", &[d(1234.5), d(-0.000999), d(1e-5), d(100000.0), d(2.0 / 3.0)]),
        "[1.234500e+03|-9.99E-04|1e-05|100000|0.667]"
    );
    assert_eq!(
        f("[%a|%A|%.1a|%a]", &[d(1.0), d(-0.1), d(1.96875), d(5e-324)]),
        "[0x1p+0|-0X1.999999999999AP-4|0x2.0p+0|0x0.0000000000001p-1022]"
    );
    assert_eq!(
        f("[%08.2f|%-8.1f|%+.3e|% g]", &[d(-1.5), d(2.25), d(0.0), d(7.0)]),
        "[-0001.50|2.2     |+0.000e+00| 7]"
    );
    let nan = 0xFFF8_0000_0000_0000;
    assert_eq!(
        f("[%f|%5F|%e|%010g]", &[nan, d(f64::INFINITY), d(f64::NEG_INFINITY), d(f64::NAN)]),
        "[-nan|  INF|-inf|       nan]"
    );
    assert_eq!(f("[%.30f]", &[d(0.1)]), "[0.100000000000000005551115123126]");
}

#[test]
fn unsupported_conversions_and_missing_arguments() {
    assert_eq!(fmt_with("%f %f", &[0], &[]), Err(MockError::Missing));
    assert_eq!(fmt_with("%n", &[0], &[]), Err(MockError::Unsupported("printf conversion %n".into())));
    assert_eq!(fmt_with("%ls", &[0], &[]), Err(MockError::Unsupported("printf of wide characters".into())));
    assert_eq!(fmt_with("%d %d", &[1], &[]), Err(MockError::Missing));
    let huge = Err(MockError::Unsupported("printf field width or precision above 1 MiB".into()));
    assert_eq!(fmt_with("%99999999999999999999d", &[1], &[]), huge);
    assert_eq!(fmt_with("%.2000000d", &[1], &[]), huge);
    assert_eq!(fmt_with("%*d", &[i32::MIN as u32 as u64, 1], &[]), huge);
    assert_eq!(f("%1048576d", &[1]).len(), 1 << 20);
}
