//! Activations spelled three ways (issue 18, item 3): GELU's tanh approximation with `tanhf`,
//! with tanh written through `expf`, and as `x · sigmoid(2u)` with `__expf`. Over the reals
//! they are one function, so every pair is `equal` (tanh is read as (e^{2x} − 1)/(e^{2x} + 1));
//! a flipped sign is `different`, replayed in the interpreter.

use crate::common;

use common::{check_in, replayed_difference};
use warpsafe_equiv::{EquivConfig, EquivReport};

fn check(reference: &str, candidate: &str) -> EquivReport {
    check_in("activations", reference, candidate, &EquivConfig::default())
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
    replayed_difference(&check("gelu_tanh", "gelu_exp_bug_sign"));
}
