//! `Options::on_round` sees every F4 round, with counts that add up to the run's statistics,
//! and watching does not change the basis.

use std::sync::{Arc, Mutex};
use warpsafe_groebner::{groebner, katsura, Algorithm, Options, Round};

#[test]
fn every_f4_round_is_reported_and_the_basis_is_unchanged() {
    let sys = katsura(7);
    let seen: Arc<Mutex<Vec<Round>>> = Arc::default();
    let log = seen.clone();
    let watched = Options {
        on_round: Some(Arc::new(move |r: &Round| {
            log.lock().expect("lock").push(*r);
        })),
        ..Options::default()
    };
    let basis = groebner(&sys, Algorithm::F4, &watched).expect("basis");
    let plain = groebner(&sys, Algorithm::F4, &Options::default()).expect("basis");
    assert_eq!(basis.polys, plain.polys);

    let rounds = seen.lock().expect("lock").clone();
    assert_eq!(rounds.len(), basis.stats.steps);
    let steps: Vec<usize> = rounds.iter().map(|r| r.step).collect();
    assert_eq!(steps, (1..=basis.stats.steps).collect::<Vec<_>>());
    assert_eq!(
        rounds.iter().map(|r| r.pairs).sum::<usize>(),
        basis.stats.pairs_reduced
    );
    assert_eq!(
        rounds.iter().map(|r| r.matrix.0).sum::<usize>(),
        basis.stats.matrix_rows
    );
    // Katsura's generators have degree 1 and 2: the first round reduces degree-2 pairs, the
    // degrees never fall below that, and the last round leaves no pair waiting.
    assert_eq!(rounds.first().map(|r| r.degree), Some(2));
    assert!(rounds.iter().all(|r| r.degree >= 2));
    assert_eq!(rounds.last().map(|r| r.pending), Some(0));
}

#[test]
fn buchberger_reports_no_rounds() {
    let calls = Arc::new(Mutex::new(0usize));
    let count = calls.clone();
    let opts = Options {
        on_round: Some(Arc::new(move |_: &Round| {
            *count.lock().expect("lock") += 1;
        })),
        ..Options::default()
    };
    groebner(&katsura(4), Algorithm::Buchberger, &opts).expect("basis");
    assert_eq!(*calls.lock().expect("lock"), 0);
}
