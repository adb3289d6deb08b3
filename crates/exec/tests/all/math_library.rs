//! The C math library beyond the basics runs in the interpreter as IEEE functions of the
//! call's width: each result is compared to the bit with Rust's `std` or `libm` on inputs
//! that include NaN, infinities, signed zeros and rounding ties.

use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options};

/// One kernel per precision writing `K` results per thread, one per function.
fn source(t: &str, s: &str) -> String {
    format!(
        r#"
__global__ void lib(const {t}* x, const {t}* y, {t}* out) {{
    int i = threadIdx.x;
    {t} a = x[i], b = y[i];
    {t}* o = out + i * 26;
    o[0] = atan{s}(a); o[1] = asin{s}(a); o[2] = acos{s}(a); o[3] = sinh{s}(a);
    o[4] = cosh{s}(a); o[5] = asinh{s}(a); o[6] = acosh{s}(a); o[7] = atanh{s}(a);
    o[8] = cbrt{s}(a); o[9] = expm1{s}(a); o[10] = log1p{s}(a); o[11] = rint{s}(a);
    o[12] = nearbyint{s}(a); o[13] = erf{s}(a); o[14] = erfc{s}(a); o[15] = lgamma{s}(a);
    o[16] = tgamma{s}(a); o[17] = atan2{s}(a, b); o[18] = fmod{s}(a, b);
    o[19] = remainder{s}(a, b); o[20] = hypot{s}(a, b); o[21] = copysign{s}(a, b);
    o[22] = fdim{s}(a, b); o[23] = ldexp{s}(a, (int)b); o[24] = exp10{s}(a);
    o[25] = (isnan(a) ? 1 : 0) + (isinf(a) ? 2 : 0) + (isfinite(a) ? 4 : 0)
        + (signbit(a) ? 8 : 0);
}}
"#
    )
}

const K: usize = 26;

fn inputs() -> (Vec<f64>, Vec<f64>) {
    let x = [
        0.5,
        1.5,
        2.5,
        -2.5,
        -0.5,
        0.0,
        -0.0,
        0.3,
        -0.7,
        3.75,
        -5.5,
        5.5,
        1e30,
        -1e-30,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        7.0,
    ];
    let y = [
        2.0, -2.0, 0.75, 2.0, 0.0, 1.0, -1.0, -0.3, 4.0, -1.5, 2.0, -2.0, 3.0, 0.25, 1.0, 2.0, 1.0,
        0.0,
    ];
    (x.to_vec(), y.to_vec())
}

fn class(a: f64) -> f64 {
    (a.is_nan() as u8
        + 2 * a.is_infinite() as u8
        + 4 * a.is_finite() as u8
        + 8 * a.is_sign_negative() as u8) as f64
}

fn want_f32(a: f32, b: f32) -> [f32; K] {
    [
        a.atan(),
        a.asin(),
        a.acos(),
        a.sinh(),
        a.cosh(),
        a.asinh(),
        a.acosh(),
        a.atanh(),
        a.cbrt(),
        a.exp_m1(),
        a.ln_1p(),
        a.round_ties_even(),
        a.round_ties_even(),
        libm::erff(a),
        libm::erfcf(a),
        libm::lgammaf(a),
        libm::tgammaf(a),
        a.atan2(b),
        a % b,
        libm::remainderf(a, b),
        a.hypot(b),
        a.copysign(b),
        libm::fdimf(a, b),
        libm::scalbnf(a, b as i32),
        libm::exp10f(a),
        class(a as f64) as f32,
    ]
}

fn want_f64(a: f64, b: f64) -> [f64; K] {
    [
        a.atan(),
        a.asin(),
        a.acos(),
        a.sinh(),
        a.cosh(),
        a.asinh(),
        a.acosh(),
        a.atanh(),
        a.cbrt(),
        a.exp_m1(),
        a.ln_1p(),
        a.round_ties_even(),
        a.round_ties_even(),
        libm::erf(a),
        libm::erfc(a),
        libm::lgamma(a),
        libm::tgamma(a),
        a.atan2(b),
        a % b,
        libm::remainder(a, b),
        a.hypot(b),
        a.copysign(b),
        libm::fdim(a, b),
        libm::scalbn(a, b as i32),
        libm::exp10(a),
        class(a),
    ]
}

fn run_lib(ty: &str, suffix: &str, x: Buffer, y: Buffer, out: Buffer, n: u32) -> Buffer {
    let m = warpsafe_cuda_front::compile(&source(ty, suffix)).expect("compiles");
    let k = &m.kernels[0];
    let args = vec![Arg::Buffer(x), Arg::Buffer(y), Arg::Buffer(out)];
    let o = run(k, &LaunchConfig::linear(1, n), args, &Options::default()).expect("runs");
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    match &o.args[2] {
        Arg::Buffer(b) => b.clone(),
        Arg::Scalar(_) => unreachable!("a buffer"),
    }
}

fn same_f32(got: f32, want: f32) -> bool {
    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan())
}

#[test]
fn single_precision_functions_match_std_and_libm() {
    let (x, y) = inputs();
    let (x, y): (Vec<f32>, Vec<f32>) = (
        x.iter().map(|&v| v as f32).collect(),
        y.iter().map(|&v| v as f32).collect(),
    );
    let n = x.len();
    let out = run_lib(
        "float",
        "f",
        Buffer::from_f32(&x),
        Buffer::from_f32(&y),
        Buffer::from_f32(&vec![0.0; n * K]),
        n as u32,
    )
    .to_f32();
    for i in 0..n {
        let want = want_f32(x[i], y[i]);
        for j in 0..K {
            let got = out[i * K + j];
            assert!(
                same_f32(got, want[j]),
                "function {j} at ({}, {}): {got} vs {}",
                x[i],
                y[i],
                want[j]
            );
        }
    }
    // Ties go to even, fmod keeps the dividend's sign.
    assert_eq!(&out[11..13], &[0.0, 0.0]);
    assert_eq!(out[K + 11], 2.0);
    assert_eq!(out[2 * K + 11], 2.0);
    assert_eq!(out[3 * K + 11], -2.0);
    assert_eq!(out[10 * K + 18], -1.5);
    assert_eq!(out[11 * K + 18], 1.5);
    assert!(out[4 * K + 18].is_nan(), "fmod by zero");
}

#[test]
fn double_precision_functions_match_std_and_libm() {
    let (x, y) = inputs();
    let n = x.len();
    let out = run_lib(
        "double",
        "",
        Buffer::from_f64(&x),
        Buffer::from_f64(&y),
        Buffer::from_f64(&vec![0.0; n * K]),
        n as u32,
    )
    .to_f64();
    for i in 0..n {
        let want = want_f64(x[i], y[i]);
        for j in 0..K {
            let got = out[i * K + j];
            assert!(
                got.to_bits() == want[j].to_bits() || (got.is_nan() && want[j].is_nan()),
                "function {j} at ({}, {}): {got} vs {}",
                x[i],
                y[i],
                want[j]
            );
        }
    }
    assert_eq!(out[14 * K + 11], f64::INFINITY, "rint(inf)");
    assert!(out[16 * K + 11].is_nan(), "rint(nan)");
    assert_eq!(out[3 * K + 23], -10.0, "ldexp(-2.5, 2)");
}
