//! The math library over the reals, for every size: `expm1f`, `sinhf`, `fdimf`, `ldexpf` are
//! their definitions (a spec through `exp`, `max`, `pow` is proved), the other functions are
//! uninterpreted (`atan2f` of the spec's arguments is proved, of swapped ones is not).

use crate::support::{prove_source as prove, show, z3};

fn kernel(body: &str) -> String {
    format!(
        r#"//--blockDim=128 --gridDim=4
//@ arg n = 1000
//@ len(x) = n
//@ len(y) = n
//@ requires n <= 2147483647 - blockDim.x * gridDim.x
__global__ void k(int n, const float* __restrict__ x, float* __restrict__ y)
{{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {{
        float v = x[i];
        {body}
    }}
}}
"#
    )
}

fn verdict(body: &str, spec: &str) -> &'static str {
    let o = prove(&kernel(body), spec);
    println!("{}", show(&o));
    o.verdict
}

#[test]
fn defined_functions_meet_their_definitions() {
    if !z3() {
        return;
    }
    let cases = [
        (
            "y[i] = expm1f(v) + sinhf(v);",
            "y[i] = exp(x[i]) - 1 + (exp(x[i]) - exp(0 - x[i])) / 2 for i < n",
        ),
        (
            "y[i] = fdimf(v, 1.0f);",
            "y[i] = max(x[i] - 1, 0) for i < n",
        ),
        ("y[i] = ldexpf(v, 3);", "y[i] = x[i] * pow(2, 3) for i < n"),
    ];
    for (body, spec) in cases {
        assert_eq!(verdict(body, spec), "proved", "{body}");
    }
}

#[test]
fn uninterpreted_functions_need_equal_arguments() {
    if !z3() {
        return;
    }
    let spec = "y[i] = atan2(x[i], 2) for i < n";
    assert_eq!(verdict("y[i] = atan2f(v, 2.0f);", spec), "proved");
    assert_ne!(verdict("y[i] = atan2f(2.0f, v);", spec), "proved");
    assert_ne!(
        verdict("y[i] = atanf(v);", "y[i] = asin(x[i]) for i < n"),
        "proved"
    );
}
