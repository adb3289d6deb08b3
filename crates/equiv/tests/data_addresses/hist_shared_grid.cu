//--blockDim=64 --gridDim=2
//@ len(d) = 128
//@ len(h) = 8
// Privatised: each block counts in shared memory, then adds its counts to the global bins.
__global__ void hist(const int *d, int *h) {
  __shared__ int s[8];
  int t = threadIdx.x;
  if (t < 8) s[t] = 0;
  __syncthreads();
  atomicAdd(&s[d[blockIdx.x * blockDim.x + t] & 7], 1);
  __syncthreads();
  if (t < 8) atomicAdd(&h[t], s[t]);
}
