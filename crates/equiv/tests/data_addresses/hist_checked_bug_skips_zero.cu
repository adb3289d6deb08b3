//--blockDim=64 --gridDim=1
//@ len(d) = 64
//@ len(h) = 8
// Bug: bin 0 is never counted.
__global__ void hist(const int *d, int *h) {
  int i = threadIdx.x;
  int b = d[i];
  if (b > 0 && b < 8) atomicAdd(&h[b], 1);
}
