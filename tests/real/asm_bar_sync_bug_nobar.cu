// Twin of asm_bar_sync.cu without the `bar.sync 0;`: a thread reads its mirror element of the
// tile while the thread that stores it may not have yet (race).
// verify: race=violated exit=1
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
    out[base + t] = tile[TILE - 1 - t];
}
