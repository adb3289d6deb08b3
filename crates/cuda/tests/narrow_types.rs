//! 8/16-bit integers and `__half`: the interpreter against plain Rust references, and the
//! generated CUDA C compiled by NVRTC.

use warpsafe_exec::{Arg, Buffer, LaunchConfig, Options, Outcome};
use warpsafe_ir::{Category, Kernel, Value, F16};

fn kernel(src: &str) -> Kernel {
    warpsafe_cuda_front::compile(src)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .kernels
        .remove(0)
}

fn launch(grid: u32, block: u32) -> LaunchConfig {
    LaunchConfig {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_shared_bytes: 0,
    }
}

fn run(k: &Kernel, cfg: &LaunchConfig, args: Vec<Arg>) -> Outcome {
    warpsafe_exec::run(k, cfg, args, &Options::default()).expect("runs")
}

fn buffer(out: &Outcome, i: usize) -> &Buffer {
    match &out.args[i] {
        Arg::Buffer(b) => b,
        Arg::Scalar(v) => panic!("argument {i} is the scalar {v}"),
    }
}

/// NVRTC compiles the generated CUDA C with no warnings; returns the PTX.
fn nvrtc(k: &Kernel) -> String {
    let src = warpsafe_cuda::generate(k).expect("codegen");
    let out = warpsafe_cuda::compile_ptx(&src, &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{src}"));
    assert!(
        out.log.trim().is_empty(),
        "NVRTC warnings:\n{}\n{src}",
        out.log
    );
    assert!(out.ptx.contains(&k.name));
    out.ptx
}

fn lcg(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        s >> 33
    }
}

pub const HISTOGRAM: &str = r#"
__global__ void histogram(const unsigned char* data, unsigned int* hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&hist[data[i]], 1u);
    }
}
"#;

#[test]
fn histogram_over_bytes_matches_rust() {
    let k = kernel(HISTOGRAM);
    let mut next = lcg(7);
    let n = 1000usize;
    let data: Vec<u8> = (0..n).map(|_| next() as u8).collect();
    let mut want = vec![0u32; 256];
    for &d in &data {
        want[d as usize] += 1;
    }
    let out = run(
        &k,
        &launch(4, 256),
        vec![
            Arg::Buffer(Buffer::from_u8(&data)),
            Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::U32, 256)),
            Arg::Scalar(Value::I32(n as i32)),
        ],
    );
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(buffer(&out, 1).to_u32(), want);
    assert_eq!(buffer(&out, 0).to_u8(), data, "input untouched");
    let ptx = nvrtc(&k);
    assert!(
        ptx.contains("ld.global.nc.u8") || ptx.contains("ld.global.u8"),
        "{ptx}"
    );
}

#[test]
fn neighbouring_bytes_are_different_cells() {
    // Each thread writes its own byte: four threads share one 32-bit word, and that is no race.
    let k = kernel(
        "__global__ void k(unsigned char* out) { out[threadIdx.x] = (unsigned char)(threadIdx.x * 3u); }",
    );
    let out = run(
        &k,
        &launch(1, 64),
        vec![Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::U8, 64))],
    );
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let want: Vec<u8> = (0..64u32).map(|t| (t * 3) as u8).collect();
    assert_eq!(buffer(&out, 0).to_u8(), want);
    // Two threads on one byte is a race.
    let k = kernel(
        "__global__ void k(unsigned char* out) { out[threadIdx.x / 2u] = (unsigned char)threadIdx.x; }",
    );
    let out = run(
        &k,
        &launch(1, 8),
        vec![Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::U8, 8))],
    );
    assert!(
        out.findings.iter().any(|f| f.category == Category::Race),
        "{:?}",
        out.findings
    );
    // Shorts: two bytes each, neighbours do not race, out-of-bounds is caught at element size.
    let k = kernel(
        "__global__ void k(short* out, int n) { int i = threadIdx.x; if (i <= n) out[i] = (short)(i * 1000); }",
    );
    let out = run(
        &k,
        &launch(1, 40),
        vec![
            Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::I16, 39)),
            Arg::Scalar(Value::I32(39)),
        ],
    );
    assert!(
        out.findings.iter().all(|f| f.category == Category::Oob),
        "{:?}",
        out.findings
    );
    assert!(
        !out.findings.is_empty(),
        "out[39] of a 39-element buffer is out of bounds"
    );
    let want: Vec<i16> = (0..39i32).map(|i| (i * 1000) as i16).collect();
    assert_eq!(buffer(&out, 0).to_i16(), want);
}

