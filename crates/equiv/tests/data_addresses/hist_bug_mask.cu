//--blockDim=64 --gridDim=1
//@ len(d) = 64
//@ len(h) = 8
// Bug: four bins instead of eight.
__global__ void hist(const int *d, int *h) {
  int i = threadIdx.x;
  int b = d[i] & 3;
  atomicAdd(&h[b], 1);
}
