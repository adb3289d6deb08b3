//! Gaps of the PTX lowering found on real NVRTC output, closed: `assert` (`__assertfail`)
//! and `__trap()`, libdevice math (`expf`, `logf`, `tanhf`, `erff`, `fmodf`, directed
//! roundings), bit intrinsics (`prmt`, `shf`, `bfind`, `sad`, `mul.hi`), 16- and 8-bit
//! integers and `f16`, register packing, calls of `__noinline__` device functions, and clear
//! rejections of what the thread code does not model. Each kernel is compiled by NVRTC and
//! run on the interpreter against values computed in Rust (skipped, with a note, when NVRTC
//! is missing).

use warpsafe_exec::{run_program, Arg, Buffer, LaunchConfig, Options, Outcome, Program};
use warpsafe_ir::{Category, F16};

/// NVRTC's PTX of `src`, or `None` (with a note) when NVRTC is not installed.
fn nvrtc(src: &str) -> Option<String> {
    if let Err(e) = warpsafe_cuda::nvrtc_path() {
        eprintln!("note: NVRTC is missing, test skipped: {e}");
        return None;
    }
    match warpsafe_cuda::compile_ptx(src, &Default::default()) {
        Ok(c) => Some(c.ptx),
        Err(e) => panic!("NVRTC rejects the test kernel: {e}\n{src}"),
    }
}

fn lower(ptx: &str, entry: &str) -> Result<Program, warpsafe_ptx::LowerError> {
    let m = warpsafe_ptx::parse(ptx).unwrap_or_else(|e| panic!("{e}\n{ptx}"));
    warpsafe_ptx::lower(&m, Some(entry))
}

/// A buffer of parameter `k`'s element type holding `bits`.
fn buffer(p: &Program, k: usize, bits: Vec<u64>) -> Arg {
    let elem = match p.kernel().params[k].kind {
        warpsafe_ir::ParamKind::Buffer { elem, .. } => elem,
        ref other => panic!("parameter {k} is {other:?}"),
    };
    Arg::Buffer(Buffer { elem, data: bits })
}

fn run(p: &Program, threads: u32, args: Vec<Arg>) -> Outcome {
    run_program(
        p,
        &LaunchConfig::linear(1, threads),
        args,
        &Options::default(),
    )
    .expect("runs")
}

fn out_bits(o: &Outcome, k: usize) -> Vec<u64> {
    match &o.args[k] {
        Arg::Buffer(b) => b.data.clone(),
        a => panic!("argument {k} is {a:?}"),
    }
}

fn categories(o: &Outcome) -> Vec<Category> {
    o.findings.iter().map(|f| f.category).collect()
}

const ASSERT: &str = r#"
extern "C" __global__ void check(const int* x, int n, int* y) {
    int i = threadIdx.x;
    assert(x[i] < n);
    y[i] = x[i] * 2;
}
extern "C" __global__ void abort_negative(int* x) {
    if (x[threadIdx.x] < 0) __trap();
    x[threadIdx.x] += 1;
}
"#;

#[test]
fn assert_lowers_to_an_assertion_that_fails_exactly_when_the_source_one_does() {
    let Some(ptx) = nvrtc(ASSERT) else { return };
    assert!(ptx.contains("__assertfail"), "{ptx}");
    let p = lower(&ptx, "check").expect("lowers");
    let args = |x: &[i32]| {
        vec![
            buffer(&p, 0, x.iter().map(|&v| u64::from(v as u32)).collect()),
            Arg::Scalar(warpsafe_ir::Value::U32(10)),
            buffer(&p, 2, vec![0; 8]),
        ]
    };
    let ok = run(&p, 8, args(&[0, 1, 2, 3, 4, 5, 6, 9]));
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    assert_eq!(out_bits(&ok, 2), [0, 2, 4, 6, 8, 10, 12, 18]);
    // The buggy twin: thread 5 breaks the assertion.
    let bad = run(&p, 8, args(&[0, 1, 2, 3, 4, 10, 6, 9]));
    assert_eq!(categories(&bad), [Category::Assert], "{:?}", bad.findings);
    assert_eq!(bad.findings[0].at.thread[0], 5, "{:?}", bad.findings);
}

