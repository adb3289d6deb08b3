// grid_exchange.cu without the grid barrier: a thread at a block edge reads x[i + 1] while the
// next block may not have stored it yet (a write-read race between blocks).
// verify: race=violated exit=1
//--blockDim=64 --gridDim=4
//@ len(x) = n
//@ len(y) = n
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void exchange(float *x, float *y, int n) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    if (i < n) x[i] = i;
    if (i < n) y[i] = x[(i + 1) % n];
}
