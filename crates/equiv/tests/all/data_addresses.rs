//! Addresses computed from input data (issue 18, item 4): gathers, histograms, SpMV and
//! scatters run on symbolic memory (a load at such an address is a chain over the cells it may
//! name, a store or an atomic updates each of them under `index == k`). Correct pairs come out
//! `equal`, their buggy twins `different` with a replayed counterexample or with a finding, and
//! what cannot be shown in bounds or free of races is `unknown` with the reason.

use crate::common;

use common::{check_in, read, replayed_difference};
use warpsafe_equiv::{equiv_programs, kernel_from_source, EquivConfig, EquivReport};

fn check(reference: &str, candidate: &str) -> EquivReport {
    check_in(
        "data_addresses",
        reference,
        candidate,
        &EquivConfig::default(),
    )
}

fn equal(reference: &str, candidate: &str) {
    let r = check(reference, candidate);
    assert_eq!(r.verdict, "equal", "{reference} vs {candidate}: {r:#?}");
    assert!(
        r.outputs.iter().all(|o| o.unknown == 0 && o.different == 0),
        "{r:#?}"
    );
}

/// `unknown`, with a not-structured finding whose message contains `why` in `candidate`.
fn unknown_because(reference: &str, candidate: &str, why: &str) {
    let r = check(reference, candidate);
    assert_eq!(r.verdict, "unknown", "{reference} vs {candidate}: {r:#?}");
    assert!(
        r.optimized
            .findings
            .iter()
            .any(|f| f.kind == "not-structured" && f.message.contains(why)),
        "{:#?}",
        r.optimized.findings
    );
}

#[test]
fn a_checked_gather_is_equal_however_the_product_is_written() {
    equal("gather_scaled", "gather_doubled");
    equal("gather_masked", "gather_masked_swapped");
}

#[test]
fn a_gather_from_a_shared_copy_is_equal_and_without_its_barrier_is_not() {
    equal("gather_masked", "gather_staged");
    let r = check("gather_masked", "gather_staged_bug_nosync");
    assert_ne!(r.verdict, "equal", "{r:#?}");
    assert!(
        r.optimized
            .findings
            .iter()
            .any(|f| f.kind == "not-structured" && f.message.contains("before anything is written")),
        "{:#?}",
        r.optimized.findings
    );
    if r.verdict == "different" {
        replayed_difference(&r);
    }
}

#[test]
fn a_gather_from_the_neighbouring_element_is_a_replayed_difference() {
    replayed_difference(&check("gather_scaled", "gather_bug_shift"));
}

#[test]
fn an_unchecked_gather_is_unknown_never_equal() {
    // idx may hold any int: the load may read outside x, which the run will not assume away.
    unknown_because("gather_scaled", "gather_unchecked", "may lie outside it");
}

#[test]
fn a_privatised_histogram_is_equal_to_global_atomics() {
    equal("hist_global", "hist_shared");
    // Two blocks: each block's shared counts are added to the global bins, and the blocks'
    // additions to the same bin merge by adding.
    equal("hist_global_grid", "hist_shared_grid");
}

#[test]
fn a_histogram_with_too_few_bins_is_a_replayed_difference() {
    replayed_difference(&check("hist_global", "hist_bug_mask"));
}

#[test]
fn a_histogram_published_without_a_barrier_is_never_equal() {
    let r = check("hist_global", "hist_shared_bug_nosync");
    assert_ne!(r.verdict, "equal", "{r:#?}");
    // Which threads' atomics meet a thread's read of a bin depends on the data: the race is a
    // possible one, reported as undecided, never as certain.
    assert!(
        r.optimized
            .findings
            .iter()
            .any(|f| f.kind == "not-structured" && f.message.contains("possible race")),
        "{:#?}",
        r.optimized.findings
    );
    if r.verdict == "different" {
        replayed_difference(&r);
    }
}

#[test]
fn csr_spmv_one_thread_per_row_is_equal_to_one_warp_per_row() {
    equal("spmv_row", "spmv_warp");
    equal("spmv_row", "spmv_row_backwards");
}

#[test]
fn csr_spmv_missing_a_nonzero_is_a_replayed_difference() {
    replayed_difference(&check("spmv_row", "spmv_bug_short"));
}

#[test]
fn csr_spmv_without_a_column_check_is_unknown() {
    unknown_because("spmv_row", "spmv_unchecked", "may lie outside it");
}

#[test]
fn a_bounds_check_written_with_negations_is_the_same_check() {
    // `!(c < 0 || c >= 16)` and `!(p < 0) && !(p > 15)` are `c >= 0 && c < 16`: the branch
    // conditions are canonical, so the guards, and the cells they update, meet.
    equal("spmv_row", "spmv_row_negated_check");
    equal("scatter_serial", "scatter_serial_negated_check");
}

