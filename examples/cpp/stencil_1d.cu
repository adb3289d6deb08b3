// 1-D stencil with a shared-memory halo: out[i] is the sum of in[i - RADIUS .. i + RADIUS]
// for every i at least RADIUS away from both ends. The sizes come from a header found through
// `-I examples/cpp/include`, and RADIUS can be changed with `-D RADIUS=4`.
//--blockDim=256 --gridDim=8
//@ arg n = 2000
//@ len(in) = n
//@ len(out) = n
//@ requires n <= blockDim.x * gridDim.x

#include <cuda_runtime.h>
#include "stencil_config.h"

__global__ void stencil_1d(const float *__restrict__ in, float *__restrict__ out, int n)
{
    __shared__ float tile[BLOCK_SIZE + 2 * RADIUS];
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    const int l = threadIdx.x + RADIUS;

    tile[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        tile[l - RADIUS] = (g >= RADIUS && g - RADIUS < n) ? in[g - RADIUS] : 0.0f;
        tile[l + BLOCK_SIZE] = (g + BLOCK_SIZE < n) ? in[g + BLOCK_SIZE] : 0.0f;
    }
    __syncthreads();

    if (g >= RADIUS && g < n - RADIUS) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -RADIUS; j <= RADIUS; ++j)
            sum += tile[l + j];
        out[g] = sum;
    }
}
