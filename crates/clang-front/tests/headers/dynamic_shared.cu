// Dynamic shared memory: `extern __shared__`, the CUDA-samples SharedMemory<T>
// idiom for templates, and launches that pass the byte count.
#include <cstdio>
#include <cuda_runtime.h>

template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <class T> __global__ void reduce0(const T *g_idata, T *g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

__global__ void scanNaive(float *out, const float *in, int n) {
  extern __shared__ float temp[];
  int thid = threadIdx.x;
  int pout = 0, pin = 1;
  temp[pout * n + thid] = (thid > 0) ? in[thid - 1] : 0;
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (thid >= offset)
      temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
    else
      temp[pout * n + thid] = temp[pin * n + thid];
    __syncthreads();
  }
  out[thid] = temp[pout * n + thid];
}

int main() {
  int n = 1 << 16;
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  int minGrid = 0, blockSize = 0;
  cudaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, reduce0<float>, 0, 0);
  cudaFuncSetAttribute(scanNaive, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  size_t smem = threads * sizeof(float);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  reduce0<float><<<blocks, threads, smem, stream>>>(d_in, d_out, n);
  scanNaive<<<1, 512, 2 * 512 * sizeof(float)>>>(d_out, d_in, 512);
  void *args[] = {&d_out, &d_in, &n};
  cudaLaunchKernel((const void *)scanNaive, dim3(1), dim3(512), args, 2 * 512 * sizeof(float), stream);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  std::printf("block size %d\n", blockSize);
  return 0;
}
