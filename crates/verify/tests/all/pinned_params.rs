//! Parameters a kernel's opening `__requires(w == 64)` pins to one value are that constant
//! to the verifier (its index terms fold and stay linear): the verdicts are those of the
//! kernel at that value.

use warpsafe_ir::Kernel;
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

fn kernel(src: &str) -> Kernel {
    let mut m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    m.kernels.remove(0)
}

fn race(src: &str) -> Verdict {
    let cfg = Config {
        block: DimSpec::Fixed([128, 1, 1]),
        grid: DimSpec::Fixed([1, 1, 1]),
        properties: vec![Property::Race, Property::Bounds],
        replay: false,
        timeout: std::time::Duration::from_secs(60),
        ..Config::default()
    };
    let mut r = verify(&kernel(src), &cfg).results;
    r.remove(0).verdict
}

/// Rows of `w` cells, each thread writing column `threadIdx.x` of every row: rows overlap
/// (a race) exactly when `w` is narrower than the block.
fn rows(requires: &str) -> String {
    format!(
        r#"
__global__ void k(float *out, int w, int h)
{{
    {requires}
    for (int y = 0; y < h; y++) {{
        out[y * w + threadIdx.x] = (float)y;
    }}
}}
"#
    )
}

#[test]
fn a_pinned_width_decides_the_race() {
    let narrow = rows("__requires(w == 64); __requires(h == 4);");
    let v = race(&narrow);
    assert!(matches!(v, Verdict::Violated(_)), "{v:?}");
    let wide = rows("__requires(w == 128); __requires(h == 1024);");
    let v = race(&wide);
    assert!(matches!(v, Verdict::Verified), "{v:?}");
    // Through an extension of the parameter, and with the constant first.
    let widened = rows("__requires(256 == (long long)w && h == 3);");
    let v = race(&widened);
    assert!(matches!(v, Verdict::Verified), "{v:?}");
}

#[test]
fn an_equality_that_cannot_hold_pins_nothing() {
    // `(long long)w` is never 2^40: no launch satisfies the contract, so nothing races, and
    // `w` must not be taken for 2^40's low bits (0, which would make every row overlap).
    let src = rows("__requires((long long)w == 1099511627776LL); __requires(h == 2);");
    let v = race(&src);
    assert!(matches!(v, Verdict::Verified), "{v:?}");
}
