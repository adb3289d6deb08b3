//! Textures and surfaces read through clang are buffers with the addressing CUDA documents:
//! kernels that fetch through texture objects, legacy texture references and surfaces run
//! in the interpreter and every output is compared with the value computed here in Rust
//! (in range, out of range → 0, clamp / border / wrap for `tex2D`, surface byte
//! coordinates); the verifier proves the correct kernels and refutes their buggy twins; what
//! we do not model is rejected naming the construct.

use crate::common;

use common::{kernel, z3_missing};
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options as RunOptions};
use warpsafe_ir::{Kernel, ParamKind, ScalarType};
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

/// Writes `source` to a fresh file and reads it through clang.
fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("tex", name, source)
}

/// Runs `k` on one block of `threads` threads; returns the buffers after the run and the
/// findings' texts.
fn run_block(k: &Kernel, threads: u32, args: Vec<Arg>) -> (Vec<Arg>, Vec<String>) {
    let out = run(
        k,
        &LaunchConfig::linear(1, threads),
        args,
        &RunOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", k.name));
    let findings = out.findings.iter().map(|f| format!("{f:?}")).collect();
    (out.args, findings)
}

fn f32s(a: &Arg) -> Vec<f32> {
    match a {
        Arg::Buffer(b) => b.to_f32(),
        other => panic!("not a buffer: {other:?}"),
    }
}

/// The verdict of `p` for `k` at its header's launch.
fn verdict(k: &Kernel, p: Property) -> Verdict {
    let cfg = Config {
        block: DimSpec::Fixed(k.contract.block_dim.expect("block")),
        grid: DimSpec::Fixed(k.contract.grid_dim.unwrap_or([1, 1, 1])),
        properties: vec![p],
        timeout: std::time::Duration::from_secs(60),
        ..Config::default()
    };
    let report = verify(k, &cfg);
    report.result(p).expect("checked").verdict.clone()
}

const FETCH: &str = r#"//--blockDim=64 --gridDim=1
#include <cuda_runtime.h>
//@ len(tex) = 48
//@ len(out) = 64
texture<float, 1, cudaReadModeElementType> lut;

__global__ void fetch_object(cudaTextureObject_t tex, float* out)
{
    int i = threadIdx.x;
    out[i] = tex1Dfetch<float>(tex, i - 8);
}

__global__ void fetch_reference(float* out)
{
    int i = threadIdx.x;
    float v;
    out[i] = tex1Dfetch(lut, 2 * i) + 0.5f;
}
"#;

#[test]
fn tex1dfetch_reads_in_range_and_zero_outside() {
    let c = clang("fetch.cu", FETCH);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let texels: Vec<f32> = (0..48).map(|i| 1.0 + i as f32 * 0.25).collect();

    let k = kernel(&c, "fetch_object");
    let (args, findings) = run_block(
        k,
        64,
        vec![
            Arg::Buffer(Buffer::from_f32(&texels)),
            Arg::Buffer(Buffer::from_f32(&[0.0; 64])),
        ],
    );
    assert!(findings.is_empty(), "{findings:?}");
    let want: Vec<f32> = (0..64i32)
        .map(|i| {
            let x = i - 8;
            if (0..48).contains(&x) {
                texels[x as usize]
            } else {
                0.0
            }
        })
        .collect();
    assert_eq!(f32s(&args[1]), want);

    // The legacy reference is an extra read-only buffer parameter named after it, whose
    // length is the launch's (no header length here).
    let k = kernel(&c, "fetch_reference");
    let lut = k.param_named("lut").expect("the reference is a parameter");
    assert_eq!(k.params.len(), 2);
    let lut_at = lut.0 as usize;
    let short: Vec<f32> = (0..40).map(|i| i as f32 * 3.0).collect();
    let mut args = vec![Arg::Buffer(Buffer::from_f32(&[0.0; 64]))];
    args.insert(lut_at, Arg::Buffer(Buffer::from_f32(&short)));
    let (args, findings) = run_block(k, 64, args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(&args[1 - lut_at]);
    for (i, got) in out.iter().enumerate() {
        let want = short.get(2 * i).copied().unwrap_or(0.0) + 0.5;
        assert_eq!(*got, want, "out[{i}]");
    }

    for name in ["fetch_object", "fetch_reference"] {
        let k = kernel(&c, name);
        for p in [Property::Race, Property::Bounds] {
            let v = verdict(k, p);
            if z3_missing(&v) {
                return;
            }
            assert!(matches!(v, Verdict::Verified), "{name} {p:?}: {v:?}");
        }
    }
}

const SAMPLE: &str = r#"//--blockDim=[12,9] --gridDim=1
#include <cuda_runtime.h>
//@ extent(clamped) = 8, 5
//@ extent(bordered) = 8, 5
//@ address(bordered) = border
//@ extent(wrapped) = 8, 5
//@ address(wrapped) = wrap
//@ normalized(wrapped)
//@ len(out) = 108

__device__ int slot() { return threadIdx.y * 12 + threadIdx.x; }

__global__ void sample_clamp(cudaTextureObject_t clamped, float* out)
{
    float x = threadIdx.x - 2.0f + 0.5f, y = threadIdx.y - 2.0f + 0.5f;
    out[slot()] = tex2D<float>(clamped, x, y);
}

__global__ void sample_border(cudaTextureObject_t bordered, float* out)
{
    float x = threadIdx.x - 2.0f + 0.5f, y = threadIdx.y - 2.0f + 0.5f;
    out[slot()] = tex2D<float>(bordered, x, y);
}

__global__ void sample_wrap(cudaTextureObject_t wrapped, float* out)
{
    float u = (threadIdx.x - 2.0f + 0.5f) / 8.0f, v = (threadIdx.y - 2.0f + 0.5f) / 5.0f;
    float r;
    tex2D(&r, wrapped, u, v);
    out[slot()] = r;
}
"#;

#[derive(Clone, Copy)]
enum Mode {
    Clamp,
    Border,
    Wrap,
}

/// What CUDA's point sampling returns at texel coordinates (tx, ty) (already floored).
fn sampled(img: &[f32], tx: i64, ty: i64, mode: Mode) -> f32 {
    let (w, h) = (8i64, 5i64);
    let (x, y) = match mode {
        Mode::Clamp => (tx.clamp(0, w - 1), ty.clamp(0, h - 1)),
        Mode::Border if !(0..w).contains(&tx) || !(0..h).contains(&ty) => return 0.0,
        Mode::Border => (tx, ty),
        Mode::Wrap => (tx.rem_euclid(w), ty.rem_euclid(h)),
    };
    img[(y * w + x) as usize]
}

#[test]
fn tex2d_samples_points_with_clamp_border_and_wrap() {
    let c = clang("sample.cu", SAMPLE);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let img: Vec<f32> = (0..40).map(|i| 100.0 + i as f32).collect();
    for (name, mode) in [
        ("sample_clamp", Mode::Clamp),
        ("sample_border", Mode::Border),
        ("sample_wrap", Mode::Wrap),
    ] {
        let k = kernel(&c, name);
        let cfg = LaunchConfig {
            grid: [1, 1, 1],
            block: [12, 9, 1],
            dynamic_shared_bytes: 0,
        };
        let args = vec![
            Arg::Buffer(Buffer::from_f32(&img)),
            Arg::Buffer(Buffer::from_f32(&[-1.0; 108])),
        ];
        let out = run(k, &cfg, args, &RunOptions::default()).expect("runs");
        assert!(out.findings.is_empty(), "{name}: {:?}", out.findings);
        let got = f32s(&out.args[1]);
        for ty in 0..9i64 {
            for tx in 0..12i64 {
                let want = sampled(&img, tx - 2, ty - 2, mode);
                assert_eq!(got[(ty * 12 + tx) as usize], want, "{name} at ({tx}, {ty})");
            }
        }
        let v = verdict(k, Property::Bounds);
        if z3_missing(&v) {
            return;
        }
        assert!(matches!(v, Verdict::Verified), "{name} bounds: {v:?}");
    }
}

const SURFACES: &str = r#"//--blockDim=[8,4] --gridDim=1
#include <cuda_runtime.h>
//@ extent(src) = 8, 4
//@ extent(dst) = 4, 8
//@ extent(img) = 8, 4

__global__ void transpose(cudaSurfaceObject_t src, cudaSurfaceObject_t dst)
{
    int x = threadIdx.x, y = threadIdx.y;
    float v = surf2Dread<float>(src, x * 4, y);
    surf2Dwrite(v * 2.0f, dst, y * 4, x);
}

__global__ void misaligned(cudaSurfaceObject_t img)
{
    int x = threadIdx.x, y = threadIdx.y;
    float v;
    surf2Dread(&v, img, x * 4 + 2, y);
    surf2Dwrite(v + 1.0f, img, x * 4, y);
}

__global__ void past_the_row(cudaSurfaceObject_t img)
{
    int x = threadIdx.x, y = threadIdx.y;
    surf2Dwrite(1.0f, img, (x + 1) * 4, y);
}

__global__ void zero_and_clamp(cudaSurfaceObject_t src, cudaSurfaceObject_t dst)
{
    int x = threadIdx.x, y = threadIdx.y;
    float a = surf2Dread<float>(src, (x + 5) * 4, y, cudaBoundaryModeZero);
    float b = surf2Dread<float>(src, (x + 5) * 4, y, cudaBoundaryModeClamp);
    surf2Dwrite(a + b, dst, y * 4, x);
}
"#;

#[test]
fn surfaces_are_read_write_buffers_with_byte_x_coordinates() {
    let c = clang("surfaces.cu", SURFACES);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let src: Vec<f32> = (0..32).map(|i| i as f32 + 0.5).collect();
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block: [8, 4, 1],
        dynamic_shared_bytes: 0,
    };
    let surfaces = |a: &[f32], b: &[f32]| {
        vec![
            Arg::Buffer(Buffer::from_f32(a)),
            Arg::Buffer(Buffer::from_f32(b)),
        ]
    };

    let k = kernel(&c, "transpose");
    let out = run(k, &cfg, surfaces(&src, &[0.0; 32]), &RunOptions::default()).expect("runs");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let dst = f32s(&out.args[1]);
    for y in 0..4 {
        for x in 0..8 {
            assert_eq!(dst[x * 4 + y], src[y * 8 + x] * 2.0, "dst({y}, {x})");
        }
    }

    let k = kernel(&c, "zero_and_clamp");
    let out = run(k, &cfg, surfaces(&src, &[0.0; 32]), &RunOptions::default()).expect("runs");
    assert!(out.findings.is_empty(), "{:?}", out.findings);
    let dst = f32s(&out.args[1]);
    for y in 0..4 {
        for x in 0..8 {
            let zero = if x + 5 < 8 { src[y * 8 + x + 5] } else { 0.0 };
            let clamp = src[y * 8 + (x + 5).min(7)];
            assert_eq!(dst[x * 4 + y], zero + clamp, "dst({y}, {x})");
        }
    }

    // A byte coordinate that is not a multiple of the texel size fails an assertion.
    let k = kernel(&c, "misaligned");
    let out = run(
        k,
        &cfg,
        vec![Arg::Buffer(Buffer::from_f32(&src))],
        &RunOptions::default(),
    )
    .expect("runs");
    assert!(
        out.findings
            .iter()
            .any(|f| format!("{f:?}").to_lowercase().contains("assert")),
        "{:?}",
        out.findings
    );
    // Past the end of a row traps (cudaBoundaryModeTrap): out of bounds, even though the
    // next row's first texel is inside the buffer.
    let k = kernel(&c, "past_the_row");
    let out = run(
        k,
        &cfg,
        vec![Arg::Buffer(Buffer::from_f32(&src))],
        &RunOptions::default(),
    )
    .expect("runs");
    assert!(
        out.findings
            .iter()
            .any(|f| format!("{f:?}").to_lowercase().contains("bounds")),
        "{:?}",
        out.findings
    );

    let checks = [
        ("transpose", Property::Race, true),
        ("transpose", Property::Bounds, true),
        ("transpose", Property::Assert, true),
        ("zero_and_clamp", Property::Bounds, true),
        ("misaligned", Property::Assert, false),
        ("past_the_row", Property::Bounds, false),
    ];
    for (name, p, holds) in checks {
        let v = verdict(kernel(&c, name), p);
        if z3_missing(&v) {
            return;
        }
        if holds {
            assert!(matches!(v, Verdict::Verified), "{name} {p:?}: {v:?}");
        } else {
            assert!(matches!(v, Verdict::Violated(_)), "{name} {p:?}: {v:?}");
        }
    }
}

/// The one rejection of kernel `name`, as text.
fn rejection(c: &Compiled, name: &str) -> String {
    let r = c
        .rejected
        .iter()
        .find(|r| r.kernel == name)
        .unwrap_or_else(|| panic!("`{name}` is not rejected"));
    format!("{:?}", r.errors)
}

#[test]
fn what_we_do_not_model_is_rejected_by_name() {
    let src = r#"//--blockDim=32 --gridDim=1
#include <cuda_runtime.h>
//@ extent(t) = 16, 16
//@ extent(w) = 16, 16
//@ address(w) = wrap
__global__ void volume(cudaTextureObject_t t, float* out)
{
    out[threadIdx.x] = tex3D<float>(t, 0.5f, 0.5f, 0.5f);
}
struct Mixed { float a; int b; };
__global__ void record_texels(cudaTextureObject_t t, float* out)
{
    Mixed v = tex1Dfetch<Mixed>(t, threadIdx.x);
    out[threadIdx.x] = v.a;
}
__global__ void two_types(cudaTextureObject_t t, float* out)
{
    out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x) + tex1Dfetch<int>(t, 0);
}
__global__ void no_extent(cudaTextureObject_t img, float* out)
{
    out[threadIdx.x] = tex2D<float>(img, 0.5f, 0.5f);
}
__global__ void wrap_unnormalized(cudaTextureObject_t w, float* out)
{
    out[threadIdx.x] = tex2D<float>(w, 0.5f, 0.5f);
}
//@ extent(h) = n, m
__device__ float pick(cudaTextureObject_t h, int n, int m) { return tex2D<float>(h, 0.5f, 0.5f); }
__global__ void in_helper(cudaTextureObject_t h, float* out, int n, int m)
{
    out[threadIdx.x] = pick(h, m, n);
}
__global__ void shadowed(cudaTextureObject_t h, float* out, int n, int m)
{
    for (int m = 0; m < 2; ++m) out[threadIdx.x] = tex2D<float>(h, 0.5f, 0.5f);
}
"#;
    let c = clang("rejects.cu", src);
    assert!(rejection(&c, "volume").contains("`tex3D`"));
    let mixed = rejection(&c, "record_texels");
    assert!(mixed.contains("different types"), "{mixed}");
    let two = rejection(&c, "two_types");
    assert!(two.contains("`int`") && two.contains("`float`"), "{two}");
    // A texture object no line sizes has the host's extents, as a reference does: scalar
    // parameters (a fetch never faults); the lines about the rejected kernels' textures
    // concern only them.
    let k = c.module.kernel("no_extent").expect("read");
    assert!(
        k.to_string().contains(
            "no_extent(img: &[f32], out: &mut [f32], img__extent0: u32, img__extent1: u32)"
        ),
        "{k}"
    );
    assert!(rejection(&c, "wrap_unnormalized").contains("normalized(w)"));
    // Extents name the kernel's parameters: a helper's names or a shadowing local are not
    // them.
    assert!(rejection(&c, "in_helper").contains("helper `pick`"));
    assert!(rejection(&c, "shadowed").contains("local variable of `shadowed`"));

    // Linear filtering is a host setting: the file's sampled fetches are rejected, its
    // integer fetches (which never filter) are not.
    let src = r#"//--blockDim=32 --gridDim=1
#include <cuda_runtime.h>
#include <cstring>
//@ extent(t) = 32, 1
__global__ void smooth(cudaTextureObject_t t, float* out)
{
    out[threadIdx.x] = tex2D<float>(t, threadIdx.x + 0.25f, 0.5f);
}
__global__ void exact(cudaTextureObject_t t, float* out)
{
    out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x);
}
void setup(cudaTextureObject_t* t, const cudaResourceDesc* res)
{
    cudaTextureDesc d;
    memset(&d, 0, sizeof(d));
    d.filterMode = cudaFilterModeLinear;
    cudaCreateTextureObject(t, res, &d, nullptr);
}
"#;
    let c = clang("linear.cu", src);
    assert!(rejection(&c, "smooth").contains("cudaFilterModeLinear"));
    assert!(c.module.kernel("exact").is_some(), "{:?}", c.rejected);
}