#[test]
fn trap_is_a_failed_assertion_that_ends_the_thread() {
    let Some(ptx) = nvrtc(ASSERT) else { return };
    let p = lower(&ptx, "abort_negative").expect("lowers");
    let ints = |x: &[i32]| buffer(&p, 0, x.iter().map(|&v| u64::from(v as u32)).collect());
    let ok = run(&p, 4, vec![ints(&[1, 2, 3, 4])]);
    assert!(ok.findings.is_empty(), "{:?}", ok.findings);
    assert_eq!(out_bits(&ok, 0), [2, 3, 4, 5]);
    let bad = run(&p, 4, vec![ints(&[1, -2, 3, 4])]);
    assert_eq!(categories(&bad), [Category::Assert], "{:?}", bad.findings);
    // The trapping thread stops before its increment.
    assert_eq!(out_bits(&bad, 0), [2, u64::from(-2i32 as u32), 4, 5]);
}

const MATHF: &str = r#"
extern "C" __global__ void mathf(const float* x, float* y) {
    int i = threadIdx.x;
    float v = x[i];
    float* o = y + 24 * i;
    o[0] = expf(v);
    o[1] = __expf(v);
    o[2] = logf(fabsf(v) + 0.5f);
    o[3] = tanhf(v);
    o[4] = erff(v);
    o[5] = fmodf(v, 3.0f);
    o[6] = rsqrtf(fabsf(v) + 0.5f);
    o[7] = sqrtf(fabsf(v));
    o[8] = rintf(v);
    o[9] = roundf(v);
    o[10] = truncf(v);
    o[11] = floorf(v);
    o[12] = ceilf(v);
    o[13] = __frcp_rn(v);
    o[14] = __fsqrt_rn(fabsf(v));
    o[15] = __fmaf_rz(v, v, 1.0f);
    o[16] = __fadd_rd(v, 1.0f);
    o[17] = __fmul_ru(v, 3.0f);
    o[18] = exp2f(v);
    o[19] = __log2f(fabsf(v) + 0.5f);
    o[20] = __sinf(v);
    o[21] = __cosf(v);
    o[22] = __fdividef(v, 3.0f);
    o[23] = copysignf(2.0f, v);
}
"#;

const INPUTS: [f32; 16] = [
    -7.3, -2.5, -1.5, -0.5, -0.0, 0.1, 0.5, 1.0, 1.5, 2.5, 3.0, 5.7, 10.25, 0.001, 6.0, -3.0,
];

/// Whether `got` is within `ulps` units in the last place of `want` (NaNs equal).
fn near(got: f32, want: f32, ulps: u32) -> bool {
    if got.is_nan() || want.is_nan() {
        return got.is_nan() && want.is_nan();
    }
    if got == want {
        return true;
    }
    let (a, b) = (got.to_bits() as i32, want.to_bits() as i32);
    (a < 0) == (b < 0) && a.abs_diff(b) <= ulps
}

