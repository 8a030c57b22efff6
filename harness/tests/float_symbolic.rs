//! Symbolic floating point end to end: `run` explores exactly the feasible paths of a program
//! comparing a symbolic double against thresholds (NaN, infinities, signed zero, a conversion
//! that may overflow), every test replays natively to the status recorded; `shadow` finds the
//! divergence of a patch that changes a comparison (and proves the refactoring beside it
//! equal), and replay classifies it.

use crate::support::{penumbra, test_object, write_c};
use serde_json::Value;

fn json(args: &[&std::ffi::OsStr]) -> Value {
    let out = penumbra(args);
    out.assert_no_panic();
    out.assert_status(0);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", out.stderr))
}

/// `penumbra run --replay-check --json` on `source` (budget 120 s): the summary, tests included.
fn run_replay_checked(name: &str, source: &str) -> Value {
    let file = write_c(name, source);
    let out_dir = file.dir.path().join("out");
    json(&[
        "run".as_ref(),
        file.path.as_os_str(),
        "--max-time".as_ref(),
        "120".as_ref(),
        "--replay-check".as_ref(),
        "--json".as_ref(),
        "--output-dir".as_ref(),
        out_dir.as_os_str(),
    ])
}

fn double(test: &Value, name: &str) -> f64 {
    let bytes = test_object(test, name);
    f64::from_le_bytes(bytes.try_into().expect("8 bytes"))
}

const THRESHOLDS: &str = r#"#include <stdio.h>
#include "penumbra.h"
int main(void) {
    double x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (x != x) { printf("nan\n"); return 1; }
    if (x > 1.7976931348623157e308) { printf("+inf\n"); return 2; }
    if (x < -1.7976931348623157e308) { printf("-inf\n"); return 3; }
    if (x == 0.0) { printf("zero\n"); return 4; }
    if (x * 2 > 1.0) { printf("big\n"); return 5; }
    if ((int)(x * 10) == 3) { printf("three tenths\n"); return 6; }
    return 0;
}
"#;

/// The paths, by reasoning: NaN; +inf (the only double above DBL_MAX); -inf; +-0; x > 0.5;
/// then x * 10 must fit an int (else the conversion is an error), equal 3 or not.
#[test]
fn symbolic_doubles_explore_exactly_the_feasible_paths() {
    let s = run_replay_checked("thresholds.c", THRESHOLDS);
    assert_eq!(
        (s["paths_completed"].as_u64(), s["errors"].as_u64(), s["unsupported"].as_u64()),
        (Some(7), Some(1), Some(0))
    );
    assert_eq!(
        s["replay_mismatches"].as_array().map(Vec::len),
        Some(0),
        "every test replays natively to its recorded status: {s}"
    );
    let mut statuses: Vec<i64> =
        s["tests"].as_array().unwrap().iter().filter_map(|t| t["exit_code"].as_i64()).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [0, 1, 2, 3, 4, 5, 6]);
    for t in s["tests"].as_array().unwrap() {
        let x = double(t, "x");
        match t["exit_code"].as_i64() {
            Some(1) => assert!(x.is_nan()),
            Some(2) => assert_eq!(x, f64::INFINITY),
            Some(3) => assert_eq!(x, f64::NEG_INFINITY),
            Some(4) => assert_eq!(x, 0.0),
            Some(5) => assert!(x > 0.5),
            Some(6) => assert_eq!((x * 10.0) as i32, 3),
            Some(0) => assert!(x <= 0.5 && x != 0.0 && (x * 10.0).trunc() > -2147483649.0 && (x * 10.0) as i32 != 3),
            _ => {
                assert_eq!(t["error"]["kind"], "float-cast-overflow", "{t}");
                assert!((x * 10.0).trunc() < -2147483648.0, "{x} * 10 fits an int");
            }
        }
    }
}

