// Templated shared-memory block reduction: `template <unsigned BLOCK>`, each thread first adds
// two elements (the "first add during load" trick), then a tree in shared memory halves the
// active threads with a barrier per level; the loop bound is a template constant, so every
// thread runs the same barriers. Idiom: a kernel template instantiated explicitly
// (`template __global__ void reduce<256>(...)`), `__restrict__`, `#pragma unroll`.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=256 --gridDim=4
//@ len(in) = n
//@ len(out) = gridDim.x
//@ arg n = 2048
//@ requires blockDim.x == 256
#include <cuda_runtime.h>

template <unsigned BLOCK>
__global__ void reduce(const float* __restrict__ in, float* out, unsigned n)
{
    static_assert((BLOCK & (BLOCK - 1)) == 0, "BLOCK must be a power of two");
    __shared__ float sdata[BLOCK];

    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * (BLOCK * 2) + tid;

    float sum = 0.0f;
    if (i < n) sum = in[i];
    if (i + BLOCK < n) sum += in[i + BLOCK];
    sdata[tid] = sum;
    __syncthreads();

#pragma unroll
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        __syncthreads();
    }

    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// The library exports the block sizes it was tuned for.
template __global__ void reduce<256>(const float* __restrict__ in, float* out, unsigned n);