fn erf(x: f64) -> f64 {
    // Beyond 4, erf rounds to ±1 in f32 (erfc(4) < 2e-8); below, the Taylor series.
    if x.abs() >= 4.0 {
        return x.signum();
    }
    let mut sum = 0.0f64;
    let mut term = x;
    let mut n = 0.0;
    while term.abs() > 1e-17 * sum.abs().max(1e-300) && n < 400.0 {
        sum += term / (2.0 * n + 1.0);
        n += 1.0;
        term *= -x * x / n;
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

#[test]
fn libdevice_math_and_rounding_modes_run_like_rust() {
    let Some(ptx) = nvrtc(MATHF) else { return };
    for needle in ["fma.rm.f32", "ex2.approx", "copysign.f32", "fma.rz.f32"] {
        assert!(ptx.contains(needle), "NVRTC no longer emits {needle}");
    }
    let p = lower(&ptx, "mathf").expect("lowers");
    let n = INPUTS.len();
    let x = INPUTS.iter().map(|v| v.to_bits() as u64).collect();
    let o = run(
        &p,
        n as u32,
        vec![buffer(&p, 0, x), buffer(&p, 1, vec![0; 24 * n])],
    );
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let y = out_bits(&o, 1);
    for (t, &v) in INPUTS.iter().enumerate() {
        let got = |k: usize| f32::from_bits(y[24 * t + k] as u32);
        let a = v.abs() + 0.5;
        // (slot, expected, ulps): libdevice's sequences run in IEEE arithmetic are within a
        // few ulps of the correctly rounded value; the exact operations are exact.
        let want: [(usize, f32, u32); 24] = [
            (0, (v as f64).exp() as f32, 2),
            // `__expf` is `ex2.approx(x * log2(e))`: exact given the rounded product.
            (1, (v * std::f32::consts::LOG2_E).exp2(), 0),
            (2, (a as f64).ln() as f32, 2),
            (3, (v as f64).tanh() as f32, 2),
            (4, erf(v as f64) as f32, 2),
            (5, v % 3.0, 0),
            (6, (1.0 / (a as f64).sqrt()) as f32, 1),
            (7, v.abs().sqrt(), 0),
            (8, v.round_ties_even(), 0),
            (9, v.round(), 0),
            (10, v.trunc(), 0),
            (11, v.floor(), 0),
            (12, v.ceil(), 0),
            (13, 1.0 / v, 0),
            (14, v.abs().sqrt(), 0),
            // Directed roundings run as round-to-nearest: within 1 ulp.
            (15, v.mul_add(v, 1.0), 1),
            (16, v + 1.0, 1),
            (17, v * 3.0, 1),
            (18, v.exp2(), 1),
            (19, a.log2(), 1),
            (20, v.sin(), 1),
            (21, v.cos(), 1),
            (22, v / 3.0, 1),
            (23, 2.0f32.copysign(v), 0),
        ];
        for (k, w, ulps) in want {
            assert!(
                near(got(k), w, ulps),
                "x = {v}: slot {k}: got {} want {w}",
                got(k)
            );
        }
    }
}

const MATHD: &str = r#"
extern "C" __global__ void mathd(const double* x, double* y, int* hi) {
    int i = threadIdx.x;
    double v = x[i];
    double* o = y + 6 * i;
    o[0] = exp(v);
    o[1] = rint(v);
    o[2] = round(v);
    o[3] = __drcp_rn(v);
    o[4] = sqrt(fabs(v));
    o[5] = __hiloint2double(__double2hiint(v), __double2loint(v));
    hi[i] = __double2hiint(v);
}
"#;

#[test]
fn double_math_and_register_packing_run_like_rust() {
    let Some(ptx) = nvrtc(MATHD) else { return };
    assert!(
        ptx.contains("mov.b64 \t{"),
        "NVRTC no longer unpacks with mov.b64 {{..}}"
    );
    let p = lower(&ptx, "mathd").expect("lowers");
    let n = INPUTS.len();
    let xs: Vec<f64> = INPUTS.iter().map(|&v| f64::from(v) * 1.75).collect();
    let o = run(
        &p,
        n as u32,
        vec![
            buffer(&p, 0, xs.iter().map(|v| v.to_bits()).collect()),
            buffer(&p, 1, vec![0; 6 * n]),
            buffer(&p, 2, vec![0; n]),
        ],
    );
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let (y, hi) = (out_bits(&o, 1), out_bits(&o, 2));
    for (t, &v) in xs.iter().enumerate() {
        let got = |k: usize| f64::from_bits(y[6 * t + k]);
        let e = v.exp();
        assert!(
            (got(0) - e).abs() <= 4.0 * f64::EPSILON * e,
            "exp({v}) = {}",
            got(0)
        );
        assert_eq!(got(1), v.round_ties_even(), "rint({v})");
        assert_eq!(got(2), v.round(), "round({v})");
        assert_eq!(got(3), 1.0 / v, "rcp({v})");
        assert_eq!(got(4), v.abs().sqrt(), "sqrt({v})");
        assert_eq!(got(5).to_bits(), v.to_bits(), "repack({v})");
        assert_eq!(hi[t], (v.to_bits() >> 32) & 0xffff_ffff, "hi({v})");
    }
}

const BITS: &str = r#"
extern "C" __global__ void bits(const unsigned* x, const unsigned long long* w, unsigned* o, unsigned long long* o64) {
    int i = threadIdx.x;
    unsigned a = x[2 * i], b = x[2 * i + 1];
    unsigned long long u = w[2 * i], v = w[2 * i + 1];
    unsigned* r = o + 20 * i;
    r[0] = __byte_perm(a, b, 0x5140);
    r[1] = __byte_perm(a, b, b);
    r[2] = __funnelshift_l(a, b, a);
    r[3] = __funnelshift_r(a, b, a);
    r[4] = __funnelshift_lc(a, b, a);
    r[5] = __funnelshift_rc(a, b, a);
    r[6] = __popc(a);
    r[7] = __clz(a);
    r[8] = __ffs(a);
    r[9] = __brev(a);
    r[10] = __popcll(u);
    r[11] = __clzll(u);
    r[12] = __ffsll(u);
    r[13] = __umulhi(a, b);
    r[14] = __mulhi((int)a, (int)b);
    r[15] = __sad((int)a, (int)b, 7u);
    r[16] = __usad(a, b, 7u);
    r[17] = __mul24((int)a, (int)b);
    r[18] = __umul24(a, b);
    r[19] = __clz((int)a < 0 ? ~a : a);
    unsigned long long* q = o64 + 3 * i;
    q[0] = __brevll(u);
    q[1] = __umul64hi(u, v);
    q[2] = __mul64hi((long long)u, (long long)v);
}
"#;

fn byte_perm(a: u32, b: u32, s: u32) -> u32 {
    let x = (u64::from(b) << 32) | u64::from(a);
    (0..4).fold(0, |acc, k| {
        let byte = ((x >> (8 * ((s >> (4 * k)) & 7))) & 0xff) as u32;
        acc | (byte << (8 * k))
    })
}

fn ext24(x: u32) -> i64 {
    i64::from(((x << 8) as i32) >> 8)
}

#[test]
fn bit_intrinsics_run_like_rust() {
    let Some(ptx) = nvrtc(BITS) else { return };
    for needle in ["prmt.b32", "shf.l.wrap", "shf.r.clamp", "sad.", "bfind"] {
        assert!(ptx.contains(needle), "NVRTC no longer emits {needle}");
    }
    let p = lower(&ptx, "bits").expect("lowers");
    let xs: [u32; 16] = [
        0,
        1,
        0x8000_0000,
        0xdead_beef,
        0x1234_5678,
        37,
        0xffff_ffff,
        0x0080_0000,
        5,
        33,
        0x7fff_ffff,
        0xf0f0_0f0f,
        0x00ff_ff00,
        64,
        0x8765_4321,
        31,
    ];
    let ws: [u64; 16] = [
        0,
        1,
        0x8000_0000_0000_0000,
        0xdead_beef_0123_4567,
        u64::MAX,
        0x0000_0001_0000_0000,
        12345,
        0x7fff_ffff_ffff_ffff,
        0x00f0_0000_0000_0000,
        3,
        0x8000_0000_0000_0001,
        99,
        1 << 40,
        0xffff_0000_ffff_0000,
        7,
        0x1234_5678_9abc_def0,
    ];
    let n = 8;
    let o = run(
        &p,
        n as u32,
        vec![
            buffer(&p, 0, xs.iter().map(|&v| u64::from(v)).collect()),
            buffer(&p, 1, ws.to_vec()),
            buffer(&p, 2, vec![0; 20 * n]),
            buffer(&p, 3, vec![0; 3 * n]),
        ],
    );
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let (r, q) = (out_bits(&o, 2), out_bits(&o, 3));
    for t in 0..n {
        let (a, b) = (xs[2 * t], xs[2 * t + 1]);
        let (u, v) = (ws[2 * t], ws[2 * t + 1]);
        let pair = (u64::from(b) << 32) | u64::from(a);
        let (nw, nc) = (a & 31, a.min(32));
        let ffs = |x: u64| if x == 0 { 0 } else { x.trailing_zeros() + 1 };
        let want: [u32; 20] = [
            byte_perm(a, b, 0x5140),
            byte_perm(a, b, b),
            ((pair << nw) >> 32) as u32,
            (pair >> nw) as u32,
            ((pair << nc) >> 32) as u32,
            (pair >> nc) as u32,
            a.count_ones(),
            a.leading_zeros(),
            ffs(u64::from(a)),
            a.reverse_bits(),
            u.count_ones(),
            u.leading_zeros(),
            ffs(u),
            ((u64::from(a) * u64::from(b)) >> 32) as u32,
            ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
            7u32.wrapping_add((a as i32).abs_diff(b as i32)),
            7u32.wrapping_add(a.abs_diff(b)),
            (ext24(a) * ext24(b)) as u32,
            (u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) as u32,
            if (a as i32) < 0 { !a } else { a }.leading_zeros(),
        ];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(r[20 * t + k] as u32, *w, "a={a:#x} b={b:#x} slot {k}");
        }
        let want64 = [
            u.reverse_bits(),
            ((u128::from(u) * u128::from(v)) >> 64) as u64,
            ((i128::from(u as i64) * i128::from(v as i64)) >> 64) as u64,
        ];
        for (k, w) in want64.iter().enumerate() {
            assert_eq!(q[3 * t + k], *w, "u={u:#x} v={v:#x} slot {k}");
        }
    }
}

const NARROW: &str = r#"
struct __align__(2) half { unsigned short x; };
__device__ __forceinline__ half hfma(half a, half b, half c) {
    half r; asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(r.x) : "h"(a.x), "h"(b.x), "h"(c.x)); return r;
}
__device__ __forceinline__ half hadd(half a, half b) {
    half r; asm("add.f16 %0, %1, %2;" : "=h"(r.x) : "h"(a.x), "h"(b.x)); return r;
}
__device__ __forceinline__ half f2h(float f) {
    half r; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r.x) : "f"(f)); return r;
}
__device__ __forceinline__ float h2f(half h) {
    float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.x)); return f;
}
extern "C" __global__ void narrow(short* s, unsigned short* us, unsigned char* uc, signed char* sc,
                                  half* h, float* f) {
    int i = threadIdx.x;
    short a = s[i];
    unsigned short b = us[i];
    s[i] = (short)(a * b + (short)uc[i] - sc[i]) >> 1;
    us[i] = (unsigned short)(b >> 3) ^ (unsigned short)a;
    uc[i] = (unsigned char)(uc[i] + sc[i] * 3);
    sc[i] = (signed char)(sc[i] / 3 - (a & 7));
    half v = hfma(h[2 * i], h[2 * i + 1], f2h(0.25f));
    h[2 * i] = hadd(v, f2h(1.5f));
    f[i] = h2f(v) * 2.0f;
}
"#;

