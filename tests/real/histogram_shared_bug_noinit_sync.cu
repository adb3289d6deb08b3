// 256-bin byte histogram with per-block privatisation: the block zeroes a shared histogram,
// counts its grid-stride share of the bytes with shared-memory atomics
// (`atomicAdd(&smem_hist[data[i]], 1u)`), then merges the bins into the global histogram with
// global atomics. Idiom: `const unsigned char*` input used as an index, `size_t` grid-stride
// loop, a block-stride loop over the bins, shared and global atomics.
// Twin: no barrier after zeroing the shared histogram; thread 0 zeroes smem_hist[0] while
// another thread whose byte is 0 is already counting into it.
// verify: race=violated exit=1
//--blockDim=256 --gridDim=4
//@ len(data) = n
//@ len(hist) = 256
//@ arg n = 1000000
//@ requires n <= 1099511627776
#include <cuda_runtime.h>

#define NUM_BINS 256

__global__ void histogram256(const unsigned char* __restrict__ data, unsigned int* __restrict__ hist,
                             size_t n)
{
    __shared__ unsigned int smem_hist[NUM_BINS];
    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x)
        smem_hist[b] = 0;

    const size_t stride = (size_t)blockDim.x * gridDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&smem_hist[data[i]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
        const unsigned int count = smem_hist[b];
        if (count) atomicAdd(&hist[b], count);
    }
}

void histogram(const unsigned char* d_data, size_t n, unsigned int* d_hist, int sm_count)
{
    cudaMemset(d_hist, 0, NUM_BINS * sizeof(unsigned int));
    histogram256<<<4 * sm_count, 256>>>(d_data, d_hist, n);
}
