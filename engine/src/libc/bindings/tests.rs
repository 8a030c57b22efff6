//! The binding table, listed whole: a binding added, removed or changed on one side shows here,
//! and the two interpreters differ only where the table records why.

use super::*;

fn shown(s: Support) -> &'static str {
    match s {
        Support::Native => "native",
        Support::Code => "code",
        Support::Missing(_) => "missing",
    }
}

#[test]
fn every_binding_of_both_interpreters() {
    let listing: Vec<String> = BINDINGS
        .iter()
        .map(|b| format!("{} {} {} {}", b.names.join("|"), b.arity, shown(b.concrete), shown(b.symbolic)))
        .collect();
    let expected = "\
printf 1 native native
fprintf 2 native native
sprintf 2 native native
snprintf 3 native native
puts 1 native native
putchar 1 native native
fputs 2 native native
fputc|putc 2 native native
fwrite 4 native native
fflush 1 native native
getchar 0 native native
fgetc|getc 1 native native
fgets 3 native code
strlen 1 native code
strnlen 2 native code
strcmp 2 native code
strncmp 3 native code
strcpy 2 native code
strncpy 3 native code
strcat 2 native code
strncat 3 native code
strchr 2 native code
strrchr 2 native code
strstr 2 native code
strdup 1 native code
strndup 2 native code
strspn 2 native code
strcspn 2 native code
strtok 2 native missing
memcpy 3 native native
memmove 3 native native
memset 3 native native
memcmp 3 native code
memchr 3 native code
malloc 1 native native
calloc 2 native native
realloc 2 native native
free 1 native native
exit 1 native native
_Exit|_exit 1 native native
atexit 1 native native
abort 0 native native
__assert_fail 4 native native
setjmp|_setjmp|sigsetjmp|__sigsetjmp 1 native native
longjmp|_longjmp|siglongjmp|__longjmp_chk 2 missing native
atoi 1 native code
atol|atoll 1 native code
strtol|strtoll 3 native code
strtoul|strtoull 3 native code
abs 1 native native
labs|llabs 1 native native
__errno_location 0 native native
rand 0 native missing
srand 1 native missing
qsort 4 native missing
bsearch 5 native missing
isdigit 1 native native
isxdigit 1 native native
isspace 1 native native
isalpha 1 native native
isalnum 1 native native
isupper 1 native native
islower 1 native native
isprint 1 native native
isgraph 1 native native
ispunct 1 native native
iscntrl 1 native native
isblank 1 native native
toupper 1 native native
tolower 1 native native
__ctype_b_loc 0 native native
__ctype_toupper_loc 0 native native
__ctype_tolower_loc 0 native native
__penumbra_kernel 7 native native
__penumbra_sym_files 0 native native
__penumbra_aligned_alloc 2 native native
__penumbra_destructor 1 native native
__penumbra_check_read 2 missing native
__penumbra_is_stdin 1 missing native";
    assert_eq!(listing.join("\n"), expected);
}

#[test]
fn the_interpreters_differ_only_with_a_reason() {
    for b in BINDINGS {
        for side in [b.concrete, b.symbolic] {
            if let Support::Missing(why) = side {
                assert!(why.len() > 20, "{:?}: no real reason recorded ({why:?})", b.names);
            }
        }
        assert!(b.concrete.is_supported() || b.symbolic.is_supported(), "{:?} is bound but runs nowhere", b.names);
    }
}

#[test]
fn names_and_functions_are_bound_once() {
    let mut names: Vec<&str> = BINDINGS.iter().flat_map(|b| b.names.iter().copied()).collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n, "a name is bound twice");
    for (i, b) in BINDINGS.iter().enumerate() {
        assert!(BINDINGS[..i].iter().all(|other| other.func != b.func), "{:?} has two rows", b.func);
    }
    assert_eq!(bind("putc").map(|b| b.func), Some(LibcFn::Fputc));
    assert_eq!(bind("isdigit").map(|b| b.func), Some(LibcFn::IsClass(Class::Digit)));
    assert_eq!(bind("fopen"), None);
}

#[test]
fn too_few_arguments_are_an_invalid_call() {
    let b = bind("strncmp").expect("bound");
    assert_eq!(b.check_arity("strncmp", 3), Ok(()));
    assert_eq!(b.check_arity("strncmp", 2), Err("strncmp called with 2 arguments, needs at least 3".to_string()));
}

#[test]
fn an_unknown_function_that_musl_has_says_so() {
    assert_eq!(
        unknown_function("strtod", false),
        "unknown external function 'strtod' is not modelled; `--libc musl` provides it"
    );
    assert_eq!(
        unknown_function("__isoc99_sscanf", false),
        "unknown external function '__isoc99_sscanf' is not modelled; `--libc musl` provides it"
    );
    // Linked with musl already, or a function musl lacks: no hint.
    assert_eq!(unknown_function("strtod", true), "unknown external function 'strtod'");
    assert_eq!(unknown_function("frobnicate", false), "unknown external function 'frobnicate'");
}

#[test]
fn the_musl_list_is_sorted_public_names() {
    let names: Vec<&str> = MUSL_FUNCTIONS.lines().collect();
    assert!(names.len() > 1000, "{} names", names.len());
    assert!(names.windows(2).all(|w| w[0] < w[1]), "the list is not sorted and unique");
    assert!(names.iter().all(|n| !n.is_empty() && !n.starts_with("__")));
}

/// The list is musl's: compared with the bitcode scripts/build-musl.sh builds, when the machine
/// has that build and `llvm-nm-15` (else there is nothing to compare with).
#[test]
fn the_musl_list_is_musls() {
    let Some(dir) = penumbra_ir::LibcBitcode::musl_dir().filter(|d| penumbra_ir::LibcBitcode::is_built(d)) else {
        eprintln!("no musl build: nothing to compare the list with");
        return;
    };
    let Ok(out) = std::process::Command::new("llvm-nm-15").arg("--defined-only").arg(dir.join("libc.bc")).output()
    else {
        eprintln!("no llvm-nm-15: nothing to compare the list with");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let mut defined: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let (kind, name) = (f.nth(1)?, f.next()?);
            (matches!(kind, "T" | "W") && !name.starts_with("__")).then_some(name)
        })
        .collect();
    defined.sort_unstable();
    defined.dedup();
    let listed: Vec<&str> = MUSL_FUNCTIONS.lines().collect();
    assert!(defined == listed, "engine/src/libc/musl-functions.txt is stale: run scripts/musl-functions.sh");
}