#[test]
fn texture_parameters_are_read_only_buffers_of_the_fetched_type() {
    let src = r#"//--blockDim=32 --gridDim=1
#include <cuda_runtime.h>
__device__ int load(cudaTextureObject_t t, int i) { return tex1Dfetch<int>(t, i); }
__global__ void via_helper(cudaTextureObject_t codes, cudaSurfaceObject_t s, int* out)
{
    out[threadIdx.x] = load(codes, threadIdx.x);
    surf1Dwrite((unsigned char)1, s, threadIdx.x);
}
"#;
    let c = clang("helper.cu", src);
    let k = kernel(&c, "via_helper");
    let text = k.to_string();
    let codes = k.param_named("codes").expect("codes");
    let s = k.param_named("s").expect("s");
    assert!(
        matches!(
            k.param(codes).kind,
            ParamKind::Buffer {
                elem: ScalarType::I32,
                writable: false
            }
        ),
        "{text}"
    );
    assert!(
        matches!(
            k.param(s).kind,
            ParamKind::Buffer {
                elem: ScalarType::U8,
                writable: true
            }
        ),
        "{text}"
    );
}

/// The arguments of `k` in its parameter order, from `(name, value)` pairs.
fn args_by_name(k: &Kernel, named: Vec<(&str, Arg)>) -> Vec<Arg> {
    let mut slots: Vec<Option<Arg>> = (0..k.params.len()).map(|_| None).collect();
    for (name, a) in named {
        let id = k
            .param_named(name)
            .unwrap_or_else(|| panic!("{}: no parameter `{name}`", k.name));
        slots[id.0 as usize] = Some(a);
    }
    slots
        .into_iter()
        .enumerate()
        .map(|(i, a)| a.unwrap_or_else(|| panic!("{}: parameter {i} not given", k.name)))
        .collect()
}

