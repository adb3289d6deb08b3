//! All-sizes proofs by induction, and refutations of the wrong variants.

mod common;

use common::*;
use warpsafe_induct::induction::template::Template;
use warpsafe_induct::induction::{fit_invariants, prove_with};
use warpsafe_induct::{prove_all_sizes_with, Method, Mode, Options, SizeDomain, Verdict};

fn opts() -> Options {
    Options {
        bound: 64,
        ..Options::default()
    }
}

fn show(o: &warpsafe_induct::Outcome) -> String {
    o.obligations
        .iter()
        .map(|ob| {
            format!(
                "{:?} {:?} {} — {} ({:.2}s)",
                ob.method, ob.holds, ob.name, ob.detail, ob.seconds
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn kogge_stone_is_proved_for_every_size() {
    let o = prove_all_sizes_with(&kernel(KS), Some(&spec(KS_SPEC)), &opts());
    eprintln!("{}", show(&o));
    assert_eq!(
        o.verdict,
        Verdict::ProvedAllSizes {
            domain: SizeDomain::All
        },
        "{}",
        show(&o)
    );
    assert!(o
        .obligations
        .iter()
        .any(|ob| ob.method == Method::Induction && ob.name.contains("race freedom")));
    assert!(o.seconds < 30.0, "{} s", o.seconds);
}

#[test]
fn blelloch_is_proved_for_every_power_of_two() {
    let o = prove_all_sizes_with(&kernel(BL), Some(&spec(BL_SPEC)), &opts());
    eprintln!("{}", show(&o));
    assert_eq!(
        o.verdict,
        Verdict::ProvedAllSizes {
            domain: SizeDomain::PowersOfTwo
        },
        "{}",
        show(&o)
    );
    assert!(o.seconds < 30.0, "{} s", o.seconds);
}

#[test]
fn integer_scans_are_proved_for_every_size() {
    let o = prove_all_sizes_with(&kernel(KS_INT), Some(&spec(KS_INT_SPEC)), &opts());
    assert_eq!(
        o.verdict,
        Verdict::ProvedAllSizes {
            domain: SizeDomain::All
        },
        "{}",
        show(&o)
    );
    let o = prove_all_sizes_with(&kernel(BL_INT), Some(&spec(BL_INT_SPEC)), &opts());
    assert_eq!(
        o.verdict,
        Verdict::ProvedAllSizes {
            domain: SizeDomain::PowersOfTwo
        },
        "{}",
        show(&o)
    );
}

#[test]
fn sequential_reduction_is_proved_for_every_power_of_two() {
    let o = prove_all_sizes_with(&kernel(RED), Some(&spec(RED_SPEC)), &opts());
    eprintln!("{}", show(&o));
    assert_eq!(
        o.verdict,
        Verdict::ProvedAllSizes {
            domain: SizeDomain::PowersOfTwo
        },
        "{}",
        show(&o)
    );
    assert!(o.seconds < 30.0, "{} s", o.seconds);
}

/// Refutations come at sizes the contract admits: 256 for the kernels that require it.
fn refuted(rel: &str, sp: &str) -> (u32, warpsafe_induct::Counterexample) {
    let o = prove_all_sizes_with(
        &kernel(rel),
        Some(&spec(sp)),
        &Options {
            bound: 256,
            ..Options::default()
        },
    );
    match &o.verdict {
        Verdict::Refuted {
            size,
            counterexample: Some(c),
            ..
        } => (*size, c.clone()),
        other => panic!("{rel}: {other:?}\n{}", show(&o)),
    }
}

#[test]
fn wrong_variants_are_refuted_and_replayed_concretely() {
    let (size, c) = refuted("examples/induct/kogge_stone_off_by_one.cu", KS_SPEC);
    assert!(
        size <= 4 && c.message.contains("but the spec gives"),
        "{c:?}"
    );
    let (_, c) = refuted("examples/induct/kogge_stone_missing_barrier.cu", KS_SPEC);
    assert!(c.message.to_lowercase().contains("race"), "{c:?}");
    let (size, c) = refuted("examples/induct/blelloch_wrong_swap.cu", BL_SPEC);
    assert!(c.message.contains("but the spec gives"), "{c:?}");
    assert_eq!(size, 256, "`requires blockDim.x == 256`");
    let (_, c) = refuted("examples/induct/blelloch_short_downsweep.cu", BL_SPEC);
    assert!(c.message.contains("but the spec gives"), "{c:?}");
    let (_, c) = refuted(
        "examples/induct/blelloch_short_upsweep.cu",
        "examples/induct/blelloch_scan_totals.spec",
    );
    assert!(c.message.contains("block_sums"), "{c:?}");
    let (_, c) = refuted("examples/induct/reduce_missing_barrier.cu", RED_SPEC);
    assert!(c.message.to_lowercase().contains("race"), "{c:?}");
    let (_, c) = refuted("examples/induct/reduce_off_by_one.cu", RED_SPEC);
    assert!(c.message.contains("g_odata"), "{c:?}");
}

#[test]
fn a_planted_wrong_invariant_is_not_proved() {
    let k = kernel(KS);
    let s = spec(KS_SPEC);
    let mut invs = fit_invariants(&k, Mode::Interval, SizeDomain::All).expect("fits");
    let good = prove_with(&k, &s, SizeDomain::All, Mode::Interval, &invs, 10_000);
    assert_eq!(good.failure, None);
    invs[0].arrays[0].template = Template::Prefix { a: 2, b: 1 };
    let bad = prove_with(&k, &s, SizeDomain::All, Mode::Interval, &invs, 10_000);
    assert!(bad.failure.is_some());
}

#[test]
fn the_correct_invariant_does_not_prove_a_wrong_kernel() {
    let invs = fit_invariants(&kernel(KS), Mode::Interval, SizeDomain::All).expect("fits");
    let wrong = kernel("examples/induct/kogge_stone_off_by_one.cu");
    let r = prove_with(
        &wrong,
        &spec(KS_SPEC),
        SizeDomain::All,
        Mode::Interval,
        &invs,
        10_000,
    );
    assert!(r.failure.is_some());
    assert!(r.obligations.iter().any(|o| o.holds == Some(false)));
}

#[test]
fn a_loop_with_two_barriers_is_left_to_the_bounded_proof() {
    let src = r#"
//--blockDim=8 --gridDim=1
//@ len(x) = n
//@ len(y) = n
__global__ void scan(const float* x, float* y, int n) {
    __shared__ float s[8];
    int t = threadIdx.x;
    s[t] = (t < n) ? x[t] : 0.0f;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        float v = s[t];
        if (t >= d) v = s[t - d] + v;
        __syncthreads();
        s[t] = v;
        __syncthreads();
    }
    if (t < n) y[t] = s[t];
}"#;
    let k = warpsafe_cuda_front::compile(src)
        .expect("compiles")
        .kernels
        .remove(0);
    let sp = warpsafe_equiv::Spec::parse("y[i] = sum(k < i + 1, x[k]) for i < n").expect("parses");
    let o = prove_all_sizes_with(&k, Some(&sp), &opts());
    match &o.verdict {
        Verdict::ProvedUpTo {
            bound, why_not_all, ..
        } => {
            assert_eq!(*bound, 64);
            assert!(why_not_all.contains("barrier"), "{why_not_all}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_failure_the_contract_excludes_is_no_refutation() {
    // Wrong at small sizes, but `requires blockDim.x == 256` and the sweep stops at 64.
    let o = prove_all_sizes_with(
        &kernel("examples/induct/blelloch_wrong_swap.cu"),
        Some(&spec(BL_SPEC)),
        &opts(),
    );
    match &o.verdict {
        Verdict::Unknown { reason } => assert!(reason.contains("contract"), "{reason}"),
        other => panic!("{other:?}\n{}", show(&o)),
    }
    assert!(
        o.assumptions
            .iter()
            .any(|a| a.contains("blockDim.x == 256")),
        "{:?}",
        o.assumptions
    );
}

const FIXED: &str = "examples/induct/reduce_fixed_stride.cu";
const FIXED_TWIN: &str = "examples/induct/reduce_fixed_stride_no_requires.cu";

#[test]
fn a_reduction_for_at_most_256_threads_is_proved_within_its_contract() {
    let o = prove_all_sizes_with(&kernel(FIXED), Some(&spec(RED_SPEC)), &Options::default());
    assert_eq!(
        o.verdict,
        Verdict::ProvedAllSizes {
            domain: SizeDomain::All
        },
        "{}",
        show(&o)
    );
    assert!(
        o.assumptions
            .iter()
            .any(|a| a.contains("requires") && a.contains("256")),
        "{:?}",
        o.assumptions
    );
    assert!(
        o.obligations.iter().all(|ob| ob.holds == Some(true)),
        "{}",
        show(&o)
    );
}

#[test]
fn its_twin_without_the_requires_is_refuted_above_256() {
    let o = prove_all_sizes_with(
        &kernel(FIXED_TWIN),
        Some(&spec(RED_SPEC)),
        &Options::default(),
    );
    match &o.verdict {
        Verdict::Refuted {
            size,
            counterexample: Some(c),
            ..
        } => {
            assert_eq!(*size, 512);
            assert!(c.message.contains("g_odata"), "{c:?}");
        }
        other => panic!("{other:?}\n{}", show(&o)),
    }
}

#[test]
fn the_induction_covers_the_sizes_it_is_given() {
    use warpsafe_induct::induction::{prove, Sizes};
    let sizes = Sizes { lo: 1, hi: 256 };
    let r = prove(
        &kernel(KS),
        Some(&spec(KS_SPEC)),
        SizeDomain::All,
        Mode::Interval,
        sizes,
        10_000,
    );
    assert_eq!(r.failure, None, "{:?}", r.obligations);
    assert!(r
        .obligations
        .iter()
        .any(|o| o.method == Method::Induction && o.detail.contains("1 ≤ N ≤ 256")));
}
