//! Vector arithmetic the way the CUDA samples write it with `helper_math.h` (`normalize(a -
//! b) * s`, `make_float3(uv, 1.0f)`, `clamp(c, 0.0f, 1.0f) * 255.0f`) and the way GPUVerify's
//! benchmarks write it with no include at all (its preamble gives `float4 * float`,
//! `(*acc) += r * s`, a `float4` chosen by `?:`). Each correct kernel has buggy twins (a
//! race, a write past the end); verdicts are stated in the corpus format (`corpus/mod.rs`)
//! and checked by `warpsafe verify --frontend clang`.

use super::common::*;

const RENDER: &str = r#"//--blockDim=[16,8] --gridDim=[4,4]
// verify: race=verified bounds=verified exit=0
#include "helper_math.h"
//@ len(out) = 2048
__device__ float3 shade(float3 n, float3 l)
{
    return make_float3(0.1f) + fmaxf(dot(n, l), 0.0f) * make_float3(1.0f, 0.9f, 0.8f);
}

__global__ void render(uchar4 *out, float3 light)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float2 uv = make_float2(x, y) / make_float2(64.0f, 32.0f) * 2.0f - make_float2(1.0f);
    float3 n = normalize(make_float3(uv, 1.0f));
    float3 c = clamp(shade(n, normalize(light)), 0.0f, 1.0f) * 255.0f;
    out[y * 64 + x] = make_uchar4(c.x, c.y, c.z, 255);
}
"#;

const NBODY: &str = r#"//pass
//--blockDim=64 --gridDim=4
// verify: race=verified bounds=verified exit=0
//@ len(p) = 256
//@ len(v) = 256
__device__ static void pull(float4 *acc, float4 me, float4 other)
{
    float4 r = other - me;
    float s = rsqrtf(r.x * r.x + r.y * r.y + r.z * r.z + 0.01f);
    (*acc) += r * s;
}

__global__ void step(float4 *p, float4 *v, float dt)
{
    __shared__ float4 tile[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = p[i];
    float4 acc = make_float4(0.0f);
    tile[threadIdx.x] = threadIdx.x % 2 ? p[i] : p[(i + 64) % 256];
    __syncthreads();
    pull(&acc, me, tile[(threadIdx.x + 1) % 64]);
    pull(&acc, me, tile[(threadIdx.x + 2) % 64]);
    v[i] += acc * dt;
}
"#;

fn violated(text: &str, property: &str) -> String {
    text.replace(
        &format!("{property}=verified"),
        &format!("{property}=violated"),
    )
    .replace("exit=0", "exit=1")
}

#[test]
fn helper_math_kernels_and_gpuverify_vector_kernels_get_their_expected_verdicts() {
    let render_race = violated(
        &twin(RENDER, "out[y * 64 + x] =", "out[y * 64 + x / 2 * 2] ="),
        "race",
    );
    let render_bounds = violated(
        &twin(RENDER, "len(out) = 2048", "len(out) = 2047"),
        "bounds",
    );
    let nbody_race = violated(&twin(NBODY, "    __syncthreads();\n", ""), "race");
    let nbody_bounds = violated(&twin(NBODY, "p[(i + 64) % 256]", "p[i + 64]"), "bounds");
    check_all(
        "vector_math",
        &[
            ("render.cu", RENDER),
            ("render_bug_race.cu", &render_race),
            ("render_bug_bounds.cu", &render_bounds),
            ("nbody.cu", NBODY),
            ("nbody_bug_race.cu", &nbody_race),
            ("nbody_bug_bounds.cu", &nbody_bounds),
        ],
    );
}
