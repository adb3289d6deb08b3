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
    let bug = racy(
        TEMPLATE_STEPS,
        "        }\n        __syncthreads();\n    }\n}",
        "        }\n    }\n}",
    );
    check("template_steps_bug", &bug);
}

/// Bitonic sort in shared memory as the CUDA samples write it: the inner loop's trip count
/// grows with the outer iteration, so iterations of the outer loop execute different
/// numbers of barriers.
const BITONIC: &str = r#"//--blockDim=256 --gridDim=4
// verify: race=verified divergence=verified bounds=verified exit=0
//@ len(values) = 1024
#define N 256
__global__ void bitonic_sort(int *values) {
    __shared__ int s[N];
    unsigned tid = threadIdx.x;
    s[tid] = values[blockIdx.x * N + tid];
    __syncthreads();
    for (unsigned k = 2; k <= N; k *= 2) {
        for (unsigned j = k / 2; j > 0; j /= 2) {
            unsigned ixj = tid ^ j;
            if (ixj > tid) {
                int a = s[tid], b = s[ixj];
                bool up = (tid & k) == 0;
                if ((a > b) == up) { s[tid] = b; s[ixj] = a; }
            }
            __syncthreads();
        }
    }
    values[blockIdx.x * N + tid] = s[tid];
}
"#;

fn racy(good: &str, from: &str, to: &str) -> String {
    twin(good, from, to)
        .replace("race=verified", "race=violated")
        .replace("exit=0", "exit=1")
}

#[test]
fn nested_loops_whose_inner_trip_count_changes_verify() {
    check("bitonic", BITONIC);
    // The barrier after the inner loop only: the steps of one merge race.
    let late = racy(
        BITONIC,
        "            __syncthreads();\n        }\n    }",
        "        }\n        __syncthreads();\n    }",
    );
    check("bitonic_late_barrier", &late);
}

/// Iterations of the outer loop execute 1, 2, 4, … barriers; what a thread reads after the
/// inner loop of one iteration and what its neighbour writes before the inner loop of the
/// next share a barrier interval.
const BOUNDARY: &str = r#"//--blockDim=64 --gridDim=1
// verify: race=violated exit=1
// verify-args: --property race
//@ len(out) = 64
__global__ void boundary(int *out) {
    __shared__ int s[64];
    __shared__ int t[64];
    unsigned tid = threadIdx.x;
    int acc = 0;
    for (unsigned k = 1; k <= 32; k *= 2) {
        s[tid] = k;
        for (unsigned j = 0; j < k; j++) {
            __syncthreads();
            t[tid] = s[(tid + j) % 64];
            __syncthreads();
        }
        acc += s[(tid + 1) % 64];
    }
    out[tid] = acc + t[tid];
}
"#;

#[test]
fn the_interval_after_an_inner_loop_runs_into_the_next_iteration() {
    check("boundary", BOUNDARY);
    // A barrier between the read and the next iteration's write: no race.
    let fixed = BOUNDARY
        .replace(
            "acc += s[(tid + 1) % 64];",
            "acc += s[(tid + 1) % 64];\n        __syncthreads();",
        )
        .replace("race=violated exit=1", "race=verified exit=0");
    check("boundary_fixed", &fixed);
}

/// Binomial options' inner loop: no update clause, two half-steps per iteration, each after
/// a barrier and each counting `k` down once.
const HALF_STEPS: &str = r#"//--blockDim=128 --gridDim=64
// verify: race=verified divergence=verified exit=0
// verify-args: --property race --property divergence
//@ len(in) = 64 * 128
//@ len(out) = 64
#define CACHE 128
#define DELTA 8
__global__ void half_steps(float *out, const float *in) {
    __shared__ float a[CACHE + 1];
    __shared__ float b[CACHE + 1];
    int tid = threadIdx.x;
    a[tid] = in[blockIdx.x * CACHE + tid];
    if (tid == 0) a[CACHE] = 0.0f;
    for (int k = CACHE - 1; k >= CACHE - DELTA;) {
        __syncthreads();
        if (tid < k) b[tid] = 0.5f * (a[tid] + a[tid + 1]);
        k--;
        __syncthreads();
        if (tid < k) a[tid] = 0.5f * (b[tid] + b[tid + 1]);
        k--;
    }
    __syncthreads();
    if (tid == 0) out[blockIdx.x] = a[0];
}
"#;

#[test]
fn a_counter_stepped_twice_per_iteration_keeps_its_barriers_uniform() {
    check("half_steps", HALF_STEPS);
    // Without the barrier between the half-steps, a thread reads its neighbour's `b` while
    // the neighbour writes it.
    let racy = racy(
        HALF_STEPS,
        "        k--;\n        __syncthreads();\n",
        "        k--;\n",
    );
    check("half_steps_racy", &racy);
}
