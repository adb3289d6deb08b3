//! The Math API beyond the basics through clang: a kernel calling every newly supported
//! single- and double-precision function is accepted and runs, its results agree to the
//! bit with Rust's `std`/`libm`, `modff`/`sincospif` write through their pointers, and
//! `frexpf`/`frexp` split every float (subnormals, zeros, infinities and NaN included) into a
//! fraction in [0.5, 1) and a power of two.

use crate::common;

use warpsafe_exec::{Arg, Buffer};
use warpsafe_verify::{Property, Verdict};

const SOURCE: &str = r#"//--blockDim=32 --gridDim=2
#include <cuda_runtime.h>
__global__ void single(const float* x, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = x[i], b = x[63 - i];
    float* o = out + 16 * i;
    o[0] = atanf(a) + asinf(a * 0.01f) + acosf(a * 0.01f);
    o[1] = sinhf(a) + coshf(a) + asinhf(a) + acoshf(fabsf(a) + 1.0f) + atanhf(a * 0.01f);
    o[2] = cbrtf(a) + expm1f(a) + log1pf(fabsf(a)) + exp10f(a * 0.1f) + lgammaf(a)
        + tgammaf(a * 0.25f);
    o[3] = rintf(a) + nearbyintf(b);
    o[4] = erff(a) + erfcf(a);
    o[5] = atan2f(a, b) + hypotf(a, b) + copysignf(a, b) + fdimf(a, b);
    o[6] = fmodf(a, b);
    o[7] = remainderf(a, b);
    o[8] = ldexpf(a, i - 32) + scalbnf(a, 2) + scalblnf(a, 1L);
    float s, c, whole;
    sincospif(a, &s, &c);
    o[9] = s;
    o[10] = c;
    o[11] = modff(a, &whole);
    o[12] = whole;
    o[13] = (isnan(a) ? 1.0f : 0.0f) + (isinf(b) ? 2.0f : 0.0f) + (signbit(a) ? 4.0f : 0.0f)
        + (isfinite(a) ? 8.0f : 0.0f);
    o[14] = sinpif(a) - s;
    o[15] = fminf(a, b) + fmaxf(a, b);
}
__global__ void twice(const double* x, double* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double a = x[i], b = x[63 - i], whole;
    out[4 * i] = atan(a) + asin(a * 0.01) + acos(a * 0.01) + sinh(a) + cosh(a) + asinh(a)
        + acosh(fabs(a) + 1.0) + atanh(a * 0.01) + cbrt(a) + expm1(a) + log1p(fabs(a))
        + exp10(a * 0.1) + erf(a) + erfc(a) + lgamma(a) + tgamma(a * 0.25) + sinpi(a)
        + cospi(a) + atan2(a, b) + hypot(a, b) + copysign(a, b) + fdim(a, b) + ldexp(a, 3)
        + scalbn(a, -1) + remainder(a, b) + nearbyint(a);
    out[4 * i + 1] = fmod(a, b);
    out[4 * i + 2] = rint(a);
    out[4 * i + 3] = modf(a, &whole) + whole;
}
__global__ void angles(const float* h, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = atanf(h[i] / (i + 1.0f)) + rintf(h[i] * 31.0f);
}
__global__ void angles_racy(const float* h, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i / 2] = atan2f(h[i], 2.0f);
}
__global__ void exponent(const float* x, float* m, int* e, const double* y, double* dm,
                         int* de) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    m[i] = frexpf(x[i], &e[i]);
    dm[i] = frexp(y[i], &de[i]);
}
"#;

fn input() -> Vec<f64> {
    (0..64).map(|j| (j as f64 - 31.5) * 0.25).collect()
}

#[test]
fn single_precision_library_runs_as_std_computes_it() {
    let c = common::clang_in("math_library", "single.cu", SOURCE);
    let x: Vec<f32> = input().iter().map(|&v| v as f32).collect();
    let out = common::run_buffers(
        common::kernel(&c, "single"),
        vec![
            Arg::Buffer(Buffer::from_f32(&x)),
            Arg::Buffer(Buffer::from_f32(&[0.0; 64 * 16])),
        ],
    );
    let o = out[1].to_f32();
    for (i, &a) in x.iter().enumerate() {
        let b = x[63 - i];
        let r = &o[16 * i..16 * i + 16];
        assert_eq!(
            r[0],
            a.atan() + (a * 0.01).asin() + (a * 0.01).acos(),
            "{a}"
        );
        assert_eq!(r[3], a.round_ties_even() + b.round_ties_even(), "{a}");
        assert!((r[4] - 1.0).abs() < 1e-6, "erf + erfc of {a}: {}", r[4]);
        assert_eq!(r[6].to_bits(), (a % b).to_bits(), "fmodf({a}, {b})");
        let (p, q) = (a as f64, b as f64);
        let rem = p - (p / q).round_ties_even() * q;
        assert_eq!(r[7] as f64, rem, "remainderf({a}, {b})");
        assert_eq!(
            r[8],
            a * 2f32.powi(i as i32 - 32) + a * 4.0 + a * 2.0,
            "{a}"
        );
        assert_eq!(
            r[11].to_bits(),
            (a - a.trunc()).copysign(a).to_bits(),
            "{a}"
        );
        assert_eq!(r[12], a.trunc(), "{a}");
        assert_eq!(r[13], 4.0 * (a < 0.0) as u8 as f32 + 8.0, "{a}");
        assert_eq!(r[14], 0.0, "sincospif's sine is sinpif");
        let pi_a = std::f64::consts::PI * a as f64;
        assert!((r[9] as f64 - pi_a.sin()).abs() < 1e-6, "sinpi({a})");
        assert!((r[10] as f64 - pi_a.cos()).abs() < 1e-6, "cospi({a})");
        assert_eq!(r[15], a + b, "{a}");
    }
}