#[test]
fn narrow_integers_and_halves_run_like_rust() {
    let Some(ptx) = nvrtc(NARROW) else { return };
    let p = lower(&ptx, "narrow").expect("lowers");
    let s: [i16; 8] = [0, -1, 300, -32768, 32767, 77, -1234, 5];
    let us: [u16; 8] = [0, 65535, 3, 1000, 40000, 7, 12, 65000];
    let uc: [u8; 8] = [0, 255, 3, 128, 200, 7, 1, 99];
    let sc: [i8; 8] = [0, -128, 127, -1, 5, -7, 100, -50];
    let hs: Vec<F16> = [
        1.0, 2.0, -0.5, 3.25, 100.0, 0.01, -7.0, 7.0, 65504.0, 2.0, 0.1, 0.2, 1e-4, 3.0, -2.5, -2.5,
    ]
    .iter()
    .map(|&v| F16::from_f64(v))
    .collect();
    let n = s.len();
    let o = run(
        &p,
        n as u32,
        vec![
            buffer(&p, 0, s.iter().map(|&v| u64::from(v as u16)).collect()),
            buffer(&p, 1, us.iter().map(|&v| u64::from(v)).collect()),
            buffer(&p, 2, uc.iter().map(|&v| u64::from(v)).collect()),
            buffer(&p, 3, sc.iter().map(|&v| u64::from(v as u8)).collect()),
            buffer(&p, 4, hs.iter().map(|v| u64::from(v.to_bits())).collect()),
            buffer(&p, 5, vec![0; n]),
        ],
    );
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let out: Vec<Vec<u64>> = (0..6).map(|k| out_bits(&o, k)).collect();
    for i in 0..n {
        let (a, b, c, d) = (s[i], us[i], uc[i], sc[i]);
        let s_want =
            ((i32::from(a) * i32::from(b) + i32::from(c as i16) - i32::from(d)) as i16) >> 1;
        assert_eq!(out[0][i] as u16 as i16, s_want, "short, thread {i}");
        assert_eq!(
            out[1][i] as u16,
            (b >> 3) ^ (a as u16),
            "ushort, thread {i}"
        );
        let c_want = (i32::from(c) + i32::from(d) * 3) as u8;
        assert_eq!(out[2][i] as u8, c_want, "uchar, thread {i}");
        let d_want = (i32::from(d) / 3 - (i32::from(a) & 7)) as i8;
        assert_eq!(out[3][i] as u8 as i8, d_want, "schar, thread {i}");
        let v = F16::fma(hs[2 * i], hs[2 * i + 1], F16::from_f64(0.25));
        let sum = F16::from_f64(v.to_f64() + 1.5);
        assert_eq!(out[4][2 * i] as u16, sum.to_bits(), "half, thread {i}");
        assert_eq!(
            f32::from_bits(out[5][i] as u32),
            v.to_f32() * 2.0,
            "half to float, thread {i}"
        );
    }
}

