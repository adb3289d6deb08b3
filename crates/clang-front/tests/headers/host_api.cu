// Host-side runtime and driver API around launches: device properties,
// streams, async copies, pinned and managed memory, cooperative launch,
// and cuLaunchKernel through the driver API.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>
#include <math_constants.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__managed__ int managedCounter;
__device__ float d_scale = 2.0f;

__global__ void __launch_bounds__(256) scaleKernel(float *data, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    data[i] = data[i] * d_scale + CUDART_PI_F;
  }
  if (threadIdx.x == 0) atomicAdd(&managedCounter, 1);
}

__global__ void gridSyncKernel(int *flags) {
  cg::grid_group grid = cg::this_grid();
  flags[grid.thread_rank()] = 1;
  grid.sync();
  __threadfence();
  if (grid.thread_rank() == 0) flags[0] = (int)grid.size();
}

static void checkDevice() {
  int count = 0;
  cudaGetDeviceCount(&count);
  for (int dev = 0; dev < count; ++dev) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, dev);
    std::printf("%s: sm_%d%d, %d SMs, warp %d, %zu bytes shared/block\n", prop.name, prop.major,
                prop.minor, prop.multiProcessorCount, prop.warpSize, prop.sharedMemPerBlock);
  }
  cudaSetDevice(0);
}

int main() {
  checkDevice();
  const int n = 1 << 20, nStreams = 4, chunk = n / nStreams;
  float *h_data, *d_data;
  cudaMallocHost((void **)&h_data, n * sizeof(float));
  cudaMalloc(&d_data, n * sizeof(float));
  cudaStream_t streams[nStreams];
  for (int s = 0; s < nStreams; ++s) cudaStreamCreateWithFlags(&streams[s], cudaStreamNonBlocking);
  for (int s = 0; s < nStreams; ++s) {
    int off = s * chunk;
    cudaMemcpyAsync(d_data + off, h_data + off, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[s]);
    scaleKernel<<<chunk / 256, 256, 0, streams[s]>>>(d_data + off, chunk);
    cudaMemcpyAsync(h_data + off, d_data + off, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[s]);
  }
  for (int s = 0; s < nStreams; ++s) {
    cudaStreamSynchronize(streams[s]);
    cudaStreamDestroy(streams[s]);
  }

  int *flags;
  cudaMallocManaged(&flags, 1024 * sizeof(int));
  void *args[] = {&flags};
  cudaLaunchCooperativeKernel((void *)gridSyncKernel, dim3(4), dim3(256), args, 0, 0);
  cudaDeviceSynchronize();
  std::printf("managed counter %d, flag %d\n", managedCounter, flags[0]);

  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  cuInit(0);
  cuDeviceGet(&dev, 0);
  cuCtxCreate(&ctx, 0, dev);
  if (cuModuleLoad(&mod, "kernel.ptx") == CUDA_SUCCESS) {
    cuModuleGetFunction(&fn, mod, "scaleKernel");
    CUdeviceptr dptr;
    cuMemAlloc(&dptr, n * sizeof(float));
    int nn = n;
    void *params[] = {&dptr, &nn};
    cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, 0, params, 0);
    cuCtxSynchronize();
    cuMemFree(dptr);
  }
  cuCtxDestroy(ctx);
  cudaFreeHost(h_data);
  cudaFree(d_data);
  cudaFree(flags);
  return 0;
}
