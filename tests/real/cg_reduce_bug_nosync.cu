// Block sum with cooperative groups: `namespace cg = cooperative_groups;`, the block handle from
// cg::this_thread_block(), 32-thread tiles from cg::tiled_partition<32>(block), a tile-level
// reduction with tile.shfl_down, per-tile partials in shared memory, block.sync(), and the first
// tile reducing the partials. Idiom: cooperative-groups objects passed by value to a
// __device__ helper, `auto`, member calls (thread_rank, meta_group_rank, group_index).
// Twin: block.sync() is gone; lane 1 of tile 0 reads partial[1] while lane 0 of tile 1 may
// still be writing it.
// verify: race=violated exit=1
//--blockDim=256 --gridDim=4
//@ len(in) = n
//@ len(out) = gridDim.x
//@ arg n = 65536
//@ requires n <= 2147483647 - 1024
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

constexpr int kBlockSize = 256;

__device__ float tile_sum(cg::thread_block_tile<32> tile, float v)
{
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    return v;  // the full sum is in lane 0
}

__global__ void block_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float partial[kBlockSize / 32];
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);

    float v = 0.0f;
    const int stride = block.size() * gridDim.x;
    for (int i = block.group_index().x * block.size() + block.thread_rank(); i < n; i += stride)
        v += in[i];

    v = tile_sum(tile, v);
    if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = v;

    if (tile.meta_group_rank() == 0) {
        v = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0.0f;
        v = tile_sum(tile, v);
        if (tile.thread_rank() == 0) out[block.group_index().x] = v;
    }
}

void block_sum_launch(const float* d_in, float* d_partials, int n, int blocks)
{
    block_sum<<<blocks, kBlockSize>>>(d_in, d_partials, n);
}