const CALLS: &str = r#"
struct Pair { int a; float b; long long c; };
__device__ __noinline__ float helper(float x, const float* t, int k) { return x * t[k] + 1.0f; }
__device__ __noinline__ Pair make(int a) { Pair p; p.a = a; p.b = a * 0.5f; p.c = a * 3LL; return p; }
__device__ __noinline__ void put(float* o, int i, float v) { if (i % 3 == 2) return; o[i] = v; }
__device__ __noinline__ int twice(int v) { return 2 * v; }
__device__ __noinline__ int quad(int v) { return twice(twice(v)); }
extern "C" __global__ void calls(float* x, const float* t, int* q) {
    int i = threadIdx.x;
    float v = helper(x[i], t, i);
    Pair p = make(i);
    put(x, i, v + p.b + (float)p.c + (float)p.a);
    if (i & 1) q[i] = quad(q[i]);
    printf("thread %d done\n", i);
}
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
extern "C" __global__ void recursive(int* x) { x[threadIdx.x] = fib(x[threadIdx.x]); }
"#;

#[test]
fn noinline_device_functions_are_inlined_exactly() {
    let Some(ptx) = nvrtc(CALLS) else { return };
    assert!(ptx.contains(".func"), "NVRTC inlined the helpers");
    let p = lower(&ptx, "calls").expect("lowers");
    let n = 8;
    let xs: Vec<f32> = (0..n).map(|i| i as f32 * 1.5 - 3.0).collect();
    let ts: Vec<f32> = (0..n).map(|i| 0.25 * i as f32).collect();
    let qs: Vec<i32> = (0..n).map(|i| i as i32 - 2).collect();
    let o = run(
        &p,
        n as u32,
        vec![
            Arg::Buffer(Buffer::from_f32(&xs)),
            Arg::Buffer(Buffer::from_f32(&ts)),
            buffer(&p, 2, qs.iter().map(|&v| u64::from(v as u32)).collect()),
        ],
    );
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let Arg::Buffer(x) = &o.args[0] else { panic!() };
    let q = out_bits(&o, 2);
    for i in 0..n {
        let v = xs[i] * ts[i] + 1.0;
        let want = if i % 3 == 2 {
            xs[i]
        } else {
            v + i as f32 * 0.5 + (3 * i) as f32 + i as f32
        };
        assert_eq!(x.to_f32()[i], want, "x[{i}]");
        let qw = if i & 1 == 1 { 4 * qs[i] } else { qs[i] };
        assert_eq!(q[i] as u32 as i32, qw, "q[{i}]");
    }
}

