//! Verdict tests over the bundled kernels: every correct kernel verified for every property
//! (with the header's launch), every buggy twin violated in its expected category with a
//! replay that reproduces it, warp-synchronous tails racy unless warps are lock-step.

use crate::common;

use std::time::Duration;
use warpsafe_ir::Category;
use warpsafe_verify::{verify, Config, Property, Report, Verdict};

fn cfg(k: &warpsafe_ir::Kernel) -> Config {
    Config {
        timeout: Duration::from_secs(30),
        ..common::config(k)
    }
}

fn property_of(c: Category) -> Option<Property> {
    match c {
        Category::Race => Some(Property::Race),
        Category::Divergence => Some(Property::Divergence),
        Category::Oob => Some(Property::Bounds),
        Category::Overflow | Category::DivByZero => Some(Property::Overflow),
        _ => None,
    }
}

fn z3_missing(r: &Report) -> bool {
    r.results.iter().any(|p| {
        matches!(&p.verdict, Verdict::Unknown { reason, .. } if reason.contains("cannot start z3"))
    })
}

#[test]
fn correct_kernels_are_verified() {
    let mut failures = vec![];
    for f in common::all_files() {
        if f.contains("_bug_") {
            continue;
        }
        let k = common::kernel(&f);
        let r = verify(&k, &cfg(&k));
        assert!(!z3_missing(&r), "z3 must be installed (scripts/setup.sh)");
        for p in &r.results {
            if !matches!(p.verdict, Verdict::Verified) {
                failures.push(format!("{f}: {} is {:?}", p.property.name(), p.verdict));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn buggy_twins_are_violated_and_replayed() {
    let mut failures = vec![];
    for f in common::all_files() {
        if !f.contains("_bug_") {
            continue;
        }
        let k = common::kernel(&f);
        let r = verify(&k, &cfg(&k));
        assert!(!z3_missing(&r), "z3 must be installed (scripts/setup.sh)");
        for c in common::expects(&k) {
            let Some(p) = property_of(c) else { continue };
            match &r.result(p).map(|x| &x.verdict) {
                Some(Verdict::Violated(cx)) => {
                    let replayed = cx.replay.as_ref().is_some_and(|r| r.reproduced);
                    if !replayed {
                        failures.push(format!("{f}: {} not reproduced: {:?}", p.name(), cx.replay));
                    }
                }
                other => failures.push(format!("{f}: {} is {other:?}", p.name())),
            }
        }
        if common::expects(&k)
            .iter()
            .any(|c| property_of(*c).is_some())
        {
            assert_eq!(r.exit_code(), 1, "{f}");
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn warp_synchronous_tail_is_racy_unless_lockstep() {
    let k = common::kernel("reduce_warp_unrolled_bug_nosync.cu");
    let mut c = cfg(&k);
    c.properties = vec![Property::Race];
    let r = verify(&k, &c);
    assert!(!z3_missing(&r), "z3 must be installed (scripts/setup.sh)");
    assert!(matches!(r.results[0].verdict, Verdict::Violated(_)));
    c.lockstep_warps = true;
    let r = verify(&k, &c);
    assert!(
        matches!(r.results[0].verdict, Verdict::Verified),
        "{:?}",
        r.results[0].verdict
    );
}