#[test]
fn char_and_short_wrap_and_promote_like_c() {
    let k = kernel(
        r#"
__global__ void wrap(int* out, unsigned char a, unsigned char b, signed char c, short s, unsigned short u) {
    out[0] = (unsigned char)(200 + 100);
    out[1] = (short)40000;
    out[2] = a + b;                   // promoted: 300, not 44
    unsigned char t = a + b;          // stored back: 44
    out[3] = t;
    char d = c;
    d += 100;                         // (char)(100 + 100) = -56
    out[4] = d;
    out[5] = c * c * c;               // int arithmetic: 1000000, no overflow
    out[6] = (signed char)(c * 2) ;   // (signed char)200 = -56
    out[7] = s >> 1;                  // arithmetic shift of a negative short
    out[8] = u << 1;                  // promoted to int: 65534*2, not wrapped to 16 bits
    unsigned short v = u;
    v++;                              // 65535 + 1 wraps to 0
    out[9] = v;
    out[10] = -a;                     // -(int)a
    out[11] = ~a;                     // ~(int)a
    out[12] = a > c;                  // 200 > 100 as ints
    out[13] = (char)(-129);           // 127
    out[14] = (unsigned short)(-1);   // 65535
    out[15] = (int8_t)(uint8_t)255;   // -1
}
"#,
    );
    let (a, b, c, s, u) = (200u8, 100u8, 100i8, -30000i16, 65534u16);
    let want: Vec<i32> = vec![
        (200 + 100) as u8 as i32,
        40000i32 as i16 as i32,
        a as i32 + b as i32,
        a.wrapping_add(b) as i32,
        (c as i32 + 100) as i8 as i32,
        c as i32 * c as i32 * c as i32,
        (c as i32 * 2) as i8 as i32,
        s as i32 >> 1,
        (u as i32) << 1,
        u.wrapping_add(1) as i32,
        -(a as i32),
        !(a as i32),
        (a as i32 > c as i32) as i32,
        -129i32 as i8 as i32,
        -1i32 as u16 as i32,
        -1,
    ];
    assert_eq!(want[0], 44);
    assert_eq!(want[1], -25536);
    let out = run(
        &k,
        &launch(1, 1),
        vec![
            Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::I32, 16)),
            Arg::Scalar(Value::U8(a)),
            Arg::Scalar(Value::U8(b)),
            Arg::Scalar(Value::I8(c)),
            Arg::Scalar(Value::I16(s)),
            Arg::Scalar(Value::U16(u)),
        ],
    );
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    assert_eq!(buffer(&out, 0).to_i32(), want);
    nvrtc(&k);
}

/// `y = a*x + y` in half, rounding after the product and after the sum (two kernels: C
/// operators, and the intrinsics).
#[test]
fn half_axpy_rounds_after_every_operation() {
    let ops = kernel(
        r#"
__global__ void haxpy(int n, __half a, const __half* x, __half* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"#,
    );
    let intrinsics = kernel(
        r#"
__global__ void haxpy(int n, half a, const half* x, half* y, float* wide) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        half p = __hmul(a, x[i]);
        y[i] = __hadd(p, y[i]);
        wide[i] = __half2float(__hfma(a, x[i], __float2half(0.1f)));
    }
}
"#,
    );
    let n = 300usize;
    let mut next = lcg(3);
    let x: Vec<F16> = (0..n)
        .map(|_| F16::from_f64((next() % 20000) as f64 / 97.0 - 100.0))
        .collect();
    let y: Vec<F16> = (0..n)
        .map(|_| F16::from_f64((next() % 20000) as f64 / 31.0 - 300.0))
        .collect();
    let a = F16::from_f64(1.37);
    let round = |v: f64| F16::from_f64(v);
    let want: Vec<u16> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| round(round(a.to_f64() * x.to_f64()).to_f64() + y.to_f64()).to_bits())
        .collect();
    // Rounding once (or computing in float) would differ somewhere in 300 elements.
    let fused: Vec<u16> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| round(a.to_f64() * x.to_f64() + y.to_f64()).to_bits())
        .collect();
    assert_ne!(
        want, fused,
        "the test data must tell the two roundings apart"
    );
    let cfg = launch(3, 128);
    let base = vec![
        Arg::Scalar(Value::I32(n as i32)),
        Arg::Scalar(Value::F16(a)),
        Arg::Buffer(Buffer::from_f16(&x)),
        Arg::Buffer(Buffer::from_f16(&y)),
    ];
    let out = run(&ops, &cfg, base.clone());
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let got: Vec<u16> = buffer(&out, 3)
        .to_f16()
        .iter()
        .map(|h| h.to_bits())
        .collect();
    assert_eq!(got, want);

    let mut args = base;
    args.push(Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::F32, n)));
    let out = run(&intrinsics, &cfg, args);
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let got: Vec<u16> = buffer(&out, 3)
        .to_f16()
        .iter()
        .map(|h| h.to_bits())
        .collect();
    assert_eq!(got, want);
    let tenth = F16::from_f32(0.1);
    let wide_want: Vec<f32> = x.iter().map(|x| F16::fma(a, *x, tenth).to_f32()).collect();
    assert_eq!(buffer(&out, 4).to_f32(), wide_want);

    let ptx = nvrtc(&ops);
    assert!(ptx.contains("cvt.rn.f16.f32"), "{ptx}");
    let ptx = nvrtc(&intrinsics);
    assert!(ptx.contains("fma.rn.f16"), "{ptx}");
}

