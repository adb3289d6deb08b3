//! The Gröbner basis checker accepts real bases, rejects incomplete ones, and is fast.

use std::time::{Duration, Instant};
use warpsafe_groebner::{
    bundled_systems, groebner, is_groebner_basis, Algorithm, Basis, Options, System,
};

fn bundled(name: &str) -> System {
    bundled_systems()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, s)| s)
        .expect("bundled system")
}

fn basis(sys: &System) -> Basis {
    groebner(sys, Algorithm::F4, &Options::default()).expect("computation succeeds")
}

fn without(b: &Basis, k: usize) -> Basis {
    let mut c = b.clone();
    c.polys.remove(k);
    c
}

#[test]
fn rejects_bases_with_one_element_removed() {
    for name in ["cyclic5", "katsura6"] {
        let sys = bundled(name);
        let b = basis(&sys);
        assert!(b.len() > 1, "{name}");
        assert!(is_groebner_basis(&sys, &b), "{name}: real basis rejected");
        for k in 0..b.len() {
            assert!(
                !is_groebner_basis(&sys, &without(&b, k)),
                "{name}: basis without element {k} accepted"
            );
        }
    }
}

#[test]
#[ignore = "timing; run with --release -- --ignored"]
fn katsura8_check_is_fast() {
    let sys = bundled("katsura8");
    let b = basis(&sys);
    let t = Instant::now();
    assert!(is_groebner_basis(&sys, &b));
    let e = t.elapsed();
    eprintln!("katsura8: {} elements checked in {e:?}", b.len());
    assert!(e < Duration::from_secs(5), "katsura8 check took {e:?}");
}
