//--blockDim=200 --gridDim=1
//@ len(d) = 200
//@ len(h) = 256
// Privatised in shared memory; fewer threads than bins, so clearing and publishing stride.
__global__ void hist(const int *d, int *h) {
  __shared__ int s[256];
  for (int k = threadIdx.x; k < 256; k += blockDim.x) s[k] = 0;
  __syncthreads();
  int b = d[threadIdx.x];
  if (b >= 0 && b < 256) atomicAdd(&s[b], 1);
  __syncthreads();
  for (int k = threadIdx.x; k < 256; k += blockDim.x) atomicAdd(&h[k], s[k]);
}