#[test]
fn half_conversions_and_comparisons() {
    let k = kernel(
        r#"
__global__ void conv(const float* in, __half* h, int* i, float* back) {
    int t = threadIdx.x;
    __half v = __float2half(in[t]);
    h[t] = v;
    i[4 * t] = __half2int_rz(v);
    i[4 * t + 1] = __hlt(v, __float2half(1.0f));
    i[4 * t + 2] = __hne(v, v);
    i[4 * t + 3] = (int)(v > __int2half_rn(2));
    back[t] = __half2float(__hmax(v, __hneg(v)));
}
"#,
    );
    let input: Vec<f32> = vec![0.1, -2.75, 65504.0, 65520.0, 1e-8, 2.0, 3.5, f32::NAN];
    let n = input.len();
    let out = run(
        &k,
        &launch(1, n as u32),
        vec![
            Arg::Buffer(Buffer::from_f32(&input)),
            Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::F16, n)),
            Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::I32, 4 * n)),
            Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::F32, n)),
        ],
    );
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let h: Vec<u16> = buffer(&out, 1)
        .to_f16()
        .iter()
        .map(|h| h.to_bits())
        .collect();
    assert_eq!(
        h,
        vec![0x2e66, 0xc180, 0x7bff, 0x7c00, 0x0000, 0x4000, 0x4300, 0x7fff]
    );
    let i = buffer(&out, 2).to_i32();
    let hv: Vec<F16> = input.iter().map(|&x| F16::from_f32(x)).collect();
    for t in 0..n {
        let v = hv[t];
        let want = [
            v.to_f64() as i32,
            (v.to_f64() < 1.0) as i32,
            0, // ordered: false for NaN too
            (v.to_f64() > 2.0) as i32,
        ];
        assert_eq!(&i[4 * t..4 * t + 4], &want, "input {}", input[t]);
    }
    let back = buffer(&out, 3).to_f32();
    assert_eq!(back[1], 2.75);
    assert_eq!(back[0], F16::from_bits(0x2e66).to_f32());
    assert!(back[7].is_nan());
    nvrtc(&k);
}

#[test]
fn histogram_round_trips_through_generated_cuda() {
    // The generated CUDA C of byte kernels is itself in the subset and runs the same.
    let k = kernel(HISTOGRAM);
    let src = warpsafe_cuda::generate(&k).expect("codegen");
    let back = kernel(&src);
    let data: Vec<u8> = (0..=255u8).chain(0..40).collect();
    let args = vec![
        Arg::Buffer(Buffer::from_u8(&data)),
        Arg::Buffer(Buffer::zeros(warpsafe_ir::ScalarType::U32, 256)),
        Arg::Scalar(Value::I32(data.len() as i32)),
    ];
    let a = run(&k, &launch(2, 256), args.clone());
    let b = run(&back, &launch(2, 256), args);
    assert_eq!(a.args, b.args);
}
