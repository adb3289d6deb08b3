//--blockDim=200 --gridDim=1
//@ len(d) = 200
//@ len(h) = 256
// 256 bins; values outside [0, 256) are not counted.
__global__ void hist(const int *d, int *h) {
  int b = d[threadIdx.x];
  if (b >= 0 && b < 256) atomicAdd(&h[b], 1);
}
