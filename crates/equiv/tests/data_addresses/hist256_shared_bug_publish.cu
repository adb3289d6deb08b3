//--blockDim=200 --gridDim=1
//@ len(d) = 200
//@ len(h) = 256
// Bug: clears with a stride but publishes one bin per thread, as if there were as many
// threads as bins: bins 200 to 255 never reach h.
__global__ void hist(const int *d, int *h) {
  __shared__ int s[256];
  for (int k = threadIdx.x; k < 256; k += blockDim.x) s[k] = 0;
  __syncthreads();
  int b = d[threadIdx.x];
  if (b >= 0 && b < 256) atomicAdd(&s[b], 1);
  __syncthreads();
  if (threadIdx.x < 256) atomicAdd(&h[threadIdx.x], s[threadIdx.x]);
}
