//! What the equivalence tests over `.cu` files share: reading a test kernel, checking a pair,
//! and the shape of an honest `different`.
#![allow(dead_code)]

use std::path::PathBuf;
use warpsafe_equiv::{equiv_sources, EquivConfig, EquivReport};

/// The source of `tests/DIR/NAME.cu`.
pub fn read(dir: &str, name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/{dir}/{name}.cu"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `reference` against `candidate`, both in `tests/DIR`, under `cfg`.
pub fn check_in(dir: &str, reference: &str, candidate: &str, cfg: &EquivConfig) -> EquivReport {
    equiv_sources(&read(dir, reference), &read(dir, candidate), cfg).expect("runs")
}

/// `different`, with a counterexample the interpreter reproduced.
pub fn replayed_difference(r: &EquivReport) {
    assert_eq!(r.verdict, "different", "{r:#?}");
    let replay = r
        .counterexample
        .as_ref()
        .and_then(|c| c.replay.as_ref())
        .expect("replayed in the interpreter");
    assert!((replay.expected - replay.actual).abs() > 1e-6, "{replay:?}");
}
