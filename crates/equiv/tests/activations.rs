//! Activations spelled three ways (issue 18, item 3): GELU's tanh approximation with `tanhf`,
//! with tanh written through `expf`, and as `x · sigmoid(2u)` with `__expf`. Over the reals
//! they are one function, so every pair is `equal` (tanh is read as (e^{2x} − 1)/(e^{2x} + 1));
//! a flipped sign is `different`, replayed in the interpreter.

use std::path::PathBuf;
use warpsafe_equiv::{equiv_sources, EquivConfig, EquivReport};

fn read(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/activations/{name}.cu"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn check(reference: &str, candidate: &str) -> EquivReport {
    equiv_sources(&read(reference), &read(candidate), &EquivConfig::default()).expect("runs")
}

#[test]
fn gelu_with_tanhf_equals_gelu_with_tanh_through_expf() {
    let r = check("gelu_tanh", "gelu_exp");
    assert_eq!(r.verdict, "equal", "{r:#?}");
    assert_eq!(r.outputs[0].equal, 128);
}

#[test]
fn gelu_with_tanhf_equals_x_times_a_sigmoid() {
    let r = check("gelu_tanh", "gelu_sigmoid");
    assert_eq!(r.verdict, "equal", "{r:#?}");
    assert_eq!(r.outputs[0].equal, 128);
}

#[test]
fn a_flipped_sign_in_the_tanh_is_a_replayed_difference() {
    let r = check("gelu_tanh", "gelu_exp_bug_sign");
    assert_eq!(r.verdict, "different", "{r:#?}");
    let replay = r
        .counterexample
        .as_ref()
        .and_then(|c| c.replay.as_ref())
        .expect("replayed in the interpreter");
    assert!((replay.expected - replay.actual).abs() > 1e-3, "{replay:?}");
}
