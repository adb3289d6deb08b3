//--blockDim=64 --gridDim=1
//@ len(d) = 64
//@ len(h) = 8
// Privatised, with the check written the other way round.
__global__ void hist(const int *d, int *h) {
  __shared__ int s[8];
  int i = threadIdx.x;
  if (i < 8) s[i] = 0;
  __syncthreads();
  int b = d[i];
  if (!(b < 0 || b > 7)) atomicAdd(&s[b], 1);
  __syncthreads();
  if (i < 8) atomicAdd(&h[i], s[i]);
}
