//! Honest verdicts (issue 18, item 0) at the library level: `different` needs a concrete
//! replay in the interpreter, every block is compared by default, budgets end in `unknown`.

use std::path::PathBuf;
use warpsafe_equiv::{
    equiv_sources, kernel_from_source, prove_spec, BlockSel, EquivConfig, ExecConfig, Limits, Spec,
};

fn read(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/honest/{name}.cu"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

const SOFTMAX: &str = "shape x[2][8]\nshape y[2][8]\n\
    y[r][i] = exp(x[r][i] - max(j < 8, x[r][j])) / sum(j < 8, exp(x[r][j] - max(k < 8, x[r][k]))) for r < 2, i < 8";

#[test]
fn a_spurious_symbolic_difference_is_unknown() {
    let r = equiv_sources(
        &read("softmax_fmax"),
        &read("softmax_online_loop"),
        &EquivConfig::default(),
    )
    .expect("runs");
    assert_eq!(r.verdict, "unknown", "{r:#?}");
    assert!(r.counterexample.is_none());
    let why = r.reason.expect("a reason");
    assert!(why.contains("not real"), "{why}");
}

#[test]
fn a_data_dependent_maximum_is_if_converted_and_equal() {
    let r = equiv_sources(
        &read("softmax_fmax"),
        &read("softmax_online_branch"),
        &EquivConfig::default(),
    )
    .expect("runs");
    assert_eq!(r.verdict, "equal", "{r:#?}");
    assert_eq!(r.outputs[0].compared, 16);
}

#[test]
fn a_real_difference_is_replayed() {
    let r = equiv_sources(
        &read("softmax_fmax"),
        &read("softmax_online_branch_bug_norescale"),
        &EquivConfig::default(),
    )
    .expect("runs");
    assert_eq!(r.verdict, "different", "{r:#?}");
    let cx = r.counterexample.expect("a counterexample");
    let replay = cx.replay.expect("replayed");
    assert!((replay.expected - replay.actual).abs() > 1e-3, "{replay:?}");
}

#[test]
fn the_select_form_is_equal_and_every_block_is_compared() {
    let r = equiv_sources(
        &read("softmax_fmax"),
        &read("softmax_online_select"),
        &EquivConfig::default(),
    )
    .expect("runs");
    assert_eq!(r.verdict, "equal");
    assert_eq!(r.outputs[0].compared, 16);
    assert_eq!(r.scope, "every block");
}

#[test]
fn a_bug_in_block_1_is_found_by_default_and_missed_only_on_request() {
    let r = equiv_sources(
        &read("scale"),
        &read("scale_bug_block1"),
        &EquivConfig::default(),
    )
    .expect("runs");
    assert_eq!(r.verdict, "different");
    assert_eq!(r.counterexample.expect("counterexample").index, 32);
    let block0 = EquivConfig::both(ExecConfig {
        blocks: BlockSel::BLOCK0,
        ..ExecConfig::default()
    });
    let r = equiv_sources(&read("scale"), &read("scale_bug_block1"), &block0).expect("runs");
    assert_eq!(r.verdict, "equal");
    assert!(r.scope.contains("block 0 only"), "{}", r.scope);
}

#[test]
fn a_tiny_memory_budget_is_unknown() {
    if warpsafe_equiv::resident_bytes().is_none() {
        return; // the budget reads /proc
    }
    let cfg = EquivConfig::both(ExecConfig {
        limits: Limits {
            max_memory: Some(1 << 10),
            timeout: None,
        },
        ..ExecConfig::default()
    });
    let r =
        equiv_sources(&read("softmax_fmax"), &read("softmax_online_select"), &cfg).expect("runs");
    assert_eq!(r.verdict, "unknown");
    assert!(
        r.reason
            .as_deref()
            .is_some_and(|w| w.starts_with("memory budget")),
        "{:?}",
        r.reason
    );
}

#[test]
fn prove_does_not_say_different_on_a_stopped_run() {
    let spec = Spec::parse(SOFTMAX).expect("spec");
    let stopped = kernel_from_source(&read("softmax_online_loop"), None).expect("kernel");
    let r = prove_spec(&stopped, &spec, &ExecConfig::default()).expect("runs");
    assert_eq!(r.verdict, "unknown", "{r:#?}");
    let branch = kernel_from_source(&read("softmax_online_branch"), None).expect("kernel");
    let r = prove_spec(&branch, &spec, &ExecConfig::default()).expect("runs");
    assert_eq!(r.verdict, "equal", "{r:#?}");
    let bug =
        kernel_from_source(&read("softmax_online_branch_bug_norescale"), None).expect("kernel");
    let r = prove_spec(&bug, &spec, &ExecConfig::default()).expect("runs");
    assert_eq!(r.verdict, "different", "{r:#?}");
    assert!(r.counterexample.and_then(|c| c.replay).is_some());
    let select = kernel_from_source(&read("softmax_online_select"), None).expect("kernel");
    let r = prove_spec(&select, &spec, &ExecConfig::default()).expect("runs");
    assert_eq!(r.verdict, "equal", "{r:#?}");
}
