// 1-D convolution with the filter in constant memory (`__constant__ float filter[FILTER_WIDTH]`,
// filled by cudaMemcpyToSymbol on the host) and the input tile plus a FILTER_RADIUS halo on each
// side staged in shared memory. The first FILTER_RADIUS threads of a block also load the left
// and right halo cells, with zero padding outside the signal. Idiom: constant memory, ternary
// guarded loads, `#define`d sizes, a shared tile sized by a macro expression.
// verify: race=verified divergence=verified bounds=verified exit=0
//--blockDim=256 --gridDim=4
//@ len(in) = n
//@ len(out) = n
//@ arg n = 1000
//@ requires blockDim.x == 256
#include <cuda_runtime.h>

#define BLOCK_SIZE 256
#define FILTER_RADIUS 4
#define FILTER_WIDTH (2 * FILTER_RADIUS + 1)

__constant__ float filter[FILTER_WIDTH];

__global__ void conv1d(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float tile[BLOCK_SIZE + 2 * FILTER_RADIUS];
    const int gid = blockIdx.x * blockDim.x + threadIdx.x;

    tile[threadIdx.x + FILTER_RADIUS] = gid < n ? in[gid] : 0.0f;
    if (threadIdx.x < FILTER_RADIUS) {
        const int left = gid - FILTER_RADIUS;
        tile[threadIdx.x] = left >= 0 && left < n ? in[left] : 0.0f;
        const int right = gid + BLOCK_SIZE;
        tile[threadIdx.x + BLOCK_SIZE + FILTER_RADIUS] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();

    if (gid < n) {
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < FILTER_WIDTH; ++k)
            sum += filter[k] * tile[threadIdx.x + k];
        out[gid] = sum;
    }
}

void conv1d_host(const float* h_filter, const float* d_in, float* d_out, int n)
{
    cudaMemcpyToSymbol(filter, h_filter, FILTER_WIDTH * sizeof(float));
    conv1d<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(d_in, d_out, n);
}
