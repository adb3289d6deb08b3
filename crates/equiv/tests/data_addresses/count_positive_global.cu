//--blockDim=64 --gridDim=2
//@ len(d) = 128
//@ len(n) = 1
// Counts the positive values: an atomic under a branch on the data, at a fixed address.
__global__ void count(const float *d, int *n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (d[i] > 0.0f) atomicAdd(&n[0], 1);
}
