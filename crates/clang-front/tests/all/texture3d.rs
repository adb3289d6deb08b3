//! Volumes, layered textures, cubemaps and mipmapped fetches read through clang: `tex3D` and
//! `surf3Dread`/`surf3Dwrite` index `(z * h + y) * w + x` with the addressing of each axis,
//! a layered texture is a stack of images whose layer index is never clamped (outside the
//! stack is a bounds finding), `texCubemap` picks its face by the Programming Guide's table,
//! and `tex2DLod` is an arbitrary texel that reads no memory. Values come from the
//! interpreter and are compared with the same rules written here in Rust; the verifier
//! proves the correct kernels and refutes their buggy twins.

use crate::common;

use common::{kernel, z3_missing};
use warpsafe_clang_front::Compiled;
use warpsafe_exec::{run, Arg, Buffer, LaunchConfig, Options as RunOptions};
use warpsafe_ir::{Kernel, ParamKind, ScalarType};
use warpsafe_verify::{verify, Config, DimSpec, Property, Verdict};

fn clang(name: &str, source: &str) -> Compiled {
    common::clang_in("tex3d", name, source)
}

/// Runs `k` on one block of `block` threads; the buffers afterwards and the findings' texts.
fn run_block(k: &Kernel, block: [u32; 3], args: Vec<Arg>) -> (Vec<Arg>, Vec<String>) {
    let cfg = LaunchConfig {
        grid: [1, 1, 1],
        block,
        dynamic_shared_bytes: 0,
    };
    let out = run(k, &cfg, args, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let findings = out.findings.iter().map(|f| format!("{f:?}")).collect();
    (out.args, findings)
}

fn f32s(a: &Arg) -> Vec<f32> {
    match a {
        Arg::Buffer(b) => b.to_f32(),
        other => panic!("not a buffer: {other:?}"),
    }
}

fn verdict(k: &Kernel, p: Property) -> Verdict {
    let cfg = Config {
        block: DimSpec::Fixed(k.contract.block_dim.expect("block")),
        grid: DimSpec::Fixed(k.contract.grid_dim.unwrap_or([1, 1, 1])),
        properties: vec![p],
        timeout: std::time::Duration::from_secs(60),
        ..Config::default()
    };
    verify(k, &cfg).result(p).expect("checked").verdict.clone()
}

/// Asserts each `(kernel, property, holds)`: verified when it holds, violated otherwise.
fn expect_verdicts(c: &Compiled, checks: &[(&str, Property, bool)]) {
    for &(name, p, holds) in checks {
        let v = verdict(kernel(c, name), p);
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

fn has_bounds_finding(findings: &[String]) -> bool {
    findings.iter().any(|f| f.to_lowercase().contains("bounds"))
}

const VOLUME: &str = r#"//--blockDim=[6,5,4] --gridDim=1
#include <cuda_runtime.h>
//@ extent(vol) = 4, 3, 2
//@ extent(bvol) = 4, 3, 2
//@ address(bvol) = border
//@ len(out) = 120

__device__ int slot() { return (threadIdx.z * 5 + threadIdx.y) * 6 + threadIdx.x; }

__global__ void volume_clamp(cudaTextureObject_t vol, float* out)
{
    float x = threadIdx.x - 1.0f + 0.5f, y = threadIdx.y - 1.0f + 0.5f;
    float z = threadIdx.z - 1.0f + 0.5f;
    out[slot()] = tex3D<float>(vol, x, y, z);
}

__global__ void volume_border(cudaTextureObject_t bvol, float* out)
{
    float x = threadIdx.x - 1.0f + 0.5f, y = threadIdx.y - 1.0f + 0.5f;
    float z = threadIdx.z - 1.0f + 0.5f;
    float v;
    tex3D(&v, bvol, x, y, z);
    out[slot()] = v;
}

texture<float, 3, cudaReadModeElementType> vref;

__global__ void volume_reference(float* out)
{
    float x = threadIdx.x - 1.0f + 0.5f, y = threadIdx.y - 1.0f + 0.5f;
    float z = threadIdx.z - 1.0f + 0.5f;
    out[slot()] = tex3D(vref, x, y, z);
}

__global__ void volume_racy(cudaTextureObject_t vol, float* out)
{
    out[threadIdx.x] = tex3D<float>(vol, threadIdx.x + 0.5f, 0.5f, threadIdx.z + 0.5f);
}
"#;

/// A 4 × 3 × 2 volume's texel at texel coordinates `(x, y, z)` under clamp or border.
fn voxel(vol: &[f32], (x, y, z): (i64, i64, i64), border: bool) -> f32 {
    let (w, h, d) = (4i64, 3i64, 2i64);
    let outside = !(0..w).contains(&x) || !(0..h).contains(&y) || !(0..d).contains(&z);
    if border && outside {
        return 0.0;
    }
    let (x, y, z) = (x.clamp(0, w - 1), y.clamp(0, h - 1), z.clamp(0, d - 1));
    vol[((z * h + y) * w + x) as usize]
}

#[test]
fn tex3d_reads_volumes_with_clamp_and_border() {
    let c = clang("volume.cu", VOLUME);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let vol: Vec<f32> = (0..24).map(|i| 10.0 + i as f32).collect();
    for (name, border) in [("volume_clamp", false), ("volume_border", true)] {
        let k = kernel(&c, name);
        let args = vec![
            Arg::Buffer(Buffer::from_f32(&vol)),
            Arg::Buffer(Buffer::from_f32(&[-1.0; 120])),
        ];
        let (args, findings) = run_block(k, [6, 5, 4], args);
        assert!(findings.is_empty(), "{name}: {findings:?}");
        let out = f32s(&args[1]);
        for tz in 0..4i64 {
            for ty in 0..5i64 {
                for tx in 0..6i64 {
                    let want = voxel(&vol, (tx - 1, ty - 1, tz - 1), border);
                    let got = out[((tz * 5 + ty) * 6 + tx) as usize];
                    assert_eq!(got, want, "{name} at ({tx}, {ty}, {tz})");
                }
            }
        }
    }
    // A legacy reference no header sizes: the host's extents are parameters.
    let k = kernel(&c, "volume_reference");
    let mut args: Vec<Option<Arg>> = (0..k.params.len()).map(|_| None).collect();
    let mut set = |name: &str, a: Arg| {
        let id = k
            .param_named(name)
            .unwrap_or_else(|| panic!("no `{name}` in {k}"));
        args[id.0 as usize] = Some(a);
    };
    set("out", Arg::Buffer(Buffer::from_f32(&[-1.0; 120])));
    set("vref", Arg::Buffer(Buffer::from_f32(&vol)));
    for (axis, n) in [4u32, 3, 2].into_iter().enumerate() {
        set(
            &format!("vref__extent{axis}"),
            Arg::Scalar(warpsafe_ir::Value::U32(n)),
        );
    }
    let args: Vec<Arg> = args.into_iter().map(|a| a.expect("argument")).collect();
    let out_at = k.param_named("out").expect("out").0 as usize;
    let (args, findings) = run_block(k, [6, 5, 4], args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(&args[out_at]);
    for tz in 0..4i64 {
        for ty in 0..5i64 {
            for tx in 0..6i64 {
                let want = voxel(&vol, (tx - 1, ty - 1, tz - 1), false);
                let got = out[((tz * 5 + ty) * 6 + tx) as usize];
                assert_eq!(got, want, "volume_reference at ({tx}, {ty}, {tz})");
            }
        }
    }
    expect_verdicts(
        &c,
        &[
            ("volume_reference", Property::Bounds, true),
            ("volume_clamp", Property::Bounds, true),
            ("volume_clamp", Property::Race, true),
            ("volume_border", Property::Bounds, true),
            ("volume_racy", Property::Race, false),
        ],
    );
}

const SURFACE3D: &str = r#"//--blockDim=[4,3,2] --gridDim=1
#include <cuda_runtime.h>
//@ extent(src) = 4, 3, 2
//@ extent(dst) = 4, 3, 2

__global__ void copy3d(cudaSurfaceObject_t src, cudaSurfaceObject_t dst)
{
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    float v = surf3Dread<float>(src, x * 4, y, z);
    surf3Dwrite(v + 1.0f, dst, x * 4, y, z);
}

__global__ void past_the_slice(cudaSurfaceObject_t dst)
{
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    surf3Dwrite(1.0f, dst, x * 4, y + 1, z);
}

__global__ void one_slice_each(cudaSurfaceObject_t dst)
{
    int x = threadIdx.x, y = threadIdx.y;
    surf3Dwrite(2.0f, dst, x * 4, y, 0);
}
"#;

#[test]
fn surf3d_reads_and_writes_volumes_with_byte_x() {
    let c = clang("surface3d.cu", SURFACE3D);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let src: Vec<f32> = (0..24).map(|i| i as f32 * 0.5).collect();
    let k = kernel(&c, "copy3d");
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&src)),
        Arg::Buffer(Buffer::from_f32(&[0.0; 24])),
    ];
    let (args, findings) = run_block(k, [4, 3, 2], args);
    assert!(findings.is_empty(), "{findings:?}");
    let dst = f32s(&args[1]);
    for (i, got) in dst.iter().enumerate() {
        assert_eq!(*got, src[i] + 1.0, "dst[{i}]");
    }
    // y past the slice's height traps even where the next slice's texel is in the buffer.
    let k = kernel(&c, "past_the_slice");
    let args = vec![Arg::Buffer(Buffer::from_f32(&[0.0; 24]))];
    let (_, findings) = run_block(k, [4, 3, 2], args);
    assert!(has_bounds_finding(&findings), "{findings:?}");
    expect_verdicts(
        &c,
        &[
            ("copy3d", Property::Bounds, true),
            ("copy3d", Property::Race, true),
            ("past_the_slice", Property::Bounds, false),
            ("one_slice_each", Property::Race, false),
        ],
    );
}

const LAYERED: &str = r#"//--blockDim=[4,3,2] --gridDim=1
#include <cuda_runtime.h>
//@ extent(stack) = 4, 3, 2
//@ extent(out) = 4, 3, 2
//@ len(flat) = 24

__global__ void per_layer(cudaTextureObject_t stack, cudaSurfaceObject_t out)
{
    int x = threadIdx.x, y = threadIdx.y, layer = threadIdx.z;
    float v = tex2DLayered<float>(stack, x - 1.0f + 0.5f, y + 0.5f, layer);
    surf2DLayeredwrite(v * 2.0f, out, x * 4, y, layer);
}

__global__ void layer_too_far(cudaTextureObject_t stack, float* flat)
{
    int x = threadIdx.x, y = threadIdx.y, layer = threadIdx.z;
    flat[(layer * 3 + y) * 4 + x] = tex2DLayered<float>(stack, x + 0.5f, y + 0.5f, layer + 1);
}

__global__ void same_layer(cudaTextureObject_t stack, cudaSurfaceObject_t out)
{
    int x = threadIdx.x, y = threadIdx.y;
    surf2DLayeredwrite(1.0f, out, x * 4, y, 0);
}
"#;

#[test]
fn layered_textures_and_surfaces_index_a_stack_of_images() {
    let c = clang("layered.cu", LAYERED);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let stack: Vec<f32> = (0..24).map(|i| 1.0 + i as f32).collect();
    let k = kernel(&c, "per_layer");
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&stack)),
        Arg::Buffer(Buffer::from_f32(&[0.0; 24])),
    ];
    let (args, findings) = run_block(k, [4, 3, 2], args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(&args[1]);
    for layer in 0..2usize {
        for y in 0..3usize {
            for x in 0..4usize {
                // x - 1 clamps at the left edge of each layer's image.
                let tx = x.saturating_sub(1);
                let want = stack[(layer * 3 + y) * 4 + tx] * 2.0;
                assert_eq!(out[(layer * 3 + y) * 4 + x], want, "({x}, {y}, {layer})");
            }
        }
    }
    // Layer 2 of a two-layer stack is outside it: a bounds finding, not a clamp.
    let k = kernel(&c, "layer_too_far");
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&stack)),
        Arg::Buffer(Buffer::from_f32(&[0.0; 24])),
    ];
    let (_, findings) = run_block(k, [4, 3, 2], args);
    assert!(has_bounds_finding(&findings), "{findings:?}");
    expect_verdicts(
        &c,
        &[
            ("per_layer", Property::Bounds, true),
            ("per_layer", Property::Race, true),
            ("layer_too_far", Property::Bounds, false),
            ("same_layer", Property::Race, false),
        ],
    );
}

