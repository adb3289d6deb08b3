// Twin of asm_warp_reduce.cu: the leader test is `setp.lo.u32 p, %1, 2` (lane < 2) instead of
// `setp.eq.u32 p, %1, 0`, so lanes 0 and 1 of every warp both store the warp's total into the
// same `warp_sums` slot (a write-write race).
// verify: race=violated exit=1
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

__device__ __forceinline__ unsigned is_leader(unsigned x)
{
    unsigned r;
    asm("{\n\t"
        ".reg .pred p;\n\t"
        "setp.lo.u32 p, %1, 2;\n\t"
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
    if (is_leader(lane_id()))
        warp_sums[gid / 32] = v;
}
