// Single-kernel two-phase sum with a grid-wide barrier (a cooperative launch): every block
// folds its grid-stride share into a shared-memory tree and publishes one partial, the whole
// grid waits at grid.sync(), then block 0 folds the partials into the result. No second launch
// and no atomics. Idiom: `cg::grid_group` from cg::this_grid(), grid.thread_rank() /
// grid.size() (64-bit) driving a grid-stride loop, grid.block_rank() / grid.num_blocks(), a
// thread block handle for the tree, a block-uniform branch with block barriers inside after
// the grid barrier, and host code that checks cooperative support and sizes the grid from the
// occupancy API before cudaLaunchCooperativeKernel.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=128 --gridDim=8
//@ arg n = 5000
//@ len(in) = n
//@ len(partials) = gridDim.x
//@ len(out) = 1
//@ requires n <= 1099511627776
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

constexpr unsigned kThreads = 128;

// Tree sum of sdata[0..kThreads) into sdata[0]; every thread of the block calls it.
__device__ void block_tree(cg::thread_block block, float* sdata)
{
    const unsigned t = block.thread_rank();
    for (unsigned s = kThreads / 2; s > 0; s >>= 1) {
        if (t < s) sdata[t] += sdata[t + s];
        block.sync();
    }
}

__global__ void __launch_bounds__(kThreads)
sum_cooperative(const float* __restrict__ in, float* partials, float* out, size_t n)
{
    __shared__ float sdata[kThreads];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();

    // Phase 1: grid-stride accumulation, then one partial per block.
    float acc = 0.0f;
    for (size_t i = grid.thread_rank(); i < n; i += grid.size())
        acc += in[i];
    sdata[block.thread_rank()] = acc;
    block.sync();
    block_tree(block, sdata);
    if (block.thread_rank() == 0) partials[grid.block_rank()] = sdata[0];

    grid.sync();

    // Phase 2: block 0 folds the partials of every block.
    if (grid.block_rank() == 0) {
        float v = 0.0f;
        for (unsigned b = block.thread_rank(); b < grid.num_blocks(); b += kThreads)
            v += partials[b];
        sdata[block.thread_rank()] = v;
        block.sync();
        block_tree(block, sdata);
        if (block.thread_rank() == 0) *out = sdata[0];
    }
}

#define CHECK(call)                                                                  \
    do {                                                                             \
        cudaError_t err_ = (call);                                                   \
        if (err_ != cudaSuccess) {                                                   \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

int main()
{
    const size_t n = 1 << 20;
    int device = 0, cooperative = 0, sms = 0, per_sm = 0;
    CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    if (!cooperative) {
        fprintf(stderr, "cooperative launches are not supported\n");
        return 1;
    }
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sum_cooperative, kThreads, 0));
    const int blocks = sms * per_sm;

    float *d_in, *d_partials, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_partials, blocks * sizeof(float)));
    CHECK(cudaMalloc(&d_out, sizeof(float)));
    CHECK(cudaMemset(d_in, 0, n * sizeof(float)));

    size_t count = n;
    void* args[] = {&d_in, &d_partials, &d_out, &count};
    CHECK(cudaLaunchCooperativeKernel((void*)sum_cooperative, dim3(blocks), dim3(kThreads), args, 0, 0));
    CHECK(cudaDeviceSynchronize());

    float result = 0.0f;
    CHECK(cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost));
    printf("sum = %f\n", result);
    cudaFree(d_in);
    cudaFree(d_partials);
    cudaFree(d_out);
    return 0;
}
