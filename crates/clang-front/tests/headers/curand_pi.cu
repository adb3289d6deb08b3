// Monte-Carlo estimate of pi with the cuRAND device API: one generator state
// per thread, hits counted with a 64-bit atomic.
#include <stdio.h>
#include <curand_kernel.h>

__global__ void setup(curandState *states, unsigned long long seed) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void monteCarloPi(curandState *states, int samplesPerThread,
                             unsigned long long *hits) {
  int id = threadIdx.x + blockIdx.x * blockDim.x;
  curandState local = states[id];
  unsigned long long count = 0;
  for (int i = 0; i < samplesPerThread; ++i) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    if (x * x + y * y <= 1.0f) ++count;
  }
  float noise = curand_normal(&local);
  (void)noise;
  unsigned int raw = curand(&local);
  (void)raw;
  states[id] = local;
  atomicAdd(hits, count);
}

__global__ void philox(curandStatePhilox4_32_10_t *s, float4 *out) {
  int id = threadIdx.x;
  curand_init(1234, id, 0, &s[id]);
  out[id] = curand_uniform4(&s[id]);
}

int main() {
  const int blocks = 64, threads = 256, samples = 1000;
  curandState *d_states;
  unsigned long long *d_hits, h_hits = 0;
  cudaMalloc(&d_states, blocks * threads * sizeof(curandState));
  cudaMalloc(&d_hits, sizeof(unsigned long long));
  cudaMemset(d_hits, 0, sizeof(unsigned long long));
  setup<<<blocks, threads>>>(d_states, 1234ULL);
  monteCarloPi<<<blocks, threads>>>(d_states, samples, d_hits);
  cudaMemcpy(&h_hits, d_hits, sizeof(h_hits), cudaMemcpyDeviceToHost);
  double pi = 4.0 * (double)h_hits / ((double)blocks * threads * samples);
  printf("pi ~= %f\n", pi);
  cudaFree(d_states);
  cudaFree(d_hits);
  return 0;
}
