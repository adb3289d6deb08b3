//--blockDim=64 --gridDim=2
//@ len(d) = 128
//@ len(h) = 8
__global__ void hist(const int *d, int *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&h[d[i] & 7], 1);
}
