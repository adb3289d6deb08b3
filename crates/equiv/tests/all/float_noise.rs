//! Differences below float noise at the ordinary points. The counterexample search draws reals
//! `k/8` in [-3, 3]; there, a normalisation's `epsilon` (1e-5 or 1e-6 beside a mean square
//! near 3) moves the outputs by about 1e-6 relative, inside the replay's tolerance of 1e-3, so
//! a twin that mishandles it could only be `unknown`. The narrow points (reals scaled to about
//! 10^-k of that range, or concentrated around a centre: `c + 10^-k·r`) make the `epsilon`
//! dominate, and the interpreter then reproduces the difference.
//!
//! - `ln_ref` / `ln_opt` / `ln_bug`: a layernorm over rows of 16 (one thread per row against
//!   warp shuffles and `rsqrtf`); `ln_bug` drops the `1e-5` epsilon. At ordinary points the
//!   symbolic values differ by 1.7e-6 relative and the replay gave 1.9044904 against
//!   1.9044935 (`unknown`); on a row of nearly equal values the variance is below the epsilon.
//! - `rms_ref` / `rms_opt` / `rms_bug_eps_outside`: an RMSNorm with epsilon 1e-6, the twin
//!   adding it to the root instead of under it (`x / (sqrt(ms) + eps)` for
//!   `x / sqrt(ms + eps)`, a real slip between two common ways of guarding the division).
//!   At ordinary points the terms differ by about 4e-7 relative, below even the symbolic
//!   search's tolerance, so the normal forms differed with no point separating them
//!   (`unknown`); on inputs scaled to about 1e-4 the mean square (1e-8) is far below the
//!   epsilon and the two roots are an order of magnitude apart.

use crate::common;

use common::{check_in, replayed_difference};
use warpsafe_equiv::{EquivConfig, EquivReport};

fn check(reference: &str, candidate: &str) -> EquivReport {
    check_in("float_noise", reference, candidate, &EquivConfig::default())
}

fn equal(reference: &str, candidate: &str) {
    let r = check(reference, candidate);
    assert_eq!(r.verdict, "equal", "{reference} vs {candidate}: {r:#?}");
    assert!(
        r.outputs.iter().all(|o| o.unknown == 0 && o.different == 0),
        "{r:#?}"
    );
}

/// `different`, replayed at a narrow point, with the interpreter's values far apart (not a
/// rounding: at least 10% relative).
fn different_beyond_noise(reference: &str, candidate: &str) {
    let r = check(reference, candidate);
    replayed_difference(&r);
    let c = r.counterexample.as_ref().expect("a counterexample");
    let replay = c.replay.as_ref().expect("replayed");
    assert_eq!(replay.seed, c.seed);
    assert!(
        c.seed >> 62 == 1,
        "seed {} is no narrow point: {c:#?}",
        c.seed
    );
    let (a, b) = (replay.expected, replay.actual);
    assert!(
        (a - b).abs() > 0.1 * a.abs().max(b.abs()),
        "{reference} vs {candidate}: {replay:?}"
    );
}

#[test]
fn a_layernorm_with_warp_shuffles_and_rsqrt_is_equal() {
    equal("ln_ref", "ln_opt");
}

#[test]
fn a_layernorm_without_its_epsilon_is_a_replayed_difference() {
    different_beyond_noise("ln_ref", "ln_bug");
    different_beyond_noise("ln_opt", "ln_bug");
}

#[test]
fn an_rmsnorm_with_warp_shuffles_and_rsqrt_is_equal() {
    equal("rms_ref", "rms_opt");
}

#[test]
fn an_rmsnorm_with_its_epsilon_outside_the_root_is_a_replayed_difference() {
    different_beyond_noise("rms_ref", "rms_bug_eps_outside");
    different_beyond_noise("rms_opt", "rms_bug_eps_outside");
}
