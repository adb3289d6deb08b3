// Cross-block exchange through a grid barrier: every thread stores x[i], the whole grid waits
// at grid.sync(), then each thread reads its right neighbour x[(i + 1) % n], which at a block
// edge (and at the wrap-around) another block wrote. Race-free only because a grid barrier
// orders the store before the read in every pair of blocks; a verifier that took it for a
// block barrier would see a cross-block race, one that ignored it would miss nothing here but
// everything in the twins.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=64 --gridDim=4
//@ len(x) = n
//@ len(y) = n
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void exchange(float *x, float *y, int n) {
    cg::grid_group g = cg::this_grid();
    int i = g.thread_rank();
    if (i < n) x[i] = i;
    g.sync();
    if (i < n) y[i] = x[(i + 1) % n];
}
