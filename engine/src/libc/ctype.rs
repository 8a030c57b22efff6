//! `<ctype.h>` in glibc's C locale. Arguments are C `int`s: `EOF` (-1) and values outside
//! `0..=255` belong to no class, and bytes above 127 are in no class either. `toupper` and
//! `tolower` change letters only, except that, like glibc's tables, they map a negative
//! `signed char` value `-128..=-2` to the same byte as an `unsigned char` (`toupper(-100)` is
//! 156).
//!
//! glibc's `<ctype.h>` macros read tables through `__ctype_b_loc()`, `__ctype_toupper_loc()`
//! and `__ctype_tolower_loc()`; [`class_mask`] and [`toupper`]/[`tolower`] give their entries
//! for indices `-128..=255`.

/// The classification functions penumbra models.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Digit,
    XDigit,
    Space,
    Alpha,
    Alnum,
    Upper,
    Lower,
    Print,
    Graph,
    Punct,
    Cntrl,
    Blank,
}

impl Class {
    /// The class tested by the C function `name` (`isdigit` -> `Digit`).
    pub fn from_function(name: &str) -> Option<Class> {
        Some(match name {
            "isdigit" => Class::Digit,
            "isxdigit" => Class::XDigit,
            "isspace" => Class::Space,
            "isalpha" => Class::Alpha,
            "isalnum" => Class::Alnum,
            "isupper" => Class::Upper,
            "islower" => Class::Lower,
            "isprint" => Class::Print,
            "isgraph" => Class::Graph,
            "ispunct" => Class::Punct,
            "iscntrl" => Class::Cntrl,
            "isblank" => Class::Blank,
            _ => return None,
        })
    }

    /// Whether the C `int` `c` is in this class. glibc returns an unspecified non-zero value
    /// for "yes"; penumbra returns 1, which is what any sane comparison sees.
    pub fn contains(self, c: i32) -> bool {
        let Ok(b) = u8::try_from(c) else { return false };
        if !b.is_ascii() {
            return false;
        }
        match self {
            Class::Digit => b.is_ascii_digit(),
            Class::XDigit => b.is_ascii_hexdigit(),
            Class::Space => matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
            Class::Alpha => b.is_ascii_alphabetic(),
            Class::Alnum => b.is_ascii_alphanumeric(),
            Class::Upper => b.is_ascii_uppercase(),
            Class::Lower => b.is_ascii_lowercase(),
            Class::Print => (0x20..0x7f).contains(&b),
            Class::Graph => b.is_ascii_graphic(),
            Class::Punct => b.is_ascii_punctuation(),
            Class::Cntrl => b.is_ascii_control(),
            Class::Blank => b == b' ' || b == b'\t',
        }
    }
}

/// `toupper(c)`.
pub fn toupper(c: i32) -> i32 {
    match c {
        0x61..=0x7a => c - 32,
        -128..=-2 => c + 256,
        _ => c,
    }
}

/// `tolower(c)`.
pub fn tolower(c: i32) -> i32 {
    match c {
        0x41..=0x5a => c + 32,
        -128..=-2 => c + 256,
        _ => c,
    }
}

/// The bits of glibc's `__ctype_b` table entry for `c` (`_ISupper` is `0x100`, ... in its
/// little-endian layout).
pub fn class_mask(c: i32) -> u16 {
    const BITS: [(Class, u16); 12] = [
        (Class::Upper, 0x100),
        (Class::Lower, 0x200),
        (Class::Alpha, 0x400),
        (Class::Digit, 0x800),
        (Class::XDigit, 0x1000),
        (Class::Space, 0x2000),
        (Class::Print, 0x4000),
        (Class::Graph, 0x8000),
        (Class::Blank, 0x1),
        (Class::Cntrl, 0x2),
        (Class::Punct, 0x4),
        (Class::Alnum, 0x8),
    ];
    BITS.iter().filter(|(class, _)| class.contains(c)).map(|&(_, bit)| bit).sum()
}

/// `isspace` on a byte, as `strtol` uses it.
pub fn is_space(b: u8) -> bool {
    Class::Space.contains(i32::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_in_the_c_locale() {
        assert!(Class::Digit.contains('7' as i32));
        assert!(!Class::Digit.contains(-1));
        assert!(!Class::Alpha.contains(0xe9));
        assert!(!Class::Alpha.contains(-23));
        assert!(Class::Space.contains(0x0b));
        assert!(Class::Punct.contains('!' as i32));
        assert!(!Class::Print.contains(0x7f));
        assert!(Class::Cntrl.contains(0x7f));
        assert_eq!(Class::from_function("isalnum"), Some(Class::Alnum));
        assert_eq!(Class::from_function("isfoo"), None);
    }

    /// Expected values from glibc 2.36.
    #[test]
    fn case_mapping_matches_glibc() {
        assert_eq!(toupper('a' as i32), 'A' as i32);
        assert_eq!(toupper('Z' as i32), 'Z' as i32);
        assert_eq!(toupper(-1), -1);
        assert_eq!(toupper(-100), 156);
        assert_eq!(toupper(-128), 128);
        assert_eq!(toupper(-2), 254);
        assert_eq!(toupper(300), 300);
        assert_eq!(tolower('Q' as i32), 'q' as i32);
        assert_eq!(tolower('[' as i32), '[' as i32);
        assert_eq!(tolower(-1), -1);
    }

    #[test]
    fn class_masks_match_glibc_tables() {
        assert_eq!(class_mask('A' as i32), 0xd508);
        assert_eq!(class_mask('a' as i32), 0xd608);
        assert_eq!(class_mask('0' as i32), 0xd808);
        assert_eq!(class_mask(' ' as i32), 0x6001);
        assert_eq!(class_mask('!' as i32), 0xc004);
        assert_eq!(class_mask(-1), 0);
        assert_eq!(class_mask(0xe9), 0);
    }
}
