//--blockDim=64 --gridDim=1
//@ len(d) = 64
//@ len(h) = 8
// Bug: no barrier between counting and publishing the counts.
__global__ void hist(const int *d, int *h) {
  __shared__ int s[8];
  int i = threadIdx.x;
  if (i < 8) s[i] = 0;
  __syncthreads();
  atomicAdd(&s[d[i] & 7], 1);
  if (i < 8) atomicAdd(&h[i], s[i]);
}
