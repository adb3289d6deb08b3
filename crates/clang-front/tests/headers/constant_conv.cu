// 2D convolution with the filter in constant memory (copied with
// cudaMemcpyToSymbol) and a shared-memory input tile with a halo.
#include <stdio.h>
#include <cuda_runtime.h>

#define FILTER_RADIUS 2
#define FILTER_SIZE (2 * FILTER_RADIUS + 1)
#define TILE 16

__constant__ float c_filter[FILTER_SIZE * FILTER_SIZE];
__constant__ int c_dims[2];

__global__ void convolution2D(const float *__restrict__ in, float *__restrict__ out, int width,
                              int height) {
  __shared__ float tile[TILE + 2 * FILTER_RADIUS][TILE + 2 * FILTER_RADIUS];
  int col = blockIdx.x * TILE + threadIdx.x;
  int row = blockIdx.y * TILE + threadIdx.y;

  for (int dy = threadIdx.y; dy < TILE + 2 * FILTER_RADIUS; dy += TILE) {
    for (int dx = threadIdx.x; dx < TILE + 2 * FILTER_RADIUS; dx += TILE) {
      int r = min(max((int)(blockIdx.y * TILE) + dy - FILTER_RADIUS, 0), height - 1);
      int c = min(max((int)(blockIdx.x * TILE) + dx - FILTER_RADIUS, 0), width - 1);
      tile[dy][dx] = in[r * width + c];
    }
  }
  __syncthreads();

  if (col < width && row < height) {
    float sum = 0.0f;
#pragma unroll
    for (int fy = 0; fy < FILTER_SIZE; ++fy)
#pragma unroll
      for (int fx = 0; fx < FILTER_SIZE; ++fx)
        sum += c_filter[fy * FILTER_SIZE + fx] * tile[threadIdx.y + fy][threadIdx.x + fx];
    out[row * width + col] = fminf(fmaxf(sum, 0.0f), 1.0f) + c_dims[0] * 0;
  }
}

int main() {
  float h_filter[FILTER_SIZE * FILTER_SIZE];
  for (int i = 0; i < FILTER_SIZE * FILTER_SIZE; ++i) h_filter[i] = 1.0f / 25.0f;
  cudaMemcpyToSymbol(c_filter, h_filter, sizeof(h_filter));
  int dims[2] = {1024, 768};
  cudaMemcpyToSymbol(c_dims, dims, sizeof(dims), 0, cudaMemcpyHostToDevice);
  float readback[FILTER_SIZE * FILTER_SIZE];
  cudaMemcpyFromSymbol(readback, c_filter, sizeof(readback));

  float *d_in, *d_out;
  cudaMalloc(&d_in, 1024 * 768 * sizeof(float));
  cudaMalloc(&d_out, 1024 * 768 * sizeof(float));
  dim3 block(TILE, TILE);
  dim3 grid((1024 + TILE - 1) / TILE, (768 + TILE - 1) / TILE);
  convolution2D<<<grid, block>>>(d_in, d_out, 1024, 768);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) printf("error: %s\n", cudaGetErrorString(err));
  return 0;
}
