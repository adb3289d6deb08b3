// A .cu file whose host side is ordinary C++: libstdc++ containers, smart
// pointers (<memory> reads `__attribute__((__noinline__))`, which the CUDA
// macro `__noinline__` must not break), streams, and std::min / std::max /
// std::swap-free algorithms in device code through clang's <algorithm> wrapper.
#include <algorithm>
#include <vector>
#include <memory>
#include <iostream>
#include <string>
#include <map>
#include <numeric>
#include <cuda_runtime.h>

__device__ __noinline__ float clampUnit(float x) { return std::min(std::max(x, 0.0f), 1.0f); }

template <typename T> __global__ void normalize(T *data, int n, T lo, T hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = clampUnit((data[i] - lo) / (hi - lo)) + std::min(i, n - 1) * T(0);
}

class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t n) : n_(n) { cudaMalloc(&ptr_, n * sizeof(float)); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  float *get() const { return ptr_; }
  size_t size() const { return n_; }

private:
  float *ptr_ = nullptr;
  size_t n_;
};

int main() {
  std::vector<float> host(4096);
  std::iota(host.begin(), host.end(), 0.0f);
  auto buf = std::make_unique<DeviceBuffer>(host.size());
  std::shared_ptr<DeviceBuffer> shared = std::move(buf);
  cudaMemcpy(shared->get(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  auto range = std::minmax_element(host.begin(), host.end());
  int n = static_cast<int>(shared->size());
  normalize<float><<<(n + 255) / 256, 256>>>(shared->get(), n, *range.first, *range.second);
  std::map<std::string, cudaError_t> status{{"normalize", cudaGetLastError()}};
  for (const auto &entry : status)
    std::cout << entry.first << ": " << cudaGetErrorString(entry.second) << "\n";
  return 0;
}
