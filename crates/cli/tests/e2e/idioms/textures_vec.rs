//! Textures of vector texels and normalized-float reads the way the CUDA samples use them,
//! read through clang: `float2` spectra fetched with `tex1Dfetch` and multiplied as complex
//! numbers, a `float4` image sampled with `tex2D`, an `unsigned char` image read as
//! normalized floats into a `uchar4` output. Each correct kernel has a buggy twin (a race on
//! the output, a write past it); verdicts are stated in the corpus format (`corpus/mod.rs`)
//! and checked by `warpsafe verify --frontend clang`. A fetch outside a texture's extent is
//! defined by CUDA (0, or the clamped edge texel), so it is no finding.

use super::common::*;

const COMPLEX: &str = r#"//--blockDim=128 --gridDim=4
// verify: race=verified bounds=verified exit=0
#include <cuda_runtime.h>
//@ len(out) = n
typedef float2 fComplex;
texture<fComplex, 1, cudaReadModeElementType> texA;
texture<fComplex, 1, cudaReadModeElementType> texB;

__device__ inline void mulAndScale(fComplex &a, const fComplex &b, float c)
{
    fComplex t = {c * (a.x * b.x - a.y * b.y), c * (a.y * b.x + a.x * b.y)};
    a = t;
}

__global__ void modulate(fComplex *out, int n, float scale)
{
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i >= n) return;
    fComplex a = tex1Dfetch(texA, i);
    fComplex b = tex1Dfetch(texB, i);
    mulAndScale(a, b, scale);
    out[i] = a;
}
"#;

const IMAGE: &str = r#"//--blockDim=[16,8] --gridDim=[4,4]
// verify: race=verified bounds=verified exit=0
#include <cuda_runtime.h>
//@ extent(img) = 64, 32
//@ len(out) = 2048
texture<float4, 2, cudaReadModeElementType> img;

__global__ void grey(float *out, float dx, float dy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float u = x + dx, v = y + dy;
    if (x < 64 && y < 32) {
        float4 c = tex2D(img, u, v);
        out[y * 64 + x] = 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
    }
}
"#;

const RENDER: &str = r#"//--blockDim=[16,16] --gridDim=[4,4]
// verify: race=verified bounds=verified exit=0
#include <cuda_runtime.h>
//@ len(d_output) = width * height
typedef unsigned char uchar;
typedef unsigned int uint;
texture<uchar, 2, cudaReadModeNormalizedFloat> tex;

__global__ void render(uchar4 *d_output, uint width, uint height, float scale)
{
    uint x = blockIdx.x * blockDim.x + threadIdx.x;
    uint y = blockIdx.y * blockDim.y + threadIdx.y;
    uint i = y * width + x;
    float u = x * scale, v = y * scale;
    if (x < width && y < height) {
        float c = tex2D(tex, u, v);
        d_output[i] = make_uchar4(c * 0xff, c * 0xff, c * 0xff, 0);
    }
}
"#;

const NORMALIZED_VEC: &str = r#"//--blockDim=64 --gridDim=2
// verify: race=verified bounds=verified exit=0
#include <cuda_runtime.h>
//@ len(alpha) = n
texture<uchar4, 1, cudaReadModeNormalizedFloat> rgba;

__global__ void alpha_of(float *alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 p = tex1Dfetch(rgba, i);
        alpha[i] = p.w * (p.x + p.y + p.z) / 3.0f;
    }
}
"#;

#[test]
fn vector_and_normalized_texture_idioms_get_their_expected_verdicts() {
    let racy = |good: &str, from: &str, to: &str| {
        twin(good, from, to).replace(
            "race=verified bounds=verified exit=0",
            "race=violated exit=1",
        )
    };
    let past = |good: &str, from: &str, to: &str| {
        twin(good, from, to).replace("bounds=verified exit=0", "bounds=violated exit=1")
    };
    let kernels = [
        ("complex.cu", COMPLEX.to_string()),
        (
            "complex_bug_race.cu",
            racy(COMPLEX, "out[i] = a;", "out[i / 2] = a;"),
        ),
        ("image.cu", IMAGE.to_string()),
        (
            "image_bug_past_end.cu",
            past(IMAGE, "out[y * 64 + x] =", "out[y * 64 + x + 1] ="),
        ),
        ("render.cu", RENDER.to_string()),
        (
            "render_bug_race.cu",
            racy(RENDER, "uint i = y * width + x;", "uint i = x;"),
        ),
        ("normalized_vec.cu", NORMALIZED_VEC.to_string()),
        (
            "normalized_vec_bug_race.cu",
            racy(NORMALIZED_VEC, "alpha[i] =", "alpha[i / 2] ="),
        ),
    ];
    let refs: Vec<(&str, &str)> = kernels.iter().map(|(n, s)| (*n, s.as_str())).collect();
    check_all("textures_vec", &refs);
}
