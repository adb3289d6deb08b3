//! Every property gets its own share of the run's time budget: a property whose query the
//! solver cannot decide in the budget does not leave the others unasked.

use std::time::{Duration, Instant};
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

/// The race query (two threads, one index of nested products of the thread id) keeps z3
/// busy far longer than the budget; bounds (a guard) and overflow (the products wrap) are
/// decided in well under a second each.
const SLOW_RACE: &str = r#"
//--blockDim=256 --gridDim=64
//@ len(x) = n
__global__ void hashed(float *x, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = i * i * i * i * i + i;
    h ^= h >> 15;
    h = h * h * h + (h >> 7);
    if (h < n) {
        x[h] = 1.0f;
    }
}
"#;

#[test]
fn a_slow_property_leaves_the_others_their_share() {
    let m = warpsafe_cuda_front::compile(SLOW_RACE).expect("the kernel compiles");
    let k = m.kernels.into_iter().next().expect("one kernel");
    // One solver, so the properties cannot overlap: before the shares, the race queries
    // took the whole budget and bounds and overflow answered `unknown: the time budget of
    // the run is spent`.
    let cfg = Config {
        block: DimSpec::Fixed([256, 1, 1]),
        grid: DimSpec::Fixed([64, 1, 1]),
        timeout: Duration::from_secs(40),
        deadline: Some(Instant::now() + Duration::from_secs(12)),
        jobs: 1,
        ..Config::default()
    };
    let r = verify(&k, &cfg);
    let verdict = |p| &r.result(p).expect("asked").verdict;
    if r.results.iter().any(|p| {
        matches!(&p.verdict, Verdict::Unknown { reason, .. } if reason.contains("cannot start z3"))
    }) {
        return;
    }
    assert!(
        matches!(verdict(Property::Bounds), Verdict::Verified),
        "{:?}",
        verdict(Property::Bounds)
    );
    assert!(
        matches!(
            verdict(Property::Overflow),
            Verdict::Violated(_) | Verdict::Possible { .. }
        ),
        "{:?}",
        verdict(Property::Overflow)
    );
    // The race is cut short by its own share, and says so (or, on a fast machine, decided).
    if let Verdict::Unknown { reason, .. } = verdict(Property::Race) {
        assert!(!reason.contains("of the run"), "{reason}");
    }
}

/// Many accesses to one shared array (the ispass2009 md5 kernels stage 16 words and read
/// them back 64 times): the pairs of accesses a race check compares are built within the
/// budget too, so a spent budget ends the check with `unknown` instead of running on.
const MANY_ACCESSES: &str = r#"
//--blockDim=64 --gridDim=1
__global__ void rounds(unsigned *out) {
    __shared__ unsigned w[64 * 16];
    unsigned t = threadIdx.x;
    for (int k = 0; k < 16; k++) w[16 * t + k] = t * k;
    unsigned h = w[16 * t] + w[16 * t + 1] + w[16 * t + 2] + w[16 * t + 3];
    h += w[16 * t + 4] ^ w[16 * t + 5] ^ w[16 * t + 6] ^ w[16 * t + 7];
    out[t] = h;
}
"#;

#[test]
fn a_budget_spent_before_the_pairs_are_built_leaves_races_unknown() {
    let m = warpsafe_cuda_front::compile(MANY_ACCESSES).expect("the kernel compiles");
    let k = m.kernels.into_iter().next().expect("one kernel");
    let spent = Config {
        block: DimSpec::Fixed([64, 1, 1]),
        grid: DimSpec::Fixed([1, 1, 1]),
        properties: vec![Property::Race],
        deadline: Some(Instant::now()),
        ..Config::default()
    };
    let r = verify(&k, &spent);
    match &r.result(Property::Race).expect("asked").verdict {
        Verdict::Unknown { reason, .. } => {
            assert!(reason.contains("building the pairs"), "{reason}")
        }
        v => panic!("a spent budget decided the race: {v:?}"),
    }
    // With the time to build them, the pairs are compared (the kernel is race-free).
    let r = verify(
        &k,
        &Config {
            deadline: None,
            timeout: Duration::from_secs(30),
            ..spent
        },
    );
    let v = &r.result(Property::Race).expect("asked").verdict;
    if !matches!(v, Verdict::Unknown { reason, .. } if reason.contains("z3")) {
        assert!(matches!(v, Verdict::Verified), "{v:?}");
    }
}
