//! `<ctype.h>` in the C locale. Arguments are C `int`s: `EOF` (-1) and values outside
//! `0..=255` belong to no class, bytes above 127 are in no class either (the C locale), and
//! `toupper`/`tolower` return anything but a letter unchanged.

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
    if (i32::from(b'a')..=i32::from(b'z')).contains(&c) {
        c - 32
    } else {
        c
    }
}

/// `tolower(c)`.
pub fn tolower(c: i32) -> i32 {
    if (i32::from(b'A')..=i32::from(b'Z')).contains(&c) {
        c + 32
    } else {
        c
    }
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

    #[test]
    fn case_mapping_leaves_non_letters_alone() {
        assert_eq!(toupper('a' as i32), 'A' as i32);
        assert_eq!(toupper('Z' as i32), 'Z' as i32);
        assert_eq!(toupper(-1), -1);
        assert_eq!(tolower('Q' as i32), 'q' as i32);
        assert_eq!(tolower('[' as i32), '[' as i32);
        assert_eq!(tolower(300), 300);
    }
}