const CUBE: &str = r#"//--blockDim=32 --gridDim=1
#include <cuda_runtime.h>
//@ extent(cube) = 4, 4, 6
//@ len(dirs) = 96
//@ len(out) = 32
texture<float, cudaTextureTypeCubemap> sky;

__global__ void look(cudaTextureObject_t cube, const float* dirs, float* out)
{
    int i = threadIdx.x;
    float x = dirs[3 * i], y = dirs[3 * i + 1], z = dirs[3 * i + 2];
    out[i] = texCubemap<float>(cube, x, y, z);
}

__global__ void look_racy(cudaTextureObject_t cube, const float* dirs, float* out)
{
    int i = threadIdx.x;
    out[i / 2] = texCubemap<float>(cube, dirs[3 * i], dirs[3 * i + 1], dirs[3 * i + 2]);
}

__global__ void sky_faces(float* out)
{
    int i = threadIdx.x;
    out[i] = -texCubemap(sky, 1.0f, -0.5f, 0.25f * i);
}
"#;

/// The face and face texel CUDA's cubemap table gives for direction `(x, y, z)` on faces of
/// `w` × `w` texels (ties go to x, then y, as `texture.rs` documents).
fn cube_texel(x: f32, y: f32, z: f32, w: usize) -> usize {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z >= 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    let texel = |c: f32| {
        let f = ((c / ma + 1.0) * 0.5 * w as f32).floor();
        f.clamp(0.0, w as f32 - 1.0) as usize
    };
    (face * w + texel(tc)) * w + texel(sc)
}

