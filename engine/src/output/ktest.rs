//! KLEE-compatible `.ktest` files: the test inputs penumbra writes, and reads back for replay.
//!
//! Layout (all integers big-endian `u32`): magic `KTEST`, version (3), the argument count and
//! each argument as (length, bytes), `sym_argvs`, `sym_argv_len`, the object count, and each
//! object as (name length, name, size, bytes). Version 1 files (no `sym_argv*` fields) and the
//! old `BOUT\n` magic are read too, as KLEE does. Objects keep creation order and may repeat
//! names; `ktest-tool` reads what this module writes.

use std::fmt;

/// One symbolic object: its name and bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KTestObject {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// A test: the program arguments and the symbolic objects in order of creation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KTest {
    pub args: Vec<String>,
    pub sym_argvs: u32,
    pub sym_argv_len: u32,
    pub objects: Vec<KTestObject>,
}

/// Why a file is not a readable `.ktest`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KTestError {
    #[error("not a .ktest file (bad magic)")]
    BadMagic,
    #[error("unsupported .ktest version {0}")]
    BadVersion(u32),
    #[error("truncated .ktest file: {0} is incomplete")]
    Truncated(&'static str),
    #[error("{what} of {len} bytes exceeds the {remaining} bytes left in the file")]
    TooLong { what: &'static str, len: u32, remaining: usize },
    #[error("{0} bytes of trailing data after the last object")]
    TrailingData(usize),
}

const MAGIC: &[u8; 5] = b"KTEST";
const OLD_MAGIC: &[u8; 5] = b"BOUT\n";
const VERSION: u32 = 3;

impl KTest {
    /// Serialises in KLEE's version-3 format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, VERSION);
        put_u32(&mut out, self.args.len() as u32);
        for arg in &self.args {
            put_bytes(&mut out, arg.as_bytes());
        }
        put_u32(&mut out, self.sym_argvs);
        put_u32(&mut out, self.sym_argv_len);
        put_u32(&mut out, self.objects.len() as u32);
        for object in &self.objects {
            put_bytes(&mut out, object.name.as_bytes());
            put_bytes(&mut out, &object.bytes);
        }
        out
    }

    /// Parses a `.ktest` file's contents; never panics, whatever the bytes.
    pub fn from_bytes(data: &[u8]) -> Result<KTest, KTestError> {
        let mut r = Reader { data, pos: 0 };
        let magic = r.take(5, "magic")?;
        if magic != MAGIC && magic != OLD_MAGIC {
            return Err(KTestError::BadMagic);
        }
        let version = r.u32("version")?;
        if version == 0 || version > VERSION {
            return Err(KTestError::BadVersion(version));
        }
        let mut test = KTest::default();
        let num_args = r.u32("argument count")?;
        for _ in 0..num_args {
            test.args.push(String::from_utf8_lossy(r.bytes("argument")?).into_owned());
        }
        if version >= 2 {
            test.sym_argvs = r.u32("sym_argvs")?;
            test.sym_argv_len = r.u32("sym_argv_len")?;
        }
        let num_objects = r.u32("object count")?;
        for _ in 0..num_objects {
            let name = String::from_utf8_lossy(r.bytes("object name")?).into_owned();
            let bytes = r.bytes("object bytes")?.to_vec();
            test.objects.push(KTestObject { name, bytes });
        }
        if r.pos != data.len() {
            return Err(KTestError::TrailingData(data.len() - r.pos));
        }
        Ok(test)
    }
}

impl fmt::Display for KTest {
    /// The same listing as KLEE's `ktest-tool`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "args       : {:?}", self.args)?;
        writeln!(f, "num objects: {}", self.objects.len())?;
        for (i, o) in self.objects.iter().enumerate() {
            writeln!(f, "object {i}: name: {:?}", o.name)?;
            writeln!(f, "object {i}: size: {}", o.bytes.len())?;
            let hex: String = o.bytes.iter().map(|b| format!("{b:02x}")).collect();
            writeln!(f, "object {i}: hex : 0x{hex}")?;
            if let Some(int) = le_int(&o.bytes) {
                writeln!(f, "object {i}: int : {int}")?;
            }
        }
        Ok(())
    }
}