#[test]
fn recursion_is_rejected_naming_the_call() {
    let Some(ptx) = nvrtc(CALLS) else { return };
    let e = lower(&ptx, "recursive").expect_err("recursion cannot be inlined");
    assert!(e.message.contains("recursive `call` of `_Z3fibi`"), "{e}");
    assert!(e.line > 0, "{e}");
}

const UNSUPPORTED: &str = r#"
extern "C" __global__ void async_copy(const float* g, float* o) {
    __shared__ float s[128];
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa), "l"(&g[threadIdx.x]));
    asm volatile("cp.async.wait_all;");
    o[threadIdx.x] = s[threadIdx.x];
}
extern "C" __global__ void split_barrier(float* o) {
    __shared__ unsigned long long bar;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&bar);
    if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(addr), "r"(blockDim.x));
    __syncthreads();
    o[threadIdx.x] = 1.0f;
}
extern "C" __global__ void warp_reduce(int* o) {
    o[threadIdx.x] = __reduce_add_sync(0xffffffffu, o[threadIdx.x]);
}
"#;

#[test]
fn unmodelled_instructions_are_rejected_by_name_and_line() {
    let Some(ptx) = nvrtc(UNSUPPORTED) else {
        return;
    };
    for (entry, what) in [
        (
            "async_copy",
            "`cp.async` (asynchronous copy) is not supported by the PTX road",
        ),
        ("split_barrier", "`mbarrier`"),
        ("warp_reduce", "`redux.sync`"),
    ] {
        let e = lower(&ptx, entry).expect_err(entry);
        assert!(e.message.contains(what), "{entry}: {e}");
        assert!(e.line > 0, "{entry}: {e}");
        let line = ptx.lines().nth(e.line - 1).unwrap_or_default();
        let op = what.trim_start_matches('`').split(['`', '.', ' ']).next();
        assert!(
            op.is_some_and(|op| line.trim_start().starts_with(op)),
            "{entry}: line {} is `{line}`",
            e.line
        );
    }
}

