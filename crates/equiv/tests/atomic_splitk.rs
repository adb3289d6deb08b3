//! Atomic additions across blocks (split-K GEMM, counters): each block runs on its own copy
//! of global memory, so a cell that every block only adds to with `atomicAdd` (old value
//! unused) ends as its start plus every block's change — on terms and in the prime field
//! alike. Before, the last block's value overwrote the others' and the pair was `unknown`.

use std::path::PathBuf;
use warpsafe_equiv::{equiv_sources, EquivConfig, EquivReport};

fn read(name: &str) -> String {
    let p =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/atomic_splitk/{name}.cu"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn check(reference: &str, candidate: &str, exact: bool) -> EquivReport {
    let cfg = EquivConfig {
        exact,
        ..EquivConfig::default()
    };
    equiv_sources(&read(reference), &read(candidate), &cfg).expect("runs")
}

fn replayed_difference(r: &EquivReport) {
    assert_eq!(r.verdict, "different", "{r:#?}");
    let replay = r
        .counterexample
        .as_ref()
        .and_then(|c| c.replay.as_ref())
        .expect("replayed in the interpreter");
    assert!((replay.expected - replay.actual).abs() > 1e-6, "{replay:?}");
}

#[test]
fn split_k_with_atomic_add_equals_the_plain_product_on_both_roads() {
    for exact in [false, true] {
        let r = check("mm_reference", "mm_splitk_atomic", exact);
        assert_eq!(r.verdict, "equal", "exact {exact}: {r:#?}");
        assert_eq!(r.outputs[0].equal, 256, "exact {exact}");
        // The field road builds no term; the term road does.
        assert_eq!(r.optimized.stats.terms == 0, !exact, "exact {exact}");
    }
}

#[test]
fn a_short_slice_is_a_replayed_difference() {
    replayed_difference(&check("mm_reference", "mm_splitk_atomic_bug_short", false));
}

#[test]
fn adding_into_an_uncleared_output_is_a_replayed_difference() {
    replayed_difference(&check(
        "mm_reference_noinit",
        "mm_splitk_atomic_noinit",
        false,
    ));
}

#[test]
fn a_counter_every_thread_adds_one_to_counts_them_all() {
    for exact in [false, true] {
        let r = check("count_reference", "count_atomic", exact);
        assert_eq!(r.verdict, "equal", "exact {exact}: {r:#?}");
    }
}
