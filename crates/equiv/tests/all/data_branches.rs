//! Branches on input data (issue 18, item 4): the symbolic executor runs both sides of such a
//! branch and merges them (`if (s > m) m = s` is `m = max(m, s)`); correct kernels come out
//! `equal`, their buggy twins `different` with a replayed counterexample, and what cannot be
//! converted, or may not run, is `unknown` with the reason — never a finding it cannot stand by.

use crate::common;

use common::{check_in, replayed_difference};
use warpsafe_equiv::{EquivConfig, EquivReport};

fn check(reference: &str, candidate: &str) -> EquivReport {
    check_in(
        "data_branches",
        reference,
        candidate,
        &EquivConfig::default(),
    )
}

#[test]
fn a_branch_on_the_data_that_stores_on_both_sides_is_equal_to_fmaxf() {
    let r = check("relu_fmax", "relu_branch");
    assert_eq!(r.verdict, "equal", "{r:#?}");
    assert_eq!(r.outputs[0].compared, 128);
}

#[test]
fn a_flipped_comparison_is_a_replayed_difference() {
    replayed_difference(&check("relu_fmax", "relu_branch_bug_flipped"));
}

#[test]
fn a_store_under_a_branch_is_never_an_unconditional_finding() {
    for twin in ["relu_branch_bug_race", "relu_branch_bug_oob"] {
        let r = check("relu_fmax", twin);
        assert_ne!(r.verdict, "equal", "{twin}: {r:#?}");
        // The store may not run, so neither its race nor its out-of-bounds address is a
        // certain bug: the findings are "not structured" (undecided), never `race`/`oob`.
        assert!(
            r.optimized
                .findings
                .iter()
                .all(|f| f.kind == "not-structured"),
            "{twin}: {:#?}",
            r.optimized.findings
        );
        if r.verdict == "different" {
            replayed_difference(&r);
        }
    }
}

#[test]
fn nested_branches_are_converted_without_a_wrong_verdict() {
    // `v > 1 ? 1 : (v < 0 ? 0 : v)` is min(max(v, 0), 1); the algebra has no rule for the
    // outer select, so `unknown` is the honest answer, and it must not be `different`.
    let r = check("clamp_reference", "clamp_nested");
    assert!(r.verdict == "equal" || r.verdict == "unknown", "{r:#?}");
    assert!(
        r.optimized
            .findings
            .iter()
            .all(|f| f.kind != "not-structured"),
        "{:#?}",
        r.optimized.findings
    );
}

#[test]
fn flash_attention_with_a_data_dependent_row_maximum_is_equal() {
    let r = check("attention_reference", "attention_flash_minimal");
    assert_eq!(r.verdict, "equal", "{r:#?}");
}

#[test]
fn flash_attention_without_the_rescale_is_a_replayed_difference() {
    replayed_difference(&check(
        "attention_reference",
        "attention_flash_minimal_bug_norescale",
    ));
}
