// grid_exchange.cu with a block barrier where the grid barrier belongs: block.sync() orders
// the threads of one block only, so the read of x[i + 1] at a block edge still races with
// the next block's store.
// verify: race=violated divergence=verified exit=1
//--blockDim=64 --gridDim=4
//@ len(x) = n
//@ len(y) = n
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void exchange(float *x, float *y, int n) {
    cg::grid_group g = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    int i = g.thread_rank();
    if (i < n) x[i] = i;
    block.sync();
    if (i < n) y[i] = x[(i + 1) % n];
}
