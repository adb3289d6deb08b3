// Block-wide reversal through shared memory with the barrier written as inline PTX: each
// thread reads its index with `mov.u32 %0, %%tid.x;`, stores one element to the tile, waits
// at `asm volatile("bar.sync 0;" ::: "memory")` and reads its mirror element. Idiom: inline
// asm barriers and special registers in hand-scheduled kernels.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=128 --gridDim=4
//@ len(in) = 512
//@ len(out) = 512
#include <cuda_runtime.h>

#define TILE 128

__global__ void reverse_tiles_asm(const int* __restrict__ in, int* __restrict__ out)
{
    __shared__ int tile[TILE];
    unsigned t;
    asm("mov.u32 %0, %%tid.x;" : "=r"(t));
    const unsigned base = blockIdx.x * TILE;
    tile[t] = in[base + t];
    asm volatile("bar.sync 0;" ::: "memory");
    out[base + t] = tile[TILE - 1 - t];
}
