// Warp-vote stream compaction, both passes' warp-level parts: `__ballot_sync(0xffffffff, pred)`
// gives each warp a bit mask of matching lanes, `__popc(mask)` the warp's match count, and
// `__popc(mask & lanes_below)` a matching lane's rank. count_matches totals the matches through
// a shared per-block counter (shared atomics, barriers around it) and one global atomic per
// block; compact_in_warp packs each warp's matches to the front of the warp's own 32-slot
// segment. Idiom: warp votes with a full mask, bit tricks, `warpSize`, shared-memory counters.
// Twin: the warps' lane 0 threads add into the shared block counter with a plain `+=`
// instead of atomicAdd; lane 0 of warp 0 and lane 0 of warp 1 race on block_count.
// compact_in_warp is unchanged.
// verify: exit=1
// verify[count_matches]: race=violated
// verify[compact_in_warp]: race=verified divergence=verified bounds=verified
//--blockDim=256 --gridDim=4
//@ arg n = 1000
//@ len(keys) = n
//@ len(total) = 1
//@ len(out_idx) = n
//@ len(warp_counts) = (n + 31) / 32
//@ requires n >= 0 && n <= 1048576
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__global__ void count_matches(const int* __restrict__ keys, int key, unsigned* __restrict__ total, int n)
{
    __shared__ unsigned block_count;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % warpSize;
    if (threadIdx.x == 0) block_count = 0;
    __syncthreads();

    const bool match = i < n && keys[i] == key;
    const unsigned votes = __ballot_sync(FULL_MASK, match);
    if (lane == 0) block_count += __popc(votes);
    __syncthreads();

    if (threadIdx.x == 0) atomicAdd(total, block_count);
}

__global__ void compact_in_warp(const int* __restrict__ keys, int key, int* __restrict__ out_idx,
                                unsigned* __restrict__ warp_counts, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32;
    const int warp = i / 32;
    const bool match = i < n && keys[i] == key;
    const unsigned votes = __ballot_sync(FULL_MASK, match);
    const unsigned lanes_below = (1u << lane) - 1u;
    if (match) out_idx[warp * 32 + __popc(votes & lanes_below)] = i;
    if (lane == 0 && i < n) warp_counts[warp] = __popc(votes);
}
