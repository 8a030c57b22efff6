//! The frontend never panics and never reports an internal error, whatever C it gets:
//! deterministic mutations of a valid program either compile (and then lower to IR that
//! passes the verifier) or fail in clang with `CompileFailed`.

use penumbra_ir::{compile_source, CompileOptions, FrontendError};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One random edit: delete a span, duplicate or swap lines, or replace a character.
fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    match rng.below(4) {
        0 => {
            let text = lines.join("\n");
            let start = rng.below(text.len());
            let end = (start + 1 + rng.below(20)).min(text.len());
            let (start, end) = (floor_char(&text, start), floor_char(&text, end));
            return format!("{}{}", &text[..start], &text[end..]);
        }
        1 => {
            let i = rng.below(lines.len());
            let line = lines[i].clone();
            lines.insert(i, line);
        }
        2 => {
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(i, j);
        }
        _ => {
            let i = rng.below(lines.len());
            let line = &lines[i];
            if !line.is_empty() {
                let at = floor_char(line, rng.below(line.len()));
                let replacement = "+-*/%<>=!&|^~()[]{};,01279xy".chars().nth(rng.below(29)).unwrap_or('+');
                let mut chars: Vec<char> = line.chars().collect();
                let idx = line[..at].chars().count().min(chars.len().saturating_sub(1));
                chars[idx] = replacement;
                lines[i] = chars.into_iter().collect();
            }
        }
    }
    lines.join("\n")
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[test]
fn mutated_programs_compile_or_fail_in_clang_but_never_break_the_frontend() {
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/kitchen_sink.c")).expect("read");
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    let (mut compiled, mut rejected) = (0, 0);
    for round in 0..60 {
        let mut src = base.clone();
        for _ in 0..=rng.below(3) {
            src = mutate(&src, &mut rng);
        }
        match compile_source("mutant.c", &src, &CompileOptions::default()) {
            Ok(_) => compiled += 1,
            Err(FrontendError::CompileFailed { .. }) => rejected += 1,
            Err(e) => panic!("round {round}: {e}\n--- source ---\n{src}"),
        }
    }
    eprintln!("compiled {compiled}, rejected {rejected}");
    // Both outcomes occur, so both paths are exercised.
    assert!(compiled > 0 && rejected > 0, "compiled {compiled}, rejected {rejected}");
}
