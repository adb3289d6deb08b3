// Grid-stride SAXPY over 64-bit sizes: `size_t` index and stride (so more than 2^31 elements
// work), the read-only input fetched with `__ldg`, y updated in place, and a host launcher that
// sizes the grid from the SM count rather than from n. Idiom: 64-bit loop-carried index,
// `(size_t)blockDim.x * gridDim.x`, read-only cache loads, a kernel with no barriers.
// Twin: the stride is `blockDim.x` instead of the whole grid, so the blocks' ranges overlap:
// thread 0 of block 1 updates y[256] in its first iteration and thread 0 of block 0 in its
// second, an unsynchronised read-modify-write on the same element (y gets a * x added twice).
// verify: race=violated exit=1
//--blockDim=256 --gridDim=4
//@ arg n = 100000
//@ len(x) = n
//@ len(y) = n
//@ requires n <= 1099511627776
#include <cuda_runtime.h>

__global__ void saxpy_grid_stride(size_t n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const size_t stride = blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * __ldg(&x[i]) + y[i];
}

void saxpy(size_t n, float a, const float* d_x, float* d_y, int num_sms)
{
    const int threads = 256;
    const int blocks = 32 * num_sms;
    saxpy_grid_stride<<<blocks, threads>>>(n, a, d_x, d_y);
}
