//! The C math library beyond the basics (`atanf`, `fmodf`, `erff`, `rintf`, `ldexpf`, …) is
//! emitted under CUDA's names for the call's precision, `ldexp`'s exponent as an `int`, and
//! NVRTC (where installed) compiles the result without a warning.

use warpsafe_ir::Kernel;

fn kernel(src: &str) -> Kernel {
    let mut m = warpsafe_cuda_front::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
    m.kernels.remove(0)
}

const SRC: &str = r#"
__global__ void library(const float* x, const double* d, float* y, double* z, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) {
        float a = x[t];
        float s = atanf(a) + asinf(a) + acosf(a) + sinhf(a) + coshf(a) + asinhf(a)
            + acoshf(a + 2.0f) + atanhf(a * 0.5f) + cbrtf(a) + expm1f(a) + log1pf(a)
            + exp10f(a) + rintf(a) + nearbyintf(a) + erff(a) + erfcf(a) + lgammaf(a)
            + tgammaf(a) + sinpif(a) + cospif(a);
        s += atan2f(a, s) + fmodf(a, s) + remainderf(a, s) + hypotf(a, s)
            + copysignf(a, s) + fdimf(a, s) + ldexpf(a, n) + scalbnf(a, 3);
        y[t] = s;
        double b = d[t];
        z[t] = atan(b) + fmod(b, 2.0) + erf(b) + rint(b) + atan2(b, 1.0) + ldexp(b, n)
            + lgamma(b) + cospi(b) + hypot(b, b);
    }
}
"#;

#[test]
fn math_library_names_follow_the_precision_and_compile() {
    let k = kernel(SRC);
    let text = warpsafe_cuda::generate(&k).expect("codegen");
    for f in [
        "atanf(",
        "asinf(",
        "acosf(",
        "sinhf(",
        "coshf(",
        "asinhf(",
        "acoshf(",
        "atanhf(",
        "cbrtf(",
        "expm1f(",
        "log1pf(",
        "exp10f(",
        "rintf(",
        "erff(",
        "erfcf(",
        "lgammaf(",
        "tgammaf(",
        "sinpif(",
        "cospif(",
        "atan2f(",
        "fmodf(",
        "remainderf(",
        "hypotf(",
        "copysignf(",
        "fdimf(",
        "ldexpf(",
        "(atan(b",
        "fmod(b",
        "erf(b",
        "rint(b",
        "atan2(b",
        "ldexp(b",
        "lgamma(b",
        "cospi(b",
        "hypot(b",
    ] {
        assert!(text.contains(f), "{f} missing:\n{text}");
    }
    assert!(
        text.contains(", (int)("),
        "ldexp's exponent is an int:\n{text}"
    );
    if warpsafe_cuda::nvrtc_path().is_ok() {
        let out = warpsafe_cuda::compile_ptx(&text, &Default::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(
            out.log.trim().is_empty(),
            "NVRTC warnings:\n{}\n{text}",
            out.log
        );
    }
}
