// A cub-style block reduction: a `BlockSum<BLOCK_THREADS>` class template whose `TempStorage`
// struct lives in `__shared__` memory and is handed to the constructor by reference, a
// `__device__ __forceinline__` warpReduceSum built on __shfl_down_sync, per-warp partials in
// shared memory, and warp 0 reducing the partials. The kernel accumulates a grid-stride loop
// and adds each block's total into *out with atomicAdd. Idiom: classes with members and
// constructors in device code, `static constexpr`, `typename` dependent types, shuffles.
// Twin: the barrier between publishing the warp partials and reading them back is gone, so
// thread 1 reads warp_partials[1] while thread 32 (lane 0 of warp 1) may still be writing it.
// verify: race=violated exit=1
//--blockDim=256 --gridDim=4
//@ len(in) = n
//@ len(out) = 1
//@ arg n = 100000
//@ requires n <= 2147483647 - 1024
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warpReduceSum(float val)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        val += __shfl_down_sync(FULL_MASK, val, offset);
    return val;
}

template <int BLOCK_THREADS>
class BlockSum {
  public:
    static constexpr int WARPS = BLOCK_THREADS / 32;
    struct TempStorage {
        float warp_partials[WARPS];
    };

    __device__ __forceinline__ explicit BlockSum(TempStorage& storage) : temp(storage) {}

    // The block's total, valid in thread 0.
    __device__ __forceinline__ float Sum(float val)
    {
        const int lane = threadIdx.x % 32;
        const int warp = threadIdx.x / 32;
        val = warpReduceSum(val);
        if (lane == 0) temp.warp_partials[warp] = val;
        val = (threadIdx.x < WARPS) ? temp.warp_partials[lane] : 0.0f;
        if (warp == 0) val = warpReduceSum(val);
        return val;
    }

  private:
    TempStorage& temp;
};

template <int BLOCK_THREADS>
__global__ void __launch_bounds__(BLOCK_THREADS)
sum_kernel(const float* __restrict__ in, float* __restrict__ out, int n)
{
    using BlockSumT = BlockSum<BLOCK_THREADS>;
    __shared__ typename BlockSumT::TempStorage temp_storage;

    float thread_sum = 0.0f;
    for (int i = blockIdx.x * BLOCK_THREADS + threadIdx.x; i < n; i += BLOCK_THREADS * gridDim.x)
        thread_sum += in[i];

    const float block_sum = BlockSumT(temp_storage).Sum(thread_sum);
    if (threadIdx.x == 0) atomicAdd(out, block_sum);
}

void launch_sum(const float* d_in, float* d_out, int n, cudaStream_t stream)
{
    constexpr int kThreads = 256;
    const int blocks = (n + kThreads - 1) / kThreads < 1024 ? (n + kThreads - 1) / kThreads : 1024;
    cudaMemsetAsync(d_out, 0, sizeof(float), stream);
    sum_kernel<kThreads><<<blocks, kThreads, 0, stream>>>(d_in, d_out, n);
}