const AGGREGATE: &str = r#"
struct Pair { int a; float b; long long c; };
struct __align__(2) Half { unsigned short x; };
extern "C" __global__ void by_value(Pair p, float* out, Half h, unsigned short* hs) {
    out[threadIdx.x] = p.a + p.b * threadIdx.x + (float)p.c;
    hs[threadIdx.x] = h.x + threadIdx.x;
}
"#;

/// A scalar of parameter `k`'s type holding `bits`.
fn scalar(p: &Program, k: usize, bits: u64) -> Arg {
    match p.kernel().params[k].kind {
        warpsafe_ir::ParamKind::Scalar(t) => Arg::Scalar(warpsafe_ir::Value::from_bits(t, bits)),
        ref other => panic!("parameter {k} is {other:?}"),
    }
}

#[test]
fn by_value_aggregates_become_one_parameter_per_field_read() {
    let Some(ptx) = nvrtc(AGGREGATE) else { return };
    assert!(ptx.contains(".b8 by_value_param_0[16]"), "{ptx}");
    let p = lower(&ptx, "by_value").expect("lowers");
    let names: Vec<&str> = p.kernel().params.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "by_value_param_0_f0",
            "by_value_param_0_f4",
            "by_value_param_0_f8",
            "by_value_param_1",
            "by_value_param_2_f0",
            "by_value_param_3"
        ]
    );
    let n = 4;
    let o = run(
        &p,
        n,
        vec![
            scalar(&p, 0, (-3i32) as u32 as u64),
            scalar(&p, 1, u64::from(0.5f32.to_bits())),
            scalar(&p, 2, 1000),
            buffer(&p, 3, vec![0; n as usize]),
            scalar(&p, 4, 65534),
            buffer(&p, 5, vec![0; n as usize]),
        ],
    );
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let (f, h) = (out_bits(&o, 3), out_bits(&o, 5));
    for t in 0..n as usize {
        let want = -3.0 + 0.5 * t as f32 + 1000.0;
        assert_eq!(f32::from_bits(f[t] as u32), want, "out[{t}]");
        assert_eq!(h[t] as u16, 65534u16.wrapping_add(t as u16), "hs[{t}]");
    }
}

