//! Equivalence of every benchmark family member with its reference, buggy twins included
//! (the heavier SGEMM and attention pairs run here on a subset; `bench_equiv` runs them all).

use std::path::Path;
use warpsafe_equiv::{equiv_sources, BlockSel, EquivConfig, ExecConfig, BENCH_PAIRS};

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/equiv")
}

fn check(reference: &str, optimized: &str, lockstep: bool) -> warpsafe_equiv::EquivReport {
    let read = |f: &str| std::fs::read_to_string(root().join(f)).expect("example file");
    let exec = ExecConfig {
        blocks: BlockSel::All,
        lockstep_warps: lockstep,
        ..ExecConfig::default()
    };
    equiv_sources(&read(reference), &read(optimized), &EquivConfig::both(exec)).expect("runs")
}

fn family(name: &str, only: &[&str]) {
    for p in BENCH_PAIRS.iter().filter(|p| p.family == name) {
        if !only.is_empty() && !only.iter().any(|o| p.optimized.contains(o)) {
            continue;
        }
        let r = check(p.reference, p.optimized, p.lockstep);
        assert_eq!(
            r.verdict, p.expect,
            "{} vs {} (lockstep {})",
            p.reference, p.optimized, p.lockstep
        );
        if p.expect == "different" {
            let c = r.counterexample.expect("a counterexample");
            assert_ne!(c.expected, c.actual);
            assert!(!c.inputs.is_empty());
        }
    }
}

#[test]
fn reductions() {
    family("reduce", &[]);
}

#[test]
fn softmax() {
    family("softmax", &[]);
}

#[test]
fn sgemm_subset() {
    family("sgemm", &["sgemm5_2d", "sgemm6_bug"]);
}

#[test]
#[ignore = "several seconds in debug builds; run by bench_equiv in release"]
fn sgemm_all() {
    family("sgemm", &[]);
}

#[test]
#[ignore = "several seconds in debug builds; run by bench_equiv in release"]
fn attention() {
    family("attention", &[]);
}

#[test]
fn single_block_mode_compares_what_both_wrote() {
    let read = |f: &str| std::fs::read_to_string(root().join(f)).expect("example file");
    let r = equiv_sources(
        &read("softmax/softmax_naive.cu"),
        &read("softmax/softmax_online.cu"),
        &EquivConfig::both(ExecConfig {
            blocks: BlockSel::BLOCK0,
            ..ExecConfig::default()
        }),
    )
    .expect("runs");
    assert_eq!(r.verdict, "equal");
    assert_eq!(r.outputs[0].compared, 128);
    assert!(r.scope.contains("block 0 only"), "{}", r.scope);
}

#[test]
fn every_output_element_is_compared_by_default() {
    let read = |f: &str| std::fs::read_to_string(root().join(f)).expect("example file");
    let r = equiv_sources(
        &read("softmax/softmax_naive.cu"),
        &read("softmax/softmax_online.cu"),
        &EquivConfig::both(ExecConfig::default()),
    )
    .expect("runs");
    assert_eq!(r.verdict, "equal");
    assert_eq!(r.outputs[0].compared, 512);
    assert_eq!(r.scope, "every block");
}
