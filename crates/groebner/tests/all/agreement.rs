//! Buchberger and F4 compute identical reduced bases, which the checker accepts.

use warpsafe_groebner::{
    bundled_systems, groebner, is_groebner_basis, is_reduced, katsura, parse_system, Algorithm,
    Basis, Options, Order, System,
};

fn run(sys: &System, algo: Algorithm) -> Basis {
    groebner(sys, algo, &Options::default()).expect("computation succeeds")
}

fn bundled(name: &str) -> System {
    bundled_systems()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, s)| s)
        .expect("bundled system")
}

fn agree(sys: &System) -> Basis {
    let f4 = run(sys, Algorithm::F4);
    let bb = run(sys, Algorithm::Buchberger);
    assert_eq!(f4.polys, bb.polys, "F4 and Buchberger differ");
    assert_eq!(f4.to_text(), bb.to_text());
    assert!(is_reduced(&f4), "F4 result is not reduced");
    f4
}

#[test]
fn small_bundled_systems_agree_and_check() {
    for name in [
        "circle_line",
        "twisted_cubic",
        "inconsistent",
        "sparse4",
        "cyclic4",
        "cyclic5",
        "katsura4",
        "katsura5",
        "katsura6",
    ] {
        let sys = bundled(name);
        let b = agree(&sys);
        assert!(is_groebner_basis(&sys, &b), "{name}: not a Gröbner basis");
    }
    assert_eq!(agree(&bundled("inconsistent")).to_text(), "x,y\n65521\n1\n");
}

#[test]
fn medium_bundled_systems_agree() {
    assert_eq!(agree(&bundled("cyclic6")).len(), 45);
    assert_eq!(agree(&bundled("katsura7")).len(), 74);
}

#[test]
#[ignore = "Buchberger on Katsura-8 takes seconds; run with --ignored in release"]
fn katsura8_agrees() {
    assert_eq!(agree(&bundled("katsura8")).len(), 143);
}

#[test]
fn known_basis_sizes_f4() {
    assert_eq!(run(&bundled("cyclic5"), Algorithm::F4).len(), 20);
    assert_eq!(run(&bundled("katsura8"), Algorithm::F4).len(), 143);
}

#[test]
#[ignore = "benchmark-sized; run with --ignored in release"]
fn known_basis_sizes_large() {
    assert_eq!(run(&bundled("cyclic7"), Algorithm::F4).len(), 209);
    assert_eq!(run(&bundled("katsura9"), Algorithm::F4).len(), 272);
    assert_eq!(run(&bundled("katsura10"), Algorithm::F4).len(), 537);
}

/// FNV-1a of a basis' text: a compact fingerprint of the unique reduced basis.
fn fingerprint(b: &Basis) -> u64 {
    b.to_text()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, byte| {
            (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        })
}

#[test]
#[ignore = "benchmark-sized; run with --ignored in release"]
fn known_basis_fingerprints() {
    // Recorded from the exact (row by row) F4 before random combinations were introduced.
    for (name, size, fp) in [
        ("cyclic7", 209, 0x3a0e_103d_6637_0172u64),
        ("katsura8", 143, 0x9d00_a773_8a95_9968),
        ("katsura9", 272, 0xee72_d67c_20ca_7af6),
        ("katsura10", 537, 0x9c33_88b2_f6ce_8c4a),
    ] {
        let b = run(&bundled(name), Algorithm::F4);
        assert_eq!((b.len(), fingerprint(&b)), (size, fp), "{name}");
    }
}

#[test]
fn checker_rejects_incomplete_bases() {
    let sys = bundled("katsura5");
    let mut b = run(&sys, Algorithm::F4);
    assert!(is_groebner_basis(&sys, &b));
    b.polys.remove(b.len() / 2);
    assert!(!is_groebner_basis(&sys, &b));
    // The input itself is not a Gröbner basis of Katsura-5.
    let input = Basis {
        vars: sys.vars.clone(),
        prime: sys.prime,
        order: sys.order,
        polys: sys.polys.clone(),
        stats: Default::default(),
    };
    assert!(!is_groebner_basis(&sys, &input));
    assert!(!is_reduced(&input));
}

#[test]
fn output_round_trips_through_the_parser() {
    let sys = bundled("cyclic5");
    let b = run(&sys, Algorithm::F4);
    let again = parse_system(&b.to_text()).expect("output parses");
    assert_eq!(again.polys, b.polys);
    let b2 = run(&again, Algorithm::F4);
    assert_eq!(b2.polys, b.polys, "a reduced basis is its own basis");
}

#[test]
fn lex_basis_of_a_zero_dimensional_system_is_triangular() {
    let mut sys = katsura(3);
    sys.order = Order::Lex;
    let b = agree(&sys);
    // Shape lemma: the smallest element is univariate in the last variable.
    let last = &b.polys[0];
    assert!(last
        .terms
        .iter()
        .all(|t| t.exps[..3].iter().all(|&e| e == 0)));
    assert!(is_groebner_basis(&sys, &b));
}

#[test]
fn bad_systems_are_errors_not_panics() {
    let mut sys = bundled("cyclic4");
    sys.prime = 65535;
    assert!(groebner(&sys, Algorithm::F4, &Options::default()).is_err());
    let mut sys = bundled("cyclic4");
    sys.polys[0].terms[0].exps.pop();
    assert!(groebner(&sys, Algorithm::F4, &Options::default()).is_err());
    // lex: S(f, g) = z*f - y*g = z^65536 - y^2 leaves the 16-bit exponent range.
    let mut sys = parse_system("x,y,z\n65521\nx*y + z^65535,\nx*z + y").expect("parses");
    sys.order = Order::Lex;
    for algo in [Algorithm::F4, Algorithm::Buchberger] {
        let r = groebner(&sys, algo, &Options::default());
        assert!(r.is_err(), "{algo}: exponent overflow must be reported");
    }
}

#[test]
fn degenerate_inputs() {
    let empty = System {
        vars: vec!["x".into()],
        prime: 65521,
        polys: vec![],
        order: Order::Grevlex,
    };
    let zero = parse_system("x\n65521\n0,\nx - x").expect("parses");
    let constants = System {
        vars: vec![],
        prime: 7,
        polys: vec![warpsafe_groebner::Poly {
            terms: vec![warpsafe_groebner::Term {
                coef: 3,
                exps: vec![],
            }],
        }],
        order: Order::Grevlex,
    };
    for algo in [Algorithm::F4, Algorithm::Buchberger] {
        assert!(groebner(&empty, algo, &Options::default())
            .expect("ok")
            .is_empty());
        assert!(groebner(&zero, algo, &Options::default())
            .expect("ok")
            .is_empty());
        let one = groebner(&constants, algo, &Options::default()).expect("ok");
        assert_eq!(one.to_text(), "\n7\n1\n");
    }
}