#[test]
fn double_precision_library_runs() {
    let c = common::clang_in("math_library", "double.cu", SOURCE);
    let x = input();
    let out = common::run_buffers(
        common::kernel(&c, "twice"),
        vec![
            Arg::Buffer(Buffer::from_f64(&x)),
            Arg::Buffer(Buffer::from_f64(&[0.0; 64 * 4])),
        ],
    );
    let o = out[1].to_f64();
    for (i, &a) in x.iter().enumerate() {
        let b = x[63 - i];
        assert_eq!(o[4 * i + 1].to_bits(), (a % b).to_bits(), "fmod({a}, {b})");
        assert_eq!(o[4 * i + 2], a.round_ties_even(), "rint({a})");
        assert_eq!(o[4 * i + 3], a, "modf's two parts add up to {a}");
    }
    // Ties to even: -7.875 + 0.25k passes through the halves ±0.5, ±2.5.
    assert_eq!(o[4 * 30 + 2], 0.0, "rint(-0.375)");
}

/// Values `frexp` must split: signs, powers of two, non-integers, subnormals, the extremes,
/// zeros, infinities and NaN.
fn frexp_inputs() -> Vec<f64> {
    let mut v = vec![
        1.0, -1.0, 0.5, 8.0, 0.75, -3.25, 1e-3, 123456.789, 0.0, -0.0,
    ];
    v.extend([
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e-40,
        -1e-45,
        3.4e38,
    ]);
    v.extend([1e-310, -5e-324, 1.7e308, 2.0f64.powi(-1022)]);
    v.extend((0..44).map(|j| (j as f64 - 21.5) * 0.37));
    v
}

#[test]
fn frexp_splits_every_float_into_a_fraction_and_a_power_of_two() {
    let c = common::clang_in("math_library", "frexp.cu", SOURCE);
    let y = frexp_inputs();
    let x: Vec<f32> = y.iter().map(|&v| v as f32).collect();
    let out = common::run_buffers(
        common::kernel(&c, "exponent"),
        vec![
            Arg::Buffer(Buffer::from_f32(&x)),
            Arg::Buffer(Buffer::from_f32(&[0.0; 64])),
            Arg::Buffer(Buffer::from_i32(&[0; 64])),
            Arg::Buffer(Buffer::from_f64(&y)),
            Arg::Buffer(Buffer::from_f64(&[0.0; 64])),
            Arg::Buffer(Buffer::from_i32(&[0; 64])),
        ],
    );
    let (m, e) = (out[1].to_f32(), out[2].to_i32());
    let (dm, de) = (out[4].to_f64(), out[5].to_i32());
    for i in 0..64 {
        let (a, f, k) = (x[i] as f64, m[i] as f64, e[i]);
        let (b, g, l) = (y[i], dm[i], de[i]);
        for (v, frac, exp) in [(a, f, k), (b, g, l)] {
            if v == 0.0 || !v.is_finite() {
                // The value itself (its sign, NaN) and exponent 0.
                assert!(
                    frac.to_bits() == v.to_bits() || v.is_nan() && frac.is_nan(),
                    "{v}"
                );
                assert_eq!(exp, 0, "{v}");
            } else {
                assert!((0.5..1.0).contains(&frac.abs()), "frexp({v}) = {frac}");
                // In two steps, so that neither power of two leaves the doubles' range.
                let half = exp / 2;
                let back = frac * 2f64.powi(half) * 2f64.powi(exp - half);
                assert_eq!(back, v, "frexp({v}) = {frac} * 2^{exp}");
            }
        }
    }
}

#[test]
fn a_math_call_is_verified_and_its_racy_twin_is_not() {
    // lineOfSight's `atanf` and dxtc's `rintf` no longer stop the verifier.
    let c = common::clang_in("math_library", "angles.cu", SOURCE);
    let v = common::verdict(common::kernel(&c, "angles"), Property::Race);
    if common::z3_missing(&v) {
        return;
    }
    assert!(matches!(v, Verdict::Verified), "{v:?}");
    let v = common::verdict(common::kernel(&c, "angles_racy"), Property::Race);
    assert!(matches!(v, Verdict::Violated { .. }), "{v:?}");
}