const PATCHED: &str = r#"#include <stdio.h>
#include "penumbra.h"
int classify(double x) {
    double half = change(x * 0.5, x / 2.0);
    if (change(half < 0.05, half <= 0.05))
        return 1;
    if (half != half)
        return 2;
    return 3;
}
int main(void) {
    double x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    int c = classify(x);
    printf("class %d\n", c);
    return c;
}
"#;

/// `x * 0.5` and `x / 2.0` are equal for every double (NaNs included): a refactoring, no
/// divergence. `< 0.05` and `<= 0.05` part exactly where half is 0.05, x = 0.1.
#[test]
fn a_patched_float_comparison_diverges_exactly_at_its_boundary() {
    let file = write_c("patched.c", PATCHED);
    let out_dir = file.dir.path().join("out");
    let s = json(&[
        "shadow".as_ref(),
        file.path.as_os_str(),
        "--max-time".as_ref(),
        "120".as_ref(),
        "--json".as_ref(),
        "--output-dir".as_ref(),
        out_dir.as_os_str(),
    ]);
    assert_eq!((s["diff_paths"].as_u64(), s["paths_completed"].as_u64()), (Some(1), Some(4)), "{s}");
    let tests = s["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 1);
    assert_eq!(double(&tests[0], "x"), 0.1);
    assert_eq!(
        (tests[0]["line"].as_u64(), tests[0]["old"].as_str(), tests[0]["new"].as_str()),
        (Some(5), Some("false"), Some("true"))
    );
    let out = penumbra(["replay".as_ref(), out_dir.as_os_str(), "--json".as_ref()]);
    out.assert_status(0);
    let replayed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let r = &replayed[0];
    assert_eq!(
        (r["class"].as_str(), r["old_outcome"]["exit"].as_i64(), r["new_outcome"]["exit"].as_i64()),
        (Some("output-diff"), Some(3), Some(1))
    );
}

/// Floating-point objects show their values as decimals in the test records (`float`: one
/// string per value, an array for an array), beside the bytes.
#[test]
fn test_records_show_floating_point_objects_as_decimals() {
    let source = r#"#include "penumbra.h"
int main(void) {
    double x; float f[2]; long double l; int i;
    penumbra_make_symbolic(&x, sizeof x, "x");
    penumbra_make_symbolic(f, sizeof f, "f");
    penumbra_make_symbolic(&l, sizeof l, "l");
    penumbra_make_symbolic(&i, sizeof i, "i");
    penumbra_assume(x == 0.1);
    penumbra_assume(f[0] == -2.5f);
    penumbra_assume(f[1] != f[1]);
    return 0;
}
"#;
    let file = write_c("records.c", source);
    let out_dir = file.dir.path().join("out");
    let s = json(&[
        "run".as_ref(),
        file.path.as_os_str(),
        "--max-time".as_ref(),
        "60".as_ref(),
        "--json".as_ref(),
        "--output-dir".as_ref(),
        out_dir.as_os_str(),
    ]);
    let path = s["tests"].as_array().unwrap().iter().find(|t| t["kind"] == "path").expect("the path that passes");
    let inputs = &path["inputs"];
    assert_eq!(inputs["x"]["float"], "0.1");
    assert_eq!(inputs["f"]["float"][0], "-2.5");
    assert!(inputs["f"]["float"][1].as_str().is_some_and(|t| t.ends_with("nan")), "{inputs}");
    assert_eq!(inputs["l"]["float"], "0");
    assert!(inputs["i"].get("float").is_none(), "an int has no float: {inputs}");
}

const LONG_DOUBLES: &str = r#"#include <stdio.h>
#include "penumbra.h"
int main(void) {
    long double x;
    penumbra_make_symbolic(&x, sizeof x, "x");
    if (x != x) { printf("nan\n"); return 1; }
    if (x > 1.18973149535723176502e+4932L) { printf("+inf\n"); return 2; }
    if (x * 3 == 4.5L) { printf("%Lg\n", x); return 3; }
    long double y = x + 0.1L;
    if (y == x) { printf("absorbed\n"); return 4; }
    if ((double)x == 0.5) { printf("about half: %.3Lf\n", x); return 5; }
    return 0;
}
"#;

/// The x87's `long double` symbolically: the paths, by reasoning: NaN (any NaN encoding,
/// unnormals included); +inf, the only value above LDBL_MAX; `x * 3 == 4.5` only at 1.5
/// (one ulp either side gives 4.5 -+ 3 ulps of 1.5, which round away from 4.5, whose ulp is
/// four of 1.5's); `x + 0.1 == x` where 0.1 is absorbed (|x| >= 2^66 or so, or -inf); `(double)x
/// == 0.5` near 0.5; the rest. Each test replays natively to its status and output.
#[test]
fn symbolic_long_doubles_explore_exactly_the_feasible_paths() {
    use penumbra_solver::float::{arith, convert, is_nan, Arith, Format};
    let s = run_replay_checked("long_doubles.c", LONG_DOUBLES);
    assert_eq!(
        (s["paths_completed"].as_u64(), s["errors"].as_u64(), s["unsupported"].as_u64()),
        (Some(6), Some(0), Some(0)),
        "{s}"
    );
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    let tenth = 0x3FFB_CCCC_CCCC_CCCC_CCCDu128;
    let mut statuses = Vec::new();
    for t in s["tests"].as_array().unwrap() {
        let bytes = test_object(t, "x");
        let x = u128::from_le_bytes(bytes[..16].try_into().expect("16 bytes")) & ((1 << 80) - 1);
        let status = t["exit_code"].as_i64().expect("every path exits");
        statuses.push(status);
        let absorbed = arith(Format::F80, Arith::Add, x, tenth) == x;
        let as_double = f64::from_bits(convert(Format::F80, Format::F64, x) as u64);
        match status {
            1 => assert!(is_nan(Format::F80, x), "{x:#x}"),
            2 => assert_eq!(x, 0x7FFF_8000_0000_0000_0000),
            3 => assert_eq!(x, 0x3FFF_C000_0000_0000_0000, "1.5"),
            4 => assert!(absorbed && !is_nan(Format::F80, x), "{x:#x}"),
            5 => assert_eq!(as_double, 0.5, "{x:#x}"),
            _ => assert!(!absorbed && as_double != 0.5 && !is_nan(Format::F80, x), "{x:#x}"),
        }
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [0, 1, 2, 3, 4, 5]);
}

const MIN_MAX_FMA: &str = r#"#include <math.h>
#include <stdio.h>
#include "penumbra.h"
int main(void) {
    double v[3];
    penumbra_make_symbolic(v, sizeof v, "v");
    double lo = fmin(v[0], v[1]), hi = fmax(v[0], v[1]);
    int code = 0;
    if (lo != lo)
        code |= 1;
    else if (v[0] != v[0])
        code |= 2;
    if (hi > lo)
        code |= 4;
    if (fma(v[0], v[1], v[2]) != v[0] * v[1] + v[2])
        code |= 8;
    printf("%d\n", code);
    return code;
}
"#;

/// `fmin`/`fmax` (`llvm.minnum`/`maxnum`) and `fma` (`llvm.fma`) on symbolic doubles. The
/// codes, by reasoning: a NaN operand yields the other, so `lo` is NaN only when both are (9:
/// the fma of a NaN is NaN, never equal); `v[0]` NaN alone gives 10 (`hi == lo == v[1]`); `v[1]`
/// NaN alone 8; otherwise `hi > lo` iff the two differ, and the fused rounding may differ from
/// the twice-rounded one or not: 0, 4, 8, 12. Replay runs each natively (where `fma` is
/// glibc's and `fmin` LLVM's own lowering): a wrong NaN rule shows as a mismatch.
#[test]
fn symbolic_min_max_and_fused_multiply_add_match_native() {
    let s = run_replay_checked("min_max_fma.c", MIN_MAX_FMA);
    assert_eq!((s["errors"].as_u64(), s["unsupported"].as_u64()), (Some(0), Some(0)), "{s}");
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
    let mut codes: Vec<i64> = s["tests"].as_array().unwrap().iter().filter_map(|t| t["exit_code"].as_i64()).collect();
    codes.sort_unstable();
    assert_eq!(codes, [0, 4, 8, 9, 10, 12]);
}

const MIN_MAX_PAIRS: &str = r#"#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "penumbra.h"
static long double l(uint16_t hi, uint64_t lo) { long double x = 0; memcpy(&x, &lo, 8); memcpy((char *)&x + 8, &hi, 2); return x; }
static double d(uint64_t b) { double x; memcpy(&x, &b, 8); return x; }
static void pin(unsigned char *p, const void *v, int n) { for (int q = 0; q < n; q++) { unsigned char c = ((const unsigned char *)v)[q]; penumbra_assume(p[q] >= c); penumbra_assume(p[q] <= c); } }
int main(void) {
    long double lv[] = {0.0L, -0.0L, 1.0L, l(0x7fff, 0xc000000000000001ull), l(0xffff, 0xc000000000000002ull), l(0x7fff, 0x8000000000000003ull), l(0x3fff, 0x4000000000000000ull)};
    double dv[] = {d(0x7ff8000000000001ull), d(0xfff8000000000002ull), d(0x7ff0000000000003ull), 0.0, -0.0, 1.5, 2.0};
    unsigned char i, j, xb[16], yb[16], ub[8], vb[8];
    penumbra_make_symbolic(&i, 1, "i");
    penumbra_make_symbolic(&j, 1, "j");
    penumbra_make_symbolic(xb, 16, "x");
    penumbra_make_symbolic(yb, 16, "y");
    penumbra_make_symbolic(ub, 8, "u");
    penumbra_make_symbolic(vb, 8, "v");
    penumbra_assume(i < 7);
    penumbra_assume(j < 7);
    int k = 0;
    while (k < 7 && i != k) k++;
    int m = 0;
    while (m < 7 && j != m) m++;
    pin(xb, &lv[k], 10);
    pin(yb, &lv[m], 10);
    pin(ub, &dv[k], 8);
    pin(vb, &dv[m], 8);
    long double x, y;
    double u, v;
    memcpy(&x, xb, 16); memcpy(&y, yb, 16); memcpy(&u, ub, 8); memcpy(&v, vb, 8);
    long double a = fminl(x, y), b = fmaxl(x, y);
    double c = fmin(u, v), e = fmax(u, v);
    unsigned char out[36];
    memcpy(out, &a, 10); memcpy(out + 10, &b, 10); memcpy(out + 20, &c, 8); memcpy(out + 28, &e, 8);
    unsigned sum = 0;
    for (int q = 0; q < 36; q++) sum = sum * 31 + out[q];
    printf("%d %d %08x\n", k, m, sum);
    return (sum ^ (sum >> 8) ^ (sum >> 16)) & 0x7f;
}
"#;

/// `fmin`/`fmax`/`fminl`/`fmaxl` on symbolic operands against the native build, for every pair of
/// a table with NaNs (payloads, a signalling one, of both signs), signed zeros and an x87
/// unnormal: each operand's bytes are symbolic, pinned by range assumptions to a table entry
/// chosen by a symbolic index (so the operations build terms, not constants), and the exit
/// status is a checksum of the results' bits, which replay compares natively for all 49 pairs
/// (a wrong NaN rule in the symbolic composition shows as mismatches: checked by mutation).
#[test]
fn symbolic_min_max_of_every_pair_matches_native_bit_for_bit() {
    let s = run_replay_checked("min_max_pairs.c", MIN_MAX_PAIRS);
    assert_eq!((s["paths_completed"].as_u64(), s["unsupported"].as_u64()), (Some(49), Some(0)), "{s}");
    assert_eq!(s["replay_mismatches"].as_array().map(Vec::len), Some(0), "{s}");
}
