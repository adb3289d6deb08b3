// BUG (planted): the leader adds its group's count with a plain `+=` instead of atomicAdd:
// leaders of two warps holding the same bin update it at once (race).
// A warp-aggregated histogram: the lanes of a warp that hold the same bin find each other
// with `__match_any_sync`, and the lowest of them (the leader, `__ffs(peers) - 1`) adds the
// group's size (`__popc(peers)`) to the global bin with one atomicAdd. Values past the
// histogram's range all go to one overflow bin; `__reduce_add_sync` counts the warp's
// in-range values, which lane 0 adds to a total. Idiom: warp match and reduce functions
// (sm_70/sm_80), lane arithmetic, a launch that covers the data exactly (every lane of
// every warp is active).
// verify: race=violated exit=1
//--blockDim=128 --gridDim=8
//@ len(data) = 1024
//@ len(hist) = 65
//@ len(in_range) = 1
#include <cuda_runtime.h>

#define NBINS 64
#define LIMIT 4096u
#define FULL 0xffffffffu

__global__ void histogram_match(const unsigned int* __restrict__ data, unsigned int* hist,
                                unsigned int* in_range)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int lane = threadIdx.x % warpSize;
    const unsigned int v = data[i];
    const bool valid = v < LIMIT;
    const unsigned int bin = valid ? v % NBINS : NBINS;
    const unsigned int peers = __match_any_sync(FULL, bin);
    const unsigned int leader = __ffs(peers) - 1;
    if (lane == leader)
        hist[bin] += __popc(peers);
    const unsigned int warp_valid = __reduce_add_sync(FULL, valid ? 1u : 0u);
    if (lane == 0)
        atomicAdd(in_range, warp_valid);
}