#[test]
fn cubemap_faces_follow_the_programming_guides_table() {
    let c = clang("cube.cu", CUBE);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let mut dirs: Vec<[f32; 3]> = vec![
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
        [1.0, 0.6, -0.3],
        [-0.2, 0.9, 0.7],
        [0.3, -0.4, -0.95],
        [-0.8, -0.1, 0.5],
        [0.1, -0.99, 0.45],
        [0.55, 0.2, 0.9],
    ];
    while dirs.len() < 32 {
        let i = dirs.len() as f32;
        dirs.push([(i * 0.37).sin(), (i * 0.71).cos(), (i * 1.3).sin() * 1.2]);
    }
    // The axis directions land on the centre of their face: texel (2, 2) of 4 × 4.
    for (face, d) in dirs[..6].iter().enumerate() {
        assert_eq!(cube_texel(d[0], d[1], d[2], 4), (face * 4 + 2) * 4 + 2);
    }
    let faces: Vec<f32> = (0..96).map(|i| 100.0 + i as f32).collect();
    let flat: Vec<f32> = dirs.iter().flatten().copied().collect();
    let k = kernel(&c, "look");
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&faces)),
        Arg::Buffer(Buffer::from_f32(&flat)),
        Arg::Buffer(Buffer::from_f32(&[0.0; 32])),
    ];
    let (args, findings) = run_block(k, [32, 1, 1], args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(&args[2]);
    for (i, d) in dirs.iter().enumerate() {
        let want = faces[cube_texel(d[0], d[1], d[2], 4)];
        assert_eq!(out[i], want, "direction {d:?}");
    }
    // A legacy cubemap reference: its face width is the host's, a parameter.
    let k = kernel(&c, "sky_faces");
    assert!(k.param_named("sky__extent0").is_some(), "{k}");
    expect_verdicts(
        &c,
        &[
            ("look", Property::Bounds, true),
            ("look", Property::Race, true),
            ("sky_faces", Property::Bounds, true),
            ("look_racy", Property::Race, false),
        ],
    );
}

