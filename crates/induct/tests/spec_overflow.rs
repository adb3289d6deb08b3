//! Found by fuzzing (issue 16): the abstraction evaluated spec index arithmetic in unchecked
//! `i64`, so specs with huge constants panicked (debug builds) or wrapped (release builds)
//! in `prove --all-sizes`. Index arithmetic is now exact in 128 bits: a result that does not
//! fit is an error naming the spec bytes at fault, and a spec over a huge range is an error
//! too, not hours and gigabytes.

mod common;

use common::*;
use warpsafe_equiv::Spec;
use warpsafe_induct::{
    check_size, prove_all_sizes_with, Options, SizeDomain, SizeVerdict, Verdict,
};

const MAX64: &str = "9223372036854775807";
const MAX128: &str = "170141183460469231731687303715884105727";

fn opts() -> Options {
    Options {
        bound: 16,
        ..Options::default()
    }
}

/// The integer Kogge-Stone scan's spec with its input index `x[…]` replaced by `index`.
fn scan_spec(index: &str) -> String {
    let text = std::fs::read_to_string(root().join(KS_INT_SPEC)).expect("spec exists");
    let original = "x[i - i % blockDim.x + k]";
    assert!(text.contains(original));
    text.replace(original, &format!("x[{index}]"))
}

/// The spec text that `message` names (`at spec bytes A..B: …`).
fn named<'a>(spec: &'a str, message: &str) -> &'a str {
    let at = message.find("at spec bytes ").expect("a span") + "at spec bytes ".len();
    let (lo, rest) = message[at..].split_once("..").expect("lo..hi");
    let hi = rest.split_once(':').expect("lo..hi:").0;
    let (lo, hi): (usize, usize) = (lo.parse().expect("lo"), hi.parse().expect("hi"));
    spec.get(lo..hi).expect("a span inside the spec")
}

/// The verdict of `prove --all-sizes` on the integer scan against `spec`.
fn prove(spec: &str) -> Verdict {
    let parsed = Spec::parse(spec).expect("spec parses");
    prove_all_sizes_with(&kernel(KS_INT), Some(&parsed), &opts()).verdict
}

/// The reason of the `unknown` verdict of the integer scan against `spec`, checking that it
/// names the spec text `at` and says `why`.
fn unknown_at(spec: &str, at: &str, why: &str) {
    let Verdict::Unknown { reason } = prove(spec) else {
        panic!("{spec}: not unknown");
    };
    assert_eq!(named(spec, &reason), at, "{reason}");
    assert!(reason.contains(why), "{reason}");
}

const ALL: Verdict = Verdict::ProvedAllSizes {
    domain: SizeDomain::All,
};

#[test]
fn index_arithmetic_is_exact_past_64_bits() {
    // `i + MAX - MAX` left to right overflowed 64 bits; in 128 bits it is exactly `i`.
    for index in [
        format!("i - i % blockDim.x + k + {MAX64} - {MAX64}"),
        format!("i - i % blockDim.x + k + {MAX64} * {MAX64} - {MAX64} * {MAX64}"),
        format!("(i + {MAX64} * 4) - i % blockDim.x + k - {MAX64} * 2 - {MAX64} * 2"),
    ] {
        assert_eq!(prove(&scan_spec(&index)), ALL, "{index}");
    }
    // The remainder is exact where the quotient overflows (the induction, in 32-bit words,
    // takes no constant past 64 bits: the sweep proves it up to its bound).
    let min = format!("(0 - {MAX128} - 1)");
    let index = format!("i - i % blockDim.x + k + {min} % (0 - 1)");
    let v = prove(&scan_spec(&index));
    assert!(
        matches!(v, Verdict::ProvedUpTo { bound: 16, .. }) || v == ALL,
        "{v:?}"
    );
}

#[test]
fn overflowing_index_arithmetic_is_an_error_with_a_span() {
    let why = "does not fit in 128 bits";
    let product = format!("{MAX64} * {MAX64} * 4");
    let index = format!("i - i % blockDim.x + k + {product}");
    unknown_at(&scan_spec(&index), &product, why);
    let sum = format!("{MAX128} + 1");
    let index = format!("i - i % blockDim.x + k + ({sum})");
    unknown_at(&scan_spec(&index), &sum, why);
    let min = format!("0 - {MAX128} - 1");
    let quotient = format!("({min}) / (0 - 1)");
    let spec = scan_spec(&format!("i - i % blockDim.x + k + {quotient}"));
    let Verdict::Unknown { reason } = prove(&spec) else {
        panic!("{spec}");
    };
    // (The parser's spans of parenthesised operands leave out the closing parenthesis.)
    assert!(named(&spec, &reason).contains(") / (0 - 1"), "{reason}");
    assert!(reason.contains(why), "{reason}");
    let spec = scan_spec(&format!("i - i % blockDim.x + k + -({min})"));
    let Verdict::Unknown { reason } = prove(&spec) else {
        panic!("{spec}");
    };
    assert!(named(&spec, &reason).starts_with("-("), "{reason}");
    assert!(reason.contains(why), "{reason}");
    let big = format!("{MAX128}0");
    let index = format!("i - i % blockDim.x + k + {big}");
    unknown_at(
        &scan_spec(&index),
        &big,
        "not an integer of at most 128 bits",
    );
}

#[test]
fn huge_bounds_are_errors_or_exact_not_panics() {
    // `hi + 1` of an inclusive bound at the top of the range.
    let spec = format!("y[i] = sum(k <= {MAX128}, x[i + k]) for i < n\n");
    unknown_at(&spec, MAX128, "+ 1 does not fit in 128 bits");
    // A sum of consecutive elements up to a huge bound stops at the buffer's end (`i + k`
    // overflowed 64 bits): suffix sums, which the scan does not compute.
    let spec = format!("y[i] = sum(k < {MAX64}, x[i + k]) for i < n\n");
    let v = prove(&spec);
    assert!(matches!(v, Verdict::Refuted { size: 2, .. }), "{v:?}");
    let spec = format!("y[i] = sum(k < {MAX64} * {MAX64}, x[i - i % blockDim.x + k]) for i < 1\n");
    let parsed = Spec::parse(&spec).expect("parses");
    assert!(matches!(
        check_size(&kernel(KS_INT), Some(&parsed), 1, 1),
        SizeVerdict::Proved { .. }
    ));
}

#[test]
fn huge_ranges_are_an_error_not_a_hang() {
    let k = kernel(KS_INT);
    for (spec, at) in [
        (
            format!("y[i] = x[i] for i < {MAX64} * {MAX64}\n"),
            format!("y[i] = x[i] for i < {MAX64} * {MAX64}"),
        ),
        // Every element is past the buffer's end, so each sum is empty, term by term.
        (
            format!("y[i] = sum(k < {MAX64}, x[2 * k + n]) for i < n\n"),
            format!("sum(k < {MAX64}, x[2 * k + n])"),
        ),
    ] {
        let parsed = Spec::parse(&spec).expect("parses");
        let start = std::time::Instant::now();
        let SizeVerdict::BadSpec(m) = check_size(&k, Some(&parsed), 4, 1) else {
            panic!("{spec}");
        };
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
        assert!(m.contains("points at this size"), "{m}");
        assert_eq!(named(&spec, &m), at);
    }
}
