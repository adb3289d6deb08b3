//! The interval abstraction at concrete sizes: correct kernels prove, wrong ones fail.

mod common;

use common::*;
use warpsafe_induct::{check_size, sweep, FailureKind, Mode, SizeVerdict};

fn proved(v: &SizeVerdict) -> bool {
    matches!(v, SizeVerdict::Proved { .. })
}

#[test]
fn kogge_stone_proves_at_every_size_up_to_256() {
    let k = kernel(KS);
    let s = spec(KS_SPEC);
    let sw = sweep(&k, Some(&s), 256, 1);
    assert!(sw.pow2_failure.is_none(), "{:?}", sw.pow2_failure);
    assert!(sw.other_failure.is_none(), "{:?}", sw.other_failure);
    assert_eq!(sw.sizes, 256);
    assert_eq!(sw.mode, Mode::Interval);
}

#[test]
fn kogge_stone_proves_over_two_blocks_and_on_integers() {
    let s = spec(KS_SPEC);
    assert!(proved(&check_size(&kernel(KS), Some(&s), 37, 2)));
    let ki = kernel(KS_INT);
    let si = spec(KS_INT_SPEC);
    assert!(proved(&check_size(&ki, Some(&si), 64, 2)));
    let bi = kernel(BL_INT);
    let sbi = spec(BL_INT_SPEC);
    assert!(proved(&check_size(&bi, Some(&sbi), 64, 2)));
    let sw = sweep(&bi, Some(&sbi), 256, 1);
    assert!(sw.pow2_failure.is_none(), "{:?}", sw.pow2_failure);
}

#[test]
fn blelloch_proves_at_powers_of_two_and_fails_elsewhere() {
    let k = kernel(BL);
    let s = spec(BL_SPEC);
    let sw = sweep(&k, Some(&s), 256, 1);
    assert!(sw.pow2_failure.is_none(), "{:?}", sw.pow2_failure);
    let size = sw
        .other_failure
        .expect("Blelloch needs a power of two")
        .size;
    assert!(!size.is_power_of_two());
}

#[test]
fn sequential_reduction_needs_commutativity() {
    let k = kernel(RED);
    let s = spec(RED_SPEC);
    match check_size(&k, Some(&s), 64, 1) {
        SizeVerdict::Proved { mode, .. } => assert_eq!(mode, Mode::Commutative),
        other => panic!("{other:?}"),
    }
}

fn failure(rel: &str, sp: &str, size: u32) -> FailureKind {
    match check_size(&kernel(rel), Some(&spec(sp)), size, 1) {
        SizeVerdict::Failed(f) => f.kind,
        other => panic!("{rel} at {size}: {other:?}"),
    }
}

#[test]
fn wrong_variants_fail_at_small_sizes() {
    assert!(matches!(
        failure("examples/induct/kogge_stone_missing_barrier.cu", KS_SPEC, 8),
        FailureKind::Race { .. }
    ));
    assert!(!matches!(
        failure("examples/induct/kogge_stone_off_by_one.cu", KS_SPEC, 8),
        FailureKind::Race { .. }
    ));
    assert!(matches!(
        failure("examples/induct/reduce_missing_barrier.cu", RED_SPEC, 8),
        FailureKind::Race { .. }
    ));
    assert!(matches!(
        failure("examples/induct/reduce_off_by_one.cu", RED_SPEC, 8),
        FailureKind::WrongOutput { .. }
    ));
    failure("examples/induct/blelloch_wrong_swap.cu", BL_SPEC, 8);
    failure("examples/induct/blelloch_short_downsweep.cu", BL_SPEC, 8);
    // Skipping the last up-sweep level leaves the exclusive scan right (the root is
    // cleared anyway) but the block total wrong.
    let short = kernel("examples/induct/blelloch_short_upsweep.cu");
    assert!(proved(&check_size(&short, Some(&spec(BL_SPEC)), 8, 1)));
    assert!(matches!(
        failure(
            "examples/induct/blelloch_short_upsweep.cu",
            "examples/induct/blelloch_scan_totals.spec",
            8
        ),
        FailureKind::WrongOutput { .. }
    ));
    assert!(proved(&check_size(
        &kernel(BL),
        Some(&spec("examples/induct/blelloch_scan_totals.spec")),
        16,
        2
    )));
}

#[test]
fn a_wrong_spec_is_rejected() {
    let k = kernel(KS);
    let wrong = spec("examples/specs/wrong/kogge_stone_scan_exclusive.spec");
    assert!(matches!(
        check_size(&k, Some(&wrong), 16, 1),
        SizeVerdict::Failed(f) if matches!(f.kind, FailureKind::WrongOutput { .. })
    ));
}

/// The full sweep of issue 8: every size up to 2^12 for Kogge–Stone, every power of two for
/// Blelloch (release build: `cargo test --release -p warpsafe-induct -- --ignored`).
#[test]
#[ignore]
fn full_sweep_to_4096_under_a_minute() {
    let t0 = std::time::Instant::now();
    for (k, s) in [
        (KS, KS_SPEC),
        (BL, BL_SPEC),
        (KS_INT, KS_INT_SPEC),
        (BL_INT, BL_INT_SPEC),
    ] {
        let sw = sweep(&kernel(k), Some(&spec(s)), 4096, 1);
        assert!(sw.pow2_failure.is_none(), "{k}: {:?}", sw.pow2_failure);
        eprintln!(
            "{k}: {} sizes in {:.2} s (other-size failure: {:?})",
            sw.sizes,
            sw.seconds,
            sw.other_failure.map(|f| f.size)
        );
    }
    let total = t0.elapsed().as_secs_f64();
    eprintln!("total {total:.2} s");
    assert!(total < 60.0);
}
