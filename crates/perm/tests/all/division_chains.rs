//! Found by fuzzing (issue 16): C division and remainder copied their operands into the SMT
//! term 3 to 7 times, so a chain of `k` divisions was a term of 7^k nodes and eight of them
//! exhausted memory. Operands are now shared subterms, which the printer names once (a `let`), so the term grows linearly and
//! chains of forty check in about a second, with the exact truncating semantics of C.

use std::time::{Duration, Instant};
use warpsafe_perm::{c_div, c_rem, check, int_sym, tid, Report, Term, Verdict};

/// A chain of this many divisions (and as many remainders) must check quickly.
const CHAIN: usize = 40;

/// Generous: the chains take about a second in a debug build, and took hours (or all memory)
/// before.
const QUICK: Duration = Duration::from_secs(30);

fn timed_check(src: &str) -> Report {
    let start = Instant::now();
    let r = check(src).expect("checks");
    assert!(start.elapsed() < QUICK, "took {:?}", start.elapsed());
    r
}

/// `examples/perm/rotate.cu` with `extra` conjoined to its thread precondition (which must
/// then follow from the kernel precondition `n == blockDim.x` and `tid < blockDim.x <= 1024`).
fn rotate_with(extra: &str) -> Report {
    let src = include_str!("../../../../examples/perm/rotate.cu").replace(
        "//@ thread requires Perm(a[(tid + n - 1) % n], 1)",
        &format!("//@ thread requires Perm(a[(tid + n - 1) % n], 1) && {extra}"),
    );
    assert!(src.contains(extra));
    timed_check(&src)
}

#[test]
fn chained_division_and_remainder_terms_grow_linearly() {
    let operand = || int_sym("n").sub(&tid()).mul(&Term::int(3));
    let (mut q, mut r, mut mixed) = (operand(), operand(), operand());
    let mut sizes = vec![];
    for i in 0..CHAIN {
        q = c_div(q, Term::int(2));
        r = c_rem(r, Term::int(7));
        mixed = c_rem(c_div(mixed, operand()), c_div(operand(), Term::int(3)));
        sizes.push((
            q.smt_shared().len(),
            r.smt_shared().len(),
            mixed.smt_shared().len(),
        ));
        assert!(
            q.smt_shared().len() < 200 * (i + 1),
            "{}",
            q.smt_shared().len()
        );
        assert!(
            r.smt_shared().len() < 200 * (i + 1),
            "{}",
            r.smt_shared().len()
        );
        assert!(
            mixed.smt_shared().len() < 600 * (i + 1),
            "{}",
            mixed.smt_shared().len()
        );
    }
    // Each step adds the same amount of text (up to the longer names of later steps).
    let step = |k: usize| sizes[k].0 - sizes[k - 1].0;
    assert!(
        step(CHAIN - 1) <= step(1) + 24,
        "{} then {}",
        step(1),
        step(CHAIN - 1)
    );
    // Literals still fold, exactly as C does (truncation toward zero).
    assert_eq!(c_div(Term::int(-7), Term::int(2)), Term::int(-3));
    assert_eq!(c_rem(Term::int(-7), Term::int(2)), Term::int(-1));
    assert_eq!(c_rem(Term::int(7), Term::int(-2)), Term::int(1));
    // Leaves are not named: `n / 2` spells `n` and `2` where they occur.
    let text = c_div(int_sym("n"), Term::int(2)).smt_shared();
    assert!(
        text.contains("(div n 2)") && !text.contains("(t!0 n)"),
        "{text}"
    );
}

#[test]
fn forty_divisions_in_an_annotation_check_quickly_and_exactly() {
    let divs = " / 2".repeat(CHAIN);
    let rems = " % 7".repeat(CHAIN);
    for (extra, verdict) in [
        (format!("(n - tid) * 3{divs} == 0"), Verdict::Verified),
        // Truncation toward zero: a negative dividend goes to 0, not to -1.
        (format!("(tid - n) * 3{divs} == 0"), Verdict::Verified),
        (format!("(tid - n) * 3{divs} == 0 - 1"), Verdict::Violated),
        // The remainder takes the sign of the dividend.
        (format!("(tid - n) * 3{rems} <= 0"), Verdict::Verified),
        (format!("(tid - n) * 3{rems} > 0 - 7"), Verdict::Verified),
        (format!("(tid - n) * 3{rems} >= 0"), Verdict::Violated),
        (
            format!("((n - tid) * 3{divs}) + ((tid - n) * 3{rems}) <= 0"),
            Verdict::Verified,
        ),
    ] {
        let r = rotate_with(&extra);
        assert_eq!(r.verdict, verdict, "{extra:.80}: {r:#?}");
    }
}

#[test]
fn forty_divisions_in_kernel_code_check_quickly_and_exactly() {
    let kernel = |value: &str, post: &str| {
        format!(
            "//@ requires n == blockDim.x
//@ kernel requires Perm(a[0..n], 1)
//@ kernel ensures Perm(a[0..n], 1)
//@ thread requires Perm(a[tid], 1)
//@ thread ensures Perm(a[tid], 1) && {post}
__global__ void k(int* a, int n) {{ int tid = threadIdx.x; a[tid] = {value}; }}
"
        )
    };
    let divs = " / 2".repeat(CHAIN);
    let rems = " % 7".repeat(CHAIN);
    for (value, post, verdict) in [
        (
            format!("(tid - n) * 3{divs}"),
            "a[tid] == 0",
            Verdict::Verified,
        ),
        (
            format!("(tid - n) * 3{divs}"),
            "a[tid] == 0 - 1",
            Verdict::Violated,
        ),
        (
            format!("(tid - n) * 3{rems}"),
            "a[tid] <= 0 && a[tid] > 0 - 7",
            Verdict::Verified,
        ),
        (
            format!("(tid - n) * 3{rems}"),
            "a[tid] >= 0",
            Verdict::Violated,
        ),
    ] {
        let r = timed_check(&kernel(&value, post));
        assert_eq!(r.verdict, verdict, "{value:.60} {post}: {r:#?}");
    }
}