const MIPMAP: &str = r#"//--blockDim=[8,8] --gridDim=1
#include <cuda_runtime.h>
//@ extent(img) = 8, 8
//@ len(out) = 256

__global__ void lod(cudaTextureObject_t mips, float* out, float level)
{
    int i = threadIdx.y * 8 + threadIdx.x;
    float4 c = tex2DLod<float4>(mips, threadIdx.x / 8.0f, threadIdx.y / 8.0f, level);
    out[4 * i] = c.x;
    out[4 * i + 1] = c.y;
    out[4 * i + 2] = c.z;
    out[4 * i + 3] = c.w;
}

__global__ void lod_racy(cudaTextureObject_t mips, float* out)
{
    out[threadIdx.x] = tex2DLod<float4>(mips, 0.5f, 0.5f, 1.0f).x;
}

__global__ void grad(cudaTextureObject_t g, float* out)
{
    out[threadIdx.y * 8 + threadIdx.x] = tex1DGrad<float>(g, threadIdx.x / 8.0f, 0.1f, 0.1f);
}

__global__ void grad2(cudaTextureObject_t g2, float* out)
{
    float2 dx = make_float2(0.1f, 0.0f), dy = make_float2(0.0f, 0.1f);
    out[threadIdx.y * 8 + threadIdx.x] = tex2DGrad<float>(g2, threadIdx.x / 8.0f, 0.5f, dx, dy);
}

