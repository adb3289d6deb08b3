// Warp-level sum of counts in inline PTX, as hand-tuned reductions write it: the lane comes from
// `mov.u32 %0, %%laneid;`, the butterfly exchange is `shfl.sync.bfly.b32` with the full mask
// and the clamp operand 0x1f, and the lane-0 test is a scoped predicate in braces
// (`{ .reg .pred p; setp.eq.u32 p, %1, 0; selp.u32 %0, 1, 0, p; }`). Each warp writes its
// total to `warp_sums[warp]`. Idiom: inline asm for special registers and shuffles.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=128 --gridDim=4
//@ len(in) = 512
//@ len(warp_sums) = 16
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_id()
{
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__device__ __forceinline__ unsigned shfl_xor(unsigned v, int mask)
{
    unsigned r;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(mask));
    return r;
}

__device__ __forceinline__ unsigned is_zero(unsigned x)
{
    unsigned r;
    asm("{\n\t"
        ".reg .pred p;\n\t"
        "setp.eq.u32 p, %1, 0;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t"
        "}"
        : "=r"(r)
        : "r"(x));
    return r;
}

__global__ void warp_sums_asm(const unsigned* __restrict__ in, unsigned* __restrict__ warp_sums)
{
    const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[gid];
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        v += shfl_xor(v, offset);
    if (is_zero(lane_id()))
        warp_sums[gid / 32] = v;
}

int main()
{
    unsigned *in, *sums;
    cudaMalloc(&in, 512 * sizeof(unsigned));
    cudaMalloc(&sums, 16 * sizeof(unsigned));
    warp_sums_asm<<<4, 128>>>(in, sums);
    cudaDeviceSynchronize();
    return 0;
}
