// Templated block reduction with cooperative groups: each warp-sized tile
// reduces with cg::reduce, tile leaders meet in shared memory, and the block
// leader adds the block's sum atomically.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <typename T, unsigned int BLOCK_SIZE>
__global__ void blockReduce(const T *__restrict__ in, T *__restrict__ out, size_t n) {
  __shared__ T partial[BLOCK_SIZE / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);

  T sum = T(0);
  for (size_t i = block.group_index().x * BLOCK_SIZE + block.thread_rank(); i < n;
       i += BLOCK_SIZE * gridDim.x) {
    sum += in[i];
  }
  sum = cg::reduce(tile, sum, cg::plus<T>());
  if (tile.thread_rank() == 0) {
    partial[tile.meta_group_rank()] = sum;
  }
  block.sync();

  if (tile.meta_group_rank() == 0) {
    T v = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : T(0);
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) {
      v += tile.shfl_down(v, offset);
    }
    if (tile.thread_rank() == 0) {
      atomicAdd(out, v);
    }
  }
  cg::sync(block);
}

__global__ void maxPerTile(const int *in, int *out) {
  auto block = cg::this_thread_block();
  auto tile16 = cg::tiled_partition<16>(block);
  int m = cg::reduce(tile16, in[block.thread_rank()], cg::greater<int>());
  cg::thread_group g = cg::tiled_partition(block, 8);
  g.sync();
  if (tile16.thread_rank() == 0) out[block.thread_rank() / 16] = m;
  cg::coalesced_group active = cg::coalesced_threads();
  if (active.thread_rank() == 0 && tile16.any(m > 0)) out[0] = active.size();
}

void launch(const float *d_in, float *d_out, size_t n, cudaStream_t stream) {
  const unsigned int threads = 256;
  unsigned int blocks = (unsigned int)((n + threads - 1) / threads);
  blockReduce<float, threads><<<blocks, threads, 0, stream>>>(d_in, d_out, n);
  blockReduce<double, 128><<<dim3(blocks), dim3(128)>>>(nullptr, nullptr, n);
}
