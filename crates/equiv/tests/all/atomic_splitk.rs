//! Atomic additions across blocks (split-K GEMM, counters): each block runs on its own copy
//! of global memory, so a cell that every block only adds to with `atomicAdd` (old value
//! unused) ends as its start plus every block's change — on terms and in the prime field
//! alike. Before, the last block's value overwrote the others' and the pair was `unknown`.

use crate::common;

use common::{check_in, replayed_difference};
use warpsafe_equiv::{EquivConfig, EquivReport};

fn check(reference: &str, candidate: &str, exact: bool) -> EquivReport {
    let cfg = EquivConfig {
        exact,
        ..EquivConfig::default()
    };
    check_in("atomic_splitk", reference, candidate, &cfg)
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