__global__ void average(cudaTextureObject_t img, float* out)
{
    int i = threadIdx.y * 8 + threadIdx.x;
    float4 a = tex2D<float4>(img, threadIdx.x + 0.5f, threadIdx.y + 0.5f);
    float4 b = tex2D<float4>(img, threadIdx.x + 1.5f, threadIdx.y + 0.5f);
    out[4 * i] = (a.x + b.x) * 0.5f;
    out[4 * i + 1] = (a.y + b.y) * 0.5f;
    out[4 * i + 2] = (a.z + b.z) * 0.5f;
    out[4 * i + 3] = (a.w + b.w) * 0.5f;
}
"#;

#[test]
fn mipmapped_fetches_are_arbitrary_and_vector_texels_of_objects_are_leaves() {
    let c = clang("mipmap.cu", MIPMAP);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    // A float4 texture object is a buffer of floats, four per texel.
    let k = kernel(&c, "average");
    let img_id = k.param_named("img").expect("img");
    assert!(matches!(
        k.param(img_id).kind,
        ParamKind::Buffer {
            elem: ScalarType::F32,
            writable: false
        }
    ));
    // The header's extent counts texels: 64 texels are 256 floats.
    assert_eq!(common::len_of(k, "img"), Some(256), "{k}");
    let img: Vec<f32> = (0..256).map(|i| i as f32 * 0.25).collect();
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&img)),
        Arg::Buffer(Buffer::from_f32(&[0.0; 256])),
    ];
    let (args, findings) = run_block(k, [8, 8, 1], args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(&args[1]);
    for y in 0..8usize {
        for x in 0..8usize {
            let a = (y * 8 + x) * 4;
            let b = (y * 8 + (x + 1).min(7)) * 4;
            for l in 0..4 {
                let want = (img[a + l] + img[b + l]) * 0.5;
                assert_eq!(out[(y * 8 + x) * 4 + l], want, "({x}, {y}) leaf {l}");
            }
        }
    }
    // A mip level is not modelled: the fetch reads nothing (an empty buffer is no finding)
    // and its value is arbitrary.
    let k = kernel(&c, "lod");
    let args = vec![
        Arg::Buffer(Buffer::from_f32(&[])),
        Arg::Buffer(Buffer::from_f32(&[0.0; 256])),
        Arg::Scalar(warpsafe_ir::Value::F32(1.0)),
    ];
    let (_, findings) = run_block(k, [8, 8, 1], args);
    assert!(findings.is_empty(), "{findings:?}");
    expect_verdicts(
        &c,
        &[
            ("average", Property::Bounds, true),
            ("lod", Property::Bounds, true),
            ("lod", Property::Race, true),
            ("grad", Property::Race, true),
            ("grad2", Property::Race, true),
            ("lod_racy", Property::Race, false),
        ],
    );
}

const SURFACE_REFS: &str = r#"//--blockDim=[4,3,2] --gridDim=1
#include <cuda_runtime.h>
surface<void, 3> volOut;
surface<void, cudaSurfaceType2D> plane;
//@ extent(plane) = 4, 3

__global__ void fill(float s)
{
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    surf3Dwrite(s * (x + 10 * y + 100 * z), volOut, x * 4, y, z);
}

__global__ void fill_racy(float s)
{
    surf3Dwrite(s, volOut, 0, threadIdx.y, threadIdx.z);
}

