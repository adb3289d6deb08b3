// A block reduction generic over its combining operation: `block_reduce<BLOCK>(v, smem, op)`
// takes a functor by value (`struct Sum`, `struct Max` with a `const` `operator()`), applies
// it in a shared-memory tree and returns the block's result in thread 0. One kernel sums,
// the other takes the maximum of absolute values, both from a grid-stride loop that folds
// with the same functor. Idiom: function objects passed to a template, `operator()` called
// on a parameter, `static` member functions giving the identity, `__forceinline__`.
// verify: race=verified divergence=verified bounds=verified
//--blockDim=256 --gridDim=4
//@ len(in) = n
//@ len(out) = 4
//@ arg n = 5000
//@ requires n <= 1048576
#include <cuda_runtime.h>

struct Sum {
    __device__ static float identity() { return 0.0f; }
    __device__ __forceinline__ float operator()(float a, float b) const { return a + b; }
};

struct AbsMax {
    __device__ static float identity() { return 0.0f; }
    __device__ __forceinline__ float operator()(float a, float b) const
    {
        return fmaxf(fabsf(a), fabsf(b));
    }
};

template <int BLOCK, typename Op>
__device__ __forceinline__ float block_reduce(float v, float* smem, Op op)
{
    smem[threadIdx.x] = v;
    __syncthreads();
#pragma unroll
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            smem[threadIdx.x] = op(smem[threadIdx.x], smem[threadIdx.x + s]);
        __syncthreads();
    }
    return smem[0];
}

template <int BLOCK, typename Op>
__global__ void reduce_kernel(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float smem[BLOCK];
    Op op;
    float acc = Op::identity();
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x)
        acc = op(acc, in[i]);
    const float total = block_reduce<BLOCK>(acc, smem, op);
    if (threadIdx.x == 0)
        out[blockIdx.x] = total;
}

template __global__ void reduce_kernel<256, Sum>(const float*, float*, int);
template __global__ void reduce_kernel<256, AbsMax>(const float*, float*, int);