/// The little-endian signed value of 1, 2, 4 or 8 bytes (the `int` of test inputs).
pub fn le_int(bytes: &[u8]) -> Option<i64> {
    Some(match bytes.len() {
        1 => bytes[0] as i8 as i64,
        2 => i16::from_le_bytes([bytes[0], bytes[1]]) as i64,
        4 => i32::from_le_bytes(bytes.try_into().ok()?) as i64,
        8 => i64::from_le_bytes(bytes.try_into().ok()?),
        _ => return None,
    })
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_u32(out, bytes.len() as u32);
    out.extend_from_slice(bytes);
}

struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], KTestError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.data.len()).ok_or(KTestError::Truncated(what))?;
        let s = &self.data[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, KTestError> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn bytes(&mut self, what: &'static str) -> Result<&'a [u8], KTestError> {
        let len = self.u32(what)?;
        let remaining = self.data.len() - self.pos;
        if len as usize > remaining {
            return Err(KTestError::TooLong { what, len, remaining });
        }
        self.take(len as usize, what)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> KTest {
        KTest {
            args: vec!["prog".into(), "-n".into()],
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: vec![
                KTestObject { name: "x".into(), bytes: vec![0xff, 0xff, 0xff, 0xff] },
                KTestObject { name: "x".into(), bytes: vec![5] },
            ],
        }
    }

    #[test]
    fn writes_klee_version_3_layout() {
        let bytes = KTest {
            args: vec![],
            objects: vec![KTestObject { name: "n".into(), bytes: vec![4, 0, 0, 0] }],
            ..Default::default()
        }
        .to_bytes();
        let expected: Vec<u8> = [
            &b"KTEST"[..],
            &[0, 0, 0, 3],             // version
            &[0, 0, 0, 0],             // no args
            &[0, 0, 0, 0, 0, 0, 0, 0], // sym_argvs, sym_argv_len
            &[0, 0, 0, 1],             // one object
            &[0, 0, 0, 1],
            b"n", // name
            &[0, 0, 0, 4],
            &[4, 0, 0, 0],
        ]
        .concat();
        assert_eq!(bytes, expected);
    }

    #[test]
    fn round_trips_and_keeps_duplicate_names_in_order() {
        let t = sample();
        assert_eq!(KTest::from_bytes(&t.to_bytes()), Ok(t));
    }

    #[test]
    fn reads_version_1_without_sym_argv_fields() {
        let mut v1 = b"BOUT\n".to_vec();
        v1.extend_from_slice(&[0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, b'c', 0, 0, 0, 1, 7]);
        let t = KTest::from_bytes(&v1).unwrap();
        assert_eq!(t.objects, vec![KTestObject { name: "c".into(), bytes: vec![7] }]);
    }

    #[test]
    fn rejects_malformed_files_without_panicking() {
        let good = sample().to_bytes();
        assert_eq!(KTest::from_bytes(b""), Err(KTestError::Truncated("magic")));
        assert_eq!(KTest::from_bytes(b"NOTKT\0\0\0\x03"), Err(KTestError::BadMagic));
        for cut in 0..good.len() {
            assert!(KTest::from_bytes(&good[..cut]).is_err(), "prefix of {cut} bytes accepted");
        }
        let mut long = good.clone();
        long.push(0);
        assert_eq!(KTest::from_bytes(&long), Err(KTestError::TrailingData(1)));
        let mut huge = good[..17].to_vec(); // magic, version, 1 arg count... then a giant length
        huge[9..13].copy_from_slice(&[0, 0, 0, 1]);
        huge.extend_from_slice(&[0xff, 0xff, 0xff, 0xff]);
        assert!(matches!(KTest::from_bytes(&huge), Err(KTestError::TooLong { .. } | KTestError::Truncated(_))));
    }

    #[test]
    fn little_endian_ints_of_common_sizes() {
        assert_eq!(le_int(&[0xff]), Some(-1));
        assert_eq!(le_int(&[0x9c, 0xff, 0xff, 0xff]), Some(-100));
        assert_eq!(le_int(&[1, 0]), Some(1));
        assert_eq!(le_int(&[1, 2, 3]), None);
    }

    #[test]
    fn display_matches_ktest_tool() {
        let text = sample().to_string();
        assert!(text.contains("object 0: hex : 0xffffffff\nobject 0: int : -1\n"), "{text}");
        assert!(text.contains("object 1: name: \"x\"\n"), "{text}");
    }
}
