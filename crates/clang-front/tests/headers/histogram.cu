// 256-bin histogram of bytes: per-block privatized bins in shared memory,
// merged into the global histogram with atomics.
#include <stdint.h>
#include <cuda_runtime.h>

#define NUM_BINS 256

__global__ void histogram256(const unsigned char *data, size_t n, unsigned int *bins) {
  __shared__ unsigned int local[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();

  size_t stride = (size_t)blockDim.x * gridDim.x;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
    atomicAdd(&local[data[i]], 1u);
  }
  __syncthreads();

  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
    unsigned int count = local[b];
    if (count) atomicAdd(&bins[b], count);
  }
}

__global__ void histogramWords(const uint32_t *words, int n, unsigned long long *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t w = words[i];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    unsigned char byte = (w >> (8 * k)) & 0xff;
    atomicAdd(&bins[byte], 1ull);
  }
  atomicMax((unsigned int *)&bins[0], w);
  atomicInc((unsigned int *)&bins[1], 1000u);
  atomicCAS((int *)&bins[2], 0, 1);
  atomicAdd_block((int *)&bins[3], 1);
}

int main() {
  unsigned char *d_data;
  unsigned int *d_bins;
  size_t n = 1 << 20;
  cudaMalloc(&d_data, n);
  cudaMalloc(&d_bins, NUM_BINS * sizeof(unsigned int));
  cudaMemset(d_bins, 0, NUM_BINS * sizeof(unsigned int));
  histogram256<<<64, 256>>>(d_data, n, d_bins);
  cudaDeviceSynchronize();
  cudaFree(d_data);
  cudaFree(d_bins);
  return 0;
}