__global__ void bump()
{
    if (threadIdx.z == 0) {
        float v = surf2Dread<float>(plane, threadIdx.x * 4, threadIdx.y);
        surf2Dwrite(v + 1.0f, plane, threadIdx.x * 4, threadIdx.y);
    }
}

__global__ void bump_past()
{
    if (threadIdx.z == 0) {
        surf2Dwrite(1.0f, plane, (threadIdx.x + 1) * 4, threadIdx.y);
    }
}
"#;

#[test]
fn surface_references_are_read_write_buffers_of_their_accesses_texels() {
    let c = clang("surface_refs.cu", SURFACE_REFS);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let k = kernel(&c, "fill");
    let vol = k
        .param_named("volOut")
        .expect("the reference is a parameter");
    assert!(
        matches!(
            k.param(vol).kind,
            ParamKind::Buffer {
                elem: ScalarType::F32,
                writable: true
            }
        ),
        "{k}"
    );
    // The host binds a 4 × 3 × 2 array: width and height are parameters, the depth is what
    // the buffer holds of them.
    let mut args: Vec<Option<Arg>> = (0..k.params.len()).map(|_| None).collect();
    let mut set = |name: &str, a: Arg| {
        let id = k
            .param_named(name)
            .unwrap_or_else(|| panic!("no `{name}` in {k}"));
        args[id.0 as usize] = Some(a);
    };
    set("s", Arg::Scalar(warpsafe_ir::Value::F32(0.5)));
    set("volOut", Arg::Buffer(Buffer::from_f32(&[0.0; 24])));
    set("volOut__extent0", Arg::Scalar(warpsafe_ir::Value::U32(4)));
    set("volOut__extent1", Arg::Scalar(warpsafe_ir::Value::U32(3)));
    assert!(k.param_named("volOut__extent2").is_none(), "{k}");
    let args: Vec<Arg> = args.into_iter().map(|a| a.expect("argument")).collect();
    let (args, findings) = run_block(k, [4, 3, 2], args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(&args[vol.0 as usize]);
    for z in 0..2usize {
        for y in 0..3usize {
            for x in 0..4usize {
                let want = 0.5 * (x + 10 * y + 100 * z) as f32;
                assert_eq!(out[(z * 3 + y) * 4 + x], want, "({x}, {y}, {z})");
            }
        }
    }
    // Without `//@ extent(volOut)` the binding is any array: one smaller than the launch
    // traps, which the verifier finds (and its symbolic extents make the index nonlinear,
    // hard for the solver); with the plane's extents the accesses are proved.
    expect_verdicts(
        &c,
        &[
            ("fill", Property::Bounds, false),
            ("fill_racy", Property::Race, false),
            ("bump", Property::Race, true),
            ("bump", Property::Bounds, true),
            ("bump_past", Property::Bounds, false),
        ],
    );
}

const HELPER_REFS: &str = r#"//--blockDim=[8,4] --gridDim=1
#include <cuda_runtime.h>
//@ extent(img) = 8, 4
//@ len(out) = 32
texture<float, 2, cudaReadModeElementType> img;
texture<float, 2, cudaReadModeElementType> other;

template <class T, class R>
__device__ R pair(const texture<T, 2, cudaReadModeElementType> t, float x, float y)
{
    return tex2D(t, x, y) + tex2D(t, x + 1.0f, y);
}

__device__ float twice(const texture<float, 2, cudaReadModeElementType> &t, float x, float y)
{
    return 2.0f * pair<float, float>(t, x, y);
}

__global__ void via_helpers(float* out)
{
    int i = threadIdx.y * 8 + threadIdx.x;
    out[i] = twice(img, threadIdx.x + 0.5f, threadIdx.y + 0.5f);
}

__device__ float first(const texture<float, 2, cudaReadModeElementType> t)
{
    return tex2D(t, 0.5f, 0.5f);
}

__global__ void two_references(float* out)
{
    out[threadIdx.x] = first(img) + first(other);
}
"#;

#[test]
fn texture_references_passed_to_helpers_are_the_callers_reference() {
    let c = clang("helper_refs.cu", HELPER_REFS);
    let k = kernel(&c, "via_helpers");
    let img: Vec<f32> = (0..32).map(|i| i as f32 * 1.5).collect();
    let mut args: Vec<Option<Arg>> = (0..k.params.len()).map(|_| None).collect();
    let img_at = k.param_named("img").expect("img").0 as usize;
    let out_at = k.param_named("out").expect("out").0 as usize;
    args[img_at] = Some(Arg::Buffer(Buffer::from_f32(&img)));
    args[out_at] = Some(Arg::Buffer(Buffer::from_f32(&[0.0; 32])));
    let args: Vec<Arg> = args.into_iter().map(|a| a.expect("argument")).collect();
    let (args, findings) = run_block(k, [8, 4, 1], args);
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(&args[out_at]);
    for y in 0..4usize {
        for x in 0..8usize {
            let want = 2.0 * (img[y * 8 + x] + img[y * 8 + (x + 1).min(7)]);
            assert_eq!(out[y * 8 + x], want, "({x}, {y})");
        }
    }
    let r = c
        .rejected
        .iter()
        .find(|r| r.kernel == "two_references")
        .map(|r| format!("{:?}", r.errors))
        .unwrap_or_default();
    assert!(r.contains("different references"), "{r}");
    expect_verdicts(&c, &[("via_helpers", Property::Bounds, true)]);
}

const VECTOR_SURFACES: &str = r#"//--blockDim=[4,2] --gridDim=1
#include <cuda_runtime.h>
//@ extent(rgba) = 4, 2
//@ extent(pix) = 4, 2

__global__ void paint(cudaSurfaceObject_t rgba)
{
    int x = threadIdx.x, y = threadIdx.y;
    surf2Dwrite(make_float4(x, y, x + y, 1.0f), rgba, x * sizeof(float4), y);
}

__global__ void swizzle(cudaSurfaceObject_t pix)
{
    int x = threadIdx.x, y = threadIdx.y;
    uchar4 p = surf2Dread<uchar4>(pix, x * 4, y);
    surf2Dwrite(make_uchar4(p.w, p.z, p.y, p.x), pix, x * 4, y);
}

__global__ void paint_misaligned(cudaSurfaceObject_t rgba)
{
    surf2Dwrite(make_float4(1.0f, 2.0f, 3.0f, 4.0f), rgba, threadIdx.x * 4, threadIdx.y);
}

__global__ void paint_racy(cudaSurfaceObject_t rgba)
{
    surf2Dwrite(make_float4(1.0f, 2.0f, 3.0f, 4.0f), rgba, 0, threadIdx.y);
}
"#;

#[test]
fn surfaces_of_vector_texels_store_and_load_every_leaf() {
    let c = clang("vector_surfaces.cu", VECTOR_SURFACES);
    assert!(c.rejected.is_empty(), "{:?}", c.rejected);
    let k = kernel(&c, "paint");
    assert_eq!(common::len_of(k, "rgba"), Some(32), "{k}");
    let (args, findings) = run_block(
        k,
        [4, 2, 1],
        vec![Arg::Buffer(Buffer::from_f32(&[0.0; 32]))],
    );
    assert!(findings.is_empty(), "{findings:?}");
    let out = f32s(&args[0]);
    for y in 0..2usize {
        for x in 0..4usize {
            let t = (y * 4 + x) * 4;
            let want = [x as f32, y as f32, (x + y) as f32, 1.0];
            assert_eq!(out[t..t + 4], want, "({x}, {y})");
        }
    }
    let pixels: Vec<u8> = (0..32).map(|i| (i * 7) as u8).collect();
    let k = kernel(&c, "swizzle");
    let (args, findings) = run_block(k, [4, 2, 1], vec![Arg::Buffer(Buffer::from_u8(&pixels))]);
    assert!(findings.is_empty(), "{findings:?}");
    let Arg::Buffer(out) = &args[0] else {
        panic!("not a buffer")
    };
    for t in 0..8usize {
        for l in 0..4usize {
            let got = out.get(t * 4 + l);
            assert_eq!(
                got,
                warpsafe_ir::Value::U8(pixels[t * 4 + 3 - l]),
                "texel {t} leaf {l}"
            );
        }
    }
    expect_verdicts(
        &c,
        &[
            ("paint", Property::Race, true),
            ("paint", Property::Bounds, true),
            ("swizzle", Property::Race, true),
            ("paint_misaligned", Property::Assert, false),
            ("paint_racy", Property::Race, false),
        ],
    );
}
