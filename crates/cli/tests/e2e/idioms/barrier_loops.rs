//! Loops with barriers the way real kernels write them: a template's `if (blockSize >= 512)`
//! around a barrier (constant once instantiated), and nested loops whose inner trip count
//! changes with the outer iteration (bitonic sort, binomial options). Each beside its twin.

use super::common::*;

/// A grid-stride loop over rows, each reduced by a cub-style unrolled step whose barriers sit
/// under conditions on the template's block size.
const TEMPLATE_STEPS: &str = r#"//--blockDim=256 --gridDim=4
// verify: race=verified divergence=verified exit=0
//@ len(in) = 1024 * 256
//@ len(out) = 1024
template <unsigned blockSize>
__device__ void fold(volatile float *s, unsigned tid) {
    if (blockSize >= 512) { if (tid < 256) s[tid] += s[tid + 256]; __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) s[tid] += s[tid + 128]; __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) s[tid] += s[tid + 64]; __syncthreads(); }
}

__global__ void row_sums(const float *in, float *out) {
    __shared__ float s[256];
    for (int r = blockIdx.x; r < 1024; r += gridDim.x) {
        s[threadIdx.x] = in[r * 256 + threadIdx.x];
        __syncthreads();
        fold<256>(s, threadIdx.x);
        if (threadIdx.x == 0) {
            float t = 0.0f;
            for (int i = 0; i < 64; i++) t += s[i];
            out[r] = t;
        }
        __syncthreads();
    }
}
"#;

#[test]
fn barriers_under_constant_conditions_count_in_every_iteration() {
    check("template_steps", TEMPLATE_STEPS);
    // Without the last barrier, thread 0 still sums row r while the others load row r + 4.
    let bug = TEMPLATE_STEPS
        .replace(
            "        }\n        __syncthreads();\n    }\n}",
            "        }\n    }\n}",
        )
        .replace("race=verified", "race=violated")
        .replace("exit=0", "exit=1");
    assert_ne!(bug, TEMPLATE_STEPS);
    check("template_steps_bug", &bug);
}