/// The buffer named `name` after a run.
fn buffer_named<'a>(k: &Kernel, args: &'a [Arg], name: &str) -> &'a Arg {
    &args[k.param_named(name).expect("parameter").0 as usize]
}

const VECTOR: &str = r#"//--blockDim=64 --gridDim=1
#include <cuda_runtime.h>
typedef float2 Complex;
texture<Complex, 1, cudaReadModeElementType> spec_a;
texture<Complex, 1, cudaReadModeElementType> spec_b;
//@ extent(spec_c) = 64
texture<float2, 1, cudaReadModeElementType> spec_c;

__device__ Complex cmul(Complex a, Complex b, float s)
{
    Complex r = {s * (a.x * b.x - a.y * b.y), s * (a.y * b.x + a.x * b.y)};
    return r;
}

__global__ void complex_mul(Complex* out, float scale)
{
    int i = threadIdx.x;
    Complex a = tex1Dfetch(spec_a, i);
    Complex b = tex1Dfetch(spec_b, i);
    out[i] = cmul(a, b, scale);
}

__global__ void complex_mul_racy(Complex* out, float scale)
{
    int i = threadIdx.x;
    Complex a = tex1Dfetch(spec_a, i), b = tex1Dfetch(spec_b, i);
    out[i / 2] = cmul(a, b, scale);
}