#[test]
fn a_serial_scatter_is_equal_however_it_is_written() {
    equal("scatter_serial", "scatter_serial_pointer");
}

#[test]
fn a_scatter_in_the_other_order_differs_when_an_index_repeats() {
    // The last write to a cell wins: with a repeated index in perm the two orders differ, and
    // the replay shows it.
    replayed_difference(&check("scatter_serial", "scatter_serial_bug_reversed"));
}

#[test]
fn a_parallel_scatter_is_a_possible_race_not_equal() {
    // Nothing says perm is a permutation: two threads may write one cell.
    unknown_because("scatter_serial", "scatter_parallel", "possible race");
}

#[test]
fn a_checked_histogram_is_equal_to_its_privatised_form() {
    // The atomics sit under a branch on the data: each adds `guard ? 1 : 0`, at a bin named by
    // the data (or, for the publishing step, a fixed one).
    equal("hist_checked_global", "hist_checked_shared");
    equal("count_positive_global", "count_positive_shared");
}

#[test]
fn a_checked_histogram_that_skips_a_bin_is_a_replayed_difference() {
    replayed_difference(&check("hist_checked_global", "hist_checked_bug_skips_zero"));
}

/// `tests/data_addresses/NAME.cu` through our CUDA codegen, NVRTC and the PTX lowering; None
/// without NVRTC.
fn via_ptx(name: &str) -> Option<warpsafe_exec::Program> {
    if warpsafe_cuda::nvrtc_path().is_err() {
        eprintln!("note: NVRTC not found; PTX-road tests skipped");
        return None;
    }
    let k = kernel_from_source(&read("data_addresses", name), None).expect("parses");
    let cuda = warpsafe_cuda::generate(&k).expect("codegen");
    let ptx = warpsafe_cuda::compile_ptx(&cuda, &Default::default())
        .expect("NVRTC")
        .ptx;
    let module = warpsafe_ptx::parse(&ptx).expect("PTX parses");
    let p = warpsafe_ptx::lower_with(
        &module,
        &warpsafe_ptx::LowerOptions {
            entry: Some(&k.name),
            signature: Some(&k),
            source: Some(&ptx),
        },
    )
    .expect("PTX lowers");
    Some(p)
}

#[test]
fn the_ptx_road_checks_gathers_and_spmv_too() {
    // NVRTC tests `j >= 0 && j < 64` as one unsigned compare and scales by shifts: the bounds
    // still follow, and the pairs meet as on the source road.
    for (a, b, want) in [
        ("gather_scaled", "gather_doubled", "equal"),
        ("spmv_row", "spmv_warp", "equal"),
        ("scatter_serial", "scatter_serial_negated_check", "equal"),
        ("gather_scaled", "gather_bug_shift", "different"),
        ("hist_global", "hist_bug_mask", "different"),
    ] {
        let (Some(pa), Some(pb)) = (via_ptx(a), via_ptx(b)) else {
            return;
        };
        let r = equiv_programs(&pa, &pb, &EquivConfig::default()).expect("runs");
        assert_eq!(r.verdict, want, "{a} vs {b} via PTX: {r:#?}");
        if want == "different" {
            replayed_difference(&r);
        }
    }
    // The two histograms' offsets differ in form on this road (`(d << 2) & 28` with and without
    // a widening): never a wrong verdict.
    if let (Some(pa), Some(pb)) = (via_ptx("hist_global"), via_ptx("hist_shared")) {
        let r = equiv_programs(&pa, &pb, &EquivConfig::default()).expect("runs");
        assert!(r.verdict == "equal" || r.verdict == "unknown", "{r:#?}");
    }
}

/// The input values of the counterexample's buffer `name` that its witness lists.
fn witness_values(r: &EquivReport, name: &str) -> Vec<f64> {
    r.counterexample
        .as_ref()
        .map(|c| {
            c.inputs
                .iter()
                .filter(|t| t.name == name)
                .flat_map(|t| t.entries.iter().map(|e| e.2))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_gather_wrong_only_for_large_indices_is_a_replayed_difference() {
    // `x[j & 31]` agrees with `x[j]` for every index below 32: the counterexample needs an
    // input index from 32 up, beyond the small values drawn first.
    let r = check("gather_scaled", "gather_bug_wrap");
    replayed_difference(&r);
    assert!(
        witness_values(&r, "idx")
            .iter()
            .any(|&v| (32.0..64.0).contains(&v)),
        "{r:#?}"
    );
}

#[test]
fn a_256_bin_histogram_wrong_only_in_high_bins_is_a_replayed_difference() {
    equal("hist256_global", "hist256_shared");
    // Bins 200 to 255 are never published: only data values from 200 up show it.
    let r = check("hist256_global", "hist256_shared_bug_publish");
    replayed_difference(&r);
    let c = r.counterexample.as_ref().expect("a counterexample");
    assert!(c.index >= 200, "{c:#?}");
}
