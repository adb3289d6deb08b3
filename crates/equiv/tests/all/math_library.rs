//! The C math library beyond the basics over the reals: functions without a definition in
//! terms of others (`atanf`, `atan2f`, `erff`, `fmodf`, `rintf`) are uninterpreted, so one
//! function of equal arguments is `equal` however the arguments are spelled, and two
//! different functions are never proved equal; `sinhf`, `expm1f`, `hypotf`, `fdimf` and
//! `ldexpf` are their definitions and meet their spellings through `expf`, `sqrtf`, `fmaxf`.

use warpsafe_equiv::{equiv_sources, EquivConfig, EquivReport};

fn kernel(body: &str) -> String {
    format!(
        r#"//--blockDim=32 --gridDim=1
//@ len(x) = 32
//@ len(y) = 32
//@ len(out) = 32
__global__ void k(const float* x, const float* y, float* out) {{
    int i = threadIdx.x;
    float a = x[i], b = y[i];
    {body}
}}
"#
    )
}

fn check(reference: &str, candidate: &str) -> EquivReport {
    equiv_sources(
        &kernel(reference),
        &kernel(candidate),
        &EquivConfig::default(),
    )
    .expect("runs")
}

#[test]
fn atan2_through_a_temporary_is_equal() {
    let r = check(
        "out[i] = atan2f(a, b) * 2.0f;",
        "float t = a; float u = t + 0.0f; out[i] = atan2f(u, b) + atan2f(t, b);",
    );
    assert_eq!(r.verdict, "equal", "{r:#?}");
}

#[test]
fn atan_plus_zero_is_equal_and_atan_is_not_asin() {
    let r = check("out[i] = atanf(a);", "out[i] = atanf(a) + 0.0f;");
    assert_eq!(r.verdict, "equal", "{r:#?}");
    let r = check("out[i] = atanf(a);", "out[i] = asinf(a);");
    assert_ne!(r.verdict, "equal", "{r:#?}");
    let r = check("out[i] = erff(a);", "out[i] = erfcf(a);");
    assert_ne!(r.verdict, "equal", "{r:#?}");
}

#[test]
fn swapped_atan2_arguments_are_not_equal() {
    let r = check("out[i] = atan2f(a, b);", "out[i] = atan2f(b, a);");
    assert_ne!(r.verdict, "equal", "{r:#?}");
}

#[test]
fn fmod_by_a_different_divisor_is_different() {
    let r = check(
        "out[i] = fmodf(a, 2.0f);",
        "out[i] = fmodf(a + 0.0f, 2.0f);",
    );
    assert_eq!(r.verdict, "equal", "{r:#?}");
    let r = check("out[i] = fmodf(a, 2.0f);", "out[i] = fmodf(a, 3.0f);");
    assert_eq!(r.verdict, "different", "{r:#?}");
}

#[test]
fn rint_is_not_round() {
    // They differ only at ties (2.5 → 2 and 3): never proved equal.
    let r = check("out[i] = rintf(a);", "out[i] = roundf(a);");
    assert_ne!(r.verdict, "equal", "{r:#?}");
}

#[test]
fn defined_functions_meet_their_definitions() {
    for (lhs, rhs) in [
        (
            "out[i] = sinhf(a);",
            "out[i] = (expf(a) - expf(-a)) * 0.5f;",
        ),
        ("out[i] = coshf(a) - sinhf(a);", "out[i] = expf(-a);"),
        ("out[i] = expm1f(a);", "out[i] = expf(a) - 1.0f;"),
        ("out[i] = hypotf(a, b);", "out[i] = sqrtf(b * b + a * a);"),
        ("out[i] = fdimf(a, b);", "out[i] = fmaxf(a - b, 0.0f);"),
        ("out[i] = ldexpf(a, 3);", "out[i] = a * 8.0f;"),
        ("out[i] = log1pf(a * a);", "out[i] = logf(1.0f + a * a);"),
    ] {
        let r = check(lhs, rhs);
        assert_eq!(r.verdict, "equal", "{lhs} vs {rhs}: {r:#?}");
    }
}

#[test]
fn a_wrong_definition_is_different() {
    let r = check(
        "out[i] = sinhf(a);",
        "out[i] = (expf(a) + expf(-a)) * 0.5f;",
    );
    assert_eq!(r.verdict, "different", "{r:#?}");
    let r = check("out[i] = fdimf(a, b);", "out[i] = fabsf(a - b);");
    assert_eq!(r.verdict, "different", "{r:#?}");
}

fn prove(body: &str, spec: &str) -> warpsafe_equiv::SpecReport {
    use warpsafe_equiv::{kernel_from_source, prove_spec, BlockSel, ExecConfig, Spec};
    let k = kernel_from_source(&kernel(body), None).expect("kernel");
    let spec = Spec::parse(spec).expect("spec parses");
    let cfg = ExecConfig {
        blocks: BlockSel::All,
        ..ExecConfig::default()
    };
    prove_spec(&k, &spec, &cfg).expect("runs")
}

#[test]
fn specs_name_the_same_uninterpreted_functions() {
    let spec = "out[i] = atan2(x[i], y[i]) + erf(x[i]) + fmod(x[i], 2) for i < 32";
    let r = prove("out[i] = atan2f(a, b) + erff(a) + fmodf(a, 2.0f);", spec);
    assert_eq!(r.verdict, "equal", "{r:#?}");
    let r = prove("out[i] = atan2f(b, a) + erff(a) + fmodf(a, 2.0f);", spec);
    assert_ne!(r.verdict, "equal", "{r:#?}");
    let r = prove(
        "out[i] = ldexpf(a, 2);",
        "out[i] = x[i] * pow(2, 2) for i < 32",
    );
    assert_eq!(r.verdict, "equal", "{r:#?}");
}