#[test]
fn by_value_aggregates_under_a_signature_are_rejected_clearly() {
    let Some(ptx) = nvrtc(AGGREGATE) else { return };
    let m = warpsafe_ptx::parse(&ptx).expect("parses");
    let unsig = lower(&ptx, "by_value").expect("lowers");
    let sig = unsig.kernel().clone();
    let e = warpsafe_ptx::lower_with(
        &m,
        &warpsafe_ptx::LowerOptions {
            entry: Some("by_value"),
            signature: Some(&sig),
            source: None,
        },
    )
    .expect_err("aggregate under a signature");
    assert!(e.message.contains("by_value_param_0"), "{e}");
    assert!(e.message.contains("by-value aggregate"), "{e}");
}

const POINTERS: &str = r#"
typedef float (*unary)(float);
__device__ __noinline__ float twice(float x) { return 2.0f * x; }
__device__ __noinline__ float plus1(float x) { return x + 1.0f; }
__device__ __noinline__ float square(float x) { return x * x; }
extern "C" __global__ void apply(const float* in, float* out, int which) {
    int i = threadIdx.x;
    unary f = which ? twice : plus1;
    out[i] = f(in[i]);
}
extern "C" __global__ void table(const float* in, float* out) {
    __shared__ unary ops[3];
    if (threadIdx.x == 0) { ops[0] = twice; ops[1] = plus1; ops[2] = square; }
    __syncthreads();
    int i = threadIdx.x;
    out[i] = ops[i % 3](in[i]);
}
extern "C" __global__ void wild(const float* in, float* out, unsigned long long bits) {
    unary f = bits ? (unary)bits : twice;
    out[threadIdx.x] = f(in[threadIdx.x]);
}
"#;

#[test]
fn calls_through_function_pointers_dispatch_over_the_functions_whose_address_is_taken() {
    let Some(ptx) = nvrtc(POINTERS) else { return };
    assert!(
        ptx.contains(".callprototype"),
        "NVRTC made no indirect call"
    );
    let n = 12usize;
    let xs: Vec<f32> = (0..n).map(|i| i as f32 * 0.75 - 2.0).collect();
    let apply = lower(&ptx, "apply").expect("lowers");
    for which in [0u64, 1] {
        let o = run(
            &apply,
            n as u32,
            vec![
                Arg::Buffer(Buffer::from_f32(&xs)),
                Arg::Buffer(Buffer::from_f32(&vec![0.0; n])),
                scalar(&apply, 2, which),
            ],
        );
        assert!(o.findings.is_empty(), "{:?}", o.findings);
        let got = out_bits(&o, 1);
        for i in 0..n {
            let want = if which == 1 { 2.0 * xs[i] } else { xs[i] + 1.0 };
            assert_eq!(
                f32::from_bits(got[i] as u32),
                want,
                "which={which} out[{i}]"
            );
        }
    }
    let table = lower(&ptx, "table").expect("lowers");
    let o = run(
        &table,
        n as u32,
        vec![
            Arg::Buffer(Buffer::from_f32(&xs)),
            Arg::Buffer(Buffer::from_f32(&vec![0.0; n])),
        ],
    );
    assert!(o.findings.is_empty(), "{:?}", o.findings);
    let got = out_bits(&o, 1);
    for i in 0..n {
        let x = xs[i];
        let want = [2.0 * x, x + 1.0, x * x][i % 3];
        assert_eq!(f32::from_bits(got[i] as u32), want, "table out[{i}]");
    }
    // A pointer to no function of the module: the call fails an assertion, never runs one.
    let wild = lower(&ptx, "wild").expect("lowers");
    let o = run(
        &wild,
        4,
        vec![
            Arg::Buffer(Buffer::from_f32(&xs[..4])),
            Arg::Buffer(Buffer::from_f32(&[0.0; 4])),
            scalar(&wild, 2, 0xdead_beef),
        ],
    );
    assert!(
        categories(&o).contains(&Category::Assert),
        "{:?}",
        o.findings
    );
}
