// grid_exchange.cu with the grid barrier under a block-dependent condition: block 0 skips it
// while the other blocks wait for every thread of the grid. The condition is uniform within a
// block (fine for __syncthreads()) but not across the grid: barrier divergence, the launch
// deadlocks.
// verify: divergence=violated exit=1
//--blockDim=64 --gridDim=4
//@ len(x) = n
//@ len(y) = n
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void exchange(float *x, float *y, int n) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    if (i < n) x[i] = i;
    if (g.block_rank() != 0) g.sync();
    if (i < n) y[i] = x[(i + 1) % n];
}