__global__ void complex_abs2(float* out)
{
    int i = threadIdx.x;
    float2 c = tex1Dfetch(spec_c, i);
    out[i] = c.x * c.x + c.y * c.y;
}
"#;

#[test]
fn float2_texels_are_fetched_leaf_by_leaf() {
    let c = clang("vector.cu", VECTOR);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let k = kernel(&c, "complex_mul");
    // A float2 texture is a buffer of floats, two per texel.
    let a_id = k.param_named("spec_a").expect("spec_a");
    assert!(matches!(
        k.param(a_id).kind,
        ParamKind::Buffer {
            elem: ScalarType::F32,
            writable: false
        }
    ));
    let a: Vec<f32> = (0..128).map(|i| 0.5 + i as f32 * 0.125).collect();
    // spec_b holds 50 texels: fetches 50..63 read (0, 0).
    let b: Vec<f32> = (0..100).map(|i| 2.0 - i as f32 * 0.0625).collect();
    let scale = 0.75f32;
    let args = args_by_name(
        k,
        vec![
            ("out", Arg::Buffer(Buffer::from_f32(&[0.0; 128]))),
            ("scale", Arg::Scalar(warpsafe_ir::Value::F32(scale))),
            ("spec_a", Arg::Buffer(Buffer::from_f32(&a))),
            ("spec_b", Arg::Buffer(Buffer::from_f32(&b))),
        ],
    );
    let (args, findings) = run_block(k, 64, args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(buffer_named(k, &args, "out"));
    for i in 0..64 {
        let (ax, ay) = (a[2 * i], a[2 * i + 1]);
        let (bx, by) = if i < 50 {
            (b[2 * i], b[2 * i + 1])
        } else {
            (0.0, 0.0)
        };
        let want = [scale * (ax * bx - ay * by), scale * (ay * bx + ax * by)];
        assert_eq!([out[2 * i], out[2 * i + 1]], want, "out[{i}]");
    }

    // The extent counts texels: 64 float2 texels are 128 floats, so a buffer of 64 floats
    // is read out of bounds.
    let k = kernel(&c, "complex_abs2");
    let short: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let args = args_by_name(
        k,
        vec![
            ("out", Arg::Buffer(Buffer::from_f32(&[0.0; 64]))),
            ("spec_c", Arg::Buffer(Buffer::from_f32(&short))),
        ],
    );
    let (_, findings) = run_block(k, 64, args);
    assert!(
        findings.iter().any(|f| f.to_lowercase().contains("bounds")),
        "{findings:?}"
    );
    let full: Vec<f32> = (0..128).map(|i| i as f32 * 0.5).collect();
    let args = args_by_name(
        k,
        vec![
            ("out", Arg::Buffer(Buffer::from_f32(&[0.0; 64]))),
            ("spec_c", Arg::Buffer(Buffer::from_f32(&full))),
        ],
    );
    let (args, findings) = run_block(k, 64, args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(buffer_named(k, &args, "out"));
    for (i, got) in out.iter().enumerate() {
        let (x, y) = (full[2 * i], full[2 * i + 1]);
        assert_eq!(*got, x * x + y * y, "out[{i}]");
    }

    for (name, p, ok) in [
        ("complex_mul", Property::Race, true),
        ("complex_mul", Property::Bounds, true),
        ("complex_abs2", Property::Bounds, true),
        ("complex_mul_racy", Property::Race, false),
    ] {
        let v = verdict(kernel(&c, name), p);
        if z3_missing(&v) {
            return;
        }
        if ok {
            assert!(matches!(v, Verdict::Verified), "{name} {p:?}: {v:?}");
        } else {
            assert!(matches!(v, Verdict::Violated(_)), "{name} {p:?}: {v:?}");
        }
    }
}

const IMAGE: &str = r#"//--blockDim=[12,9] --gridDim=1
#include <cuda_runtime.h>
//@ extent(color) = 8, 5
//@ extent(photo) = 8, 5
//@ len(out) = 108
texture<float4, 2, cudaReadModeElementType> color;
texture<uchar4, 2, cudaReadModeNormalizedFloat> photo;
texture<unsigned char, 2, cudaReadModeNormalizedFloat> gray;
texture<signed char, 1, cudaReadModeNormalizedFloat> offsets;

__global__ void luminance(float* out)
{
    float x = threadIdx.x - 2.0f + 0.5f, y = threadIdx.y - 2.0f + 0.5f;
    float4 c = tex2D(color, x, y);
    out[threadIdx.y * 12 + threadIdx.x] = 0.25f * c.x + 0.5f * c.y + c.z - c.w;
}

__global__ void luminance_racy(float* out)
{
    float x = threadIdx.x + 0.5f, y = threadIdx.y + 0.5f;
    float4 c = tex2D(color, x, y);
    out[threadIdx.x] = c.x + c.y;
}

__global__ void photo_mix(float* out)
{
    float x = threadIdx.x - 2.0f + 0.5f, y = threadIdx.y - 2.0f + 0.5f;
    float4 p = tex2D(photo, x, y);
    out[threadIdx.y * 12 + threadIdx.x] = p.x + 2.0f * p.y + 4.0f * p.z + 8.0f * p.w;
}

__global__ void box3(float* out, int pitch)
{
    float x = threadIdx.x + 0.5f, y = threadIdx.y + 0.5f;
    float l = tex2D(gray, x - 1.0f, y);
    float m = tex2D(gray, x, y);
    float r = tex2D(gray, x + 1.0f, y);
    out[threadIdx.y * pitch + threadIdx.x] = (l + m + r) / 3.0f;
}

__global__ void signed_lut(float* out)
{
    out[threadIdx.y * 12 + threadIdx.x] = tex1Dfetch(offsets, threadIdx.y * 12 + threadIdx.x);
}
"#;

/// The texel index CUDA's clamped point sampling reads at texel coordinate `t` (floored).
fn clamp_axis(t: i64, n: i64) -> usize {
    t.clamp(0, n - 1) as usize
}

/// Runs `k` on one block of 12 × 9 threads; returns the buffers and the findings' texts.
fn run_12x9(k: &Kernel, args: Vec<Arg>) -> (Vec<Arg>, Vec<String>) {
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block: [12, 9, 1],
        dynamic_shared_bytes: 0,
    };
    let out =
        run(k, &cfg, args, &RunOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", k.name));
    let findings = out.findings.iter().map(|f| format!("{f:?}")).collect();
    (out.args, findings)
}

#[test]
fn vector_and_normalized_texels_in_2d_images() {
    let c = clang("image.cu", IMAGE);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let (w, h) = (8i64, 5i64);
    let at = |tx: usize, ty: usize| -> (i64, i64) { (tx as i64 - 2, ty as i64 - 2) };

    let texels: Vec<f32> = (0..w * h * 4)
        .map(|i| (i % 23) as f32 * 0.5 - 3.0)
        .collect();
    let k = kernel(&c, "luminance");
    let args = args_by_name(
        k,
        vec![
            ("out", Arg::Buffer(Buffer::from_f32(&[0.0; 108]))),
            ("color", Arg::Buffer(Buffer::from_f32(&texels))),
        ],
    );
    let (args, findings) = run_12x9(k, args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(buffer_named(k, &args, "out"));
    for ty in 0..9 {
        for tx in 0..12 {
            let (x, y) = at(tx, ty);
            let t = 4 * (clamp_axis(y, h) * w as usize + clamp_axis(x, w));
            let want = 0.25f32 * texels[t] + 0.5f32 * texels[t + 1] + texels[t + 2] - texels[t + 3];
            assert_eq!(out[ty * 12 + tx], want, "luminance ({tx}, {ty})");
        }
    }

    let pixels: Vec<u8> = (0..w * h * 4).map(|i| (i * 37 % 256) as u8).collect();
    let k = kernel(&c, "photo_mix");
    let args = args_by_name(
        k,
        vec![
            ("out", Arg::Buffer(Buffer::from_f32(&[0.0; 108]))),
            ("photo", Arg::Buffer(Buffer::from_u8(&pixels))),
        ],
    );
    let (args, findings) = run_12x9(k, args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(buffer_named(k, &args, "out"));
    for ty in 0..9 {
        for tx in 0..12 {
            let (x, y) = at(tx, ty);
            let t = 4 * (clamp_axis(y, h) * w as usize + clamp_axis(x, w));
            let n = |l: usize| pixels[t + l] as f32 / 255.0;
            let want = n(0) + 2.0 * n(1) + 4.0 * n(2) + 8.0 * n(3);
            assert_eq!(out[ty * 12 + tx], want, "photo_mix ({tx}, {ty})");
        }
    }

    // `gray` has no header extent: the host's width and height are parameters.
    let (gw, gh) = (10usize, 7usize);
    let gray: Vec<u8> = (0..gw * gh).map(|i| (i * 53 % 256) as u8).collect();
    let k = kernel(&c, "box3");
    let args = args_by_name(
        k,
        vec![
            ("out", Arg::Buffer(Buffer::from_f32(&[0.0; 108]))),
            ("pitch", Arg::Scalar(warpsafe_ir::Value::I32(12))),
            ("gray", Arg::Buffer(Buffer::from_u8(&gray))),
            (
                "gray__extent0",
                Arg::Scalar(warpsafe_ir::Value::U32(gw as u32)),
            ),
            (
                "gray__extent1",
                Arg::Scalar(warpsafe_ir::Value::U32(gh as u32)),
            ),
        ],
    );
    let (args, findings) = run_12x9(k, args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(buffer_named(k, &args, "out"));
    for ty in 0..9 {
        for tx in 0..12 {
            let g = |x: i64| {
                let t = clamp_axis(ty as i64, gh as i64) * gw + clamp_axis(x, gw as i64);
                gray[t] as f32 / 255.0
            };
            let x = tx as i64;
            let want = (g(x - 1) + g(x) + g(x + 1)) / 3.0;
            assert_eq!(out[ty * 12 + tx], want, "box3 ({tx}, {ty})");
        }
    }

    // Signed 8-bit texels are divided by 127, with -128 clamped to -1.
    let offs: Vec<i8> = (0..100i32).map(|i| (i * 29 % 256 - 128) as i8).collect();
    let k = kernel(&c, "signed_lut");
    let args = args_by_name(
        k,
        vec![
            ("out", Arg::Buffer(Buffer::from_f32(&[0.0; 108]))),
            ("offsets", Arg::Buffer(Buffer::from_i8(&offs))),
        ],
    );
    let (args, findings) = run_12x9(k, args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(buffer_named(k, &args, "out"));
    assert!(offs.contains(&-128));
    for (i, got) in out.iter().enumerate() {
        let want = offs.get(i).map_or(0.0, |&v| (v as f32 / 127.0).max(-1.0));
        assert_eq!(*got, want, "signed_lut[{i}]");
    }

    for (name, p, ok) in [
        ("luminance", Property::Race, true),
        ("luminance", Property::Bounds, true),
        ("photo_mix", Property::Bounds, true),
        ("signed_lut", Property::Bounds, true),
        ("luminance_racy", Property::Race, false),
    ] {
        let v = verdict(kernel(&c, name), p);
        if z3_missing(&v) {
            return;
        }
        if ok {
            assert!(matches!(v, Verdict::Verified), "{name} {p:?}: {v:?}");
        } else {
            assert!(matches!(v, Verdict::Violated(_)), "{name} {p:?}: {v:?}");
        }
    }
}

#[test]
fn a_texture_object_without_extents_samples_with_the_hosts_extents() {
    let src = r#"//--blockDim=16 --gridDim=1
#include <cuda_runtime.h>
__global__ void blur(cudaTextureObject_t img, float* out)
{
    int x = threadIdx.x;
    out[x] = (tex2D<float>(img, x - 1, 0) + tex2D<float>(img, x + 1, 1)) * 0.5f;
}
"#;
    let c = clang("host_extents.cu", src);
    let k = c.module.kernel("blur").expect("read");
    // A 12 x 2 image: rows clamp at 0 and 11, the second row is row 1.
    let img: Vec<f32> = (0..24).map(|i| i as f32).collect();
    let args = args_by_name(
        k,
        vec![
            ("img", Arg::Buffer(Buffer::from_f32(&img))),
            ("out", Arg::Buffer(Buffer::from_f32(&[0.0; 16]))),
            ("img__extent0", Arg::Scalar(warpsafe_ir::Value::U32(12))),
            ("img__extent1", Arg::Scalar(warpsafe_ir::Value::U32(2))),
        ],
    );
    let (after, findings) = run_block(k, 16, args);
    assert!(findings.is_empty(), "{findings:?}");
    let at = |x: i64, y: i64| img[(y.clamp(0, 1) * 12 + x.clamp(0, 11)) as usize];
    let want: Vec<f32> = (0..16)
        .map(|x| (at(x - 1, 0) + at(x + 1, 1)) * 0.5)
        .collect();
    let out = buffer_named(k, &after, "out");
    assert_eq!(f32s(out), want);
}
